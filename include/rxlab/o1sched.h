/* o1sched.h - the priority and timeslice arithmetic of Linux 2.6's O(1)
 * scheduler (pure).
 *
 * kernel/sched.c of v2.6.12-rc1 (vanilla constants; 2.6.12 is the kernel
 * of seeds 003 and 004), read for this, not copied.  A SCHED_OTHER task
 * has a static priority from its nice value (NICE_TO_PRIO: 120 + nice,
 * 100..139) and a dynamic priority (p->prio) that adds a bonus of -5..+5
 * from its sleep average: the more a task has slept lately, the better
 * (numerically lower) its priority.  Lower runs first; a woken task takes
 * the CPU only from a task of strictly worse dynamic priority
 * (TASK_PREEMPTS_CURR).  The timeslice depends on the static priority
 * only.  The run queue itself (two priority arrays, active and expired)
 * is the simulator's (src/sim/o1rq.c); this file holds what can be
 * computed from a task's numbers alone.
 *
 * The kernel counts sleep_avg in ns and converts to jiffies (1 s / hz) for
 * the bonus; MIN_TIMESLICE, DEF_TIMESLICE, MAX_SLEEP_AVG and
 * GRANULARITY are jiffies.  Every function here takes hz (CONFIG_HZ:
 * 1000 on 2.6.12 i386, x86_64 and ppc64) and works in the same integer
 * steps as the kernel, so a figure rounds as the kernel rounds it.  With
 * hz = 1000:
 *
 *   MAX_BONUS       = 40 * 25 / 100 = 10 (PRIO_BONUS_RATIO 25)
 *   DEF_TIMESLICE   = 100 ms, MIN_TIMESLICE = max(5 ms, 1 jiffy)
 *   MAX_SLEEP_AVG   = DEF_TIMESLICE * MAX_BONUS = 1000 ms (STARVATION_LIMIT too)
 *   CURRENT_BONUS   = sleep_avg in jiffies * MAX_BONUS / MAX_SLEEP_AVG (0..10)
 *   prio            = static_prio - (CURRENT_BONUS - 5), within 100..139
 *   timeslice       = max(DEF * 4 * (140 - sp) / 20, MIN) for nice < 0,
 *                     max(DEF * (140 - sp) / 20, MIN) otherwise:
 *                     nice -20 800 ms, 0 100 ms, 10 50 ms, 19 5 ms
 *   TASK_INTERACTIVE: prio <= static_prio - DELTA, DELTA = nice * 10 / 40 + 2
 *                     (C division): nice 0 needs CURRENT_BONUS >= 7, nice 19
 *                     can never be interactive
 */
#ifndef RXLAB_RXLAB_O1SCHED_H
#define RXLAB_RXLAB_O1SCHED_H

#include <stdbool.h>
#include <stdint.h>

#define O1_MAX_RT_PRIO 100
#define O1_MAX_PRIO 140
#define O1_MAX_BONUS 10

/* One SCHED_OTHER task's scheduler numbers (the task_struct fields of the
 * same names).  Zero-initialised but for static_prio and prio (both
 * o1_static_prio(nice)) and slice_ns (o1_timeslice_ns()), as a task that
 * has never slept. */
struct o1_task {
	int64_t sleep_avg_ns;  /* 0..MAX_SLEEP_AVG */
	int64_t timestamp_ns;  /* last wake-up, switch in or schedule() */
	int64_t slice_ns;      /* time_slice left */
	int16_t static_prio;   /* 120 + nice */
	int16_t prio;          /* dynamic priority, 100..139 */
	int8_t activated;      /* 0; 1: woken from process context; 2: from an
	                        * interrupt (hard or soft); -1: from an
	                        * uninterruptible sleep (not credited beyond
	                        * INTERACTIVE_SLEEP) */
	bool mm;               /* a user task (p->mm): the long-sleep rule applies */
};

/* NICE_TO_PRIO(@nice), nice -20..19. */
int o1_static_prio(int nice);
/* task_timeslice(): the slice of a task of @static_prio, ns. */
int64_t o1_timeslice_ns(int static_prio, uint32_t hz);
/* NS_MAX_SLEEP_AVG: MAX_SLEEP_AVG in ns. */
int64_t o1_max_sleep_avg_ns(uint32_t hz);
/* CURRENT_BONUS for @sleep_avg_ns: 0..MAX_BONUS. */
int o1_current_bonus(int64_t sleep_avg_ns, uint32_t hz);
/* effective_prio() of a SCHED_OTHER task. */
int o1_effective_prio(int static_prio, int64_t sleep_avg_ns, uint32_t hz);
/* TASK_INTERACTIVE(): is a task of dynamic @prio interactive for its nice? */
bool o1_interactive(int prio, int static_prio);
/* INTERACTIVE_SLEEP(): a user task that slept longer than this is set to
 * just-interactive (sleep_avg = MAX_SLEEP_AVG - DEF_TIMESLICE), ns. */
int64_t o1_interactive_sleep_ns(int static_prio, uint32_t hz);
/* TIMESLICE_GRANULARITY(): an interactive task that has run a multiple of
 * this of its slice, with at least this much left, goes to the back of its
 * priority list (round robin among equals), ns; @cpus online CPUs (SMP). */
int64_t o1_granularity_ns(int64_t sleep_avg_ns, uint32_t cpus, uint32_t hz);
/* TASK_PREEMPTS_CURR(): does a woken task of @prio take the CPU from a
 * running one of @curr_prio?  Strictly better only: equal does not. */
bool o1_preempts(int prio, int curr_prio);

/* recalc_task_prio(@p, @now_ns): credit the sleep since p->timestamp_ns
 * (capped at MAX_SLEEP_AVG) to sleep_avg, multiplied by
 * MAX_BONUS - CURRENT_BONUS (at least 1), or, a user task that slept more
 * than INTERACTIVE_SLEEP, set it to MAX_SLEEP_AVG - DEF_TIMESLICE; then
 * p->prio = effective prio.  Does not move timestamp_ns. */
void o1_recalc(struct o1_task *p, int64_t now_ns, uint32_t hz);
/* activate_task() on a wake-up at @now_ns: recalc, activated = 2 when the
 * waker runs in interrupt context (@in_interrupt: hard IRQ or softirq,
 * in_interrupt()), else 1 (unless already set), timestamp = now. */
void o1_activate(struct o1_task *p, int64_t now_ns, bool in_interrupt, uint32_t hz);
/* schedule() picked @p, woken (activated > 0), at @now_ns: its wait on the
 * run queue since the wake-up counts as sleep, in full for activated 2,
 * ON_RUNQUEUE_WEIGHT (30%, as 38/128) for 1; activated = 0.  True when
 * p->prio changed (the kernel re-queues it at the tail of its new list). */
bool o1_credit_wait(struct o1_task *p, int64_t now_ns, uint32_t hz);
/* schedule() with @p as prev at @now_ns: the run time since timestamp
 * (capped at MAX_SLEEP_AVG) divided by CURRENT_BONUS (at least 1) comes
 * off sleep_avg (not below 0); timestamp = now. */
void o1_charge_run(struct o1_task *p, int64_t now_ns, uint32_t hz);
/* EXPIRED_STARVING(): interactive tasks stop going back to the active
 * array when the first expired task has waited STARVATION_LIMIT *
 * @nr_running + 1 jiffies since @expired_ns (< 0: none expired), or when
 * the expiring task's static priority is worse than @best_expired_prio. */
bool o1_expired_starving(int64_t now_ns, int64_t expired_ns, uint32_t nr_running,
			 int static_prio, int best_expired_prio, uint32_t hz);

#endif
