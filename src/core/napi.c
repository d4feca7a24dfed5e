/* napi.c - the NAPI instance state machine (see include/rxlab/napi.h).
 *
 * Roadmap, in the order a packet meets them (net/core/dev.c, Linux 6.18):
 *   napi_schedule_prep()  hard IRQ claims ownership (SCHED), or marks MISSED;
 *   napi_complete_done()  the driver's poll did less than its budget: decide
 *                         between re-enabling the IRQ, arming the hrtimer
 *                         (hard-IRQ deferral) and another round (MISSED);
 *   napi_poll_finish()    what __napi_poll() does with a full-budget poll;
 *   napi_watchdog()       the hrtimer expired;
 *   napi_schedule_backlog() enqueue_to_backlog() claims the per-CPU backlog;
 *   napi_set_threaded(), napi_schedule_threaded()  threaded NAPI;
 *   napi_thread_busy_poll()  threaded busy polling (threaded = busy-poll);
 *   napi_busy_poll_claim(), _stop(), _release()    a busy poller's ownership
 *                         (napi_busy_loop(), busy_poll_stop()).
 *
 * napi_complete_done() first classifies the call into one enum napi_outcome
 * and then applies it in one switch, so every outcome updates the state,
 * the counters and the decision in one place.
 *
 * Pure: no libc beyond what the compiler emits.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rxlab/napi.h"

/* The four ends of napi_complete_done(). */
enum napi_outcome {
	NAPI_OUT_BUSY,     /* IN_BUSY_POLL: the busy poller owns it, no change */
	NAPI_OUT_MISSED,   /* MISSED: SCHED kept, one more poll round */
	NAPI_OUT_DEFERRED, /* defer count > 0 and a timeout: IRQ stays masked */
	NAPI_OUT_REARM,    /* IRQ re-enabled (timer armed for GRO only if any) */
};

/* Bits napi_complete_done() clears in its cmpxchg loop. */
#define NAPI_COMPLETE_CLEAR \
	(NAPI_SCHED | NAPI_MISSED | NAPI_SCHED_THREADED | NAPI_PREFER_BUSY_POLL)

void napi_init(struct napi *n, uint32_t weight)
{
	memset(n, 0, sizeof(*n));
	/* netif_napi_add_weight() only logs a weight above NAPI_POLL_WEIGHT;
	 * the value is kept as given. */
	n->weight = weight;
}

void napi_set_defer(struct napi *n, uint32_t defer_hard_irqs, int64_t gro_flush_timeout_ns)
{
	/* napi_set_defer_hard_irqs() / napi_set_gro_flush_timeout() do not
	 * touch defer_hard_irqs_count; the next productive poll reloads it. */
	n->defer_hard_irqs = defer_hard_irqs;
	n->gro_flush_timeout_ns = gro_flush_timeout_ns;
}

/* gro_flush_timeout is an unsigned long in the kernel; a negative value
 * here can only be a caller error and is read as "not set". */
static int64_t napi_flush_timeout(const struct napi *n)
{
	return n->gro_flush_timeout_ns > 0 ? n->gro_flush_timeout_ns : 0;
}

void napi_set_irq_suspend(struct napi *n, int64_t irq_suspend_timeout_ns)
{
	n->irq_suspend_timeout_ns = irq_suspend_timeout_ns;
}

/* irq_suspend_timeout is unsigned in the kernel; negative reads as unset. */
static int64_t napi_suspend_timeout(const struct napi *n)
{
	return n->irq_suspend_timeout_ns > 0 ? n->irq_suspend_timeout_ns : 0;
}

bool napi_schedule_prep(struct napi *n)
{
	uint32_t val = n->state;

	/* net/core/dev.c napi_schedule_prep(): fail on DISABLE; set SCHED,
	 * and MISSED too when SCHED was already set; own it only if SCHED
	 * was clear. */
	if (val & NAPI_DISABLE)
		return false;
	n->state = val | NAPI_SCHED;
	if (val & NAPI_SCHED) {
		n->state |= NAPI_MISSED;
		n->sched_missed++;
		return false;
	}
	n->sched_ok++;
	return true;
}

/* Steps 2-3 of napi_complete_done(): the timeout to arm (0 = none) and
 * whether it replaces the IRQ re-arm (*defer). */
static int64_t napi_defer_step(struct napi *n, uint32_t work_done, bool gro_pending,
			       bool *defer)
{
	int64_t timeout = 0;

	*defer = false;
	/* "if (work_done) { if (n->gro.bitmask) timeout = gro_flush_timeout;
	 * n->defer_hard_irqs_count = napi_defer_hard_irqs; }" */
	if (work_done > 0) {
		if (gro_pending)
			timeout = napi_flush_timeout(n);
		n->defer_count = n->defer_hard_irqs;
	}
	/* Since 6.13 ("net: Suspend softirq when prefer_busy_poll is set"):
	 * "if (napi_prefer_busy_poll(n)) { timeout = irq_suspend_timeout;
	 * if (timeout) ret = false; }" - a busy poller asked for the NAPI, so
	 * hand it over with the long timer: the application, not the
	 * gro_flush_timeout watchdog, polls next. */
	if (n->state & NAPI_PREFER_BUSY_POLL) {
		timeout = napi_suspend_timeout(n);
		*defer = timeout != 0;
	}
	/* "if (ret && n->defer_hard_irqs_count > 0) { count--; timeout =
	 * gro_flush_timeout; if (timeout) ret = false; }" */
	if (!*defer && n->defer_count > 0) {
		n->defer_count--;
		timeout = napi_flush_timeout(n);
		*defer = timeout != 0;
	}
	return timeout;
}

/* Step 6: clear SCHED, MISSED, SCHED_THREADED, PREFER_BUSY_POLL, but keep
 * SCHED when MISSED was set.  Returns whether MISSED was set. */
static bool napi_clear_sched(struct napi *n)
{
	uint32_t val = n->state;

	n->state = val & ~(uint32_t)NAPI_COMPLETE_CLEAR;
	if (val & NAPI_MISSED)
		n->state |= NAPI_SCHED;
	return (val & NAPI_MISSED) != 0;
}

static enum napi_outcome napi_classify(struct napi *n, uint32_t work_done, bool gro_pending,
				       int64_t *timeout)
{
	bool defer;

	/* Step 1: "if (n->state & (NPSVC | IN_BUSY_POLL)) return false",
	 * before any state is touched. */
	if (n->state & NAPI_IN_BUSY_POLL)
		return NAPI_OUT_BUSY;
	*timeout = napi_defer_step(n, work_done, gro_pending, &defer);
	if (napi_clear_sched(n))
		return NAPI_OUT_MISSED;
	return defer ? NAPI_OUT_DEFERRED : NAPI_OUT_REARM;
}

struct napi_done napi_complete_done(struct napi *n, uint32_t work_done, bool gro_pending)
{
	struct napi_done d = { .rearm_irq = false, .reschedule = false, .timer_ns = 0 };
	int64_t timeout = 0;

	n->completes++;
	switch (napi_classify(n, work_done, gro_pending, &timeout)) {
	case NAPI_OUT_BUSY:
		break;
	case NAPI_OUT_MISSED:
		/* Step 7: __napi_schedule() and return false; the timer is
		 * not armed on this path (the return precedes hrtimer_start). */
		d.reschedule = true;
		break;
	case NAPI_OUT_DEFERRED:
		/* Steps 8-9: hrtimer_start(timeout), ret == false. */
		d.timer_ns = timeout;
		n->deferred++;
		break;
	case NAPI_OUT_REARM:
		/* gro_flush_timeout alone arms the timer only to flush GRO
		 * and keeps ret true: "does not change the prior behavior"
		 * (commit 6f8b12d661d0). */
		d.timer_ns = timeout;
		d.rearm_irq = true;
		n->rearms++;
		break;
	}
	return d;
}

/* __napi_poll() with a poll that used its whole weight and a busy poller
 * waiting (PREFER_BUSY_POLL): "if (napi_complete_done(n, work))
 * napi_schedule(n);" - hand the NAPI back instead of repolling.  The
 * napi_schedule() is expressed as .done.reschedule = true with
 * .done.rearm_irq = false: SCHED is set again here (napi_schedule_prep()),
 * so, as for MISSED, the caller only puts the NAPI on a poll list and the
 * IRQ stays masked.  GRO state is not an input here, so a gro_flush_timeout
 * without deferral arms no GRO-only timer on this path; the NAPI is
 * rescheduled at once anyway. */
static struct napi_done napi_hand_back(struct napi *n, uint32_t work)
{
	struct napi_done d = napi_complete_done(n, work, false);

	if (d.rearm_irq) {
		d.rearm_irq = false;
		d.reschedule = napi_schedule_prep(n);
	}
	return d;
}

static enum napi_poll_next napi_poll_next_of(const struct napi *n, uint32_t work)
{
	/* "if (likely(work < weight)) return work;" - a driver returning
	 * more than weight takes the exhausted path too (after a log). */
	if (work < n->weight)
		return NAPI_NEXT_DONE;
	if (n->state & NAPI_PREFER_BUSY_POLL)
		return NAPI_NEXT_HANDED_BACK;
	return NAPI_NEXT_REPOLL;
}

struct napi_poll_result napi_poll_finish(struct napi *n, uint32_t work)
{
	struct napi_poll_result r = { .next = napi_poll_next_of(n, work) };

	/* A full poll with DISABLE pending: "napi_complete(n); return work;"
	 * napi_complete() is napi_complete_done(n, 0); its return value is
	 * ignored (the device is going down, nobody unmasks).  Reported as
	 * DONE with .done filled in. */
	if (r.next != NAPI_NEXT_DONE && (n->state & NAPI_DISABLE)) {
		r.next = NAPI_NEXT_DONE;
		r.done = napi_complete_done(n, 0, false);
		r.done.rearm_irq = false;
		return r;
	}
	switch (r.next) {
	case NAPI_NEXT_DONE:
		break;
	case NAPI_NEXT_REPOLL:
		/* "*repoll = true": SCHED kept, tail of the repoll list. */
		n->repolls++;
		break;
	case NAPI_NEXT_HANDED_BACK:
		r.done = napi_hand_back(n, work);
		break;
	}
	return r;
}

bool napi_schedule_backlog(struct napi *n)
{
	/* net/core/dev.c enqueue_to_backlog():
	 * "if (!__test_and_set_bit(NAPI_STATE_SCHED, &sd->backlog.state))". */
	if (n->state & NAPI_SCHED)
		return false;
	n->state |= NAPI_SCHED;
	n->sched_ok++;
	return true;
}

bool napi_watchdog(struct napi *n)
{
	n->watchdog_fires++;
	/* net/core/dev.c napi_watchdog(): a relaxed napi_schedule_prep()
	 * that does not set MISSED (no device IRQ); "if
	 * (!napi_disable_pending(napi) && !test_and_set_bit(SCHED))". */
	if (n->state & (NAPI_DISABLE | NAPI_SCHED))
		return false;
	n->state |= NAPI_SCHED;
	n->state &= ~(uint32_t)NAPI_PREFER_BUSY_POLL;
	n->watchdog_scheds++;
	return true;
}

void napi_set_threaded(struct napi *n, enum napi_threaded mode)
{
	/* napi_set_threaded_state() (Linux 6.19): "set_mask_bits(&napi->state,
	 * NAPIF_STATE_THREADED_BUSY_POLL_MASK, val)" with THREADED for any
	 * mode but disabled and THREADED_BUSY_POLL for busy-poll only. */
	n->state &= ~(uint32_t)(NAPI_THREADED | NAPI_THREADED_BUSY_POLL);
	if (mode != NAPI_THREADED_OFF)
		n->state |= NAPI_THREADED;
	if (mode == NAPI_THREADED_BUSY)
		n->state |= NAPI_THREADED_BUSY_POLL;
}

bool napi_thread_busy_poll(struct napi *n)
{
	/* napi_threaded_poll() after napi_thread_wait() (commit c18d4b190a46,
	 * Samiullah Khawaja, Linux 6.19): want_busy_poll is THREADED_BUSY_POLL
	 * without DISABLE, and "assign_bit(NAPI_STATE_IN_BUSY_POLL, ...,
	 * want_busy_poll)" when it changed; IN_BUSY_POLL is what makes
	 * napi_complete_done() return false (shared/reference/modern-host.md
	 * 4.2; the stable fix "keep last_qs" of YiFei Zhu shows the merged
	 * loop). */
	bool busy = (n->state & NAPI_THREADED_BUSY_POLL) && !(n->state & NAPI_DISABLE);

	if (busy)
		n->state |= NAPI_IN_BUSY_POLL;
	else
		n->state &= ~(uint32_t)NAPI_IN_BUSY_POLL;
	return busy;
}

bool napi_schedule_threaded(struct napi *n)
{
	/* ____napi_schedule(): "if (test_bit(NAPI_STATE_THREADED, ...)) {
	 * set_bit(NAPI_STATE_SCHED_THREADED, ...); wake_up_process(thread);
	 * return; }" - the list and NET_RX otherwise. */
	if (!(n->state & NAPI_THREADED))
		return false;
	n->state |= NAPI_SCHED_THREADED;
	return true;
}

bool napi_busy_poll_claim(struct napi *n, bool prefer)
{
	/* napi_busy_loop(): "if (val & (NAPIF_STATE_DISABLE | NAPIF_STATE_SCHED
	 * | NAPIF_STATE_IN_BUSY_POLL)) { if (flags & NAPI_F_PREFER_BUSY_POLL)
	 * set_bit(NAPI_STATE_PREFER_BUSY_POLL, ...); goto count; }" then the
	 * cmpxchg to val | IN_BUSY_POLL | SCHED. */
	if (n->state & (NAPI_SCHED | NAPI_DISABLE | NAPI_IN_BUSY_POLL)) {
		if (prefer)
			n->state |= NAPI_PREFER_BUSY_POLL;
		return false;
	}
	n->state |= NAPI_SCHED | NAPI_IN_BUSY_POLL;
	return true;
}

int64_t napi_busy_poll_stop(struct napi *n, bool prefer)
{
	/* busy_poll_stop(): "clear_bit(NAPI_STATE_MISSED); clear_bit(
	 * NAPI_STATE_IN_BUSY_POLL); if (flags & NAPI_F_PREFER_BUSY_POLL) {
	 * napi->defer_hard_irqs_count = napi_get_defer_hard_irqs(napi);
	 * timeout = napi_get_gro_flush_timeout(napi); if (count && timeout)
	 * { hrtimer_start(timeout); skip_schedule = true; } }" */
	n->state &= ~(uint32_t)(NAPI_MISSED | NAPI_IN_BUSY_POLL);
	if (!prefer)
		return 0;
	/* Since 6.13: "timeout = napi_get_irq_suspend_timeout(napi); if
	 * (!timeout) { reload defer count; if (count) timeout =
	 * gro_flush_timeout; }" - the suspend timer covers the time the
	 * application takes to come back to its next busy poll. */
	if (napi_suspend_timeout(n))
		return napi_suspend_timeout(n);
	n->defer_count = n->defer_hard_irqs;
	return n->defer_count ? napi_flush_timeout(n) : 0;
}

void napi_busy_poll_release(struct napi *n)
{
	/* __busy_poll_stop(napi, true): "clear_bit(NAPI_STATE_SCHED)". */
	n->state &= ~(uint32_t)NAPI_SCHED;
}
