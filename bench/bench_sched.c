/* bench_sched.c - the cost of one scheduling decision against the number
 * of threads on other CPUs, printed as figures (never asserted; issue #16:
 * "the cost of a scheduling decision must not grow with the number of
 * threads on other CPUs").
 *
 * Host: 3 CPUs; K cpu-hogs pinned on CPU 0 together with netperf/0 (no
 * affinity, cache-hot at time 0 under the default sched_migration_cost),
 * netserver/0 asleep on CPU 1, CPU 2 with nothing to run.  At time 0, with
 * no event run, two decisions are repeated on CPU 2:
 *   pick     sched_need_resched(): which of CPU 2's threads runs next
 *            (none runnable) - a pick and nothing else;
 *   balance  sched_pick(): the pick, then idle balancing, which finds CPU 0
 *            overloaded, looks at its one roaming thread, finds it hot and
 *            keeps the re-balance tick it armed the first time.
 * Neither changes the host after the first call, so each repetition is the
 * same decision.  The old scheduler scanned every thread of the host in
 * both: its cost grew as K.  The exponent is the least-squares slope of
 * log(ns) against log(K + threads of the host without the hogs).
 *
 * This reaches below the public API (sim/sim.h), as the unit tests do:
 * the decisions are internal to the simulator.
 *
 * Usage: bench_sched [REPEATS [HOGS...]]
 *   REPEATS  decisions per point (default 2000000)
 *   HOGS     the values of K (default 1 16 64 256 1024); one value per run
 *            lets callgrind count the instructions of one point
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "model/scenario_load.h"
#include "sim/sim.h"

static const char HOST[] =
	"[host]\nprofile = piii-933-e1000\ncpus = 3\n[nic eth0]\n"
	"[apps]\ncpu-hogs = %u\nhog-cpu = 0\nnetperf = 1\n"
	"[run]\nduration = 20ms\nwarmup = 0\n";

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ns per call of the decision @which (0 pick, 1 balance) on CPU 2. */
static double time_decision(struct sim *s, int which, long reps)
{
	struct cpu *c = &s->cpu[2];
	volatile bool sink = false;
	double t0 = now_s();

	for (long i = 0; i < reps; i++) {
		if (which)
			sched_pick(s, c);
		else
			sink = sched_need_resched(s, c);
	}
	(void)sink;
	return 1e9 * (now_s() - t0) / (double)reps;
}

static double slope(const double *x, const double *y, int n)
{
	double mx = 0, my = 0, sxy = 0, sxx = 0;

	for (int i = 0; i < n; i++) {
		mx += log(x[i]) / n;
		my += log(y[i]) / n;
	}
	for (int i = 0; i < n; i++) {
		sxy += (log(x[i]) - mx) * (log(y[i]) - my);
		sxx += (log(x[i]) - mx) * (log(x[i]) - mx);
	}
	return sxx > 0 ? sxy / sxx : 0;
}

int main(int argc, char **argv)
{
	enum { N_MAX = 16 };
	unsigned hogs[N_MAX] = { 1, 16, 64, 256, 1024 };
	int n = 5;
	long reps = argc > 1 ? atol(argv[1]) : 2000000;
	double thr[N_MAX], ns[2][N_MAX];

	if (argc > 2)
		for (n = 0; n < argc - 2 && n < N_MAX; n++)
			hogs[n] = (unsigned)atoi(argv[n + 2]);

	printf("%-8s %-10s %12s %12s\n", "hogs", "threads", "pick_ns", "balance_ns");
	for (int k = 0; k < n; k++) {
		static struct scenario scn;
		static struct sim s;
		char ini[512], err[512];

		snprintf(ini, sizeof(ini), HOST, hogs[k]);
		if (scenario_load_text(&scn, ini, "bench_sched.ini", NULL, 0, err, sizeof(err)) ||
		    sim_init(&s, &scn)) {
			fprintf(stderr, "bench_sched: %s%s\n", err, s.fatal);
			return 1;
		}
		sched_pick(&s, &s.cpu[2]); /* arms the re-balance tick once */
		thr[k] = s.n_threads;
		ns[0][k] = time_decision(&s, 0, reps);
		ns[1][k] = time_decision(&s, 1, reps);
		printf("%-8u %-10u %12.2f %12.2f\n", hogs[k], s.n_threads, ns[0][k], ns[1][k]);
		sim_free(&s);
	}
	printf("exponent (ns ~ threads^e): pick %.2f, balance %.2f\n", slope(thr, ns[0], n),
	       slope(thr, ns[1], n));
	return 0;
}
