/* cmd_default.c - `rxlab [OPTIONS]`: the receive-livelock experiment
 * (experiment/default_job.h). */
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/interrupt.h"
#include "cli/opts.h"
#include "experiment/default_job.h"

/* An argument here is a command rxlab does not know ("rxlab --seed 2 foo"). */
int cmd_default(int argc, char **argv, const char *names)
{
	struct opts o;
	int rc = common_parse(&o, NULL, default_usage, argc, argv);

	if (rc == 0 && o.scenario)
		rc = unknown_command(o.scenario, names);
	else if (rc == 0)
		rc = default_job(o.fmt, o.sets, o.n_sets, o.jobs,
				 o.no_plot ? NULL : o.plot_dir ? o.plot_dir : DEFAULT_JOB_FIGURES,
				 &rxlab_signal);
	return common_finish(&o, cli_status(rc));
}
