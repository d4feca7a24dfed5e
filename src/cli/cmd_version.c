/* cmd_version.c - `rxlab version` and the --version of every command
 * (cli/version.h). */
#include "cli/version.h"

#include "cli/commands.h"
#include "cli/opts.h"

const char version_usage[] =
	"usage: rxlab version (also rxlab --version, rxlab COMMAND --version)\n"
	"\n"
	"Prints rxlab's version (CMakeLists.txt project VERSION) and, when it was\n"
	"built from a git work tree, the `git describe` of that tree.\n";

int version_print(FILE *f)
{
	fprintf(f, "rxlab %s\n", rxlab_version);
	if (rxlab_git[0])
		fprintf(f, "git %s\n", rxlab_git);
	return 0;
}

static int on_opt(void *ctx, const char *name, const char *val)
{
	(void)ctx, (void)name, (void)val;	/* no options but --help/--version */
	return 0;
}

static int refuse(const char *word)
{
	fprintf(stderr, "rxlab version: unexpected '%s' (it takes no arguments)\n"
		"try 'rxlab version --help'\n", word);
	return 2;
}

static int on_arg(void *ctx, const char *arg)
{
	(void)ctx;
	return refuse(arg);
}

static int on_error(void *ctx, enum cli_error e, const char *word)
{
	(void)ctx, (void)e;
	return refuse(word);
}

int cmd_version(int argc, char **argv)
{
	static const struct cli_opt opts[] = { { NULL, false } };
	const struct cli_spec spec = { .opts = opts, .usage = version_usage, .on_opt = on_opt,
				       .on_arg = on_arg, .on_error = on_error };
	int rc = cli_parse(&spec, NULL, argc, argv);

	return rc ? cli_status(rc) : version_print(stdout);
}
