/* test_cpuidle.c - the idle governors' choices for known idle histories.
 *
 * Table: Ice Lake-SP's intel_idle icx_cstates with POLL in front (exit /
 * target residency): POLL 0/0, C1 1/1 us, C1E 4/4 us, C6 170/600 us.
 * Every expected state is worked out by hand in the test's comment.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rxlab/cpuidle.h"

#define US 1000
#define SEC 1000000000LL

static const struct cpuidle_state ICX[] = {
	{ 0, 0 }, { 1 * US, 1 * US }, { 4 * US, 4 * US }, { 170 * US, 600 * US },
};

/* Select with a tick that never limits: 1 s ticks, the next 1 s away. */
static uint8_t sel(struct cpuidle *g, int64_t sleep_len)
{
	return cpuidle_select(g, ICX, sleep_len, SEC, SEC);
}

static void fill(struct cpuidle *g, const uint32_t *us)
{
	for (int i = 0; i < CPUIDLE_INTERVALS; i++)
		g->intervals[i] = us[i];
}

/* No history (all intervals 0: get_typical_interval() has max 0 and gives
 * up) and no correction yet: the prediction is the sleep length.  1 s ->
 * C6; 300 us -> C1E (C6 needs 600); 3 us -> C1; 500 ns -> POLL. */
static void test_menu_sleep_length(void **state)
{
	struct cpuidle g;

	(void)state;
	cpuidle_init(&g, CPUIDLE_MENU, 4);
	assert_int_equal(cpuidle_typical_interval(&g), UINT32_MAX);
	assert_int_equal(sel(&g, SEC), 3);
	assert_int_equal(sel(&g, 300 * US), 2);
	assert_int_equal(sel(&g, 3 * US), 1);
	assert_int_equal(sel(&g, 500), 0);
}

/* Eight idle periods of 100 us: variance 0, typical 100 us, below the
 * 1 s sleep length: C1E (4 us <= 100 us < 600 us). */
static void test_menu_typical(void **state)
{
	static const uint32_t h[] = { 100, 100, 100, 100, 100, 100, 100, 100 };
	struct cpuidle g;

	(void)state;
	cpuidle_init(&g, CPUIDLE_MENU, 4);
	fill(&g, h);
	assert_int_equal(cpuidle_typical_interval(&g), 100);
	assert_int_equal(sel(&g, SEC), 2);
}

/* Seven of 50 us and one of 10 ms: with all eight the variance is huge;
 * the 10 ms outlier is dropped (7 of 8 remain, >= 3/4) and the rest has
 * variance 0: typical 50.  Then 10, 1000, 20, 3000, 40, 5000, 60, 7000:
 * dropping 7000 and 5000 leaves six (avg 688, stddev about 1090) and six
 * is 3/4: no typical interval. */
static void test_menu_outliers(void **state)
{
	static const uint32_t one[] = { 50, 50, 50, 10000, 50, 50, 50, 50 };
	static const uint32_t wild[] = { 10, 1000, 20, 3000, 40, 5000, 60, 7000 };
	struct cpuidle g;

	(void)state;
	cpuidle_init(&g, CPUIDLE_MENU, 4);
	fill(&g, one);
	assert_int_equal(cpuidle_typical_interval(&g), 50);
	fill(&g, wild);
	assert_int_equal(cpuidle_typical_interval(&g), UINT32_MAX);
}

/* The correction factor of the 1 s bucket after one idle period of 100 us
 * (sleep length 1 s): 8192 - 8192/8 + 1024 * 100000 / 1e9 (= 0) = 7168, so
 * the next prediction for 1 s is 7168/8192 s = 875 ms (C6), and the one
 * interval recorded is 100 us.  After 40 such periods the factor is
 * 8192 * (7/8)^40, about 39, predicting 4.8 ms: still C6 (600 us); the
 * history says 100 us though (eight equal intervals): C1E. */
static void test_menu_correction(void **state)
{
	struct cpuidle g;

	(void)state;
	cpuidle_init(&g, CPUIDLE_MENU, 4);
	assert_int_equal(sel(&g, SEC), 3);
	cpuidle_reflect(&g, ICX, 100 * US);
	assert_int_equal(g.correction[5], 7168);
	assert_int_equal(g.intervals[0], 100);
	for (int i = 0; i < 39; i++) {
		sel(&g, SEC);
		cpuidle_reflect(&g, ICX, 100 * US);
	}
	assert_in_range(g.correction[5], 30, 45);
	assert_int_equal(sel(&g, SEC), 2);
}

/* teo with no history: the sleep length's state (1 s: C6).  Four wake-ups
 * after 2 us, none by the timer: intercepts in C1's bin (the deepest state
 * whose residency fits 2 us) decay by 1/8 and grow by 1024: 1024, 1920,
 * 2704, 3390.  Then all recent events are intercepts shallower than C6:
 * 2 * 3390 > 3390 - 0, and walking down from C1E the intercepts reach
 * half of 3390 at C1: C1. */
static void test_teo_intercepts(void **state)
{
	struct cpuidle g;

	(void)state;
	cpuidle_init(&g, CPUIDLE_TEO, 4);
	assert_int_equal(sel(&g, SEC), 3);
	for (int i = 0; i < 4; i++) {
		sel(&g, SEC);
		cpuidle_reflect(&g, ICX, 2 * US);
	}
	assert_int_equal(g.intercepts[1], 3390);
	assert_int_equal(g.hits[3], 0);
	assert_int_equal(sel(&g, SEC), 1);
}

/* teo: wake-ups by the timer (after the whole sleep length of 1 ms, which
 * allows C6's 600 us) are hits in C6's bin: 1024, 1920, 2704.  With only
 * hits nothing shallower is intercepted: C6. */
static void test_teo_hits(void **state)
{
	struct cpuidle g;

	(void)state;
	cpuidle_init(&g, CPUIDLE_TEO, 4);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(sel(&g, 1000 * US), 3);
		cpuidle_reflect(&g, ICX, 1000 * US);
	}
	assert_int_equal(g.hits[3], 2704);
	assert_int_equal(sel(&g, 1000 * US), 3);
}

/* max-cstate: a governor over the first 2 states never goes deeper than
 * C1; poll always answers state 0. */
static void test_limits(void **state)
{
	struct cpuidle g;

	(void)state;
	cpuidle_init(&g, CPUIDLE_MENU, 2);
	assert_int_equal(sel(&g, SEC), 1);
	cpuidle_init(&g, CPUIDLE_TEO, 2);
	assert_int_equal(sel(&g, SEC), 1);
	cpuidle_init(&g, CPUIDLE_POLL, 4);
	assert_int_equal(sel(&g, SEC), 0);
}

/* menu, no history, sleep length 1 s: C6 with the tick stopped.  With
 * HZ = 1000 (tick 1 ms) the prediction is still 1 s (no correction yet)
 * and the tick stops: C6.  After one period of 100 us the history is not
 * consistent (one interval) but the correction factor is 7/8: 875 ms, C6.
 * With eight periods of 100 us the prediction is 100 us, under a tick:
 * the tick stays, and C1E (4 us) fits 300 us to the tick as well as 100 us.
 * Eight periods of 700 us predict 700 us: C6 by residency (600 us), but
 * under a tick, so the tick stays and 300 us to it allow only C1E; with
 * the tick 700 us away C6 again.
 * If teo picks C6 (residency 600 us, under a 1 ms tick) with the next tick
 * 300 us away, the tick stays and C1E is taken instead. */
static void test_keep_tick(void **state)
{
	static const uint32_t h[] = { 100, 100, 100, 100, 100, 100, 100, 100 };
	struct cpuidle g;

	(void)state;
	cpuidle_init(&g, CPUIDLE_MENU, 4);
	assert_int_equal(cpuidle_select(&g, ICX, SEC, 1000 * US, 300 * US), 3);
	fill(&g, h);
	assert_int_equal(cpuidle_select(&g, ICX, SEC, 1000 * US, 300 * US), 2);
	for (int i = 0; i < CPUIDLE_INTERVALS; i++)
		g.intervals[i] = 700;
	assert_int_equal(cpuidle_select(&g, ICX, SEC, 1000 * US, 300 * US), 2);
	assert_int_equal(cpuidle_select(&g, ICX, SEC, 1000 * US, 700 * US), 3);
	cpuidle_init(&g, CPUIDLE_TEO, 4);
	assert_int_equal(cpuidle_select(&g, ICX, SEC, 1000 * US, 300 * US), 2);
	assert_int_equal(cpuidle_select(&g, ICX, SEC, 1000 * US, 700 * US), 3);
	assert_int_equal(cpuidle_select(&g, ICX, SEC, 500 * US, 300 * US), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_menu_sleep_length), cmocka_unit_test(test_menu_typical),
		cmocka_unit_test(test_menu_outliers),     cmocka_unit_test(test_menu_correction),
		cmocka_unit_test(test_teo_intercepts),    cmocka_unit_test(test_teo_hits),
		cmocka_unit_test(test_limits),            cmocka_unit_test(test_keep_tick),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
