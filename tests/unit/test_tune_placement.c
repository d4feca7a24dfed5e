/* test_tune_placement.c - the IRQ / NAPI-thread placements tune tries
 * (tune/placement.h): which candidates a scenario has, their CPUs and
 * overrides, derived by hand from the scenario's keys. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "model/scenario_load.h"
#include "model/trace_load.h"
#include "tune/placement.h"

static char err[512];
static struct scenario scn;
static struct tune_placement pl[TUNE_MAX_PLACEMENTS];

/* memcached (16 CPUs, 8 queues) with @sets; the candidates of eth0. */
static size_t candidates(const char *name, const char **sets, size_t n)
{
	int rc = scenario_load(&scn, name, sets, n, err, sizeof(err));

	if (rc)
		fprintf(stderr, "%s\n", err);
	assert_int_equal(rc, 0);
	return tune_placements(&scn, 0, pl, TUNE_MAX_PLACEMENTS);
}

static void assert_cand(size_t i, const char *name, const char *cpus, const char *affinity)
{
	char set[160];

	assert_string_equal(pl[i].name, name);
	assert_string_equal(pl[i].cpus, cpus);
	assert_string_equal(pl[i].affinity, affinity);
	assert_false(pl[i].threaded);
	assert_true(pl[i].reason[0] != '\0');
	if (!affinity[0]) {
		assert_int_equal(pl[i].n_sets, 0);	/* as-configured: no override */
		return;
	}
	snprintf(set, sizeof(set), "nic.eth0.irq-affinity=%s", affinity);
	assert_string_equal(pl[i].set[pl[i].n_sets - 1], set);
}

static void test_cpu_list_text(void **state)
{
	const uint16_t a[] = { 0, 1, 2, 5, 6, 9 }, same[] = { 3, 3, 3, 3 }, down[] = { 3, 2, 1 };
	char buf[48];

	(void)state;
	assert_int_equal(tune_cpu_list_text(a, 6, buf, sizeof(buf)), 9);
	assert_string_equal(buf, "0-2,5-6,9");
	tune_cpu_list_text(same, 4, buf, sizeof(buf));
	assert_string_equal(buf, "3");
	tune_cpu_list_text(down, 3, buf, sizeof(buf));
	assert_string_equal(buf, "3,2,1");
	/* too small: the length it needs, and a terminated prefix */
	assert_int_equal(tune_cpu_list_text(a, 6, buf, 4), 9);
	assert_true(strlen(buf) < 4);
}

/* memcached as shipped: vectors 0-7 = spread = the CPUs no worker has,
 * so only with-app (the workers' 8-15) differs from as-configured. */
static void test_memcached_shipped(void **state)
{
	(void)state;
	assert_int_equal(candidates("memcached", NULL, 0), 2);
	assert_cand(0, "as-configured", "0-7", "");
	assert_cand(1, "with-app", "8-15", "8-15");
	for (uint16_t q = 0; q < 8; q++)
		assert_int_equal(pl[1].cpu[q], 8 + q);
}

/* Workers on 4-11, every vector on CPU 0: four distinct placements. */
static void test_memcached_all_four(void **state)
{
	const char *sets[] = { "apps.server-cpus=4-11", "nic.eth0.irq-affinity=0" };
	const uint16_t apart[] = { 0, 1, 2, 3, 12, 13, 14, 15 };

	(void)state;
	assert_int_equal(candidates("memcached", sets, 2), 4);
	assert_cand(0, "as-configured", "0", "");
	assert_cand(1, "spread", "0-7", "spread");
	assert_cand(2, "with-app", "4-11", "4-11");
	assert_cand(3, "apart", "0-3,12-15", "0-3,12-15");
	assert_memory_equal(pl[3].cpu, apart, sizeof(apart));
}

/* More queues than workers: queue Q goes to worker Q mod 4. */
static void test_with_app_wraps(void **state)
{
	const char *sets[] = { "apps.server-threads=4", "apps.server-cpus=12-15" };

	(void)state;
	assert_int_equal(candidates("memcached", sets, 2), 2);
	assert_cand(1, "with-app", "12-15,12-15", "12-15,12-15");
}

/* Unpinned workers: nobody reads a given queue from a known CPU, and no
 * CPU is kept by a worker; rr spreading: no worker owns a queue. */
static void test_no_app_cpu(void **state)
{
	const char *all[] = { "apps.server-cpus=all", "nic.eth0.irq-affinity=0" };
	const char *rr[] = { "apps.server-spread=rr", "apps.server-cpus=4-11",
			     "nic.eth0.irq-affinity=0" };

	(void)state;
	assert_int_equal(candidates("memcached", all, 2), 2);
	assert_cand(1, "spread", "0-7", "spread");
	assert_int_equal(candidates("memcached", rr, 3), 3);
	assert_cand(1, "spread", "0-7", "spread");
	assert_cand(2, "apart", "0-3,12-15", "0-3,12-15");
}

/* Fewer free CPUs than queues (6 for 8): no apart; with-app (worker Q
 * on CPU Q) is spread's placement, so it is not tried twice. */
static void test_apart_needs_room(void **state)
{
	const char *sets[] = { "apps.server-threads=10", "apps.server-cpus=0-9",
			       "nic.eth0.irq-affinity=15" };

	(void)state;
	assert_int_equal(candidates("memcached", sets, 3), 2);
	assert_cand(0, "as-configured", "15", "");
	assert_cand(1, "spread", "0-7", "spread");
}

/* A floating vector: the others end irq-cpu = float first. */
static void test_float(void **state)
{
	const char *sets[] = { "nic.eth0.irq-cpu=float", "nic.eth0.irq-affinity=0",
			       "apps.server-cpus=4-11" };
	struct tune_placement t;

	(void)state;
	assert_true(candidates("memcached", sets, 3) >= 2);
	assert_true(pl[0].floating);
	assert_string_equal(pl[1].name, "spread");
	assert_string_equal(pl[1].set[0], "nic.eth0.irq-cpu=0");
	assert_false(tune_placement_threaded(&scn, 0, &pl[0], &t));	/* no CPU to pin to */
	assert_true(tune_placement_threaded(&scn, 0, &pl[1], &t));
}

static void test_threaded(void **state)
{
	const char *sets[] = { "apps.server-cpus=4-11", "nic.eth0.irq-affinity=0" };
	const char *on[] = { "nic.eth0.threaded=on" };
	struct tune_placement t;

	(void)state;
	candidates("memcached", sets, 2);
	assert_true(tune_placement_threaded(&scn, 0, &pl[3], &t));
	assert_string_equal(t.name, "threaded");
	assert_true(t.threaded);
	assert_string_equal(t.cpus, "0-3,12-15");
	assert_int_equal(t.n_sets, 3);
	assert_string_equal(t.set[0], "nic.eth0.irq-affinity=0-3,12-15");
	assert_string_equal(t.set[1], "nic.eth0.threaded=on");
	assert_string_equal(t.set[2], "nic.eth0.threaded-cpus=irq");
	assert_non_null(strstr(t.reason, "apart's vectors"));
	/* as-configured: only the kthreads */
	assert_true(tune_placement_threaded(&scn, 0, &pl[0], &t));
	assert_int_equal(t.n_sets, 2);
	assert_string_equal(t.set[0], "nic.eth0.threaded=on");
	/* a port that is threaded already has no such candidate, and the
	 * others move its vectors but stay threaded */
	assert_int_equal(candidates("memcached", on, 1), 2);
	assert_true(pl[0].threaded);
	assert_false(tune_placement_threaded(&scn, 0, &pl[0], &t));
	assert_string_equal(pl[1].name, "with-app");
	assert_true(pl[1].threaded);
	assert_int_equal(pl[1].n_sets, 1);
}

/* One queue: no placement stage. */
static void test_single_queue(void **state)
{
	(void)state;
	assert_int_equal(candidates("udp-sink", NULL, 0), 0);
	assert_int_equal(candidates("rr-server", NULL, 0), 0);
	assert_int_equal(tune_placements(&scn, 5, pl, TUNE_MAX_PLACEMENTS), 0);
	trace_cache_free();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_list_text),
		cmocka_unit_test(test_memcached_shipped),
		cmocka_unit_test(test_memcached_all_four),
		cmocka_unit_test(test_with_app_wraps),
		cmocka_unit_test(test_no_app_cpu),
		cmocka_unit_test(test_apart_needs_room),
		cmocka_unit_test(test_float),
		cmocka_unit_test(test_threaded),
		cmocka_unit_test(test_single_queue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
