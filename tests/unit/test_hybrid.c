/* test_hybrid.c - exact decisions of the hybrid poll/sleep switch.
 *
 * Configuration throughout: wake_cost 5 us, spin_max 200 us.  The window
 * after the last packet is clamp(4 * gap, 5 us, 200 us) when the estimated
 * gap is below 5 us, else 0 (sleep at once).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rxlab/hybrid.h"

#define US(x) ((int64_t)(x) * 1000)

static void init(struct hybrid *h)
{
	struct hybrid_config c = { .wake_cost_ns = US(5), .spin_max_ns = US(200) };
	hybrid_init(h, &c, 0);
}

static void test_idle_sleeps(void **state)
{
	(void)state;
	struct hybrid h;
	init(&h);
	assert_int_equal(hybrid_window(&h), 0);
	assert_int_equal(hybrid_after_poll(&h, US(10), 0, 64), HYBRID_SLEEP);
	assert_int_equal(h.to_poll, 0);
	assert_int_equal(h.to_sleep, 0);
}

/* One packet after a long sleep: the gap includes the sleep, so it sleeps. */
static void test_lone_packet_sleeps(void **state)
{
	(void)state;
	struct hybrid h;
	init(&h);
	assert_int_equal(hybrid_after_poll(&h, US(1000), 1, 64), HYBRID_SLEEP);
	assert_int_equal(h.gap_ns, US(1000));
	assert_int_equal(hybrid_window(&h), 0);
}

/* A busy queue: 4 packets per 2 us poll = 0.5 us gap -> spins, window 5 us
 * (4 * 0.5 us is below wake_cost); empty polls keep spinning inside the
 * window and sleep after it. */
static void test_busy_then_quiet(void **state)
{
	(void)state;
	struct hybrid h;
	init(&h);
	int64_t t = US(2);
	assert_int_equal(hybrid_after_poll(&h, t, 4, 64), HYBRID_POLL);
	assert_int_equal(h.gap_ns, 500);
	assert_int_equal(hybrid_window(&h), US(5));
	assert_int_equal(h.to_poll, 1);
	assert_int_equal(hybrid_after_poll(&h, t + US(4), 0, 64), HYBRID_POLL);
	assert_int_equal(hybrid_after_poll(&h, t + US(5), 0, 64), HYBRID_SLEEP);
	assert_int_equal(h.to_sleep, 1);
}

/* A full poll always polls again, whatever the estimate. */
static void test_full_poll_polls(void **state)
{
	(void)state;
	struct hybrid h;
	init(&h);
	assert_int_equal(hybrid_after_poll(&h, US(100000), 64, 64), HYBRID_POLL);
	assert_true(h.gap_ns > US(5));
	assert_int_equal(hybrid_after_poll(&h, US(100001), 0, 64), HYBRID_SLEEP);
}

/* The estimate moves by 1/8 of the difference per sample; a long window is
 * capped at spin_max. */
static void test_ewma_and_cap(void **state)
{
	(void)state;
	struct hybrid h;
	struct hybrid_config c = { .wake_cost_ns = US(100), .spin_max_ns = US(50) };
	hybrid_init(&h, &c, 0);
	assert_int_equal(hybrid_after_poll(&h, US(10), 1, 64), HYBRID_POLL);
	assert_int_equal(h.gap_ns, US(10));
	assert_int_equal(hybrid_window(&h), US(50)); /* 4*10 = 40 < wake 100 -> 100, cap 50 */
	assert_int_equal(hybrid_after_poll(&h, US(28), 1, 64), HYBRID_POLL);
	assert_int_equal(h.gap_ns, US(10) + (US(18) - US(10)) / 8);
}

/* The gap is measured between productive polls: spinning (empty polls)
 * does not make packets look closer together than they are.  Packets every
 * 40 us with empty polls every 1 us in between give a 40 us gap, above
 * wake_cost, so the switch sleeps after each packet. */
static void test_gap_ignores_empty_polls(void **state)
{
	(void)state;
	struct hybrid h;
	init(&h);
	hybrid_after_poll(&h, US(2), 4, 64);            /* spinning, gap 0.5 us */
	int64_t t = US(2);
	for (int k = 0; k < 40; k++) {
		for (int i = 0; i < 39; i++)
			hybrid_after_poll(&h, t + US(i + 1), 0, 64);
		t += US(40);
		hybrid_after_poll(&h, t, 1, 64);
	}
	assert_true(h.gap_ns > US(30));
	assert_int_equal(hybrid_window(&h), 0);
	assert_int_equal(hybrid_after_poll(&h, t + US(1), 0, 64), HYBRID_SLEEP);
}

/* Time going back is treated as no time passing. */
static void test_time_back(void **state)
{
	(void)state;
	struct hybrid h;
	init(&h);
	hybrid_after_poll(&h, US(2), 4, 64);
	assert_int_equal(hybrid_after_poll(&h, US(1), 2, 64), HYBRID_POLL);
	assert_int_equal(h.t_last_poll_ns, US(2));
	assert_true(h.gap_ns >= 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_sleeps),
		cmocka_unit_test(test_lone_packet_sleeps),
		cmocka_unit_test(test_busy_then_quiet),
		cmocka_unit_test(test_full_poll_polls),
		cmocka_unit_test(test_ewma_and_cap),
		cmocka_unit_test(test_gap_ignores_empty_polls),
		cmocka_unit_test(test_time_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
