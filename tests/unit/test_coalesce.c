/* test_coalesce.c - exact firing decisions of the coalescing engine.
 *
 * Each test feeds a hand-made arrival sequence and checks coal_fire_time()
 * against a hand computation written next to it.  Times in the comments are
 * in microseconds; US() converts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rxlab/coalesce.h"

#define US(x) ((int64_t)(x) * 1000)

static struct coal_params params(int64_t usecs, uint32_t frames, enum coal_timer_mode mode)
{
	struct coal_params p = { .usecs_ns = US(usecs), .frames = frames, .mode = mode };

	return p;
}

/* coal_fire_time() at @now_us, checking time and cause. */
static void expect_fire(const struct coal *c, int64_t now_us, int64_t want_us,
			enum coal_cause want_cause)
{
	enum coal_cause cause = COAL_CAUSE_NONE;

	assert_int_equal(coal_fire_time(c, US(now_us), &cause), US(want_us));
	assert_int_equal(cause, want_cause);
}

static void expect_never(const struct coal *c, int64_t now_us)
{
	enum coal_cause cause = COAL_CAUSE_FRAMES;

	assert_int_equal(coal_fire_time(c, US(now_us), &cause), COAL_NEVER);
	assert_int_equal(cause, COAL_CAUSE_NONE);
}

static void test_params_check(void **state)
{
	struct coal_params p = params(0, 0, COAL_TIMER_ABSOLUTE);
	const char *why = NULL;

	(void)state;
	/* ethtool.h: usecs 0 and frames 0 is illegal; the message says how
	 * to disable coalescing instead. */
	assert_int_equal(coal_params_check(&p, &why), -1);
	assert_non_null(why);
	assert_non_null(strstr(why, "rx-usecs and rx-frames are both 0"));
	assert_non_null(strstr(why, "rx-frames 1"));
	/* usecs 0 frames 1 is the legal "off" setting. */
	p.frames = 1;
	assert_int_equal(coal_params_check(&p, &why), 0);
	assert_null(why);
	p = params(-1, 0, COAL_TIMER_ABSOLUTE);
	assert_int_equal(coal_params_check(&p, &why), -1);
	assert_non_null(strstr(why, "rx-usecs"));
	p = params(10, 0, COAL_TIMER_RESTART);
	p.min_gap_ns = -5;
	assert_int_equal(coal_params_check(&p, &why), -1);
	assert_non_null(strstr(why, "gap"));
	p = params(10, 0, COAL_TIMER_RESTART);
	p.abs_ns = -5;
	assert_int_equal(coal_params_check(&p, &why), -1);
	p = params(10, 0, COAL_TIMER_RESTART);
	p.usecs_irq_ns = -5;
	assert_int_equal(coal_params_check(&p, &why), -1);
	assert_non_null(strstr(why, "rx-usecs-irq"));
	p = params(10, 0, (enum coal_timer_mode)7);
	assert_int_equal(coal_params_check(&p, &why), -1);
	/* why may be NULL. */
	p = params(0, 0, COAL_TIMER_ABSOLUTE);
	assert_int_equal(coal_params_check(&p, NULL), -1);
}

static void test_nothing_pending(void **state)
{
	struct coal_params p = params(100, 0, COAL_TIMER_ABSOLUTE);
	struct coal c;

	(void)state;
	coal_init(&c, &p);
	assert_int_equal(c.t_last_irq, INT64_MIN);
	assert_false(c.servicing);
	expect_never(&c, 0);
	/* cause may be NULL. */
	assert_int_equal(coal_fire_time(&c, US(5), NULL), COAL_NEVER);
	coal_complete(&c, US(5));
	assert_int_equal(coal_fire_time(&c, US(5), NULL), US(105));
}

static void test_absolute_timer(void **state)
{
	struct coal_params p = params(100, 0, COAL_TIMER_ABSOLUTE);
	struct coal c;

	(void)state;
	coal_init(&c, &p);
	/* Arrivals 0, 30, 60: the timer starts at the first and is not
	 * restarted, so it fires at 0 + 100 = 100. */
	coal_complete(&c, US(0));
	expect_fire(&c, 0, 100, COAL_CAUSE_TIMER);
	coal_complete(&c, US(30));
	coal_complete(&c, US(60));
	expect_fire(&c, 60, 100, COAL_CAUSE_TIMER);
	coal_fire(&c, US(100), COAL_CAUSE_TIMER);
	expect_never(&c, 100);
	/* Next burst starts at 150: fires at 150 + 100 = 250. */
	coal_complete(&c, US(150));
	coal_complete(&c, US(240));
	expect_fire(&c, 240, 250, COAL_CAUSE_TIMER);
	/* Already expired (caller was masked): now is the answer. */
	expect_fire(&c, 400, 400, COAL_CAUSE_TIMER);
}

static void test_restart_timer(void **state)
{
	struct coal_params p = params(100, 0, COAL_TIMER_RESTART);
	struct coal c;

	(void)state;
	coal_init(&c, &p);
	/* Arrivals 0, 30, 60: each restarts the timer, 60 + 100 = 160. */
	coal_complete(&c, US(0));
	expect_fire(&c, 0, 100, COAL_CAUSE_TIMER);
	coal_complete(&c, US(30));
	expect_fire(&c, 30, 130, COAL_CAUSE_TIMER);
	coal_complete(&c, US(60));
	expect_fire(&c, 60, 160, COAL_CAUSE_TIMER);
}

static void test_restart_with_abs(void **state)
{
	struct coal_params p = params(100, 0, COAL_TIMER_RESTART);
	struct coal c;

	(void)state;
	p.abs_ns = US(120); /* RDTR 100 + RADV 120 */
	coal_init(&c, &p);
	/* Arrival 0: RDTR 0+100 = 100, RADV 0+120 = 120 -> 100. */
	coal_complete(&c, US(0));
	expect_fire(&c, 0, 100, COAL_CAUSE_TIMER);
	/* Arrival 50: RDTR 150, RADV still 120 -> 120. */
	coal_complete(&c, US(50));
	expect_fire(&c, 50, 120, COAL_CAUSE_TIMER);
	/* Arrival 60: RDTR 160, RADV 120 -> 120. */
	coal_complete(&c, US(60));
	expect_fire(&c, 60, 120, COAL_CAUSE_TIMER);
	coal_fire(&c, US(120), COAL_CAUSE_TIMER);
	/* RADV re-initialized by the interrupt: arrival 130 -> RDTR 230,
	 * RADV 250 -> 230. */
	coal_complete(&c, US(130));
	expect_fire(&c, 130, 230, COAL_CAUSE_TIMER);
}

static void test_frames_threshold(void **state)
{
	struct coal_params p = params(1000, 4, COAL_TIMER_ABSOLUTE);
	struct coal c;

	(void)state;
	coal_init(&c, &p);
	/* Arrivals 0, 10, 20: 3 < 4 frames, timer 0 + 1000 = 1000. */
	coal_complete(&c, US(0));
	coal_complete(&c, US(10));
	coal_complete(&c, US(20));
	expect_fire(&c, 20, 1000, COAL_CAUSE_TIMER);
	/* The 4th at 30 meets the count: fires at 30. */
	coal_complete(&c, US(30));
	expect_fire(&c, 30, 30, COAL_CAUSE_FRAMES);
	/* Asked later (masked): not earlier than now. */
	expect_fire(&c, 35, 35, COAL_CAUSE_FRAMES);
}

static void test_frames_only(void **state)
{
	struct coal_params p = params(0, 3, COAL_TIMER_ABSOLUTE);
	struct coal c;

	(void)state;
	coal_init(&c, &p);
	/* usecs 0: no timer at all, only the count of 3. */
	coal_complete(&c, US(0));
	coal_complete(&c, US(5));
	expect_never(&c, 5);
	coal_complete(&c, US(9));
	expect_fire(&c, 9, 9, COAL_CAUSE_FRAMES);
}

static void test_timer_before_frames(void **state)
{
	struct coal_params p = params(50, 3, COAL_TIMER_ABSOLUTE);
	struct coal c;

	(void)state;
	coal_init(&c, &p);
	/* Arrivals 0, 10, 80 (caller held it masked): the timer expired at
	 * 0 + 50 = 50, before the 3rd frame at 80, so the cause is TIMER. */
	coal_complete(&c, US(0));
	coal_complete(&c, US(10));
	coal_complete(&c, US(80));
	expect_fire(&c, 80, 80, COAL_CAUSE_TIMER);
}

static void test_no_coalescing(void **state)
{
	struct coal_params p = params(0, 1, COAL_TIMER_ABSOLUTE);
	struct coal_params zero = params(0, 0, COAL_TIMER_ABSOLUTE);
	struct coal c;

	(void)state;
	coal_init(&c, &p);
	/* usecs 0 frames 1: every completion fires at once. */
	coal_complete(&c, US(7));
	expect_fire(&c, 7, 7, COAL_CAUSE_FRAMES);
	coal_fire(&c, US(7), COAL_CAUSE_FRAMES);
	coal_complete(&c, US(9));
	expect_fire(&c, 9, 9, COAL_CAUSE_FRAMES);
	/* The illegal 0/0 (if a caller skipped the check) behaves the same. */
	coal_init(&c, &zero);
	coal_complete(&c, US(3));
	expect_fire(&c, 3, 3, COAL_CAUSE_FRAMES);
}

static void test_min_gap_holds(void **state)
{
	struct coal_params p = params(0, 1, COAL_TIMER_ABSOLUTE);
	struct coal c;

	(void)state;
	p.min_gap_ns = US(100); /* ITR: 10000 irq/s */
	coal_init(&c, &p);
	/* First interrupt: no previous one, fires at once. */
	coal_complete(&c, US(0));
	expect_fire(&c, 0, 0, COAL_CAUSE_FRAMES);
	coal_fire(&c, US(0), COAL_CAUSE_FRAMES);
	coal_unmask(&c, US(5));
	/* Arrival 30: due at 30, held until 0 + 100 = 100. */
	coal_complete(&c, US(30));
	expect_fire(&c, 30, 100, COAL_CAUSE_GAP);
	coal_complete(&c, US(60));
	expect_fire(&c, 60, 100, COAL_CAUSE_GAP);
	/* Asked at the release time: due now, and the gap no longer delays
	 * it (release == now is not a delay). */
	expect_fire(&c, 100, 100, COAL_CAUSE_FRAMES);
	coal_fire(&c, US(100), COAL_CAUSE_GAP);
	assert_int_equal(c.fired_by[COAL_CAUSE_GAP], 1);
	/* Arrival 250 is past 100 + 100 = 200: fires at once. */
	coal_complete(&c, US(250));
	expect_fire(&c, 250, 250, COAL_CAUSE_FRAMES);
}

static void test_min_gap_with_timer(void **state)
{
	struct coal_params p = params(50, 0, COAL_TIMER_ABSOLUTE);
	struct coal c;

	(void)state;
	p.min_gap_ns = US(100);
	coal_init(&c, &p);
	coal_complete(&c, US(0));
	coal_fire(&c, US(50), COAL_CAUSE_TIMER);
	/* Arrival 60: timer 60 + 50 = 110, gap release 50 + 100 = 150. */
	coal_complete(&c, US(60));
	expect_fire(&c, 60, 150, COAL_CAUSE_GAP);
	coal_fire(&c, US(150), COAL_CAUSE_GAP);
	/* Arrival 300: timer 350 is past release 250: not held. */
	coal_complete(&c, US(300));
	expect_fire(&c, 300, 350, COAL_CAUSE_TIMER);
}

static void test_irq_thresholds(void **state)
{
	struct coal_params p = params(100, 8, COAL_TIMER_ABSOLUTE);
	struct coal c;

	(void)state;
	p.usecs_irq_ns = US(20);
	p.frames_irq = 2;
	coal_init(&c, &p);
	coal_complete(&c, US(0));
	coal_fire(&c, US(0), COAL_CAUSE_FRAMES);
	assert_true(c.servicing);
	/* Arrival 5 while servicing: *_irq apply, timer 5 + 20 = 25. */
	coal_complete(&c, US(5));
	assert_int_equal(c.pending_svc, 1);
	expect_fire(&c, 5, 25, COAL_CAUSE_TIMER);
	/* Arrival 10: 2 >= frames_irq 2 -> fires at 10. */
	coal_complete(&c, US(10));
	expect_fire(&c, 10, 10, COAL_CAUSE_FRAMES);
	/* Ack at 12 clears both; arrival 15 still during servicing: 35. */
	coal_ack(&c, US(12));
	expect_never(&c, 12);
	coal_complete(&c, US(15));
	expect_fire(&c, 15, 35, COAL_CAUSE_TIMER);
	/* Unmask at 18: all pending arrived while servicing, still 35. */
	coal_unmask(&c, US(18));
	assert_false(c.servicing);
	expect_fire(&c, 18, 35, COAL_CAUSE_TIMER);
	/* Arrival 20 after unmask: normal values for all pending, timer
	 * from t_first 15 + 100 = 115, 2 < 8 frames. */
	coal_complete(&c, US(20));
	assert_int_equal(c.pending, 2);
	assert_int_equal(c.pending_svc, 1);
	expect_fire(&c, 20, 115, COAL_CAUSE_TIMER);
}

static void test_irq_thresholds_zero_means_normal(void **state)
{
	struct coal_params p = params(100, 2, COAL_TIMER_RESTART);
	struct coal c;

	(void)state;
	coal_init(&c, &p);
	coal_complete(&c, US(0));
	coal_fire(&c, US(0), COAL_CAUSE_TIMER);
	/* *_irq are 0: the normal 100 us / 2 frames apply while servicing. */
	coal_complete(&c, US(10));
	expect_fire(&c, 10, 110, COAL_CAUSE_TIMER);
	coal_complete(&c, US(20));
	expect_fire(&c, 20, 20, COAL_CAUSE_FRAMES);
}

static void test_ack_clears_pending(void **state)
{
	struct coal_params p = params(100, 0, COAL_TIMER_ABSOLUTE);
	struct coal c;

	(void)state;
	coal_init(&c, &p);
	coal_complete(&c, US(0));
	coal_complete(&c, US(40));
	expect_fire(&c, 40, 100, COAL_CAUSE_TIMER);
	/* Ack at 50: nothing counts any more. */
	coal_ack(&c, US(50));
	assert_int_equal(c.pending, 0);
	expect_never(&c, 50);
	/* Arrival 60 starts a new timer: 60 + 100 = 160. */
	coal_complete(&c, US(60));
	expect_fire(&c, 60, 160, COAL_CAUSE_TIMER);
	/* An ack is not an interrupt. */
	assert_int_equal(c.fired, 0);
	assert_int_equal(c.t_last_irq, INT64_MIN);
	assert_int_equal(c.completions, 3);
}

static void test_set_params_keeps_pending(void **state)
{
	struct coal_params p = params(1000, 4, COAL_TIMER_ABSOLUTE);
	struct coal c;

	(void)state;
	coal_init(&c, &p);
	coal_complete(&c, US(0));
	coal_complete(&c, US(10));
	expect_fire(&c, 10, 1000, COAL_CAUSE_TIMER);
	/* ethtool -C rx-frames 2 at 12: the two pending meet it now. */
	p.frames = 2;
	coal_set_params(&c, &p);
	assert_int_equal(c.pending, 2);
	expect_fire(&c, 12, 12, COAL_CAUSE_FRAMES);
}

static void test_fire_counters(void **state)
{
	struct coal_params p = params(0, 1, COAL_TIMER_ABSOLUTE);
	struct coal c;

	(void)state;
	coal_init(&c, &p);
	coal_complete(&c, US(1));
	coal_fire(&c, US(1), COAL_CAUSE_FRAMES);
	assert_int_equal(c.pending, 0);
	assert_int_equal(c.t_last_irq, US(1));
	coal_complete(&c, US(2));
	coal_fire(&c, US(2), COAL_CAUSE_TIMER);
	coal_fire(&c, US(3), COAL_CAUSE_TIMER);
	assert_int_equal(c.fired, 3);
	assert_int_equal(c.fired_by[COAL_CAUSE_FRAMES], 1);
	assert_int_equal(c.fired_by[COAL_CAUSE_TIMER], 2);
	assert_int_equal(c.fired_by[COAL_CAUSE_GAP], 0);
	assert_int_equal(c.completions, 2);
}

/* e1000 RxIntDelay/RxAbsIntDelay in 1.024 us units: RDTR 64 = 65536 ns
 * restart timer, RADV 128 = 131072 ns absolute, no frame threshold; RDTR 0
 * leaves the parameters alone (an interrupt per frame, RADV off). */
static void test_e1000_delays(void **state)
{
	struct coal_params p = { .usecs_ns = 5000, .frames = 7, .mode = COAL_TIMER_ABSOLUTE };

	(void)state;
	coal_params_e1000(0, 128, &p);
	assert_int_equal(p.usecs_ns, 5000);
	assert_int_equal(p.frames, 7);
	assert_int_equal(p.abs_ns, 0);
	coal_params_e1000(64, 128, &p);
	assert_int_equal(p.mode, COAL_TIMER_RESTART);
	assert_int_equal(p.usecs_ns, 65536);
	assert_int_equal(p.frames, 0);
	assert_int_equal(p.abs_ns, 131072);
}

/* every: a count of descriptors (Olsson's e1000 "TX interrupt for a given
 * no of packets. (Currently 60)").  @n completions 1 us apart from t = 1
 * us; a host that services at once (fire, then unmask: a hard-IRQ clean)
 * takes every interrupt whose time has come before the next completion.
 * Returns the interrupts taken; *tail gets the fire time left after the
 * last completion. */
static uint32_t run_every(struct coal *c, uint32_t n, int64_t *tail)
{
	uint32_t irqs = 0;

	for (uint32_t k = 1; k <= n; k++) {
		enum coal_cause why;

		coal_complete(c, US(k));
		if (coal_fire_time(c, US(k), &why) <= US(k)) {
			assert_int_equal(why, COAL_CAUSE_FRAMES);
			coal_fire(c, US(k), why);
			coal_unmask(c, US(k));
			irqs++;
		}
	}
	*tail = coal_fire_time(c, US(n), NULL);
	return irqs;
}

/* 600 frames back to back, every 60, no timer: marks at frames 60, 120,
 * ..., 600 -> 10 interrupts, nothing left.  630 frames: the same 10 and a
 * tail of 30 that nothing fires (no timer). */
static void test_every_count_only(void **state)
{
	struct coal_params p = { .every = 60, .mode = COAL_TIMER_RESTART };
	struct coal c;
	int64_t tail;

	(void)state;
	assert_int_equal(coal_params_check(&p, NULL), 0);
	coal_init(&c, &p);
	assert_int_equal(run_every(&c, 600, &tail), 10);
	assert_int_equal(tail, COAL_NEVER);
	assert_int_equal(c.fired_by[COAL_CAUSE_FRAMES], 10);
	coal_init(&c, &p);
	assert_int_equal(run_every(&c, 630, &tail), 10);
	assert_int_equal(tail, COAL_NEVER);
	assert_int_equal(c.pending, 30);
}

/* With TIDV 64 (65.536 us, restarted by every completion): 630 frames give
 * the 10 marked interrupts and one more for the tail of 30, when the line
 * has been quiet for TIDV after frame 630: 630 + 65.536 us.  A gap shorter
 * than TIDV (frames 1 us apart) never fires the timer in between. */
static void test_every_with_tidv_tail(void **state)
{
	struct coal_params p = { .every = 60 };
	enum coal_cause why;
	struct coal c;
	int64_t tail;

	(void)state;
	coal_params_e1000(64, 0, &p);
	assert_int_equal(p.every, 60);
	assert_int_equal(p.frames, 0);
	coal_init(&c, &p);
	assert_int_equal(run_every(&c, 630, &tail), 10);
	assert_int_equal(tail, US(630) + 65536);
	coal_fire_time(&c, US(630), &why);
	assert_int_equal(why, COAL_CAUSE_TIMER);
	coal_fire(&c, tail, why);
	assert_int_equal(c.fired, 11);
	assert_int_equal(c.fired_by[COAL_CAUSE_TIMER], 1);
}

/* The count is a property of the descriptors: neither an interrupt nor an
 * acknowledgement restarts it.  Marks at frames 60, 120, 180 (t = 60, 120,
 * 180 us).  The host fires at 60 and keeps the line masked until 150:
 * the mark at 120 is latched and fires at the unmask (t = 150, cause
 * FRAMES); the next is frame 180, not 150 + 60.  An ack at frame 170
 * does not move it either.  A pending-count threshold (frames = 60) would
 * instead fire 60 completions after the ack, at 230. */
static void test_every_ignores_fire_and_ack(void **state)
{
	struct coal_params p = { .every = 60 };
	struct coal c;

	(void)state;
	coal_init(&c, &p);
	for (int64_t k = 1; k <= 60; k++)
		coal_complete(&c, US(k));
	expect_fire(&c, 60, 60, COAL_CAUSE_FRAMES);
	coal_fire(&c, US(60), COAL_CAUSE_FRAMES);
	for (int64_t k = 61; k <= 150; k++)
		coal_complete(&c, US(k));
	/* masked: two marks would have been one interrupt; here one */
	expect_fire(&c, 150, 150, COAL_CAUSE_FRAMES);
	coal_fire(&c, US(150), COAL_CAUSE_FRAMES);
	coal_unmask(&c, US(150));
	for (int64_t k = 151; k <= 170; k++)
		coal_complete(&c, US(k));
	coal_ack(&c, US(170));
	expect_never(&c, 170);
	for (int64_t k = 171; k <= 179; k++)
		coal_complete(&c, US(k));
	expect_never(&c, 179);
	coal_complete(&c, US(180));
	expect_fire(&c, 180, 180, COAL_CAUSE_FRAMES);
	assert_int_equal(c.pending, 10);
}

/* Two marks while masked make one interrupt: marks at 60 and 120, nothing
 * fired until 130; then one fire clears both. */
static void test_every_marks_merge(void **state)
{
	struct coal_params p = { .every = 60 };
	struct coal c;

	(void)state;
	coal_init(&c, &p);
	for (int64_t k = 1; k <= 130; k++)
		coal_complete(&c, US(k));
	/* the first mark (t = 60) is when the cause was raised */
	expect_fire(&c, 0, 60, COAL_CAUSE_FRAMES);
	coal_fire(&c, US(130), COAL_CAUSE_FRAMES);
	expect_never(&c, 130);
	assert_int_equal(c.fired, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_params_check),
		cmocka_unit_test(test_nothing_pending),
		cmocka_unit_test(test_absolute_timer),
		cmocka_unit_test(test_restart_timer),
		cmocka_unit_test(test_restart_with_abs),
		cmocka_unit_test(test_frames_threshold),
		cmocka_unit_test(test_frames_only),
		cmocka_unit_test(test_timer_before_frames),
		cmocka_unit_test(test_no_coalescing),
		cmocka_unit_test(test_min_gap_holds),
		cmocka_unit_test(test_min_gap_with_timer),
		cmocka_unit_test(test_irq_thresholds),
		cmocka_unit_test(test_irq_thresholds_zero_means_normal),
		cmocka_unit_test(test_ack_clears_pending),
		cmocka_unit_test(test_set_params_keeps_pending),
		cmocka_unit_test(test_fire_counters),
		cmocka_unit_test(test_e1000_delays),
		cmocka_unit_test(test_every_count_only),
		cmocka_unit_test(test_every_with_tidv_tail),
		cmocka_unit_test(test_every_ignores_fire_and_ack),
		cmocka_unit_test(test_every_marks_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
