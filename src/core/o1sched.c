/* o1sched.c - the O(1) scheduler's priority, bonus and timeslice
 * arithmetic (see rxlab/o1sched.h; kernel/sched.c of v2.6.12-rc1). */
#include "rxlab/o1sched.h"

#define MAX_USER_PRIO 40          /* USER_PRIO(MAX_PRIO) */
#define NICE_0_PRIO 120           /* NICE_TO_PRIO(0) */
#define INTERACTIVE_DELTA 2
#define ON_RUNQUEUE_WEIGHT 30     /* %, applied as 30 * 128 / 100 = 38 of 128 */

static int64_t jiffy_ns(uint32_t hz)
{
	return 1000000000 / (int64_t)hz;
}

static int64_t def_timeslice(uint32_t hz) /* jiffies */
{
	return 100 * (int64_t)hz / 1000;
}

static int64_t min_timeslice(uint32_t hz) /* jiffies */
{
	int64_t j = 5 * (int64_t)hz / 1000;

	return j > 1 ? j : 1;
}

static int64_t max_sleep_avg(uint32_t hz) /* jiffies */
{
	return def_timeslice(hz) * O1_MAX_BONUS;
}

/* DELTA(p): SCALE(TASK_NICE(p), 40, MAX_BONUS) + INTERACTIVE_DELTA, with
 * C's division toward zero (nice -20 gives -3, nice 19 gives 6). */
static int delta(int static_prio)
{
	return (static_prio - NICE_0_PRIO) * O1_MAX_BONUS / MAX_USER_PRIO + INTERACTIVE_DELTA;
}

int o1_static_prio(int nice)
{
	return NICE_0_PRIO + nice;
}

int64_t o1_timeslice_ns(int static_prio, uint32_t hz)
{
	int64_t base = def_timeslice(hz) * (static_prio < NICE_0_PRIO ? 4 : 1);
	int64_t j = base * (O1_MAX_PRIO - static_prio) / (MAX_USER_PRIO / 2);

	if (j < min_timeslice(hz))
		j = min_timeslice(hz);
	return j * jiffy_ns(hz);
}

int64_t o1_max_sleep_avg_ns(uint32_t hz)
{
	return max_sleep_avg(hz) * jiffy_ns(hz);
}

int o1_current_bonus(int64_t sleep_avg_ns, uint32_t hz)
{
	return (int)(sleep_avg_ns / jiffy_ns(hz) * O1_MAX_BONUS / max_sleep_avg(hz));
}

int o1_effective_prio(int static_prio, int64_t sleep_avg_ns, uint32_t hz)
{
	int prio = static_prio - (o1_current_bonus(sleep_avg_ns, hz) - O1_MAX_BONUS / 2);

	if (prio < O1_MAX_RT_PRIO)
		prio = O1_MAX_RT_PRIO;
	if (prio > O1_MAX_PRIO - 1)
		prio = O1_MAX_PRIO - 1;
	return prio;
}

bool o1_interactive(int prio, int static_prio)
{
	return prio <= static_prio - delta(static_prio);
}

int64_t o1_interactive_sleep_ns(int static_prio, uint32_t hz)
{
	int64_t j = max_sleep_avg(hz) * (O1_MAX_BONUS / 2 + delta(static_prio) + 1) / O1_MAX_BONUS
		    - 1;

	return j * jiffy_ns(hz);
}

int64_t o1_granularity_ns(int64_t sleep_avg_ns, uint32_t cpus, uint32_t hz)
{
	int64_t gran = 10 * (int64_t)hz / 1000;
	int shift = O1_MAX_BONUS - o1_current_bonus(sleep_avg_ns, hz);

	if (gran < 1)
		gran = 1;
	if (shift < 1)
		shift = 1;
	return gran * ((int64_t)1 << (shift - 1)) * (int64_t)cpus * jiffy_ns(hz);
}

bool o1_preempts(int prio, int curr_prio)
{
	return prio < curr_prio;
}

/* The multiplied sleep credit of recalc_task_prio()'s second branch, with
 * the uninterruptible-sleep cap. */
static void credit_sleep(struct o1_task *p, int64_t sleep_ns, uint32_t hz)
{
	int mult = O1_MAX_BONUS - o1_current_bonus(p->sleep_avg_ns, hz);
	int64_t isleep = o1_interactive_sleep_ns(p->static_prio, hz);

	sleep_ns *= mult > 0 ? mult : 1;
	if (p->activated == -1 && p->mm) {
		if (p->sleep_avg_ns >= isleep) {
			sleep_ns = 0;
		} else if (p->sleep_avg_ns + sleep_ns >= isleep) {
			p->sleep_avg_ns = isleep;
			sleep_ns = 0;
		}
	}
	p->sleep_avg_ns += sleep_ns;
	if (p->sleep_avg_ns > o1_max_sleep_avg_ns(hz))
		p->sleep_avg_ns = o1_max_sleep_avg_ns(hz);
}

void o1_recalc(struct o1_task *p, int64_t now_ns, uint32_t hz)
{
	int64_t sleep_ns = now_ns - p->timestamp_ns;

	if (sleep_ns > o1_max_sleep_avg_ns(hz))
		sleep_ns = o1_max_sleep_avg_ns(hz);
	if (sleep_ns > 0) {
		if (p->mm && p->activated != -1 &&
		    sleep_ns > o1_interactive_sleep_ns(p->static_prio, hz))
			p->sleep_avg_ns = (max_sleep_avg(hz) - def_timeslice(hz)) * jiffy_ns(hz);
		else
			credit_sleep(p, sleep_ns, hz);
	}
	p->prio = (int16_t)o1_effective_prio(p->static_prio, p->sleep_avg_ns, hz);
}

void o1_activate(struct o1_task *p, int64_t now_ns, bool in_interrupt, uint32_t hz)
{
	o1_recalc(p, now_ns, hz);
	if (!p->activated)
		p->activated = in_interrupt ? 2 : 1;
	p->timestamp_ns = now_ns;
}

bool o1_credit_wait(struct o1_task *p, int64_t now_ns, uint32_t hz)
{
	int16_t before = p->prio;
	int64_t d = now_ns - p->timestamp_ns;

	if (p->activated <= 0) {
		p->activated = 0;
		return false;
	}
	if (d < 0)
		d = 0;
	if (p->activated == 1)
		d = d * (ON_RUNQUEUE_WEIGHT * 128 / 100) / 128;
	o1_recalc(p, p->timestamp_ns + d, hz);
	p->activated = 0;
	return p->prio != before;
}

void o1_charge_run(struct o1_task *p, int64_t now_ns, uint32_t hz)
{
	int64_t run = now_ns - p->timestamp_ns;
	int bonus = o1_current_bonus(p->sleep_avg_ns, hz);

	if (run < 0)
		run = 0;
	if (run > o1_max_sleep_avg_ns(hz))
		run = o1_max_sleep_avg_ns(hz);
	run /= bonus > 0 ? bonus : 1;
	p->sleep_avg_ns -= run;
	if (p->sleep_avg_ns < 0)
		p->sleep_avg_ns = 0;
	p->timestamp_ns = now_ns;
}

bool o1_expired_starving(int64_t now_ns, int64_t expired_ns, uint32_t nr_running,
			 int static_prio, int best_expired_prio, uint32_t hz)
{
	int64_t limit = (max_sleep_avg(hz) * (int64_t)nr_running + 1) * jiffy_ns(hz);

	if (expired_ns >= 0 && now_ns - expired_ns >= limit)
		return true;
	return static_prio > best_expired_prio;
}
