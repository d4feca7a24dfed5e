/* hybrid.h - rxlab's hybrid receive switch: poll while busy, sleep when idle
 * (pure; no OS, no clock).
 *
 * A receive loop that spins costs the whole CPU while it waits; one that
 * sleeps costs one sleep + wake-up (wake_cost_ns of CPU, and latency) per
 * wake-up.  Waiting for the next packet by spinning is therefore cheaper
 * exactly when the expected gap to the next packet is below wake_cost_ns.
 * The switch estimates that gap from the polls themselves: at each
 * productive poll, the time since the previous productive poll divided by
 * the packets found (empty polls in between do not count), folded into an
 * exponentially weighted mean with weight 1/8 (as Jacobson's RTT
 * estimator).  After the last packet it keeps spinning for
 *
 *   window = clamp(4 * gap, wake_cost_ns, spin_max_ns)   if gap < wake_cost_ns
 *   window = 0                                           otherwise
 *
 * so a queue that is busy is polled back to back, and one that went quiet
 * (the sender stopped, or the rate fell so that sleeping is cheaper) costs
 * at most spin_max_ns of spinning before the loop sleeps on readiness.  A
 * full poll (budget packets) always polls again: the queue is backlogged.
 * The first estimate after a sleep counts the sleep as part of the gap, so
 * one packet after a long idle period does not switch to spinning.
 *
 * Calling convention, by the receive loop:
 *   hybrid_init(&h, &cfg, now);
 *   loop: n = poll(budget); a = hybrid_after_poll(&h, now, n, budget);
 *         if (a == HYBRID_SLEEP) { wait for readiness; }
 *
 * Times are int64_t nanoseconds of one clock chosen by the caller.
 */
#ifndef RXLAB_HYBRID_H
#define RXLAB_HYBRID_H

#include <stdint.h>

struct hybrid_config {
	int64_t wake_cost_ns;   /* CPU + latency cost of one sleep and wake-up, > 0 */
	int64_t spin_max_ns;    /* longest spin after the last packet, >= 0 */
};

enum hybrid_state {
	HYBRID_SLEEPING = 0,    /* the last decision was to sleep */
	HYBRID_POLLING,         /* the last decision was to poll again */
};

enum hybrid_action {
	HYBRID_SLEEP = 0,       /* wait for readiness */
	HYBRID_POLL,            /* poll again now */
};

/* Invariants: gap_ns >= 0; t_last_poll_ns and t_last_pkt_ns never go back. */
struct hybrid {
	struct hybrid_config cfg;
	enum hybrid_state state;
	int64_t gap_ns;          /* estimated mean gap between packets; starts at INT64_MAX / 16 (idle) */
	int64_t t_last_poll_ns;  /* time of the previous poll */
	int64_t t_last_pkt_ns;   /* time of the last productive poll (t0 before the first) */
	/* counters */
	uint64_t to_poll;        /* SLEEPING -> POLLING switches */
	uint64_t to_sleep;       /* POLLING -> SLEEPING switches */
};

/* Idle (SLEEPING, no packets seen) at @t0_ns.  @cfg must have wake_cost_ns > 0
 * and spin_max_ns >= 0. */
void hybrid_init(struct hybrid *h, const struct hybrid_config *cfg, int64_t t0_ns);

/* The spin window after the last packet for the current estimate (see
 * above), ns; 0 means sleep as soon as a poll comes back empty. */
int64_t hybrid_window(const struct hybrid *h);

/* A poll that returned @n of at most @budget packets finished at @now_ns
 * (non-decreasing).  Returns what to do next and counts a switch when the
 * state changes. */
enum hybrid_action hybrid_after_poll(struct hybrid *h, int64_t now_ns, uint32_t n,
				     uint32_t budget);

#endif
