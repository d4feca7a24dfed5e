/* napi.h - the Linux NAPI instance state machine (pure; no OS, no clock).
 *
 * Follows net/core/dev.c of Linux 6.18 (see shared/reference/
 * kernel-mechanisms.md sections 1.2-1.7 and 2.2): the state bits, the
 * ownership rule of napi_schedule_prep(), the return value of
 * napi_complete_done() with the MISSED rule and hard-IRQ deferral
 * (napi_defer_hard_irqs + gro_flush_timeout), what __napi_poll() does with a
 * budget-exhausted poll, and the hrtimer watchdog.
 *
 * The caller (simulator, live engine, replay) owns lists, timers and the
 * device: every function returns a decision and the caller applies it
 * (unmask the IRQ, put the NAPI on a poll list, arm a timer).
 */
#ifndef RXLAB_RXLAB_NAPI_H
#define RXLAB_RXLAB_NAPI_H

#include <stdbool.h>
#include <stdint.h>

#define NAPI_POLL_WEIGHT 64 /* include/linux/netdevice.h */

/* napi->state bits (include/linux/netdevice.h NAPI_STATE_*). */
enum napi_state_bit {
	NAPI_SCHED = 1u << 0,            /* owned: scheduled or being polled */
	NAPI_MISSED = 1u << 1,           /* schedule attempted while SCHED was set */
	NAPI_DISABLE = 1u << 2,          /* disable pending */
	NAPI_IN_BUSY_POLL = 1u << 3,     /* a busy poller owns it: do not rearm IRQ */
	NAPI_PREFER_BUSY_POLL = 1u << 4, /* busy poller asked softirq to hand it back */
	NAPI_THREADED = 1u << 5,         /* polled by a kthread, not softirq */
	NAPI_SCHED_THREADED = 1u << 6,   /* the kthread has been woken for it */
	NAPI_THREADED_BUSY_POLL = 1u << 7, /* its kthread busy polls (threaded = busy-poll) */
};

/* napi-set threaded (enum netdev_napi_threaded, include/uapi/linux/netdev.h):
 * disabled, enabled, busy-poll (Linux 6.19, commit c18d4b190a46). */
enum napi_threaded {
	NAPI_THREADED_OFF = 0,       /* softirq polls it */
	NAPI_THREADED_ON = 1,        /* its kthread polls it, and sleeps when done */
	NAPI_THREADED_BUSY = 2,      /* its kthread polls it and never lets it go */
};

struct napi {
	uint32_t state;               /* enum napi_state_bit set */
	uint32_t weight;              /* max packets per poll() call, normally 64 */
	/* configuration (sysfs / netdev netlink napi-set) */
	uint32_t defer_hard_irqs;     /* napi_defer_hard_irqs */
	int64_t gro_flush_timeout_ns; /* gro_flush_timeout, ns */
	int64_t irq_suspend_timeout_ns; /* irq-suspend-timeout, ns (0 = off) */
	/* deferral state */
	uint32_t defer_count;         /* defer_hard_irqs_count */
	/* counters */
	uint64_t sched_ok;            /* napi_schedule_prep() that took ownership */
	uint64_t sched_missed;        /* ... that found SCHED set (MISSED) */
	uint64_t completes;           /* napi_complete_done() calls */
	uint64_t rearms;              /* ... that returned true (IRQ re-enabled) */
	uint64_t deferred;            /* ... that armed the timer instead */
	uint64_t repolls;             /* budget-exhausted polls kept on the list */
	uint64_t watchdog_fires;      /* napi_watchdog() calls: timer expiries */
	uint64_t watchdog_scheds;     /* ... that scheduled the NAPI */
	/* The counters are the core's: only these functions write them, the
	 * caller reads them. */
};

/* Zeroed state, weight @weight (1..64), no deferral. */
void napi_init(struct napi *n, uint32_t weight);

/* Set napi_defer_hard_irqs and gro_flush_timeout (ns). */
void napi_set_defer(struct napi *n, uint32_t defer_hard_irqs, int64_t gro_flush_timeout_ns);

/* Set irq-suspend-timeout (ns, 0 = off): the timer a busy poller's
 * busy_poll_stop() and a hand-back under PREFER_BUSY_POLL arm instead of
 * gro_flush_timeout (Linux 6.13, "net: Suspend softirq when
 * prefer_busy_poll is set"). */
void napi_set_irq_suspend(struct napi *n, int64_t irq_suspend_timeout_ns);

/* napi_schedule_prep(): false if DISABLE is set.  Otherwise sets SCHED; if
 * SCHED was already set also sets MISSED and returns false; returns true
 * only when the caller now owns the NAPI and must put it on a poll list
 * (or wake its kthread when THREADED). */
bool napi_schedule_prep(struct napi *n);

/* Decision of napi_complete_done(). */
struct napi_done {
	bool rearm_irq;     /* true only when the driver should unmask its IRQ now */
	bool reschedule;    /* MISSED was set: caller schedules another poll round.
	                     * SCHED is already held: put the NAPI on a poll list
	                     * (or wake its kthread); do not call
	                     * napi_schedule_prep() again (it would set MISSED) */
	int64_t timer_ns;   /* >0: arm the NAPI hrtimer for this long (relative) */
};

/* napi_complete_done(n, work_done), called by a driver whose poll did less
 * than its budget.  @gro_pending: GRO still holds packets.  Steps of
 * net/core/dev.c: return false while IN_BUSY_POLL; a productive poll
 * (work_done > 0) reloads defer_count from defer_hard_irqs; with
 * PREFER_BUSY_POLL set (a busy poller waits) an irq-suspend-timeout keeps
 * the IRQ masked and arms the timer for it, defer_count untouched;
 * otherwise a positive defer_count is decremented and, if
 * gro_flush_timeout is set, keeps the IRQ masked and arms the timer; SCHED, MISSED, SCHED_THREADED and
 * PREFER_BUSY_POLL clear, except that MISSED keeps SCHED and asks for a
 * reschedule (returning false).  gro_flush_timeout alone (defer 0) arms the
 * timer only when @gro_pending and still rearms the IRQ. */
struct napi_done napi_complete_done(struct napi *n, uint32_t work_done, bool gro_pending);

/* What __napi_poll() does after a poll that returned @work. */
enum napi_poll_next {
	NAPI_NEXT_DONE,        /* work < weight: the driver already completed */
	NAPI_NEXT_REPOLL,      /* work == weight: keep SCHED, move to the repoll list */
	NAPI_NEXT_HANDED_BACK, /* work == weight with PREFER_BUSY_POLL: completed and,
	                        * if that returned true, rescheduled (see .done) */
};
struct napi_poll_result {
	enum napi_poll_next next;
	struct napi_done done; /* valid for NAPI_NEXT_HANDED_BACK, and for
	                        * NAPI_NEXT_DONE after a full poll with DISABLE
	                        * pending (napi_complete(); rearm_irq false);
	                        * zero otherwise */
};
struct napi_poll_result napi_poll_finish(struct napi *n, uint32_t work);

/* enqueue_to_backlog()'s test_and_set of SCHED on the per-CPU backlog
 * pseudo-NAPI: true (counted in sched_ok) when SCHED was clear and is now
 * set, and the caller raises NET_RX; false when it was already set.  Never
 * sets MISSED (frames that arrive during process_backlog() are its own). */
bool napi_schedule_backlog(struct napi *n);

/* napi_set_threaded() (dev_set_threaded, the sysfs "threaded" knob, netdev
 * napi-set threaded): THREADED for @mode ON and BUSY, THREADED_BUSY_POLL
 * for BUSY only, both cleared for OFF (napi_set_threaded_state()).  A
 * threaded NAPI is polled by its kthread.  A change applies from the
 * kthread's next napi_thread_busy_poll(). */
void napi_set_threaded(struct napi *n, enum napi_threaded mode);

/* napi_threaded_poll(), each time the kthread owns the NAPI (after
 * napi_thread_wait(), SCHED_THREADED set) and is about to poll: true when
 * it busy polls - THREADED_BUSY_POLL set, no DISABLE pending - and then
 * IN_BUSY_POLL is set, so that napi_complete_done() returns false without
 * touching the state: the driver leaves its IRQ masked, SCHED and
 * SCHED_THREADED stay, and the kthread polls again without sleeping.
 * False otherwise, and IN_BUSY_POLL is cleared: the next
 * napi_complete_done() completes as usual (re-arming the IRQ) and the
 * kthread sleeps once SCHED is gone. */
bool napi_thread_busy_poll(struct napi *n);

/* ____napi_schedule()'s first step, for a NAPI the caller owns (SCHED set):
 * when THREADED, set SCHED_THREADED and return true, and the caller wakes
 * the kthread; false when not threaded, and the caller puts the NAPI on
 * its CPU's poll list and raises NET_RX. */
bool napi_schedule_threaded(struct napi *n);

/* napi_busy_loop()'s claim: when none of SCHED, DISABLE, IN_BUSY_POLL is
 * set, set SCHED | IN_BUSY_POLL and return true (the busy poller owns the
 * NAPI, and napi_complete_done() leaves the IRQ alone).  Otherwise return
 * false, and with @prefer (SO_PREFER_BUSY_POLL) set PREFER_BUSY_POLL so
 * that softirq hands the NAPI back after a full poll. */
bool napi_busy_poll_claim(struct napi *n, bool prefer);

/* busy_poll_stop() of a busy poller that owns the NAPI, before its last
 * poll: clear MISSED and IN_BUSY_POLL.  With @prefer and an
 * irq-suspend-timeout, return that timeout (defer_count untouched); with
 * @prefer and none, reload defer_count from defer_hard_irqs and return
 * gro_flush_timeout when both are set.  A positive return is the ns to arm
 * the NAPI hrtimer for - then the caller skips the reschedule after a
 * full last poll (napi_busy_poll_release()) - else 0.  After a last poll
 * of less than its budget the caller calls napi_complete_done().  After a
 * full last poll with 0 returned, SCHED is still held and the caller does
 * __napi_schedule(): napi_schedule_threaded(), else onto a poll list - not
 * napi_schedule_prep(), which would only set MISSED. */
int64_t napi_busy_poll_stop(struct napi *n, bool prefer);

/* __busy_poll_stop() with skip_schedule: the last poll was full and the
 * timer is armed: clear SCHED; the timer's napi_watchdog() reschedules. */
void napi_busy_poll_release(struct napi *n);

/* napi_watchdog(): the hrtimer expired.  Returns true when the caller must
 * schedule the NAPI (SCHED was clear and is now set; PREFER_BUSY_POLL is
 * cleared).  Returns false if it is already owned (e.g. by a busy poller). */
bool napi_watchdog(struct napi *n);

#endif
