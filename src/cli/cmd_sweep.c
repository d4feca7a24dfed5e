/* cmd_sweep.c - `rxlab sweep SCENARIO --vary KEY=SPEC ...`: the cartesian
 * product of the --vary values, one row per point (experiment/sweep_file.h). */
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/interrupt.h"
#include "cli/opts.h"
#include "experiment/sweep_file.h"

const char sweep_usage[] =
	"usage: rxlab sweep SCENARIO --vary KEY=SPEC [--vary ...] [--set ...] [--jobs N]\n"
	"                   [--format table|csv|json] [--shard K/N] [--resume FILE]\n"
	"                   [--out FILE] [--checkpoint SECONDS] [--plot DIR]\n"
	"                   [--progress|--no-progress]\n"
	"\n"
	"Runs the cartesian product of the --vary values: one row per point with\n"
	"its inputs and every output metric.\n"
	"\n"
	COMMON_OPTIONS_USAGE;

static int sweep(struct opts *o)
{
	char err[512];
	struct sweep_cmd c = {
		.scenario = o->scenario, .sets = o->sets, .n_sets = o->n_sets, .vary = o->vary,
		.n_vary = o->n_vary, .jobs = o->jobs, .fmt = o->fmt, .shard_k = o->shard_k,
		.shard_n = o->shard_n, .resume = o->resume, .out = o->out,
		.plot_dir = o->plot_dir, .progress = o->progress,
		.checkpoint_s = o->checkpoint_s < 0 ? 60 : o->checkpoint_s,
		.stop = &rxlab_signal,
	};

	if (!o->scenario)
		return common_bad("sweep needs a scenario: rxlab sweep FILE.ini --vary KEY=SPEC", NULL);
	if (o->n_vary == 0)
		return common_bad("sweep needs at least one --vary KEY=SPEC", NULL);
	if (vary_check_keys(o->vary, o->n_vary, err, sizeof(err)))
		return common_bad(err, NULL);
	common_preload(o->scenario, o);	/* standard input: read before the workers fork */
	return sweep_cmd_run(&c);
}

int cmd_sweep(int argc, char **argv)
{
	struct opts o;
	int rc = common_parse(&o, "sweep", sweep_usage, argc, argv);

	return common_finish(&o, rc ? cli_status(rc) : sweep(&o));
}
