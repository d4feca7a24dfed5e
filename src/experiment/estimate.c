/* estimate.c - see estimate.h. */
#define _POSIX_C_SOURCE 200809L
#include "experiment/estimate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "model/scenario_load.h"
#include "experiment/sweep.h"
#include "rxlab/sim.h"

#define MS_NS 1000000ll

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wall seconds of the first @slice_ns of the run, or -1. */
static double time_slice(const char *name, const char **all, size_t n_sets, int64_t slice_ns)
{
	char dur[48], err[1024];
	struct results r;
	double t0 = now_s();

	snprintf(dur, sizeof(dur), "run.duration=%lldns", (long long)slice_ns);
	all[n_sets] = "run.warmup=0";
	all[n_sets + 1] = dur;
	if (run_one(&r, name, all, n_sets + 2, NULL, err, sizeof(err)))
		return -1;
	results_free(&r);
	return now_s() - t0;
}

/* The simulated seconds and offered rate of the scenario; 0, or -1. */
static int describe(struct estimate *e, const char *name, const char *const *sets,
		    size_t n_sets)
{
	struct scenario *scn = malloc(sizeof(*scn));
	char err[1024];
	int rc = -1;

	if (scn && scenario_load(scn, name, sets, n_sets, err, sizeof(err)) == 0) {
		e->sim_s = (double)scn->run.duration_ns / 1e9;
		for (uint32_t i = 0; i < scn->n_traffic; i++) {
			e->rate_pps += (double)scn->traffic[i].rate_pps;
			e->trace = e->trace || scn->traffic[i].pattern == TRAFFIC_TRACE;
		}
		rc = 0;
	}
	free(scn);
	return rc;
}

int estimate_run(struct estimate *e, const char *name, const char *const *sets, size_t n_sets)
{
	const char **all = calloc(n_sets + 2, sizeof(*all));
	int64_t run_ns, slice_ns = MS_NS;
	double wall = -1;

	memset(e, 0, sizeof(*e));
	if (!all || describe(e, name, sets, n_sets)) {
		free(all);
		return -1;
	}
	memcpy(all, sets, n_sets * sizeof(*all));
	run_ns = (int64_t)(e->sim_s * 1e9);
	for (;;) {
		if (slice_ns > run_ns)
			slice_ns = run_ns;
		wall = time_slice(name, all, n_sets, slice_ns);
		if (wall < 0 || wall >= ESTIMATE_SLICE_WALL_S || slice_ns >= run_ns / 8)
			break;
		slice_ns *= 2;
	}
	free(all);
	if (wall < 0)
		return -1;
	e->wall_s = wall * (double)run_ns / (double)slice_ns;
	return 0;
}

bool estimate_wanted(double *min_s)
{
	const char *env = getenv("RXLAB_ESTIMATE_MIN_S");
	char *end;

	*min_s = ESTIMATE_MIN_S;
	if (env && *env) {
		double v = strtod(env, &end);

		if (!*end && v >= 0)
			*min_s = v;
	}
	return isatty(2);
}

const char *estimate_text(double wall_s, char *buf, size_t len)
{
	if (wall_s < 90)
		snprintf(buf, len, "about %.0f seconds", wall_s < 1 ? 1 : wall_s);
	else if (wall_s < 90 * 60)
		snprintf(buf, len, "about %.0f minutes", wall_s / 60);
	else if (wall_s < 48 * 3600)
		snprintf(buf, len, "about %.1f hours", wall_s / 3600);
	else
		snprintf(buf, len, "about %.1f days", wall_s / 86400);
	return buf;
}

/* " at 14.9 Mpps", " of a trace" or "". */
static void rate_text(const struct estimate *e, char *buf, size_t len)
{
	double r = e->rate_pps;

	if (e->trace)
		snprintf(buf, len, " of a trace");
	else if (r >= 1e6)
		snprintf(buf, len, " at %.4g Mpps", r / 1e6);
	else if (r >= 1e3)
		snprintf(buf, len, " at %.4g kpps", r / 1e3);
	else if (r > 0)
		snprintf(buf, len, " at %.0f pps", r);
	else
		buf[0] = '\0';
}

void estimate_say_run(const struct estimate *e, double min_s)
{
	char rate[48], eta[48];

	if (e->wall_s < min_s)
		return;
	rate_text(e, rate, sizeof(rate));
	fprintf(stderr, "rxlab: this run simulates %.6g s%s; expect %s (Ctrl-C stops it and "
		"keeps the partial result)\n", e->sim_s, rate,
		estimate_text(e->wall_s, eta, sizeof(eta)));
}

void estimate_say_sweep(const struct estimate *e, size_t points, size_t jobs, double min_s)
{
	char eta[48];

	if (e->wall_s < min_s)
		return;
	fprintf(stderr, "rxlab: this sweep runs %zu point%s of up to %.6g s simulated each in %zu "
		"process%s; expect %s (Ctrl-C stops it and keeps the finished rows)\n", points,
		points == 1 ? "" : "s", e->sim_s, jobs, jobs == 1 ? "" : "es",
		estimate_text(e->wall_s, eta, sizeof(eta)));
}
