/* test_poll_rules.c - exact decision sequences of the DPDK l3fwd-power,
 * ixy and Seastar poll/sleep rules and of the NAPI drivers' poll-exit
 * rules (poll_rules.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rxlab/poll_rules.h"

#define US(x) ((int64_t)(x) * 1000)
#define MS(x) ((int64_t)(x) * 1000000)

/* 10 empty polls keep polling, 11..299 pause, the 300th sleeps; a packet
 * resets the count. */
static void test_dpdk_sequence(void **state)
{
	(void)state;
	struct dpdk_power d;
	dpdk_power_init(&d, DPDK_MIN_ZERO_POLL_COUNT, DPDK_SUSPEND_THRESHOLD);
	for (int i = 1; i <= 10; i++)
		assert_int_equal(dpdk_power_after_poll(&d, 0), RULE_POLL);
	for (int i = 11; i < 300; i++)
		assert_int_equal(dpdk_power_after_poll(&d, 0), RULE_PAUSE);
	assert_int_equal(d.pauses, 289);
	assert_int_equal(dpdk_power_after_poll(&d, 0), RULE_SLEEP);
	assert_int_equal(d.zero_polls, 0);
	assert_int_equal(d.sleeps, 1);
	for (int i = 1; i <= 20; i++)
		dpdk_power_after_poll(&d, 0);
	assert_int_equal(dpdk_power_after_poll(&d, 3), RULE_POLL);
	assert_int_equal(d.zero_polls, 0);
	assert_int_equal(dpdk_power_after_poll(&d, 0), RULE_POLL);
}

/* Below 1.2 Mpps the rule sleeps; a sample above it polls; the mean of 5
 * decides, so one slow sample after a fast one keeps polling. */
static void test_ixy_threshold(void **state)
{
	(void)state;
	struct ixy_rule x;
	ixy_rule_init(&x, IXY_MOVING_AVERAGE_RANGE, IXY_THRESHOLD_PPMS, MS(1), 0);
	assert_true(x.interrupt_enabled);
	/* 1000 packets in 2 ms = 500 ppms: sleep */
	assert_int_equal(ixy_rule_after_poll(&x, US(1000), 1000, 2048), RULE_SLEEP);
	assert_int_equal(x.checks, 0);
	assert_int_equal(ixy_rule_after_poll(&x, MS(2), 0, 2048), RULE_SLEEP);
	assert_int_equal(x.checks, 1);
	assert_int_equal(x.rates[0], 500);
	/* 10000 in the next 2 ms = 5000 ppms: mean (500 + 5000) / 2 = 2750 -> poll */
	assert_int_equal(ixy_rule_after_poll(&x, MS(4) + 1, 10000, 2048), RULE_POLL);
	assert_int_equal(x.sum / x.length, 2750);
	/* 0 in 2 ms: mean 5500/3 = 1833 still above -> poll */
	assert_int_equal(ixy_rule_after_poll(&x, MS(6) + 2, 0, 2048), RULE_POLL);
	/* two more zeros: 5500/5 = 1100 -> sleep */
	assert_int_equal(ixy_rule_after_poll(&x, MS(8) + 3, 0, 2048), RULE_POLL);
	assert_int_equal(ixy_rule_after_poll(&x, MS(10) + 4, 0, 2048), RULE_SLEEP);
	assert_int_equal(x.length, 5);
	/* the window slides: the 500 drops out */
	ixy_rule_after_poll(&x, MS(12) + 5, 0, 2048);
	assert_int_equal(x.sum, 5000);
}

/* A full batch at check time polls even at a low rate. */
static void test_ixy_full_batch(void **state)
{
	(void)state;
	struct ixy_rule x;
	ixy_rule_init(&x, 5, 1200, MS(1), 0);
	assert_int_equal(ixy_rule_after_poll(&x, MS(2), 64, 64), RULE_POLL);
	assert_int_equal(ixy_rule_after_poll(&x, MS(4), 10, 64), RULE_SLEEP);
}

static void test_seastar(void **state)
{
	(void)state;
	struct seastar_rule s;
	seastar_rule_init(&s, SEASTAR_IDLE_POLL_NS, 0);
	assert_int_equal(seastar_rule_after_poll(&s, US(100), 0), RULE_POLL);
	assert_int_equal(seastar_rule_after_poll(&s, US(150), 5), RULE_POLL);
	assert_int_equal(seastar_rule_after_poll(&s, US(349), 0), RULE_POLL);
	assert_int_equal(seastar_rule_after_poll(&s, US(350), 0), RULE_SLEEP);
	assert_int_equal(s.sleeps, 1);
	seastar_rule_woken(&s, US(1000));
	assert_int_equal(seastar_rule_after_poll(&s, US(1100), 0), RULE_POLL);
}

/* NAPI drivers: budget completes below the limit (TX does not matter);
 * idle (2.6.12 e100_poll) stays while a poll cleaned anything; a full
 * poll stays under both. */
static void test_napi_exit_rules(void **state)
{
	(void)state;
	assert_int_equal(napi_exit_after_poll(NAPI_EXIT_BUDGET, 0, 0, 16), RULE_SLEEP);
	assert_int_equal(napi_exit_after_poll(NAPI_EXIT_BUDGET, 1, 0, 16), RULE_SLEEP);
	assert_int_equal(napi_exit_after_poll(NAPI_EXIT_BUDGET, 15, 3, 16), RULE_SLEEP);
	assert_int_equal(napi_exit_after_poll(NAPI_EXIT_BUDGET, 16, 0, 16), RULE_POLL);
	assert_int_equal(napi_exit_after_poll(NAPI_EXIT_IDLE, 0, 0, 16), RULE_SLEEP);
	assert_int_equal(napi_exit_after_poll(NAPI_EXIT_IDLE, 1, 0, 16), RULE_POLL);
	assert_int_equal(napi_exit_after_poll(NAPI_EXIT_IDLE, 0, 1, 16), RULE_POLL);
	assert_int_equal(napi_exit_after_poll(NAPI_EXIT_IDLE, 16, 0, 16), RULE_POLL);
	/* a limit the budget cut to 0 frames: full, stays */
	assert_int_equal(napi_exit_after_poll(NAPI_EXIT_BUDGET, 0, 0, 0), RULE_POLL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dpdk_sequence),
		cmocka_unit_test(test_ixy_threshold),
		cmocka_unit_test(test_ixy_full_batch),
		cmocka_unit_test(test_seastar),
		cmocka_unit_test(test_napi_exit_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
