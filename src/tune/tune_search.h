/* tune_search.h - the search of `rxlab tune`: which moderation setting
 * meets the goals at the least cost.
 *
 * The space is a list of policies (static coalescing, DIM, e1000 ITR,
 * interrupt deferral, busy polling, IRQ suspension), each with at most two
 * axes: a knob and its candidate values (levels), in increasing order.
 * A point is a policy and one level per axis.
 *
 * The search, deterministic for a deterministic evaluator:
 *   1. coarse grid: every policy at every other level of each axis (and
 *      the last), one batch per policy;
 *   2. refinement rounds (at most TUNE_MAX_ROUNDS): around the best point
 *      and up to three more points of the CPU-vs-p99 Pareto front that
 *      meet the goals (or, when none does, the closest ones), the
 *      neighbouring levels (a 3x3 block) that are not yet evaluated;
 *      it stops when a round adds no point.
 * A point is a setting at every load of the request: the evaluator runs
 * it at each and folds the figures (tune/robust.h), so the search is the
 * same with one load or sixteen.
 *
 * The best point is the first in this order: points that meet every goal
 * before the others; among those that meet them, the objective (lower, or
 * higher for throughput), then p99, then CPU; among those that miss, the
 * summed relative miss (goal_miss()), then the objective; last, the
 * policy's index and the levels, so ties resolve the same way every time.
 *
 * Batches are products of level lists, which is what a sweep runs
 * (experiment/sweep.h), so the caller can hand a batch to sweep_run() and
 * evaluate it in parallel.
 */
#ifndef RXLAB_TUNE_TUNE_SEARCH_H
#define RXLAB_TUNE_TUNE_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rxlab/scheme.h"
#include "tune/goal.h"

#define TUNE_MAX_ROUNDS 4
#define TUNE_MAX_AXES RXL_SCHEME_MAX_AXES
#define TUNE_MAX_LEVELS RXL_SCHEME_MAX_LEVELS

/* Tune's policies: the schemes of the registry (rxlab/scheme.h) flagged
 * RXL_SCHEME_TUNE, in registry order.  How many, the @i-th (NULL past the
 * end), and pointers to the first @cap of them in @out (returns how many
 * it wrote). */
size_t tune_n_policies(void);
const struct rxl_scheme *tune_policy(size_t i);
size_t tune_policy_list(const struct rxl_scheme **out, size_t cap);

/* One evaluated point. */
struct tune_point {
	uint16_t pol;                    /* index in the policy list */
	uint8_t ix[TUNE_MAX_AXES];       /* level per axis (0 for absent axes) */
	struct tune_metrics m;
	uint32_t round;                  /* 0 = coarse grid, 1.. = refinement */
};

/* A product of level indices for one policy, first axis slowest. */
struct tune_batch {
	size_t pol;
	size_t n[TUNE_MAX_AXES];
	uint8_t ix[TUNE_MAX_AXES][TUNE_MAX_LEVELS];
};

/* Evaluate every point of @b, writing out[i] for the i-th point of the
 * product (first axis slowest).  0, or -1 with a message in @err. */
typedef int (*tune_eval_fn)(void *ctx, const struct tune_batch *b, struct tune_metrics *out,
			    char *err, size_t errlen);

struct tune_state {
	/* in */
	const struct rxl_scheme *const *pol; /* n_pol policies */
	size_t n_pol;
	const bool *enabled;             /* n_pol flags: policies searched */
	const struct goal *goals;
	size_t n_goals;
	enum tune_metric objective;
	bool maximize;
	double max_loss_pct;             /* implied goal: m.max_drop_pct <= this (%) */
	size_t n_loads;                  /* loads the evaluator runs each point at (0: one) */
	/* out */
	struct tune_point *pts;          /* evaluated points, in evaluation order */
	size_t n_pts, cap;
	size_t runs;                     /* simulations run (a batch may repeat a point;
					  * each point runs n_loads times) */
	size_t grid;                     /* points of the full grid, for comparison */
	size_t rounds;                   /* refinement rounds run */
};

/* Run the search.  @st's "in" fields must be set and the rest zero.
 * 0, or -1 with the evaluator's message (or "out of memory"). */
int tune_search(struct tune_state *st, tune_eval_fn eval, void *ctx, char *err, size_t errlen);
void tune_state_free(struct tune_state *st);

/* Does @p meet every goal, and lose at most st->max_loss_pct % of the
 * frames at every load (tune_loss_ok())? */
bool tune_meets(const struct tune_state *st, const struct tune_point *p);

/* Does @p lose at most st->max_loss_pct % of the frames at every load? */
bool tune_loss_ok(const struct tune_state *st, const struct tune_point *p);

/* The best point (see the order above), NULL before any evaluation. */
const struct tune_point *tune_best(const struct tune_state *st);

/* Summed relative miss of @p over the goals and the loss goal
 * (tune_total_miss(); 0 when it meets them). */
double tune_miss(const struct tune_state *st, const struct tune_point *p);

/* The Pareto front of CPU vs p99 (no other point is at least as good on
 * both and better on one; points without a p99 are left out; of points
 * with the same CPU and p99 only the first in policy and level order),
 * sorted by CPU then p99, into @out (at most @cap).  Returns how many. */
size_t tune_front(const struct tune_state *st, const struct tune_point **out, size_t cap);

#endif
