/* test_napi.c - exact decision sequences of the NAPI state machine.
 *
 * Hand computations follow net/core/dev.c as summarized in
 * shared/reference/kernel-mechanisms.md sections 1.3-1.7 and 2.2.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rxlab/napi.h"

#define US(x) ((int64_t)(x) * 1000)

static void expect_done(struct napi_done d, bool rearm, bool resched, int64_t timer_ns)
{
	assert_int_equal(d.rearm_irq, rearm);
	assert_int_equal(d.reschedule, resched);
	assert_int_equal(d.timer_ns, timer_ns);
}

/* Hard IRQ: napi_schedule_prep() must take ownership. */
static void irq_schedules(struct napi *n)
{
	assert_true(napi_schedule_prep(n));
	assert_int_equal(n->state & NAPI_SCHED, NAPI_SCHED);
}

static void test_init(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, NAPI_POLL_WEIGHT);
	assert_int_equal(n.weight, 64);
	assert_int_equal(n.state, 0);
	assert_int_equal(n.defer_hard_irqs, 0);
	assert_int_equal(n.gro_flush_timeout_ns, 0);
	assert_int_equal(n.sched_ok + n.completes + n.rearms, 0);
}

static void test_schedule_prep(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	/* SCHED clear: set it, the caller owns it. */
	assert_true(napi_schedule_prep(&n));
	assert_int_equal(n.state, NAPI_SCHED);
	/* SCHED set: MISSED is set too, and false. */
	assert_false(napi_schedule_prep(&n));
	assert_int_equal(n.state, NAPI_SCHED | NAPI_MISSED);
	assert_int_equal(n.sched_ok, 1);
	assert_int_equal(n.sched_missed, 1);
}

static void test_schedule_prep_disabled(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	n.state = NAPI_DISABLE;
	/* DISABLE: fail without touching the state. */
	assert_false(napi_schedule_prep(&n));
	assert_int_equal(n.state, NAPI_DISABLE);
	assert_int_equal(n.sched_ok + n.sched_missed, 0);
}

static void test_complete_plain(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	irq_schedules(&n);
	n.state |= NAPI_SCHED_THREADED | NAPI_PREFER_BUSY_POLL;
	/* No deferral: SCHED, SCHED_THREADED, PREFER_BUSY_POLL clear, rearm. */
	expect_done(napi_complete_done(&n, 5, false), true, false, 0);
	assert_int_equal(n.state, 0);
	assert_int_equal(n.completes, 1);
	assert_int_equal(n.rearms, 1);
	assert_int_equal(n.deferred, 0);
}

static void test_complete_missed(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	irq_schedules(&n);
	/* IRQ during the poll: MISSED. */
	assert_false(napi_schedule_prep(&n));
	/* complete: MISSED clears, SCHED stays, reschedule, no rearm. */
	expect_done(napi_complete_done(&n, 3, false), false, true, 0);
	assert_int_equal(n.state, NAPI_SCHED);
	assert_int_equal(n.rearms, 0);
	/* The extra round finds nothing: now it completes for real. */
	expect_done(napi_complete_done(&n, 0, false), true, false, 0);
	assert_int_equal(n.state, 0);
	assert_int_equal(n.completes, 2);
	assert_int_equal(n.rearms, 1);
}

static void test_budget_exhausted_repolls(void **state)
{
	struct napi n;
	struct napi_poll_result r;

	(void)state;
	napi_init(&n, 64);
	irq_schedules(&n);
	/* work == weight: keep SCHED, repoll, no completion. */
	r = napi_poll_finish(&n, 64);
	assert_int_equal(r.next, NAPI_NEXT_REPOLL);
	expect_done(r.done, false, false, 0);
	assert_int_equal(n.state, NAPI_SCHED);
	assert_int_equal(n.repolls, 1);
	assert_int_equal(n.completes, 0);
	/* work > weight (buggy driver): the same path. */
	r = napi_poll_finish(&n, 70);
	assert_int_equal(r.next, NAPI_NEXT_REPOLL);
	assert_int_equal(n.repolls, 2);
	/* work < weight: the driver completed; nothing to do here. */
	r = napi_poll_finish(&n, 63);
	assert_int_equal(r.next, NAPI_NEXT_DONE);
	assert_int_equal(n.state, NAPI_SCHED);
	assert_int_equal(n.repolls, 2);
	assert_int_equal(n.completes, 0);
}

static void test_small_weight(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 16);
	irq_schedules(&n);
	/* weight 16: 16 is exhaustion, 15 is not. */
	assert_int_equal(napi_poll_finish(&n, 15).next, NAPI_NEXT_DONE);
	assert_int_equal(napi_poll_finish(&n, 16).next, NAPI_NEXT_REPOLL);
}

static void test_defer_two_empty_polls(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	napi_set_defer(&n, 2, US(20));
	irq_schedules(&n);
	/* D=2, T=20us.  Productive poll: count = 2, then 2 > 0 -> 1, timeout
	 * T -> IRQ stays masked, timer 20us, SCHED clear. */
	expect_done(napi_complete_done(&n, 5, false), false, false, US(20));
	assert_int_equal(n.defer_count, 1);
	assert_int_equal(n.state, 0);
	/* Timer: the watchdog schedules.  First empty poll: 1 > 0 -> 0,
	 * timer again. */
	assert_true(napi_watchdog(&n));
	expect_done(napi_complete_done(&n, 0, false), false, false, US(20));
	assert_int_equal(n.defer_count, 0);
	/* Second (D-th) empty poll: count 0 -> rearm, no timer. */
	assert_true(napi_watchdog(&n));
	expect_done(napi_complete_done(&n, 0, false), true, false, 0);
	assert_int_equal(n.state, 0);
	assert_int_equal(n.deferred, 2);
	assert_int_equal(n.rearms, 1);
	assert_int_equal(n.completes, 3);
	assert_int_equal(n.watchdog_scheds, 2);
}

static void test_defer_productive_reloads(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	napi_set_defer(&n, 2, US(20));
	irq_schedules(&n);
	/* productive (count 1), empty (count 0), productive reloads: 2 -> 1,
	 * still deferred; then two more empty polls are needed. */
	expect_done(napi_complete_done(&n, 5, false), false, false, US(20));
	assert_true(napi_watchdog(&n));
	expect_done(napi_complete_done(&n, 0, false), false, false, US(20));
	assert_true(napi_watchdog(&n));
	expect_done(napi_complete_done(&n, 1, false), false, false, US(20));
	assert_int_equal(n.defer_count, 1);
	assert_true(napi_watchdog(&n));
	expect_done(napi_complete_done(&n, 0, false), false, false, US(20));
	assert_true(napi_watchdog(&n));
	expect_done(napi_complete_done(&n, 0, false), true, false, 0);
}

static void test_defer_without_timeout_is_plain(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	/* D=2, T=0: the count moves (2 -> 1) but timeout stays 0, so ret
	 * stays true and no timer: plain NAPI. */
	napi_set_defer(&n, 2, 0);
	irq_schedules(&n);
	expect_done(napi_complete_done(&n, 5, true), true, false, 0);
	assert_int_equal(n.defer_count, 1);
	irq_schedules(&n);
	expect_done(napi_complete_done(&n, 0, false), true, false, 0);
	assert_int_equal(n.defer_count, 0);
	assert_int_equal(n.deferred, 0);
	assert_int_equal(n.rearms, 2);
}

static void test_timeout_without_defer(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	/* D=0, T=20us: rearm always; timer only when GRO holds packets after
	 * a productive poll ("timeout = gro_flush_timeout if gro.bitmask"). */
	napi_set_defer(&n, 0, US(20));
	irq_schedules(&n);
	expect_done(napi_complete_done(&n, 5, false), true, false, 0);
	irq_schedules(&n);
	expect_done(napi_complete_done(&n, 5, true), true, false, US(20));
	irq_schedules(&n);
	/* work 0: the GRO branch is not taken. */
	expect_done(napi_complete_done(&n, 0, true), true, false, 0);
	assert_int_equal(n.rearms, 3);
	assert_int_equal(n.deferred, 0);
}

static void test_in_busy_poll(void **state)
{
	struct napi n;
	uint32_t st = NAPI_SCHED | NAPI_IN_BUSY_POLL | NAPI_MISSED;

	(void)state;
	napi_init(&n, 64);
	napi_set_defer(&n, 2, US(20));
	n.state = st;
	/* IN_BUSY_POLL: false at once, nothing touched (no reload of the
	 * defer count, MISSED not consumed). */
	expect_done(napi_complete_done(&n, 5, true), false, false, 0);
	assert_int_equal(n.state, st);
	assert_int_equal(n.defer_count, 0);
	assert_int_equal(n.completes, 1);
	assert_int_equal(n.rearms + n.deferred, 0);
}

static void test_missed_with_defer(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	napi_set_defer(&n, 2, US(20));
	irq_schedules(&n);
	assert_false(napi_schedule_prep(&n));
	/* Count reloads and decrements (2 -> 1), but MISSED returns before
	 * hrtimer_start: reschedule, no timer. */
	expect_done(napi_complete_done(&n, 5, false), false, true, 0);
	assert_int_equal(n.defer_count, 1);
	assert_int_equal(n.state, NAPI_SCHED);
	assert_int_equal(n.deferred, 0);
}

static void test_watchdog(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	n.state = NAPI_PREFER_BUSY_POLL;
	/* SCHED clear: take it, drop PREFER_BUSY_POLL. */
	assert_true(napi_watchdog(&n));
	assert_int_equal(n.state, NAPI_SCHED);
	/* SCHED set (owned): nothing, and no MISSED either. */
	assert_false(napi_watchdog(&n));
	assert_int_equal(n.state, NAPI_SCHED);
	/* IN_BUSY_POLL owner, prefer set: untouched. */
	n.state = NAPI_SCHED | NAPI_IN_BUSY_POLL | NAPI_PREFER_BUSY_POLL;
	assert_false(napi_watchdog(&n));
	assert_int_equal(n.state, NAPI_SCHED | NAPI_IN_BUSY_POLL | NAPI_PREFER_BUSY_POLL);
	/* DISABLE pending: nothing. */
	n.state = NAPI_DISABLE;
	assert_false(napi_watchdog(&n));
	assert_int_equal(n.state, NAPI_DISABLE);
	assert_int_equal(n.watchdog_fires, 4);
	assert_int_equal(n.watchdog_scheds, 1);
}

/* enqueue_to_backlog(): the backlog pseudo-NAPI is claimed by a plain
 * test_and_set of SCHED, counted by the core (the simulator used to set
 * the bit and count sched_ok itself); no MISSED when already owned. */
static void test_schedule_backlog(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	assert_true(napi_schedule_backlog(&n));
	assert_int_equal(n.state, NAPI_SCHED);
	assert_false(napi_schedule_backlog(&n));
	assert_int_equal(n.state, NAPI_SCHED);
	assert_int_equal(n.sched_ok, 1);
	assert_int_equal(n.sched_missed, 0);
}

static void test_prefer_busy_poll_hand_back(void **state)
{
	struct napi n;
	struct napi_poll_result r;

	(void)state;
	napi_init(&n, 64);
	irq_schedules(&n);
	n.state |= NAPI_PREFER_BUSY_POLL;
	/* Full poll with PREFER_BUSY_POLL, no deferral: complete returns
	 * true, so napi_schedule() again: SCHED set anew, no IRQ rearm. */
	r = napi_poll_finish(&n, 64);
	assert_int_equal(r.next, NAPI_NEXT_HANDED_BACK);
	expect_done(r.done, false, true, 0);
	assert_int_equal(n.state, NAPI_SCHED);
	assert_int_equal(n.sched_ok, 2);
	assert_int_equal(n.completes, 1);
	assert_int_equal(n.repolls, 0);
}

static void test_prefer_busy_poll_deferred(void **state)
{
	struct napi n;
	struct napi_poll_result r;

	(void)state;
	napi_init(&n, 64);
	napi_set_defer(&n, 1, US(20));
	irq_schedules(&n);
	n.state |= NAPI_PREFER_BUSY_POLL;
	/* D=1, T=20us: complete (1 -> 0) arms the timer and returns false,
	 * so no napi_schedule(): SCHED clear, busy poller takes it. */
	r = napi_poll_finish(&n, 64);
	assert_int_equal(r.next, NAPI_NEXT_HANDED_BACK);
	expect_done(r.done, false, false, US(20));
	assert_int_equal(n.state, 0);
	assert_int_equal(n.sched_ok, 1);
}

static void test_prefer_busy_poll_missed(void **state)
{
	struct napi n;
	struct napi_poll_result r;

	(void)state;
	napi_init(&n, 64);
	irq_schedules(&n);
	n.state |= NAPI_PREFER_BUSY_POLL | NAPI_MISSED;
	/* MISSED inside the hand-back: complete already rescheduled. */
	r = napi_poll_finish(&n, 64);
	assert_int_equal(r.next, NAPI_NEXT_HANDED_BACK);
	expect_done(r.done, false, true, 0);
	assert_int_equal(n.state, NAPI_SCHED);
	assert_int_equal(n.sched_ok, 1);
}

/* Linux 6.13 "net: Suspend softirq when prefer_busy_poll is set": with an
 * irq-suspend-timeout, a hand-back to a waiting busy poller arms the long
 * timer, not gro_flush_timeout, and leaves defer_hard_irqs_count alone. */
static void test_prefer_busy_poll_suspend_hand_back(void **state)
{
	struct napi n;
	struct napi_poll_result r;

	(void)state;
	napi_init(&n, 64);
	napi_set_defer(&n, 100, US(20));
	napi_set_irq_suspend(&n, US(20000));
	irq_schedules(&n);
	n.state |= NAPI_PREFER_BUSY_POLL;
	r = napi_poll_finish(&n, 64);
	assert_int_equal(r.next, NAPI_NEXT_HANDED_BACK);
	expect_done(r.done, false, false, US(20000));
	assert_int_equal(n.state, 0);
	/* work > 0 reloads the count to 100; the suspend branch skips the
	 * decrement ("if (ret && count > 0)"). */
	assert_int_equal(n.defer_count, 100);
	/* Without PREFER_BUSY_POLL the suspend timeout plays no part. */
	irq_schedules(&n);
	expect_done(napi_complete_done(&n, 1, false), false, false, US(20));
	assert_int_equal(n.defer_count, 99);
}

/* busy_poll_stop() since 6.13: prefer + irq-suspend-timeout arms the
 * suspend timeout (skip_schedule) and does not reload the count. */
static void test_busy_poll_stop_suspend(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	napi_set_defer(&n, 100, US(20));
	napi_set_irq_suspend(&n, US(20000));
	assert_true(napi_busy_poll_claim(&n, true));
	n.defer_count = 7;
	assert_int_equal(napi_busy_poll_stop(&n, true), US(20000));
	assert_int_equal(n.defer_count, 7);
	assert_int_equal(n.state, NAPI_SCHED);
	/* Without prefer the suspend timeout is not used. */
	n.state = 0;
	assert_true(napi_busy_poll_claim(&n, false));
	assert_int_equal(napi_busy_poll_stop(&n, false), 0);
}

static void test_disable_pending_full_poll(void **state)
{
	struct napi n;
	struct napi_poll_result r;

	(void)state;
	napi_init(&n, 64);
	irq_schedules(&n);
	n.state |= NAPI_DISABLE;
	/* "napi_complete(n); return work;": completed, not repolled, and
	 * nobody unmasks. */
	r = napi_poll_finish(&n, 64);
	assert_int_equal(r.next, NAPI_NEXT_DONE);
	expect_done(r.done, false, false, 0);
	assert_int_equal(n.state, NAPI_DISABLE);
	assert_int_equal(n.repolls, 0);
	assert_int_equal(n.completes, 1);
}

static void test_threaded(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	/* Not threaded: the caller lists it; nothing changes. */
	irq_schedules(&n);
	assert_false(napi_schedule_threaded(&n));
	assert_int_equal(n.state, NAPI_SCHED);
	expect_done(napi_complete_done(&n, 1, false), true, false, 0);
	napi_set_threaded(&n, true);
	assert_int_equal(n.state, NAPI_THREADED);
	/* Threaded: SCHED_THREADED marks the kthread woken ... */
	irq_schedules(&n);
	assert_true(napi_schedule_threaded(&n));
	assert_int_equal(n.state, NAPI_THREADED | NAPI_SCHED | NAPI_SCHED_THREADED);
	/* ... and completion clears it with SCHED; THREADED stays. */
	expect_done(napi_complete_done(&n, 1, false), true, false, 0);
	assert_int_equal(n.state, NAPI_THREADED);
	/* Turned off while scheduled: only THREADED goes. */
	irq_schedules(&n);
	napi_set_threaded(&n, false);
	assert_int_equal(n.state, NAPI_SCHED);
	assert_false(napi_schedule_threaded(&n));
	assert_int_equal(n.sched_ok, 3);
}

/* threaded = busy-poll (Linux 6.19, commit c18d4b190a46): the kthread,
 * once woken, claims the NAPI each loop (IN_BUSY_POLL) and
 * napi_complete_done() then returns false and touches nothing: no re-arm,
 * no timer even with deferral configured, SCHED and SCHED_THREADED stay
 * (the kthread never sleeps).  Busy polling turned off: the next claim
 * clears IN_BUSY_POLL and the completion re-arms as usual. */
static void test_threaded_busy_poll(void **state)
{
	const uint32_t owned = NAPI_THREADED | NAPI_THREADED_BUSY_POLL | NAPI_SCHED |
			       NAPI_SCHED_THREADED;
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	napi_set_defer(&n, 2, US(50));
	napi_set_threaded(&n, NAPI_THREADED_BUSY);
	assert_int_equal(n.state, NAPI_THREADED | NAPI_THREADED_BUSY_POLL);
	irq_schedules(&n);
	assert_true(napi_schedule_threaded(&n));
	assert_int_equal(n.state, owned);
	for (int loop = 0; loop < 3; loop++) {
		assert_true(napi_thread_busy_poll(&n));
		assert_int_equal(n.state, owned | NAPI_IN_BUSY_POLL);
		/* a productive poll and an empty one alike */
		expect_done(napi_complete_done(&n, loop == 0 ? 5 : 0, false), false, false, 0);
		assert_int_equal(n.state, owned | NAPI_IN_BUSY_POLL);
	}
	assert_int_equal(n.rearms, 0);
	assert_int_equal(n.deferred, 0);
	assert_int_equal(n.defer_count, 0); /* step 1 returns before the reload */
	/* An IRQ cannot come (masked); a schedule attempt only marks MISSED. */
	assert_false(napi_schedule_prep(&n));
	/* Busy polling off (napi-set threaded enabled): plain threaded NAPI. */
	napi_set_threaded(&n, NAPI_THREADED_ON);
	assert_false(napi_thread_busy_poll(&n));
	assert_int_equal(n.state & (NAPI_IN_BUSY_POLL | NAPI_THREADED_BUSY_POLL), 0);
	/* MISSED from above: one more round, then deferral as configured */
	expect_done(napi_complete_done(&n, 0, false), false, true, 0);
	expect_done(napi_complete_done(&n, 1, false), false, false, US(50));
	assert_int_equal(n.state, NAPI_THREADED);
}

/* Busy polling needs THREADED_BUSY_POLL and no disable pending. */
static void test_threaded_busy_poll_needs_mode(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	napi_set_threaded(&n, NAPI_THREADED_ON);
	irq_schedules(&n);
	assert_true(napi_schedule_threaded(&n));
	assert_false(napi_thread_busy_poll(&n));
	expect_done(napi_complete_done(&n, 0, false), true, false, 0);
	napi_set_threaded(&n, NAPI_THREADED_BUSY);
	n.state |= NAPI_DISABLE;
	assert_false(napi_thread_busy_poll(&n));
	assert_int_equal(n.state & NAPI_IN_BUSY_POLL, 0);
	napi_set_threaded(&n, NAPI_THREADED_OFF);
	assert_int_equal(n.state, NAPI_DISABLE);
}

static void test_busy_poll_claim_and_stop(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	napi_set_defer(&n, 2, US(20));
	/* A free NAPI: the busy poller owns it. */
	assert_true(napi_busy_poll_claim(&n, false));
	assert_int_equal(n.state, NAPI_SCHED | NAPI_IN_BUSY_POLL);
	/* The hard IRQ finds it owned: MISSED. */
	assert_false(napi_schedule_prep(&n));
	/* Owned already: no claim; with prefer, PREFER_BUSY_POLL. */
	assert_false(napi_busy_poll_claim(&n, false));
	assert_int_equal(n.state, NAPI_SCHED | NAPI_IN_BUSY_POLL | NAPI_MISSED);
	assert_false(napi_busy_poll_claim(&n, true));
	assert_int_equal(n.state,
			 NAPI_SCHED | NAPI_IN_BUSY_POLL | NAPI_MISSED | NAPI_PREFER_BUSY_POLL);
	/* The driver's complete while the busy poller owns it: no change. */
	expect_done(napi_complete_done(&n, 3, false), false, false, 0);
	assert_int_equal(n.defer_count, 0);
	/* busy_poll_stop with prefer: MISSED and IN_BUSY_POLL go, the count
	 * is reloaded, the timer is armed for gro_flush_timeout. */
	assert_int_equal(napi_busy_poll_stop(&n, true), US(20));
	assert_int_equal(n.state, NAPI_SCHED | NAPI_PREFER_BUSY_POLL);
	assert_int_equal(n.defer_count, 2);
	/* A full last poll with the timer armed: SCHED goes. */
	napi_busy_poll_release(&n);
	assert_int_equal(n.state, NAPI_PREFER_BUSY_POLL);
	assert_int_equal(n.sched_ok, 0);
	assert_int_equal(n.sched_missed, 1);
}

static void test_busy_poll_stop_no_timer(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	napi_set_defer(&n, 2, US(20));
	/* Without prefer: no reload, no timer. */
	assert_true(napi_busy_poll_claim(&n, false));
	assert_int_equal(napi_busy_poll_stop(&n, false), 0);
	assert_int_equal(n.defer_count, 0);
	assert_int_equal(n.state, NAPI_SCHED);
	/* The last poll did less than its budget: a plain complete, which
	 * reloads and spends one deferral (defer_count 2 -> 1). */
	expect_done(napi_complete_done(&n, 1, false), false, false, US(20));
	assert_int_equal(n.defer_count, 1);
	/* Prefer with no gro_flush_timeout: reloaded, no timer. */
	napi_set_defer(&n, 3, 0);
	assert_true(napi_busy_poll_claim(&n, true));
	assert_int_equal(napi_busy_poll_stop(&n, true), 0);
	assert_int_equal(n.defer_count, 3);
	/* Prefer with the timeout and no deferral: no timer either. */
	napi_set_defer(&n, 0, US(20));
	assert_int_equal(napi_busy_poll_stop(&n, true), 0);
	assert_int_equal(n.defer_count, 0);
	/* DISABLE pending: no claim, and prefer sets nothing. */
	n.state = NAPI_DISABLE;
	assert_false(napi_busy_poll_claim(&n, false));
	assert_int_equal(n.state, NAPI_DISABLE);
}

/* __busy_poll_stop(napi, false): the last poll was full and no timer is
 * armed, so the busy poller's SCHED goes to softirq as it is. */
static void test_busy_poll_stop_full_hands_to_softirq(void **state)
{
	struct napi n;

	(void)state;
	napi_init(&n, 64);
	assert_true(napi_busy_poll_claim(&n, false));
	/* A hard IRQ while the busy poller owns it: MISSED. */
	assert_false(napi_schedule_prep(&n));
	assert_int_equal(napi_busy_poll_stop(&n, false), 0);
	assert_int_equal(n.state, NAPI_SCHED);
	/* The full last poll: __napi_schedule() keeps SCHED, and a NAPI that
	 * is not threaded goes on the poll list. */
	assert_false(napi_schedule_threaded(&n));
	assert_int_equal(n.state, NAPI_SCHED);
	/* softirq's poll does 3 < 64: complete and re-arm, NAPI free. */
	expect_done(napi_complete_done(&n, 3, false), true, false, 0);
	assert_int_equal(n.state, 0);
	/* napi_schedule_prep() at that point (the simulator's old call)
	 * cannot take ownership: it leaves SCHED | MISSED with nobody to
	 * poll. */
	assert_true(napi_busy_poll_claim(&n, false));
	assert_int_equal(napi_busy_poll_stop(&n, false), 0);
	assert_false(napi_schedule_prep(&n));
	assert_int_equal(n.state, NAPI_SCHED | NAPI_MISSED);
	assert_int_equal(n.sched_ok, 0);
	assert_int_equal(n.sched_missed, 2);
	/* A threaded NAPI: __napi_schedule() wakes the kthread. */
	napi_init(&n, 64);
	napi_set_threaded(&n, true);
	assert_true(napi_busy_poll_claim(&n, false));
	assert_int_equal(napi_busy_poll_stop(&n, false), 0);
	assert_true(napi_schedule_threaded(&n));
	assert_int_equal(n.state, NAPI_THREADED | NAPI_SCHED | NAPI_SCHED_THREADED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_schedule_prep),
		cmocka_unit_test(test_schedule_prep_disabled),
		cmocka_unit_test(test_complete_plain),
		cmocka_unit_test(test_complete_missed),
		cmocka_unit_test(test_budget_exhausted_repolls),
		cmocka_unit_test(test_small_weight),
		cmocka_unit_test(test_defer_two_empty_polls),
		cmocka_unit_test(test_defer_productive_reloads),
		cmocka_unit_test(test_defer_without_timeout_is_plain),
		cmocka_unit_test(test_timeout_without_defer),
		cmocka_unit_test(test_in_busy_poll),
		cmocka_unit_test(test_missed_with_defer),
		cmocka_unit_test(test_watchdog),
		cmocka_unit_test(test_prefer_busy_poll_hand_back),
		cmocka_unit_test(test_prefer_busy_poll_deferred),
		cmocka_unit_test(test_prefer_busy_poll_missed),
		cmocka_unit_test(test_disable_pending_full_poll),
		cmocka_unit_test(test_schedule_backlog),
		cmocka_unit_test(test_threaded),
		cmocka_unit_test(test_threaded_busy_poll),
		cmocka_unit_test(test_threaded_busy_poll_needs_mode),
		cmocka_unit_test(test_prefer_busy_poll_suspend_hand_back),
		cmocka_unit_test(test_busy_poll_stop_suspend),
		cmocka_unit_test(test_busy_poll_claim_and_stop),
		cmocka_unit_test(test_busy_poll_stop_no_timer),
		cmocka_unit_test(test_busy_poll_stop_full_hands_to_softirq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
