/* test_verify.c - the pure parts of `rxlab tune --verify` (tune/verify.h):
 * which points are verified, how each tune policy runs on the live
 * engine, how a measurement is judged; the options (cli/tune_args.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/tune_args.h"
#include "rxlab/live.h"
#include "rxlab/scheme.h"
#include "tune/verify.h"

static char err[512];

static struct tune_point pt(uint16_t pol, uint8_t i, double p99, double cpu)
{
	struct tune_point p;

	memset(&p, 0, sizeof(p));
	p.pol = pol;
	p.ix[0] = i;
	for (size_t k = 0; k < TM_N; k++)
		p.m.v[k] = 0;
	p.m.v[TM_P99] = p99;
	p.m.v[TM_CPU] = cpu;
	return p;
}

/* Goal p99 <= 50, minimise cpu: the meeting points by cpu (30 then 40),
 * whatever their order in the list; the best is taken out, not a copy. */
static void test_pick_best_and_runner_up(void **state)
{
	struct tune_point pts[4] = { pt(0, 0, 60, 10), pt(0, 1, 40, 40), pt(0, 2, 45, 30),
				     pt(0, 3, 20, 90) };
	struct goal g;
	struct tune_state st = { 0 };
	const struct tune_point *out[2];

	(void)state;
	assert_int_equal(goal_parse(&g, "p99<=50us", err, sizeof(err)), 0);
	st.goals = &g;
	st.n_goals = 1;
	st.objective = TM_CPU;
	st.pts = pts;
	st.n_pts = st.cap = 4;
	assert_int_equal(verify_pick(&st, out, 2), 2);
	assert_ptr_equal(out[0], &pts[2]);
	assert_ptr_equal(out[1], &pts[1]);
	/* the best first in the list: the runner-up's index is not shifted */
	pts[0] = pt(0, 0, 45, 5);
	assert_int_equal(verify_pick(&st, out, 2), 2);
	assert_ptr_equal(out[0], &pts[0]);
	assert_ptr_equal(out[1], &pts[2]);
	assert_int_equal(verify_pick(&st, out, 1), 1);
	st.n_pts = 1;
	assert_int_equal(verify_pick(&st, out, 2), 1);
	st.n_pts = 0;
	assert_int_equal(verify_pick(&st, out, 2), 0);
}

static const struct rxl_scheme *policy(const char *name)
{
	const struct rxl_scheme *sc = rxl_scheme_find(name);

	assert_non_null(sc);
	return sc;
}

static struct tune_point at(uint8_t a, uint8_t b)
{
	struct tune_point p;

	memset(&p, 0, sizeof(p));
	p.ix[0] = a;
	p.ix[1] = b;
	return p;
}

/* Each policy's live mode and values, in the kernel's units. */
static void test_map_values(void **state)
{
	struct verify_live l;
	struct tune_point p;
	char why[256];

	(void)state;
	p = at(3, 2);	/* coalesce rx-usecs 8, rx-frames 4 */
	assert_int_equal(verify_map(policy("coalesce"), &p, &l, why, sizeof(why)), 0);
	assert_int_equal(l.mode, RXL_MODE_COALESCE);
	assert_int_equal(l.n_sets, 2);
	assert_string_equal(l.set[0], "rx-usecs=8");
	assert_string_equal(l.set[1], "rx-frames=4");
	assert_int_equal(l.n_knobs, 0);
	p = at(2, 4);	/* defer 3, gro_flush_timeout 50us */
	assert_int_equal(verify_map(policy("defer"), &p, &l, why, sizeof(why)), 0);
	assert_int_equal(l.mode, RXL_MODE_NAPI);
	assert_int_equal(l.n_knobs, 2);
	assert_true(l.knob[0].k == KNOB_NAPI_DEFER_HARD_IRQS && l.knob[0].v == 3);
	assert_true(l.knob[1].k == KNOB_GRO_FLUSH_TIMEOUT && l.knob[1].v == 50000);
	p = at(3, 0);	/* busy_poll 50us */
	assert_int_equal(verify_map(policy("busy-poll"), &p, &l, why, sizeof(why)), 0);
	assert_int_equal(l.mode, RXL_MODE_SO_BUSY_POLL);
	assert_string_equal(l.set[0], "busy-poll-usecs=50");
	p = at(1, 4);	/* suspend gro 10us, irq-suspend-timeout 20ms */
	assert_int_equal(verify_map(policy("suspend"), &p, &l, why, sizeof(why)), 0);
	assert_int_equal(l.mode, RXL_MODE_IRQ_SUSPEND);
	assert_true(l.n_knobs == 1 && l.knob[0].k == KNOB_GRO_FLUSH_TIMEOUT &&
		    l.knob[0].v == 10000);
	assert_string_equal(l.set[0], "irq-suspend-timeout=20000000ns");
	p = at(8, 0);	/* itr 100000 */
	assert_int_equal(verify_map(policy("itr"), &p, &l, why, sizeof(why)), 0);
	assert_int_equal(l.mode, RXL_MODE_ITR);
	assert_string_equal(l.set[0], "itr=100000");
	p = at(0, 0);
	assert_int_equal(verify_map(policy("dim"), &p, &l, why, sizeof(why)), 0);
	assert_true(l.mode == RXL_MODE_DIM && l.n_sets == 0 && l.n_knobs == 0);
}

/* Every level of every tune policy maps, and the live engine accepts the
 * loop parameters and device knob values it gets. */
static void test_map_every_level_accepted(void **state)
{
	(void)state;
	for (size_t i = 0; i < tune_n_policies(); i++) {
		const struct rxl_scheme *sc = tune_policy(i);
		size_t na = sc->n_axes > 0 ? sc->axis[0].n : 1;
		size_t nb = sc->n_axes > 1 ? sc->axis[1].n : 1;

		for (uint8_t a = 0; a < na; a++)
			for (uint8_t b = 0; b < nb; b++) {
				struct tune_point p = at(a, b);
				struct verify_live l;
				struct rxl_config c;
				char why[256];

				assert_int_equal(verify_map(sc, &p, &l, why, sizeof(why)), 0);
				rxl_config_default(&c, l.mode);
				for (size_t s = 0; s < l.n_sets; s++) {
					char key[48];
					const char *eq = strchr(l.set[s], '=');

					snprintf(key, sizeof(key), "%.*s", (int)(eq - l.set[s]),
						 l.set[s]);
					assert_int_equal(rxl_config_set(&c, key, eq + 1, err,
									sizeof(err)), 0);
				}
				assert_int_equal(rxl_config_check(&c, err, sizeof(err)), 0);
				for (size_t k = 0; k < l.n_knobs; k++)
					assert_true(l.knob[k].v <= knob_max(l.knob[k].k));
			}
	}
}

/* A policy the live engine has no mode for: not verifiable, with why. */
static void test_map_not_verifiable(void **state)
{
	struct rxl_scheme fake = *policy("dim");
	struct tune_point p = at(0, 0);
	struct verify_live l;
	char why[256];

	(void)state;
	fake.name = "per-packet-irq";
	assert_int_equal(verify_map(&fake, &p, &l, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no mode for policy per-packet-irq"));
	p = at(40, 0);	/* past the axis */
	assert_int_equal(verify_map(policy("coalesce"), &p, &l, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "coalesce"));
}

static void test_ratio_and_tolerance(void **state)
{
	(void)state;
	assert_true(verify_ratio(30, 10) == 3.0);
	assert_true(verify_ratio(0, 0) == 1.0);
	assert_true(isnan(verify_ratio(5, 0)));
	assert_true(isnan(verify_ratio(NAN, 10)));
	assert_true(isnan(verify_ratio(10, NAN)));
	assert_true(verify_agrees(2.0, 2.0));
	assert_true(verify_agrees(0.5, 2.0));
	assert_false(verify_agrees(2.01, 2.0));
	assert_false(verify_agrees(0.49, 2.0));
	assert_false(verify_agrees(NAN, 2.0));
}

/* CPU is compared only where the live run has the kernel's mechanism. */
static void test_cpu_compared(void **state)
{
	(void)state;
	assert_false(verify_cpu_compared(RXL_MODE_COALESCE));
	assert_false(verify_cpu_compared(RXL_MODE_DIM));
	assert_false(verify_cpu_compared(RXL_MODE_ITR));
	assert_true(verify_cpu_compared(RXL_MODE_NAPI));
	assert_true(verify_cpu_compared(RXL_MODE_IRQ_SUSPEND));
	assert_true(verify_cpu_compared(RXL_MODE_SO_BUSY_POLL));
}

/* Judged on the measurement: every goal and the loss limit. */
static void test_meets_measured(void **state)
{
	struct goal g;
	struct tune_state st = { 0 };
	struct tune_point p = pt(0, 0, 40, 10);

	(void)state;
	assert_int_equal(goal_parse(&g, "p99<=50us", err, sizeof(err)), 0);
	st.goals = &g;
	st.n_goals = 1;
	assert_true(verify_meets(&st, &p.m, 0.1));
	p.m.v[TM_DROP_PCT] = 0.2;
	assert_false(verify_meets(&st, &p.m, 0.1));	/* loses too much */
	p.m.v[TM_DROP_PCT] = 0.1;
	assert_true(verify_meets(&st, &p.m, 0.1));
	p.m.v[TM_P99] = 51;
	assert_false(verify_meets(&st, &p.m, 0.1));
	p.m.v[TM_P99] = NAN;				/* no sample */
	assert_false(verify_meets(&st, &p.m, 0.1));
}

static int parse(struct tune_opts *o, const char *const *words)
{
	char *argv[16];
	int argc = 0;

	for (; words[argc]; argc++)
		argv[argc] = (char *)words[argc];
	tune_opts_init(o, 1);
	return tune_opts_parse(o, argc, argv);
}

static void test_options(void **state)
{
	static struct tune_opts o;

	(void)state;
	assert_int_equal(parse(&o, (const char *[]){ "live-veth", "--goal", "p99<=1us", NULL }), 0);
	assert_false(o.verify);
	assert_true(o.vopt.duration_ns == VERIFY_DEFAULT_DURATION_NS);
	assert_int_equal(parse(&o, (const char *[]){ "live-veth", "--goal", "p99<=1us",
						     "--verify", "--verify-duration", "300ms",
						     "--verify-tolerance", "3", NULL }), 0);
	assert_true(o.verify && o.vopt.duration_ns == 300000000 && o.vopt.tolerance == 3.0);
	assert_int_equal(parse(&o, (const char *[]){ "live-veth", "--goal", "p99<=1us",
						     "--verify", "--verify-duration", "5ms", NULL }), 2);
	assert_int_equal(parse(&o, (const char *[]){ "live-veth", "--goal", "p99<=1us",
						     "--verify", "--verify-tolerance", "1", NULL }), 2);
	assert_int_equal(parse(&o, (const char *[]){ "live-veth", "--goal", "p99<=1us",
						     "--verify-duration", "1s", NULL }), 2);
	assert_int_equal(parse(&o, (const char *[]){ "live-veth", "--goal", "p99<=1us",
						     "--allow-host-iface", NULL }), 2);
	assert_int_equal(parse(&o, (const char *[]){ "live-veth", "--goal", "p99<=1us",
						     "--verify", "--table", "best", NULL }), 2);
}

/* A trace cannot be verified: the live sender plays a constant rate. */
static void test_preflight_trace(void **state)
{
	struct tune_request r;

	(void)state;
	tune_request_init(&r, 1);
	r.target = "capture.pcap";
	assert_int_equal(verify_preflight(&r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a trace"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pick_best_and_runner_up),
		cmocka_unit_test(test_map_values),
		cmocka_unit_test(test_map_every_level_accepted),
		cmocka_unit_test(test_map_not_verifiable),
		cmocka_unit_test(test_ratio_and_tolerance),
		cmocka_unit_test(test_cpu_compared),
		cmocka_unit_test(test_meets_measured),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_preflight_trace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
