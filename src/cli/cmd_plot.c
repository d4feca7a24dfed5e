/* cmd_plot.c - `rxlab plot RESULTS [--out DIR] [--title TEXT]`: a sweep's
 * figures (report/plot.h). */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "report/plot.h"

const char plot_usage[] =
	"usage: rxlab plot RESULTS [--out DIR] [--title TEXT]\n"
	"  RESULTS  a sweep's results (rxlab sweep --format csv or json)\n"
	"  --out    the figure directory (default: RESULTS without its extension + -figures)\n";

struct plot_args {
	const char *in, *dir, *title;
};

static int unexpected(const char *word)
{
	fprintf(stderr, "rxlab plot: unexpected argument '%s'\n%s", word, plot_usage);
	return 2;
}

static int on_opt(void *ctx, const char *name, const char *val)
{
	struct plot_args *p = ctx;

	*(!strcmp(name, "--out") ? &p->dir : &p->title) = val;
	return 0;
}

static int on_arg(void *ctx, const char *arg)
{
	struct plot_args *p = ctx;

	if (p->in)
		return unexpected(arg);
	p->in = arg;
	return 0;
}

static int on_error(void *ctx, enum cli_error e, const char *word)
{
	(void)ctx, (void)e;
	return unexpected(word);
}

int cmd_plot(int argc, char **argv)
{
	static const struct cli_opt opts[] = { { "--out", true }, { "--title", true },
					       { NULL, false } };
	const struct cli_spec spec = { .opts = opts, .usage = plot_usage, .dash_is_arg = true,
				       .on_opt = on_opt, .on_arg = on_arg, .on_error = on_error };
	struct plot_args p = { NULL, NULL, NULL };
	char err[1024], def[4096];
	const char *name;
	bool drawn = false;
	int rc = cli_parse(&spec, &p, argc, argv);

	if (rc)
		return cli_status(rc);
	if (!p.in)
		return fprintf(stderr, "rxlab plot: which results file?\n%s", plot_usage), 2;
	if (!p.dir && !strcmp(p.in, "-"))	/* standard input */
		p.dir = "stdin-figures";
	if (!p.dir) {	/* RESULTS without its extension, + "-figures" */
		const char *dot = strrchr(p.in, '.'), *slash = strrchr(p.in, '/');
		int n = dot && (!slash || dot > slash) ? (int)(dot - p.in) : (int)strlen(p.in);

		snprintf(def, sizeof(def), "%.*s-figures", n, p.in);
		p.dir = def;
	}
	name = strcmp(p.in, "-") ? p.in : "stdin";
	rc = plot_results(p.in, p.dir, p.title ? p.title : name, &drawn, err, sizeof(err));
	if (rc)
		fprintf(stderr, "rxlab: %s\n", err);
	else if (drawn)
		fprintf(stderr, "rxlab: figures of %s in %s/\n", name, p.dir);
	return rc;
}
