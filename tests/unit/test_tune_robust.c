/* test_tune_robust.c - robust goals of `rxlab tune` (tune/robust.h): the
 * fold of a setting's loads, the implied loss goal, the traps, and the
 * --load/--speeds/--max-loss options (cli/tune_load_args.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/tune_load_args.h"
#include "model/scenario_load.h"
#include "tune/robust.h"
#include "tune/tune_search.h"

static char err[512];

static struct tune_metrics at_p99(double p99, double drop_pct)
{
	struct tune_metrics m;

	memset(&m, 0, sizeof(m));
	m.v[TM_P99] = p99;
	m.v[TM_DROP_PCT] = drop_pct;
	return m;
}

/* The worst load is the largest summed miss; among equals the highest. */
static void test_fold_worst_load(void **state)
{
	struct goal g;
	double load[3] = { 1000, 10000, 100000 };
	struct tune_metrics at[3], out;

	(void)state;
	assert_int_equal(goal_parse(&g, "p99<=100us", err, sizeof(err)), 0);
	at[0] = at_p99(300, 0);	/* miss 2 */
	at[1] = at_p99(50, 0.05);
	at[2] = at_p99(150, 0);	/* miss 0.5 */
	assert_int_equal(tune_fold_loads(&g, 1, 0.1, at, load, 3, &out), 0);
	assert_true(out.v[TM_P99] == 300 && out.load_pps == 1000);
	assert_true(out.max_drop_pct == 0.05);
	at[0] = at_p99(90, 0);	/* all meet: the highest load */
	at[2] = at_p99(60, 0);
	assert_int_equal(tune_fold_loads(&g, 1, 0.1, at, load, 3, &out), 2);
	assert_true(out.v[TM_P99] == 60 && out.load_pps == 100000);
	at[1] = at_p99(50, 5.0);	/* meets p99 but loses 5 % */
	assert_int_equal(tune_fold_loads(&g, 1, 0.1, at, load, 3, &out), 1);
	assert_true(out.max_drop_pct == 5.0 && out.load_pps == 10000);
	assert_true(fabs(tune_total_miss(&g, 1, 0.1, &out) - 49.0) < 1e-9);
}

/* A point that loses more than --max-loss never meets, whatever its goals. */
static void test_loss_never_meets(void **state)
{
	struct goal g;
	struct tune_state st;
	struct tune_point p;

	(void)state;
	assert_int_equal(goal_parse(&g, "drops<=50%", err, sizeof(err)), 0);
	memset(&st, 0, sizeof(st));
	memset(&p, 0, sizeof(p));
	st.goals = &g;
	st.n_goals = 1;
	st.max_loss_pct = 0.1;
	p.m.v[TM_DROP_PCT] = p.m.max_drop_pct = 0.1;
	assert_true(tune_meets(&st, &p));
	p.m.v[TM_DROP_PCT] = p.m.max_drop_pct = 0.2;
	assert_false(tune_meets(&st, &p));
	assert_true(tune_miss(&st, &p) > 0.99);
	st.max_loss_pct = 0.0;	/* --max-loss 0: one lost frame refuses it */
	p.m.v[TM_DROP_PCT] = p.m.max_drop_pct = 1e-6;
	assert_false(tune_meets(&st, &p));
	assert_true(tune_loss_miss(0.0, 0.0) == 0.0);
}

static unsigned traps_of(double peak, char *why, size_t len, size_t n, ...)
{
	const char *sets[16];
	struct scenario *scn = malloc(sizeof(*scn));
	va_list ap;
	unsigned t;

	assert_non_null(scn);
	va_start(ap, n);
	for (size_t i = 0; i < n; i++)
		sets[i] = va_arg(ap, const char *);
	va_end(ap);
	assert_int_equal(scenario_load(scn, "udp-sink", sets, n, err, sizeof(err)), 0);
	t = tune_traps(scn, scenario_nic_index(scn, "eth0"), peak, why, len);
	free(scn);
	return t;
}

static void test_trap_no_timer(void **state)
{
	char why[512];

	(void)state;
	assert_int_equal(traps_of(1e5, why, sizeof(why), 3, "nic.eth0.adaptive-rx=off",
				  "nic.eth0.rx-usecs=0", "nic.eth0.rx-frames=8"), TUNE_TRAP_NO_TIMER);
	assert_non_null(strstr(why, "a lone frame waits for 7 more; with no timer a quiet "
				    "period never flushes it"));
	assert_int_equal(traps_of(1e5, why, sizeof(why), 3, "nic.eth0.adaptive-rx=off",
				  "nic.eth0.rx-usecs=8", "nic.eth0.rx-frames=8"), 0);
	assert_string_equal(why, "");
	assert_int_equal(traps_of(1e5, why, sizeof(why), 3, "nic.eth0.adaptive-rx=off",
				  "nic.eth0.rx-usecs=0", "nic.eth0.rx-frames=1"), 0);
	assert_int_equal(traps_of(1e5, why, sizeof(why), 3, "nic.eth0.adaptive-rx=dim",
				  "nic.eth0.rx-usecs=0", "nic.eth0.rx-frames=8"), 0);
}

/* 10 x 100 us = 1 ms of deferral; 256 descriptors hold 1 ms at 256000
 * frames/s on one queue: at that rate no trap, one frame/s more a trap. */
static void test_trap_defer_ring(void **state)
{
	char why[512];

	(void)state;
	assert_int_equal(traps_of(256000, why, sizeof(why), 3, "nic.eth0.rx-ring=256",
				  "nic.eth0.napi_defer_hard_irqs=10",
				  "nic.eth0.gro_flush_timeout=100us"), 0);
	assert_int_equal(traps_of(256001, why, sizeof(why), 3, "nic.eth0.rx-ring=256",
				  "nic.eth0.napi_defer_hard_irqs=10",
				  "nic.eth0.gro_flush_timeout=100us"), TUNE_TRAP_DEFER_RING);
	assert_non_null(strstr(why, "the ring fills before the timer fires"));
	/* irq-suspend-timeout alone: 5 ms > 2.56 ms at 100 kpps */
	assert_int_equal(traps_of(1e5, why, sizeof(why), 2, "nic.eth0.rx-ring=256",
				  "nic.eth0.irq-suspend-timeout=5ms"), TUNE_TRAP_DEFER_RING);
	assert_non_null(strstr(why, "irq-suspend-timeout"));
	/* 4 queues and 64 flows: a quarter each, the ring holds 4 x longer */
	assert_int_equal(traps_of(512000, why, sizeof(why), 5, "nic.eth0.rx-ring=256",
				  "nic.eth0.combined=4", "traffic.flows=64",
				  "nic.eth0.napi_defer_hard_irqs=10",
				  "nic.eth0.gro_flush_timeout=100us"), 0);
	/* ... but one flow lands on one queue */
	assert_int_equal(traps_of(512000, why, sizeof(why), 5, "nic.eth0.rx-ring=256",
				  "nic.eth0.combined=4", "traffic.flows=1",
				  "nic.eth0.napi_defer_hard_irqs=10",
				  "nic.eth0.gro_flush_timeout=100us"), TUNE_TRAP_DEFER_RING);
	/* no peak known (a closed loop): nothing to judge */
	assert_int_equal(traps_of(0, why, sizeof(why), 1, "nic.eth0.irq-suspend-timeout=5ms"), 0);
}

static int parse(struct tune_request *r, bool trace, size_t n, ...)
{
	struct tune_load_opts lo;
	va_list ap;
	int rc = 0;

	memset(&lo, 0, sizeof(lo));
	tune_request_init(r, 1);
	va_start(ap, n);
	for (size_t i = 0; i < n && rc == 0; i++) {
		const char *name = va_arg(ap, const char *), *v = va_arg(ap, const char *);

		rc = tune_load_opt(&lo, r, name, v);
	}
	va_end(ap);
	return rc ? rc : tune_load_finish(&lo, r, trace);
}

static void test_load_options(void **state)
{
	struct tune_request r;
	static const double want[5] = { 1000, 3761, 14142, 53183, 200000 };

	(void)state;
	assert_int_equal(parse(&r, false, 1, "--load", "1kpps..200kpps"), 0);
	assert_int_equal(r.n_loads, 5);
	for (size_t i = 0; i < 5; i++)
		assert_true(r.loads[i] == want[i]);
	assert_true(r.max_loss_pct == 0.1);
	assert_int_equal(parse(&r, false, 2, "--load", "1kpps..1Mpps", "--load-points", "2"), 0);
	assert_true(r.n_loads == 2 && r.loads[0] == 1000 && r.loads[1] == 1e6);
	assert_int_equal(parse(&r, false, 1, "--load", "200kpps,1kpps,20kpps"), 0);
	assert_true(r.n_loads == 3 && r.loads[0] == 1000 && r.loads[2] == 200000);
	assert_int_equal(parse(&r, false, 1, "--load", "diurnal:200kpps"), 0);
	assert_true(r.n_loads == 6 && r.loads[0] == 10000 && r.loads[3] == 120000 &&
		    r.loads[5] == 200000);
	assert_int_equal(parse(&r, false, 1, "--load", "diurnal:10pps"), 0);
	assert_int_equal(parse(&r, false, 1, "--load", "diurnal:9pps"), 2);
	assert_int_equal(parse(&r, false, 2, "--load", "diurnal:1Mpps", "--load-points", "3"), 2);
	assert_int_equal(parse(&r, false, 1, "--max-loss", "0.5%"), 0);
	assert_true(r.max_loss_pct == 0.5 && r.n_loads == 0);
	assert_int_equal(parse(&r, false, 1, "--max-loss", "0"), 0);
	assert_true(r.max_loss_pct == 0.0);
	assert_int_equal(parse(&r, true, 1, "--speeds", "0.5,1,2"), 0);
	assert_true(r.n_speeds == 3 && !strcmp(r.speeds[2], "2"));
	assert_int_equal(parse(&r, false, 1, "--unknown", "x"), 1);
}

static void test_load_options_refused(void **state)
{
	struct tune_request r;
	static const char *const bad_load[] = {
		"200kpps..1kpps", "1kpps..1kpps", "1kpps", "1kpps,1kpps", "1kpps,,2kpps",
		"0pps..1kpps", "1kbit..2kpps", "1kpps..", "1..2", "2pps..3pps",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad_load) / sizeof(bad_load[0]); i++) {
		int rc = !strcmp(bad_load[i], "2pps..3pps")
			 ? parse(&r, false, 2, "--load", bad_load[i], "--load-points", "4")
			 : parse(&r, false, 1, "--load", bad_load[i]);

		if (rc != 2)
			fail_msg("--load %s accepted", bad_load[i]);
	}
	assert_int_equal(parse(&r, false, 2, "--load", "1kpps..2kpps", "--load-points", "1"), 2);
	assert_int_equal(parse(&r, false, 2, "--load", "1kpps..2kpps", "--load-points", "17"), 2);
	assert_int_equal(parse(&r, false, 2, "--load", "1kpps,2kpps", "--load-points", "3"), 2);
	assert_int_equal(parse(&r, true, 1, "--load", "1kpps..2kpps"), 2);
	assert_int_equal(parse(&r, false, 1, "--speeds", "1,2"), 2);
	assert_int_equal(parse(&r, true, 1, "--speeds", "2,1"), 2);
	assert_int_equal(parse(&r, true, 1, "--speeds", "1"), 2);
	assert_int_equal(parse(&r, true, 1, "--speeds", "0,1"), 2);
	assert_int_equal(parse(&r, false, 1, "--max-loss", "101%"), 2);
	assert_int_equal(parse(&r, false, 1, "--max-loss", "-1"), 2);
	assert_int_equal(parse(&r, false, 1, "--max-loss", "nan"), 2);
	assert_int_equal(parse(&r, false, 1, "--max-loss", "1%%"), 2);
	assert_int_equal(parse(&r, false, 1, "--max-loss", ""), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold_worst_load),
		cmocka_unit_test(test_loss_never_meets),
		cmocka_unit_test(test_trap_no_timer),
		cmocka_unit_test(test_trap_defer_ring),
		cmocka_unit_test(test_load_options),
		cmocka_unit_test(test_load_options_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
