/* cpuidle.c - menu, teo and poll idle governors (see rxlab/cpuidle.h). */
#include "rxlab/cpuidle.h"

#define RESOLUTION 1024u                  /* menu.c */
#define DECAY 8u                          /* menu.c */
#define MAX_INTERESTING_NS 50000000       /* menu.c: 50 ms */
#define TEO_PULSE 1024u                   /* teo.c PULSE */
#define TEO_DECAY_SHIFT 3                 /* teo.c DECAY_SHIFT */

void cpuidle_init(struct cpuidle *g, enum cpuidle_gov gov, uint8_t n)
{
	*g = (struct cpuidle){ .gov = gov, .n = n ? n : 1 };
	if (g->n > CPUIDLE_MAX_STATES)
		g->n = CPUIDLE_MAX_STATES;
	for (int i = 0; i < CPUIDLE_BUCKETS; i++)
		g->correction[i] = RESOLUTION * DECAY;
}

/* menu.c which_bucket(): by decades of the sleep length from 10 us. */
static uint8_t which_bucket(int64_t ns)
{
	int64_t edge = 10000;
	uint8_t b = 0;

	while (b < CPUIDLE_BUCKETS - 1 && ns >= edge) {
		edge *= 10;
		b++;
	}
	return b;
}

/* The deepest state whose target residency is at most @ns (state 0 when
 * none is). */
static uint8_t deepest_for(const struct cpuidle *g, const struct cpuidle_state *st, int64_t ns)
{
	uint8_t idx = 0;

	for (uint8_t i = 1; i < g->n && st[i].residency_ns <= ns; i++)
		idx = i;
	return idx;
}

/* One pass of get_typical_interval(): average and variance of the
 * intervals at most @thresh; returns how many there were. */
static int interval_stats(const struct cpuidle *g, uint32_t thresh, uint64_t *avg,
			  uint64_t *variance, uint32_t *max)
{
	uint64_t sum = 0, var = 0;
	int n = 0;

	*max = 0;
	for (int i = 0; i < CPUIDLE_INTERVALS; i++) {
		uint32_t v = g->intervals[i];

		if (v <= thresh) {
			sum += v;
			n++;
			if (v > *max)
				*max = v;
		}
	}
	if (n == 0)
		return 0;
	*avg = sum / (uint64_t)n;
	for (int i = 0; i < CPUIDLE_INTERVALS; i++) {
		uint32_t v = g->intervals[i];

		if (v <= thresh) {
			int64_t d = (int64_t)v - (int64_t)*avg;

			var += (uint64_t)(d * d);
		}
	}
	*variance = var / (uint64_t)n;
	return n;
}

uint32_t cpuidle_typical_interval(const struct cpuidle *g)
{
	uint32_t thresh = UINT32_MAX, max;
	uint64_t avg = 0, variance = 0;

	for (;;) {
		int n = interval_stats(g, thresh, &avg, &variance, &max);

		if (n == 0 || max == 0)
			return UINT32_MAX;
		if (variance <= UINT64_MAX / 36 &&
		    ((avg * avg > variance * 36 && n * 4 >= CPUIDLE_INTERVALS * 3) ||
		     variance <= 400))
			return (uint32_t)avg;
		if (n * 4 <= CPUIDLE_INTERVALS * 3)
			return UINT32_MAX;
		thresh = max - 1;
	}
}

/* The tick stays when the idle time expected is under a tick; then a
 * state is only worth its residency up to the next tick. */
static uint8_t keep_tick(const struct cpuidle *g, const struct cpuidle_state *st, uint8_t idx,
			 int64_t expected, int64_t tick, int64_t delta_tick)
{
	uint8_t lim;

	if (expected >= tick)
		return idx;
	lim = deepest_for(g, st, delta_tick);
	return idx < lim ? idx : lim;
}

static uint8_t menu_select(struct cpuidle *g, const struct cpuidle_state *st, int64_t sleep_len,
			   int64_t tick, int64_t delta_tick)
{
	uint32_t typical = cpuidle_typical_interval(g);
	int64_t predicted;

	g->bucket = which_bucket(sleep_len);
	predicted = (int64_t)((__int128)sleep_len * g->correction[g->bucket] /
			      (RESOLUTION * DECAY));
	if (typical != UINT32_MAX && (int64_t)typical * 1000 < predicted)
		predicted = (int64_t)typical * 1000;
	return keep_tick(g, st, deepest_for(g, st, predicted), predicted, tick, delta_tick);
}

static void menu_reflect(struct cpuidle *g, int64_t measured)
{
	uint32_t cf = g->correction[g->bucket];

	if (measured > g->sleep_len_ns)
		measured = g->sleep_len_ns; /* coefficients never exceed unity */
	cf -= cf / DECAY;
	if (g->sleep_len_ns > 0 && measured < MAX_INTERESTING_NS)
		cf += (uint32_t)((int64_t)RESOLUTION * measured / g->sleep_len_ns);
	else
		cf += RESOLUTION;
	g->correction[g->bucket] = cf;
	g->intervals[g->interval_ptr] = (uint32_t)(measured / 1000);
	g->interval_ptr = (uint8_t)((g->interval_ptr + 1) % CPUIDLE_INTERVALS);
}

static uint8_t teo_select(const struct cpuidle *g, const struct cpuidle_state *st,
			  int64_t sleep_len)
{
	uint8_t idx = deepest_for(g, st, sleep_len);
	uint64_t total = 0, shallow_int = 0, shallow_hits = 0, acc = 0;

	for (uint8_t i = 0; i < g->n; i++) {
		total += (uint64_t)g->hits[i] + g->intercepts[i];
		if (i < idx) {
			shallow_int += g->intercepts[i];
			shallow_hits += g->hits[i];
		}
	}
	if (2 * shallow_int <= total - shallow_hits)
		return idx;
	for (int i = idx - 1; i >= 0; i--) {
		acc += g->intercepts[i];
		if (2 * acc > shallow_int)
			return (uint8_t)i;
	}
	return 0;
}

/* teo keeps the tick when the state it picked has a target residency
 * under a tick (teo_select(): "the tick is not going to be stopped"). */
static uint8_t teo_select_tick(const struct cpuidle *g, const struct cpuidle_state *st,
			       int64_t sleep_len, int64_t tick, int64_t delta_tick)
{
	uint8_t idx = teo_select(g, st, sleep_len);

	return keep_tick(g, st, idx, st[idx].residency_ns, tick, delta_tick);
}

static void teo_reflect(struct cpuidle *g, const struct cpuidle_state *st, int64_t measured)
{
	for (uint8_t i = 0; i < g->n; i++) {
		g->hits[i] -= g->hits[i] >> TEO_DECAY_SHIFT;
		g->intercepts[i] -= g->intercepts[i] >> TEO_DECAY_SHIFT;
	}
	if (measured >= g->sleep_len_ns)
		g->hits[deepest_for(g, st, g->sleep_len_ns)] += TEO_PULSE;
	else
		g->intercepts[deepest_for(g, st, measured)] += TEO_PULSE;
}

uint8_t cpuidle_select(struct cpuidle *g, const struct cpuidle_state *st, int64_t sleep_len_ns,
		       int64_t tick_ns, int64_t delta_tick_ns)
{
	g->sleep_len_ns = sleep_len_ns;
	switch (g->gov) {
	case CPUIDLE_MENU:
		return menu_select(g, st, sleep_len_ns, tick_ns, delta_tick_ns);
	case CPUIDLE_TEO:
		return teo_select_tick(g, st, sleep_len_ns, tick_ns, delta_tick_ns);
	case CPUIDLE_POLL:
		break;
	}
	return 0;
}

void cpuidle_reflect(struct cpuidle *g, const struct cpuidle_state *st, int64_t measured_ns)
{
	if (measured_ns < 0)
		measured_ns = 0;
	if (g->gov == CPUIDLE_MENU)
		menu_reflect(g, measured_ns);
	else if (g->gov == CPUIDLE_TEO)
		teo_reflect(g, st, measured_ns);
}
