/* test_runq.c - the per-CPU run queues of the scheduler (src/sim/runq.c,
 * cpu.c): the heap's order, where threads are queued and woken, and that a
 * decision on one CPU does not look at the threads pinned on another.
 *
 * The host-level tests build a host with sim_init() and call the
 * scheduler directly at time 0, before any event runs, so every answer
 * follows from the placement rules alone:
 *   - threads are created ksoftirqd/0..N-1, then cpu-hogs (all on hog-cpu,
 *     runnable), then netperf/K on CPU 2K mod cpus (runnable) and
 *     netserver/K on CPU 2K+1 mod cpus (asleep), both without affinity;
 *   - every vruntime is 0 and every t_off 0, so the order among runnable
 *     threads is the thread index.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/scenario_load.h"
#include "sim/runq.h"
#include "sim/sim.h"

/* ---- the containers ---- */

static void test_heap_order_and_ties(void **state)
{
	struct rq_ent e[8];
	struct runq q = { .e = e, .cap = 8 };
	int32_t pos[10];
	/* (vruntime, id): ties at 3 go by the lower id. */
	static const int64_t v[] = { 5, 3, 3, 9, 3 };
	static const int32_t id[] = { 2, 7, 4, 1, 5 };
	static const int32_t want[] = { 4, 7, 2, 1 };

	(void)state;
	for (int i = 0; i < 10; i++)
		pos[i] = -1;
	for (int i = 0; i < 5; i++)
		runq_insert(&q, pos, v[i], id[i]);
	assert_int_equal(q.n, 5);
	assert_int_equal(runq_first(&q)->id, 4);
	/* Take one out of the middle: the others keep their order. */
	runq_erase(&q, pos, 5);
	assert_int_equal(pos[5], -1);
	for (int i = 0; i < 4; i++) {
		const struct rq_ent *f = runq_first(&q);

		assert_non_null(f);
		assert_int_equal(f->id, want[i]);
		assert_int_equal(q.e[pos[f->id]].id, f->id);
		runq_erase(&q, pos, f->id);
	}
	assert_null(runq_first(&q));
	assert_true(runq_before(3, 4, 3, 7));
	assert_false(runq_before(3, 7, 3, 7));
	assert_true(runq_before(2, 9, 3, 0));
}

static void test_list_add_del(void **state)
{
	struct rq_link links[4];
	struct rq_list l;
	int32_t seen[4], n = 0;

	(void)state;
	rq_list_init(&l);
	for (int32_t i = 1; i <= 3; i++)
		rq_list_add(&l, links, i);
	rq_list_del(&l, links, 2);
	for (int32_t i = l.head; i >= 0; i = links[i].next)
		seen[n++] = i;
	assert_int_equal(l.n, 2);
	assert_int_equal(n, 2);
	assert_int_equal(seen[0], 3); /* added at the head */
	assert_int_equal(seen[1], 1);
	rq_list_del(&l, links, 3);
	rq_list_del(&l, links, 1);
	assert_int_equal(l.head, -1);
	assert_int_equal(l.n, 0);
}

/* ---- a host at time 0 ---- */

struct host {
	struct scenario scn;
	struct sim sim;
};

static struct host *host_new(const char *ini)
{
	struct host *h = calloc(1, sizeof(*h));
	char err[512] = "";

	assert_non_null(h);
	if (scenario_load_text(&h->scn, ini, "runq.ini", NULL, 0, err, sizeof(err)))
		fail_msg("scenario_load_text(): %s", err);
	if (sim_init(&h->sim, &h->scn))
		fail_msg("sim_init(): %s", h->sim.fatal);
	return h;
}

static void host_free(struct host *h)
{
	char why[256];

	if (sched_check(&h->sim, why, sizeof(why)))
		fail_msg("sched_check(): %s", why);
	sim_free(&h->sim);
	free(h);
}

static int16_t thread_named(const struct sim *s, const char *name)
{
	for (uint16_t i = 0; i < s->n_threads; i++)
		if (!strcmp(s->thr[i].name, name))
			return (int16_t)i;
	fail_msg("no thread %s", name);
	return -1;
}

static bool cpu_idle_bit(const struct sim *s, uint16_t cpu)
{
	return s->sched.idle[cpu / 64] >> (cpu % 64) & 1;
}

#define HOST(cpus, extra) \
	"[host]\nprofile = piii-933-e1000\ncpus = " #cpus "\n" extra \
	"[nic eth0]\n[run]\nduration = 20ms\nwarmup = 0\n"

/* Three pinned hogs on CPU 1 of two: CPU 1's queue holds them, CPU 0's
 * nothing (its ksoftirqd sleeps); CPU 1 picks hog/0, the first of three
 * equal vruntimes, and it stays queued while CPU 1 switches to it. */
static void test_pinned_threads_queue_on_their_cpu(void **state)
{
	struct host *h = host_new(HOST(2, "[apps]\ncpu-hogs = 3\nhog-cpu = 1\n"));
	struct sim *s = &h->sim;

	(void)state;
	assert_int_equal(s->cpu[1].nr_running, 3);
	assert_int_equal(s->cpu[1].fair.n, 3);
	assert_int_equal(s->cpu[0].nr_running, 0);
	assert_int_equal(s->cpu[0].fair.n, 0);
	assert_true(cpu_idle_bit(s, 0));
	assert_false(cpu_idle_bit(s, 1));
	sched_pick(s, &s->cpu[1]);
	assert_int_equal(s->cpu[1].next, thread_named(s, "hog/0"));
	assert_int_equal(s->cpu[1].fair.n, 3);
	sched_pick(s, &s->cpu[0]);
	assert_int_equal(s->cpu[0].cur, -1);
	assert_int_equal(s->cpu[0].next, -1);
	host_free(h);
}

/* Four CPUs: netperf/0 on CPU 0, netserver/0 on 1, netperf/1 on 2,
 * netserver/1 on 3, a hog on CPU 1.  With sched_wake_idle, netserver/0
 * wakes while CPU 1 is busy (the hog): CPU 2 is busy (netperf/1), CPU 3
 * has no thread, so it goes to CPU 3 and CPU 3 switches to it.  Then
 * netserver/1 wakes on CPU 3, now busy: 4.. is past the last CPU, 0, 1, 2
 * are busy: it stays.  Without the key netserver/0 waits on CPU 1. */
static void test_woken_roaming_thread_goes_to_idle_cpu(void **state)
{
	char ini[512];

	(void)state;
	for (int on = 1; on >= 0; on--) {
		snprintf(ini, sizeof(ini),
			 HOST(4, "%s[apps]\ncpu-hogs = 1\nhog-cpu = 1\nnetperf = 2\n"),
			 on ? "sched_wake_idle = on\n" : "");
		struct host *h = host_new(ini);
		struct sim *s = &h->sim;
		int16_t ns0 = thread_named(s, "netserver/0"), ns1 = thread_named(s, "netserver/1");

		assert_int_equal(s->thr[ns0].cpu, 1);
		assert_true(cpu_idle_bit(s, 3));
		sched_wake(s, &s->thr[ns0]);
		if (!on) {
			assert_int_equal(s->thr[ns0].cpu, 1);
			assert_int_equal(s->cpu[1].nr_running, 2);
			assert_int_equal(s->cpu[3].sn.migrations, 0);
			host_free(h);
			continue;
		}
		assert_int_equal(s->thr[ns0].cpu, 3);
		assert_int_equal(s->cpu[3].sn.migrations, 1);
		assert_int_equal(s->cpu[3].next, ns0);
		assert_false(cpu_idle_bit(s, 3));
		assert_int_equal(s->cpu[1].nr_running, 1);
		sched_wake(s, &s->thr[ns1]);
		assert_int_equal(s->thr[ns1].cpu, 3);
		assert_int_equal(s->cpu[3].nr_running, 2);
		host_free(h);
	}
}

/* netperf/0 on CPU 0, netserver/0 on CPU 1, a hog on CPU 2, CPU 3 free:
 * netserver/0 wakes with sched_wake_idle and CPU 1 has no thread, so it
 * stays there (select_idle_sibling() takes the previous CPU when it is
 * idle) although CPU 3 is free too. */
static void test_woken_thread_stays_on_its_idle_cpu(void **state)
{
	struct host *h = host_new(HOST(4, "sched_wake_idle = on\n[apps]\ncpu-hogs = 1\n"
					  "hog-cpu = 2\nnetperf = 1\n"));
	struct sim *s = &h->sim;
	int16_t ns = thread_named(s, "netserver/0");

	(void)state;
	assert_true(cpu_idle_bit(s, 1));
	assert_true(cpu_idle_bit(s, 3));
	sched_wake(s, &s->thr[ns]);
	assert_int_equal(s->thr[ns].cpu, 1);
	assert_int_equal(s->cpu[1].next, ns);
	assert_int_equal(s->cpu[1].sn.migrations, 0);
	assert_true(cpu_idle_bit(s, 3));
	host_free(h);
}

/* Two CPUs, netperf/0 and K pinned hogs runnable on CPU 0, CPU 1 with
 * nothing to run.  CPU 1 balances: CPU 0 is in the pullable bitmap (load
 * K + 1, one roaming thread); its roaming list holds netperf/0 alone (1
 * thread examined), cold with sched_migration_cost = 0, so CPU 1 takes it
 * and finds its own queue position by walking its own threads,
 * ksoftirqd/1 and netserver/0 (2 more).  3 whatever K: the hogs are never
 * looked at.  CPU 0 picking afterwards (hog/0, the lowest index of equal
 * vruntimes) looks at no thread one by one. */
static void test_balancing_ignores_pinned_threads_elsewhere(void **state)
{
	static const int hogs[] = { 1, 200 };
	char ini[512];

	(void)state;
	for (int k = 0; k < 2; k++) {
		snprintf(ini, sizeof(ini),
			 HOST(2, "sched_migration_cost = 0\n[apps]\ncpu-hogs = %d\nhog-cpu = 0\n"
				 "netperf = 1\n"), hogs[k]);
		struct host *h = host_new(ini);
		struct sim *s = &h->sim;
		int16_t np = thread_named(s, "netperf/0");

		assert_int_equal(s->cpu[0].nr_running, hogs[k] + 1);
		sched_pick(s, &s->cpu[1]);
		assert_int_equal(s->sched.visits, 3);
		assert_int_equal(s->thr[np].cpu, 1);
		assert_int_equal(s->cpu[1].next, np);
		assert_int_equal(s->cpu[1].sn.migrations, 1);
		assert_int_equal(s->thr[np].vruntime, 0);
		sched_pick(s, &s->cpu[0]);
		assert_int_equal(s->cpu[0].next, thread_named(s, "hog/0"));
		assert_int_equal(s->sched.visits, 3);
		host_free(h);
	}
}

/* The same host with the default sched_migration_cost (500 us): netperf/0
 * is cache-hot at time 0 (t_off 0), so CPU 1 takes nothing and balances
 * again at the first tick at or after 500 us (hz 1000: 1 ms). */
static void test_hot_thread_stays_and_balance_is_rearmed(void **state)
{
	struct host *h = host_new(HOST(2, "[apps]\ncpu-hogs = 2\nhog-cpu = 0\nnetperf = 1\n"));
	struct sim *s = &h->sim;
	int64_t jiffy = 1000000000 / s->scn->host.hz;
	int64_t cold = s->scn->host.sched_migration_cost_ns;

	(void)state;
	sched_pick(s, &s->cpu[1]);
	assert_int_equal(s->sched.visits, 1);
	assert_int_equal(s->thr[thread_named(s, "netperf/0")].cpu, 0);
	assert_int_equal(s->cpu[1].next, -1);
	assert_int_equal(s->cpu[1].balance_t, (cold + jiffy - 1) / jiffy * jiffy);
	assert_int_equal(s->cpu[1].balance_t, 1000000);
	host_free(h);
}

/* A whole run with roaming threads, with and without sched_wake_idle: two
 * connections on 5 CPUs (netperf/0 on 0, netserver/0 on 1, netperf/1 on
 * 2, netserver/1 on 3) and a hog sharing CPU 1, CPU 4 free.  The queues
 * agree with the threads table at the end (sched_check, through
 * sim_check_invariants), and the wake-up placement moves netserver/0 off
 * the hog's CPU more often than idle balancing alone does. */
static uint64_t run_migrations(bool wake_idle)
{
	char ini[512];
	uint64_t m = 0;

	snprintf(ini, sizeof(ini),
		 HOST(5, "%s[apps]\nnetperf = 2\ncpu-hogs = 1\nhog-cpu = 1\n"), wake_idle ?
		 "sched_wake_idle = on\n" : "");
	struct host *h = host_new(ini);
	struct sim *s = &h->sim;

	if (sim_run(s))
		fail_msg("sim_run(): %s", s->fatal);
	assert_int_equal(sim_check_invariants(s), 0);
	for (uint16_t i = 0; i < s->n_cpus; i++)
		m += s->cpu[i].sn.migrations;
	host_free(h);
	return m;
}

static void test_whole_run_keeps_queues_consistent(void **state)
{
	uint64_t off = run_migrations(false), on = run_migrations(true);

	(void)state;
	assert_true(on > off);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_heap_order_and_ties),
		cmocka_unit_test(test_list_add_del),
		cmocka_unit_test(test_pinned_threads_queue_on_their_cpu),
		cmocka_unit_test(test_woken_roaming_thread_goes_to_idle_cpu),
		cmocka_unit_test(test_woken_thread_stays_on_its_idle_cpu),
		cmocka_unit_test(test_balancing_ignores_pinned_threads_elsewhere),
		cmocka_unit_test(test_hot_thread_stays_and_balance_is_rearmed),
		cmocka_unit_test(test_whole_run_keeps_queues_consistent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
