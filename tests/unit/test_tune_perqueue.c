/* test_tune_perqueue.c - the pure parts of tune's per-queue stage
 * (tune/perqueue.h): which knobs take a value per queue, the queues'
 * shares and order, the levels a step tries, the rule that keeps a
 * change (meets every goal, improves the objective by more than the
 * margin), and the lists as the scenario key takes them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "rxlab/scheme.h"
#include "tune/perqueue.h"

static void test_keys(void **state)
{
	(void)state;
	assert_true(tune_pq_key("nic.*.napi_defer_hard_irqs", false));
	assert_true(tune_pq_key("nic.*.gro_flush_timeout", false));
	assert_true(tune_pq_key("nic.*.irq-suspend-timeout", false));
	assert_false(tune_pq_key("nic.*.rx-usecs", false));	/* no ethtool --per-queue */
	assert_true(tune_pq_key("nic.*.rx-usecs", true));
	assert_true(tune_pq_key("nic.*.rx-frames", true));
	assert_false(tune_pq_key("nic.*.InterruptThrottleRate", true));	/* port-wide */
	assert_false(tune_pq_key("apps.busy_poll", true));
	assert_false(tune_pq_key("nic.*.rx-usecs-high", true));
}

/* The registry's tune policies: which axes the stage refines. */
static void test_axes(void **state)
{
	uint8_t ax[TUNE_MAX_AXES];

	(void)state;
	assert_int_equal(tune_pq_axes(rxl_scheme_find("coalesce"), true, ax), 2);
	assert_int_equal(ax[0], 0);
	assert_int_equal(ax[1], 1);
	assert_int_equal(tune_pq_axes(rxl_scheme_find("coalesce"), false, ax), 0);
	assert_int_equal(tune_pq_axes(rxl_scheme_find("defer"), false, ax), 2);
	assert_int_equal(tune_pq_axes(rxl_scheme_find("suspend"), false, ax), 2);
	assert_int_equal(tune_pq_axes(rxl_scheme_find("itr"), true, ax), 0);
	assert_int_equal(tune_pq_axes(rxl_scheme_find("dim"), true, ax), 0);
	assert_int_equal(tune_pq_axes(rxl_scheme_find("busy-poll"), true, ax), 0);
}

static void test_shares(void **state)
{
	const uint64_t f[4] = { 600, 200, 200, 0 }, none[3] = { 0, 0, 0 };
	const double even[4] = { 0.25, 0.25, 0.25, 0.25 }, edge[4] = { 0.3125, 0.25, 0.25, 0.1875 };
	double s[4];

	(void)state;
	tune_pq_shares(f, 4, s);
	assert_true(s[0] == 0.6 && s[1] == 0.2 && s[2] == 0.2 && s[3] == 0.0);
	tune_pq_shares(none, 3, s);
	assert_true(s[0] == 0.0 && s[2] == 0.0);
	assert_true(tune_pq_unequal((const double[4]){ 0.6, 0.2, 0.2, 0.0 }, 4));
	assert_false(tune_pq_unequal(even, 4));
	assert_true(tune_pq_unequal(edge, 4));	/* 0.3125 = 1.25 / 4 exactly */
	assert_false(tune_pq_unequal((const double[4]){ 0.31, 0.25, 0.25, 0.19 }, 4));
	assert_false(tune_pq_unequal((const double[1]){ 1.0 }, 1));
}

static void test_order(void **state)
{
	const double s[6] = { 0.1, 0.4, 0.0, 0.2, 0.1, 0.2 };
	uint32_t o[6];

	(void)state;
	assert_int_equal(tune_pq_order(s, 6, o), 5);	/* queue 2 takes nothing */
	assert_int_equal(o[0], 1);
	assert_int_equal(o[1], 3);	/* ties: the lower queue first */
	assert_int_equal(o[2], 5);
	assert_int_equal(o[3], 0);
	assert_int_equal(o[4], 4);
}

static void test_window(void **state)
{
	uint8_t w[2 * TUNE_PQ_WINDOW];

	(void)state;
	assert_int_equal(tune_pq_window(3, 8, w), 4);
	assert_int_equal(w[0], 2);
	assert_int_equal(w[1], 4);
	assert_int_equal(w[2], 1);
	assert_int_equal(w[3], 5);
	assert_int_equal(tune_pq_window(0, 8, w), 2);
	assert_int_equal(w[0], 1);
	assert_int_equal(w[1], 2);
	assert_int_equal(tune_pq_window(7, 8, w), 2);
	assert_int_equal(w[0], 6);
	assert_int_equal(w[1], 5);
	assert_int_equal(tune_pq_window(0, 1, w), 0);
}

static struct tune_metrics fig(double cpu, double p99, double loss)
{
	struct tune_metrics m;

	memset(&m, 0, sizeof(m));
	m.v[TM_CPU] = cpu;
	m.v[TM_P99] = p99;
	m.v[TM_THROUGHPUT] = cpu;
	m.max_drop_pct = loss;
	return m;
}

static void test_better(void **state)
{
	struct goal g = { .m = TM_P99, .op = GOAL_LE, .limit = 200.0 };
	struct tune_state st = { .goals = &g, .n_goals = 1, .objective = TM_CPU,
				 .max_loss_pct = 0.1 };
	struct tune_metrics cur = fig(10.0, 190.0, 0.0), m;

	(void)state;
	m = fig(9.8, 199.0, 0.0);
	assert_true(tune_pq_better(&st, &cur, &m, 0.01));	/* 2% less CPU, p99 holds */
	m = fig(9.95, 150.0, 0.0);
	assert_false(tune_pq_better(&st, &cur, &m, 0.01));	/* 0.5%: under the margin */
	m = fig(9.9, 150.0, 0.0);
	assert_false(tune_pq_better(&st, &cur, &m, 0.01));	/* exactly 1%: not more */
	m = fig(5.0, 201.0, 0.0);
	assert_false(tune_pq_better(&st, &cur, &m, 0.01));	/* misses the goal */
	m = fig(5.0, 150.0, 0.2);
	assert_false(tune_pq_better(&st, &cur, &m, 0.01));	/* loses more than --max-loss */
	m = fig(NAN, 150.0, 0.0);
	assert_false(tune_pq_better(&st, &cur, &m, 0.01));
	cur = fig(0.0, 190.0, 0.0);
	m = fig(0.0, 150.0, 0.0);
	assert_false(tune_pq_better(&st, &cur, &m, 0.01));	/* nothing below 0 */
	st.objective = TM_THROUGHPUT;
	st.maximize = true;
	cur = fig(100.0, 190.0, 0.0);
	m = fig(101.5, 190.0, 0.0);
	assert_true(tune_pq_better(&st, &cur, &m, 0.01));
	m = fig(100.5, 190.0, 0.0);
	assert_false(tune_pq_better(&st, &cur, &m, 0.01));
}

static void test_list_text(void **state)
{
	const struct rxl_scheme_axis *gro = &rxl_scheme_find("defer")->axis[1];
	uint8_t ix[8] = { 5, 3, 3, 3, 3, 3, 3, 3 };
	char buf[64], small[8];

	(void)state;
	assert_int_equal(tune_pq_list_text(gro, ix, 8, buf, sizeof(buf)), 40);
	assert_string_equal(buf, "100us 20us 20us 20us 20us 20us 20us 20us");
	assert_int_equal(tune_pq_list_text(gro, ix, 8, small, sizeof(small)), 40);
	assert_true(strlen(small) < sizeof(small));	/* cut short, terminated */
	assert_int_equal(tune_pq_list_text(gro, ix, 1, buf, sizeof(buf)), 5);
	assert_string_equal(buf, "100us");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),    cmocka_unit_test(test_axes),
		cmocka_unit_test(test_shares),  cmocka_unit_test(test_order),
		cmocka_unit_test(test_window),  cmocka_unit_test(test_better),
		cmocka_unit_test(test_list_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
