/* cmd_schemes.c - `rxlab schemes`: the registry of moderation schemes
 * (include/rxlab/scheme.h) and compare's presets. */
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/opts.h"
#include "experiment/scheme_list.h"

const char schemes_usage[] =
	"usage: rxlab schemes [--format table|csv|json]\n"
	"\n"
	"Lists the moderation schemes of the registry: what each sets in the\n"
	"simulator, its tuning axes, its live modes and device knobs, the kernel\n"
	"documentation it follows and where it applies (sim, live, replay, tune,\n"
	"compare); then compare's presets.  See docs/schemes.md.\n";

int cmd_schemes(int argc, char **argv)
{
	struct opts o;
	int rc = common_parse(&o, "schemes", schemes_usage, argc, argv);

	if (rc == 0)
		rc = schemes_run(o.fmt);
	return common_finish(&o, cli_status(rc));
}
