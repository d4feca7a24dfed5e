/* robust.h - robust goals of `rxlab tune`: one setting judged over several
 * loads, the implied loss goal, and the settings known to be traps.
 *
 * A setting is run at every load point of the request (offered rates, or
 * a trace's speeds).  It meets the goals only if, at every point, it
 * meets every --goal and loses at most --max-loss % of the frames that
 * reached the ports.  Its figures (what the tables show and the search
 * ranks) are those of its worst load: the one with the largest summed
 * relative miss (goal_miss() of every goal, plus the loss goal); among
 * equal misses (every load that meets the goals has miss 0) the highest
 * load.  So a setting that meets everywhere shows its figures at the
 * peak, and one that misses shows where it misses most.
 */
#ifndef RXLAB_TUNE_ROBUST_H
#define RXLAB_TUNE_ROBUST_H

#include <stdbool.h>
#include <stddef.h>

#include "rxlab/scenario.h"
#include "tune/goal.h"

/* How far a loss of @drop_pct % misses the loss goal "at most
 * @max_loss_pct %", on goal_miss()'s scale (0 when met; relative to the
 * limit, or to 1 % when the limit is 0). */
double tune_loss_miss(double max_loss_pct, double drop_pct);

/* Summed relative miss of @m: every goal of @goals (n_goals) plus the loss
 * goal on m->max_drop_pct. */
double tune_total_miss(const struct goal *goals, size_t n_goals, double max_loss_pct,
		       const struct tune_metrics *m);

/* Fold the figures @at[0..n-1] of one setting at loads @load[0..n-1]
 * (ascending; n >= 1) into @out as the header says: @out = @at[w] for the
 * worst load w, out->load_pps = load[w], out->max_drop_pct = the highest
 * at[i].v[TM_DROP_PCT].  Returns w. */
size_t tune_fold_loads(const struct goal *goals, size_t n_goals, double max_loss_pct,
		       const struct tune_metrics *at, const double *load, size_t n,
		       struct tune_metrics *out);

/* Known traps, flagged even when a setting meets the goals. */
enum tune_trap {
	TUNE_TRAP_NO_TIMER = 1,    /* static rx-frames > 1 with rx-usecs 0 */
	TUNE_TRAP_DEFER_RING = 2,  /* a deferral the RX ring cannot hold at the peak */
};

/* The traps of the settings of port @port_ix of @scn (queue 0's values,
 * which are every queue's unless per-queue lists say otherwise) when at
 * most @peak_pps frames/s (all queues of the port together) are offered:
 *   TUNE_TRAP_NO_TIMER: adaptive-rx off, rx-frames N > 1, rx-usecs 0;
 *   TUNE_TRAP_DEFER_RING: the longest the device interrupt can stay off,
 *     max(napi_defer_hard_irqs * gro_flush_timeout, irq-suspend-timeout),
 *     exceeds the time rx-ring descriptors last at the busiest queue's
 *     rate, peak_pps / min(queues in the RSS table, flows offered to the
 *     port) (flows spread evenly: a lower bound on the busiest queue).
 * The reasons, one sentence per trap separated by "; ", go to @buf (""
 * when none).  Returns the mask of enum tune_trap. */
unsigned tune_traps(const struct scenario *scn, int port_ix, double peak_pps, char *buf,
		    size_t len);

#endif
