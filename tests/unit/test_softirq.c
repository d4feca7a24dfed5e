/* test_softirq.c - jiffies, net_rx_action() budget and handle_softirqs()
 * restart decisions, worked out by hand from net/core/dev.c and
 * kernel/softirq.c (kernel-mechanisms.md sections 1.1, 1.4, 1.8).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rxlab/softirq.h"

#define US(x) ((int64_t)(x) * 1000)
#define MS(x) ((int64_t)(x) * 1000000)

static void test_jiffies_at(void **state)
{
	(void)state;
	/* HZ=1000: one jiffy per 1 ms, floor. */
	assert_int_equal(jiffies_at(0, 1000), 0);
	assert_int_equal(jiffies_at(MS(1) - 1, 1000), 0);
	assert_int_equal(jiffies_at(MS(1), 1000), 1);
	assert_int_equal(jiffies_at(MS(2500), 1000), 2500);
	/* HZ=250: 4 ms per jiffy. */
	assert_int_equal(jiffies_at(MS(4) - 1, 250), 0);
	assert_int_equal(jiffies_at(MS(4), 250), 1);
	/* HZ=300: 1e9/300 is not an integer; floor(t*300/1e9) exactly:
	 * 3333333 ns -> 0.9999999, 3333334 -> 1.0000002, 1 s -> 300. */
	assert_int_equal(jiffies_at(3333333, 300), 0);
	assert_int_equal(jiffies_at(3333334, 300), 1);
	assert_int_equal(jiffies_at(MS(1000), 300), 300);
	/* Large t does not overflow: 1e6 s at HZ=1000 = 1e9 jiffies. */
	assert_int_equal(jiffies_at(INT64_C(1000000) * MS(1000), 1000), 1000000000);
}

static void test_to_jiffies_rounds_up(void **state)
{
	(void)state;
	assert_int_equal(usecs_to_jiffies(0, 1000), 0);
	assert_int_equal(usecs_to_jiffies(1, 1000), 1);
	assert_int_equal(usecs_to_jiffies(2000, 1000), 2);
	assert_int_equal(usecs_to_jiffies(2001, 1000), 3);
	/* HZ=250: 2000 us is half a jiffy -> 1; 8000 -> 2; 8001 -> 3. */
	assert_int_equal(usecs_to_jiffies(2000, 250), 1);
	assert_int_equal(usecs_to_jiffies(8000, 250), 2);
	assert_int_equal(usecs_to_jiffies(8001, 250), 3);
	/* MAX_SOFTIRQ_TIME = msecs_to_jiffies(2). */
	assert_int_equal(msecs_to_jiffies(2, 1000), 2);
	assert_int_equal(msecs_to_jiffies(2, 250), 1);
	assert_int_equal(msecs_to_jiffies(2, 100), 1);
	assert_int_equal(msecs_to_jiffies(2, 300), 1);  /* ceil(0.6) */
	assert_int_equal(msecs_to_jiffies(10, 300), 3); /* exactly 3 */
	assert_int_equal(msecs_to_jiffies(0, 1000), 0);
}

static void test_budget_squeeze(void **state)
{
	struct netrx_budget b;
	int i;

	(void)state;
	netrx_begin(&b, 0, NETDEV_BUDGET_DEFAULT, US(2000), 1000);
	assert_int_equal(b.budget, 300);
	/* 300 - 64*4 = 44 > 0: continue four times; 44 - 64 = -20 <= 0. */
	for (i = 0; i < 4; i++)
		assert_int_equal(netrx_account(&b, 64, 0, 1000), NETRX_CONTINUE);
	assert_int_equal(b.budget, 44);
	assert_int_equal(netrx_account(&b, 64, 0, 1000), NETRX_SQUEEZE);
	assert_int_equal(b.budget, -20);
}

static void test_budget_exact_zero(void **state)
{
	struct netrx_budget b;

	(void)state;
	/* budget 128, two polls of 64: 0 <= 0 squeezes at the second. */
	netrx_begin(&b, 0, 128, US(2000), 1000);
	assert_int_equal(netrx_account(&b, 64, 0, 1000), NETRX_CONTINUE);
	assert_int_equal(netrx_account(&b, 64, 0, 1000), NETRX_SQUEEZE);
	assert_int_equal(b.budget, 0);
}

static void test_time_squeeze_hz1000(void **state)
{
	struct netrx_budget b;

	(void)state;
	/* Start at 0.5 ms (jiffy 0), 2000 us = 2 jiffies: limit 2, so the
	 * run stops after the first poll that returns at >= 2.0 ms. */
	netrx_begin(&b, US(500), 300, US(2000), 1000);
	assert_int_equal(b.time_limit, 2);
	assert_int_equal(netrx_account(&b, 10, US(1000), 1000), NETRX_CONTINUE);
	assert_int_equal(netrx_account(&b, 10, US(1999), 1000), NETRX_CONTINUE);
	assert_int_equal(netrx_account(&b, 10, US(2000), 1000), NETRX_SQUEEZE);
	assert_int_equal(b.budget, 270);
}

static void test_time_squeeze_hz250(void **state)
{
	struct netrx_budget b;

	(void)state;
	/* Default netdev_budget_usecs at HZ=250 is 2*1e6/250 = 8000 us = 2
	 * jiffies: start at 1 ms (jiffy 0), limit 2 -> stops at 8 ms. */
	netrx_begin(&b, US(1000), 300, US(8000), 250);
	assert_int_equal(b.time_limit, 2);
	assert_int_equal(netrx_account(&b, 1, US(7999), 250), NETRX_CONTINUE);
	assert_int_equal(netrx_account(&b, 1, US(8000), 250), NETRX_SQUEEZE);
	/* A 2000 us setting at HZ=250 rounds up to 1 jiffy: a run started
	 * at 3.9 ms (jiffy 0) has limit 1 and stops at 4.0 ms, 0.1 ms on. */
	netrx_begin(&b, US(3900), 300, US(2000), 250);
	assert_int_equal(b.time_limit, 1);
	assert_int_equal(netrx_account(&b, 1, US(3999), 250), NETRX_CONTINUE);
	assert_int_equal(netrx_account(&b, 1, US(4000), 250), NETRX_SQUEEZE);
}

static void test_budget_usecs_whole(void **state)
{
	struct netrx_budget b;

	(void)state;
	/* 1000999 ns is 1000 whole us -> 1 jiffy at HZ=1000 (rounding the
	 * ns up to 1001 us would give 2). */
	netrx_begin(&b, MS(5), 300, 1000999, 1000);
	assert_int_equal(b.time_limit, 6);
	/* 999 ns is 0 us: limit == now, the first poll squeezes. */
	netrx_begin(&b, MS(5), 300, 999, 1000);
	assert_int_equal(b.time_limit, 5);
	assert_int_equal(netrx_account(&b, 1, MS(5), 1000), NETRX_SQUEEZE);
}

static void test_softirq_ten_passes(void **state)
{
	struct softirq_run r;
	int i;

	(void)state;
	softirq_begin(&r, 0, 1000);
	assert_int_equal(r.end, 2);
	assert_int_equal(r.max_restart, MAX_SOFTIRQ_RESTART);
	/* Pending after every pass, no time passes: --max_restart 9..1 are
	 * true (9 restarts), the 10th pass makes it 0 -> ksoftirqd. */
	for (i = 0; i < 9; i++)
		assert_int_equal(softirq_after_pass(&r, true, false, 0, 1000), SOFTIRQ_RESTART);
	assert_int_equal(r.max_restart, 1);
	assert_int_equal(softirq_after_pass(&r, true, false, 0, 1000), SOFTIRQ_WAKE_KSOFTIRQD);
	assert_int_equal(r.max_restart, 0);
	/* Misuse after the end does not wrap the counter. */
	assert_int_equal(softirq_after_pass(&r, true, false, 0, 1000), SOFTIRQ_WAKE_KSOFTIRQD);
	assert_int_equal(r.max_restart, 0);
}

static void test_softirq_done(void **state)
{
	struct softirq_run r;

	(void)state;
	softirq_begin(&r, 0, 1000);
	/* Nothing raised again: return, even past the end or with resched. */
	assert_int_equal(softirq_after_pass(&r, false, false, 0, 1000), SOFTIRQ_DONE);
	assert_int_equal(softirq_after_pass(&r, false, true, MS(10), 1000), SOFTIRQ_DONE);
	assert_int_equal(r.max_restart, MAX_SOFTIRQ_RESTART);
}

static void test_softirq_need_resched(void **state)
{
	struct softirq_run r;

	(void)state;
	softirq_begin(&r, 0, 1000);
	/* need_resched: ksoftirqd at once; --max_restart is short-circuited. */
	assert_int_equal(softirq_after_pass(&r, true, true, 0, 1000), SOFTIRQ_WAKE_KSOFTIRQD);
	assert_int_equal(r.max_restart, MAX_SOFTIRQ_RESTART);
}

static void test_softirq_two_ms(void **state)
{
	struct softirq_run r;

	(void)state;
	/* HZ=1000, start 0.5 ms (jiffy 0): end 0 + 2 = 2.  1.9 ms is jiffy 1
	 * < 2: restart; 2.0 ms is jiffy 2: ksoftirqd. */
	softirq_begin(&r, US(500), 1000);
	assert_int_equal(r.end, 2);
	assert_int_equal(softirq_after_pass(&r, true, false, US(1900), 1000), SOFTIRQ_RESTART);
	assert_int_equal(softirq_after_pass(&r, true, false, US(2000), 1000),
			 SOFTIRQ_WAKE_KSOFTIRQD);
	assert_int_equal(r.max_restart, MAX_SOFTIRQ_RESTART - 1);
	/* HZ=250: msecs_to_jiffies(2) = 1, start 3.9 ms (jiffy 0), end 1:
	 * the next tick at 4.0 ms already ends it. */
	softirq_begin(&r, US(3900), 250);
	assert_int_equal(r.end, 1);
	assert_int_equal(softirq_after_pass(&r, true, false, US(3999), 250), SOFTIRQ_RESTART);
	assert_int_equal(softirq_after_pass(&r, true, false, US(4000), 250),
			 SOFTIRQ_WAKE_KSOFTIRQD);
}

/* 2.6.12 net_rx_action(): budget = netdev_max_backlog, stop at the second
 * jiffy boundary whatever HZ is.  HZ=100, start 15 ms (jiffy 1): limit 3,
 * so a poll returning at 29.9 ms (jiffy 2) continues and one at 30 ms
 * squeezes - 15 ms on, where netdev_budget_usecs 2000 would give 1 jiffy. */
static void test_netrx_26_two_jiffies(void **state)
{
	struct netrx_budget b;

	(void)state;
	netrx_begin_26(&b, MS(15), 300, 100);
	assert_int_equal(b.budget, 300);
	assert_int_equal(b.time_limit, 3);
	assert_int_equal(netrx_account(&b, 16, US(29900), 100), NETRX_CONTINUE);
	assert_int_equal(netrx_account(&b, 16, MS(30), 100), NETRX_SQUEEZE);
	assert_int_equal(b.budget, 268);
	/* HZ=1000, start 0.5 ms: limit 2 (jiffy 0 + 2); the budget: 300 in
	 * polls of 16 frames leaves 12 after 18 polls, the 19th squeezes. */
	netrx_begin_26(&b, US(500), 300, 1000);
	assert_int_equal(b.time_limit, 2);
	for (int i = 0; i < 18; i++)
		assert_int_equal(netrx_account(&b, 16, US(600), 1000), NETRX_CONTINUE);
	assert_int_equal(b.budget, 12);
	assert_int_equal(netrx_account(&b, 16, US(600), 1000), NETRX_SQUEEZE);
}

/* 2.6.12 __do_softirq(): ten passes, then ksoftirqd, however long they
 * took (10 ms past the 2 ms of today's rule) - and no need_resched(). */
static void test_softirq_26_ten_passes_no_time(void **state)
{
	struct softirq_run r;

	(void)state;
	softirq_begin(&r, 0, 1000);
	assert_int_equal(softirq_after_pass_26(&r, false), SOFTIRQ_DONE);
	for (int i = 0; i < 9; i++)
		assert_int_equal(softirq_after_pass_26(&r, true), SOFTIRQ_RESTART);
	assert_int_equal(r.max_restart, 1);
	assert_int_equal(softirq_after_pass_26(&r, true), SOFTIRQ_WAKE_KSOFTIRQD);
	assert_int_equal(r.max_restart, 0);
	assert_int_equal(softirq_after_pass_26(&r, true), SOFTIRQ_WAKE_KSOFTIRQD);
	assert_int_equal(r.max_restart, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jiffies_at),
		cmocka_unit_test(test_to_jiffies_rounds_up),
		cmocka_unit_test(test_budget_squeeze),
		cmocka_unit_test(test_budget_exact_zero),
		cmocka_unit_test(test_time_squeeze_hz1000),
		cmocka_unit_test(test_time_squeeze_hz250),
		cmocka_unit_test(test_budget_usecs_whole),
		cmocka_unit_test(test_softirq_ten_passes),
		cmocka_unit_test(test_softirq_done),
		cmocka_unit_test(test_softirq_need_resched),
		cmocka_unit_test(test_softirq_two_ms),
		cmocka_unit_test(test_netrx_26_two_jiffies),
		cmocka_unit_test(test_softirq_26_ten_passes_no_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
