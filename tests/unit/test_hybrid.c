/* test_hybrid.c - exact decisions of the hybrid poll/nap/sleep switch.
 *
 * Configuration unless a test says otherwise: wake_cost 5 us, spin_max
 * 200 us, no naps (nap_max 0: the spin rules alone).  The window after the
 * last packet is clamp(4 * gap, 5 us, 200 us) when the estimated gap is
 * below 5 us, else 0 (sleep at once).  The nap tests use wake_cost 10 us
 * and nap_max 50 us: a 50 us nap while packets flow faster than one per
 * 10 us (50 us >= wake_cost and >= 2 gaps).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rxlab/hybrid.h"

#define US(x) ((int64_t)(x) * 1000)

static void init(struct hybrid *h)
{
	struct hybrid_config c = { .wake_cost_ns = US(5), .spin_max_ns = US(200) };
	assert_int_equal(hybrid_init(h, &c, 0), 0);
}

static void init_nap(struct hybrid *h, int64_t wake_cost_ns)
{
	struct hybrid_config c = { .wake_cost_ns = wake_cost_ns, .spin_max_ns = US(200),
				   .nap_max_ns = US(50) };
	assert_int_equal(hybrid_init(h, &c, 0), 0);
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
	assert_int_equal(hybrid_init(&h, &c, 0), 0);
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

/* Packets every 5 us (below the 10 us a wake-up costs): nap 50 us (rule
 * 2), and again; a nap that finds nothing sleeps on readiness. */
static void test_nap_batches_then_sleeps(void **state)
{
	(void)state;
	struct hybrid h;
	init_nap(&h, US(10));
	assert_int_equal(hybrid_after_poll(&h, US(20), 4, 64), HYBRID_NAP);
	assert_int_equal(h.gap_ns, US(5));
	assert_int_equal(h.nap_until_ns, US(70));
	assert_int_equal(h.to_nap, 1);
	assert_int_equal(hybrid_after_poll(&h, US(80), 10, 64), HYBRID_NAP);
	assert_int_equal(h.gap_ns, 5125);                 /* 5 + (6 - 5) / 8 us */
	assert_int_equal(h.nap_until_ns, US(130));
	assert_int_equal(h.naps, 2);
	assert_int_equal(h.to_nap, 1);
	assert_int_equal(hybrid_after_poll(&h, US(131), 0, 64), HYBRID_SLEEP);
	assert_int_equal(h.to_sleep, 1);
	assert_int_equal(h.to_poll, 0);
}

/* Without naps the same traffic spins (the switch before naps); with them
 * it naps. */
static void test_nap_off_spins(void **state)
{
	(void)state;
	struct hybrid h;
	init(&h);
	assert_int_equal(hybrid_after_poll(&h, US(20), 10, 64), HYBRID_POLL);
	assert_int_equal(hybrid_nap(&h), 0);
	init_nap(&h, US(10));
	assert_int_equal(hybrid_after_poll(&h, US(20), 10, 64), HYBRID_NAP);
	assert_int_equal(hybrid_nap(&h), US(50));
}

/* Packets 15 us apart, slower than a wake-up (10 us): readiness, although
 * a 50 us nap would collect 3 - naps replace spinning, not readiness. */
static void test_sparse_sleeps_on_readiness(void **state)
{
	(void)state;
	struct hybrid h;
	init_nap(&h, US(10));
	assert_int_equal(hybrid_after_poll(&h, US(60), 4, 64), HYBRID_SLEEP);
	assert_int_equal(h.gap_ns, US(15));
	assert_int_equal(hybrid_nap(&h), 0);
}

/* A nap must be expected to collect 2 packets: with nap_max 15 us and
 * 8 us gaps it would collect 1.9, so rule 3 spins (8 us < wake_cost). */
static void test_nap_needs_two_packets(void **state)
{
	(void)state;
	struct hybrid h;
	struct hybrid_config c = { .wake_cost_ns = US(10), .spin_max_ns = US(200),
				   .nap_max_ns = US(15) };
	assert_int_equal(hybrid_init(&h, &c, 0), 0);
	assert_int_equal(hybrid_after_poll(&h, US(32), 4, 64), HYBRID_POLL);
	assert_int_equal(h.gap_ns, US(8));
	assert_int_equal(hybrid_nap(&h), 0);
	assert_int_equal(hybrid_window(&h), US(32));
}

/* A nap shorter than a wake-up does not pay: with wake_cost 100 us the
 * 50 us nap is refused and the spin rule applies (window 100 us). */
static void test_nap_shorter_than_wake_spins(void **state)
{
	(void)state;
	struct hybrid h;
	init_nap(&h, US(100));
	assert_int_equal(hybrid_after_poll(&h, US(20), 10, 64), HYBRID_POLL);
	assert_int_equal(hybrid_nap(&h), 0);
	assert_int_equal(hybrid_window(&h), US(100));
}

/* A backlog drained by full polls: the drain's tiny gaps say packets flow
 * fast, so the empty poll that ends it naps (rule 2 after POLLING); the
 * next empty poll, after the nap, sleeps on readiness. */
static void test_drained_backlog_naps(void **state)
{
	(void)state;
	struct hybrid h;
	init_nap(&h, US(10));
	assert_int_equal(hybrid_after_poll(&h, US(8), 64, 64), HYBRID_POLL);
	assert_int_equal(h.gap_ns, 125);                  /* 8 us / 64 */
	assert_int_equal(hybrid_after_poll(&h, US(9), 0, 64), HYBRID_NAP);
	assert_int_equal(h.nap_until_ns, US(59));
	assert_int_equal(hybrid_after_poll(&h, US(60), 0, 64), HYBRID_SLEEP);
	assert_int_equal(h.to_poll, 1);
	assert_int_equal(h.to_nap, 1);
	assert_int_equal(h.to_sleep, 1);
}

/* A full poll after a nap polls again (rule 1 first); the next short one
 * naps again. */
static void test_nap_full_poll_polls(void **state)
{
	(void)state;
	struct hybrid h;
	init_nap(&h, US(10));
	assert_int_equal(hybrid_after_poll(&h, US(20), 4, 64), HYBRID_NAP);
	assert_int_equal(hybrid_after_poll(&h, US(75), 64, 64), HYBRID_POLL);
	assert_int_equal(h.gap_ns, 4483);                 /* 5000 + (859 - 5000) / 8 */
	assert_int_equal(h.to_poll, 1);
	assert_int_equal(hybrid_after_poll(&h, US(76), 10, 64), HYBRID_NAP);
	assert_int_equal(h.gap_ns, 3936);                 /* 4483 + (100 - 4483) / 8 */
	assert_int_equal(h.nap_until_ns, US(126));
	assert_int_equal(h.to_nap, 2);
}

/* The rate falls: a 50 us nap brings one packet, the estimate moves to
 * 5 + (50 - 5) / 8 = 10.625 us, above wake_cost: readiness from now on. */
static void test_nap_stops_when_rate_falls(void **state)
{
	(void)state;
	struct hybrid h;
	init_nap(&h, US(10));
	assert_int_equal(hybrid_after_poll(&h, US(20), 4, 64), HYBRID_NAP);
	assert_int_equal(hybrid_after_poll(&h, US(70), 1, 64), HYBRID_SLEEP);
	assert_int_equal(h.gap_ns, 10625);
	assert_int_equal(h.to_sleep, 1);
}

/* Core cannot assert: a configuration out of range is refused with -1 and
 * leaves the switch untouched (the caller checks; main asserted here). */
static void test_bad_config_refused(void **state)
{
	(void)state;
	const struct hybrid_config bad[] = {
		{ .wake_cost_ns = 0, .spin_max_ns = US(200) },
		{ .wake_cost_ns = -1, .spin_max_ns = US(200) },
		{ .wake_cost_ns = US(5), .spin_max_ns = -1 },
		{ .wake_cost_ns = US(5), .spin_max_ns = US(200), .nap_max_ns = -1 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct hybrid h, before;
		memset(&h, 0xa5, sizeof h);
		memcpy(&before, &h, sizeof h);
		assert_int_equal(hybrid_init(&h, &bad[i], 0), -1);
		assert_memory_equal(&h, &before, sizeof h);
	}
}

/* A budget of 0 is never full (main asserted budget > 0, and without
 * asserts answered POLL forever): an empty poll of budget 0 after idle
 * sleeps, as with any budget. */
static void test_zero_budget_never_full(void **state)
{
	(void)state;
	struct hybrid h;
	init(&h);
	assert_int_equal(hybrid_after_poll(&h, US(10), 0, 0), HYBRID_SLEEP);
	assert_int_equal(h.to_poll, 0);
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
		cmocka_unit_test(test_nap_batches_then_sleeps),
		cmocka_unit_test(test_nap_off_spins),
		cmocka_unit_test(test_sparse_sleeps_on_readiness),
		cmocka_unit_test(test_nap_needs_two_packets),
		cmocka_unit_test(test_nap_shorter_than_wake_spins),
		cmocka_unit_test(test_drained_backlog_naps),
		cmocka_unit_test(test_nap_full_poll_polls),
		cmocka_unit_test(test_nap_stops_when_rate_falls),
		cmocka_unit_test(test_bad_config_refused),
		cmocka_unit_test(test_zero_budget_never_full),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
