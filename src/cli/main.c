/* main.c - the rxlab command line.
 *
 *   rxlab                      the receive-livelock experiment (default job)
 *   rxlab run SCENARIO         one simulation, every table
 *   rxlab sweep SCENARIO --vary KEY=SPEC ...
 *   rxlab scenarios            built-in scenarios
 *
 * Exit status: 0 success, 1 a run failed (model error), 2 bad usage or
 * input.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/builtin.h"
#include "cli/compare.h"
#include "cli/interrupt.h"
#include "cli/live.h"
#include "cli/scenario_load.h"
#include "cli/replay.h"
#include "cli/validate.h"
#include "cli/sweep.h"
#include "report/sim_report.h"
#include "sim/results.h"

#define MAX_SETS 256

struct opts {
	enum out_format fmt;
	const char *sets[MAX_SETS];
	size_t n_sets;
	char seed_set[64];
	struct vary vary[SWEEP_MAX_VARY];
	size_t n_vary;
	size_t jobs;
	bool show_coalesce;
	const char *scenario;
};

static const char usage[] =
	"usage: rxlab [COMMAND] [OPTIONS]\n"
	"\n"
	"Simulates the receive path of a network host: NIC interrupt coalescing,\n"
	"NAPI polling and the kernel paths that compete for the CPU.\n"
	"\n"
	"commands:\n"
	"  (none)              receive livelock: forwarding rate vs offered load for\n"
	"                      the classic, isr-loop and napi kernels\n"
	"  run SCENARIO        run one scenario (INI file or built-in name)\n"
	"  sweep SCENARIO      run the cartesian product of --vary values\n"
	"  compare [SCENARIO]  every moderation scheme on a request/response server\n"
	"                      (default scenario moderation-compare); --vary traffic.rate=...\n"
	"                      sets the request rates\n"
	"  replay KIND FILE    run dim, itr, adaptive, coalesce or defer on recorded\n"
	"                      counters (CSV, - = stdin) and print its decisions;\n"
	"                      see docs/replay.md\n"
	"  live [MODE...]      run receive modes on real packets: a veth test bed,\n"
	"                      the built-in sender, real counters (root; see\n"
	"                      'rxlab live --help' and docs/live.md)\n"
	"  live calibrate      measure this machine's veth costs into a profile\n"
	"  scenarios           list built-in scenarios\n"
	"  seeds               list the seed experiments (shared/seeds) built in\n"
	"  validate [SEED]     run the seed experiments; print each reported figure\n"
	"                      beside the simulated one (exit 0 only if all agree)\n"
	"  help                this text\n"
	"\n"
	"options:\n"
	"  --set SECTION.KEY=VALUE   override a scenario key (repeatable),\n"
	"                            e.g. --set nic.eth0.rx-usecs=50 --set host.rxpath=classic\n"
	"  --vary KEY=SPEC           sweep: a list (a,b,c) or a range FROM..TO:N\n"
	"                            e.g. --vary traffic.rate=10kpps..2Mpps:20\n"
	"  --seed N                  random seed (same as --set run.seed=N)\n"
	"  --jobs N                  sweep points in N processes (default: all CPUs);\n"
	"                            the output is the same for any N\n"
	"  --format table|csv|json   output format (default table)\n"
	"  --show-coalesce           run: also print each port's coalescing settings\n"
	"                            (ethtool -c)\n"
	"\n"
	"Scenario keys use ethtool / sysfs names with units (us, ms, s, pps, kpps,\n"
	"Mpps, Mbit, Gbit, KiB); see docs/scenarios.md.\n";

static int bad(const char *msg, const char *arg)
{
	fprintf(stderr, "rxlab: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
	fprintf(stderr, "try 'rxlab help'\n");
	return 2;
}

static int unknown_command(const char *cmd)
{
	fprintf(stderr, "rxlab: unknown command '%s'; the commands are run, sweep, compare, "
		"validate, seeds, replay, live, scenarios and help\n", cmd);
	fprintf(stderr, "try 'rxlab help'\n");
	return 2;
}

static int add_set(struct opts *o, const char *s)
{
	if (o->n_sets == MAX_SETS)
		return bad("too many --set options (at most 256)", NULL);
	o->sets[o->n_sets++] = s;
	return 0;
}

/* One option at argv[*i]; returns 0 or an exit status. */
static int parse_opt(struct opts *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	char err[512];

	if (!strcmp(a, "--set") || !strcmp(a, "--vary") || !strcmp(a, "--seed") ||
	    !strcmp(a, "--format") || !strcmp(a, "--jobs")) {
		if (!v)
			return bad("missing value after", a);
		(*i)++;
	}
	if (!strcmp(a, "--set"))
		return add_set(o, v);
	if (!strcmp(a, "--seed")) {
		snprintf(o->seed_set, sizeof(o->seed_set), "run.seed=%s", v);
		return add_set(o, o->seed_set);
	}
	if (!strcmp(a, "--jobs")) {
		char *end;
		long j = strtol(v, &end, 10);

		if (*end || j < 1 || j > SWEEP_MAX_JOBS)
			return bad("--jobs takes a number of processes in 1..256, not", v);
		o->jobs = (size_t)j;
		return 0;
	}
	if (!strcmp(a, "--format"))
		return out_format_parse(v, &o->fmt) ? bad("--format takes table, csv or json, not", v) : 0;
	if (!strcmp(a, "--vary")) {
		if (o->n_vary == SWEEP_MAX_VARY)
			return bad("too many --vary options (at most 8)", NULL);
		if (vary_parse(&o->vary[o->n_vary], v, err, sizeof(err)))
			return bad(err, NULL);
		o->n_vary++;
		return 0;
	}
	if (!strcmp(a, "--show-coalesce")) {
		o->show_coalesce = true;
		return 0;
	}
	if (a[0] == '-')
		return bad("unknown option", a);
	if (o->scenario)
		return bad("more than one scenario given:", a);
	o->scenario = a;
	return 0;
}

static int parse_opts(struct opts *o, int argc, char **argv, int first)
{
	for (int i = first; i < argc; i++) {
		int rc = parse_opt(o, argc, argv, &i);

		if (rc)
			return rc;
	}
	return 0;
}

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

static int cmd_run(struct opts *o)
{
	struct results r;
	struct report *rep;
	char err[1024];

	if (!o->scenario)
		return bad("run needs a scenario: rxlab run FILE.ini (or a built-in name)", NULL);
	if (run_one(&r, o->scenario, o->sets, o->n_sets, err, sizeof(err))) {
		fprintf(stderr, "rxlab: %s\n", err);
		return strstr(err, "model error") || strstr(err, "accounting") ? 1 : 2;
	}
	rep = run_report(&r, o->fmt != OUT_TABLE);
	if (o->show_coalesce && show_coalesce(rep, o) != 0) {
		report_free(rep);
		results_free(&r);
		return 2;
	}
	report_print(rep, stdout, o->fmt);
	report_free(rep);
	results_free(&r);
	return 0;
}

static int cmd_sweep(struct opts *o)
{
	const char *keys[SWEEP_MAX_VARY];
	struct table *t;
	struct report *rep;
	char err[1024];
	int rc;

	if (!o->scenario)
		return bad("sweep needs a scenario: rxlab sweep FILE.ini --vary KEY=SPEC", NULL);
	if (o->n_vary == 0)
		return bad("sweep needs at least one --vary KEY=SPEC", NULL);
	for (size_t k = 0; k < o->n_vary; k++)
		keys[k] = o->vary[k].key;
	t = summary_table_new("sweep", "Sweep", keys, o->n_vary, o->fmt != OUT_TABLE);
	rc = sweep_run(t, o->scenario, o->sets, o->n_sets, o->vary, o->n_vary, o->jobs,
		       o->fmt != OUT_TABLE, NULL, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "rxlab: %s\n", err);
		table_free(t);
		return 2;
	}
	rep = report_new();
	report_add(rep, t);
	report_print(rep, stdout, o->fmt);
	report_free(rep);
	return 0;
}

static int cmd_scenarios(void)
{
	for (const struct builtin_file *f = builtin_files; f->name; f++)
		if (strncmp(f->name, "profiles/", 9))
			printf("%-28s %s\n", f->name, f->path);
	return 0;
}

#include "cli/default_job.h"

int main(int argc, char **argv)
{
	struct opts o = { .fmt = OUT_TABLE, .jobs = sweep_default_jobs() };
	const char *cmd;
	int rc;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return fputs(usage, stdout), 0;
	/* replay and live have options of their own (cli/replay.h, cli/live.h). */
	if (argc > 1 && !strcmp(argv[1], "replay"))
		return replay_main(argc - 2, argv + 2);
	if (argc > 1 && !strcmp(argv[1], "live")) {
		interrupt_install();
		return live_main(argc - 2, argv + 2);
	}
	cmd = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
	interrupt_install();
	rc = parse_opts(&o, argc, argv, cmd ? 2 : 1);

	if (rc == 0) {
		if (!cmd)
			rc = o.scenario ? unknown_command(o.scenario)
					: default_job(o.fmt, o.sets, o.n_sets, o.jobs);
		else if (!strcmp(cmd, "run"))
			rc = cmd_run(&o);
		else if (!strcmp(cmd, "sweep"))
			rc = cmd_sweep(&o);
		else if (!strcmp(cmd, "compare"))
			rc = compare_run(o.scenario ? o.scenario : "moderation-compare",
					 o.n_vary ? &o.vary[0] : NULL, o.sets, o.n_sets, o.fmt);
		else if (!strcmp(cmd, "validate"))
			rc = validate_run(o.scenario, o.sets, o.n_sets, o.fmt);
		else if (!strcmp(cmd, "seeds"))
			rc = seeds_list();
		else if (!strcmp(cmd, "scenarios"))
			rc = cmd_scenarios();
		else if (!strcmp(cmd, "help"))
			rc = (fputs(usage, stdout), 0);
		else
			rc = unknown_command(cmd);
	}
	for (size_t k = 0; k < o.n_vary; k++)
		vary_free(&o.vary[k]);
	if (rxlab_signal) {
		fprintf(stderr, "rxlab: interrupted by signal %d; the report covers the simulated "
			"time reached and is marked partial\n", (int)rxlab_signal);
		return 128 + rxlab_signal;
	}
	return rc;
}
