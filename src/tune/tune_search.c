/* tune_search.c - coarse grid, then local refinement (see tune_search.h).
 *
 * Roadmap: run_batch() evaluates a product and records its new points;
 * coarse() builds one batch per policy; refine_round() picks the seeds
 * (best point, Pareto points) and evaluates the unexplored 3x3 block
 * around each; rank_cmp() is the one order that decides "best".
 */
#include "tune/tune_search.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/robust.h"

bool tune_meets(const struct tune_state *st, const struct tune_point *p)
{
	if (!tune_loss_ok(st, p))
		return false;
	for (size_t i = 0; i < st->n_goals; i++)
		if (!goal_met(&st->goals[i], &p->m))
			return false;
	return true;
}

bool tune_loss_ok(const struct tune_state *st, const struct tune_point *p)
{
	return p->m.max_drop_pct <= st->max_loss_pct;
}

double tune_miss(const struct tune_state *st, const struct tune_point *p)
{
	return tune_total_miss(st->goals, st->n_goals, st->max_loss_pct, &p->m);
}

/* -1, 0, 1 for a < b, with NaN last. */
static int cmp_dbl(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

static int cmp_identity(const struct tune_point *a, const struct tune_point *b)
{
	if (a->pol != b->pol)
		return a->pol < b->pol ? -1 : 1;
	for (size_t k = 0; k < TUNE_MAX_AXES; k++)
		if (a->ix[k] != b->ix[k])
			return a->ix[k] < b->ix[k] ? -1 : 1;
	return 0;
}

/* The order of tune_search.h: < 0 when @a is better than @b. */
static int rank_cmp(const struct tune_state *st, const struct tune_point *a,
		    const struct tune_point *b)
{
	bool ma = tune_meets(st, a), mb = tune_meets(st, b);
	double oa = a->m.v[st->objective], ob = b->m.v[st->objective];
	int c;

	if (ma != mb)
		return ma ? -1 : 1;
	if (st->maximize) {
		oa = -oa;
		ob = -ob;
	}
	if (!ma && (c = cmp_dbl(tune_miss(st, a), tune_miss(st, b))))
		return c;
	if ((c = cmp_dbl(oa, ob)) || (c = cmp_dbl(a->m.v[TM_P99], b->m.v[TM_P99])) ||
	    (c = cmp_dbl(a->m.v[TM_CPU], b->m.v[TM_CPU])))
		return c;
	return cmp_identity(a, b);
}

const struct tune_point *tune_best(const struct tune_state *st)
{
	const struct tune_point *best = NULL;

	for (size_t i = 0; i < st->n_pts; i++)
		if (!best || rank_cmp(st, &st->pts[i], best) < 0)
			best = &st->pts[i];
	return best;
}

static bool dominates(const struct tune_point *a, const struct tune_point *b)
{
	double ca = a->m.v[TM_CPU], cb = b->m.v[TM_CPU];
	double la = a->m.v[TM_P99], lb = b->m.v[TM_P99];

	return ca <= cb && la <= lb && (ca < cb || la < lb);
}

/* @a has the same CPU and p99 as @b and comes first: @b adds nothing. */
static bool same_place(const struct tune_point *a, const struct tune_point *b)
{
	return a->m.v[TM_CPU] == b->m.v[TM_CPU] && a->m.v[TM_P99] == b->m.v[TM_P99] &&
	       cmp_identity(a, b) < 0;
}

static int front_cmp(const void *x, const void *y)
{
	const struct tune_point *a = *(const struct tune_point *const *)x;
	const struct tune_point *b = *(const struct tune_point *const *)y;
	int c = cmp_dbl(a->m.v[TM_CPU], b->m.v[TM_CPU]);

	if (!c)
		c = cmp_dbl(a->m.v[TM_P99], b->m.v[TM_P99]);
	return c ? c : cmp_identity(a, b);
}

size_t tune_front(const struct tune_state *st, const struct tune_point **out, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < st->n_pts && n < cap; i++) {
		const struct tune_point *p = &st->pts[i];
		bool dominated = isnan(p->m.v[TM_P99]) || isnan(p->m.v[TM_CPU]);

		for (size_t j = 0; j < st->n_pts && !dominated; j++)
			dominated = dominates(&st->pts[j], p) || same_place(&st->pts[j], p);
		if (!dominated)
			out[n++] = p;
	}
	qsort(out, n, sizeof(*out), front_cmp);
	return n;
}

static const struct tune_point *find(const struct tune_state *st, size_t pol,
				     const uint8_t *ix)
{
	for (size_t i = 0; i < st->n_pts; i++)
		if (st->pts[i].pol == pol && !memcmp(st->pts[i].ix, ix, TUNE_MAX_AXES))
			return &st->pts[i];
	return NULL;
}

/* Point @i of batch @b: its level indices into @ix. */
static void batch_point(const struct tune_batch *b, size_t i, uint8_t *ix)
{
	memset(ix, 0, TUNE_MAX_AXES);
	for (size_t k = TUNE_MAX_AXES; k-- > 0;) {
		if (!b->n[k])
			continue;
		ix[k] = b->ix[k][i % b->n[k]];
		i /= b->n[k];
	}
}

static size_t batch_size(const struct tune_batch *b)
{
	size_t n = 1;

	for (size_t k = 0; k < TUNE_MAX_AXES; k++)
		n *= b->n[k] ? b->n[k] : 1;
	return n;
}

static int add_point(struct tune_state *st, size_t pol, const uint8_t *ix,
		     const struct tune_metrics *m, uint32_t round)
{
	if (find(st, pol, ix))
		return 0; /* a product repeats its centre: the first result stays */
	if (st->n_pts == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 64;
		struct tune_point *p = realloc(st->pts, cap * sizeof(*p));

		if (!p)
			return -1;
		st->pts = p;
		st->cap = cap;
	}
	/* zeroed whole, padding included, so that equal points are equal bytes
	 * (a compound literal leaves the padding unspecified: clang -O2 does) */
	memset(&st->pts[st->n_pts], 0, sizeof(st->pts[0]));
	st->pts[st->n_pts].pol = (uint16_t)pol;
	st->pts[st->n_pts].m = *m;
	st->pts[st->n_pts].round = round;
	memcpy(st->pts[st->n_pts].ix, ix, TUNE_MAX_AXES);
	st->n_pts++;
	return 0;
}

static int run_batch(struct tune_state *st, const struct tune_batch *b, uint32_t round,
		     tune_eval_fn eval, void *ctx, char *err, size_t errlen)
{
	size_t n = batch_size(b);
	struct tune_metrics *out = calloc(n, sizeof(*out));
	uint8_t ix[TUNE_MAX_AXES];
	int rc = -1;

	if (!out) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (eval(ctx, b, out, err, errlen) == 0) {
		rc = 0;
		st->runs += n * (st->n_loads ? st->n_loads : 1);
		for (size_t i = 0; i < n && rc == 0; i++) {
			batch_point(b, i, ix);
			rc = add_point(st, b->pol, ix, &out[i], round);
		}
		if (rc)
			snprintf(err, errlen, "out of memory");
	}
	free(out);
	return rc;
}

/* Every other level, and the last. */
static void coarse_levels(const struct rxl_scheme_axis *a, size_t *n, uint8_t *ix)
{
	*n = 0;
	for (size_t i = 0; i < a->n; i += 2)
		ix[(*n)++] = (uint8_t)i;
	if (a->n > 1 && (a->n - 1) % 2)
		ix[(*n)++] = (uint8_t)(a->n - 1);
}

static int coarse(struct tune_state *st, tune_eval_fn eval, void *ctx, char *err,
		  size_t errlen)
{
	for (size_t p = 0; p < st->n_pol; p++) {
		struct tune_batch b = { .pol = p };
		size_t full = 1;

		if (!st->enabled[p])
			continue;
		for (size_t k = 0; k < st->pol[p]->n_axes; k++) {
			coarse_levels(&st->pol[p]->axis[k], &b.n[k], b.ix[k]);
			full *= st->pol[p]->axis[k].n;
		}
		st->grid += full;
		if (run_batch(st, &b, 0, eval, ctx, err, errlen))
			return -1;
	}
	return 0;
}

/* The 3x3 (or 3) block around @c; false when it holds no new point. */
static bool neighbourhood(const struct tune_state *st, const struct tune_point *c,
			  struct tune_batch *b)
{
	const struct rxl_scheme *pol = st->pol[c->pol];
	uint8_t ix[TUNE_MAX_AXES];

	memset(b, 0, sizeof(*b));
	b->pol = c->pol;
	for (size_t k = 0; k < pol->n_axes; k++) {
		for (int d = -1; d <= 1; d++) {
			int i = (int)c->ix[k] + d;

			if (i >= 0 && (size_t)i < pol->axis[k].n)
				b->ix[k][b->n[k]++] = (uint8_t)i;
		}
	}
	for (size_t i = 0; i < batch_size(b); i++) {
		batch_point(b, i, ix);
		if (!find(st, b->pol, ix))
			return true;
	}
	return false;
}

/* Seeds of a refinement round: the best point, then Pareto points that
 * meet the goals (or, if none does, the closest misses), at most 4. */
static size_t seeds(const struct tune_state *st, struct tune_point *out)
{
	const struct tune_point *front[256], *best = tune_best(st);
	size_t n_front = tune_front(st, front, 256), n = 0;
	bool any_meets = best && tune_meets(st, best);

	if (best)
		out[n++] = *best;
	for (size_t i = 0; i < n_front && n < 4; i++) {
		if (front[i] == best || (any_meets && !tune_meets(st, front[i])))
			continue;
		if (!any_meets && tune_miss(st, front[i]) > 2.0 * tune_miss(st, best) + 0.05)
			continue;
		out[n++] = *front[i];
	}
	return n;
}

static int refine_round(struct tune_state *st, uint32_t round, bool *added, tune_eval_fn eval,
			void *ctx, char *err, size_t errlen)
{
	struct tune_point seed[4];
	size_t n = seeds(st, seed), before = st->n_pts;
	struct tune_batch b;

	for (size_t i = 0; i < n; i++) {
		if (!neighbourhood(st, &seed[i], &b))
			continue;
		if (run_batch(st, &b, round, eval, ctx, err, errlen))
			return -1;
	}
	*added = st->n_pts > before;
	return 0;
}

int tune_search(struct tune_state *st, tune_eval_fn eval, void *ctx, char *err, size_t errlen)
{
	bool added = true;

	if (coarse(st, eval, ctx, err, errlen))
		return -1;
	for (uint32_t r = 1; r <= TUNE_MAX_ROUNDS && added; r++) {
		if (refine_round(st, r, &added, eval, ctx, err, errlen))
			return -1;
		st->rounds += added;
	}
	return 0;
}

void tune_state_free(struct tune_state *st)
{
	free(st->pts);
	st->pts = NULL;
	st->n_pts = st->cap = 0;
}

size_t tune_n_policies(void)
{
	return rxl_scheme_count(RXL_SCHEME_TUNE, 0);
}

const struct rxl_scheme *tune_policy(size_t i)
{
	return rxl_scheme_at(RXL_SCHEME_TUNE, 0, i);
}

size_t tune_policy_list(const struct rxl_scheme **out, size_t cap)
{
	size_t n = 0;

	for (; n < cap && (out[n] = tune_policy(n)) != NULL; n++)
		;
	return n;
}
