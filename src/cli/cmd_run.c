/* cmd_run.c - `rxlab run SCENARIO`: one simulation, every table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/interrupt.h"
#include "cli/opts.h"
#include "cli/run_trace.h"
#include "experiment/estimate.h"
#include "experiment/sweep.h"
#include "model/scenario_load.h"
#include "model/trace_play.h"
#include "report/sim_report.h"
#include "sim/results.h"

const char run_usage[] =
	"usage: rxlab run SCENARIO [--set SECTION.KEY=VALUE ...] [--seed N] [--speed X]\n"
	"                 [--format table|csv|json] [--show-coalesce] [--style tool|friendly]\n"
	"                 [--table NAME ...] [--out-dir DIR]\n"
	"                 [--trace FILE [--trace-limit N]]\n"
	"\n"
	"Runs one scenario (an INI file or a built-in name: rxlab scenarios) and\n"
	"prints every table.\n"
	"\n"
	COMMON_OPTIONS_USAGE;

/* Add the ethtool -c table of the scenario @o names to @rep. */
static int show_coalesce(struct report *rep, const struct opts *o)
{
	struct scenario *scn = malloc(sizeof(*scn));
	char err[1024];

	if (!scn || scenario_load(scn, o->scenario, o->sets, o->n_sets, err, sizeof(err))) {
		fprintf(stderr, "rxlab: %s\n", scn ? err : "out of memory");
		free(scn);
		return -1;
	}
	report_add(rep, coalesce_table(scn));
	free(scn);
	return 0;
}

/* On a terminal, before a long run: how long it will take (experiment/estimate.h). */
static void say_estimate(const struct opts *o)
{
	struct estimate e;
	double min_s;

	if (estimate_wanted(&min_s) && estimate_run(&e, o->scenario, o->sets, o->n_sets) == 0)
		estimate_say_run(&e, min_s);
}

static int run(struct opts *o)
{
	struct results r;
	struct report *rep;
	char err[1024];
	int rc;

	if (!o->scenario)
		return common_bad("run needs a scenario: rxlab run FILE.ini (or a built-in name)",
				  NULL);
	trace_notes_for(o->scenario, o->sets, o->n_sets);
	say_estimate(o);
	if (o->trace) {
		rc = run_traced(&r, o, &rxlab_signal);
		if (rc)
			return rc;
	} else if (run_one(&r, o->scenario, o->sets, o->n_sets, &rxlab_signal, err, sizeof(err))) {
		fprintf(stderr, "rxlab: %s\n", err);
		return strstr(err, "model error") || strstr(err, "accounting") ? 1 : 2;
	}
	/* files (--out-dir) get the wide summary, as --format csv does */
	rep = run_report_styled(&r, o->fmt != OUT_TABLE || o->out_dir,
				o->friendly ? STYLE_FRIENDLY : STYLE_TOOL);
	if (o->show_coalesce && show_coalesce(rep, o) != 0) {
		report_free(rep);
		results_free(&r);
		return 2;
	}
	rc = common_emit(rep, o);
	report_free(rep);
	results_free(&r);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct opts o;
	int rc = common_parse(&o, "run", run_usage, argc, argv);

	return common_finish(&o, rc ? cli_status(rc) : run(&o));
}
