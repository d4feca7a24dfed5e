/* cmd_validate.c - `rxlab validate [SEED]`: the seed experiments, each
 * reported figure beside the simulated one (experiment/validate.h). */
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/interrupt.h"
#include "cli/opts.h"
#include "experiment/validate.h"

const char validate_usage[] =
	"usage: rxlab validate [SEED] [--set ...] [--format table|csv|json]\n"
	"\n"
	"Runs the seed experiments (rxlab seeds), or those of SEED, and prints each\n"
	"reported figure beside the simulated one, with its id and class:\n"
	"  fitted       a parameter was chosen to match it (fitted_param: FILE: KEYS)\n"
	"  predicted    no parameter was set from it\n"
	"  derived      it follows from an input or another figure (not scored)\n"
	"  qualitative  a direction or an ordering the post reports\n"
	"The model's own answers (not in the posts) print in a second table, out\n"
	"of the score.  Exit 0 only if every fitted, predicted and qualitative\n"
	"figure agrees (within 25%, or the stated direction); 1 if one does not.\n"
	"\n"
	COMMON_OPTIONS_USAGE;

int cmd_validate(int argc, char **argv)
{
	struct opts o;
	int rc = common_parse(&o, "validate", validate_usage, argc, argv);

	if (rc == 0)
		rc = validate_run(o.scenario, o.sets, o.n_sets, o.fmt, o.jobs, &rxlab_signal);
	return common_finish(&o, cli_status(rc));
}
