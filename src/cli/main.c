/* main.c - the rxlab command line.
 *
 *   rxlab                      the receive-livelock experiment (default job)
 *   rxlab run SCENARIO         one simulation, every table
 *   rxlab sweep SCENARIO --vary KEY=SPEC ...
 *   rxlab tune SCENARIO_OR_TRACE --goal G ...   (tune/tune.h)
 *   rxlab merge SHARD...       join sweep shards (experiment/merge.h)
 *   rxlab plot RESULTS         figures of a sweep (report/plot.h)
 *   rxlab scenarios            built-in scenarios
 *
 * Exit status: 0 success, 1 a run failed (model error), 2 bad usage or
 * input, or output that could not be written.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/builtin.h"
#include "experiment/compare.h"
#include "experiment/scheme_list.h"
#include "experiment/estimate.h"
#include "cli/interrupt.h"
#include "experiment/merge.h"
#include "report/plot.h"
#include "cli/live.h"
#include "model/scenario_load.h"
#include "replay/replay.h"
#include "model/trace_load.h"
#include "tune/tune.h"
#include "experiment/validate.h"
#include "experiment/sweep.h"
#include "experiment/sweep_file.h"
#include "model/trace_play.h"
#include "io/outfile.h"
#include "report/sim_report.h"
#include "sim/results.h"

#define MAX_SETS 256

struct opts {
	enum out_format fmt;
	const char *sets[MAX_SETS];
	size_t n_sets;
	char seed_set[64];
	char speed_set[64];
	struct vary vary[SWEEP_MAX_VARY];
	size_t n_vary;
	size_t jobs;
	bool show_coalesce;
	const char *scenario;
	unsigned shard_k, shard_n;
	const char *resume, *out, *plot_dir;
	bool no_plot;
	int progress;           /* -1 auto, 0 off, 1 on */
	double checkpoint_s;    /* -1: not given */
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
	"  sweep SCENARIO      run the cartesian product of --vary values: one row\n"
	"                      per point with its inputs and every output metric\n"
	"  merge SHARD...      join the outputs of sweep --shard K/N into the file\n"
	"                      one unsharded run writes (--out FILE)\n"
	"  plot RESULTS        draw a sweep's figures with gnuplot (--out DIR)\n"
	"  compare [SCENARIO]  every moderation scheme on a request/response server\n"
	"                      (default scenario moderation-compare); --vary traffic.rate=...\n"
	"                      sets the request rates\n"
	"  tune SCENARIO_OR_TRACE --goal 'p99<=50us' [--goal ...] [--minimize cpu]\n"
	"                      search the moderation settings (coalescing, DIM, ITR,\n"
	"                      deferral, busy polling, IRQ suspension) for the one\n"
	"                      that meets the goals at the least cost; print the\n"
	"                      Pareto front of CPU vs latency and the Linux commands;\n"
	"                      goals on p50/p99/p999, cpu, throughput, drops, irqs;\n"
	"                      --policies LIST, --out DIR (data + gnuplot script),\n"
	"                      --iface NAME, --base SCENARIO for a trace; see docs/tune.md\n"
	"  replay KIND FILE    run dim, itr, adaptive, coalesce or defer on recorded\n"
	"                      counters (CSV, - = stdin) and print its decisions;\n"
	"                      see docs/replay.md\n"
	"  live [MODE...]      run receive modes on real packets: a veth test bed,\n"
	"                      the built-in sender, real counters (root; see\n"
	"                      'rxlab live --help' and docs/live.md)\n"
	"  live calibrate      measure this machine's veth costs into a profile\n"
	"  scenarios           list built-in scenarios\n"
	"  schemes             list the moderation schemes: what each sets, where it\n"
	"                      applies, compare's presets; see docs/schemes.md\n"
	"  seeds [SEED]        list the seed experiments (shared/seeds) built in\n"
	"  validate [SEED]     run the seed experiments; print each reported figure\n"
	"                      beside the simulated one (exit 0 only if all agree)\n"
	"  help                this text\n"
	"\n"
	"options:\n"
	"  --set SECTION.KEY=VALUE   override a scenario key (repeatable),\n"
	"                            e.g. --set nic.eth0.rx-usecs=50 --set host.rxpath=classic\n"
	"  --vary KEY=SPEC           sweep: a list (a,b,c), a range FROM..TO:N or a\n"
	"                            geometric range FROM..TO:N:log,\n"
	"                            e.g. --vary traffic.rate=10kpps..2Mpps:20:log\n"
	"  --seed N                  random seed (same as --set run.seed=N)\n"
	"  --speed X                 play a trace X times as fast (same as\n"
	"                            --set traffic.trace-speed=X); a trace is\n"
	"                            --set traffic.trace=FILE.pcap|.pcapng|.csv\n"
	"  --jobs N                  sweep points in N processes (default: all CPUs);\n"
	"                            the output is the same for any N\n"
	"  --format table|csv|json   output format (default table)\n"
	"  --shard K/N               sweep: run only the K-th of N interleaved slices\n"
	"                            of the points (merge them with rxlab merge)\n"
	"  --resume FILE             sweep: keep FILE's finished rows, run the rest\n"
	"  --out FILE                sweep: write the results to FILE instead of stdout,\n"
	"                            where > FILE would (a regular file atomically);\n"
	"                            may be the --resume FILE\n"
	"  --checkpoint SECONDS      sweep --out: rewrite FILE with the rows so far\n"
	"                            this often (default 60; 0: after every point)\n"
	"  --plot DIR                sweep, default job: draw the figures into DIR\n"
	"                            (default job: rxlab-livelock-figures)\n"
	"  --no-plot                 default job: no figures\n"
	"  --progress, --no-progress sweep: progress bar on stderr (default: only\n"
	"                            when stdout and stderr are terminals)\n"
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
	fprintf(stderr, "rxlab: unknown command '%s'; the commands are run, sweep, merge, plot, "
		"compare, validate, seeds, replay, tune, live, scenarios and help\n", cmd);
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
	    !strcmp(a, "--format") || !strcmp(a, "--jobs") || !strcmp(a, "--speed") ||
	    !strcmp(a, "--shard") || !strcmp(a, "--resume") || !strcmp(a, "--out") ||
	    !strcmp(a, "--plot") || !strcmp(a, "--checkpoint")) {
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
	if (!strcmp(a, "--speed")) {
		snprintf(o->speed_set, sizeof(o->speed_set), "traffic.trace-speed=%s", v);
		return add_set(o, o->speed_set);
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
	if (!strcmp(a, "--shard"))
		return shard_parse(v, &o->shard_k, &o->shard_n)
			       ? bad("--shard takes K/N with 1 <= K <= N (e.g. 2/8), not", v) : 0;
	if (!strcmp(a, "--checkpoint")) {
		char *end;
		double sec = strtod(v, &end);

		if (end == v || *end || !(sec >= 0 && sec <= 86400))
			return bad("--checkpoint takes seconds in 0..86400 (0: after every point), "
				   "not", v);
		o->checkpoint_s = sec;
		return 0;
	}
	if (!strcmp(a, "--resume"))
		return o->resume = v, 0;
	if (!strcmp(a, "--out"))
		return o->out = v, 0;
	if (!strcmp(a, "--plot"))
		return o->plot_dir = v, 0;
	if (!strcmp(a, "--progress") || !strcmp(a, "--no-progress")) {
		o->progress = !strcmp(a, "--progress");
		return 0;
	}
	if (!strcmp(a, "--no-plot")) {
		o->no_plot = true;
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

/* On a terminal, before a long run: how long it will take (experiment/estimate.h). */
static void say_estimate(const struct opts *o)
{
	struct estimate e;
	double min_s;

	if (estimate_wanted(&min_s) && estimate_run(&e, o->scenario, o->sets, o->n_sets) == 0)
		estimate_say_run(&e, min_s);
}

static int cmd_run(struct opts *o)
{
	struct results r;
	struct report *rep;
	char err[1024];

	if (!o->scenario)
		return bad("run needs a scenario: rxlab run FILE.ini (or a built-in name)", NULL);
	trace_notes_for(o->scenario, o->sets, o->n_sets);
	say_estimate(o);
	if (run_one(&r, o->scenario, o->sets, o->n_sets, &rxlab_signal, err, sizeof(err))) {
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
		return bad("sweep needs a scenario: rxlab sweep FILE.ini --vary KEY=SPEC", NULL);
	if (o->n_vary == 0)
		return bad("sweep needs at least one --vary KEY=SPEC", NULL);
	if (vary_check_keys(o->vary, o->n_vary, err, sizeof(err)))
		return bad(err, NULL);
	return sweep_cmd_run(&c);
}

/* compare runs every scheme at each value of one --vary (a row per scheme
 * and value, labelled with the value). */
static int cmd_compare(struct opts *o)
{
	char err[512];

	if (o->n_vary > 1)
		return bad("compare takes one --vary (its values label the rows); for a product "
			   "of variations use rxlab sweep", NULL);
	if (vary_check_keys(o->vary, o->n_vary, err, sizeof(err)))
		return bad(err, NULL);
	return compare_run(o->scenario ? o->scenario : "moderation-compare",
			   o->n_vary ? &o->vary[0] : NULL, o->sets, o->n_sets, o->fmt,
			   &rxlab_signal);
}

/* The seed experiments whose name starts with @seed ("001", "seeds/001-napi-
 * router" or "001-napi-router"), or all with no @seed. */
static bool seed_matches(const char *name, const char *seed)
{
	const char *base = name + strlen("seeds/");

	return !seed || !strncmp(base, seed, strlen(seed)) || !strncmp(name, seed, strlen(seed));
}

/* `rxlab seeds [SEED]`: the list, or the experiments of one seed; an
 * unknown one is refused with the names that exist. */
static int cmd_seeds(const struct opts *o)
{
	char names[1024] = "";
	bool any = false;

	for (const struct builtin_file *f = builtin_files; f->name; f++) {
		if (strncmp(f->name, "seeds/", 6))
			continue;
		any = any || seed_matches(f->name, o->scenario);
		if (strlen(names) + strlen(f->name) + 3 < sizeof(names))
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 names[0] ? ", " : "", f->name + 6);
	}
	if (!o->scenario)
		return seeds_list();
	if (!any || !o->scenario[0]) {
		fprintf(stderr, "rxlab: seeds: no seed experiment '%s'; the seeds are %s\n",
			o->scenario, names);
		return 2;
	}
	for (const struct builtin_file *f = builtin_files; f->name; f++) {
		const char *d = f->text;

		if (strncmp(f->name, "seeds/", 6) || !seed_matches(f->name, o->scenario))
			continue;
		if (*d == '#')
			d += 1 + strspn(d + 1, " ");
		printf("%-28s %.*s\n", f->name, (int)strcspn(d, "\n"), d);
	}
	return 0;
}

/* Options that only `sweep` (and --plot/--no-plot the default job) reads. */
static int sweep_only(const struct opts *o, const char *cmd)
{
	bool is_sweep = cmd && !strcmp(cmd, "sweep");

	if (!is_sweep && (o->shard_n || o->resume || o->out || o->progress >= 0 ||
			  o->checkpoint_s >= 0))
		return bad("--shard, --resume, --out, --checkpoint and --progress are options of "
			   "rxlab sweep", NULL);
	if (cmd && !is_sweep && o->plot_dir)
		return bad("--plot is an option of rxlab sweep and of the default job", NULL);
	if (cmd && o->no_plot)
		return bad("--no-plot is an option of the default job (rxlab with no command)", NULL);
	return 0;
}

static int cmd_scenarios(void)
{
	for (const struct builtin_file *f = builtin_files; f->name; f++)
		if (strncmp(f->name, "profiles/", 9))
			printf("%-28s %s\n", f->name, f->path);
	return 0;
}

#include "experiment/default_job.h"

static int run_command(int argc, char **argv)
{
	struct opts o = { .fmt = OUT_TABLE, .jobs = sweep_default_jobs(), .progress = -1,
			  .checkpoint_s = -1 };
	const char *cmd;
	int rc;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return fputs(usage, stdout), 0;
	/* replay and live have options of their own (replay/replay.h, cli/live.h). */
	if (argc > 1 && !strcmp(argv[1], "replay"))
		return replay_main(argc - 2, argv + 2);
	/* tune too (tune/tune.h). */
	if (argc > 1 && !strcmp(argv[1], "tune"))
		return interrupt_install(), tune_main(argc - 2, argv + 2, &rxlab_signal);
	if (argc > 1 && !strcmp(argv[1], "merge"))
		return merge_main(argc - 2, argv + 2);
	if (argc > 1 && !strcmp(argv[1], "plot"))
		return plot_main(argc - 2, argv + 2);
	if (argc > 1 && !strcmp(argv[1], "live")) {
		interrupt_install();
		return live_main(argc - 2, argv + 2);
	}
	cmd = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
	interrupt_install();
	rc = parse_opts(&o, argc, argv, cmd ? 2 : 1);
	if (rc == 0)
		rc = sweep_only(&o, cmd);

	if (rc == 0) {
		if (!cmd)
			rc = o.scenario ? unknown_command(o.scenario)
					: default_job(o.fmt, o.sets, o.n_sets, o.jobs,
						      o.no_plot ? NULL : o.plot_dir ? o.plot_dir
						      : DEFAULT_JOB_FIGURES, &rxlab_signal);
		else if (!strcmp(cmd, "run"))
			rc = cmd_run(&o);
		else if (!strcmp(cmd, "sweep"))
			rc = cmd_sweep(&o);
		else if (!strcmp(cmd, "compare"))
			rc = cmd_compare(&o);
		else if (!strcmp(cmd, "validate"))
			rc = validate_run(o.scenario, o.sets, o.n_sets, o.fmt, &rxlab_signal);
		else if (!strcmp(cmd, "seeds"))
			rc = cmd_seeds(&o);
		else if (!strcmp(cmd, "scenarios"))
			rc = cmd_scenarios();
		else if (!strcmp(cmd, "schemes"))
			rc = schemes_run(o.fmt);
		else if (!strcmp(cmd, "help"))
			rc = (fputs(usage, stdout), 0);
		else
			rc = unknown_command(cmd);
	}
	for (size_t k = 0; k < o.n_vary; k++)
		vary_free(&o.vary[k]);
	trace_cache_free();
	if (rxlab_signal) {
		fprintf(stderr, "rxlab: interrupted by signal %d; the report covers the simulated "
			"time reached and is marked partial\n", (int)rxlab_signal);
		return 128 + rxlab_signal;
	}
	return rc;
}

/* Every command's standard output is checked here, once: what stdio still
 * holds is flushed, and a write that failed at any time (a full disk,
 * /dev/full, a closed descriptor) fails the command with its reason and
 * status 2, unless it already failed (docs/output-files.md). */
int main(int argc, char **argv)
{
	int rc = run_command(argc, argv), e = outfile_stdout_error();

	errno = 0;
	if (!e && fclose(stdout) && errno != EBADF)	/* EBADF: `>&-`, nothing written */
		e = errno ? errno : EIO;
	if (e)
		fprintf(stderr, "rxlab: cannot write standard output: %s\n", strerror(e));
	return e && rc == 0 ? 2 : rc;
}
