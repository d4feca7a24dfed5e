/* test_adaptive.c - exact decision sequences of ethtool adaptive RX.
 *
 * Configuration used throughout (cfg()): pkt_rate_low 1000, pkt_rate_high
 * 100000 pkts/s; low set 0 us / 1 frame, normal 50 us / 32 frames, high
 * 200 us / 128 frames; rate_sample_interval 1 s.  With samples exactly
 * 1 s apart, rate_pps = packets in that second.  The rule
 * (include/uapi/linux/ethtool.h): rate < low -> LOW, rate > high -> HIGH,
 * else NORMAL.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rxlab/adaptive.h"

#define SEC(x) ((int64_t)(x) * 1000000000)

static struct adaptive_config cfg(void)
{
	struct adaptive_config c = {
		.pkt_rate_low = 1000, .pkt_rate_high = 100000,
		.rx_usecs_low = 0, .rx_frames_low = 1,
		.rx_usecs = 50, .rx_frames = 32,
		.rx_usecs_high = 200, .rx_frames_high = 128,
		.rate_sample_interval_ns = SEC(1),
	};
	return c;
}

/* A decision that ended an interval with @rate_pps and now uses @set. */
static void expect_decided(struct adaptive_decision d, uint64_t rate_pps,
			   enum adaptive_set set, bool changed)
{
	static const uint32_t usecs[3] = { 0, 50, 200 };
	static const uint32_t frames[3] = { 1, 32, 128 };

	assert_true(d.decided);
	assert_int_equal(d.rate_pps, rate_pps);
	assert_int_equal(d.set, set);
	assert_int_equal(d.rx_usecs, usecs[set]);
	assert_int_equal(d.rx_frames, frames[set]);
	assert_int_equal(d.changed, changed);
}

static void expect_nothing(struct adaptive_decision d, enum adaptive_set set)
{
	assert_false(d.decided);
	assert_false(d.changed);
	assert_int_equal(d.rate_pps, 0);
	assert_int_equal(d.set, set);
}

static void test_config_check(void **state)
{
	struct adaptive_config c = cfg();
	const char *why = NULL;

	(void)state;
	assert_int_equal(adaptive_config_check(&c, &why), 0);
	c.rate_sample_interval_ns = 0;
	assert_int_equal(adaptive_config_check(&c, &why), -1);
	assert_non_null(strstr(why, "rate_sample_interval"));
	c.rate_sample_interval_ns = -1;
	why = NULL;
	assert_int_equal(adaptive_config_check(&c, &why), -1);
	assert_non_null(strstr(why, "rate_sample_interval"));

	c = cfg();
	c.pkt_rate_low = 100001;  /* > high */
	why = NULL;
	assert_int_equal(adaptive_config_check(&c, &why), -1);
	assert_non_null(strstr(why, "pkt_rate_low"));
	c.pkt_rate_low = 100000;  /* == high is legal: no NORMAL band but the point */
	assert_int_equal(adaptive_config_check(&c, &why), 0);

	c = cfg();
	c.rx_frames_low = 0;      /* usecs_low is 0 too */
	assert_int_equal(adaptive_config_check(&c, &why), -1);
	assert_non_null(strstr(why, "rx_frames_low"));
	c = cfg();
	c.rx_usecs = 0;
	c.rx_frames = 0;
	assert_int_equal(adaptive_config_check(&c, &why), -1);
	assert_non_null(strstr(why, "rx_usecs and rx_frames"));
	c = cfg();
	c.rx_usecs_high = 0;
	c.rx_frames_high = 0;
	assert_int_equal(adaptive_config_check(&c, &why), -1);
	assert_non_null(strstr(why, "rx_usecs_high"));
}

static void test_init_is_normal(void **state)
{
	struct adaptive_config c = cfg();
	struct adaptive a;
	struct adaptive_decision d;

	(void)state;
	adaptive_init(&a, &c, SEC(10), 777);
	assert_int_equal(a.set, ADAPT_NORMAL);
	assert_int_equal(a.t_start_ns, SEC(10));
	assert_int_equal(a.pkts_start, 777);
	d = adaptive_sample(&a, SEC(10), 777);
	expect_nothing(d, ADAPT_NORMAL);
	assert_int_equal(d.rx_usecs, 50);
	assert_int_equal(d.rx_frames, 32);
}

/* Below, within, above, and exactly at both thresholds. */
static void test_thresholds(void **state)
{
	struct adaptive_config c = cfg();
	struct adaptive a;
	uint64_t n = 0;

	(void)state;
	adaptive_init(&a, &c, 0, n);
	/* 999 < 1000 -> LOW */
	expect_decided(adaptive_sample(&a, SEC(1), n += 999), 999, ADAPT_LOW, true);
	/* 1000 is not < 1000 and not > 100000 -> NORMAL ("below" is strict) */
	expect_decided(adaptive_sample(&a, SEC(2), n += 1000), 1000, ADAPT_NORMAL, true);
	/* 50000: within -> NORMAL, no change */
	expect_decided(adaptive_sample(&a, SEC(3), n += 50000), 50000, ADAPT_NORMAL, false);
	/* 100001 > 100000 -> HIGH */
	expect_decided(adaptive_sample(&a, SEC(4), n += 100001), 100001, ADAPT_HIGH, true);
	/* 100000 is not > 100000 -> NORMAL ("above" is strict) */
	expect_decided(adaptive_sample(&a, SEC(5), n += 100000), 100000, ADAPT_NORMAL, true);
	/* 200000 -> HIGH, then 0 packets: 0 < 1000 -> LOW straight from HIGH */
	expect_decided(adaptive_sample(&a, SEC(6), n += 200000), 200000, ADAPT_HIGH, true);
	expect_decided(adaptive_sample(&a, SEC(7), n), 0, ADAPT_LOW, true);
	assert_int_equal(a.decisions, 7);
	assert_int_equal(a.changes, 6);
	assert_int_equal(a.intervals_in[ADAPT_LOW], 2);
	assert_int_equal(a.intervals_in[ADAPT_NORMAL], 3);
	assert_int_equal(a.intervals_in[ADAPT_HIGH], 2);
}

/* Samples inside the interval change nothing, whatever they carry; the
 * sample at exactly t_start + interval decides on everything since
 * t_start. */
static void test_nothing_before_interval_end(void **state)
{
	struct adaptive_config c = cfg();
	struct adaptive a;

	(void)state;
	adaptive_init(&a, &c, SEC(5), 1000);
	expect_nothing(adaptive_sample(&a, SEC(5) + 1, 1000 + 500000), ADAPT_NORMAL);
	expect_nothing(adaptive_sample(&a, SEC(6) - 1, 1000 + 900000), ADAPT_NORMAL);
	/* time going back is not an interval end either */
	expect_nothing(adaptive_sample(&a, SEC(4), 1000 + 900000), ADAPT_NORMAL);
	assert_int_equal(a.decisions, 0);
	assert_int_equal(a.t_start_ns, SEC(5));
	assert_int_equal(a.pkts_start, 1000);
	/* exactly 1 s after t0: (1000 + 999000) - 1000 = 999000 packets in
	 * 1 s -> 999000 > 100000 -> HIGH */
	expect_decided(adaptive_sample(&a, SEC(6), 1000 + 999000), 999000, ADAPT_HIGH, true);
	/* the next interval starts at 6 s: at 6.5 s nothing */
	expect_nothing(adaptive_sample(&a, SEC(6) + SEC(1) / 2, 1000 + 999000), ADAPT_HIGH);
	assert_int_equal(adaptive_sample(&a, SEC(6) + SEC(1) / 2, 0).rx_usecs, 200);
}

/* A late sample measures over the real elapsed time, not the nominal
 * interval: 1800 packets over 2 s = 900 pkts/s -> LOW (1800 / 1 s would
 * be NORMAL); and the rate is truncated to whole pkts/s. */
static void test_late_sample_and_truncation(void **state)
{
	struct adaptive_config c = cfg();
	struct adaptive a;

	(void)state;
	adaptive_init(&a, &c, 0, 0);
	expect_decided(adaptive_sample(&a, SEC(2), 1800), 900, ADAPT_LOW, true);
	/* next interval from 2 s: 150001 packets in 1.5 s = 100000.67 ->
	 * 100000, not > 100000 -> NORMAL (the rule compares the integer) */
	expect_decided(adaptive_sample(&a, SEC(2) + SEC(3) / 2, 1800 + 150001), 100000,
		       ADAPT_NORMAL, true);
	/* 150003 in 1.5 s = 100002 -> HIGH */
	expect_decided(adaptive_sample(&a, SEC(5), 1800 + 150001 + 150003), 100002,
		       ADAPT_HIGH, true);
}

/* The cumulative counter wraps at 2^64: the unsigned difference still
 * counts the packets of the interval. */
static void test_counter_wrap(void **state)
{
	struct adaptive_config c = cfg();
	struct adaptive a;

	(void)state;
	/* start 100 below 2^64; at 1 s the counter reads 400:
	 * 400 - (2^64 - 100) mod 2^64 = 500 packets -> 500 < 1000 -> LOW */
	adaptive_init(&a, &c, 0, UINT64_MAX - 99);
	expect_decided(adaptive_sample(&a, SEC(1), 400), 500, ADAPT_LOW, true);
	/* wrap again mid-HIGH: from 2^64 - 1000 to 199000 = 200000 packets */
	adaptive_init(&a, &c, 0, UINT64_MAX - 999);
	expect_decided(adaptive_sample(&a, SEC(1), 199000), 200000, ADAPT_HIGH, true);
}

/* Rates past 1.8e10 packets in an interval stay exact (or saturate). */
static void test_large_counts(void **state)
{
	struct adaptive_config c = cfg();
	struct adaptive a;

	(void)state;
	/* 2^63 packets in 1 s: whole = 9223372036, rem = 854775808 ->
	 * 9223372036 * 1e9 + 854775808 = 2^63 exactly */
	adaptive_init(&a, &c, 0, 0);
	expect_decided(adaptive_sample(&a, SEC(1), (uint64_t)1 << 63), (uint64_t)1 << 63,
		       ADAPT_HIGH, true);
	/* 5e10 packets in 30 s = 1666666666.67 -> 1666666666 (remainder
	 * 2e10 > 1.8e10 takes the scaled path: 1e10 * 1e9 / 1.5e10) */
	c.rate_sample_interval_ns = SEC(30);
	adaptive_init(&a, &c, 0, 0);
	expect_decided(adaptive_sample(&a, SEC(30), 50000000000ull), 1666666666, ADAPT_HIGH,
		       true);
	/* 2^64 - 1 packets in 1 ns saturates */
	c.rate_sample_interval_ns = 1;
	adaptive_init(&a, &c, 0, 0);
	expect_decided(adaptive_sample(&a, 1, UINT64_MAX), UINT64_MAX, ADAPT_HIGH, true);
}

static void test_pick(void **state)
{
	struct adaptive_config c = cfg();

	(void)state;
	assert_int_equal(adaptive_pick(&c, 0), ADAPT_LOW);
	assert_int_equal(adaptive_pick(&c, 999), ADAPT_LOW);
	assert_int_equal(adaptive_pick(&c, 1000), ADAPT_NORMAL);
	assert_int_equal(adaptive_pick(&c, 100000), ADAPT_NORMAL);
	assert_int_equal(adaptive_pick(&c, 100001), ADAPT_HIGH);
	/* low == high: only that exact rate is NORMAL */
	c.pkt_rate_low = c.pkt_rate_high = 5000;
	assert_int_equal(adaptive_pick(&c, 4999), ADAPT_LOW);
	assert_int_equal(adaptive_pick(&c, 5000), ADAPT_NORMAL);
	assert_int_equal(adaptive_pick(&c, 5001), ADAPT_HIGH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_check),
		cmocka_unit_test(test_init_is_normal),
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_nothing_before_interval_end),
		cmocka_unit_test(test_late_sample_and_truncation),
		cmocka_unit_test(test_counter_wrap),
		cmocka_unit_test(test_large_counts),
		cmocka_unit_test(test_pick),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
