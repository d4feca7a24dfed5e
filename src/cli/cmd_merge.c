/* cmd_merge.c - `rxlab merge SHARD... [--out FILE]`: the shards of a sweep
 * back into one file (experiment/merge.h). */
#include <stdio.h>
#include <stdlib.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "experiment/merge.h"

const char merge_usage[] =
	"usage: rxlab merge SHARD... [--out FILE]\n"
	"  SHARD  the outputs of rxlab sweep ... --shard K/N --format csv|json, one per K\n"
	"  --out  write FILE (atomically) instead of stdout\n";

struct merge_args {
	char **path;
	size_t n;
	const char *out;
};

static int on_opt(void *ctx, const char *name, const char *val)
{
	(void)name;	/* --out */
	((struct merge_args *)ctx)->out = val;
	return 0;
}

static int on_arg(void *ctx, const char *arg)
{
	struct merge_args *m = ctx;

	m->path[m->n++] = (char *)arg;
	return 0;
}

/* A missing value reads as an unknown option, as it always did. */
static int on_error(void *ctx, enum cli_error e, const char *word)
{
	(void)ctx, (void)e;
	fprintf(stderr, "rxlab merge: unknown option '%s'\n%s", word, merge_usage);
	return 2;
}

int cmd_merge(int argc, char **argv)
{
	static const struct cli_opt opts[] = { { "--out", true }, { NULL, false } };
	const struct cli_spec spec = { .opts = opts, .usage = merge_usage, .dash_is_arg = true,
				       .on_opt = on_opt, .on_arg = on_arg, .on_error = on_error };
	struct merge_args m = { .path = calloc((size_t)argc + 1, sizeof(char *)) };
	char err[1024];
	int rc;

	if (!m.path)
		return 2;
	rc = cli_parse(&spec, &m, argc, argv);
	if (rc == 0 && m.n == 0) {
		fprintf(stderr, "rxlab merge: no shards given\n%s", merge_usage);
		rc = 2;
	} else if (rc == 0 && merge_files(m.path, m.n, m.out, err, sizeof(err))) {
		fprintf(stderr, "rxlab: %s\n", err);
		rc = 2;
	}
	free(m.path);
	return cli_status(rc);
}
