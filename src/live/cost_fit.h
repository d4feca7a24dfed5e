/* cost_fit.h - fit per-wake-up and per-packet CPU costs to measured runs
 * (rxlab live calibrate).  Pure arithmetic: no I/O.
 *
 * Each run i has a CPU time cpu[i] (ns), wake-ups wakes[i] and packets
 * pkts[i]; the model is cpu = wake_ns * wakes + pkt_ns * pkts, with no
 * constant term.
 */
#ifndef RXLAB_LIVE_COST_FIT_H
#define RXLAB_LIVE_COST_FIT_H

#include <stdbool.h>

struct cost_fit {
	double wake_ns, pkt_ns;  /* the fitted costs, ns, both >= 0 */
	bool fallback;           /* the least-squares fit was singular or negative */
};

/* Least squares over @n >= 2 runs.  When that has no unique answer or a
 * negative cost (an idle CPU's wake-up costs more than a busy one's, so the
 * slow runs pull the line below zero), the fallback: per packet = run
 * @fast's CPU per packet (an upper bound: it includes that run's share of
 * wake-ups), per wake-up = what run @slow leaves after that (0 if
 * negative).  Returns the fit; arrays are not modified. */
struct cost_fit cost_fit(const double *cpu, const double *wakes, const double *pkts, int n,
			 int fast, int slow);

/* The spread of one cost over repeated calibrations (live calibrate
 * --repeat): median (the mean of the middle two for an even count), mean,
 * least and greatest value and the relative standard deviation in % of
 * the mean (sample standard deviation, n - 1; 0 for one value or a mean
 * of 0). */
struct cost_spread {
	double median, mean, min, max;	/* the values' unit (ns) */
	double rsd_pct;		/* 100 * stddev / mean */
	int n;
};

#define COST_SPREAD_MAX 64	/* values cost_spread() looks at (more: the first 64) */

/* The spread of @v[0..n), @n >= 1. */
struct cost_spread cost_spread(const double *v, int n);

#endif
