/* tune_opts.c - the options of `rxlab tune` (see tune_opts.h). */
#include "tune/tune_opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/sweep.h"
#include "rxlab/scheme.h"
#include "rxlab/live.h"

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "rxlab: tune: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
	fprintf(stderr, "try 'rxlab help'\n");
	return 2;
}

void tune_opts_init(struct tune_opts *o, size_t jobs)
{
	memset(o, 0, sizeof(*o));
	o->jobs = jobs;
	o->objective = TM_CPU;
	o->fmt = OUT_TABLE;
	for (size_t p = 0; p < rxl_scheme_count(RXL_SCHEME_TUNE, 0) && p < TUNE_MAX_POLICIES; p++)
		o->enabled[p] = true;
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
	memset(o->enabled, 0, sizeof(o->enabled));
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
		if (o->enabled[i]) {
			snprintf(what, sizeof(what), "'%s' is named twice", name);
			return policies_error(what);
		}
		o->enabled[i] = true;
		p += len;
		if (!*p)
			return 0;
	}
}

static int set_objective(struct tune_opts *o, const char *opt, const char *v)
{
	char err[256];
	bool max;

	if (objective_parse(v, &o->objective, &max, err, sizeof(err)))
		return usage_error(err, NULL);
	if (max != !strcmp(opt, "--maximize"))
		return usage_error(max ? "throughput is maximised: write --maximize throughput"
				       : "only throughput can be maximised; minimise the others:",
				   max ? NULL : v);
	o->maximize = max;
	o->objective_set = true;
	return 0;
}

static int set_jobs(struct tune_opts *o, const char *v)
{
	char *end;
	long j = strtol(v, &end, 10);

	if (!*v || *end || j < 1 || j > SWEEP_MAX_JOBS)
		return usage_error("--jobs takes a number of processes in 1..256, not", v);
	o->jobs = (size_t)j;
	return 0;
}

static int add_goal(struct tune_opts *o, const char *v)
{
	char err[512];

	if (o->n_goals == TUNE_MAX_GOALS)
		return usage_error("too many --goal options (at most 8)", NULL);
	if (goal_parse(&o->goal[o->n_goals], v, err, sizeof(err)))
		return usage_error(err, NULL);
	o->n_goals++;
	return 0;
}

static int add_user_set(struct tune_opts *o, const char *v)
{
	if (o->n_user_sets == TUNE_MAX_USER_SETS)
		return usage_error("too many --set options (at most 256)", NULL);
	o->user_sets[o->n_user_sets++] = v;
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
	o->iface = v;
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
	if (!strcmp(a, "--out"))
		o->out_dir = v;
	else if (!strcmp(a, "--speed"))
		o->speed = v;
	else if (!strcmp(a, "--base"))
		o->base = v;
	else
		return usage_error("unknown option", a);
	return 0;
}

int tune_opts_parse(struct tune_opts *o, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int rc;

		if (a[0] != '-') {
			if (o->target)
				return usage_error("more than one scenario or trace given:", a);
			o->target = a;
			continue;
		}
		if (i + 1 >= argc)
			return usage_error("missing value after", a);
		rc = opt_value(o, a, argv[++i]);
		if (rc)
			return rc;
	}
	if (!o->target)
		return usage_error("needs a scenario or a trace: rxlab tune SCENARIO_OR_TRACE "
				   "--goal 'p99<=50us' --minimize cpu", NULL);
	if (o->n_goals == 0)
		return usage_error("needs at least one --goal, e.g. --goal 'p99<=50us'", NULL);
	return 0;
}
