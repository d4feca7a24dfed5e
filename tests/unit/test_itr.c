/* test_itr.c - exact decision sequences of e1000 InterruptThrottleRate.
 *
 * Class transitions follow e1000_update_itr() (e1000_main.c); every case
 * gives the integer arithmetic that decides it.  Rates follow
 * e1000_set_itr(): targets 70000 / 20000 / 4000 ints/s, rising moves of at
 * most target/4, falling moves at once; register = 1e9 / (itr * 256)
 * truncated, gap = register * 256 ns.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rxlab/itr.h"

/* ---- itr_update_class(): one case per branch ------------------------- */

static void test_class_from_lowest(void **state)
{
	(void)state;
	/* jumbo: 9000 / 1 = 9000 > 8000 -> bulk */
	assert_int_equal(itr_update_class(ITR_LOWEST_LATENCY, 1, 9000), ITR_BULK_LATENCY);
	/* 8000 / 1 = 8000, not > 8000; 1 < 5 and 8000 > 512 -> low */
	assert_int_equal(itr_update_class(ITR_LOWEST_LATENCY, 1, 8000), ITR_LOW_LATENCY);
	/* 600 / 4 = 150; 4 < 5 and 600 > 512 -> low */
	assert_int_equal(itr_update_class(ITR_LOWEST_LATENCY, 4, 600), ITR_LOW_LATENCY);
	/* 5 packets: not < 5 -> stays lowest */
	assert_int_equal(itr_update_class(ITR_LOWEST_LATENCY, 5, 600), ITR_LOWEST_LATENCY);
	/* 512 bytes: not > 512 -> stays lowest */
	assert_int_equal(itr_update_class(ITR_LOWEST_LATENCY, 4, 512), ITR_LOWEST_LATENCY);
	/* packets == 0: unchanged, even with jumbo-sized bytes (no division) */
	assert_int_equal(itr_update_class(ITR_LOWEST_LATENCY, 0, 9000), ITR_LOWEST_LATENCY);
}

static void test_class_from_low_big(void **state)
{
	(void)state;
	/* bytes > 10000 branch */
	/* jumbo: 18000 / 2 = 9000 > 8000 -> bulk */
	assert_int_equal(itr_update_class(ITR_LOW_LATENCY, 2, 18000), ITR_BULK_LATENCY);
	/* 10800 / 9 = 1200 (not jumbo, not > 1200) but 9 < 10 -> bulk */
	assert_int_equal(itr_update_class(ITR_LOW_LATENCY, 9, 10800), ITR_BULK_LATENCY);
	/* 12110 / 10 = 1211 > 1200 -> bulk */
	assert_int_equal(itr_update_class(ITR_LOW_LATENCY, 10, 12110), ITR_BULK_LATENCY);
	/* 12000 / 10 = 1200, not > 1200; 10 not < 10; 10 not > 35 -> stays low */
	assert_int_equal(itr_update_class(ITR_LOW_LATENCY, 10, 12000), ITR_LOW_LATENCY);
	/* 10800 / 36 = 300; 36 > 35 -> lowest */
	assert_int_equal(itr_update_class(ITR_LOW_LATENCY, 36, 10800), ITR_LOWEST_LATENCY);
	/* 10500 / 35 = 300; 35 not > 35 -> stays low */
	assert_int_equal(itr_update_class(ITR_LOW_LATENCY, 35, 10500), ITR_LOW_LATENCY);
}

static void test_class_from_low_small(void **state)
{
	(void)state;
	/* bytes <= 10000 branch */
	/* 8004 / 4 = 2001 > 2000 -> bulk */
	assert_int_equal(itr_update_class(ITR_LOW_LATENCY, 4, 8004), ITR_BULK_LATENCY);
	/* exactly 10000 bytes is this branch: 10000 / 5 = 2000, not > 2000;
	 * 5 packets not <= 2 -> stays low */
	assert_int_equal(itr_update_class(ITR_LOW_LATENCY, 5, 10000), ITR_LOW_LATENCY);
	/* 2 <= 2 and 511 < 512 -> lowest */
	assert_int_equal(itr_update_class(ITR_LOW_LATENCY, 2, 511), ITR_LOWEST_LATENCY);
	/* 512 not < 512 -> stays low */
	assert_int_equal(itr_update_class(ITR_LOW_LATENCY, 2, 512), ITR_LOW_LATENCY);
	/* 3 packets not <= 2 -> stays low */
	assert_int_equal(itr_update_class(ITR_LOW_LATENCY, 3, 100), ITR_LOW_LATENCY);
	/* packets == 0: unchanged */
	assert_int_equal(itr_update_class(ITR_LOW_LATENCY, 0, 0), ITR_LOW_LATENCY);
}

static void test_class_from_bulk(void **state)
{
	(void)state;
	/* 25001 > 25000 and 36 > 35 -> low */
	assert_int_equal(itr_update_class(ITR_BULK_LATENCY, 36, 25001), ITR_LOW_LATENCY);
	/* 25001 > 25000 but 35 not > 35 -> stays bulk */
	assert_int_equal(itr_update_class(ITR_BULK_LATENCY, 35, 25001), ITR_BULK_LATENCY);
	/* 25000 not > 25000 and not < 6000 -> stays bulk (even with 36 packets) */
	assert_int_equal(itr_update_class(ITR_BULK_LATENCY, 36, 25000), ITR_BULK_LATENCY);
	/* 5999 < 6000 -> low (one 5999-byte packet: no jumbo rule here) */
	assert_int_equal(itr_update_class(ITR_BULK_LATENCY, 1, 5999), ITR_LOW_LATENCY);
	/* 6000 not < 6000 -> stays bulk */
	assert_int_equal(itr_update_class(ITR_BULK_LATENCY, 4, 6000), ITR_BULK_LATENCY);
	/* packets == 0: unchanged although bytes 0 < 6000 */
	assert_int_equal(itr_update_class(ITR_BULK_LATENCY, 0, 0), ITR_BULK_LATENCY);
}

/* ---- register arithmetic --------------------------------------------- */

static void test_register_values(void **state)
{
	(void)state;
	/* 1e9 / (20000 * 256) = 1e9 / 5120000 = 195.3 -> 195; 195 * 256 = 49920 */
	assert_int_equal(itr_reg_from_rate(20000), 195);
	assert_int_equal(itr_gap_ns(195), 49920);
	/* 1e9 / 2048000 = 488.3 -> 488; 488 * 256 = 124928 */
	assert_int_equal(itr_reg_from_rate(8000), 488);
	assert_int_equal(itr_gap_ns(488), 124928);
	/* 1e9 / 1024000 = 976.6 -> 976; 976 * 256 = 249856 */
	assert_int_equal(itr_reg_from_rate(4000), 976);
	assert_int_equal(itr_gap_ns(976), 249856);
	/* 1e9 / 17920000 = 55.8 -> 55; 55 * 256 = 14080 */
	assert_int_equal(itr_reg_from_rate(70000), 55);
	assert_int_equal(itr_gap_ns(55), 14080);
	/* 1e9 / 25600 = 39062.5 -> 39062 (the slowest fixed rate) */
	assert_int_equal(itr_reg_from_rate(100), 39062);
	/* off: register 0, no gap */
	assert_int_equal(itr_reg_from_rate(0), 0);
	assert_int_equal(itr_gap_ns(0), 0);
}

/* ---- module parameter and ethtool mappings --------------------------- */

static void expect_param(uint32_t v, enum itr_mode mode, uint32_t rate)
{
	struct itr_config c = { .mode = ITR_FIXED, .fixed_rate = 12345 };
	const char *why = NULL;

	assert_int_equal(itr_from_param(v, &c, &why), 0);
	assert_int_equal(c.mode, mode);
	assert_int_equal(c.fixed_rate, rate);
	assert_null(why);
}

static void expect_param_rejected(uint32_t v)
{
	struct itr_config c = { .mode = ITR_FIXED, .fixed_rate = 12345 };
	const char *why = NULL;

	assert_int_equal(itr_from_param(v, &c, &why), -1);
	assert_non_null(why);
	assert_non_null(strstr(why, "InterruptThrottleRate"));
	assert_non_null(strstr(why, "100..100000"));
	/* @out untouched */
	assert_int_equal(c.mode, ITR_FIXED);
	assert_int_equal(c.fixed_rate, 12345);
}

static void test_param_mapping(void **state)
{
	(void)state;
	expect_param(0, ITR_OFF, 0);
	expect_param(1, ITR_DYNAMIC, 0);
	expect_param(3, ITR_DYNAMIC_CONSERVATIVE, 0);
	expect_param(4, ITR_SIMPLIFIED, 0);
	expect_param(100, ITR_FIXED, 100);       /* 100 & ~3 = 100 */
	expect_param(101, ITR_FIXED, 100);       /* 0b1100101 & ~3 = 100 */
	expect_param(8003, ITR_FIXED, 8000);     /* 8003 & ~3 = 8000 */
	expect_param(8000, ITR_FIXED, 8000);
	expect_param(100000, ITR_FIXED, 100000); /* 100000 = 4 * 25000 */
	assert_int_equal(ITR_DEFAULT_MODE, ITR_DYNAMIC_CONSERVATIVE);
	expect_param_rejected(2);
	expect_param_rejected(5);
	expect_param_rejected(99);
	expect_param_rejected(100001);
	expect_param_rejected(UINT32_MAX);
}

static void expect_usecs(uint32_t us, enum itr_mode mode, uint32_t rate)
{
	struct itr_config c = { .mode = ITR_FIXED, .fixed_rate = 12345 };
	const char *why = NULL;

	assert_int_equal(itr_from_ethtool_rx_usecs(us, &c, &why), 0);
	assert_int_equal(c.mode, mode);
	assert_int_equal(c.fixed_rate, rate);
	assert_null(why);
}

static void expect_usecs_rejected(uint32_t us)
{
	struct itr_config c = { .mode = ITR_FIXED, .fixed_rate = 12345 };
	const char *why = NULL;

	assert_int_equal(itr_from_ethtool_rx_usecs(us, &c, &why), -1);
	assert_non_null(why);
	assert_non_null(strstr(why, "rx-usecs"));
	assert_non_null(strstr(why, "10..10000"));
	assert_int_equal(c.mode, ITR_FIXED);
	assert_int_equal(c.fixed_rate, 12345);
}

static void test_ethtool_mapping(void **state)
{
	(void)state;
	expect_usecs(0, ITR_OFF, 0);
	expect_usecs(1, ITR_DYNAMIC, 0);
	expect_usecs(3, ITR_DYNAMIC_CONSERVATIVE, 0);
	expect_usecs(4, ITR_SIMPLIFIED, 0);
	expect_usecs(10, ITR_FIXED, 100000);  /* 1000000 / 10 */
	expect_usecs(30, ITR_FIXED, 33333);   /* 1000000 / 30 = 33333.3, truncated */
	expect_usecs(125, ITR_FIXED, 8000);   /* 1000000 / 125 */
	expect_usecs(10000, ITR_FIXED, 100);  /* 1000000 / 10000 */
	expect_usecs_rejected(2);
	expect_usecs_rejected(5);
	expect_usecs_rejected(9);
	expect_usecs_rejected(10001);
	expect_usecs_rejected(UINT32_MAX);
}

/* ---- itr_on_irq_done() ----------------------------------------------- */

static struct itr make(enum itr_mode mode, uint32_t fixed, uint32_t link)
{
	struct itr_config c = { .mode = mode, .fixed_rate = fixed };
	struct itr t;

	itr_init(&t, &c, link);
	return t;
}

static void expect(struct itr_decision d, enum itr_outcome o, bool changed, uint32_t itr,
		   uint32_t reg)
{
	assert_int_equal(d.outcome, o);
	assert_int_equal(d.changed, changed);
	assert_int_equal(d.itr, itr);
	assert_int_equal(d.reg, reg);
	assert_int_equal(d.gap_ns, (int64_t)reg * 256);
}

static void test_init(void **state)
{
	struct itr t;

	(void)state;
	t = make(ITR_DYNAMIC, 0, 1000);
	assert_int_equal(t.itr, 20000);
	assert_int_equal(t.rx_class, ITR_LOWEST_LATENCY);
	assert_int_equal(t.tx_class, ITR_LOWEST_LATENCY);
	assert_true(t.mac_is_82540_or_later);
	assert_int_equal(t.link_mbps, 1000);
	assert_int_equal(make(ITR_DYNAMIC_CONSERVATIVE, 0, 1000).itr, 20000);
	assert_int_equal(make(ITR_OFF, 0, 1000).itr, 0);
	assert_int_equal(make(ITR_FIXED, 8000, 1000).itr, 8000);
	assert_int_equal(make(ITR_SIMPLIFIED, 0, 1000).itr, 8000);
}

/* Mode 1, 64-byte pings both ways: lowest stays lowest (1 packet, 64 bytes
 * not > 512), target 70000, and the rate climbs by 70000/4 = 17500. */
static void test_dynamic_ramp_to_lowest(void **state)
{
	struct itr t = make(ITR_DYNAMIC, 0, 1000);

	(void)state;
	/* 20000 + 17500 = 37500; 1e9 / 9600000 = 104 */
	expect(itr_on_irq_done(&t, 1, 64, 1, 64), ITR_CLASSIFIED, true, 37500, 104);
	/* 37500 + 17500 = 55000; 1e9 / 14080000 = 71 */
	expect(itr_on_irq_done(&t, 1, 64, 1, 64), ITR_CLASSIFIED, true, 55000, 71);
	/* min(55000 + 17500, 70000) = 70000; register 55 */
	expect(itr_on_irq_done(&t, 1, 64, 1, 64), ITR_CLASSIFIED, true, 70000, 55);
	/* at the target: no write */
	expect(itr_on_irq_done(&t, 1, 64, 1, 64), ITR_CLASSIFIED, false, 70000, 55);
	/* RX jumbo from lowest: 18000 / 2 = 9000 > 8000 -> bulk; falls at once */
	expect(itr_on_irq_done(&t, 2, 18000, 1, 64), ITR_CLASSIFIED, true, 4000, 976);
	assert_int_equal(t.rx_class, ITR_BULK_LATENCY);
	assert_int_equal(t.tx_class, ITR_LOWEST_LATENCY);
	assert_int_equal(t.updates, 5);
	assert_int_equal(t.changes, 4);
	assert_int_equal(t.ramp_steps, 2);  /* 37500 and 55000 fell short */
	assert_int_equal(t.by_class[ITR_LOWEST_LATENCY], 4);
	assert_int_equal(t.by_class[ITR_BULK_LATENCY], 1);
}

/* Mode 3: the same pings give lowest, promoted to low: target 20000, which
 * is the current rate, so nothing moves. */
static void test_conservative_promotion(void **state)
{
	struct itr t = make(ITR_DYNAMIC_CONSERVATIVE, 0, 1000);

	(void)state;
	expect(itr_on_irq_done(&t, 1, 64, 1, 64), ITR_CLASSIFIED, false, 20000, 195);
	assert_int_equal(t.rx_class, ITR_LOW_LATENCY);
	assert_int_equal(t.tx_class, ITR_LOW_LATENCY);
	/* From low, 2 packets of 511 bytes total would be lowest (2 <= 2,
	 * 511 < 512); mode 3 promotes it back to low. */
	expect(itr_on_irq_done(&t, 2, 511, 2, 511), ITR_CLASSIFIED, false, 20000, 195);
	assert_int_equal(t.rx_class, ITR_LOW_LATENCY);
	assert_int_equal(t.tx_class, ITR_LOW_LATENCY);
	assert_int_equal(t.by_class[ITR_LOW_LATENCY], 2);
	assert_int_equal(t.by_class[ITR_LOWEST_LATENCY], 0);
}

/* current = max(rx_class, tx_class): the more moderated direction wins,
 * whichever it is. */
static void test_max_of_directions(void **state)
{
	struct itr t = make(ITR_DYNAMIC, 0, 1000);

	(void)state;
	/* rx 1 x 64 B: lowest; tx jumbo 18000 / 2 = 9000 > 8000: bulk.
	 * max = bulk -> 4000 at once */
	expect(itr_on_irq_done(&t, 1, 64, 2, 18000), ITR_CLASSIFIED, true, 4000, 976);
	assert_int_equal(t.rx_class, ITR_LOWEST_LATENCY);
	assert_int_equal(t.tx_class, ITR_BULK_LATENCY);
	/* tx from bulk: 64 < 6000 -> low; rx stays lowest; max = low ->
	 * target 20000: 4000 + 5000 = 9000; 1e9 / 2304000 = 434 */
	expect(itr_on_irq_done(&t, 1, 64, 1, 64), ITR_CLASSIFIED, true, 9000, 434);
	assert_int_equal(t.tx_class, ITR_LOW_LATENCY);
	/* rx jumbo from lowest -> bulk; tx 3 x 100 B from low stays low
	 * (100 not > 2000, 3 not <= 2); max = bulk -> 4000 */
	expect(itr_on_irq_done(&t, 2, 18000, 3, 300), ITR_CLASSIFIED, true, 4000, 976);
	assert_int_equal(t.rx_class, ITR_BULK_LATENCY);
	assert_int_equal(t.tx_class, ITR_LOW_LATENCY);
}

/* The quarter-step ramp: target 20000 rises by 20000/4 = 5000 per
 * interrupt, capped at the target; a fall applies at once. */
static void test_quarter_step_ramp(void **state)
{
	struct itr t = make(ITR_DYNAMIC_CONSERVATIVE, 0, 1000);

	(void)state;
	/* rx jumbo from lowest -> bulk; tx 0 packets keeps lowest, promoted
	 * to low; max = bulk: 20000 -> 4000 at once */
	expect(itr_on_irq_done(&t, 2, 18000, 0, 0), ITR_CLASSIFIED, true, 4000, 976);
	/* rx 3 x 100 B from bulk: 300 < 6000 -> low; target 20000 */
	expect(itr_on_irq_done(&t, 3, 300, 0, 0), ITR_CLASSIFIED, true, 9000, 434);
	/* from low, 3 x 100 B stays low: 9000 + 5000; 1e9 / 3584000 = 279 */
	expect(itr_on_irq_done(&t, 3, 300, 0, 0), ITR_CLASSIFIED, true, 14000, 279);
	/* 14000 + 5000; 1e9 / 4864000 = 205 */
	expect(itr_on_irq_done(&t, 3, 300, 0, 0), ITR_CLASSIFIED, true, 19000, 205);
	/* min(19000 + 5000, 20000) = 20000 */
	expect(itr_on_irq_done(&t, 3, 300, 0, 0), ITR_CLASSIFIED, true, 20000, 195);
	expect(itr_on_irq_done(&t, 3, 300, 0, 0), ITR_CLASSIFIED, false, 20000, 195);
	/* back to bulk (from low: 12110 / 10 = 1211 > 1200): 20000 -> 4000
	 * in one step */
	expect(itr_on_irq_done(&t, 10, 12110, 0, 0), ITR_CLASSIFIED, true, 4000, 976);
	assert_int_equal(t.changes, 6);
	assert_int_equal(t.ramp_steps, 3);  /* 9000, 14000, 19000 */
}

/* Link speed other than 1000: target 4000 regardless of traffic, classes
 * not updated. */
static void test_slow_link(void **state)
{
	struct itr t = make(ITR_DYNAMIC, 0, 100);

	(void)state;
	expect(itr_on_irq_done(&t, 1, 64, 1, 64), ITR_LINK_NOT_1000, true, 4000, 976);
	expect(itr_on_irq_done(&t, 1, 64, 1, 64), ITR_LINK_NOT_1000, false, 4000, 976);
	assert_int_equal(t.rx_class, ITR_LOWEST_LATENCY);
	assert_int_equal(t.tx_class, ITR_LOWEST_LATENCY);
	assert_int_equal(t.updates, 2);
	/* link down (speed 0) is "not 1000" too */
	t.link_mbps = 0;
	expect(itr_on_irq_done(&t, 1, 64, 1, 64), ITR_LINK_NOT_1000, false, 4000, 976);
	/* back at 1000: pings are lowest, target 70000: 4000 + 17500 = 21500;
	 * 1e9 / 5504000 = 181 */
	t.link_mbps = 1000;
	expect(itr_on_irq_done(&t, 1, 64, 1, 64), ITR_CLASSIFIED, true, 21500, 181);
}

/* Modes without e1000_set_itr(), and MACs without an ITR register. */
static void test_not_dynamic(void **state)
{
	struct itr t;

	(void)state;
	t = make(ITR_OFF, 0, 1000);
	expect(itr_on_irq_done(&t, 1, 64, 1, 64), ITR_NOT_DYNAMIC, false, 0, 0);
	t = make(ITR_FIXED, 8000, 1000);
	expect(itr_on_irq_done(&t, 2, 18000, 0, 0), ITR_NOT_DYNAMIC, false, 8000, 488);
	t = make(ITR_SIMPLIFIED, 0, 1000);
	expect(itr_on_irq_done(&t, 1, 64, 1, 64), ITR_NOT_DYNAMIC, false, 8000, 488);
	assert_int_equal(t.updates, 0);
	assert_int_equal(t.rx_class, ITR_LOWEST_LATENCY);

	t = make(ITR_DYNAMIC, 0, 1000);
	t.mac_is_82540_or_later = false;
	/* 82542/3/4: nothing moves, and there is no register (0) */
	expect(itr_on_irq_done(&t, 2, 18000, 2, 18000), ITR_OLD_MAC, false, 20000, 0);
	assert_int_equal(t.rx_class, ITR_LOWEST_LATENCY);
	assert_int_equal(t.updates, 0);
}

/* ---- simplified mode ------------------------------------------------- */

static void test_simplified_formula(void **state)
{
	(void)state;
	/* symmetric: goc = 2000000 / 10000 = 200, dif = 0 -> 0 + 2000 */
	assert_int_equal(itr_simplified(1000000, 1000000), 2000);
	/* one way: goc = 100, dif = 100 -> 100 * 6000 / 100 + 2000 = 8000 */
	assert_int_equal(itr_simplified(1000000, 0), 8000);
	assert_int_equal(itr_simplified(0, 1000000), 8000);
	/* zero traffic: goc = 0 -> 8000 */
	assert_int_equal(itr_simplified(0, 0), 8000);
	/* under 10000 bytes in total: goc = 9999 / 10000 = 0 -> 8000 */
	assert_int_equal(itr_simplified(5000, 4999), 8000);
	/* 3:1: goc = 40, dif = 20 -> 20 * 6000 / 40 + 2000 = 5000 */
	assert_int_equal(itr_simplified(300000, 100000), 5000);
	/* truncation: goc = 7, dif = 3 -> 18000 / 7 = 2571 + 2000 = 4571 */
	assert_int_equal(itr_simplified(50000, 20000), 4571);
}

static void test_simplified_watchdog(void **state)
{
	struct itr t = make(ITR_SIMPLIFIED, 0, 1000);

	(void)state;
	/* symmetric: 8000 -> 2000; 1e9 / 512000 = 1953 */
	expect(itr_on_watchdog(&t, 1000000, 1000000), ITR_CLASSIFIED, true, 2000, 1953);
	expect(itr_on_watchdog(&t, 1000000, 1000000), ITR_CLASSIFIED, false, 2000, 1953);
	/* one way: back to 8000 at once (no smoothing in the watchdog) */
	expect(itr_on_watchdog(&t, 0, 1000000), ITR_CLASSIFIED, true, 8000, 488);
	assert_int_equal(t.updates, 3);
	assert_int_equal(t.changes, 2);
	/* other modes ignore the watchdog */
	t = make(ITR_DYNAMIC, 0, 1000);
	expect(itr_on_watchdog(&t, 1000000, 1000000), ITR_NOT_DYNAMIC, false, 20000, 195);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_class_from_lowest),
		cmocka_unit_test(test_class_from_low_big),
		cmocka_unit_test(test_class_from_low_small),
		cmocka_unit_test(test_class_from_bulk),
		cmocka_unit_test(test_register_values),
		cmocka_unit_test(test_param_mapping),
		cmocka_unit_test(test_ethtool_mapping),
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_dynamic_ramp_to_lowest),
		cmocka_unit_test(test_conservative_promotion),
		cmocka_unit_test(test_max_of_directions),
		cmocka_unit_test(test_quarter_step_ramp),
		cmocka_unit_test(test_slow_link),
		cmocka_unit_test(test_not_dynamic),
		cmocka_unit_test(test_simplified_formula),
		cmocka_unit_test(test_simplified_watchdog),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
