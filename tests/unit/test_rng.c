/* test_rng.c - deterministic streams, bounded integers, det_log.
 *
 * Reference outputs were computed with an independent Python transcription
 * of xoshiro256** and splitmix64 (prng.di.unimi.it); reference logarithms
 * come from libm, which tests may use even though src/core may not.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rxlab/rng.h"

/* Relative error of @got against @want; absolute when @want is 0. */
static double rel_err(double got, double want)
{
	double d = fabs(got - want);

	return want == 0.0 ? d : d / fabs(want);
}

#define assert_rel(got, want, tol) do {					\
	double g_ = (got), w_ = (want);					\
	if (!(rel_err(g_, w_) <= (tol)))				\
		fail_msg("%s = %.17g, want %.17g (rel err %.3g > %.3g)",	\
			 #got, g_, w_, rel_err(g_, w_), (double)(tol));	\
} while (0)

static void test_xoshiro_reference(void **state)
{
	struct rng r = { { 1, 2, 3, 4 } };

	(void)state;
	assert_int_equal(rng_next(&r), 0x2d00);
	assert_int_equal(rng_next(&r), 0x0);
	assert_int_equal(rng_next(&r), 0x5a007080);
	assert_int_equal(rng_next(&r), 0x10e0000000009d80ull);
}

/* rng_unit() is ((next >> 11) + 1) * 2^-53: with state {1, 2, 3, 4} the
 * raw draws are 0x2d00 and 0, giving 6 and 1 (never 0) times 2^-53. */
static void test_unit_reference(void **state)
{
	struct rng r = { { 1, 2, 3, 4 } };

	(void)state;
	assert_true(rng_unit(&r) == 6 * 0x1p-53);
	assert_true(rng_unit(&r) == 0x1p-53);
}

/* Pins the (seed, stream) -> state mapping: changing it changes every
 * simulation's output. */
static void test_seed_reference(void **state)
{
	struct rng r;

	(void)state;
	rng_seed(&r, 1, 0);
	assert_int_equal(rng_next(&r), 0xef75d62a19ba94edull);
	assert_int_equal(rng_next(&r), 0x8e9490536375f270ull);
	assert_int_equal(rng_next(&r), 0xc05630b1c614195dull);
	rng_seed(&r, 42, 7);
	assert_int_equal(rng_next(&r), 0x24bfb39aeb008c15ull);
	assert_int_equal(rng_next(&r), 0xd858489e7fc02496ull);
}

static void test_same_seed_same_sequence(void **state)
{
	struct rng a, b;
	int i;

	(void)state;
	rng_seed(&a, 12345, 3);
	rng_seed(&b, 12345, 3);
	for (i = 0; i < 10000; i++)
		assert_int_equal(rng_next(&a), rng_next(&b));
}

/* Count positions where two streams agree in their first 1000 draws. */
static int agreements(uint64_t seed_a, uint64_t stream_a, uint64_t seed_b,
		      uint64_t stream_b)
{
	struct rng a, b;
	int i, same = 0;

	rng_seed(&a, seed_a, stream_a);
	rng_seed(&b, seed_b, stream_b);
	for (i = 0; i < 1000; i++)
		same += rng_next(&a) == rng_next(&b);
	return same;
}

static void test_different_streams_differ(void **state)
{
	(void)state;
	assert_int_equal(agreements(1, 0, 1, 1), 0);
	assert_int_equal(agreements(1, 1, 1, 2), 0);
	assert_int_equal(agreements(1, 0, 2, 0), 0);
	assert_int_equal(agreements(0, 0, 0, 1), 0);
}

static void test_unit_range(void **state)
{
	struct rng r;
	double lo = 1.0, hi = 0.0;
	int i;

	(void)state;
	rng_seed(&r, 9, 9);
	for (i = 0; i < 100000; i++) {
		double u = rng_unit(&r);

		assert_true(u > 0.0 && u <= 1.0);
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
	}
	assert_true(lo < 0.001 && hi > 0.999);
}

static void test_below_range(void **state)
{
	struct rng r;
	int seen[10] = { 0 };
	int i;

	(void)state;
	rng_seed(&r, 5, 0);
	for (i = 0; i < 1000; i++)
		assert_int_equal(rng_below(&r, 1), 0);
	for (i = 0; i < 60000; i++) {
		uint64_t v = rng_below(&r, 10);

		assert_true(v < 10);
		seen[v]++;
	}
	/* each value 6000 times expected; sd ~73, allow 5% */
	for (i = 0; i < 10; i++)
		assert_in_range(seen[i], 5700, 6300);
	for (i = 0; i < 10000; i++) {
		assert_true(rng_below(&r, (1ull << 63) + 1) <= (1ull << 63));
		assert_true(rng_below(&r, UINT64_MAX) < UINT64_MAX);
	}
}

/* Reference model of Lemire's method with the compiler's 128-bit multiply:
 * draw until the low word is at least 2^64 mod bound, return the high word.
 * Checks the portable 64x64 multiply and the rejection loop. */
static uint64_t below_model(struct rng *r, uint64_t bound, int *rejected)
{
	uint64_t threshold = (0 - bound) % bound;
	unsigned __int128 m = (unsigned __int128)rng_next(r) * bound;

	while ((uint64_t)m < threshold) {
		(*rejected)++;
		m = (unsigned __int128)rng_next(r) * bound;
	}
	return (uint64_t)(m >> 64);
}

static void test_below_matches_model(void **state)
{
	static const uint64_t bounds[] = {
		3, 1000, 0xffffffffull, 0x100000001ull, (1ull << 63) + 1,
		0xfedcba9876543210ull, UINT64_MAX,
	};
	size_t b;
	int i, rejected = 0;

	(void)state;
	for (b = 0; b < sizeof(bounds) / sizeof(bounds[0]); b++) {
		struct rng r, model;

		rng_seed(&r, 77, b);
		model = r;
		for (i = 0; i < 2000; i++) {
			assert_int_equal(rng_below(&r, bounds[b]),
					 below_model(&model, bounds[b],
						     &rejected));
			assert_memory_equal(&r, &model, sizeof(r));
		}
	}
	/* 2^63 + 1 rejects about half its draws */
	assert_true(rejected > 500);
}

/* rng_exp_ns() is round(-log(u) * mean): with a 3 ns mean the rounding
 * matters in most draws. */
static void test_exp_rounding(void **state)
{
	struct rng r, model;
	int i;

	(void)state;
	rng_seed(&r, 8, 8);
	model = r;
	for (i = 0; i < 10000; i++) {
		int64_t want = llround(-log(rng_unit(&model)) * 3.0);

		assert_int_equal(rng_exp_ns(&r, 3.0), want);
	}
}

/* rng_exp_ns() rounds a shorter log than det_log() where the rounding is
 * certain (src/core/rng.c): it must give the integer -det_log(u) * mean
 * rounds to, for every draw, at means from sub-ns to seconds. */
static void test_exp_matches_det_log(void **state)
{
	static const double means[] = { 1e-3, 0.5, 1.0, 3.0, 1e9 / 14880000.0, 67.2, 100.0,
					1e9 / 148800000.0, 1e3 / 3.0, 2500.0, 1e6, 1e9 / 7.0, 1e9,
					3.6e12, 1e18, 1e20 };
	struct rng r, model;

	(void)state;
	rng_seed(&r, 20, 20);
	model = r;
	for (size_t m = 0; m < sizeof(means) / sizeof(means[0]); m++)
		for (int i = 0; i < 200000; i++) {
			double x = -det_log(rng_unit(&model)) * means[m];
			int64_t want = !(x > 0.0) ? 0
				       : x >= 9223372036854775807.0 ? INT64_MAX
								    : (int64_t)(x + 0.5);

			assert_int_equal(rng_exp_ns(&r, means[m]), want);
		}
	assert_memory_equal(&r, &model, sizeof(r));
}

static void test_exp_mean(void **state)
{
	struct rng r;
	double sum = 0.0;
	int i, n = 200000;

	(void)state;
	rng_seed(&r, 2024, 1);
	for (i = 0; i < n; i++) {
		int64_t v = rng_exp_ns(&r, 1000.0);

		assert_true(v >= 0);
		sum += (double)v;
	}
	/* sd of the mean is 1000 / sqrt(200000) = 2.2 ns; 2% is 9 sd */
	assert_rel(sum / n, 1000.0, 0.02);
}

static void test_det_log_known(void **state)
{
	(void)state;
	assert_true(det_log(1.0) == 0.0);
	assert_rel(det_log(2.0), 0.69314718055994530942, 1e-15);
	assert_rel(det_log(10.0), 2.30258509299404568402, 1e-15);
	assert_rel(det_log(1e-300), -690.77552789821370521, 1e-15);
	assert_rel(det_log(0.5), -0.69314718055994530942, 1e-15);
	assert_rel(det_log(2.718281828459045), 1.0, 1e-15);
	/* largest normal and smallest subnormal */
	assert_rel(det_log(1.7976931348623157e308), 709.782712893384, 1e-15);
	assert_rel(det_log(4.9406564584124654e-324), -744.4400719213812, 1e-15);
	assert_true(isinf(det_log(0.0)) && det_log(0.0) < 0);
	assert_true(isinf(det_log(INFINITY)) && det_log(INFINITY) > 0);
	assert_true(isnan(det_log(-1.0)));
	assert_true(isnan(det_log(NAN)));
}

/* Near 1 the answer is tiny, so relative accuracy needs the argument
 * reduction to keep m - 1 exact. */
static void test_det_log_near_one(void **state)
{
	static const double d[] = {
		1e-16, -1e-16, 1e-12, -1e-12, 1e-8, -1e-8, 1e-4, -1e-4,
		0x1p-52, -0x1p-53, 0.01, -0.01, 0.1, -0.1,
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		assert_rel(det_log(1.0 + d[i]), log1p((1.0 + d[i]) - 1.0),
			   1e-15);
}

/* Sweep mantissas and exponents against libm.  The contract is 1e-15
 * relative; the sweep asks for 2 ulp (4.5e-16), since both det_log and
 * glibc's log are within about an ulp, to catch subtler regressions. */
static void test_det_log_sweep(void **state)
{
	struct rng r;
	double worst = 0.0;
	int i;

	(void)state;
	rng_seed(&r, 1, 99);
	for (i = 0; i < 200000; i++) {
		double x = ldexp(rng_unit(&r) + 0.5,
				 (int)rng_below(&r, 2000) - 1000);
		double e = rel_err(det_log(x), log(x));

		if (e > worst)
			worst = e;
		if (!(e <= 4.5e-16))
			fail_msg("det_log(%a) = %.17g, log = %.17g",
				 x, det_log(x), log(x));
	}
	print_message("det_log worst relative error %.3g\n", worst);
}

static void test_det_exp_known(void **state)
{
	(void)state;
	assert_true(det_exp(0.0) == 1.0);
	assert_true(det_exp(-0.0) == 1.0);
	assert_rel(det_exp(1.0), 2.71828182845904523536, 1e-15);
	assert_rel(det_exp(-1.0), 0.36787944117144232160, 1e-15);
	assert_rel(det_exp(0.69314718055994530942), 2.0, 1e-15);
	assert_rel(det_exp(700.0), 1.0142320547350045e304, 1e-15);
	assert_true(det_exp(-746.0) == 0.0);
	assert_true(det_exp(-745.0) == 0x1p-1074);	/* the smallest subnormal */
	assert_true(isinf(det_exp(710.0)) && det_exp(710.0) > 0);
	assert_true(isnan(det_exp(NAN)));
}

/* The contract is 1e-15; 3 ulp (6.7e-16) catches subtler regressions. */
static void test_det_exp_sweep(void **state)
{
	struct rng r;
	int i;

	(void)state;
	rng_seed(&r, 1, 98);
	for (i = 0; i < 200000; i++) {
		double x = -708.0 + 1417.0 * rng_unit(&r);

		if (!(rel_err(det_exp(x), exp(x)) <= 6.7e-16))
			fail_msg("det_exp(%a) = %.17g, exp = %.17g", x, det_exp(x), exp(x));
	}
}

/* Near 0 the answers are tiny, so these test the series, not det_exp. */
static void test_det_expm1_log1p(void **state)
{
	static const double d[] = {
		1e-300, -1e-300, 1e-16, -1e-16, 1e-8, -1e-8, 1e-3, -1e-3,
		0.3, -0.3, 0.35, -0.35, 1.0, -1.0, 20.0, -20.0, 0.999999,
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		assert_rel(det_expm1(d[i]), expm1(d[i]), 1e-15);
		if (d[i] > -1.0)
			assert_rel(det_log1p(d[i]), log1p(d[i]), 1e-15);
	}
	assert_true(det_expm1(0.0) == 0.0);
	assert_true(det_log1p(0.0) == 0.0);
	assert_rel(det_log1p(-0.999999), log1p(-0.999999), 1e-15);
	assert_rel(det_log1p(1e10), log1p(1e10), 1e-15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xoshiro_reference),
		cmocka_unit_test(test_unit_reference),
		cmocka_unit_test(test_seed_reference),
		cmocka_unit_test(test_same_seed_same_sequence),
		cmocka_unit_test(test_different_streams_differ),
		cmocka_unit_test(test_unit_range),
		cmocka_unit_test(test_below_range),
		cmocka_unit_test(test_below_matches_model),
		cmocka_unit_test(test_exp_rounding),
		cmocka_unit_test(test_exp_matches_det_log),
		cmocka_unit_test(test_exp_mean),
		cmocka_unit_test(test_det_log_known),
		cmocka_unit_test(test_det_log_near_one),
		cmocka_unit_test(test_det_log_sweep),
		cmocka_unit_test(test_det_exp_known),
		cmocka_unit_test(test_det_exp_sweep),
		cmocka_unit_test(test_det_expm1_log1p),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
