/* test_sim_idle.c - idle states and the latency of a wake-up, through the
 * simulator (scenario_load_text(), sim_init(), sim_run(), results_collect()).
 *
 * Host (profiles/piii-933-e1000.ini): one port, a constant 64 B source at
 * 50 kpps (a frame every 20 us), NAPI, no moderation, forwarding to eth1
 * with tx-clean = xmit (no TX interrupt).  Each frame is one interrupt and
 * one poll, about 10 us of work, and the CPU is idle in between: every
 * interrupt is one wake-up of an idle CPU.
 *
 * The tests give the profile an idle-state table in code (the loader's
 * [cstates] is tested in test_profile.c) and compare against the same run
 * without one (idle-exit 0):
 *   - exit latency: POLL 0/0 and C1 5 us / 1 us.  The menu governor's first
 *     choice has no history and the sleep length of a CPU without timers
 *     (1 s): C1; afterwards the typical interval (about 10 us) is consistent
 *     and still above C1's 1 us residency: C1 every time.  So each frame
 *     waits exactly 5 us more (latency mean and max +5000 ns), the CPU's
 *     hard-IRQ and softirq time do not change (the exit is idle time, as
 *     cpuidle counts it), and C1 is entered once per interrupt of the
 *     window: exactly one exit per wake-up.
 *   - max-cstate = 0 leaves only POLL: no exit latency, the latency of the
 *     run without the table; idle = poll the same, reported as POLL.
 *   - sched-wake: a UDP sink thread on CPU 1 woken by the NAPI poll on
 *     CPU 0 (10 kpps, the thread sleeps between datagrams) gets each
 *     datagram exactly sched-wake later; on CPU 0 (a local wake-up) no
 *     later at all.
 *   - cold-wake: 2 us of CPU time after each idle period of at least
 *     cold-after.  At cold-after 5 us (the gaps are about 10 us) every
 *     interrupt pays it once: each frame 2 us later, the hard-IRQ share up
 *     and the idle share down by 2 us per interrupt of the window, with or
 *     without the table (with it, after the 5 us exit, which stays idle);
 *     at cold-after 50 us no gap is that long: the run without it.
 *   - a NAPI kthread whose wake-up from another CPU is in flight when the
 *     run ends still owns its NAPI (the end-of-run invariant).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/scenario_load.h"
#include "sim/results.h"
#include "sim/sim.h"

static const char FWD[] =
	"[host]\n"
	"profile = piii-933-e1000\n"
	"cpus = 1\n"
	"rxpath = napi\n"
	"[nic eth0]\n"
	"rx-usecs = 0\n"
	"rx-frames = 1\n"
	"[nic eth1]\n"
	"tx-clean = xmit\n"
	"[traffic]\n"
	"port = eth0\n"
	"pattern = constant\n"
	"rate = 50kpps\n"
	"frame-size = 64\n"
	"[route]\n"
	"eth0 = eth1\n"
	"[run]\n"
	"duration = 20ms\n"
	"warmup = 5ms\n";

static const char SINK[] =
	"[host]\n"
	"profile = piii-933-e1000\n"
	"cpus = 2\n"
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
	"[run]\n"
	"duration = 20ms\n"
	"warmup = 5ms\n";

struct run {
	struct scenario scn;
	struct sim sim;
	struct results r;
};

/* What the next run's profile gets besides the file: a two-state table
 * (POLL, C1 5 us) and a sched-wake. */
static bool with_table;
static int64_t with_sched_wake;
static int64_t with_cold_wake, with_cold_after;

static void give_table(struct profile *p)
{
	p->idle_exit_ns = 0;
	p->cstates_given = true;
	p->n_cstates = 2;
	p->cstate[0] = (struct profile_cstate){ .name = "POLL" };
	p->cstate[1] = (struct profile_cstate){ .name = "C1", .exit_ns = 5000,
						.residency_ns = 1000 };
}

static struct run *run_sets(const char *ini, const char *const *sets, size_t n_sets)
{
	struct run *x = calloc(1, sizeof(*x));
	char err[512] = "";
	int rc;

	assert_non_null(x);
	rc = scenario_load_text(&x->scn, ini, "idle.ini", sets, n_sets, err, sizeof(err));
	if (rc)
		fail_msg("scenario_load_text() = %d: %s", rc, err);
	x->scn.profile.idle_exit_ns = 0;
	if (with_table)
		give_table(&x->scn.profile);
	x->scn.profile.sched_wake_ns = with_sched_wake;
	x->scn.profile.cold_wake_ns = with_cold_wake;
	x->scn.profile.cold_after_ns = with_cold_after;
	with_table = false;
	with_sched_wake = with_cold_wake = with_cold_after = 0;
	if (sim_init(&x->sim, &x->scn))
		fail_msg("sim_init(): %s", x->sim.fatal);
	if (sim_run(&x->sim))
		fail_msg("sim_run(): %s", x->sim.fatal);
	if (results_collect(&x->r, &x->sim))
		fail_msg("results_collect() failed");
	return x;
}

#define SETS(...) (const char *const[]){ __VA_ARGS__ }, \
	(sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *))
#define RUN(ini, ...) run_sets(ini, SETS(__VA_ARGS__))

static void run_free(struct run *x)
{
	results_free(&x->r);
	sim_free(&x->sim);
	free(x);
}

static void test_exit_once_per_wakeup(void **state)
{
	struct run *a = RUN(FWD, "run.seed=1");
	struct run *b;

	with_table = true;
	b = RUN(FWD, "run.seed=1");
	(void)state;
	assert_true(b->r.cstates_table);
	assert_int_equal(b->r.n_cstates, 2);
	assert_string_equal(b->r.cstate_name[1], "C1");
	assert_int_equal(b->r.nic[0].c.rx_irqs, a->r.nic[0].c.rx_irqs);
	assert_int_equal(b->r.nic[0].c.rx_irqs, 750); /* 15 ms at 50 kpps */
	/* one exit per wake-up: C1 entered once per interrupt, POLL never */
	assert_int_equal(b->r.cpu[0].cstate_usage[1], b->r.nic[0].c.rx_irqs);
	assert_int_equal(b->r.cpu[0].cstate_usage[0], 0);
	assert_float_equal((b->r.lat_max_us - a->r.lat_max_us) * 1e3, 5000, 1);
	assert_float_equal((b->r.lat_mean_us - a->r.lat_mean_us) * 1e3, 5000, 1);
	/* the exit is idle time: the busy buckets are those of the run without */
	assert_float_equal(b->r.cpu[0].pct[ACCT_HARDIRQ], a->r.cpu[0].pct[ACCT_HARDIRQ], 0.01);
	assert_float_equal(b->r.cpu[0].pct[ACCT_SOFTIRQ], a->r.cpu[0].pct[ACCT_SOFTIRQ], 0.01);
	assert_float_equal(b->r.cpu[0].pct[ACCT_IDLE], a->r.cpu[0].pct[ACCT_IDLE], 0.01);
	/* ... and residency in C1 is all of it */
	assert_float_equal(b->r.cpu[0].cstate_pct[1], b->r.cpu[0].pct[ACCT_IDLE], 0.01);
	run_free(a);
	run_free(b);
}

static void test_max_cstate_and_poll(void **state)
{
	struct run *a = RUN(FWD, "run.seed=1");
	struct run *b, *c;

	with_table = true;
	b = RUN(FWD, "host.max-cstate=0");
	with_table = true;
	c = RUN(FWD, "host.idle=poll");
	(void)state;
	assert_int_equal(b->r.n_cstates, 1);
	assert_string_equal(b->r.cstate_name[0], "POLL");
	assert_int_equal(b->r.cpu[0].cstate_usage[0], b->r.nic[0].c.rx_irqs);
	assert_float_equal(b->r.lat_max_us, a->r.lat_max_us, 1e-3);
	assert_float_equal(b->r.lat_mean_us, a->r.lat_mean_us, 1e-3);
	assert_true(c->r.cstates_table);
	assert_string_equal(c->r.cstate_name[0], "POLL");
	assert_float_equal(c->r.lat_mean_us, a->r.lat_mean_us, 1e-3);
	assert_float_equal(c->r.cpu[0].cstate_pct[0], c->r.cpu[0].pct[ACCT_IDLE], 0.01);
	run_free(a);
	run_free(b);
	run_free(c);
}

/* Run FWD with cold-wake 2 us after @after ns of idle (and the table). */
static struct run *run_cold(int64_t after, bool table)
{
	with_cold_wake = 2000;
	with_cold_after = after;
	with_table = table;
	return RUN(FWD, "run.seed=1");
}

static void assert_cold(const struct run *a, const struct run *b, double extra_lat_ns)
{
	double per_irq_pct = 100.0 * 2000 * (double)a->r.nic[0].c.rx_irqs / 15e6;

	assert_int_equal(b->r.nic[0].c.rx_irqs, a->r.nic[0].c.rx_irqs);
	assert_float_equal((b->r.lat_mean_us - a->r.lat_mean_us) * 1e3, extra_lat_ns, 1);
	assert_float_equal((b->r.lat_max_us - a->r.lat_max_us) * 1e3, extra_lat_ns, 1);
	assert_float_equal(b->r.cpu[0].pct[ACCT_HARDIRQ] - a->r.cpu[0].pct[ACCT_HARDIRQ],
			   per_irq_pct, 0.05);
	assert_float_equal(a->r.cpu[0].pct[ACCT_IDLE] - b->r.cpu[0].pct[ACCT_IDLE], per_irq_pct,
			   0.05);
}

static void test_cold_wake(void **state)
{
	struct run *a = RUN(FWD, "run.seed=1"), *b = run_cold(5000, false);
	struct run *c = run_cold(50000, false), *d, *e;

	(void)state;
	with_table = true;
	d = RUN(FWD, "run.seed=1");
	e = run_cold(5000, true);
	assert_int_equal(a->r.nic[0].c.rx_irqs, 750);
	assert_cold(a, b, 2000);
	/* no gap of 50 us: not one cold wake-up */
	assert_float_equal(c->r.lat_mean_us, a->r.lat_mean_us, 1e-3);
	assert_float_equal(c->r.cpu[0].pct[ACCT_IDLE], a->r.cpu[0].pct[ACCT_IDLE], 1e-6);
	/* with the table: after the exit, which is still idle time */
	assert_cold(d, e, 2000);
	run_free(a);
	run_free(b);
	run_free(c);
	run_free(d);
	run_free(e);
}

static void test_sched_wake_remote_only(void **state)
{
	struct run *r0 = RUN(SINK, "apps.sink-cpu=1");
	struct run *r1, *l0, *l1;

	with_sched_wake = 7000;
	r1 = RUN(SINK, "apps.sink-cpu=1");
	l0 = RUN(SINK, "apps.sink-cpu=0");
	with_sched_wake = 7000;
	l1 = RUN(SINK, "apps.sink-cpu=0");
	(void)state;
	assert_int_equal(r1->r.lat_samples, 150); /* 15 ms at 10 kpps */
	assert_float_equal((r1->r.lat_mean_us - r0->r.lat_mean_us) * 1e3, 7000, 1);
	assert_float_equal((r1->r.lat_max_us - r0->r.lat_max_us) * 1e3, 7000, 1);
	assert_float_equal(l1->r.lat_mean_us, l0->r.lat_mean_us, 1e-3);
	run_free(r0);
	run_free(r1);
	run_free(l0);
	run_free(l1);
}

/* A NAPI kthread on CPU 1 woken by its interrupt on CPU 0 (threaded, the
 * kthread pinned by threaded-cpus) is on its way for sched-wake = 5 us;
 * the end-of-run check must count a kthread whose wake-up is in flight as
 * the NAPI's owner.  One frame at 1 ms; the runs end every 1 us from
 * 1.000 to 1.030 ms, so that some end inside the 5 us: each must finish,
 * and the frame must be forwarded in the runs that end late enough. */
static void test_wake_in_flight_at_end(void **state)
{
	char dur[64];
	int forwarded = 0;

	(void)state;
	for (int us = 1000; us <= 1030; us++) {
		struct run *x;

		snprintf(dur, sizeof(dur), "run.duration=%dus", us);
		with_sched_wake = 5000;
		x = RUN(FWD, "host.cpus=2", "nic.eth0.threaded=1", "nic.eth0.threaded-cpus=1",
			"traffic.start=1ms", "traffic.count=1", "run.warmup=0", dur);
		forwarded += x->r.nic[1].c.tx_ok > 0;
		run_free(x);
	}
	assert_true(forwarded > 0 && forwarded < 31);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_once_per_wakeup),
		cmocka_unit_test(test_max_cstate_and_poll),
		cmocka_unit_test(test_cold_wake),
		cmocka_unit_test(test_sched_wake_remote_only),
		cmocka_unit_test(test_wake_in_flight_at_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
