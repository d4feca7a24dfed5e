/* test_verify.c - tune --verify's pure parts: a policy's setting as the
 * live engine takes it (verify_plan()), and the runner-up of a search
 * (verify_runner_up()). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "tune/verify.h"

static const uint8_t *levels(const struct rxl_scheme *p, const char *a0, const char *a1)
{
	static uint8_t ix[TUNE_MAX_AXES];
	const char *want[2] = { a0, a1 };

	memset(ix, 0, sizeof(ix));
	for (size_t a = 0; a < p->n_axes; a++)
		for (size_t i = 0; i < p->axis[a].n; i++)
			if (want[a] && !strcmp(p->axis[a].level[i], want[a]))
				ix[a] = (uint8_t)i;
	return ix;
}

static void test_plan_coalesce(void **state)
{
	const struct rxl_scheme *p = rxl_scheme_find("coalesce");
	struct verify_setting vs;
	char why[256];

	(void)state;
	assert_int_equal(verify_plan(p, levels(p, "8", "16"), &vs, why, sizeof(why)), 0);
	assert_int_equal(vs.mode, RXL_MODE_COALESCE);
	assert_int_equal(vs.n_sets, 2);
	assert_string_equal(vs.set_ptr[0], "rx-usecs=8");
	assert_string_equal(vs.set_ptr[1], "rx-frames=16");
	assert_int_equal(vs.n_knobs, 0);
}

/* defer has no live mode of its own: napi with the device's settings. */
static void test_plan_defer(void **state)
{
	const struct rxl_scheme *p = rxl_scheme_find("defer");
	struct verify_setting vs;
	enum knob defer, flush;
	char why[256];

	(void)state;
	assert_int_equal(verify_plan(p, levels(p, "2", "20us"), &vs, why, sizeof(why)), 0);
	assert_int_equal(vs.mode, RXL_MODE_NAPI);
	assert_int_equal(vs.n_sets, 0);
	assert_int_equal(vs.n_knobs, 2);
	assert_int_equal(knob_parse("napi_defer_hard_irqs", &defer), 0);
	assert_int_equal(knob_parse("gro_flush_timeout", &flush), 0);
	assert_int_equal(vs.knobs[0].k, defer);
	assert_int_equal(vs.knobs[0].v, 2);
	assert_int_equal(vs.knobs[1].k, flush);
	assert_int_equal(vs.knobs[1].v, 20000);	/* ns */
}

static void test_plan_socket_policies(void **state)
{
	const struct rxl_scheme *bp = rxl_scheme_find("busy-poll");
	const struct rxl_scheme *su = rxl_scheme_find("suspend");
	struct verify_setting vs;
	char why[256];

	(void)state;
	assert_int_equal(verify_plan(bp, levels(bp, "50us", NULL), &vs, why, sizeof(why)), 0);
	assert_int_equal(vs.mode, RXL_MODE_SO_BUSY_POLL);
	assert_string_equal(vs.set_ptr[0], "busy-poll-usecs=50");
	assert_int_equal(verify_plan(su, levels(su, "50us", "5ms"), &vs, why, sizeof(why)), 0);
	assert_int_equal(vs.mode, RXL_MODE_IRQ_SUSPEND);
	assert_int_equal(vs.n_knobs, 1);
	assert_int_equal(vs.knobs[0].v, 50000);
	assert_string_equal(vs.set_ptr[0], "irq-suspend-timeout=5ms");
}

static void test_plan_not_verifiable(void **state)
{
	struct verify_setting vs;
	char why[256];

	(void)state;
	assert_int_equal(verify_plan(rxl_scheme_find("per-packet-irq"), levels(
				     rxl_scheme_find("per-packet-irq"), NULL, NULL), &vs, why,
				     sizeof(why)), -1);
	assert_string_equal(why, "no live mode does per-packet-irq");
}

/* Three settings: two meet p99<=50us (CPU 20 and 10), one misses; the
 * best is the cheaper that meets, the runner-up the other that meets, not
 * the one that misses with the least CPU. */
static void test_runner_up(void **state)
{
	struct tune_point pts[3] = { 0 };
	struct goal g;
	char err[256];
	struct tune_state st = { 0 };

	(void)state;
	assert_int_equal(goal_parse(&g, "p99<=50us", err, sizeof(err)), 0);
	for (int i = 0; i < 3; i++) {
		for (int m = 0; m < TM_N; m++)
			pts[i].m.v[m] = 0;
		pts[i].ix[0] = (uint8_t)i;
	}
	pts[0].m.v[TM_P99] = 40, pts[0].m.v[TM_CPU] = 20;
	pts[1].m.v[TM_P99] = 90, pts[1].m.v[TM_CPU] = 5;	/* misses */
	pts[2].m.v[TM_P99] = 45, pts[2].m.v[TM_CPU] = 10;
	st.goals = &g, st.n_goals = 1, st.objective = TM_CPU;
	st.pts = pts, st.n_pts = 3;
	assert_ptr_equal(tune_best(&st), &pts[2]);
	assert_ptr_equal(verify_runner_up(&st, tune_best(&st)), &pts[0]);
	/* with one point there is no runner-up */
	st.n_pts = 1;
	assert_null(verify_runner_up(&st, tune_best(&st)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_coalesce),
		cmocka_unit_test(test_plan_defer),
		cmocka_unit_test(test_plan_socket_policies),
		cmocka_unit_test(test_plan_not_verifiable),
		cmocka_unit_test(test_runner_up),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
