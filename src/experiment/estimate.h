/* estimate.h - how long a run or a sweep will take, said before it starts.
 *
 * On a terminal a long run should not start without a word (issue #14: an
 * hour at 14.88 Mpps ran 53 minutes silently).  The cost of a simulation
 * depends on far more than its packet rate (classic kernels cost ~30 times
 * more per packet than NAPI, busy polling costs events without packets), so
 * no per-packet constant predicts it well: the estimate runs the scenario
 * itself for a short simulated slice, with no warmup, doubling the slice
 * until it takes ESTIMATE_SLICE_WALL_S of wall time or an eighth of the
 * run, and scales the wall time to the whole simulated duration.  The slices
 * cost at most about twice ESTIMATE_SLICE_WALL_S, and only on a terminal.
 * The figure is for the user's eyes: wall time never reaches a results file.
 */
#ifndef RXLAB_EXPERIMENT_ESTIMATE_H
#define RXLAB_EXPERIMENT_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ESTIMATE_SLICE_WALL_S 0.025  /* a slice long enough to time */
#define ESTIMATE_MIN_S 10.0          /* say nothing about a shorter run */

struct estimate {
	double wall_s;        /* expected wall seconds of the whole run */
	double sim_s;         /* its simulated seconds (run.duration) */
	double rate_pps;      /* frames offered per simulated second, all [traffic] */
	bool trace;           /* a [traffic] plays a trace */
};

/* Estimate the run of scenario @name with overrides @sets (as run_one()).
 * 0, or -1 when the scenario does not load or a slice fails (the run itself
 * will then say why). */
int estimate_run(struct estimate *e, const char *name, const char *const *sets, size_t n_sets);

/* Whether to estimate at all: stderr is a terminal.  The threshold
 * ESTIMATE_MIN_S may be lowered with RXLAB_ESTIMATE_MIN_S=SECONDS (tests
 * use 0 to see the message on a short run); *min_s receives it. */
bool estimate_wanted(double *min_s);

/* "about 50 minutes", "about 40 seconds", "about 3.5 hours" into @buf. */
const char *estimate_text(double wall_s, char *buf, size_t len);

/* Print, on stderr, when @e->wall_s >= @min_s:
 *   rxlab: this run simulates 3600 s at 14.9 Mpps; expect about 50 minutes
 *   (Ctrl-C stops it and keeps the partial result) */
void estimate_say_run(const struct estimate *e, double min_s);

/* As estimate_say_run() for a sweep of @points points in @jobs processes
 * (@e: the whole sweep, sim_s its longest point):
 *   rxlab: this sweep runs 120 points of up to 10 s simulated each in 2
 *   processes; expect about 3 minutes (Ctrl-C stops it and keeps the
 *   finished rows) */
void estimate_say_sweep(const struct estimate *e, size_t points, size_t jobs, double min_s);

#endif
