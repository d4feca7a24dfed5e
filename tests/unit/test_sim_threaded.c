/* test_sim_threaded.c - NAPI kthreads through the public API: threaded =
 * busy-poll (Linux 6.19) takes one interrupt and then polls for good, its
 * kthread never sleeping and its CPU all system time; threaded-cpus = all
 * lets the scheduler move the kthreads, irq and a CPU list pin them;
 * threaded-prio (SCHED_FIFO) makes a kthread preempt a cpu-hog at once.
 *
 * The host: a PIII 933 forwarding 64 B frames under NAPI (eth0 -> eth1,
 * eth1 cleaning TX at transmit time, so that eth1 never interrupts).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rxlab/sim.h"
#include "sim_run.h"

static const char BASE[] =
	"[host]\n"
	"profile = piii-933-e1000\n"
	"cpus = 2\n"
	"rxpath = napi\n"
	"[nic eth0]\n"
	"rx-usecs = 0\n"
	"rx-frames = 1\n"
	"rx-fifo = 4MiB\n"
	"[nic eth1]\n"
	"tx-clean = xmit\n"
	"[traffic]\n"
	"port = eth0\n"
	"pattern = constant\n"
	"rate = 10kpps\n"
	"frame-size = 64\n"
	"[route]\n"
	"eth0 = eth1\n"
	"[run]\n"
	"duration = 30ms\n"
	"warmup = 5ms\n";

static void run(const char *const *sets, size_t n, struct results *r)
{
	sim_run_text(BASE, "t.ini", sets, n, r);
}

static const struct thread_result *thread(const struct results *r, const char *name)
{
	for (uint16_t i = 0; i < r->n_threads; i++)
		if (strcmp(r->thr[i].name, name) == 0)
			return &r->thr[i];
	fail_msg("no thread %s", name);
	return NULL;
}

static void assert_near(double got, double want, double tol)
{
	if (fabs(got - want) > tol)
		fail_msg("%.6f is not %.6f within %.6f", got, want, tol);
}

/* threaded = busy-poll: the first frame's interrupt wakes the kthread;
 * from then on napi_complete_done() returns false (IN_BUSY_POLL), so the
 * IRQ is never re-enabled: one interrupt for the whole run, against one
 * per frame (rx-frames = 1) with threaded = on.  The kthread never sleeps:
 * no context switch in the window, 100% of one CPU, all of it system
 * time on CPU 0, and nothing else runs there.  Every frame is forwarded. */
static void test_busy_poll_never_sleeps(void **state)
{
	const char *bp[] = { "nic.eth0.threaded=busy-poll" };
	const char *on[] = { "nic.eth0.threaded=on" };
	const struct thread_result *k;
	struct results r, t;

	(void)state;
	run(bp, 1, &r);
	run(on, 1, &t);
	assert_int_equal(r.nic[0].irq_cpu[0] + r.nic[0].irq_cpu[1], 1);
	assert_int_equal(r.nic[1].irq_cpu[0] + r.nic[1].irq_cpu[1], 0);
	/* threaded = on: an interrupt per frame, 300 frames in 30 ms */
	assert_int_equal(t.nic[0].irq_cpu[0], 300);
	k = thread(&r, "napi/eth0-1");
	assert_true(k->busy_poll);
	assert_true(r.busy_poll);
	assert_near(k->pct, 100.0, 1e-9);
	assert_near(r.busy_poll_pct, 100.0, 1e-9);
	assert_near(r.cpu[0].pct[ACCT_SYSTEM], 100.0, 1e-9);
	assert_int_equal(r.cpu[0].cs, 0);
	assert_int_equal(r.cpu[0].sn.processed, 250);
	assert_int_equal(r.nic[0].c.rx_ok, 250);
	assert_int_equal(r.nic[1].c.tx_ok, 250);
	assert_int_equal(r.drops_total, 0);
	assert_false(thread(&t, "napi/eth0-1")->busy_poll);
	assert_false(t.busy_poll);
	results_free(&r);
	results_free(&t);
}

/* The busy poller's productive polls cost what the threaded = on kthread's
 * polls cost (one frame each at a constant 10 kpps, the same napi-poll and
 * per-frame work): the rest of its 100% is spent in polls that find
 * nothing.  So SPIN% = 100 - the threaded = on kthread's %CPU, exactly
 * (the window's edges fall where both kthreads wait for the next frame). */
static void test_busy_poll_spin(void **state)
{
	const char *bp[] = { "nic.eth0.threaded=busy-poll" };
	const char *on[] = { "nic.eth0.threaded=on" };
	struct results r, t;
	double work;

	(void)state;
	run(bp, 1, &r);
	run(on, 1, &t);
	work = thread(&t, "napi/eth0-1")->pct;
	assert_true(work > 1.0 && work < 20.0);
	assert_near(thread(&r, "napi/eth0-1")->spin_pct, 100.0 - work, 1e-9);
	assert_true(isnan(thread(&r, "ksoftirqd/0")->spin_pct));
	results_free(&r);
	results_free(&t);
}

/* Four queues' kthreads, every vector on CPU 0, 2 CPUs, 200 kpps (Poisson) spread
 * over 64 flows.  threaded-cpus = all (no affinity) with wake-up placement
 * (sched_wake_idle): a kthread woken while CPU 0 is busy goes to the idle
 * CPU 1, so kthreads move and CPU 1 does system work.  threaded-cpus = irq
 * (the default): every kthread stays on CPU 0, no move at all, CPU 1 idle.
 * threaded-cpus = 1 (a list, taskset -pc 1): all four on CPU 1, no move,
 * and CPU 0 never runs a thread. */
static void test_unpinned_migrate(void **state)
{
	const char *all[] = { "nic.eth0.combined=4", "nic.eth0.irq-affinity=0",
			      "nic.eth0.threaded=on", "traffic.flows=64", "traffic.rate=200kpps", "traffic.pattern=poisson",
			      "host.sched_wake_idle=on", "nic.eth0.threaded-cpus=all" };
	const char *names[] = { "napi/eth0-1", "napi/eth0-2", "napi/eth0-3", "napi/eth0-4" };
	struct results r;
	double sum = 0;

	(void)state;
	run(all, 8, &r);
	assert_true(r.migrations > 0);
	assert_true(r.cpu[1].pct[ACCT_SYSTEM] > 1.0);
	results_free(&r);

	all[7] = "nic.eth0.threaded-cpus=irq";
	run(all, 8, &r);
	assert_int_equal(r.migrations, 0);
	assert_near(r.cpu[1].pct[ACCT_IDLE], 100.0, 1e-9);
	for (int q = 0; q < 4; q++)
		assert_int_equal(thread(&r, names[q])->cpu, 0);
	results_free(&r);

	all[7] = "nic.eth0.threaded-cpus=1";
	run(all, 8, &r);
	assert_int_equal(r.migrations, 0);
	for (int q = 0; q < 4; q++) {
		assert_int_equal(thread(&r, names[q])->cpu, 1);
		sum += thread(&r, names[q])->pct;
	}
	assert_true(sum > 1.0);
	/* CPU 1's system time is theirs plus the switches to them (context
	 * switches are system time charged to no thread); CPU 0 only takes
	 * the interrupts: no thread ever switched in, no system time */
	assert_true(r.cpu[1].pct[ACCT_SYSTEM] >= sum - 1e-6);
	assert_int_equal(r.cpu[0].cs, 0);
	assert_near(r.cpu[0].pct[ACCT_SYSTEM], 0.0, 1e-9);
	results_free(&r);
}

/* threaded = on at 100 kpps (Poisson) on one CPU shared with a cpu-hog.
 * SCHED_OTHER: the kthread uses about 28% of the CPU, so its vruntime is
 * no longer a wake-up granularity (1 ms) behind the hog's and a wake-up
 * does not preempt: frames wait for the hog's timeslice, p99 above 1 ms.
 * threaded-prio = 50 (SCHED_FIFO): every wake-up preempts the hog at once,
 * so a frame's latency is what it is without the hog, plus at most one
 * context switch (ctx-switch = 3 us on this profile): the switch back to
 * the hog, which a wake-up that comes during it waits for. */
static void test_fifo_preempts_hog(void **state)
{
	const char *other[] = { "host.cpus=1", "apps.cpu-hogs=1", "nic.eth0.threaded=on",
				"traffic.pattern=poisson", "traffic.rate=100kpps",
				"nic.eth0.threaded-prio=0" };
	struct results r, f, alone;

	(void)state;
	run(other, 6, &r);
	other[5] = "nic.eth0.threaded-prio=50";
	run(other, 6, &f);
	other[1] = "apps.cpu-hogs=0";
	run(other, 6, &alone);
	assert_true(r.lat_p99_us > 1000.0);
	assert_true(f.lat_max_us <= alone.lat_max_us + 3.0 + 0.1); /* + histogram bucket */
	assert_true(f.lat_p99_us < 20.0);
	assert_true(thread(&f, "hog/0")->pct > 10.0); /* the hog still gets the rest */
	results_free(&r);
	results_free(&f);
	results_free(&alone);
}

/* threaded = busy-poll on one CPU with a cpu-hog.  SCHED_OTHER: the two
 * always-runnable threads share the CPU by timeslices (4 ms), about half
 * each, and a frame that arrives during the hog's slice waits for it (p99
 * near 4 ms).  SCHED_FIFO 50: once the first frame woke it the kthread
 * never gives the CPU back (no fair thread preempts it, cond_resched()
 * finds nobody higher): the hog gets nothing in the window and every
 * frame's latency is exactly the hog-free run's. */
static void test_fifo_busy_poll_owns_cpu(void **state)
{
	const char *other[] = { "host.cpus=1", "apps.cpu-hogs=1", "nic.eth0.threaded=busy-poll",
				"nic.eth0.threaded-prio=0" };
	struct results r, f, alone;

	(void)state;
	run(other, 4, &r);
	other[3] = "nic.eth0.threaded-prio=50";
	run(other, 4, &f);
	other[1] = "apps.cpu-hogs=0";
	run(other, 4, &alone);
	assert_near(thread(&r, "hog/0")->pct, 50.0, 5.0);
	assert_true(r.lat_p99_us > 3000.0);
	assert_near(thread(&f, "hog/0")->pct, 0.0, 1e-9);
	assert_near(thread(&f, "napi/eth0-1")->pct, 100.0, 1e-9);
	assert_int_equal(f.cpu[0].cs, 0);
	assert_near(f.lat_max_us, alone.lat_max_us, 1e-9);
	assert_near(f.lat_p50_us, alone.lat_p50_us, 1e-9);
	results_free(&r);
	results_free(&f);
	results_free(&alone);
}

/* A SCHED_OTHER busy poller that has nothing to poll any more (10 frames,
 * then silence) still calls cond_resched(): its spin stops at the end of
 * its timeslice, and the hog on its CPU gets its half. */
static void test_busy_poll_idle_yields(void **state)
{
	const char *sets[] = { "host.cpus=1", "apps.cpu-hogs=1", "nic.eth0.threaded=busy-poll",
			       "traffic.count=10", "run.duration=100ms" };
	struct results r;

	(void)state;
	run(sets, 5, &r);
	assert_near(thread(&r, "hog/0")->pct, 50.0, 5.0);
	assert_near(thread(&r, "napi/eth0-1")->spin_pct, thread(&r, "napi/eth0-1")->pct, 1e-9);
	results_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_busy_poll_never_sleeps),
		cmocka_unit_test(test_busy_poll_spin),
		cmocka_unit_test(test_unpinned_migrate),
		cmocka_unit_test(test_fifo_preempts_hog),
		cmocka_unit_test(test_fifo_busy_poll_owns_cpu),
		cmocka_unit_test(test_busy_poll_idle_yields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
