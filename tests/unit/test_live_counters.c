/* test_live_counters.c - counter differences (src/live/counters.h): the
 * 32-bit softnet_stat columns wrap, the 64-bit ones subtract, busy percent
 * has no value without ticks; and a real read of /proc gives this
 * machine's CPUs. */
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
	counters_diff(&d, &a, &b);
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
		cmocka_unit_test(test_read_proc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
