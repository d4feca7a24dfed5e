/* tune_args.c - the options of `rxlab tune` (see tune_args.h).
 *
 * Every option takes a value; an unknown word in an option's place takes
 * one too, as it always did: the last word is "missing value after", any
 * other "unknown option".
 */
#include "cli/tune_args.h"

#include <math.h>
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

/* ---- --load, --load-points, --max-loss ---- */

static int load_error(const char *what, const char *v)
{
	fprintf(stderr, "rxlab: tune: --load %s: %s; accepted a range A..B (log-spaced, "
		"--load-points N of them, 2..16, default 5) or a list of 1..16 distinct rates, "
		"each 1pps..1000Mpps, e.g. 1kpps..200kpps or 1kpps,20kpps,200kpps\n", v, what);
	return 2;
}

/* One rate of --load ("20kpps"), 1pps..1000Mpps. */
static int load_rate(const char *s, size_t len, double *out)
{
	char buf[48];
	uint64_t x;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	snprintf(buf, sizeof(buf), "%.*s", (int)len, s);
	if (unit_parse(UNIT_PPS, buf, &x, NULL, 0) != UNIT_OK || x < 1 || x > 1000000000ULL)
		return -1;
	*out = (double)x;
	return 0;
}

/* @x rounded to three significant digits (as a sweep's log range rounds
 * its inner values, experiment/sweep.h), a whole number of frames/s. */
static double round3(double x)
{
	double scale = 1.0;

	while (x / scale >= 1000.0)
		scale *= 10.0;
	return x < 1000.0 ? floor(x + 0.5) : floor(x / scale + 0.5) * scale;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* "A..B": @n log-spaced points, both ends exact, inner ones rounded. */
static int load_range(struct tune_request *r, const char *v, const char *dots, size_t n)
{
	double a, b;

	if (load_rate(v, (size_t)(dots - v), &a) || load_rate(dots + 2, strlen(dots + 2), &b))
		return load_error("not a rate at an end of the range", v);
	if (a >= b)
		return load_error("the range's first rate must be below its last", v);
	for (size_t i = 0; i < n; i++)
		r->loads[i] = i == 0 ? a : i == n - 1 ? b
				   : round3(a * pow(b / a, (double)i / (double)(n - 1)));
	for (size_t i = 1; i < n; i++)
		if (r->loads[i] <= r->loads[i - 1])
			return load_error("too many points for so narrow a range (two round to "
					  "the same rate)", v);
	r->n_loads = n;
	return 0;
}

/* "a,b,c": 1..16 distinct rates, any order (judged ascending). */
static int load_list(struct tune_request *r, const char *v)
{
	size_t n = 0;

	for (const char *p = v;; p++) {
		size_t len = strcspn(p, ",");

		if (n == TUNE_MAX_LOADS)
			return load_error("more than 16 rates", v);
		if (load_rate(p, len, &r->loads[n++]))
			return load_error("not a rate (an empty item, or not pps, kpps or Mpps)", v);
		p += len;
		if (!*p)
			break;
	}
	qsort(r->loads, n, sizeof(r->loads[0]), dbl_cmp);
	for (size_t i = 1; i < n; i++)
		if (r->loads[i] == r->loads[i - 1])
			return load_error("a rate is named twice", v);
	r->n_loads = n;
	return 0;
}

/* --load and --load-points into @o->req, after every option is read. */
static int set_loads(struct tune_opts *o)
{
	const char *v = o->load, *dots;
	char *end;
	long n = 5;

	if (o->load_points) {
		n = strtol(o->load_points, &end, 10);
		if (!*o->load_points || *end || n < 2 || n > TUNE_MAX_LOADS)
			return usage_error("--load-points takes a number of load points in 2..16, "
					   "not", o->load_points);
		if (!v || !strstr(v, ".."))
			return usage_error("--load-points applies to a range --load A..B", NULL);
	}
	if (!v)
		return 0;
	if (tune_is_trace(o->req.target))
		return usage_error("--load applies to a scenario; a trace plays at its own rate "
				   "(--speed X plays it faster or slower)", NULL);
	dots = strstr(v, "..");
	return dots ? load_range(&o->req, v, dots, (size_t)n) : load_list(&o->req, v);
}

/* --speed's number as thousandths (speed_ok() has accepted it). */
static uint64_t speed_milli(const char *v)
{
	char speed[48];
	uint64_t milli = 0;

	snprintf(speed, sizeof(speed), "%sus", v);
	unit_parse(UNIT_TIME_NS, speed, &milli, NULL, 0);
	return milli;
}

static int speeds_error(const char *what, const char *v)
{
	fprintf(stderr, "rxlab: tune: --speeds %s: %s; accepted a list of 1..16 distinct "
		"trace-speeds, each a number 0.001..1000, e.g. 0.5,1,2\n", v, what);
	return 2;
}

static bool speed_ok(const char *v);

/* Move item @n of @buf down to its place among the sorted @buf[0..n). */
static void speed_insert(char (*buf)[24], size_t n)
{
	for (size_t i = n; i > 0 && speed_milli(buf[i]) < speed_milli(buf[i - 1]); i--) {
		char t[24];

		memcpy(t, buf[i], sizeof(t));
		memcpy(buf[i], buf[i - 1], sizeof(t));
		memcpy(buf[i - 1], t, sizeof(t));
	}
}

/* --speeds X,Y,...: a trace at several speeds, sorted ascending. */
static int set_speeds(struct tune_opts *o)
{
	const char *v = o->speeds;
	size_t n = 0;

	if (!v)
		return 0;
	if (!tune_is_trace(o->req.target) || o->req.speed || o->load)
		return usage_error("--speeds applies to a trace, without --speed or --load", NULL);
	for (const char *p = v;; p++) {
		size_t len = strcspn(p, ",");

		if (n == TUNE_MAX_LOADS)
			return speeds_error("more than 16 speeds", v);
		if (len == 0 || len >= sizeof(o->speed_buf[0]))
			return speeds_error("an empty or too long item", v);
		snprintf(o->speed_buf[n], sizeof(o->speed_buf[0]), "%.*s", (int)len, p);
		if (!speed_ok(o->speed_buf[n]))
			return speeds_error("not a number 0.001..1000", v);
		speed_insert(o->speed_buf, n++);
		p += len;
		if (!*p)
			break;
	}
	for (size_t i = 0; i < n; i++) {
		if (i && speed_milli(o->speed_buf[i]) == speed_milli(o->speed_buf[i - 1]))
			return speeds_error("a speed is named twice", v);
		o->req.speeds[i] = o->speed_buf[i];
	}
	o->req.n_speeds = n;
	return 0;
}

static int set_max_loss(struct tune_opts *o, const char *v)
{
	if (tune_pct_parse(v, &o->req.max_loss_pct))
		return usage_error("--max-loss takes a share of the frames 0..100%, e.g. 0.1% "
				   "(the default), 0.5% or 0, not", v);
	return 0;
}

/* An option with a value @v. */
static int opt_value(struct tune_opts *o, const char *a, const char *v)
{
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
	if (!strcmp(a, "--table") || !strcmp(a, "--out-dir"))
		return table_opt(o, a, v);
	if (!strcmp(a, "--max-loss"))
		return set_max_loss(o, v);
	if (!strcmp(a, "--load"))
		o->load = v;
	else if (!strcmp(a, "--load-points"))
		o->load_points = v;
	else if (!strcmp(a, "--speeds"))
		o->speeds = v;
	else if (!strcmp(a, "--out"))
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
	{ "--max-loss", true }, { "--speeds", true }, { NULL, false },
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
	rc = check_trace_options(&o->req);
	if (rc == 0)
		rc = set_loads(o);
	return rc ? rc : set_speeds(o);
}
