/* tune_args.c - the options of `rxlab tune` (see tune_args.h).
 *
 * Every option takes a value; an unknown word in an option's place takes
 * one too, as it always did: the last word is "missing value after", any
 * other "unknown option".
 */
#include "cli/tune_args.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "experiment/sweep.h"
#include "model/units.h"
#include "rxlab/live.h"
#include "rxlab/scheme.h"
#include "tune/tune.h"

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "rxlab: tune: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
	fprintf(stderr, "try 'rxlab help'\n");
	return 2;
}

static int policies_error(const char *what)
{
	char names[256];

	rxl_scheme_names(names, sizeof(names), RXL_SCHEME_TUNE, 0);
	fprintf(stderr, "rxlab: tune: --policies: %s; the policies are %s\n", what, names);
	return 2;
}

/* "coalesce,defer": at least one name, each known and named once, no empty
 * item (",," or a ',' at either end). */
static int set_policies(struct tune_opts *o, const char *list)
{
	char name[64], what[400];

	if (!*list)
		return policies_error("no policy named (the list is empty)");
	memset(o->req.enabled, 0, sizeof(o->req.enabled));
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");
		int i;

		if (len == 0) {
			snprintf(what, sizeof(what), "an empty name in '%.300s' (two commas, or one "
				 "at an end)", list);
			return policies_error(what);
		}
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		i = len < sizeof(name) ? rxl_scheme_index(RXL_SCHEME_TUNE, 0, name) : -1;
		if (i < 0) {
			snprintf(what, sizeof(what), "unknown policy '%s%s'", name,
				 len < sizeof(name) ? "" : "...");
			return policies_error(what);
		}
		if (o->req.enabled[i]) {
			snprintf(what, sizeof(what), "'%s' is named twice", name);
			return policies_error(what);
		}
		o->req.enabled[i] = true;
		p += len;
		if (!*p)
			return 0;
	}
}

static int set_objective(struct tune_opts *o, const char *opt, const char *v)
{
	char err[256];
	bool max;

	if (objective_parse(v, &o->req.objective, &max, err, sizeof(err)))
		return usage_error(err, NULL);
	if (max != !strcmp(opt, "--maximize"))
		return usage_error(max ? "throughput is maximised: write --maximize throughput"
				       : "only throughput can be maximised; minimise the others:",
				   max ? NULL : v);
	o->req.maximize = max;
	return 0;
}

static int set_jobs(struct tune_opts *o, const char *v)
{
	char *end;
	long j = strtol(v, &end, 10);

	if (!*v || *end || j < 1 || j > SWEEP_MAX_JOBS)
		return usage_error("--jobs takes a number of processes in 1..256, not", v);
	o->req.jobs = (size_t)j;
	return 0;
}

static int add_goal(struct tune_opts *o, const char *v)
{
	char err[512];

	if (o->req.n_goals == TUNE_MAX_GOALS)
		return usage_error("too many --goal options (at most 8)", NULL);
	if (goal_parse(&o->req.goal[o->req.n_goals], v, err, sizeof(err)))
		return usage_error(err, NULL);
	o->req.n_goals++;
	return 0;
}

static int add_user_set(struct tune_opts *o, const char *v)
{
	if (o->req.n_user_sets == TUNE_MAX_USER_SETS)
		return usage_error("too many --set options (at most 256)", NULL);
	o->req.user_sets[o->req.n_user_sets++] = v;
	return 0;
}

static int set_seed(struct tune_opts *o, const char *v)
{
	if (strlen(v) > 20)
		return usage_error("--seed takes a number 0..18446744073709551615, not", v);
	snprintf(o->seed_set, sizeof(o->seed_set), "run.seed=%s", v);
	return add_user_set(o, o->seed_set);
}

static int set_iface(struct tune_opts *o, const char *v)
{
	char err[400];

	if (rxl_ifname_check(v, err, sizeof(err))) {
		fprintf(stderr, "rxlab: tune: --iface: %s\n", err);
		return 2;
	}
	o->req.iface = v;
	return 0;
}

/* --table NAME (repeatable) and --out-dir DIR: the tables one by one. */
static int table_opt(struct tune_opts *o, const char *a, const char *v)
{
	if (!strcmp(a, "--out-dir")) {
		if (!*v)
			return usage_error("--out-dir takes a directory, not an empty word", NULL);
		o->tables_dir = v;
	} else if (o->n_tables == sizeof(o->tables) / sizeof(o->tables[0])) {
		return usage_error("too many --table options (at most 8)", NULL);
	} else {
		o->tables[o->n_tables++] = v;
	}
	return 0;
}

/* --verify, --allow-host-iface (no value), --verify-duration D (10ms..600s),
 * --verify-tolerance X (a factor 1.01..100, measured/predicted in [1/X, X]). */
static int verify_opt(struct tune_opts *o, const char *a, const char *v)
{
	char msg[512], *end;
	uint64_t ns;
	double x;

	if (!strcmp(a, "--verify"))
		return o->verify = true, 0;
	if (!strcmp(a, "--allow-host-iface"))
		return o->allow_host_iface = true, 0;
	if (!strcmp(a, "--verify-duration")) {
		if (unit_parse_key(UNIT_TIME_NS, "--verify-duration", v, VERIFY_MIN_DURATION_NS,
				   VERIFY_MAX_DURATION_NS, NULL, &ns, msg, sizeof(msg)))
			return usage_error(msg, NULL);
		o->vopt.duration_ns = (int64_t)ns;
		return 0;
	}
	x = strtod(v, &end);
	if (!*v || *end || !(x >= 1.01 && x <= 100))
		return usage_error("--verify-tolerance takes a factor 1.01..100 (2: measured within "
				   "half to twice the prediction agrees), not", v);
	o->vopt.tolerance = x;
	return 0;
}

/* --placement auto | on | off (tune_request.h). */
static int set_placement(struct tune_opts *o, const char *v)
{
	static const char *const words[] = { "auto", "on", "off" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(v, words[i])) {
			o->req.placement = (enum tune_placement_mode)i;
			return 0;
		}
	return usage_error("--placement takes auto (on when the port has several queues), on "
			   "or off, not", *v ? v : "an empty word");
}

/* --per-queue auto | on | off (tune_request.h). */
static int set_per_queue(struct tune_opts *o, const char *v)
{
	static const char *const words[] = { "auto", "on", "off" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(v, words[i])) {
			o->req.per_queue = (enum tune_per_queue_mode)i;
			return 0;
		}
	return usage_error("--per-queue takes auto (on when the port's queues carry unequal "
			   "load), on or off, not", *v ? v : "an empty word");
}

/* An option with a value @v. */
static int opt_value(struct tune_opts *o, const char *a, const char *v)
{
	int rc = tune_load_opt(&o->load, &o->req, a, v);

	if (rc != 1)
		return rc;
	if (!strncmp(a, "--verify", 8) || !strcmp(a, "--allow-host-iface"))
		return verify_opt(o, a, v);
	if (!strcmp(a, "--goal"))
		return add_goal(o, v);
	if (!strcmp(a, "--minimize") || !strcmp(a, "--maximize"))
		return set_objective(o, a, v);
	if (!strcmp(a, "--policies"))
		return set_policies(o, v);
	if (!strcmp(a, "--jobs"))
		return set_jobs(o, v);
	if (!strcmp(a, "--format"))
		return out_format_parse(v, &o->fmt) ? usage_error("--format takes table, csv or "
								  "json, not", v) : 0;
	if (!strcmp(a, "--set"))
		return add_user_set(o, v);
	if (!strcmp(a, "--seed"))
		return set_seed(o, v);
	if (!strcmp(a, "--iface"))
		return set_iface(o, v);
	if (!strcmp(a, "--placement"))
		return set_placement(o, v);
	if (!strcmp(a, "--per-queue"))
		return set_per_queue(o, v);
	if (!strcmp(a, "--table") || !strcmp(a, "--out-dir"))
		return table_opt(o, a, v);
	if (!strcmp(a, "--out"))
		o->out_dir = v;
	else if (!strcmp(a, "--speed"))
		o->req.speed = v;
	else
		o->req.base = v;	/* --base */
	return 0;
}

/* --speed X: a number 0.001..1000, read as a time in us so that it takes
 * the units' grammar (and its 1 ns grain: 0.001) without a float parser. */
static bool speed_ok(const char *v)
{
	char speed[48];
	uint64_t milli;

	if (strlen(v) > 16)
		return false;
	snprintf(speed, sizeof(speed), "%sus", v);
	return unit_parse(UNIT_TIME_NS, speed, &milli, NULL, 0) == 0 && milli >= 1 &&
	       milli <= 1000000;
}

/* --speed and --base are about a trace (tune_is_trace()) only. */
static int check_trace_options(const struct tune_request *r)
{
	if (!tune_is_trace(r->target) && (r->speed || r->base))
		return usage_error(r->speed ? "--speed" : "--base", "applies to a trace (.pcap, "
				   ".pcapng, .cap or .csv) only");
	if (r->speed && !speed_ok(r->speed))
		return usage_error("--speed takes a number 0.001..1000 (2 plays the trace twice "
				   "as fast), not", r->speed);
	return 0;
}

static const struct cli_opt tune_opts_table[] = {
	{ "--goal", true }, { "--minimize", true }, { "--maximize", true }, { "--policies", true },
	{ "--jobs", true }, { "--format", true }, { "--set", true }, { "--seed", true },
	{ "--iface", true }, { "--out", true }, { "--speed", true }, { "--base", true },
	{ "--table", true }, { "--out-dir", true }, { "--load", true }, { "--load-points", true },
	{ "--speeds", true }, { "--max-loss", true }, { "--verify", false },
	{ "--verify-duration", true }, { "--verify-tolerance", true },
	{ "--allow-host-iface", false }, { "--placement", true },
	{ "--per-queue", true }, { NULL, false },
};

struct tune_args {
	struct tune_opts *o;
	const char *last;	/* the last word */
};

static int on_opt(void *ctx, const char *name, const char *val)
{
	return opt_value(((struct tune_args *)ctx)->o, name, val);
}

static int on_arg(void *ctx, const char *arg)
{
	struct tune_opts *o = ((struct tune_args *)ctx)->o;

	if (o->req.target)
		return usage_error("more than one scenario or trace given:", arg);
	o->req.target = arg;
	return 0;
}

static int on_error(void *ctx, enum cli_error e, const char *word)
{
	bool missing = e == CLI_MISSING || word == ((struct tune_args *)ctx)->last;

	return usage_error(missing ? "missing value after" : "unknown option", word);
}

void tune_opts_init(struct tune_opts *o, size_t jobs)
{
	memset(o, 0, sizeof(*o));
	tune_request_init(&o->req, jobs);
	o->fmt = OUT_TABLE;
	verify_opts_init(&o->vopt);
}

int tune_opts_parse(struct tune_opts *o, int argc, char **argv)
{
	const struct cli_spec spec = { .opts = tune_opts_table, .usage = tune_usage,
				       .dash_is_arg = true, /* "-": a scenario on stdin */
				       .on_opt = on_opt, .on_arg = on_arg, .on_error = on_error };
	struct tune_args a = { o, argc ? argv[argc - 1] : NULL };
	char **args = malloc(((size_t)argc + 2) * sizeof(*args));
	int rc;

	if (!args)
		return usage_error("out of memory", NULL);
	args[0] = "tune";	/* the parser's argv[0] is the command's name */
	memcpy(args + 1, argv, (size_t)argc * sizeof(*args));
	args[argc + 1] = NULL;
	rc = cli_parse(&spec, &a, argc + 1, args);
	free(args);
	if (rc)
		return rc;
	if (!o->req.target)
		return usage_error("needs a scenario or a trace: rxlab tune SCENARIO_OR_TRACE "
				   "--goal 'p99<=50us' --minimize cpu", NULL);
	if (o->req.n_goals == 0)
		return usage_error("needs at least one --goal, e.g. --goal 'p99<=50us'", NULL);
	if (o->n_tables > 1 && o->fmt == OUT_CSV && !o->tables_dir)
		return usage_error("CSV on standard output is one table: give one --table, or "
				   "--out-dir DIR for a file per table", NULL);
	if (!o->verify && (o->vopt.duration_ns != VERIFY_DEFAULT_DURATION_NS ||
			   o->vopt.tolerance != VERIFY_DEFAULT_TOLERANCE || o->allow_host_iface))
		return usage_error("--verify-duration, --verify-tolerance and --allow-host-iface "
				   "go with --verify", NULL);
	if (o->verify && (o->n_tables || o->tables_dir))
		return usage_error("--verify prints its own table: leave out --table and --out-dir",
				   NULL);
	rc = check_trace_options(&o->req);
	return rc ? rc : tune_load_finish(&o->load, &o->req, tune_is_trace(o->req.target));
}
