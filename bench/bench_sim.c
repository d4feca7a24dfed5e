/* bench_sim.c - simulation speed, printed as figures (never asserted).
 *
 *   napi-10g     NAPI forwarding host offered 14.88 Mpps (64 B at 10 Gb/s
 *                line rate) for 2 simulated seconds: simulated packets
 *                (frames offered) per wall-clock second.
 *   classic-sat  classic path at its saturation point (one interrupt per
 *                frame): engine events per wall-clock second.
 *
 * Usage: bench_sim [--csv] [SIMULATED_SECONDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/sweep.h"
#include "sim/results.h"

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct bench_case {
	const char *name;
	const char *sets[12];
};

static int run_case(const struct bench_case *bc, const char *dur, int csv)
{
	const char *sets[16];
	char dset[64], err[1024];
	struct results r;
	size_t n = 0;
	double t0, dt, frames;

	snprintf(dset, sizeof(dset), "run.duration=%s", dur);
	for (; bc->sets[n]; n++)
		sets[n] = bc->sets[n];
	sets[n++] = dset;
	sets[n++] = "run.warmup=0";
	t0 = wall();
	if (run_one(&r, "livelock", sets, n, err, sizeof(err))) {
		fprintf(stderr, "bench_sim: %s: %s\n", bc->name, err);
		return 1;
	}
	dt = wall() - t0;
	frames = (r.wire_pps + 0.0) * r.window_s;
	if (csv) {
		printf("%s,wall_s,%.3f\n", bc->name, dt);
		printf("%s,sim_pkts_per_s,%.0f\n", bc->name, frames / dt);
		printf("%s,events_per_s,%.0f\n", bc->name, (double)r.events / dt);
		printf("%s,sim_over_real,%.2f\n", bc->name, r.window_s / dt);
	} else {
		printf("%-12s %8.3f s wall  %12.0f sim pkts/s  %12.0f events/s  %6.2fx real time"
		       "  (%.0f pps forwarded, %llu events)\n", bc->name, dt, frames / dt,
		       (double)r.events / dt, r.window_s / dt, r.forwarded_pps,
		       (unsigned long long)r.events);
	}
	results_free(&r);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct bench_case cases[] = {
		{ "napi-10g", { "host.rxpath=napi", "nic.eth0.speed=10Gbit", "nic.eth1.speed=10Gbit",
				"traffic.rate=14880kpps", NULL } },
		{ "classic-sat", { "host.rxpath=classic", "traffic.rate=150kpps", NULL } },
	};
	int csv = 0, rc = 0;
	const char *dur = "2s";

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--csv"))
			csv = 1;
		else
			dur = argv[i];
	}
	if (csv)
		printf("case,metric,value\n");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		rc |= run_case(&cases[i], dur, csv);
	return rc;
}
