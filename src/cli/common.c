/* common.c - the options of run, sweep, compare, validate, seeds,
 * scenarios, help and the default job (see common.h). */
#include "cli/common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/interrupt.h"
#include "cli/opts.h"
#include "cli/run_trace.h"
#include "experiment/sweep_file.h"
#include "io/infile.h"
#include "model/scenario_load.h"
#include "model/trace_load.h"
#include "report/sim_report.h"


static const struct cli_opt common_opts[] = {
	{ "--set", true }, { "--vary", true }, { "--seed", true }, { "--format", true },
	{ "--jobs", true }, { "--speed", true }, { "--shard", true }, { "--resume", true },
	{ "--out", true }, { "--plot", true }, { "--checkpoint", true },
	{ "--progress", false }, { "--no-progress", false }, { "--no-plot", false },
	{ "--show-coalesce", false }, { "--keys", false }, { "--table", true },
	{ "--out-dir", true }, { "--trace", true }, { "--trace-limit", true }, { "--style", true },
	{ NULL, false },
};

int common_bad(const char *msg, const char *arg)
{
	fprintf(stderr, "rxlab: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
	fprintf(stderr, "try 'rxlab help'\n");
	return 2;
}

static int add_set(struct opts *o, const char *s)
{
	if (o->n_sets == MAX_SETS)
		return common_bad("too many --set options (at most 256)", NULL);
	o->sets[o->n_sets++] = s;
	return 0;
}

static int set_jobs(struct opts *o, const char *v)
{
	char *end;
	long j = strtol(v, &end, 10);

	if (*end || j < 1 || j > SWEEP_MAX_JOBS)
		return common_bad("--jobs takes a number of processes in 1..256, not", v);
	o->jobs = (size_t)j;
	o->jobs_set = true;
	return 0;
}

static int add_vary(struct opts *o, const char *v)
{
	char err[512];

	if (o->n_vary == SWEEP_MAX_VARY)
		return common_bad("too many --vary options (at most 8)", NULL);
	if (vary_parse(&o->vary[o->n_vary], v, err, sizeof(err)))
		return common_bad(err, NULL);
	o->n_vary++;
	return 0;
}

static int set_trace_limit(struct opts *o, const char *v)
{
	char *end;
	unsigned long long n = strtoull(v, &end, 10);

	if (v[0] < '0' || v[0] > '9' || *end || n > 1000000000000ULL)
		return common_bad("--trace-limit takes a number of events in 0..1000000000000 "
				  "(0: no limit), not", v);
	o->trace_limit = n;
	o->trace_limit_set = true;
	return 0;
}

static int set_checkpoint(struct opts *o, const char *v)
{
	char *end;
	double sec = strtod(v, &end);

	if (end == v || *end || !(sec >= 0 && sec <= 86400))
		return common_bad("--checkpoint takes seconds in 0..86400 (0: after every point), "
				  "not", v);
	o->checkpoint_s = sec;
	return 0;
}

/* run --style: how the tables that imitate a tool print (report/sim_report.h). */
static int set_style(struct opts *o, const char *v)
{
	enum report_style st;

	if (report_style_parse(v, &st))
		return common_bad("--style takes tool or friendly, not", v);
	o->friendly = st == STYLE_FRIENDLY;
	return 0;
}

/* --table NAME (repeatable) and --out-dir DIR: run's outputs. */
static int table_opt(struct opts *o, const char *a, const char *v)
{
	if (!strcmp(a, "--out-dir")) {
		if (!*v)
			return common_bad("--out-dir takes a directory, not an empty word", NULL);
		o->out_dir = v;
	} else if (o->n_tables == MAX_TABLES) {
		return common_bad("too many --table options (at most 32)", NULL);
	} else {
		o->tables[o->n_tables++] = v;
	}
	return 0;
}

/* --table and --out-dir: options of run; several tables in CSV on stdout
 * would be the multi-table stream they replace. */
static int tables_only(const struct opts *o, const char *cmd)
{
	if ((o->n_tables || o->out_dir) && !(cmd && !strcmp(cmd, "run")))
		return common_bad("--table and --out-dir are options of rxlab run (and tune)", NULL);
	if (o->n_tables > 1 && o->fmt == OUT_CSV && !o->out_dir)
		return common_bad("CSV on standard output is one table: give one --table, or "
				  "--out-dir DIR for a file per table", NULL);
	return 0;
}

void common_preload(const char *scenario, const struct opts *o)
{
	struct scenario *scn = malloc(sizeof(*scn));
	char err[1024];

	if (scn)	/* what it says, the command's own load says again */
		(void)scenario_load(scn, scenario, o->sets, o->n_sets, err, sizeof(err));
	free(scn);
	infile_stdin_parent_only();	/* a worker that still wants it is refused */
}

int common_emit(struct report *rep, const struct opts *o)
{
	char err[2048];

	if (o->n_tables && report_select(rep, o->tables, o->n_tables, err, sizeof(err)))
		return common_bad("--table:", err);
	if (o->out_dir) {
		if (report_write_dir(rep, o->out_dir, o->fmt == OUT_JSON ? OUT_JSON : OUT_CSV, err,
				     sizeof(err)) == 0)
			return 0;
		fprintf(stderr, "rxlab: %s\n", err);
		return 2;
	}
	if (o->n_tables)
		report_print_units(rep, stdout, o->fmt);
	else
		report_print(rep, stdout, o->fmt);
	return 0;
}

/* An option without a value. */
static int on_flag(struct opts *o, const char *a)
{
	if (!strcmp(a, "--progress") || !strcmp(a, "--no-progress"))
		o->progress = !strcmp(a, "--progress");
	else if (!strcmp(a, "--no-plot"))
		o->no_plot = true;
	else if (!strcmp(a, "--keys"))
		o->keys = true;
	else
		o->show_coalesce = true;	/* --show-coalesce */
	return 0;
}

static int on_opt(void *ctx, const char *a, const char *v)
{
	struct opts *o = ctx;

	if (!v)
		return on_flag(o, a);
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
	if (!strcmp(a, "--jobs"))
		return set_jobs(o, v);
	if (!strcmp(a, "--format"))
		return out_format_parse(v, &o->fmt) ? common_bad("--format takes table, csv or json, "
								 "not", v) : 0;
	if (!strcmp(a, "--vary"))
		return add_vary(o, v);
	if (!strcmp(a, "--shard"))
		return shard_parse(v, &o->shard_k, &o->shard_n)
			       ? common_bad("--shard takes K/N with 1 <= K <= N (e.g. 2/8), not", v) : 0;
	if (!strcmp(a, "--checkpoint"))
		return set_checkpoint(o, v);
	if (!strcmp(a, "--table") || !strcmp(a, "--out-dir"))
		return table_opt(o, a, v);
	if (!strcmp(a, "--trace-limit"))
		return set_trace_limit(o, v);
	if (!strcmp(a, "--trace")) {
		o->trace = v;
		return 0;
	}
	if (!strcmp(a, "--style"))
		return set_style(o, v);
	if (!strcmp(a, "--resume"))
		o->resume = v;
	else if (!strcmp(a, "--out"))
		o->out = v;
	else
		o->plot_dir = v;	/* --plot */
	return 0;
}

static int on_arg(void *ctx, const char *a)
{
	struct opts *o = ctx;

	if (o->scenario)
		return common_bad("more than one scenario given:", a);
	o->scenario = a;
	return 0;
}

static int on_error(void *ctx, enum cli_error e, const char *word)
{
	(void)ctx;
	return common_bad(e == CLI_MISSING ? "missing value after" : "unknown option", word);
}

/* Options that only `sweep` (and --plot/--no-plot the default job) reads. */
static int sweep_only(const struct opts *o, const char *cmd)
{
	bool is_sweep = cmd && !strcmp(cmd, "sweep");

	if (!is_sweep && (o->shard_n || o->resume || o->out || o->progress >= 0 ||
			  o->checkpoint_s >= 0))
		return common_bad("--shard, --resume, --out, --checkpoint and --progress are options "
				  "of rxlab sweep", NULL);
	if (cmd && !is_sweep && o->plot_dir)
		return common_bad("--plot is an option of rxlab sweep and of the default job", NULL);
	if (cmd && o->no_plot)
		return common_bad("--no-plot is an option of the default job (rxlab with no command)",
				  NULL);
	if (o->n_vary && !(cmd && (is_sweep || !strcmp(cmd, "compare"))))
		return common_bad("--vary is an option of rxlab sweep and rxlab compare", NULL);
	if (o->jobs_set && cmd && !is_sweep && strcmp(cmd, "validate"))
		return common_bad("--jobs is an option of rxlab sweep, rxlab validate and of the "
				  "default job", NULL);
	if (o->keys && !(cmd && !strcmp(cmd, "scenarios")))
		return common_bad("--keys is an option of rxlab scenarios", NULL);
	if ((o->trace || o->trace_limit_set) && !(cmd && !strcmp(cmd, "run")))
		return common_bad("--trace and --trace-limit are options of rxlab run", NULL);
	if (o->trace_limit_set && !o->trace)
		return common_bad("--trace-limit needs --trace FILE", NULL);
	return 0;
}

int common_parse(struct opts *o, const char *cmd, const char *usage, int argc, char **argv)
{
	/* "-": a scenario on standard input, for the commands that run one */
	bool dash = cmd && (!strcmp(cmd, "run") || !strcmp(cmd, "sweep") ||
			    !strcmp(cmd, "compare"));
	const struct cli_spec spec = { .opts = common_opts, .usage = usage, .dash_is_arg = dash,
				       .on_opt = on_opt, .on_arg = on_arg, .on_error = on_error };
	int rc;

	*o = (struct opts){ .fmt = OUT_TABLE, .jobs = sweep_default_jobs(), .progress = -1,
			    .checkpoint_s = -1, .trace_limit = RUN_TRACE_LIMIT };
	interrupt_install();
	rc = cli_parse(&spec, o, argc, argv);
	if (rc == 0)
		rc = tables_only(o, cmd);
	return rc ? rc : sweep_only(o, cmd);
}

int common_finish(struct opts *o, int rc)
{
	for (size_t k = 0; k < o->n_vary; k++)
		vary_free(&o->vary[k]);
	trace_cache_free();
	if (rxlab_signal) {
		fprintf(stderr, "rxlab: interrupted by signal %d; the report covers the simulated "
			"time reached and is marked partial\n", (int)rxlab_signal);
		return 128 + rxlab_signal;
	}
	return rc;
}
