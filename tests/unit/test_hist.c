/* test_hist.c - log-linear histogram: bucket layout, quantiles, merge.
 *
 * Expected quantiles were worked out by hand from the layout in
 * src/core/hist.c: values < 256 have their own bucket; in [2^k, 2^(k+1))
 * with k >= 8 buckets are 2^(k-7) wide and start at multiples of that width.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rxlab/hist.h"

/* struct hist is ~60 KB: keep it off the test stack. */
static struct hist h, h2;

static void test_small_values_exact(void **state)
{
	int64_t v;

	(void)state;
	for (v = 0; v < 2 * HIST_SUB; v++) {
		assert_int_equal(hist_bucket(v), v);
		assert_int_equal(hist_bucket_upper((uint32_t)v), v);
	}
	/* first shared bucket: [256, 257] */
	assert_int_equal(hist_bucket(256), 256);
	assert_int_equal(hist_bucket(257), 256);
	assert_int_equal(hist_bucket(258), 257);
	assert_int_equal(hist_bucket_upper(256), 257);
	/* [512, 1024) has width-4 buckets: 1000 is in [1000, 1003] */
	assert_int_equal(hist_bucket_upper(hist_bucket(1000)), 1003);
	assert_int_equal(hist_bucket_upper(hist_bucket(999)), 999);
}

static void test_negative_clamped(void **state)
{
	(void)state;
	assert_int_equal(hist_bucket(-1), 0);
	assert_int_equal(hist_bucket(INT64_MIN), 0);
	hist_reset(&h);
	hist_add(&h, -7);
	hist_add_n(&h, -100, 2);
	assert_int_equal(h.n, 3);
	assert_int_equal(h.count[0], 3);
	assert_int_equal(h.min, 0);
	assert_int_equal(h.max, 0);
	assert_true(h.sum == 0.0);
}

/* Buckets tile [0, INT64_MAX] without gaps, in order, each at most
 * 1/HIST_SUB of its lower edge wide. */
static void test_bucket_width_bound(void **state)
{
	uint32_t i, last = hist_bucket(INT64_MAX);
	int64_t lower = 2 * HIST_SUB;

	(void)state;
	assert_true(last < HIST_BUCKETS);
	assert_int_equal(hist_bucket_upper(last), INT64_MAX);
	for (i = 2 * HIST_SUB; i <= last; i++) {
		int64_t upper = hist_bucket_upper(i);
		uint64_t width = (uint64_t)(upper - lower) + 1;

		assert_int_equal(hist_bucket(lower), i);
		assert_int_equal(hist_bucket(upper), i);
		assert_true(width * HIST_SUB <= (uint64_t)lower);
		if (upper == INT64_MAX)
			break;
		lower = upper + 1;
	}
	assert_int_equal(i, last);
	/* buckets past INT64_MAX's are never filled but must not wrap */
	for (i = last; i < HIST_BUCKETS; i++)
		assert_int_equal(hist_bucket_upper(i), INT64_MAX);
}

static void test_empty(void **state)
{
	(void)state;
	hist_reset(&h);
	assert_int_equal(h.n, 0);
	assert_int_equal(h.min, INT64_MAX);
	assert_int_equal(h.max, 0);
	assert_int_equal(hist_quantile(&h, 0.0), 0);
	assert_int_equal(hist_quantile(&h, 0.5), 0);
	assert_int_equal(hist_quantile(&h, 1.0), 0);
	assert_true(hist_mean(&h) == 0.0);
}

static void test_quantiles_small(void **state)
{
	(void)state;
	hist_reset(&h);
	hist_add(&h, 40);
	hist_add(&h, 10);
	hist_add(&h, 30);
	hist_add(&h, 20);
	assert_int_equal(hist_quantile(&h, 0.0), 10);
	assert_int_equal(hist_quantile(&h, 0.25), 10);	/* rank 1 */
	assert_int_equal(hist_quantile(&h, 0.26), 20);	/* rank ceil(1.04) = 2 */
	assert_int_equal(hist_quantile(&h, 0.5), 20);
	assert_int_equal(hist_quantile(&h, 0.75), 30);
	assert_int_equal(hist_quantile(&h, 0.76), 40);
	assert_int_equal(hist_quantile(&h, 1.0), 40);
	assert_true(hist_mean(&h) == 25.0);
}

static void test_quantiles_1_to_1000(void **state)
{
	int64_t v;

	(void)state;
	hist_reset(&h);
	for (v = 1; v <= 1000; v++)
		hist_add(&h, v);
	assert_int_equal(h.n, 1000);
	assert_int_equal(h.min, 1);
	assert_int_equal(h.max, 1000);
	assert_true(hist_mean(&h) == 500.5);
	assert_int_equal(hist_quantile(&h, 0.0), 1);
	assert_int_equal(hist_quantile(&h, 0.001), 1);
	assert_int_equal(hist_quantile(&h, 0.2), 200);	/* exact below 256 */
	/* rank 500 -> bucket [500, 501] */
	assert_int_equal(hist_quantile(&h, 0.5), 501);
	/* rank 990 -> bucket [988, 991] */
	assert_int_equal(hist_quantile(&h, 0.99), 991);
	/* rank 999 -> bucket [996, 999] */
	assert_int_equal(hist_quantile(&h, 0.999), 999);
	/* rank 1000 -> bucket [1000, 1003], clamped to max */
	assert_int_equal(hist_quantile(&h, 0.9999), 1000);
	assert_int_equal(hist_quantile(&h, 1.0), 1000);
}

static void test_quantile_clamped_to_extremes(void **state)
{
	(void)state;
	hist_reset(&h);
	hist_add(&h, 1000);			/* bucket [1000, 1003] */
	assert_int_equal(hist_quantile(&h, 0.5), 1000);
	assert_true(hist_mean(&h) == 1000.0);
	hist_reset(&h);
	hist_add(&h, INT64_MAX);
	hist_add(&h, INT64_MAX - 1);
	assert_int_equal(hist_quantile(&h, 0.5), INT64_MAX);
	assert_int_equal(hist_quantile(&h, 0.0), INT64_MAX - 1);
	/* q outside [0, 1] behaves like the nearest end */
	assert_int_equal(hist_quantile(&h, -1.0), INT64_MAX - 1);
	assert_int_equal(hist_quantile(&h, 2.0), INT64_MAX);
}

static void test_add_n(void **state)
{
	(void)state;
	hist_reset(&h);
	hist_reset(&h2);
	hist_add_n(&h, 12345, 0);
	assert_int_equal(h.n, 0);
	assert_int_equal(h.min, INT64_MAX);
	hist_add_n(&h, 777, 3);
	hist_add(&h2, 777);
	hist_add(&h2, 777);
	hist_add(&h2, 777);
	assert_memory_equal(&h, &h2, sizeof(h));
}

static void test_merge(void **state)
{
	(void)state;
	hist_reset(&h);
	hist_reset(&h2);
	hist_add(&h, 5);
	hist_add(&h, 300);
	hist_add(&h2, 2);
	hist_add(&h2, 100000);
	hist_add(&h2, 300);
	hist_merge(&h, &h2);
	assert_int_equal(h.n, 5);
	assert_int_equal(h.min, 2);
	assert_int_equal(h.max, 100000);
	assert_true(h.sum == 100607.0);
	assert_int_equal(h.count[hist_bucket(300)], 2);
	assert_int_equal(h.count[hist_bucket(100000)], 1);
	/* rank 3 of {2, 5, 300, 300, 100000}: bucket [300, 301] */
	assert_int_equal(hist_quantile(&h, 0.6), 301);

	/* merging an empty histogram changes nothing */
	h2 = h;
	hist_reset(&h);
	hist_merge(&h2, &h);
	hist_merge(&h, &h2);	/* and into an empty one copies */
	assert_memory_equal(&h, &h2, sizeof(h));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_values_exact),
		cmocka_unit_test(test_negative_clamped),
		cmocka_unit_test(test_bucket_width_bound),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_quantiles_small),
		cmocka_unit_test(test_quantiles_1_to_1000),
		cmocka_unit_test(test_quantile_clamped_to_extremes),
		cmocka_unit_test(test_add_n),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
