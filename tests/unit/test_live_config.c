/* test_live_config.c - mode names, defaults and rxl_config_set() /
 * rxl_config_check() messages of the live library (include/rxlab/live.h). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <errno.h>

#include <cmocka.h>

#include "rxlab/live.h"

static void test_mode_names_roundtrip(void **state)
{
	(void)state;
	for (int m = 0; m < RXL_MODE_COUNT; m++) {
		enum rxl_mode out = RXL_MODE_COUNT;
		assert_int_equal(rxl_mode_parse(rxl_mode_name((enum rxl_mode)m), &out), 0);
		assert_int_equal(out, m);
	}
	enum rxl_mode out = RXL_MODE_BUSY;
	assert_int_equal(rxl_mode_parse("polling", &out), -1);
	assert_int_equal(out, RXL_MODE_BUSY);
	assert_string_equal(rxl_mode_name(RXL_MODE_COUNT), "?");
	assert_string_equal(rxl_mode_name(RXL_MODE_BSD_POLL), "bsd-poll");
	assert_true(rxl_mode_is_userspace(RXL_MODE_SEASTAR));
	assert_true(rxl_mode_sched_fifo(RXL_MODE_HYBRID));
	assert_true(rxl_mode_sched_fifo(RXL_MODE_NAPI));
	assert_false(rxl_mode_sched_fifo(RXL_MODE_BUSY));
	assert_false(rxl_mode_sched_fifo(RXL_MODE_DPDK_POWER));
	assert_false(rxl_mode_is_userspace(RXL_MODE_EPOLL));
}

static void test_defaults(void **state)
{
	(void)state;
	struct rxl_config c;
	char err[128];
	rxl_config_default(&c, RXL_MODE_PREFER_BUSY);
	assert_int_equal(c.budget, 64);
	assert_true(c.prefer_busy_poll);
	assert_int_equal(c.dpdk_pause_polls, 10);
	assert_int_equal(c.dpdk_sleep_polls, 300);
	assert_int_equal(c.seastar_idle_poll_ns, 200000);
	assert_int_equal(c.ixy_threshold_pps, 1200000);
	assert_int_equal(rxl_config_check(&c, err, sizeof err), 0);
	rxl_config_default(&c, RXL_MODE_EPOLL);
	assert_false(c.prefer_busy_poll);
}

static void test_set_values_and_units(void **state)
{
	(void)state;
	struct rxl_config c;
	char err[512];
	rxl_config_default(&c, RXL_MODE_NAPI);
	assert_int_equal(rxl_config_set(&c, "budget", "16", err, sizeof err), 0);
	assert_int_equal(c.budget, 16);
	assert_int_equal(rxl_config_set(&c, "napi-gro-flush-timeout", "50us", err, sizeof err), 0);
	assert_int_equal(c.napi_gro_flush_timeout_ns, 50000);
	assert_int_equal(rxl_config_set(&c, "spin-max", "2ms", err, sizeof err), 0);
	assert_int_equal(c.spin_max_ns, 2000000);
	assert_int_equal(rxl_config_set(&c, "irq-suspend-timeout", "1s", err, sizeof err), 0);
	assert_int_equal(c.irq_suspend_timeout_ns, 1000000000);
	assert_int_equal(rxl_config_set(&c, "prefer-busy-poll", "on", err, sizeof err), 0);
	assert_true(c.prefer_busy_poll);
	assert_int_equal(rxl_config_set(&c, "prefer-busy-poll", "0", err, sizeof err), 0);
	assert_false(c.prefer_busy_poll);
}

static void test_set_errors(void **state)
{
	(void)state;
	struct rxl_config c;
	char err[512];
	rxl_config_default(&c, RXL_MODE_NAPI);
	assert_int_equal(rxl_config_set(&c, "budget", "0", err, sizeof err), -EINVAL);
	assert_string_equal(err, "budget: '0' out of range (accepted: 1..1024)");
	assert_int_equal(rxl_config_set(&c, "budget", "12x", err, sizeof err), -EINVAL);
	assert_string_equal(err, "budget: '12x' out of range (accepted: 1..1024)");
	assert_int_equal(rxl_config_set(&c, "budget", "-1", err, sizeof err), -EINVAL);
	assert_int_equal(rxl_config_set(&c, "spin-max", "5 min", err, sizeof err), -EINVAL);
	assert_string_equal(err, "spin-max: '5 min' out of range (accepted: 0..100000000 ns (suffix ns, us, ms or s))");
	assert_int_equal(rxl_config_set(&c, "xdp-need-wakeup", "maybe", err, sizeof err), -EINVAL);
	assert_int_equal(rxl_config_set(&c, "rx_usecs", "5", err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "unknown key 'rx_usecs' (accepted: budget, "));
	assert_non_null(strstr(err, "rx-usecs"));
	assert_int_equal(c.budget, 64); /* untouched by the failures */
}

static void test_check_cross_fields(void **state)
{
	(void)state;
	struct rxl_config c;
	char err[256];
	rxl_config_default(&c, RXL_MODE_COALESCE);
	c.rx_usecs = 0;
	c.rx_frames = 0;
	assert_int_equal(rxl_config_check(&c, err, sizeof err), -EINVAL);
	assert_string_equal(err, "rx-usecs and rx-frames are both 0 (set rx-frames 1 for no coalescing)");
	rxl_config_default(&c, RXL_MODE_BSD_POLL);
	c.each_burst = 200;
	assert_int_equal(rxl_config_check(&c, err, sizeof err), -EINVAL);
	assert_string_equal(err, "each-burst: 200 above burst-max 150");
	rxl_config_default(&c, RXL_MODE_ITR);
	c.itr = 2;
	assert_int_equal(rxl_config_check(&c, err, sizeof err), -EINVAL);
	rxl_config_default(&c, RXL_MODE_BSD_POLL);
	c.hz = 0; /* a struct filled by hand is checked too */
	assert_int_equal(rxl_config_check(&c, err, sizeof err), -EINVAL);
	assert_string_equal(err, "hz: 0 out of range (accepted: 100..100000)");
	rxl_config_default(&c, RXL_MODE_TPACKET);
	c.tp_block_bytes = 5000;
	assert_int_equal(rxl_config_check(&c, err, sizeof err), -EINVAL);
	assert_string_equal(err, "tp-block-bytes: 5000 is not a power of two");
}

static void nop_batch(void *arg, const struct rxl_pkt *pkts, size_t n)
{
	(void)arg;
	(void)pkts;
	(void)n;
}

/* A kernel mode on the wrong source is refused with a message, not run. */
static void test_open_refuses_wrong_source(void **state)
{
	(void)state;
	struct rxl_config c;
	char err[256];
	rxl_config_default(&c, RXL_MODE_AF_XDP);
	assert_null(rxl_open_udp(0, &c, nop_batch, NULL, err, sizeof err));
	assert_string_equal(err, "mode af-xdp needs its own source (rxl_open_xdp)");
	assert_null(rxl_open_udp(0, &c, nop_batch, NULL, NULL, 0)); /* no buffer: still refused */
	rxl_config_default(&c, RXL_MODE_EPOLL);
	assert_null(rxl_open_tpacket(1, &c, nop_batch, NULL, err, sizeof err));
	assert_string_equal(err, "mode epoll cannot run on a TPACKET_V3 ring (accepted: tpacket or a userspace mode)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mode_names_roundtrip),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_set_values_and_units),
		cmocka_unit_test(test_set_errors),
		cmocka_unit_test(test_check_cross_fields),
		cmocka_unit_test(test_open_refuses_wrong_source),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
