/* test_float_cpu.c - irq-cpu = float's choice of a CPU (src/sim/cpu.c):
 * cpu_float_pick(), which reads the bitmaps of CPUs per busy level, gives
 * the CPU that cpu_float_scan() finds by looking at every CPU (the least
 * busy, round robin among equals from the one after the last choice), on
 * random busy levels, host sizes across bitmap words, and last choices.
 *
 * The bitmaps here are set from cpu_busy_rank() as the invariant says
 * (sched_check(), which every run's invariant checks call; the states are
 * poked into struct cpu, so the rest of sched_check() does not hold); that the
 * scheduler keeps them so while it runs is test_property's part (each
 * drawn scenario runs on the bitmaps and again on the scan, every counter
 * compared).  Random states come from a local splitmix64, seed printed.
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
#include "sim/sim.h"

#define SEED 0xf10a7u

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

struct host {
	struct scenario scn;
	struct sim sim;
};

static struct host *host_new(unsigned cpus)
{
	struct host *h = calloc(1, sizeof(*h));
	char ini[256], err[512] = "";

	assert_non_null(h);
	snprintf(ini, sizeof(ini),
		 "[host]\nprofile = piii-933-e1000\ncpus = %u\n[nic eth0]\nirq-cpu = float\n"
		 "[run]\nduration = 20ms\nwarmup = 0\n", cpus);
	if (scenario_load_text(&h->scn, ini, "float.ini", NULL, 0, err, sizeof(err)))
		fail_msg("scenario_load_text(): %s", err);
	if (sim_init(&h->sim, &h->scn))
		fail_msg("sim_init(): %s", h->sim.fatal);
	assert_true(h->sim.sched.float_on);
	return h;
}

/* Give @c busy level @r by its levels and running thread (thread 0, any
 * thread will do: only cur >= 0 counts), and its bit to match. */
static void set_level(struct sim *s, struct cpu *c, int r)
{
	for (int l = 0; l < LVL_N; l++)
		c->lvl[l].active = false;
	c->cur = -1;
	if (r == 1 || (r == 0 && c->id % 2)) { /* idle, or a switch (no thread yet) */
		c->lvl[LVL_THREAD].active = true;
		c->cur = r == 1 ? 0 : -1;
	}
	if (r >= 2)
		c->lvl[r == 2 ? LVL_SOFTIRQ : LVL_HARDIRQ].active = true;
	assert_int_equal(cpu_busy_rank(c), r);
	for (int k = 0; k < 4; k++) {
		uint64_t m = UINT64_C(1) << (c->id % 64);

		if (k == r)
			s->sched.busy[k][c->id / 64] |= m;
		else
			s->sched.busy[k][c->id / 64] &= ~m;
	}
	c->busy = (int8_t)r;
}

static void check_host(unsigned cpus, uint64_t *x)
{
	struct host *h = host_new(cpus);
	struct sim *s = &h->sim;

	for (int round = 0; round < 400; round++) {
		/* few distinct levels per round, so that ties are the rule */
		int lo = (int)(splitmix64(x) % 4), span = (int)(splitmix64(x) % 3);

		for (uint16_t i = 0; i < s->n_cpus; i++) {
			int r = lo + (int)(splitmix64(x) % (uint64_t)(span + 1));

			set_level(s, &s->cpu[i], r > 3 ? 3 : r);
		}
		for (uint16_t last = 0; last < s->n_cpus; last++) {
			uint16_t fast = cpu_float_pick(s, last), slow = cpu_float_scan(s, last);

			if (fast != slow)
				fail_msg("seed %#x cpus %u round %d last %u: bitmaps %u, scan %u", SEED,
					 cpus, round, last, fast, slow);
		}
	}
	for (uint16_t i = 0; i < s->n_cpus; i++)
		set_level(s, &s->cpu[i], 0); /* as sim_init left them, for sim_free */
	sim_free(&h->sim);
	free(h);
}

static void test_pick_is_scan(void **state)
{
	static const unsigned cpus[] = { 1, 2, 3, 8, 63, 64, 65, 130, 256 };
	uint64_t x = SEED;

	(void)state;
	for (size_t k = 0; k < sizeof(cpus) / sizeof(cpus[0]); k++)
		check_host(cpus[k], &x);
}

/* The rule by hand: 4 CPUs, levels 2 0 3 0: after CPU 1 comes CPU 3 (the
 * next idle one), after 3 wraps to 1; with all equal, the next one. */
static void test_round_robin_by_hand(void **state)
{
	struct host *h = host_new(4);
	struct sim *s = &h->sim;
	static const int lv[] = { 2, 0, 3, 0 };

	(void)state;
	for (uint16_t i = 0; i < 4; i++)
		set_level(s, &s->cpu[i], lv[i]);
	assert_int_equal(cpu_float_pick(s, 1), 3);
	assert_int_equal(cpu_float_pick(s, 3), 1);
	assert_int_equal(cpu_float_pick(s, 0), 1);
	for (uint16_t i = 0; i < 4; i++)
		set_level(s, &s->cpu[i], 3);
	assert_int_equal(cpu_float_pick(s, 2), 3);
	assert_int_equal(cpu_float_pick(s, 3), 0);
	for (uint16_t i = 0; i < 4; i++)
		set_level(s, &s->cpu[i], 0);
	sim_free(&h->sim);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pick_is_scan),
		cmocka_unit_test(test_round_robin_by_hand),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
