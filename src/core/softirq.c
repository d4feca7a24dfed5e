/* softirq.c - net_rx_action() budget and handle_softirqs() restart rules
 * (see include/rxlab/softirq.h).
 *
 * Jiffies come from simulated time with integer math only, so a run gives
 * the same bytes on every machine.  Both stop rules have jiffy granularity,
 * which is the point: at HZ=250 a "2 ms" limit is one tick, however much of
 * that tick is left.
 *
 * Pure: no libc beyond what the compiler emits.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rxlab/softirq.h"

#define NSEC_PER_SEC 1000000000ull
#define USEC_PER_SEC 1000000ull
#define MSEC_PER_SEC 1000ull

/* floor(x * hz / per) without overflowing x * hz, for per <= 1e9. */
static uint64_t scale_floor(uint64_t x, uint32_t hz, uint64_t per)
{
	return (x / per) * hz + (x % per) * hz / per;
}

/* ceil(x * hz / per), the rounding of kernel/time/time.c
 * _usecs_to_jiffies() / _msecs_to_jiffies() ("round up"). */
static uint64_t scale_ceil(uint64_t x, uint32_t hz, uint64_t per)
{
	return (x / per) * hz + ((x % per) * hz + per - 1) / per;
}

uint64_t jiffies_at(int64_t t_ns, uint32_t hz)
{
	/* One jiffy is 1e9/HZ ns; floor(t * HZ / 1e9) stays exact when HZ
	 * does not divide 1e9 (HZ=300). */
	if (t_ns <= 0 || hz == 0)
		return 0;
	return scale_floor((uint64_t)t_ns, hz, NSEC_PER_SEC);
}

uint64_t usecs_to_jiffies(uint64_t usecs, uint32_t hz)
{
	return scale_ceil(usecs, hz, USEC_PER_SEC);
}

uint64_t msecs_to_jiffies(uint64_t msecs, uint32_t hz)
{
	return scale_ceil(msecs, hz, MSEC_PER_SEC);
}

/* time_before(a, b) of include/linux/jiffies.h: wrap-safe a < b. */
static bool jiffies_before(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) < 0;
}

void netrx_begin(struct netrx_budget *b, int64_t now_ns, uint32_t netdev_budget,
		 int64_t budget_usecs_ns, uint32_t hz)
{
	uint64_t usecs = budget_usecs_ns > 0 ? (uint64_t)budget_usecs_ns / 1000 : 0;

	/* net/core/dev.c net_rx_action(): "time_limit = jiffies +
	 * usecs_to_jiffies(READ_ONCE(net_hotdata.netdev_budget_usecs));
	 * budget = READ_ONCE(net_hotdata.netdev_budget);" (both ints). */
	b->budget = netdev_budget > INT32_MAX ? INT32_MAX : (int32_t)netdev_budget;
	b->time_limit = jiffies_at(now_ns, hz) + usecs_to_jiffies(usecs, hz);
}

void netrx_begin_26(struct netrx_budget *b, int64_t now_ns, uint32_t netdev_max_backlog,
		    uint32_t hz)
{
	/* 2.6.12 net/core/dev.c net_rx_action(): "int budget =
	 * netdev_max_backlog;" and "if (budget <= 0 || jiffies - start_time >
	 * 1) goto softnet_break;" - the second test is jiffies >= start + 2,
	 * which is netrx_account()'s "time_after_eq(jiffies, time_limit)". */
	b->budget = netdev_max_backlog > INT32_MAX ? INT32_MAX : (int32_t)netdev_max_backlog;
	b->time_limit = jiffies_at(now_ns, hz) + 2;
}

enum netrx_verdict netrx_account(struct netrx_budget *b, uint32_t work, int64_t now_ns,
				 uint32_t hz)
{
	/* "budget -= napi_poll(n, &repoll);" - may go below zero: one poll
	 * takes up to its weight whatever is left. */
	int64_t left = (int64_t)b->budget - (int64_t)work;

	b->budget = left < INT32_MIN ? INT32_MIN : (int32_t)left;
	/* "if (unlikely(budget <= 0 || time_after_eq(jiffies, time_limit)))
	 * { sd->time_squeeze++; break; }" - checked only between polls. */
	if (b->budget <= 0 || !jiffies_before(jiffies_at(now_ns, hz), b->time_limit))
		return NETRX_SQUEEZE;
	return NETRX_CONTINUE;
}

void softirq_begin(struct softirq_run *r, int64_t now_ns, uint32_t hz)
{
	/* kernel/softirq.c handle_softirqs(): "end = jiffies +
	 * MAX_SOFTIRQ_TIME; max_restart = MAX_SOFTIRQ_RESTART;" */
	r->end = jiffies_at(now_ns, hz) +
		 msecs_to_jiffies(MAX_SOFTIRQ_TIME_NS / 1000000, hz);
	r->max_restart = MAX_SOFTIRQ_RESTART;
}

enum softirq_verdict softirq_after_pass(struct softirq_run *r, bool pending, bool need_resched,
					int64_t now_ns, uint32_t hz)
{
	/* "if (pending) { if (time_before(jiffies, end) && !need_resched()
	 * && --max_restart) goto restart; wakeup_softirqd(); }" - the
	 * decrement is short-circuited away once time or need_resched ends
	 * the run.  max_restart == 0 cannot happen after softirq_begin();
	 * it is tested so that a misuse cannot wrap the counter. */
	if (!pending)
		return SOFTIRQ_DONE;
	if (!jiffies_before(jiffies_at(now_ns, hz), r->end) || need_resched)
		return SOFTIRQ_WAKE_KSOFTIRQD;
	if (r->max_restart == 0 || --r->max_restart == 0)
		return SOFTIRQ_WAKE_KSOFTIRQD;
	return SOFTIRQ_RESTART;
}

enum softirq_verdict softirq_after_pass_26(struct softirq_run *r, bool pending)
{
	/* 2.6.12 kernel/softirq.c __do_softirq(): "pending =
	 * local_softirq_pending(); if (pending && --max_restart) goto restart;
	 * if (pending) wakeup_softirqd();" */
	if (!pending)
		return SOFTIRQ_DONE;
	if (r->max_restart == 0 || --r->max_restart == 0)
		return SOFTIRQ_WAKE_KSOFTIRQD;
	return SOFTIRQ_RESTART;
}
