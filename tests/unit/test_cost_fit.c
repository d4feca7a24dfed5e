/* test_cost_fit.c - cost_fit(): the least-squares fit of rxlab live
 * calibrate and its fallback. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>

#include "live/cost_fit.h"

/* Runs that follow the model exactly: the fit returns its costs. */
static void test_exact(void **state)
{
	const double wakes[] = { 4950, 37000, 88000, 86000, 25000 };
	const double pkts[] = { 5000, 50000, 150000, 300000, 450000 };
	double cpu[5];

	(void)state;
	for (int i = 0; i < 5; i++)
		cpu[i] = 3150 * wakes[i] + 710 * pkts[i];
	struct cost_fit f = cost_fit(cpu, wakes, pkts, 5, 4, 0);
	assert_false(f.fallback);
	assert_true(fabs(f.wake_ns - 3150) < 1e-6);
	assert_true(fabs(f.pkt_ns - 710) < 1e-6);
}

/* Noise on every run: the least-squares answer, not any two runs'.  Runs
 * 0 and 4 alone would give other costs (checked), the fit stays near the
 * truth because the middle runs agree with it. */
static void test_least_squares_not_two_points(void **state)
{
	const double wakes[] = { 5000, 37000, 88000, 86000, 25000 };
	const double pkts[] = { 5000, 50000, 150000, 300000, 450000 };
	const double noise[] = { 1.9, 1.0, 1.0, 1.0, 1.02 }; /* the slow run: cold wake-ups */
	double cpu[5];

	(void)state;
	for (int i = 0; i < 5; i++)
		cpu[i] = (3000 * wakes[i] + 800 * pkts[i]) * noise[i];
	struct cost_fit two = cost_fit((double[]){ cpu[0], cpu[4] }, (double[]){ wakes[0], wakes[4] },
				       (double[]){ pkts[0], pkts[4] }, 2, 1, 0);
	struct cost_fit all = cost_fit(cpu, wakes, pkts, 5, 4, 0);
	assert_false(all.fallback);
	assert_true(fabs(all.wake_ns - 3000) < 300 && fabs(all.pkt_ns - 800) < 50);
	/* through the two extremes the cold wake-ups inflate the wake-up cost */
	assert_true(two.wake_ns > 1.5 * all.wake_ns);
}

/* A negative least-squares cost falls back: per packet from the fast run,
 * per wake-up from what the slow run leaves. */
static void test_fallback(void **state)
{
	/* CPU per wake-up far higher when slow than fast: the line through
	 * both has a negative per-packet cost */
	const double wakes[] = { 1000, 1000 };
	const double pkts[] = { 1000, 100000 };
	const double cpu[] = { 20e6, 10e6 };

	(void)state;
	struct cost_fit f = cost_fit(cpu, wakes, pkts, 2, 1, 0);
	assert_true(f.fallback);
	assert_true(fabs(f.pkt_ns - 100) < 1e-9);              /* 10 ms / 100000 */
	assert_true(fabs(f.wake_ns - (20e6 - 1000 * 100) / 1000) < 1e-6);
	/* runs that cannot tell the costs apart (proportional) fall back too */
	const double w2[] = { 1000, 2000 }, p2[] = { 1000, 2000 }, c2[] = { 5e6, 10e6 };
	struct cost_fit g = cost_fit(c2, w2, p2, 2, 1, 0);
	assert_true(g.fallback);
	assert_true(g.wake_ns >= 0 && g.pkt_ns >= 0);
}

/* The spread of repeated calibrations: mean, range, sample RSD. */
static void test_spread(void **state)
{
	const double v[] = { 6000, 6500, 7000 };
	struct cost_spread s = cost_spread(v, 3);

	(void)state;
	assert_int_equal(s.n, 3);
	assert_true(fabs(s.mean - 6500) < 1e-9);
	assert_true(s.median == 6500);
	/* the median: one value far out moves the mean, not the median */
	const double out[] = { 7000, 166000, 6000 };
	struct cost_spread o3 = cost_spread(out, 3);
	assert_true(o3.median == 7000 && o3.mean > 50000);
	const double even[] = { 9, 1, 5, 3 };
	assert_true(cost_spread(even, 4).median == 4);
	assert_true(s.min == 6000 && s.max == 7000);
	/* sample stddev 500 (n - 1), 500 / 6500 = 7.69% */
	assert_true(fabs(s.rsd_pct - 100.0 * 500 / 6500) < 1e-9);
	/* one run: no spread; a mean of 0: no relative spread */
	struct cost_spread one = cost_spread(v, 1);
	assert_true(one.mean == 6000 && one.median == 6000 && one.rsd_pct == 0);
	const double z[] = { 0, 0 };
	assert_true(cost_spread(z, 2).rsd_pct == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_least_squares_not_two_points),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_spread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
