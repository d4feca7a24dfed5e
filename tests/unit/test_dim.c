/* test_dim.c - exact decision sequences of Linux DIM (net_dim).
 *
 * Most tests feed windows of exactly DIM_NEVENTS (64) events lasting exactly
 * 1 ms, so the stats of a window are simply
 *   bpms = bytes in the window, ppms = packets, epms = ceil(64000/1000) = 64,
 * and the 10% rule is 100*|curr-prev|/prev > 10 in integer math.  The
 * comments next to each window give the comparison and the transition
 * (lib/dim/net_dim.c net_dim_decision()).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rxlab/dim.h"

#define US(x) ((int64_t)(x) * 1000)

/* A DIM plus the cumulative counters fed to it. */
struct feed {
	struct dim d;
	struct dim_sample s;
};

/* dim_init(@ix) and the first sample, which only starts a window. */
static void feed_start(struct feed *f, uint8_t ix)
{
	struct dim_result r;

	dim_init(&f->d, ix);
	memset(&f->s, 0, sizeof(f->s));
	f->s.t_ns = US(5000);
	r = net_dim(&f->d, &f->s);
	assert_false(r.decided);
	assert_int_equal(f->d.state, DIM_MEASURE_IN_PROGRESS);
}

/* One 64-event, 1 ms window with @bytes and @pkts.  A change is applied at
 * once: dim_applied() and the same sample restarts the window, as a driver
 * whose work function runs before the next interrupt. */
static struct dim_result feed_window(struct feed *f, uint32_t bytes, uint32_t pkts)
{
	struct dim_result r;

	f->s.t_ns += US(1000);
	f->s.event_ctr += DIM_NEVENTS;
	f->s.byte_ctr += bytes;
	f->s.pkt_ctr += pkts;
	r = net_dim(&f->d, &f->s);
	assert_true(r.decided);
	assert_int_equal(r.profile_ix, f->d.profile_ix);
	if (r.changed) {
		struct dim_result r2;

		assert_int_equal(f->d.state, DIM_APPLY_NEW_PROFILE);
		dim_applied(&f->d);
		r2 = net_dim(&f->d, &f->s);
		assert_false(r2.decided);
	}
	assert_int_equal(f->d.state, DIM_MEASURE_IN_PROGRESS);
	return r;
}

/* A window of @bytes (10 packets) and what it must decide. */
static void expect_window(struct feed *f, uint32_t bytes, enum dim_cmp cmp, bool changed,
			  uint8_t ix, enum dim_tune_state tune)
{
	struct dim_result r = feed_window(f, bytes, 10);

	assert_true(r.compared);
	assert_int_equal(r.cmp, cmp);
	assert_int_equal(r.changed, changed);
	assert_int_equal(r.profile_ix, ix);
	assert_int_equal(f->d.tune_state, tune);
}

static struct dim_stats stats(uint32_t bpms, uint32_t ppms, uint32_t epms)
{
	struct dim_stats s = { .ppms = ppms, .bpms = bpms, .epms = epms };

	return s;
}

static enum dim_cmp cmp3(uint32_t cb, uint32_t cp, uint32_t ce, uint32_t pb, uint32_t pp, uint32_t pe)
{
	struct dim_stats c = stats(cb, cp, ce);
	struct dim_stats p = stats(pb, pp, pe);

	return dim_stats_compare(&c, &p);
}

static void test_init(void **state)
{
	struct dim d;

	(void)state;
	memset(&d, 0xa5, sizeof(d));
	dim_init(&d, 2);
	assert_int_equal(d.state, DIM_START_MEASURE);
	assert_int_equal(d.tune_state, DIM_PARKING_ON_TOP);
	assert_int_equal(d.profile_ix, 2);
	assert_int_equal(d.steps_right, 0);
	assert_int_equal(d.steps_left, 0);
	assert_int_equal(d.tired, 0);
	assert_int_equal(d.prev_stats.bpms, 0);
	assert_int_equal(d.prev_stats.ppms, 0);
	assert_int_equal(d.prev_stats.epms, 0);
	assert_int_equal(d.decisions, 0);
	assert_int_equal(d.profile_changes, 0);
	/* Out of range is clamped to the last profile. */
	dim_init(&d, 9);
	assert_int_equal(d.profile_ix, DIM_NUM_PROFILES - 1);
}

static void test_calc_stats_ceil_and_wrap(void **state)
{
	/* pkts: 0xFFFFFFF6 -> 6 is 10 + 6 = 16 packets (mod 2^32).
	 * bytes: 0xFFFFFF9C -> 201 is 100 + 201 = 301 bytes.
	 * events: 65530 -> 4 is 10 events (mod 2^16); epms ignores it.
	 * time: 3999 ns -> ktime_us_delta truncates to 3 us.
	 *   ppms = ceil(16*1000/3)  = ceil(5333.3)  = 5334
	 *   bpms = ceil(301*1000/3) = ceil(100333.3) = 100334
	 *   epms = ceil(64*1000/3)  = ceil(21333.3) = 21334 */
	struct dim_sample a = { .t_ns = 1000, .pkt_ctr = 0xFFFFFFF6u, .byte_ctr = 0xFFFFFF9Cu,
				.event_ctr = 65530 };
	struct dim_sample b = { .t_ns = 1000 + 3999, .pkt_ctr = 6, .byte_ctr = 201, .event_ctr = 4 };
	struct dim_stats st = { 0, 0, 0 };

	(void)state;
	assert_true(dim_calc_stats(&a, &b, &st));
	assert_int_equal(st.ppms, 5334);
	assert_int_equal(st.bpms, 100334);
	assert_int_equal(st.epms, 21334);

	/* Exact division is not rounded up: 1 ms, 500 pkts, 64 events:
	 * ppms = 500*1000/1000 = 500, bpms = 0, epms = 64000/1000 = 64. */
	a = (struct dim_sample){ .t_ns = 0 };
	b = (struct dim_sample){ .t_ns = US(1000), .pkt_ctr = 500, .event_ctr = 64 };
	assert_true(dim_calc_stats(&a, &b, &st));
	assert_int_equal(st.ppms, 500);
	assert_int_equal(st.bpms, 0);
	assert_int_equal(st.epms, 64);

	/* Large counts do not overflow before dividing: 4e9 bytes in
	 * 1e6 us: 4e9*1000/1e6 = 4e6 bpms. */
	b = (struct dim_sample){ .t_ns = US(1000000), .byte_ctr = 4000000000u };
	assert_true(dim_calc_stats(&a, &b, &st));
	assert_int_equal(st.bpms, 4000000);
}

static void test_calc_stats_zero_time(void **state)
{
	struct dim_sample a = { .t_ns = US(7), .pkt_ctr = 1, .byte_ctr = 1, .event_ctr = 1 };
	struct dim_sample b = { .t_ns = US(7), .pkt_ctr = 99, .byte_ctr = 99, .event_ctr = 99 };
	struct dim_stats st = { 11, 22, 33 };

	(void)state;
	/* delta 0, and 999 ns (0 whole us): no stats, @out untouched. */
	assert_false(dim_calc_stats(&a, &b, &st));
	b.t_ns = US(7) + 999;
	assert_false(dim_calc_stats(&a, &b, &st));
	/* Time going backwards is refused, not wrapped. */
	b.t_ns = US(6);
	assert_false(dim_calc_stats(&a, &b, &st));
	assert_int_equal(st.ppms, 11);
	assert_int_equal(st.bpms, 22);
	assert_int_equal(st.epms, 33);
	/* 1000 ns is 1 us: epms = 64000. */
	b.t_ns = US(8);
	assert_true(dim_calc_stats(&a, &b, &st));
	assert_int_equal(st.epms, 64000);
}

static void test_compare_ten_percent(void **state)
{
	(void)state;
	/* bytes, prev 1000: 1100 -> 100*100/1000 = 10, not > 10: SAME;
	 * 1109 -> 10900/1000 = 10 (integer): SAME; 1110 -> 11: BETTER;
	 * 900 -> 10: SAME; 890 -> 11: WORSE. */
	assert_int_equal(cmp3(1100, 50, 64, 1000, 50, 64), DIM_SAME);
	assert_int_equal(cmp3(1109, 50, 64, 1000, 50, 64), DIM_SAME);
	assert_int_equal(cmp3(1110, 50, 64, 1000, 50, 64), DIM_BETTER);
	assert_int_equal(cmp3(900, 50, 64, 1000, 50, 64), DIM_SAME);
	assert_int_equal(cmp3(890, 50, 64, 1000, 50, 64), DIM_WORSE);
	/* packets, prev 100 (bytes equal): 110 SAME, 111 BETTER, 90 SAME,
	 * 89 WORSE. */
	assert_int_equal(cmp3(1000, 110, 64, 1000, 100, 64), DIM_SAME);
	assert_int_equal(cmp3(1000, 111, 64, 1000, 100, 64), DIM_BETTER);
	assert_int_equal(cmp3(1000, 90, 64, 1000, 100, 64), DIM_SAME);
	assert_int_equal(cmp3(1000, 89, 64, 1000, 100, 64), DIM_WORSE);
	/* events, prev 100: fewer is BETTER. 89 -> 11%: BETTER; 90 SAME;
	 * 110 SAME; 111 -> 11%: WORSE. */
	assert_int_equal(cmp3(1000, 100, 89, 1000, 100, 100), DIM_BETTER);
	assert_int_equal(cmp3(1000, 100, 90, 1000, 100, 100), DIM_SAME);
	assert_int_equal(cmp3(1000, 100, 110, 1000, 100, 100), DIM_SAME);
	assert_int_equal(cmp3(1000, 100, 111, 1000, 100, 100), DIM_WORSE);
}

static void test_compare_priority(void **state)
{
	(void)state;
	/* Bytes decide first: +20% bytes beats -50% packets, +100% events. */
	assert_int_equal(cmp3(1200, 50, 200, 1000, 100, 100), DIM_BETTER);
	/* -20% bytes beats +100% packets and -50% events. */
	assert_int_equal(cmp3(800, 200, 50, 1000, 100, 100), DIM_WORSE);
	/* Bytes +5% (SAME): packets decide, -20% beats events -50%. */
	assert_int_equal(cmp3(1050, 80, 50, 1000, 100, 100), DIM_WORSE);
	/* Bytes +5%, packets +20%: BETTER despite events +100%. */
	assert_int_equal(cmp3(1050, 120, 200, 1000, 100, 100), DIM_BETTER);
	/* Bytes and packets within 10%: events decide, -50% is BETTER. */
	assert_int_equal(cmp3(1050, 95, 50, 1000, 100, 100), DIM_BETTER);
}

static void test_compare_zero_prev(void **state)
{
	(void)state;
	/* prev.bpms == 0: BETTER iff curr.bpms > 0; packets and events are
	 * not looked at. */
	assert_int_equal(cmp3(1, 0, 999, 0, 100, 64), DIM_BETTER);
	assert_int_equal(cmp3(0, 500, 1, 0, 100, 64), DIM_SAME);
	/* prev.ppms == 0 (bytes SAME): BETTER iff curr.ppms > 0. */
	assert_int_equal(cmp3(1000, 1, 999, 1000, 0, 64), DIM_BETTER);
	assert_int_equal(cmp3(1000, 0, 1, 1000, 0, 64), DIM_SAME);
	/* prev.epms == 0: SAME whatever curr.epms is. */
	assert_int_equal(cmp3(1000, 100, 1, 1000, 100, 0), DIM_SAME);
	assert_int_equal(cmp3(1000, 100, 999, 1000, 100, 0), DIM_SAME);
}

static void test_event_window_wraps(void **state)
{
	struct dim d;
	struct dim_sample s = { .t_ns = US(100), .byte_ctr = 7, .event_ctr = 65530 };
	struct dim_result r;

	(void)state;
	dim_init(&d, 1);
	r = net_dim(&d, &s);
	assert_false(r.decided);
	assert_int_equal(d.state, DIM_MEASURE_IN_PROGRESS);
	/* 65530 -> 4 is 10 events (mod 2^16): < 64, no decision. */
	s.t_ns += US(100);
	s.event_ctr = 4;
	s.byte_ctr += 300;
	r = net_dim(&d, &s);
	assert_false(r.decided);
	/* 65530 -> 57 is 63 events: still none. */
	s.t_ns += US(100);
	s.event_ctr = 57;
	s.byte_ctr += 300;
	r = net_dim(&d, &s);
	assert_false(r.decided);
	assert_int_equal(d.decisions, 0);
	/* 65530 -> 58 is 64 events: decide over the whole window from the
	 * first sample: 1000 bytes in 300 us, bpms = ceil(1000000/300) =
	 * 3334; epms = ceil(64000/300) = 214.  prev.bpms 0 -> BETTER; parked
	 * at ix 1 > 0 -> GOING_LEFT, ix 0. */
	s.t_ns += US(100);
	s.event_ctr = 58;
	s.byte_ctr += 400;
	r = net_dim(&d, &s);
	assert_true(r.decided);
	assert_int_equal(r.cmp, DIM_BETTER);
	assert_true(r.changed);
	assert_int_equal(r.profile_ix, 0);
	assert_int_equal(d.prev_stats.bpms, 3334);
	assert_int_equal(d.prev_stats.ppms, 0);
	assert_int_equal(d.prev_stats.epms, 214);
	assert_int_equal(d.tune_state, DIM_GOING_LEFT);
	assert_int_equal(d.state, DIM_APPLY_NEW_PROFILE);
}

static void test_zero_time_no_decision(void **state)
{
	struct dim d;
	struct dim_sample s = { .t_ns = US(100) };
	struct dim_result r;

	(void)state;
	dim_init(&d, 0);
	net_dim(&d, &s);
	/* 64 events, 0 us: no stats, no decision, window kept. */
	s.event_ctr = 64;
	s.byte_ctr = 500;
	r = net_dim(&d, &s);
	assert_false(r.decided);
	assert_false(r.changed);
	assert_int_equal(d.state, DIM_MEASURE_IN_PROGRESS);
	assert_int_equal(d.start_sample.event_ctr, 0);
	assert_int_equal(d.decisions, 0);
	/* 500 us later, 70 events and 1000 bytes since the kept start:
	 * bpms = 1000*1000/500 = 2000, epms = 64000/500 = 128. */
	s.t_ns += US(500);
	s.event_ctr = 70;
	s.byte_ctr = 1000;
	r = net_dim(&d, &s);
	assert_true(r.decided);
	assert_int_equal(d.prev_stats.bpms, 2000);
	assert_int_equal(d.prev_stats.epms, 128);
	/* prev.bpms 0 -> BETTER; ix 0 -> GOING_RIGHT, ix 1. */
	assert_int_equal(r.cmp, DIM_BETTER);
	assert_int_equal(r.profile_ix, 1);
	assert_int_equal(d.decisions, 1);
}

static void test_first_decision_exits_parking(void **state)
{
	struct feed f;

	(void)state;
	/* Zero traffic: 0 vs prev 0 is SAME, stays parked at ix 2. */
	feed_start(&f, 2);
	expect_window(&f, 0, DIM_SAME, false, 2, DIM_PARKING_ON_TOP);
	/* 500 bytes: prev.bpms 0 -> BETTER; ix 2 > 0 -> GOING_LEFT, ix 1. */
	expect_window(&f, 500, DIM_BETTER, true, 1, DIM_GOING_LEFT);
	assert_int_equal(f.d.steps_left, 1);
	assert_int_equal(f.d.tired, 1);
	assert_int_equal(f.d.decisions, 2);
	assert_int_equal(f.d.profile_changes, 1);
}

static void test_walk_right_turn_park(void **state)
{
	struct feed f;

	(void)state;
	feed_start(&f, 0);
	/* W1 1000: prev 0 -> BETTER; ix 0 -> GOING_RIGHT, step: ix 1,
	 * steps_right 1, tired 1. */
	expect_window(&f, 1000, DIM_BETTER, true, 1, DIM_GOING_RIGHT);
	/* W2 1200: 200*100/1000 = 20 > 10 up: BETTER; ix 2, right 2. */
	expect_window(&f, 1200, DIM_BETTER, true, 2, DIM_GOING_RIGHT);
	/* W3 1500: 300*100/1200 = 25 up: BETTER; ix 3, right 3, tired 3. */
	expect_window(&f, 1500, DIM_BETTER, true, 3, DIM_GOING_RIGHT);
	assert_int_equal(f.d.steps_right, 3);
	assert_int_equal(f.d.tired, 3);
	/* W4 1000: 500*100/1500 = 33 down: WORSE -> turn to GOING_LEFT,
	 * steps_left 0; on_top needs steps_left == 1: no; step ix 2,
	 * steps_left 1, tired 4. */
	expect_window(&f, 1000, DIM_WORSE, true, 2, DIM_GOING_LEFT);
	assert_int_equal(f.d.steps_right, 3);
	assert_int_equal(f.d.steps_left, 1);
	assert_int_equal(f.d.tired, 4);
	/* W5 1200: 20 up: BETTER, no turn; on_top (LEFT): right 3 > 1 and
	 * left == 1 -> park on top at ix 2, steps and tired cleared. */
	expect_window(&f, 1200, DIM_BETTER, false, 2, DIM_PARKING_ON_TOP);
	assert_int_equal(f.d.steps_right, 0);
	assert_int_equal(f.d.steps_left, 0);
	assert_int_equal(f.d.tired, 0);
	/* The parking window itself was a walking one: prev = W5. */
	assert_int_equal(f.d.prev_stats.bpms, 1200);
	assert_int_equal(f.d.decisions, 5);
	assert_int_equal(f.d.profile_changes, 4);
	/* W6 600: 600*100/1200 = 50 down: WORSE also leaves parking: ix 2 > 0
	 * -> GOING_LEFT, ix 1. */
	expect_window(&f, 600, DIM_WORSE, true, 1, DIM_GOING_LEFT);
}

static void test_on_top_needs_run_of_two(void **state)
{
	struct feed f;

	(void)state;
	/* Going right after a 1-step run left does not park. */
	feed_start(&f, 2);
	/* W1 1000 vs 0: BETTER; ix 2 -> GOING_LEFT, ix 1, left 1. */
	expect_window(&f, 1000, DIM_BETTER, true, 1, DIM_GOING_LEFT);
	/* W2 500: 50% down: WORSE -> turn RIGHT (right 0); on_top needs
	 * right == 1: no; step ix 2, right 1. */
	expect_window(&f, 500, DIM_WORSE, true, 2, DIM_GOING_RIGHT);
	/* W3 600: 100*100/500 = 20 up: BETTER; on_top (RIGHT) needs
	 * left > 1 but left is 1: no; step ix 3, right 2. */
	expect_window(&f, 600, DIM_BETTER, true, 3, DIM_GOING_RIGHT);
	assert_int_equal(f.d.steps_right, 2);

	/* Mirror: going left after a 1-step run right does not park. */
	feed_start(&f, 4);
	/* W1..W3 1000, 1200, 1440 (BETTER each, 20% up): ix 3, 2, 1, left 3. */
	expect_window(&f, 1000, DIM_BETTER, true, 3, DIM_GOING_LEFT);
	expect_window(&f, 1200, DIM_BETTER, true, 2, DIM_GOING_LEFT);
	expect_window(&f, 1440, DIM_BETTER, true, 1, DIM_GOING_LEFT);
	/* W4 1000: 440*100/1440 = 30 down: WORSE -> turn RIGHT; on_top
	 * needs right == 1 (it is 0): no; step ix 2, right 1. */
	expect_window(&f, 1000, DIM_WORSE, true, 2, DIM_GOING_RIGHT);
	/* W5 500: 50% down: WORSE -> turn LEFT (left 0); on_top (LEFT) needs
	 * left == 1: no; step ix 1, left 1. */
	expect_window(&f, 500, DIM_WORSE, true, 1, DIM_GOING_LEFT);
	/* W6 600: 20 up: BETTER; on_top (LEFT) needs right > 1 but right
	 * is 1: no; step ix 0, left 2. */
	expect_window(&f, 600, DIM_BETTER, true, 0, DIM_GOING_LEFT);
	assert_int_equal(f.d.steps_left, 2);
}

static void test_on_edge_parks_then_compares_parked_stats(void **state)
{
	struct feed f;

	(void)state;
	feed_start(&f, 0);
	/* Rising by 20% per window: ix 1, 2, 3, 4 (1000 vs 0; 1200: 20;
	 * 1440: 240*100/1200 = 20; 1728: 288*100/1440 = 20). */
	expect_window(&f, 1000, DIM_BETTER, true, 1, DIM_GOING_RIGHT);
	expect_window(&f, 1200, DIM_BETTER, true, 2, DIM_GOING_RIGHT);
	expect_window(&f, 1440, DIM_BETTER, true, 3, DIM_GOING_RIGHT);
	expect_window(&f, 1728, DIM_BETTER, true, 4, DIM_GOING_RIGHT);
	/* W5 2000: 272*100/1728 = 15 up: BETTER; on_top: left 0, no;
	 * step at ix 4 -> ON_EDGE -> park on top, prev = 2000. */
	expect_window(&f, 2000, DIM_BETTER, false, 4, DIM_PARKING_ON_TOP);
	assert_int_equal(f.d.tired, 0);
	assert_int_equal(f.d.prev_stats.bpms, 2000);
	/* W6 2150: 150*100/2000 = 7: SAME, stays; prev NOT updated. */
	expect_window(&f, 2150, DIM_SAME, false, 4, DIM_PARKING_ON_TOP);
	assert_int_equal(f.d.prev_stats.bpms, 2000);
	/* W7 2300: against the parked 2000: 300*100/2000 = 15: BETTER
	 * (against W6's 2150 it would be 150*100/2150 = 6: SAME).  Exit
	 * parking: ix 4 > 0 -> GOING_LEFT, ix 3; prev = 2300. */
	expect_window(&f, 2300, DIM_BETTER, true, 3, DIM_GOING_LEFT);
	assert_int_equal(f.d.prev_stats.bpms, 2300);
	assert_int_equal(f.d.steps_left, 1);
	assert_int_equal(f.d.tired, 1);
}

static void test_tired_parks_and_waits(void **state)
{
	struct feed f;
	struct dim_result r;
	int w;

	(void)state;
	feed_start(&f, 0);
	/* W1 1000 vs 0: BETTER, GOING_RIGHT ix 1, tired 1. */
	expect_window(&f, 1000, DIM_BETTER, true, 1, DIM_GOING_RIGHT);
	/* W2..W10 1000: SAME -> turn each time; the runs are 1 step long so
	 * on_top never holds; step: ix 0, 1, 0, ... tired 2..10.
	 * Even windows end GOING_LEFT at ix 0, odd GOING_RIGHT at ix 1. */
	for (w = 2; w <= 10; w++) {
		bool even = w % 2 == 0;

		expect_window(&f, 1000, DIM_SAME, true, even ? 0 : 1,
			      even ? DIM_GOING_LEFT : DIM_GOING_RIGHT);
		assert_int_equal(f.d.tired, w);
	}
	/* W11: SAME -> turn to GOING_RIGHT; step: tired == 10 ->
	 * TOO_TIRED -> park tired at ix 0, tired kept at 10. */
	expect_window(&f, 1000, DIM_SAME, false, 0, DIM_PARKING_TIRED);
	assert_int_equal(f.d.tired, DIM_TIRED_MAX);
	assert_int_equal(f.d.steps_right, 0);
	assert_int_equal(f.d.steps_left, 0);
	/* W12..W20: tired 9..1, no comparison: even a 10x jump in bytes
	 * does not move the index. */
	for (w = 12; w <= 20; w++) {
		r = feed_window(&f, 10000, 10);
		assert_false(r.compared);
		assert_int_equal(r.cmp, DIM_SAME);
		assert_false(r.changed);
		assert_int_equal(f.d.tune_state, DIM_PARKING_TIRED);
		assert_int_equal(f.d.tired, 21 - w);
	}
	/* W21, the 10th parked window: tired 0 -> exit parking: ix 0 ->
	 * GOING_RIGHT, step ix 1, tired 1. */
	r = feed_window(&f, 10000, 10);
	assert_false(r.compared);
	assert_true(r.changed);
	assert_int_equal(r.profile_ix, 1);
	assert_int_equal(f.d.tune_state, DIM_GOING_RIGHT);
	assert_int_equal(f.d.tired, 1);
	/* prev was updated while parked tired: W22 10000 is SAME. */
	expect_window(&f, 10000, DIM_SAME, true, 0, DIM_GOING_LEFT);
	assert_int_equal(f.d.decisions, 22);
}

static void test_apply_ignores_samples(void **state)
{
	struct dim d;
	struct dim_sample s = { .t_ns = US(1000) };
	struct dim_result r;
	int i;

	(void)state;
	dim_init(&d, 0);
	net_dim(&d, &s);
	/* 1 ms, 64 events, 800 bytes: BETTER, ix 0 -> 1, APPLY. */
	s.t_ns += US(1000);
	s.event_ctr += 64;
	s.byte_ctr += 800;
	r = net_dim(&d, &s);
	assert_true(r.changed);
	assert_int_equal(d.state, DIM_APPLY_NEW_PROFILE);
	/* Samples with whole windows of events are ignored until applied. */
	for (i = 0; i < 3; i++) {
		s.t_ns += US(1000);
		s.event_ctr += 200;
		s.byte_ctr += 99999;
		r = net_dim(&d, &s);
		assert_false(r.decided);
		assert_false(r.changed);
		assert_int_equal(r.profile_ix, 1);
		assert_int_equal(d.state, DIM_APPLY_NEW_PROFILE);
	}
	assert_int_equal(d.decisions, 1);
	dim_applied(&d);
	assert_int_equal(d.state, DIM_START_MEASURE);
	/* The next sample starts the window (no decision). */
	s.t_ns += US(1000);
	s.event_ctr += 5;
	s.byte_ctr += 5;
	r = net_dim(&d, &s);
	assert_false(r.decided);
	assert_int_equal(d.state, DIM_MEASURE_IN_PROGRESS);
	assert_int_equal(d.start_sample.t_ns, s.t_ns);
	/* 2 ms and 64 events later with 1760 bytes: bpms = 880 (not counting
	 * the ignored traffic); 80*100/800 = 10: SAME vs 800 -> turn. */
	s.t_ns += US(2000);
	s.event_ctr += 64;
	s.byte_ctr += 1760;
	r = net_dim(&d, &s);
	assert_true(r.decided);
	assert_int_equal(d.prev_stats.bpms, 880);
	assert_int_equal(d.prev_stats.epms, 32);
	assert_int_equal(r.cmp, DIM_SAME);
	assert_int_equal(r.profile_ix, 0);
}

static void test_profiles(void **state)
{
	static const uint32_t want[4][DIM_NUM_PROFILES][2] = {
		[DIM_RX_EQE] = { { 1, 256 }, { 8, 256 }, { 64, 256 }, { 128, 256 }, { 256, 256 } },
		[DIM_RX_CQE] = { { 2, 256 }, { 8, 128 }, { 16, 64 }, { 32, 64 }, { 64, 64 } },
		[DIM_TX_EQE] = { { 1, 128 }, { 8, 128 }, { 32, 128 }, { 64, 128 }, { 128, 128 } },
		[DIM_TX_CQE] = { { 5, 128 }, { 8, 64 }, { 16, 32 }, { 32, 32 }, { 64, 32 } },
	};
	int t, ix;

	(void)state;
	for (t = DIM_RX_EQE; t <= DIM_TX_CQE; t++) {
		for (ix = 0; ix < DIM_NUM_PROFILES; ix++) {
			const struct dim_profile *p = dim_profile((enum dim_table)t, (uint8_t)ix);

			assert_non_null(p);
			assert_int_equal(p->usec, want[t][ix][0]);
			assert_int_equal(p->pkts, want[t][ix][1]);
		}
	}
	assert_null(dim_profile(DIM_RX_EQE, DIM_NUM_PROFILES));
	assert_null(dim_profile((enum dim_table)4, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_calc_stats_ceil_and_wrap),
		cmocka_unit_test(test_calc_stats_zero_time),
		cmocka_unit_test(test_compare_ten_percent),
		cmocka_unit_test(test_compare_priority),
		cmocka_unit_test(test_compare_zero_prev),
		cmocka_unit_test(test_event_window_wraps),
		cmocka_unit_test(test_zero_time_no_decision),
		cmocka_unit_test(test_first_decision_exits_parking),
		cmocka_unit_test(test_walk_right_turn_park),
		cmocka_unit_test(test_on_top_needs_run_of_two),
		cmocka_unit_test(test_on_edge_parks_then_compares_parked_stats),
		cmocka_unit_test(test_tired_parks_and_waits),
		cmocka_unit_test(test_apply_ignores_samples),
		cmocka_unit_test(test_profiles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
