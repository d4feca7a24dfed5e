/* test_tune.c - goals (tune/goal.h) and the search of `rxlab tune`
 * (tune/tune_search.h) on a synthetic evaluator whose optimum is known. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tune/goal.h"
#include "model/scenario_load.h"
#include "model/trace_load.h"
#include "scheme/apply.h"
#include "cli/tune_args.h"
#include "rxlab/scheme.h"
#include "tune/tune_search.h"

static char err[512];

/* ---- goals ---- */

static void test_goal_parse(void **state)
{
	struct goal g;

	(void)state;
	assert_int_equal(goal_parse(&g, "p99 <= 50us", err, sizeof(err)), 0);
	assert_int_equal(g.m, TM_P99);
	assert_int_equal(g.op, GOAL_LE);
	assert_true(g.limit == 50.0);
	assert_string_equal(g.text, "p99<=50us");
	assert_int_equal(goal_parse(&g, "p999<1.5ms", err, sizeof(err)), 0);
	assert_true(g.m == TM_P999 && g.op == GOAL_LT && g.limit == 1500.0);
	assert_int_equal(goal_parse(&g, "throughput>=1.2Mpps", err, sizeof(err)), 0);
	assert_true(g.m == TM_THROUGHPUT && g.op == GOAL_GE && g.limit == 1200000.0);
	assert_int_equal(goal_parse(&g, "drops<=0.125%", err, sizeof(err)), 0);
	assert_true(g.m == TM_DROP_PCT && g.limit == 0.125);
	assert_int_equal(goal_parse(&g, "drops<=0", err, sizeof(err)), 0);
	assert_true(g.m == TM_DROPS && g.limit == 0.0);
	assert_int_equal(goal_parse(&g, "interrupts<=20000/s", err, sizeof(err)), 0);
	assert_true(g.m == TM_IRQS && g.limit == 20000.0);
	assert_int_equal(goal_parse(&g, "cpu<=40", err, sizeof(err)), 0);
	assert_true(g.m == TM_CPU && g.limit == 40.0);
}

static void test_goal_errors(void **state)
{
	struct goal g;

	(void)state;
	assert_int_equal(goal_parse(&g, "p99<=5Mpps", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--goal 'p99<=5Mpps': '5Mpps' is"));
	assert_int_equal(goal_parse(&g, "p99", err, sizeof(err)), -1);
	assert_int_equal(goal_parse(&g, "p99<=", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no value after the operator"));
	assert_int_equal(goal_parse(&g, "cpu<=101%", err, sizeof(err)), -1);
	assert_int_equal(goal_parse(&g, "irqs<=2.5", err, sizeof(err)), -1);
	/* longer than the goal's text holds: refused, never cut short */
	assert_int_equal(goal_parse(&g, "p99<=1000000000000000000000000000000000000000000000000"
				       "000000000000000us", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "too long (at most 63 characters"));
	assert_int_equal(goal_parse(&g, "p99      <=      50us        ", err, sizeof(err)), 0);
}

static void test_goal_judge(void **state)
{
	struct tune_metrics m = { { 0 }, 0, 0 };
	struct goal g;

	(void)state;
	goal_parse(&g, "p99<=50us", err, sizeof(err));
	m.v[TM_P99] = 50.0;
	assert_true(goal_met(&g, &m));
	assert_true(goal_miss(&g, &m) == 0.0);
	m.v[TM_P99] = 100.0;
	assert_false(goal_met(&g, &m));
	assert_true(goal_miss(&g, &m) == 1.0);        /* twice the limit: 100% off */
	m.v[TM_P99] = NAN;                            /* no sample meets nothing */
	assert_false(goal_met(&g, &m));
	goal_parse(&g, "p99<50us", err, sizeof(err));
	m.v[TM_P99] = 50.0;
	assert_false(goal_met(&g, &m));
	assert_true(goal_miss(&g, &m) > 0.0);
	goal_parse(&g, "throughput>=100kpps", err, sizeof(err));
	m.v[TM_THROUGHPUT] = 75000.0;
	assert_true(goal_miss(&g, &m) == 0.25);
}

/* ---- the search ---- */

/* Two policies on a synthetic host.  "A" (8 x 8 levels): CPU falls as
 * knob 0 rises, latency rises with both knobs; "B" (one axis of 10) is
 * cheap and slow.  With p99 <= 40 and CPU minimised, the best point is
 * known by hand: A at the largest level 0 with latency <= 40, i.e.
 * lat = 10 + 4*i + 2*j <= 40 and cpu = 100 - 9*i + j minimal: i = 7,
 * j = 0 gives lat 38, cpu 37. */
static const struct rxl_scheme pol_rows[] = {
	{ "A", "two knobs", NULL, { NULL }, 2,
	  { { "a.x", "x", 8, { "0", "1", "2", "3", "4", "5", "6", "7" } },
	    { "a.y", "y", 8, { "0", "1", "2", "3", "4", "5", "6", "7" } } },
	  0, { 0 }, { { NULL, 0 } }, 0 },
	{ "B", "one knob", NULL, { NULL }, 1,
	  { { "b.z", "z", 10, { "0", "1", "2", "3", "4", "5", "6", "7", "8", "9" } } },
	  0, { 0 }, { { NULL, 0 } }, 0 },
};
static const struct rxl_scheme *const pols[] = { &pol_rows[0], &pol_rows[1] };

struct fake {
	size_t calls, points;
};

static void fake_point(size_t pol, const uint8_t *ix, struct tune_metrics *m)
{
	memset(m, 0, sizeof(*m));
	if (pol == 0) {
		m->v[TM_CPU] = 100.0 - 9.0 * ix[0] + ix[1];
		m->v[TM_P99] = 10.0 + 4.0 * ix[0] + 2.0 * ix[1];
	} else {
		m->v[TM_CPU] = 20.0 - ix[0];
		m->v[TM_P99] = 100.0 + 10.0 * ix[0];
	}
}

static int fake_eval(void *ctx, const struct tune_batch *b, struct tune_metrics *out, char *e,
		     size_t elen)
{
	struct fake *f = ctx;
	size_t n0 = b->n[0] ? b->n[0] : 1, n1 = b->n[1] ? b->n[1] : 1;

	(void)e;
	(void)elen;
	f->calls++;
	for (size_t i = 0; i < n0; i++) {
		for (size_t j = 0; j < n1; j++) {
			uint8_t ix[TUNE_MAX_AXES] = { b->n[0] ? b->ix[0][i] : 0,
						      b->n[1] ? b->ix[1][j] : 0 };

			fake_point(b->pol, ix, &out[i * n1 + j]);
			f->points++;
		}
	}
	return 0;
}

static void search(struct tune_state *st, struct goal *g, struct fake *f, const char *goal)
{
	static bool on[2] = { true, true };

	goal_parse(g, goal, err, sizeof(err));
	memset(st, 0, sizeof(*st));
	st->pol = pols;
	st->n_pol = 2;
	st->enabled = on;
	st->goals = g;
	st->n_goals = 1;
	st->objective = TM_CPU;
	memset(f, 0, sizeof(*f));
	assert_int_equal(tune_search(st, fake_eval, f, err, sizeof(err)), 0);
}

static void test_search_finds_known_best(void **state)
{
	struct tune_state st;
	struct goal g;
	struct fake f;
	const struct tune_point *best;

	(void)state;
	search(&st, &g, &f, "p99<=40us");
	best = tune_best(&st);
	assert_int_equal(best->pol, 0);
	assert_int_equal(best->ix[0], 7);
	assert_int_equal(best->ix[1], 0);
	assert_true(tune_meets(&st, best));
	assert_int_equal(st.grid, 64 + 10);
	assert_true(st.n_pts < st.grid);            /* smarter than the full grid */
	assert_int_equal(st.runs, f.points);
	tune_state_free(&st);
}

/* The known best is off the coarse grid: refinement must find it.  With
 * p99 <= 36, i <= 6 (i = 6: lat 34 + 2j <= 36, j <= 1; cpu 46 + j, so
 * j = 0: cpu 46).  Level 6 is coarse; make the goal need level 5 instead:
 * p99 <= 31 gives i = 5, j = 0 (lat 30, cpu 55), and 5 is not coarse. */
static void test_refinement_reaches_off_grid_point(void **state)
{
	struct tune_state st;
	struct goal g;
	struct fake f;
	const struct tune_point *best;

	(void)state;
	search(&st, &g, &f, "p99<=31us");
	best = tune_best(&st);
	assert_int_equal(best->pol, 0);
	assert_int_equal(best->ix[0], 5);
	assert_int_equal(best->ix[1], 0);
	assert_true(best->round > 0);
	assert_true(st.rounds >= 1);
	tune_state_free(&st);
}

static void test_unreachable_goal_gives_closest(void **state)
{
	struct tune_state st;
	struct goal g;
	struct fake f;
	const struct tune_point *best;

	(void)state;
	search(&st, &g, &f, "p99<=5us");
	best = tune_best(&st);
	assert_false(tune_meets(&st, best));
	assert_int_equal(best->pol, 0);           /* lat 10 at i = j = 0 is the closest */
	assert_int_equal(best->ix[0], 0);
	assert_int_equal(best->ix[1], 0);
	assert_true(tune_miss(&st, best) == 1.0);
	tune_state_free(&st);
}

/* Field by field: struct tune_point has padding (after ix[], and at the
 * end), whose bytes nothing sets, so a memcmp of two equal points can
 * differ (it did under clang -O3).  The metrics are compared bit for bit
 * (an array of doubles has no padding): the same search gives the same
 * bytes. */
static void assert_same_point(const struct tune_point *p, const struct tune_point *q)
{
	assert_int_equal(p->pol, q->pol);
	for (size_t k = 0; k < TUNE_MAX_AXES; k++)
		assert_int_equal(p->ix[k], q->ix[k]);
	assert_memory_equal(p->m.v, q->m.v, sizeof(p->m.v));
	assert_int_equal(p->round, q->round);
}

static void test_front_and_determinism(void **state)
{
	struct tune_state a, b;
	struct goal ga, gb;
	struct fake fa, fb;
	const struct tune_point *front[256];
	size_t n;

	(void)state;
	search(&a, &ga, &fa, "p99<=40us");
	search(&b, &gb, &fb, "p99<=40us");
	assert_int_equal(a.n_pts, b.n_pts);
	for (size_t i = 0; i < a.n_pts; i++)
		assert_same_point(&a.pts[i], &b.pts[i]);
	n = tune_front(&a, front, 256);
	assert_true(n >= 2);
	for (size_t i = 1; i < n; i++) {          /* CPU up, p99 strictly down */
		assert_true(front[i]->m.v[TM_CPU] >= front[i - 1]->m.v[TM_CPU]);
		assert_true(front[i]->m.v[TM_P99] < front[i - 1]->m.v[TM_P99]);
	}
	for (size_t i = 0; i < a.n_pts; i++)      /* nothing beats a front point on both */
		for (size_t k = 0; k < n; k++)
			assert_false(a.pts[i].m.v[TM_CPU] < front[k]->m.v[TM_CPU] &&
				     a.pts[i].m.v[TM_P99] < front[k]->m.v[TM_P99]);
	tune_state_free(&a);
	tune_state_free(&b);
}


/* No policy enabled: the search evaluates nothing and says so with an
 * empty state (tune_best() NULL, no front), without calling the evaluator. */
static void test_empty_search(void **state)
{
	static const bool off[2] = { false, false };
	struct tune_state st = { .pol = pols, .n_pol = 2, .enabled = off, .objective = TM_CPU };
	const struct tune_point *front[4];
	struct fake f = { 0 };
	struct goal g;

	(void)state;
	goal_parse(&g, "p99<=40us", err, sizeof(err));
	st.goals = &g;
	st.n_goals = 1;
	assert_int_equal(tune_search(&st, fake_eval, &f, err, sizeof(err)), 0);
	assert_int_equal(st.n_pts, 0);
	assert_int_equal(f.calls, 0);
	assert_null(tune_best(&st));
	assert_int_equal(tune_front(&st, front, 4), 0);
	tune_state_free(&st);
}

/* ---- options ---- */

static int parse(struct tune_opts *o, const char *a, const char *b)
{
	char *argv[] = { "udp-sink", "--goal", "p99<=50us", (char *)a, (char *)b, NULL };

	tune_opts_init(o, 1);
	return tune_opts_parse(o, a ? 5 : 3, argv);
}

static void test_options_policies(void **state)
{
	static const char *const refused[] = { "", ",", ",,", "dim,", ",dim", "dim,,itr",
					       "dim,dim", "coalesce,napi", NULL };
	struct tune_opts o;

	(void)state;
	for (size_t i = 0; refused[i]; i++)
		if (parse(&o, "--policies", refused[i]) != 2) {
			print_error("--policies '%s' accepted\n", refused[i]);
			fail();
		}
	assert_int_equal(parse(&o, "--policies", "defer,dim"), 0);
	for (size_t p = 0; p < tune_n_policies(); p++)
		assert_int_equal(o.req.enabled[p], !strcmp(tune_policy(p)->name, "defer") ||
					       !strcmp(tune_policy(p)->name, "dim"));
	assert_int_equal(parse(&o, NULL, NULL), 0);      /* default: every policy */
	for (size_t p = 0; p < tune_n_policies(); p++)
		assert_true(o.req.enabled[p]);
}

static void test_options_iface(void **state)
{
	static const char *const refused[] = { "", "eth0;touch x", "a b", "../x", "eth0:1",
					       "abcdefghijabcdefghijabcdefghijabcdefghij",
					       "$(id)", "-x", "a\nb", NULL };
	struct tune_opts o;

	(void)state;
	for (size_t i = 0; refused[i]; i++)
		if (parse(&o, "--iface", refused[i]) != 2) {
			print_error("--iface '%s' accepted\n", refused[i]);
			fail();
		}
	assert_int_equal(parse(&o, "--iface", "enp3s0f1"), 0);
	assert_string_equal(o.req.iface, "enp3s0f1");
	assert_int_equal(parse(&o, "--jobs", ""), 2);
	assert_int_equal(parse(&o, "--seed", "123456789012345678901234567890"), 2);
}

/* --speed and --base belong to a trace (by its name; nothing is loaded
 * while the command line is read), and --speed is a number 0.001..1000. */
static int parse_on(struct tune_opts *o, const char *target, const char *a, const char *b)
{
	char *argv[] = { (char *)target, "--goal", "p99<=50us", (char *)a, (char *)b, NULL };

	tune_opts_init(o, 1);
	return tune_opts_parse(o, 5, argv);
}

static void test_options_trace(void **state)
{
	static const char *const refused[] = { "0", "0.0001", "1001", "-1", "abc", "2x", "",
					       "12345678901234567", NULL };
	static const char *const accepted[] = { "0.001", "1", "2", "1000", "0.5", NULL };
	struct tune_opts o;

	(void)state;
	assert_int_equal(parse_on(&o, "udp-sink", "--speed", "2"), 2);
	assert_int_equal(parse_on(&o, "udp-sink", "--base", "rr-server"), 2);
	assert_int_equal(parse_on(&o, "x.csv", "--base", "rr-server"), 0);
	assert_string_equal(o.req.base, "rr-server");
	for (size_t i = 0; refused[i]; i++)
		if (parse_on(&o, "x.pcap", "--speed", refused[i]) != 2) {
			print_error("--speed '%s' accepted\n", refused[i]);
			fail();
		}
	for (size_t i = 0; accepted[i]; i++)
		if (parse_on(&o, "x.pcapng", "--speed", accepted[i]) != 0) {
			print_error("--speed '%s' refused\n", accepted[i]);
			fail();
		}
	assert_string_equal(o.req.speed, "0.5");
}

/* ---- the commands ---- */

static char *apply_text(const struct scenario *scn, const char *iface, int *rc)
{
	static char buf[8192];
	FILE *f;

	memset(buf, 0, sizeof(buf));
	f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	*rc = tune_apply_print(f, scn, 0, iface);
	fclose(f);
	return buf;
}

static void test_apply_commands(void **state)
{
	static struct scenario scn;
	const char *sets[] = { "nic.eth0.napi_defer_hard_irqs=5", "nic.eth0.gro_flush_timeout=50us",
			       "nic.eth0.InterruptThrottleRate=8000" };
	char *text;
	int rc;

	(void)state;
	assert_int_equal(scenario_load(&scn, "udp-sink", sets, 3, err, sizeof(err)), 0);
	text = apply_text(&scn, "enp3s0", &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(text, "# as root on the receiving host; enp3s0 is the port"));
	assert_non_null(strstr(text, "\nethtool -C enp3s0 rx-usecs 125\n"));
	assert_non_null(strstr(text, "modprobe e1000 InterruptThrottleRate=8000\n"));
	assert_non_null(strstr(text, "\necho 5 > /sys/class/net/enp3s0/napi_defer_hard_irqs\n"));
	assert_non_null(strstr(text, "\necho 50000 > /sys/class/net/enp3s0/gro_flush_timeout\n"));
	assert_non_null(strstr(text, "'{\"ifindex\": '$(cat /sys/class/net/enp3s0/ifindex)'}'"));
	assert_non_null(strstr(text, "--json '{\"id\": NAPI_ID, \"defer-hard-irqs\": 5, "
			       "\"gro-flush-timeout\": 50000, \"irq-suspend-timeout\": 0}'\n"));
	/* a name that fails rxl_ifname_check() is never printed */
	text = apply_text(&scn, "eth0;touch x", &rc);
	assert_int_equal(rc, -1);
	assert_string_equal(text, "");
	trace_cache_free();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_goal_parse),
		cmocka_unit_test(test_goal_errors),
		cmocka_unit_test(test_goal_judge),
		cmocka_unit_test(test_search_finds_known_best),
		cmocka_unit_test(test_refinement_reaches_off_grid_point),
		cmocka_unit_test(test_unreachable_goal_gives_closest),
		cmocka_unit_test(test_front_and_determinism),
		cmocka_unit_test(test_empty_search),
		cmocka_unit_test(test_options_policies),
		cmocka_unit_test(test_options_iface),
		cmocka_unit_test(test_options_trace),
		cmocka_unit_test(test_apply_commands),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
