/* fuzz_tune.c - libFuzzer target for the command line of `rxlab tune`
 * (cli/tune_args.h) and its goals and objectives (tune/goal.h).
 *
 * Input: lines.  The first is also given alone to goal_parse() and
 * objective_parse(); all of them (at most 32) are the arguments after
 * "tune" for tune_opts_parse().  Checks: the parser returns 0, 2 (and
 * says why) or CLI_HELP (after the usage, on stdout); what it accepts is consistent (a target, 1..8 goals each
 * with a metric, an operator and a finite limit >= 0, at least one policy,
 * jobs in 1..256, an --iface rxl_ifname_check() accepts, --speed and
 * --base only with a trace, a --speed of at most 16 bytes); goal_met() and
 * goal_miss() on any figures neither crash nor return NaN; no leak.
 * Messages and the usage go to memory streams, not to the log.
 */
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/goal.h"
#include "cli/opts.h"
#include "cli/tune_args.h"
#include "tune/tune.h"
#include "tune/tune_search.h"
#include "rxlab/live.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 32

static void check_goal(const struct goal *g)
{
	struct tune_metrics m;
	static const double probe[] = { 0.0, 1.0, 50.0, 1e9, NAN, -1.0 };

	assert(g->m < TM_N && g->op <= GOAL_GT);
	assert(isfinite(g->limit) && g->limit >= 0.0);
	assert(g->text[0] != '\0' && memchr(g->text, '\0', sizeof(g->text)));
	for (size_t k = 0; k < sizeof(probe) / sizeof(probe[0]); k++) {
		for (int i = 0; i < TM_N; i++)
			m.v[i] = probe[k];
		(void)goal_met(g, &m);
		assert(!isnan(goal_miss(g, &m)) && goal_miss(g, &m) >= 0.0);
	}
}

static void check_opts(const struct tune_opts *o)
{
	bool any = false;
	char err[512];

	assert(o->req.target && o->req.n_goals >= 1 && o->req.n_goals <= TUNE_MAX_GOALS);
	for (size_t i = 0; i < o->req.n_goals; i++)
		check_goal(&o->req.goal[i]);
	for (size_t p = 0; p < tune_n_policies(); p++)
		any |= o->req.enabled[p];
	assert(any);
	assert(o->req.jobs >= 1 && o->req.jobs <= 256);
	assert(!o->req.iface || rxl_ifname_check(o->req.iface, err, sizeof(err)) == 0);
	assert(o->req.n_user_sets <= TUNE_MAX_USER_SETS);
	assert((!o->req.speed && !o->req.base) || tune_is_trace(o->req.target));
	assert(!o->req.speed || strlen(o->req.speed) <= 16);
}

/* Split @buf (NUL-terminated) at newlines into @argv. */
static int split(char *buf, char **argv)
{
	int n = 0;

	for (char *p = buf; n < MAX_ARGS; p++) {
		argv[n++] = p;
		p = strchr(p, '\n');
		if (!p)
			break;
		*p = '\0';
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tune_opts o;
	static char msgs[1 << 16], usage[1 << 13];
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 1], err[512];
	FILE *saved = stderr, *saved_out = stdout;
	struct goal g;
	enum tune_metric m;
	bool max;
	int argc, rc;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argc = split(buf, argv);
	argv[argc] = NULL;
	if (goal_parse(&g, argv[0], err, sizeof(err)) == 0)
		check_goal(&g);
	else
		assert(err[0] != '\0');
	if (objective_parse(argv[0], &m, &max, err, sizeof(err)) == 0)
		assert(m < TM_N && max == (m == TM_THROUGHPUT));
	memset(msgs, 0, sizeof(msgs));
	stderr = fmemopen(msgs, sizeof(msgs), "w");
	stdout = fmemopen(usage, sizeof(usage), "w");
	assert(stderr && stdout);
	tune_opts_init(&o, 4);
	rc = tune_opts_parse(&o, argc, argv);
	fclose(stderr);
	fclose(stdout);
	stderr = saved;
	stdout = saved_out;
	assert(rc == 0 || rc == 2 || rc == CLI_HELP);
	if (rc == 0)
		check_opts(&o);
	else if (rc == 2)
		assert(!strncmp(msgs, "rxlab: tune: ", 13));
	else
		assert(!strncmp(usage, "usage: rxlab tune ", 18));
	free(buf);
	return 0;
}
