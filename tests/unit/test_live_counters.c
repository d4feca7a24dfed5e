/* test_live_counters.c - counter differences (src/live/counters.h): the
 * 32-bit softnet_stat columns wrap, the 64-bit ones subtract, busy percent
 * has no value without ticks and comes from cpuidle residency when both
 * reads have it; and a real read of /proc gives this machine's CPUs. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "live/counters.h"

static void test_diff_wraps_softnet(void **state)
{
	static struct counters a, b, d;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.ncpu = b.ncpu = 2;
	b.cpu[1].processed = 0xfffffff0u;	/* before the wrap */
	a.cpu[1].processed = 0x10;		/* after it: 32 packets later */
	b.cpu[1].net_rx = 100;
	a.cpu[1].net_rx = 250;
	b.cpu[1].ticks_busy = 10;
	a.cpu[1].ticks_busy = 40;
	b.cpu[1].ticks_idle = 90;
	a.cpu[1].ticks_idle = 160;
	b.tx_dev = (struct dev_counters){ .valid = true, .tx_dropped = 5 };
	a.tx_dev = (struct dev_counters){ .valid = true, .tx_dropped = 12 };
	b.t_ns = 1000;
	a.t_ns = 5000;
	b.rx_thread_ns = 700;
	a.rx_thread_ns = 2700;
	counters_diff(&d, &a, &b);
	assert_int_equal(d.rx_thread_ns, 2000);
	assert_int_equal(d.cpu[1].processed, 32);
	assert_int_equal(d.cpu[1].net_rx, 150);
	assert_int_equal(d.tx_dev.tx_dropped, 7);
	assert_true(d.tx_dev.valid);
	assert_false(d.rx_dev.valid);
	assert_int_equal(d.t_ns, 4000);
	assert_true(fabs(counters_cpu_busy_pct(&d, 1) - 30.0) < 1e-9);
	assert_true(isnan(counters_cpu_busy_pct(&d, 0)));	/* no ticks */
	assert_true(isnan(counters_cpu_busy_pct(&d, 7)));	/* no such CPU */
}

/* With cpuidle residency on both sides, busy = 1 - idle time / interval,
 * whatever the ticks say (they undercount a core that wakes often); one
 * side without it falls back to the ticks. */
static void test_busy_from_cpuidle(void **state)
{
	static struct counters a, b, d;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.ncpu = b.ncpu = 2;
	b.t_ns = 1000000000;
	a.t_ns = 3000000000;			/* 2 s */
	b.cpu[1] = (struct cpu_counters){ .ticks_busy = 10, .ticks_idle = 90,
					  .idle_valid = true, .idle_us = 500000 };
	a.cpu[1] = (struct cpu_counters){ .ticks_busy = 30, .ticks_idle = 270,
					  .idle_valid = true, .idle_us = 1700000 };
	counters_diff(&d, &a, &b);
	assert_true(d.cpu[1].idle_valid);
	assert_int_equal(d.cpu[1].idle_us, 1200000);
	assert_true(fabs(counters_cpu_busy_pct(&d, 1) - 40.0) < 1e-9);	/* not the ticks' 10% */
	a.cpu[1].idle_valid = false;
	counters_diff(&d, &a, &b);
	assert_false(d.cpu[1].idle_valid);
	assert_true(fabs(counters_cpu_busy_pct(&d, 1) - 10.0) < 1e-9);
}

static void test_read_proc(void **state)
{
	static struct counters c;

	(void)state;
	assert_int_equal(counters_read(&c, NULL), 0);
	assert_true(c.ncpu >= (int)sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(c.t_ns > 0);
	assert_true(c.cpu[0].ticks_busy + c.cpu[0].ticks_idle > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff_wraps_softnet),
		cmocka_unit_test(test_busy_from_cpuidle),
		cmocka_unit_test(test_read_proc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
