/* hybrid.h - rxlab's hybrid receive switch: sleep on readiness when packets
 * come slower than a wake-up costs, poll when they come faster - in timed
 * batches (naps) rather than by spinning (pure; no OS, no clock).
 *
 * A receive loop that spins costs the whole CPU while it waits; one that
 * sleeps costs one sleep + wake-up (wake_cost_ns of CPU, and latency) per
 * wake-up.  Waiting for the next packet on readiness is therefore the
 * cheaper way exactly when the expected gap to the next packet is above
 * wake_cost_ns.  The switch estimates that gap from the polls themselves:
 * at each productive poll, the time since the previous productive poll
 * divided by the packets found (empty polls in between do not count),
 * folded into an exponentially weighted mean with weight 1/8 (as
 * Jacobson's RTT estimator).  The first estimate after idle restarts from
 * the sample, and counts the sleep as part of the gap, so one packet after
 * a long idle period does not look like a flow.
 *
 * After each poll the switch picks one of four answers, first match wins:
 *
 *   1. POLL  the poll was full (budget packets): the queue is backlogged.
 *   2. NAP   packets are flowing (this poll found some, or the last
 *            decision was to poll: a backlog was just drained), they come
 *            faster than a wake-up costs (gap < wake_cost_ns), and a nap
 *            of nap_max_ns pays: nap_max_ns >= wake_cost_ns (a shorter nap
 *            costs more than spinning through it) and nap_max_ns >= 2 * gap
 *            (a shorter one is no batch).  Sleep for nap_max_ns on a timer,
 *            without waking for readiness, then poll: one wake-up collects
 *            about nap_max_ns / gap packets, where spinning would burn the
 *            CPU between them and readiness would wake for each.  The price
 *            is added latency, up to nap_max_ns plus how late the timer
 *            wakes the loop.  A nap that collects more than a poll's budget
 *            is drained by rule 1.  The nap ends at nap_until_ns.
 *   3. POLL  (spin) the time since the last packet is below
 *              window = clamp(4 * gap, wake_cost_ns, spin_max_ns)  if gap < wake_cost_ns
 *              window = 0                                         otherwise
 *            a queue that went quiet costs at most spin_max_ns of
 *            spinning.  With naps on, only a nap that does not pay
 *            (nap_max_ns below wake_cost_ns or 2 * gap) comes here.
 *   4. SLEEP wait for readiness: the gap is above wake_cost_ns, or the
 *            queue went quiet - in particular a nap that found nothing.
 *
 * nap_max_ns = 0 turns rule 2 off: the switch as it was before naps, which
 * spins whenever the gap is below wake_cost_ns.
 *
 * Calling convention, by the receive loop:
 *   hybrid_init(&h, &cfg, now);
 *   loop: n = poll(budget); a = hybrid_after_poll(&h, now, n, budget);
 *         SLEEP: wait for readiness;  NAP: sleep until h.nap_until_ns
 *         (a timer; readiness does not end it);  POLL: poll again.
 *
 * Times are int64_t nanoseconds of one clock chosen by the caller.
 */
#ifndef RXLAB_RXLAB_HYBRID_H
#define RXLAB_RXLAB_HYBRID_H

#include <stdint.h>

struct hybrid_config {
	int64_t wake_cost_ns;   /* CPU + latency cost of one sleep and wake-up, > 0 */
	int64_t spin_max_ns;    /* longest spin after the last packet, >= 0 */
	int64_t nap_max_ns;     /* longest nap: the latency a nap may add, >= 0; 0 = no naps */
};

enum hybrid_state {
	HYBRID_SLEEPING = 0,    /* the last decision was to sleep on readiness */
	HYBRID_POLLING,         /* the last decision was to poll again */
	HYBRID_NAPPING,         /* the last decision was to nap on a timer */
};

enum hybrid_action {
	HYBRID_SLEEP = 0,       /* wait for readiness */
	HYBRID_POLL,            /* poll again now */
	HYBRID_NAP,             /* sleep until nap_until_ns (a timer), then poll */
};

/* Invariants: gap_ns >= 0; t_last_poll_ns and t_last_pkt_ns never go back;
 * nap_until_ns > t_last_poll_ns right after a HYBRID_NAP answer. */
struct hybrid {
	struct hybrid_config cfg;
	enum hybrid_state state;
	int64_t gap_ns;          /* estimated mean gap between packets; starts at INT64_MAX / 16 (idle) */
	int64_t t_last_poll_ns;  /* time of the previous poll */
	int64_t t_last_pkt_ns;   /* time of the last productive poll (t0 before the first) */
	int64_t nap_until_ns;    /* end of the nap the last HYBRID_NAP asked for */
	/* counters */
	uint64_t to_poll;        /* switches into POLLING */
	uint64_t to_sleep;       /* switches into SLEEPING */
	uint64_t to_nap;         /* switches into NAPPING */
	uint64_t naps;           /* HYBRID_NAP answers, consecutive ones included */
};

/* Idle (SLEEPING, no packets seen) at @t0_ns; returns 0.  Returns -1, with
 * @h untouched, unless @cfg has wake_cost_ns > 0, spin_max_ns >= 0 and
 * nap_max_ns >= 0 (core does not assert: the caller checks). */
int hybrid_init(struct hybrid *h, const struct hybrid_config *cfg, int64_t t0_ns);

/* The spin window after the last packet for the current estimate (rule 3),
 * ns; 0 means sleep as soon as a poll comes back empty. */
int64_t hybrid_window(const struct hybrid *h);

/* The nap rule 2 takes while packets flow, for the current estimate, ns:
 * nap_max_ns, or 0 when it takes none (naps off, gap >= wake_cost_ns, or
 * the nap does not pay). */
int64_t hybrid_nap(const struct hybrid *h);

/* A poll that returned @n of at most @budget packets finished at @now_ns
 * (non-decreasing; an earlier time counts as the previous poll's).  A
 * @budget of 0 is never full: rule 1 does not apply.  Returns what to do next (rules 1-4 above), sets
 * nap_until_ns for HYBRID_NAP, and counts a switch when the state changes. */
enum hybrid_action hybrid_after_poll(struct hybrid *h, int64_t now_ns, uint32_t n,
				     uint32_t budget);

#endif
