/* cmd_compare.c - `rxlab compare [SCENARIO]`: every moderation scheme on a
 * request/response server (experiment/compare.h). */
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/interrupt.h"
#include "cli/opts.h"
#include "experiment/compare.h"

const char compare_usage[] =
	"usage: rxlab compare [SCENARIO] [--vary traffic.rate=SPEC] [--set ...]\n"
	"                     [--format table|csv|json]\n"
	"\n"
	"Runs every moderation scheme on a request/response server (default\n"
	"scenario moderation-compare); the values of one --vary label the rows.\n"
	"\n"
	COMMON_OPTIONS_USAGE;

/* compare runs every scheme at each value of one --vary (a row per scheme
 * and value, labelled with the value). */
static int compare(struct opts *o)
{
	char err[512];

	if (o->n_vary > 1)
		return common_bad("compare takes one --vary (its values label the rows); for a "
				  "product of variations use rxlab sweep", NULL);
	if (vary_check_keys(o->vary, o->n_vary, err, sizeof(err)))
		return common_bad(err, NULL);
	common_preload(o->scenario ? o->scenario : "moderation-compare", o);	/* stdin: once */
	return compare_run(o->scenario ? o->scenario : "moderation-compare",
			   o->n_vary ? &o->vary[0] : NULL, o->sets, o->n_sets, o->fmt,
			   &rxlab_signal);
}

int cmd_compare(int argc, char **argv)
{
	struct opts o;
	int rc = common_parse(&o, "compare", compare_usage, argc, argv);

	return common_finish(&o, rc ? cli_status(rc) : compare(&o));
}
