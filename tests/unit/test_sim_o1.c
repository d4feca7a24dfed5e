/* test_sim_o1.c - wake-up preemption under [host] scheduler = o1 against
 * cfs, through the simulator (public API: rxl_sim_run()).
 *
 * Host: one CPU (piii-933-e1000), NAPI without moderation, a constant
 * 10 kpps of 64 B datagrams to a UDP sink thread, and one cpu-hog on the
 * same CPU.  Each datagram wakes the sink from a softirq.
 *
 *   - cfs: the sink wakes with its vruntime at most 3 ms behind the
 *     hog's, and once the hog has run 1 ms (the wakeup granularity) every
 *     wake-up preempts it: two switches per datagram, so far more than
 *     800 in 50 ms (500 datagrams).
 *   - o1, traffic from time 0: the hog has never slept (bonus 0, prio
 *     125); the sink's first sleep is 0.1 ms, credited 0.1 * 10 = 1 ms
 *     (CURRENT_BONUS 0): prio 125 as well.  An equal priority does not
 *     preempt (TASK_PREEMPTS_CURR is p->prio < curr->prio), so the hog
 *     keeps the CPU for its whole 100 ms slice: in a 50 ms run the only
 *     switch is the hog's first (idle -> hog), and the sink reads nothing
 *     (0 ms of CPU).
 *   - o1, traffic from 300 ms (window 300..350 ms): the sink slept 300 ms,
 *     credited 300 * 10 ms, capped at MAX_SLEEP_AVG (1000 ms): bonus 10,
 *     prio 115; the hog, which only ran, has sleep average 0: 125.  A
 *     strictly better priority preempts: each of the 500 datagrams of the
 *     window is a switch to the sink and one back, exactly 1000.
 *
 *   - o1, two cpu-hogs alone for 1 s: neither sleeps, so neither is
 *     interactive (bonus -5); each runs its whole 100 ms slice (nice 0)
 *     and goes to the expired array, where the other waits: 10 switches
 *     (idle -> hog/0 at 0, then one per 100 ms slice plus the 3 us of each
 *     switch, the profile's ctx-switch).  hog/0 runs slices 1, 3, 5, 7, 9:
 *     500 ms of CPU; hog/1 the others, the last one cut by the end of the
 *     run: 1 s - 10 * 3 us - 500 ms = 499.97 ms (cfs: one 4 ms
 *     run.timeslice each, 250 switches).
 *
 * Mutation notes: making the o1 wake-up test `<=` alone changes nothing
 * here, as in the kernel: schedule() would run, but the hog is the head
 * of the priority-125 list (it was picked before the sink queued behind
 * it) and is picked again.  What the equal-priority test catches is the
 * order (a woken thread entering at the head of its list: 749 switches).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "rxlab/sim.h"
#include "sim_run.h"

static const char BASE[] =
	"[host]\n"
	"profile = piii-933-e1000\n"
	"cpus = 1\n"
	"rxpath = napi\n"
	"[nic eth0]\n"
	"rx-usecs = 0\n"
	"rx-frames = 1\n"
	"[traffic]\n"
	"port = eth0\n"
	"pattern = constant\n"
	"rate = 10kpps\n"
	"frame-size = 64\n"
	"[apps]\n"
	"sink = on\n"
	"cpu-hogs = 1\n"
	"[run]\n"
	"duration = 50ms\n"
	"warmup = 0\n";

static int64_t sink_cpu_ns(const struct results *r)
{
	for (uint16_t i = 0; i < r->n_threads; i++)
		if (strcmp(r->thr[i].name, "udp-sink") == 0)
			return r->thr[i].cpu_ns;
	fail_msg("no udp-sink thread");
	return -1;
}

static void test_cfs_preempts(void **state)
{
	const char *sets[] = { "host.scheduler=cfs" };
	struct results r;

	(void)state;
	sim_run_text(BASE, "o1.ini", sets, 1, &r);
	assert_true(r.cpu[0].cs > 800);
	assert_true(sink_cpu_ns(&r) > 0);
	results_free(&r);
}

static void test_o1_equal_does_not_preempt(void **state)
{
	const char *sets[] = { "host.scheduler=o1" };
	struct results r;

	(void)state;
	sim_run_text(BASE, "o1.ini", sets, 1, &r);
	assert_int_equal(r.cpu[0].cs, 1);
	assert_int_equal(sink_cpu_ns(&r), 0);
	results_free(&r);
}

static void test_o1_better_preempts(void **state)
{
	const char *sets[] = { "host.scheduler=o1", "traffic.start=300ms", "run.warmup=300ms",
			       "run.duration=350ms" };
	struct results r;

	(void)state;
	sim_run_text(BASE, "o1.ini", sets, 4, &r);
	assert_int_equal(r.cpu[0].cs, 1000);
	results_free(&r);
}

static const char HOGS[] =
	"[host]\n"
	"profile = piii-933-e1000\n"
	"cpus = 1\n"
	"scheduler = o1\n"
	"[nic eth0]\n"
	"[traffic]\n"
	"port = eth0\n"
	"rate = 1kpps\n"
	"start = 10s\n"
	"[apps]\n"
	"cpu-hogs = 2\n"
	"[run]\n"
	"duration = 1s\n"
	"warmup = 0\n";

static int64_t thread_ns(const struct results *r, const char *name)
{
	for (uint16_t i = 0; i < r->n_threads; i++)
		if (strcmp(r->thr[i].name, name) == 0)
			return r->thr[i].cpu_ns;
	fail_msg("no thread %s", name);
	return -1;
}

static void test_o1_timeslices(void **state)
{
	struct results r;

	(void)state;
	sim_run_text(HOGS, "hogs.ini", NULL, 0, &r);
	assert_int_equal(r.cpu[0].cs, 10);
	assert_int_equal(thread_ns(&r, "hog/0"), 500000000);
	assert_int_equal(thread_ns(&r, "hog/1"), 499970000);
	results_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cfs_preempts),
		cmocka_unit_test(test_o1_equal_does_not_preempt),
		cmocka_unit_test(test_o1_better_preempts),
		cmocka_unit_test(test_o1_timeslices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
