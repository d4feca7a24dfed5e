/* test_bsd_poll.c - exact decision sequences of the FreeBSD DEVICE_POLLING
 * burst controller.
 *
 * Each test drives bsd_poll_tick/begin/chunk/more by hand and checks the
 * result against a hand computation written next to it.  Times in the
 * comments are in microseconds; US() converts.  kern_load = elapsed_us *
 * hz / 10000, so at hz 1000 a poll of W us is a load of W/10 percent.
 * bsd_poll_check() runs after every call.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rxlab/bsd_poll.h"

#define US(x) ((int64_t)(x) * 1000)

static void ok(const struct bsd_poll *p)
{
	const char *why = bsd_poll_check(p);

	if (why)
		fail_msg("invariant: %s", why);
}

static void start(struct bsd_poll *p, const struct bsd_poll_config *c)
{
	const char *why = NULL;

	assert_int_equal(bsd_poll_config_check(c, &why), 0);
	bsd_poll_init(p, c);
	ok(p);
}

static void tick(struct bsd_poll *p, int64_t t_us, bool want_sched)
{
	assert_int_equal(bsd_poll_tick(p, US(t_us)), want_sched);
	ok(p);
}

static enum bsd_poll_cmd begin(struct bsd_poll *p, int64_t t_us)
{
	enum bsd_poll_cmd cmd = bsd_poll_begin(p, US(t_us));

	ok(p);
	return cmd;
}

static uint32_t chunk(struct bsd_poll *p)
{
	uint32_t n = bsd_poll_chunk(p);

	ok(p);
	return n;
}

static enum bsd_poll_next more(struct bsd_poll *p, int64_t t_us)
{
	enum bsd_poll_next next = bsd_poll_more(p, US(t_us));

	ok(p);
	return next;
}

/* Run chunks of the current burst until bsd_poll_more() at @end_us says
 * something other than NEXT_CHUNK; returns the packets handed out.  The
 * NEXT_CHUNK answers do not read the clock.  A burst is at most
 * BSD_POLL_MAX_BURST_MAX chunks of >= 1, so more means a runaway burst. */
static uint32_t drain(struct bsd_poll *p, int64_t end_us, enum bsd_poll_next *last)
{
	uint32_t total = 0;
	enum bsd_poll_next next;
	uint32_t n;

	for (uint32_t i = 0; i <= BSD_POLL_MAX_BURST_MAX; i++) {
		n = chunk(p);
		assert_in_range(n, 1, p->cfg.each_burst);
		total += n;
		next = more(p, end_us);
		if (next != BSD_POLL_NEXT_CHUNK) {
			*last = next;
			return total;
		}
	}
	fail_msg("burst did not end after %u chunks", BSD_POLL_MAX_BURST_MAX + 1);
	return total;
}

/* One ordinary tick at @t_us whose netisrs take @work_us and finish it.
 * Returns the packets handed to each handler; *cmd gets the command. */
static uint32_t run_tick(struct bsd_poll *p, int64_t t_us, int64_t work_us, enum bsd_poll_cmd *cmd)
{
	enum bsd_poll_next last;
	uint32_t total;

	tick(p, t_us, true);
	*cmd = begin(p, t_us);
	total = drain(p, t_us + work_us, &last);
	assert_int_equal(last, BSD_POLL_DONE);
	return total;
}

/* Light ticks (load 10% at hz 1000) every 1000 us from @t0_us. */
static void light_ticks(struct bsd_poll *p, int64_t t0_us, int n)
{
	enum bsd_poll_cmd cmd;

	for (int i = 0; i < n; i++)
		run_tick(p, t0_us + 1000 * i, 100, &cmd);
}

static void test_config_check(void **state)
{
	struct bsd_poll_config c;
	const char *why = NULL;
	(void)state;

	bsd_poll_config_default(&c, 1000);
	assert_int_equal(c.burst_max, 150);
	assert_int_equal(c.each_burst, 5);
	assert_int_equal(c.user_frac, 50);
	assert_int_equal(c.reg_frac, 20);
	assert_int_equal(c.idle_poll, 0);
	assert_int_equal(bsd_poll_config_check(&c, &why), 0);
	assert_null(why);

#define EXPECT_BAD(field, val, text) do { \
		struct bsd_poll_config b = c; \
		b.field = (val); \
		why = NULL; \
		assert_int_equal(bsd_poll_config_check(&b, &why), -1); \
		assert_non_null(why); \
		assert_non_null(strstr(why, text)); \
	} while (0)
#define EXPECT_GOOD(field, val) do { \
		struct bsd_poll_config b = c; \
		b.field = (val); \
		assert_int_equal(bsd_poll_config_check(&b, NULL), 0); \
	} while (0)
	/* poll_burst_max_sysctl(): MIN_POLL_BURST_MAX..MAX_POLL_BURST_MAX. */
	EXPECT_BAD(burst_max, 9, "kern.polling.burst_max out of range (accepted: 10..1000)");
	EXPECT_BAD(burst_max, 1001, "kern.polling.burst_max out of range (accepted: 10..1000)");
	EXPECT_GOOD(burst_max, 10);
	EXPECT_GOOD(burst_max, 1000);
	/* poll_each_burst_sysctl(): >= 1 and <= burst_max (150 here). */
	EXPECT_BAD(each_burst, 0, "kern.polling.each_burst out of range (accepted: 1..burst_max)");
	EXPECT_BAD(each_burst, 151, "kern.polling.each_burst out of range (accepted: 1..burst_max)");
	EXPECT_GOOD(each_burst, 150);
	/* user_frac_sysctl(): 0..99. */
	EXPECT_BAD(user_frac, 100, "kern.polling.user_frac out of range (accepted: 0..99)");
	EXPECT_GOOD(user_frac, 0);
	EXPECT_GOOD(user_frac, 99);
	/* reg_frac_sysctl(): 1..hz (1000 here). */
	EXPECT_BAD(reg_frac, 0, "kern.polling.reg_frac out of range (accepted: 1..kern.hz)");
	EXPECT_BAD(reg_frac, 1001, "kern.polling.reg_frac out of range (accepted: 1..kern.hz)");
	EXPECT_GOOD(reg_frac, 1000);
	EXPECT_BAD(idle_poll, 2, "kern.polling.idle_poll out of range (accepted: 0 or 1)");
	EXPECT_GOOD(idle_poll, 1);
	EXPECT_BAD(hz, 0, "kern.hz out of range (accepted: 1..100000)");
#undef EXPECT_BAD
#undef EXPECT_GOOD

	/* At hz 10 the default reg_frac 20 would be out of 1..hz. */
	bsd_poll_config_default(&c, 10);
	assert_int_equal(c.reg_frac, 10);
	assert_int_equal(bsd_poll_config_check(&c, NULL), 0);
}

static void test_one_tick_burst_5(void **state)
{
	struct bsd_poll p;
	struct bsd_poll_config c;
	(void)state;

	bsd_poll_config_default(&c, 1000);
	start(&p, &c);
	assert_int_equal(p.burst, 5);
	assert_int_equal(p.phase, BSD_POLL_PHASE_IDLE);
	/* t=0: hardclock schedules the netisr; pending_polls 0 -> 1. */
	tick(&p, 0, true);
	assert_int_equal(p.phase, BSD_POLL_PHASE_SCHEDULED);
	assert_int_equal(p.pending_polls, 1);
	/* netisr_poll: first call, reg_frac_count 1 != 20: POLL_ONLY;
	 * residual = burst = 5; one chunk min(5, 5) = 5 leaves 0. */
	assert_int_equal(begin(&p, 0), BSD_POLL_ONLY);
	assert_int_equal(p.residual_burst, 5);
	assert_int_equal(chunk(&p), 5);
	assert_int_equal(p.residual_burst, 0);
	/* pollmore at t=100: load 100*1000/10000 = 10 <= 50: burst 6;
	 * pending_polls 1 -> 0: done. */
	assert_int_equal(more(&p, 100), BSD_POLL_DONE);
	assert_int_equal(p.kern_load_pct, 10);
	assert_int_equal(p.burst, 6);
	assert_int_equal(p.pending_polls, 0);
	assert_int_equal(p.phase, BSD_POLL_PHASE_IDLE);
	assert_int_equal(p.chunks, 1);
	assert_int_equal(p.bursts, 1);
	assert_int_equal(p.lost_polls, 0);
}

static void test_increase_to_burst_max(void **state)
{
	struct bsd_poll p;
	struct bsd_poll_config c;
	enum bsd_poll_cmd cmd;
	/* Load 10% each tick: +1 per tick from 5, capped at burst_max 10.
	 * A tick hands out the burst it started with. */
	static const uint32_t want_total[8] = { 5, 6, 7, 8, 9, 10, 10, 10 };
	static const uint32_t want_after[8] = { 6, 7, 8, 9, 10, 10, 10, 10 };
	(void)state;

	bsd_poll_config_default(&c, 1000);
	c.burst_max = 10;
	start(&p, &c);
	for (int i = 0; i < 8; i++) {
		assert_int_equal(run_tick(&p, 1000 * i, 100, &cmd), want_total[i]);
		assert_int_equal(p.burst, want_after[i]);
	}
}

static void test_decrease_to_one(void **state)
{
	struct bsd_poll p;
	struct bsd_poll_config c;
	enum bsd_poll_cmd cmd;
	/* Work 600 us: load 60 > 100 - 50: -1 per tick from 5, floor 1. */
	static const uint32_t want_total[6] = { 5, 4, 3, 2, 1, 1 };
	static const uint32_t want_after[6] = { 4, 3, 2, 1, 1, 1 };
	(void)state;

	bsd_poll_config_default(&c, 1000);
	start(&p, &c);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(run_tick(&p, 1000 * i, 600, &cmd), want_total[i]);
		assert_int_equal(p.kern_load_pct, 60);
		assert_int_equal(p.burst, want_after[i]);
	}
}

static void test_threshold_is_strict(void **state)
{
	struct bsd_poll p;
	struct bsd_poll_config c;
	enum bsd_poll_cmd cmd;
	(void)state;

	bsd_poll_config_default(&c, 1000);
	start(&p, &c);
	/* 500 us: load 50, not > 50: burst 5 -> 6.  510 us: 51: 6 -> 5. */
	run_tick(&p, 0, 500, &cmd);
	assert_int_equal(p.burst, 6);
	run_tick(&p, 1000, 510, &cmd);
	assert_int_equal(p.burst, 5);

	/* user_frac 99: threshold 1.  10 us = load 1: +1; 20 us = 2: -1. */
	c.user_frac = 99;
	start(&p, &c);
	run_tick(&p, 0, 10, &cmd);
	assert_int_equal(p.burst, 6);
	run_tick(&p, 1000, 20, &cmd);
	assert_int_equal(p.burst, 5);

	/* user_frac 0: threshold 100.  A full tick (load 100) still +1. */
	c.user_frac = 0;
	start(&p, &c);
	run_tick(&p, 0, 1000, &cmd);
	assert_int_equal(p.kern_load_pct, 100);
	assert_int_equal(p.burst, 6);
}

static void test_load_in_whole_microseconds(void **state)
{
	struct bsd_poll p;
	struct bsd_poll_config c;
	(void)state;

	/* hz 10000: kern_load = elapsed_us.  microuptime() truncates each
	 * end: start 0.999 us -> 0, end 51.000 us -> 51: 51 > 50, burst -1,
	 * though only 50.001 us passed. */
	bsd_poll_config_default(&c, 10000);
	start(&p, &c);
	assert_true(bsd_poll_tick(&p, 999));
	bsd_poll_begin(&p, 999);
	assert_int_equal(chunk(&p), 5);
	assert_int_equal(bsd_poll_more(&p, 51000), BSD_POLL_DONE);
	ok(&p);
	assert_int_equal(p.kern_load_pct, 51);
	assert_int_equal(p.burst, 4);
}

static void test_hz_dependence(void **state)
{
	struct bsd_poll p;
	struct bsd_poll_config c;
	enum bsd_poll_cmd cmd;
	(void)state;

	/* The same 300 us of netisr work: at hz 1000 a tick is 1000 us,
	 * load 300*1000/10000 = 30 <= 50: burst 6.  At hz 2000 a tick is
	 * 500 us, load 300*2000/10000 = 60 > 50: burst 4. */
	bsd_poll_config_default(&c, 1000);
	start(&p, &c);
	run_tick(&p, 0, 300, &cmd);
	assert_int_equal(p.kern_load_pct, 30);
	assert_int_equal(p.burst, 6);

	bsd_poll_config_default(&c, 2000);
	start(&p, &c);
	run_tick(&p, 0, 300, &cmd);
	assert_int_equal(p.kern_load_pct, 60);
	assert_int_equal(p.burst, 4);
}

static void test_chunks_of_12(void **state)
{
	struct bsd_poll p;
	struct bsd_poll_config c;
	(void)state;

	bsd_poll_config_default(&c, 1000);
	start(&p, &c);
	light_ticks(&p, 0, 7); /* 5 + 7 = 12 */
	assert_int_equal(p.burst, 12);
	assert_int_equal(p.chunks, 1 + 2 + 2 + 2 + 2 + 2 + 3); /* bursts 5..11 */
	p.chunks = 0;

	/* burst 12, each_burst 5: 5 (residual 7), 5 (residual 2), 2. */
	tick(&p, 7000, true);
	assert_int_equal(begin(&p, 7000), BSD_POLL_ONLY);
	assert_int_equal(chunk(&p), 5);
	assert_int_equal(p.residual_burst, 7);
	assert_int_equal(more(&p, 7010), BSD_POLL_NEXT_CHUNK);
	assert_int_equal(p.phase, BSD_POLL_PHASE_MORE);
	assert_int_equal(p.burst, 12); /* no adaptation mid-burst */
	/* A continuation: begin neither restarts the burst nor the clock. */
	assert_int_equal(begin(&p, 7020), BSD_POLL_ONLY);
	assert_int_equal(p.residual_burst, 7);
	assert_int_equal(p.poll_start_ns, US(7000));
	assert_int_equal(chunk(&p), 5);
	assert_int_equal(more(&p, 7030), BSD_POLL_NEXT_CHUNK);
	assert_int_equal(chunk(&p), 2);
	assert_int_equal(p.residual_burst, 0);
	/* load (7100-7000)/10 = 10: burst 13. */
	assert_int_equal(more(&p, 7100), BSD_POLL_DONE);
	assert_int_equal(p.burst, 13);
	assert_int_equal(p.chunks, 3);
	assert_int_equal(p.bursts, 8);
}

static void test_burst_below_each_burst(void **state)
{
	struct bsd_poll p;
	struct bsd_poll_config c;
	enum bsd_poll_cmd cmd;
	(void)state;

	/* each_burst 10 > burst 5: the kernel allows it; one chunk of 5. */
	bsd_poll_config_default(&c, 1000);
	c.each_burst = 10;
	start(&p, &c);
	assert_int_equal(run_tick(&p, 0, 600, &cmd), 5);
	assert_int_equal(p.chunks, 1);
	/* Heavy load took burst to 4, below each_burst: one chunk of 4. */
	assert_int_equal(p.burst, 4);
	assert_int_equal(run_tick(&p, 1000, 100, &cmd), 4);
	assert_int_equal(p.chunks, 2);
	assert_int_equal(p.burst, 5);
}

static void test_missed_tick_cuts_one_eighth(void **state)
{
	struct bsd_poll p;
	struct bsd_poll_config c;
	enum bsd_poll_next last;
	(void)state;

	bsd_poll_config_default(&c, 1000);
	start(&p, &c);
	p.burst = 100; /* as if adapted there; 1 <= 100 <= 150 */
	ok(&p);

	/* t=0: a burst of 100 = 20 chunks of 5. */
	tick(&p, 0, true);
	begin(&p, 0);
	for (int i = 0; i < 19; i++) {
		assert_int_equal(chunk(&p), 5);
		assert_int_equal(more(&p, 0), BSD_POLL_NEXT_CHUNK);
	}
	assert_int_equal(chunk(&p), 5);
	/* t=1000: the handlers are still running (phase 4): no schedule,
	 * pending_polls 1 -> 2, and it was > 0: lost_polls 1. */
	assert_int_equal(p.phase, BSD_POLL_PHASE_POLLED);
	tick(&p, 1000, false);
	assert_int_equal(p.pending_polls, 2);
	assert_int_equal(p.lost_polls, 1);
	assert_int_equal(p.suspect, 0);
	/* pollmore at 1200: load 120 > 50: 100 -> 99; pending 2 -> 1, still
	 * > 0: 99 - 99/8 = 99 - 12 = 87, poll again at once. */
	assert_int_equal(more(&p, 1200), BSD_POLL_AGAIN);
	assert_int_equal(p.kern_load_pct, 120);
	assert_int_equal(p.burst, 87);
	assert_int_equal(p.phase, BSD_POLL_PHASE_RESTARTED);
	assert_int_equal(p.restarts, 1);
	/* The restart is a new burst: clock restarts at 1200, residual 87
	 * = 17 chunks of 5 and one of 2; at 1300 load 10: 88, done. */
	assert_int_equal(begin(&p, 1200), BSD_POLL_ONLY);
	assert_int_equal(p.poll_start_ns, US(1200));
	assert_int_equal(p.residual_burst, 87);
	assert_int_equal(drain(&p, 1300, &last), 87);
	assert_int_equal(last, BSD_POLL_DONE);
	assert_int_equal(p.burst, 88);
	assert_int_equal(p.chunks, 20 + 18);
	assert_int_equal(p.bursts, 2);
	assert_int_equal(p.pending_polls, 0);
}

static void test_cut_is_nothing_below_8(void **state)
{
	struct bsd_poll p;
	struct bsd_poll_config c;
	(void)state;

	bsd_poll_config_default(&c, 1000);
	start(&p, &c);
	/* burst 5, tick missed, load 150: 5 -> 4, then 4 - 4/8 = 4 - 0. */
	tick(&p, 0, true);
	begin(&p, 0);
	assert_int_equal(chunk(&p), 5);
	tick(&p, 1000, false);
	assert_int_equal(more(&p, 1500), BSD_POLL_AGAIN);
	assert_int_equal(p.burst, 4);
	begin(&p, 1500);
	assert_int_equal(chunk(&p), 4);
	assert_int_equal(more(&p, 1600), BSD_POLL_DONE);
	assert_int_equal(p.burst, 5);
	/* From 9 the decrease gives 8, and 8 loses 8/8 = 1. */
	p.burst = 9;
	tick(&p, 2000, true);
	begin(&p, 2000);
	assert_int_equal(chunk(&p), 5);
	assert_int_equal(chunk(&p), 4);
	tick(&p, 3000, false);
	/* load 150: 9 -> 8; 8 - 8/8 = 7. */
	assert_int_equal(more(&p, 3500), BSD_POLL_AGAIN);
	assert_int_equal(p.burst, 7);
}

static void test_catch_up_after_lost_ticks(void **state)
{
	struct bsd_poll p;
	struct bsd_poll_config c;
	enum bsd_poll_next last;
	(void)state;

	bsd_poll_config_default(&c, 1000);
	start(&p, &c);
	/* Three ticks before the netisr gets the CPU.  The 2nd and 3rd find
	 * phase 2 (scheduled, not run): suspect, reschedule, and a pending
	 * poll: lost. */
	tick(&p, 0, true);
	tick(&p, 1000, true);
	tick(&p, 2000, true);
	assert_int_equal(p.suspect, 2);
	assert_int_equal(p.lost_polls, 2);
	assert_int_equal(p.pending_polls, 3);
	/* The netisr runs at 2100 and works 100 us per burst (load 10):
	 *   burst 5: +1 = 6, pending 3 -> 2: 6 - 6/8 = 6, AGAIN
	 *   burst 6: +1 = 7, pending 2 -> 1: 7 - 0 = 7, AGAIN
	 *   burst 7: +1 = 8, pending 1 -> 0: DONE. */
	begin(&p, 2100);
	assert_int_equal(drain(&p, 2200, &last), 5);
	assert_int_equal(last, BSD_POLL_AGAIN);
	assert_int_equal(p.burst, 6);
	begin(&p, 2200);
	assert_int_equal(drain(&p, 2300, &last), 6);
	assert_int_equal(last, BSD_POLL_AGAIN);
	assert_int_equal(p.burst, 7);
	begin(&p, 2300);
	assert_int_equal(drain(&p, 2400, &last), 7);
	assert_int_equal(last, BSD_POLL_DONE);
	assert_int_equal(p.burst, 8);
	assert_int_equal(p.restarts, 2);
	assert_int_equal(p.lost_polls, 2);
	assert_int_equal(p.phase, BSD_POLL_PHASE_IDLE);
}

static void test_stall_reset(void **state)
{
	struct bsd_poll p;
	struct bsd_poll_config c;
	(void)state;

	bsd_poll_config_default(&c, 1000);
	start(&p, &c);
	/* 101 ticks and the netisr never runs: tick i leaves pending i,
	 * lost i-1, suspect i-1. */
	for (int i = 1; i <= 101; i++) {
		tick(&p, 1000 * (i - 1), true);
		assert_int_equal(p.pending_polls, i);
		assert_int_equal(p.lost_polls, i - 1);
		assert_int_equal(p.suspect, i - 1);
	}
	assert_int_equal(p.stalled, 0);
	/* Tick 102: pending 101 > 100: stalled, pending 0, phase 0.  Phase 0
	 * schedules without suspect, and pending 0 -> 1 is not lost. */
	tick(&p, 101000, true);
	assert_int_equal(p.stalled, 1);
	assert_int_equal(p.pending_polls, 1);
	assert_int_equal(p.suspect, 100);
	assert_int_equal(p.lost_polls, 100);
	assert_int_equal(p.phase, BSD_POLL_PHASE_SCHEDULED);
	/* The next tick is ordinary again: suspect and lost, no stall. */
	tick(&p, 102000, true);
	assert_int_equal(p.stalled, 1);
	assert_int_equal(p.pending_polls, 2);
}

static void test_check_status_every_reg_frac(void **state)
{
	struct bsd_poll p;
	struct bsd_poll_config c;
	enum bsd_poll_cmd cmd;
	static const enum bsd_poll_cmd want[7] = {
		BSD_POLL_ONLY, BSD_POLL_ONLY, BSD_POLL_AND_CHECK_STATUS,
		BSD_POLL_ONLY, BSD_POLL_ONLY, BSD_POLL_AND_CHECK_STATUS,
		BSD_POLL_ONLY,
	};
	(void)state;

	/* reg_frac 3: ++count == 3 on bursts 3, 6, ... */
	bsd_poll_config_default(&c, 1000);
	c.reg_frac = 3;
	start(&p, &c);
	for (int i = 0; i < 7; i++) {
		run_tick(&p, 1000 * i, 100, &cmd);
		assert_int_equal(cmd, want[i]);
	}
	assert_int_equal(p.reg_frac_count, 1);
	/* A restart after a missed tick is counted as a burst: count 2 on
	 * the tick, 3 on the restart, which checks status. */
	tick(&p, 7000, true);
	assert_int_equal(begin(&p, 7000), BSD_POLL_ONLY);
	assert_int_equal(chunk(&p), 5); /* burst 12 after 7 light ticks */
	assert_int_equal(chunk(&p), 5);
	assert_int_equal(chunk(&p), 2);
	tick(&p, 8000, false);
	/* load 110: 12 -> 11; pending 2 -> 1: 11 - 1 = 10, AGAIN. */
	assert_int_equal(more(&p, 8100), BSD_POLL_AGAIN);
	assert_int_equal(p.burst, 10);
	assert_int_equal(begin(&p, 8100), BSD_POLL_AND_CHECK_STATUS);
	assert_int_equal(p.reg_frac_count, 0);
	/* Later chunks of a CHECK_STATUS burst are POLL_ONLY. */
	chunk(&p);
	assert_int_equal(more(&p, 8100), BSD_POLL_NEXT_CHUNK);
	assert_int_equal(begin(&p, 8100), BSD_POLL_ONLY);
}

static void test_short_ticks(void **state)
{
	struct bsd_poll p;
	struct bsd_poll_config c;
	(void)state;

	/* hz 1000: short when delta_us * 1000 < 500000, i.e. < 500 us after
	 * the last tick that was not short.
	 *   0     first tick                          reference 0
	 *   1000  delta 1000                          reference 1000
	 *   1400  delta 400: short                    reference stays 1000
	 *   1600  delta 600 (not 200)                 reference 1600
	 *   2099  delta 499: short
	 *   2100  delta 500: not < 500000             */
	bsd_poll_config_default(&c, 1000);
	start(&p, &c);
	tick(&p, 0, true);
	tick(&p, 1000, true);
	assert_int_equal(p.short_ticks, 0);
	tick(&p, 1400, true);
	assert_int_equal(p.short_ticks, 1);
	tick(&p, 1600, true);
	assert_int_equal(p.short_ticks, 1);
	tick(&p, 2099, true);
	assert_int_equal(p.short_ticks, 2);
	tick(&p, 2100, true);
	assert_int_equal(p.short_ticks, 2);
	assert_int_equal(p.prev_tick_ns, US(2100));
}

static void test_set_config(void **state)
{
	struct bsd_poll p;
	struct bsd_poll_config c;
	enum bsd_poll_cmd cmd;
	(void)state;

	bsd_poll_config_default(&c, 1000);
	start(&p, &c);
	light_ticks(&p, 0, 7);
	assert_int_equal(p.burst, 12);
	assert_int_equal(p.reg_frac_count, 7);
	/* burst_max 10 < burst 12: burst follows.  reg_frac 8 > count 7:
	 * the count is kept, so the next burst checks status. */
	c.burst_max = 10;
	c.reg_frac = 8;
	bsd_poll_set_config(&p, &c);
	ok(&p);
	assert_int_equal(p.burst, 10);
	assert_int_equal(p.reg_frac_count, 7);
	run_tick(&p, 7000, 100, &cmd);
	assert_int_equal(cmd, BSD_POLL_AND_CHECK_STATUS);
	assert_int_equal(p.burst, 10);
	/* count 0 -> 2 after two ticks; reg_frac 2 (<= count): count 0,
	 * so two more bursts until the next check, not zero. */
	light_ticks(&p, 8000, 2);
	assert_int_equal(p.reg_frac_count, 2);
	c.reg_frac = 2;
	bsd_poll_set_config(&p, &c);
	assert_int_equal(p.reg_frac_count, 0);
	run_tick(&p, 10000, 100, &cmd);
	assert_int_equal(cmd, BSD_POLL_ONLY);
	run_tick(&p, 11000, 100, &cmd);
	assert_int_equal(cmd, BSD_POLL_AND_CHECK_STATUS);
}

static void test_idle_count(void **state)
{
	struct bsd_poll p, before;
	struct bsd_poll_config c;
	(void)state;

	bsd_poll_config_default(&c, 1000);
	c.each_burst = 7;
	start(&p, &c);
	assert_int_equal(bsd_poll_idle_count(&p), 0);
	c.idle_poll = 1;
	start(&p, &c);
	before = p;
	/* ether_poll(each_burst): each_burst, and no state change. */
	assert_int_equal(bsd_poll_idle_count(&p), 7);
	assert_memory_equal(&p, &before, sizeof(p));
}

static void test_more_without_tick_does_not_wrap(void **state)
{
	struct bsd_poll p;
	struct bsd_poll_config c;
	(void)state;

	/* A caller bug: a netisr run with no tick.  The kernel's u32
	 * pending_polls would wrap to 2^32-1; here it stays 0. */
	bsd_poll_config_default(&c, 1000);
	start(&p, &c);
	bsd_poll_begin(&p, 0);
	assert_int_equal(bsd_poll_chunk(&p), 5);
	assert_int_equal(bsd_poll_more(&p, US(100)), BSD_POLL_DONE);
	assert_int_equal(p.pending_polls, 0);
	assert_null(bsd_poll_check(&p));
	/* chunk with no burst begun hands out nothing. */
	assert_int_equal(bsd_poll_chunk(&p), 0);
}

static void test_check_finds_broken_state(void **state)
{
	struct bsd_poll p, good;
	struct bsd_poll_config c;
	(void)state;

	bsd_poll_config_default(&c, 1000);
	start(&p, &c);
	good = p;
	p.burst = 0;
	assert_non_null(strstr(bsd_poll_check(&p), "burst outside"));
	p = good;
	p.burst = 151;
	assert_non_null(strstr(bsd_poll_check(&p), "burst outside"));
	p = good;
	p.reg_frac_count = 20;
	assert_non_null(strstr(bsd_poll_check(&p), "reg_frac_count"));
	p = good;
	p.pending_polls = 102;
	p.phase = BSD_POLL_PHASE_SCHEDULED;
	assert_non_null(strstr(bsd_poll_check(&p), "pending_polls > 101"));
	p = good;
	p.pending_polls = 1;
	assert_non_null(strstr(bsd_poll_check(&p), "phase idle"));
	p = good;
	p.residual_burst = 3;
	assert_non_null(strstr(bsd_poll_check(&p), "residual_burst"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_check),
		cmocka_unit_test(test_one_tick_burst_5),
		cmocka_unit_test(test_increase_to_burst_max),
		cmocka_unit_test(test_decrease_to_one),
		cmocka_unit_test(test_threshold_is_strict),
		cmocka_unit_test(test_load_in_whole_microseconds),
		cmocka_unit_test(test_hz_dependence),
		cmocka_unit_test(test_chunks_of_12),
		cmocka_unit_test(test_burst_below_each_burst),
		cmocka_unit_test(test_missed_tick_cuts_one_eighth),
		cmocka_unit_test(test_cut_is_nothing_below_8),
		cmocka_unit_test(test_catch_up_after_lost_ticks),
		cmocka_unit_test(test_stall_reset),
		cmocka_unit_test(test_check_status_every_reg_frac),
		cmocka_unit_test(test_short_ticks),
		cmocka_unit_test(test_set_config),
		cmocka_unit_test(test_idle_count),
		cmocka_unit_test(test_more_without_tick_does_not_wrap),
		cmocka_unit_test(test_check_finds_broken_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
