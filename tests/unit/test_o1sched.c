/* test_o1sched.c - the O(1) scheduler's arithmetic (src/core/o1sched.c)
 * against values worked out by hand from kernel/sched.c of v2.6.12-rc1.
 *
 * HZ = 1000 unless a test says otherwise (a jiffy is 1 ms), so:
 * MAX_BONUS 10, DEF_TIMESLICE 100, MIN_TIMESLICE 5, MAX_SLEEP_AVG 1000
 * jiffies; CURRENT_BONUS = sleep_avg_ms * 10 / 1000; prio = static_prio -
 * (bonus - 5) within 100..139.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rxlab/o1sched.h"

#define MS 1000000LL
#define HZ 1000u

static struct o1_task task(int nice, bool mm)
{
	int sp = o1_static_prio(nice);

	return (struct o1_task){ .static_prio = (int16_t)sp, .prio = (int16_t)sp,
				 .slice_ns = o1_timeslice_ns(sp, HZ), .mm = mm };
}

/* NICE_TO_PRIO: 120 + nice. */
static void test_static_prio(void **state)
{
	(void)state;
	assert_int_equal(o1_static_prio(0), 120);
	assert_int_equal(o1_static_prio(19), 139);
	assert_int_equal(o1_static_prio(-20), 100);
}

/* task_timeslice(): nice >= 0: max(100 * (140 - sp) / 20, 5) ms; nice < 0:
 * max(400 * (140 - sp) / 20, 5) ms.  nice 19: 100 * 1 / 20 = 5; nice 18:
 * 10; 15: 25; 10: 50; 0: 100; -1: 400 * 21 / 20 = 420; -20: 800.  At
 * HZ = 1024 (ia64, seed 003) DEF_TIMESLICE is 102 jiffies of 976562 ns:
 * nice 0 gets 102 jiffies = 99,609,324 ns; nice 19 gets 102 / 20 = 5 =
 * MIN_TIMESLICE (5 * 1024 / 1000 = 5) jiffies = 4,882,810 ns.  (With the
 * vanilla constants MIN_TIMESLICE never binds: nice 19's DEF_TIMESLICE / 20
 * is floor(hz / 200), the same as 5 * hz / 1000, so a mutation of the
 * minimum is an equivalent one.) */
static void test_timeslice(void **state)
{
	(void)state;
	assert_int_equal(o1_timeslice_ns(139, HZ), 5 * MS);
	assert_int_equal(o1_timeslice_ns(138, HZ), 10 * MS);
	assert_int_equal(o1_timeslice_ns(135, HZ), 25 * MS);
	assert_int_equal(o1_timeslice_ns(130, HZ), 50 * MS);
	assert_int_equal(o1_timeslice_ns(120, HZ), 100 * MS);
	assert_int_equal(o1_timeslice_ns(119, HZ), 420 * MS);
	assert_int_equal(o1_timeslice_ns(100, HZ), 800 * MS);
	assert_int_equal(o1_timeslice_ns(120, 1024), 99609324);
	assert_int_equal(o1_timeslice_ns(139, 1024), 4882810);
}

/* CURRENT_BONUS truncates to whole jiffies and then tenths of 1000. */
static void test_bonus(void **state)
{
	(void)state;
	assert_int_equal(o1_max_sleep_avg_ns(HZ), 1000 * MS);
	assert_int_equal(o1_current_bonus(0, HZ), 0);
	assert_int_equal(o1_current_bonus(99 * MS, HZ), 0);
	assert_int_equal(o1_current_bonus(100 * MS, HZ), 1);
	assert_int_equal(o1_current_bonus(699 * MS + 999999, HZ), 6);
	assert_int_equal(o1_current_bonus(700 * MS, HZ), 7);
	assert_int_equal(o1_current_bonus(1000 * MS, HZ), 10);
}

/* effective_prio(): nice 0 runs from 125 (never slept) to 115 (slept the
 * most); nice 19 from 144 clamped to 139 down to 134; nice -20 from 105
 * to 95 clamped to 100. */
static void test_effective_prio(void **state)
{
	(void)state;
	assert_int_equal(o1_effective_prio(120, 0, HZ), 125);
	assert_int_equal(o1_effective_prio(120, 500 * MS, HZ), 120);
	assert_int_equal(o1_effective_prio(120, 1000 * MS, HZ), 115);
	assert_int_equal(o1_effective_prio(139, 0, HZ), 139);
	assert_int_equal(o1_effective_prio(139, 1000 * MS, HZ), 134);
	assert_int_equal(o1_effective_prio(100, 0, HZ), 105);
	assert_int_equal(o1_effective_prio(100, 1000 * MS, HZ), 100);
}

/* TASK_INTERACTIVE: prio <= static_prio - (nice * 10 / 40 + 2).  nice 0:
 * DELTA 2, prio <= 118, i.e. bonus >= 7 (700 ms of sleep average);
 * nice 19: DELTA 19 * 10 / 40 + 2 = 6, prio <= 133, below the best it can
 * reach (134): never; nice -20: DELTA -200 / 40 + 2 = -3, prio <= 103,
 * bonus >= 2 (the source's table: 9 of the 11 bonuses). */
static void test_interactive(void **state)
{
	(void)state;
	assert_true(o1_interactive(o1_effective_prio(120, 700 * MS, HZ), 120));
	assert_false(o1_interactive(o1_effective_prio(120, 699 * MS, HZ), 120));
	assert_false(o1_interactive(o1_effective_prio(139, 1000 * MS, HZ), 139));
	assert_true(o1_interactive(o1_effective_prio(100, 200 * MS, HZ), 100));
	assert_false(o1_interactive(o1_effective_prio(100, 199 * MS, HZ), 100));
}

/* INTERACTIVE_SLEEP: MAX_SLEEP_AVG * (5 + DELTA + 1) / 10 - 1 jiffies:
 * nice 0 799 ms, nice 19 1199 ms, nice -20 299 ms.
 * TIMESLICE_GRANULARITY: 10 ms * 2^(max(10 - bonus, 1) - 1) * CPUs:
 * bonus 10 and 9 give 10 ms on one CPU, 8 gives 20, 7 gives 40; bonus 10
 * on 8 CPUs 80 ms. */
static void test_interactive_sleep_and_granularity(void **state)
{
	(void)state;
	assert_int_equal(o1_interactive_sleep_ns(120, HZ), 799 * MS);
	assert_int_equal(o1_interactive_sleep_ns(139, HZ), 1199 * MS);
	assert_int_equal(o1_interactive_sleep_ns(100, HZ), 299 * MS);
	assert_int_equal(o1_granularity_ns(1000 * MS, 1, HZ), 10 * MS);
	assert_int_equal(o1_granularity_ns(900 * MS, 1, HZ), 10 * MS);
	assert_int_equal(o1_granularity_ns(800 * MS, 1, HZ), 20 * MS);
	assert_int_equal(o1_granularity_ns(700 * MS, 1, HZ), 40 * MS);
	assert_int_equal(o1_granularity_ns(1000 * MS, 8, HZ), 80 * MS);
}

/* TASK_PREEMPTS_CURR: strictly better only. */
static void test_preempts(void **state)
{
	(void)state;
	assert_false(o1_preempts(115, 115));
	assert_true(o1_preempts(114, 115));
	assert_false(o1_preempts(125, 115));
}

/* recalc_task_prio(): a nice-0 task with no sleep average sleeps 10 ms:
 * credit 10 ms * (10 - 0) = 100 ms, bonus 1, prio 124.  10 ms more:
 * 10 * (10 - 1) = 90 ms, 190 ms, still bonus 1.  A user task that sleeps
 * 800 ms (> INTERACTIVE_SLEEP 799) is set to 1000 - 100 = 900 ms (bonus 9,
 * prio 116); a kernel thread (no mm) sleeping as long gets 800 * 10 ms,
 * capped at 1000 ms (prio 115). */
static void test_recalc(void **state)
{
	struct o1_task p = task(0, true), k = task(0, false);

	(void)state;
	o1_recalc(&p, 10 * MS, HZ);
	assert_int_equal(p.sleep_avg_ns, 100 * MS);
	assert_int_equal(p.prio, 124);
	p.timestamp_ns = 10 * MS;
	o1_recalc(&p, 20 * MS, HZ);
	assert_int_equal(p.sleep_avg_ns, 190 * MS);
	assert_int_equal(p.prio, 124);
	p = task(0, true);
	o1_recalc(&p, 800 * MS, HZ);
	assert_int_equal(p.sleep_avg_ns, 900 * MS);
	assert_int_equal(p.prio, 116);
	o1_recalc(&k, 800 * MS, HZ);
	assert_int_equal(k.sleep_avg_ns, 1000 * MS);
	assert_int_equal(k.prio, 115);
}

/* activate_task() then schedule(): woken from an interrupt (activated 2)
 * at 0 and run at 5 ms, the 5 ms wait counts in full: 5 * 10 = 50 ms, no
 * change of bonus (false).  From process context (activated 1) only
 * 5 ms * 38 / 128 = 1,484,375 ns counts: 14,843,750 ns.  Waking a task
 * that is already activated leaves activated alone. */
static void test_wait_credit(void **state)
{
	struct o1_task p = task(0, true);

	(void)state;
	o1_activate(&p, 0, true, HZ);
	assert_int_equal(p.activated, 2);
	assert_false(o1_credit_wait(&p, 5 * MS, HZ));
	assert_int_equal(p.sleep_avg_ns, 50 * MS);
	assert_int_equal(p.activated, 0);
	p = task(0, true);
	o1_activate(&p, 0, false, HZ);
	assert_int_equal(p.activated, 1);
	o1_activate(&p, 0, true, HZ);
	assert_int_equal(p.activated, 1);
	o1_credit_wait(&p, 5 * MS, HZ);
	assert_int_equal(p.sleep_avg_ns, 14843750);
	/* a wait long enough to change the bonus: 20 ms * 10 = 200 ms, prio 123 */
	p = task(0, true);
	o1_activate(&p, 0, true, HZ);
	assert_true(o1_credit_wait(&p, 20 * MS, HZ));
	assert_int_equal(p.prio, 123);
}

/* schedule()'s sleep_avg -= run_time / CURRENT_BONUS: at 1000 ms (bonus
 * 10) 50 ms of running costs 5 ms (995 ms, bonus 9); then 90 ms costs
 * 90 / 9 = 10 ms (985 ms).  With bonus 0 the whole run time counts and
 * the average stops at 0.  The timestamp moves to now. */
static void test_charge_run(void **state)
{
	struct o1_task p = task(0, true);

	(void)state;
	p.sleep_avg_ns = 1000 * MS;
	o1_charge_run(&p, 50 * MS, HZ);
	assert_int_equal(p.sleep_avg_ns, 995 * MS);
	assert_int_equal(p.timestamp_ns, 50 * MS);
	o1_charge_run(&p, 140 * MS, HZ);
	assert_int_equal(p.sleep_avg_ns, 985 * MS);
	p.sleep_avg_ns = 30 * MS;
	o1_charge_run(&p, 190 * MS, HZ);
	assert_int_equal(p.sleep_avg_ns, 0);
}

/* EXPIRED_STARVING with 2 runnable: the first expired task waited
 * STARVATION_LIMIT * 2 + 1 = 2001 jiffies; or a worse static priority
 * than the best expired one. */
static void test_starving(void **state)
{
	(void)state;
	assert_false(o1_expired_starving(2000 * MS, 0, 2, 120, 120, HZ));
	assert_true(o1_expired_starving(2001 * MS, 0, 2, 120, 120, HZ));
	assert_false(o1_expired_starving(5000 * MS, -1, 2, 120, 140, HZ));
	assert_true(o1_expired_starving(0, -1, 2, 139, 120, HZ));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_static_prio),     cmocka_unit_test(test_timeslice),
		cmocka_unit_test(test_bonus),           cmocka_unit_test(test_effective_prio),
		cmocka_unit_test(test_interactive),
		cmocka_unit_test(test_interactive_sleep_and_granularity),
		cmocka_unit_test(test_preempts),        cmocka_unit_test(test_recalc),
		cmocka_unit_test(test_wait_credit),     cmocka_unit_test(test_charge_run),
		cmocka_unit_test(test_starving),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
