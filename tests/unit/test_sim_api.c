/* test_sim_api.c - the public simulator API (include/rxlab/sim.h) as a
 * program that embeds it sees it: load from text or by name with
 * overrides, the errors that name what was wrong, the stop flag,
 * determinism, and runs in parallel threads.  Only the public header is included, so the test links
 * rxlab_sim and nothing above it.
 *
 * The host is test_sim.c's base: one PIII 933 CPU forwarding 64 B frames
 * from eth0 to eth1 under NAPI.  At 50 kpps it is far from saturation
 * (about 3.5 us of CPU per frame), so every frame offered in the window is
 * forwarded: 50000 * 15 ms = 750 frames, within one frame of the window
 * edges.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "rxlab/sim.h"

static const char BASE[] =
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
	"rate = 100kpps\n"
	"frame-size = 64\n"
	"[route]\n"
	"eth0 = eth1\n"
	"[run]\n"
	"duration = 20ms\n"
	"warmup = 5ms\n";

static struct rxl_scenario *load_text(const char *const *sets, size_t n)
{
	char err[512] = "";
	struct rxl_scenario *scn = rxl_scenario_load_text(BASE, "dir/api.ini", sets, n, err,
							  sizeof(err));

	if (!scn)
		fail_msg("rxl_scenario_load_text(): %s", err);
	return scn;
}

static void run_ok(const struct rxl_scenario *scn, const volatile sig_atomic_t *stop,
		   struct results *r)
{
	char err[512] = "";
	int rc = rxl_sim_run(scn, stop, r, err, sizeof(err));

	if (rc)
		fail_msg("rxl_sim_run() = %d: %s", rc, err);
}

/* An override changes the scenario, and the run measures what it says. */
static void test_text_with_override(void **state)
{
	const char *sets[] = { "traffic.rate=50kpps" };
	struct rxl_scenario *scn = load_text(sets, 1);
	const struct scenario *s = rxl_scenario_get(scn);
	struct results r;

	(void)state;
	assert_string_equal(s->name, "api");
	assert_int_equal(s->traffic[0].rate_pps, 50000);
	assert_int_equal(s->nic[1].tx_clean, TX_CLEAN_XMIT);
	run_ok(scn, NULL, &r);
	assert_string_equal(r.scenario, "api");
	assert_string_equal(r.rxpath, "napi");
	assert_false(r.partial);
	assert_int_equal(r.t_end, 20000000);
	assert_true(fabs(r.window_s - 0.015) < 1e-12);
	assert_true(r.offered_pps == 50000);
	/* 750 frames in the window, +-1 at its edges: +-1 / 15 ms */
	assert_true(fabs(r.forwarded_pps - 50000) <= 1 / 0.015 + 1e-6);
	assert_int_equal(r.drops_total, 0);
	assert_int_equal(r.n_nics, 2);
	assert_string_equal(r.nic[0].name, "eth0");
	assert_int_equal(r.n_cpus, 1);
	assert_non_null(r.cpu);
	assert_true(fabs(r.cpu[0].pct[ACCT_USER] + r.cpu[0].pct[ACCT_SYSTEM] +
			 r.cpu[0].pct[ACCT_HARDIRQ] + r.cpu[0].pct[ACCT_SOFTIRQ] +
			 r.cpu[0].pct[ACCT_IDLE] - 100) < 1e-6);
	results_free(&r);
	assert_null(r.cpu);
	assert_null(r.thr);
	results_free(&r);       /* a second call is harmless */
	rxl_scenario_free(scn);
}

/* A built-in scenario by name, with overrides in both units it accepts. */
static void test_builtin_by_name(void **state)
{
	char err[512] = "";
	const char *sets[] = { "host.rxpath=classic", "traffic.rate=1.2Mpps", "run.duration=50ms",
			       "run.warmup=10ms" };
	struct rxl_scenario *scn = rxl_scenario_load("livelock", sets, 4, err, sizeof(err));
	const struct scenario *s;

	(void)state;
	if (!scn)
		fail_msg("%s", err);
	s = rxl_scenario_get(scn);
	assert_string_equal(s->name, "livelock");
	assert_int_equal(s->host.rxpath, RXPATH_CLASSIC);
	assert_int_equal(s->traffic[0].rate_pps, 1200000);
	assert_int_equal(s->run.duration_ns, 50000000);
	rxl_scenario_free(scn);
	rxl_scenario_free(NULL);
}

/* A bad key is refused, and the message names it and its near miss. */
static void test_bad_key_named(void **state)
{
	char err[512] = "";
	const char *sets[] = { "traffic.rate=50kpps", "traffic.rat=1Mpps" };

	(void)state;
	assert_null(rxl_scenario_load_text(BASE, "api.ini", sets, 2, err, sizeof(err)));
	assert_string_equal(err, "--set traffic.rat=1Mpps: unknown key 'rat' in [traffic]; "
				 "did you mean 'rate'?");
	assert_null(rxl_scenario_load_text("[nic eth0]\nrx-ring = 0\n", "bad.ini", NULL, 0, err,
					   sizeof(err)));
	assert_non_null(strstr(err, "bad.ini:2: rx-ring = 0 is out of range"));
	assert_null(rxl_scenario_load("no-such-scenario-xyzzy", NULL, 0, err, sizeof(err)));
	assert_non_null(strstr(err, "no such file or built-in scenario 'no-such-scenario-xyzzy'"));
}

/* A stop flag already set: the run ends after its first event, in the
 * warm-up (the first frame is on the wire after 672 ns), and reports
 * that part of the time as its window. */
static void test_stop_before_run(void **state)
{
	volatile sig_atomic_t stop = 1;
	struct rxl_scenario *scn = load_text(NULL, 0);
	struct results r;

	(void)state;
	run_ok(scn, &stop, &r);
	assert_true(r.partial);
	assert_true(r.t_end > 0 && r.t_end < 5000000);
	assert_true(r.window_s > 0 && r.window_s == (double)r.t_end / 1e9);
	assert_int_equal(r.events, 1);
	assert_non_null(r.cpu);
	results_free(&r);
	rxl_scenario_free(scn);
}

/* Byte for byte, scalars and owned arrays, with random arrivals, an
 * adaptive controller (series) and vmstat samples in play. */
static void assert_same(const struct results *a, const struct results *b)
{
	struct results x = *a, y = *b;

	assert_int_equal(a->n_cpus, b->n_cpus);
	assert_int_equal(a->n_threads, b->n_threads);
	assert_int_equal(a->n_series, b->n_series);
	assert_int_equal(a->n_vm, b->n_vm);
	assert_memory_equal(a->cpu, b->cpu, a->n_cpus * sizeof(*a->cpu));
	assert_memory_equal(a->thr, b->thr, a->n_threads * sizeof(*a->thr));
	for (uint32_t i = 0; i < a->n_series; i++) { /* field by field: struct padding is not data */
		assert_int_equal(a->series[i].t, b->series[i].t);
		assert_int_equal(a->series[i].nic, b->series[i].nic);
		assert_int_equal(a->series[i].kind, b->series[i].kind);
		assert_int_equal(a->series[i].ix, b->series[i].ix);
		assert_int_equal(a->series[i].usecs_ns, b->series[i].usecs_ns);
		assert_int_equal(a->series[i].frames, b->series[i].frames);
	}
	assert_memory_equal(a->vm, b->vm, a->n_vm * sizeof(*a->vm));
	assert_int_equal(a->n_queues, b->n_queues);
	assert_memory_equal(a->queue, b->queue, a->n_queues * sizeof(*a->queue));
	assert_memory_equal(a->queue_irq_cpu, b->queue_irq_cpu,
			    (size_t)a->n_queues * a->n_cpus * sizeof(*a->queue_irq_cpu));
	x.queue = y.queue = NULL;
	x.queue_irq_cpu = y.queue_irq_cpu = NULL;
	x.cpu = y.cpu = NULL;
	x.thr = y.thr = NULL;
	x.series = y.series = NULL;
	x.vm = y.vm = NULL;
	assert_memory_equal(&x, &y, sizeof(x));
}

static void test_deterministic(void **state)
{
	const char *sets[] = { "traffic.pattern=poisson", "traffic.rate=200kpps",
			       "nic.eth0.adaptive-rx=dim", "run.vmstat-interval=1ms" };
	struct rxl_scenario *scn = load_text(sets, 4);
	struct results a, b;

	(void)state;
	run_ok(scn, NULL, &a);
	run_ok(scn, NULL, &b);
	assert_true(a.n_series > 0);
	assert_int_equal(a.n_vm, 21);
	assert_same(&a, &b);
	results_free(&a);
	results_free(&b);
	rxl_scenario_free(scn);
}

struct job {
	const struct rxl_scenario *scn;
	struct results r;
	int rc;
};

static void *run_job(void *arg)
{
	struct job *j = arg;
	char err[512];

	j->rc = rxl_sim_run(j->scn, NULL, &j->r, err, sizeof(err));
	return NULL;
}

/* The library keeps no state of its own: two threads running one
 * scenario at once (long enough, about 20 ms of wall time, for them to
 * overlap) get what one run alone gets. */
static void test_threads_share_a_scenario(void **state)
{
	const char *sets[] = { "traffic.pattern=poisson", "traffic.rate=300kpps",
			       "nic.eth0.adaptive-rx=dim", "run.duration=500ms" };
	struct rxl_scenario *scn = load_text(sets, 4);
	struct job j[2] = { { .scn = scn }, { .scn = scn } };
	pthread_t t[2];
	struct results one;

	(void)state;
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, run_job, &j[i]), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	run_ok(scn, NULL, &one);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(j[i].rc, 0);
		assert_same(&j[i].r, &one);
		results_free(&j[i].r);
	}
	results_free(&one);
	rxl_scenario_free(scn);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_with_override),
		cmocka_unit_test(test_builtin_by_name),
		cmocka_unit_test(test_bad_key_named),
		cmocka_unit_test(test_stop_before_run),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_threads_share_a_scenario),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
