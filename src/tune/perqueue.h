/* perqueue.h - the per-queue stage of `rxlab tune` (docs/tune.md
 * "Per-queue values"): after the search and the placement stage, on a
 * port whose queues carry unequal load, the best setting's knobs are
 * refined queue by queue.  Pure: which knobs, which queues in which
 * order, which levels to try, when a change is kept, and the per-queue
 * lists as `--set` values; tune.c runs the candidates.
 *
 * The knobs: the best policy's axes (the levels of the scheme registry,
 * src/scheme/registry.c) whose scenario key takes one value per queue
 * (docs/scenarios.md, model/queue_keys.c): the per-NAPI keys
 * napi_defer_hard_irqs, gro_flush_timeout and irq-suspend-timeout
 * (netdev napi-set per NAPI id), and rx-usecs / rx-frames (ethtool
 * --per-queue) when the port's driver has per-queue coalescing
 * (model/quirks.h: quirk_driver()->per_queue).
 *
 * The descent, bounded: at most TUNE_PQ_ROUNDS rounds; in a round each
 * queue that takes frames, hottest first (its share of the port's frames,
 * ties by queue number), and for it each knob in the policy's axis order,
 * tries the levels within TUNE_PQ_WINDOW of the queue's current one (the
 * other queues and knobs as they are) that add no known trap
 * (tune_traps(), robust.h: a frame threshold without a timer, a deferral
 * the ring cannot hold at the peak rate) to the current setting; the best
 * of those that keep every goal (tune_pq_better()) replaces the current
 * value.  Later rounds visit only the queues whose value changed in the
 * round before (a queue that kept its value was tried with the hotter
 * queues' final values already, and the colder queues' later changes
 * only use up slack); a round that changes nothing ends the stage.
 *
 * Hottest first: the hot queue's frames weigh most in the port's figures,
 * so its move is the largest; made first, it is not crowded out by the
 * cold queues' smaller moves using up the slack (the headroom under a p99
 * goal) that it needs, and the cold queues are then judged with the hot
 * queue's final value.
 *
 * The margin: a change is kept only when it improves the objective by
 * more than TUNE_PQ_MARGIN (relative).  The simulations are deterministic,
 * so there is no noise to filter in the simulator itself; the margin is
 * against the other noise, the model's: a 0.3% CPU difference between
 * two per-queue lists is far below what the simulator's costs can
 * promise of a real host (docs/live.md: calibrated costs spread by tens
 * of percent), and every per-queue value that differs from the others is
 * one more command to apply and maintain.  A change that is not worth
 * 1% is not worth a per-queue exception.
 */
#ifndef RXLAB_TUNE_PERQUEUE_H
#define RXLAB_TUNE_PERQUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rxlab/scenario.h"
#include "rxlab/scheme.h"
#include "tune/tune_search.h"

#define TUNE_PQ_ROUNDS 2         /* rounds of the descent at most */
#define TUNE_PQ_WINDOW 2         /* levels tried on each side of the current one */
#define TUNE_PQ_MARGIN 0.01      /* relative improvement of the objective a change needs */
#define TUNE_PQ_UNEQUAL 1.25     /* auto: the busiest queue takes at least this many
				  * times an equal share (1 / combined) */
#define TUNE_PQ_SET_LEN 640      /* "nic.PORT.KEY=V0 V1 ..." for 64 queues */

/* What the stage found (ran false: it did not run; nothing else is set). */
struct tune_perqueue {
	bool ran;
	uint32_t combined;               /* queues of the port */
	size_t n_axes;                   /* the per-queue knobs of the best policy */
	uint8_t axis[TUNE_MAX_AXES];     /* ... their indices among its axes */
	uint8_t ix[TUNE_MAX_AXES][SCN_MAX_QUEUES]; /* level of knob a on queue q */
	double share[SCN_MAX_QUEUES];    /* queue q's frames / the port's, 0..1 */
	uint32_t order[SCN_MAX_QUEUES];  /* the queues visited, hottest first */
	size_t n_order;                  /* queues with a share > 0 */
	bool changed[SCN_MAX_QUEUES];    /* queue q's values differ from the search's */
	struct tune_metrics before[SCN_MAX_QUEUES]; /* changed queues: the port's figures
					  * before its first kept change ... */
	struct tune_metrics after[SCN_MAX_QUEUES];  /* ... and after its last */
	struct tune_point start;         /* the setting entering the stage (the search's
					  * best with the chosen placement) */
	struct tune_point end;           /* the same with the per-queue values */
	unsigned traps;                  /* the current setting's tune_traps() mask */
	size_t trapped;                  /* candidate levels left out as known traps */
	size_t rounds;                   /* rounds run */
	size_t moves;                    /* changes kept */
	size_t runs;                     /* simulations, the one that measured the shares
					  * included */
	char set[TUNE_MAX_AXES][TUNE_PQ_SET_LEN]; /* the overrides, "nic.PORT.KEY=V0 V1 ..."
					  * (n_axes of them) */
};

/* Does scenario key @key (a scheme axis's, '*' for the port) take one
 * value per queue?  The per-NAPI keys always; rx-usecs and rx-frames only
 * when @coal_per_queue (the driver has ethtool --per-queue). */
bool tune_pq_key(const char *key, bool coal_per_queue);

/* The per-queue axes of @pol into @axis (room for TUNE_MAX_AXES): how
 * many (0: the stage has nothing to refine). */
size_t tune_pq_axes(const struct rxl_scheme *pol, bool coal_per_queue, uint8_t *axis);

/* Queue shares from @frames[0..n) (the frames each queue was offered):
 * into @share, each frames[q] / the sum (all 0 when the sum is 0). */
void tune_pq_shares(const uint64_t *frames, uint32_t n, double *share);

/* Do @n queues of @share carry unequal load: does the busiest take at
 * least TUNE_PQ_UNEQUAL / n of the frames?  (n < 2: false.) */
bool tune_pq_unequal(const double *share, uint32_t n);

/* The queues with a share > 0, hottest first (ties: lower queue first),
 * into @order: how many. */
size_t tune_pq_order(const double *share, uint32_t n, uint32_t *order);

/* The level indices within TUNE_PQ_WINDOW of @cur among @n levels,
 * nearest first and lower before higher at equal distance, @cur itself
 * left out, into @out (room for 2 * TUNE_PQ_WINDOW): how many. */
size_t tune_pq_window(size_t cur, size_t n, uint8_t *out);

/* Is @cand worth keeping over @cur: does it meet every goal of @st
 * (tune_meets(), the loss goal included: at every load, as the figures
 * are folded) and improve st->objective by more than @margin of |cur|'s
 * (lower, or higher when st->maximize)?  Never with a NaN figure, nor
 * when minimising from 0. */
bool tune_pq_better(const struct tune_state *st, const struct tune_metrics *cur,
		    const struct tune_metrics *cand, double margin);

/* The per-queue list of axis @axis with level ix[q] on queue q
 * (q < @n), "20us 100us 20us ...", into @buf (@len bytes, always
 * terminated).  Returns the length it needs, as snprintf() does. */
size_t tune_pq_list_text(const struct rxl_scheme_axis *axis, const uint8_t *ix, uint32_t n,
			 char *buf, size_t len);

#endif
