/* test_sweep.c - variations (lists, linear and log ranges) and shards.
 *
 * Expected values are worked out by hand from the rules in src/experiment/sweep.h
 * and src/experiment/sweep_file.h: a :log range has equal ratios with inner values
 * rounded to three significant digits; shard K of N holds the points p with
 * p % N == K - 1.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1
#endif

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "experiment/sweep.h"
#include "experiment/sweep_file.h"

/* Parse @arg and compare its values with the NULL-terminated list. */
static void assert_values(const char *arg, ...)
{
	struct vary v;
	char err[256] = "";
	va_list ap;
	size_t i = 0;
	const char *want;

	assert_int_equal(vary_parse(&v, arg, err, sizeof(err)), 0);
	va_start(ap, arg);
	while ((want = va_arg(ap, const char *)) != NULL) {
		assert_true(i < v.n);
		assert_string_equal(v.val[i], want);
		i++;
	}
	va_end(ap);
	assert_int_equal(v.n, i);
	vary_free(&v);
}

static void assert_refused(const char *arg, const char *want)
{
	struct vary v;
	char err[256] = "";

	assert_int_equal(vary_parse(&v, arg, err, sizeof(err)), -1);
	assert_string_equal(err, want);
	assert_null(v.val);
}

static void test_lists_and_linear_ranges(void **state)
{
	(void)state;
	assert_values("host.rxpath=classic,napi", "classic", "napi", NULL);
	assert_values("traffic.rate=10kpps..50kpps:5", "10kpps", "20kpps", "30kpps", "40kpps",
		      "50kpps", NULL);
	assert_values("traffic.rate=10kpps..50kpps:5:lin", "10kpps", "20kpps", "30kpps",
		      "40kpps", "50kpps", NULL);
	/* bare numbers are counts, not bytes */
	assert_values("nic.eth0.rx-frames=0..64:3", "0", "32", "64", NULL);
}

static void test_log_ranges(void **state)
{
	(void)state;
	/* 10k * 10^(i/2): 31622.8 -> 31600, 316227.8 -> 316000 */
	assert_values("traffic.rate=10kpps..1Mpps:5:log", "10kpps", "31600pps", "100kpps",
		      "316kpps", "1Mpps", NULL);
	/* 1 us * 10^i exactly */
	assert_values("nic.eth0.rx-usecs=1us..1ms:4:log", "1us", "10us", "100us", "1ms", NULL);
	/* ratio 4: 1, 4, 16, 64 */
	assert_values("nic.eth0.rx-frames=1..64:4:log", "1", "4", "16", "64", NULL);
	/* descending works too */
	assert_values("traffic.rate=1Mpps..10kpps:3:log", "1Mpps", "100kpps", "10kpps", NULL);
}

static void test_refusals(void **state)
{
	(void)state;
	assert_refused("nic.eth0.rx-frames=1..3:5",
		       "--vary nic.eth0.rx-frames: the value 1 comes twice (a range with more "
		       "points than distinct values?)");
	assert_refused("host.rxpath=napi,classic,napi",
		       "--vary host.rxpath: the value napi comes twice (a range with more points "
		       "than distinct values?)");
	assert_refused("traffic.rate=0pps..1Mpps:4:log",
		       "--vary traffic.rate: a :log range needs FROM and TO above 0 (got "
		       "0pps..1Mpps)");
	assert_refused("traffic.rate=1kpps..1Mpps:4:exp",
		       "--vary traffic.rate: steps 'exp' must be :lin or :log");
	assert_refused("traffic.rate=1kpps..1Mpps:1",
		       "--vary traffic.rate: N = '1' must be a whole number of points in 2..4096");
	assert_refused("traffic.rate=1kpps..1Mbit:4",
		       "--vary traffic.rate: '1kpps' and '1Mbit' are not two values with the same "
		       "kind of unit (e.g. 10kpps..2Mpps)");
}

static void test_points_and_values(void **state)
{
	struct vary v[2];
	char err[256];

	(void)state;
	assert_int_equal(vary_parse(&v[0], "a.x=p,q,r", err, sizeof(err)), 0);
	assert_int_equal(vary_parse(&v[1], "a.y=1,2", err, sizeof(err)), 0);
	assert_int_equal(sweep_points(v, 2), 6);
	/* the first --vary varies slowest: point 3 is (q, 2) */
	assert_string_equal(sweep_point_value(v, 2, 3, 0), "q");
	assert_string_equal(sweep_point_value(v, 2, 3, 1), "2");
	assert_string_equal(sweep_point_value(v, 2, 5, 0), "r");
	vary_free(&v[0]);
	vary_free(&v[1]);
}

static void test_shard_parse(void **state)
{
	unsigned k = 0, n = 0;

	(void)state;
	assert_int_equal(shard_parse("2/8", &k, &n), 0);
	assert_int_equal(k, 2);
	assert_int_equal(n, 8);
	assert_int_equal(shard_parse("1/1", &k, &n), 0);
	assert_int_equal(shard_parse("0/3", &k, &n), -1);
	assert_int_equal(shard_parse("4/3", &k, &n), -1);
	assert_int_equal(shard_parse("2/", &k, &n), -1);
	assert_int_equal(shard_parse("2/3x", &k, &n), -1);
	assert_int_equal(shard_parse("a/3", &k, &n), -1);
}

/* Shards K = 1..N hold every point exactly once. */
static void test_shards_partition_the_points(void **state)
{
	(void)state;
	for (size_t total = 1; total <= 40; total++)
		for (unsigned n = 1; n <= total; n++) {
			size_t sum = 0;

			for (unsigned k = 1; k <= n; k++) {
				size_t in = 0;

				for (size_t p = 0; p < total; p++)
					in += p % n == k - 1;
				assert_int_equal(shard_points(total, k, n), in);
				sum += in;
			}
			assert_int_equal(sum, total);
		}
	assert_int_equal(shard_points(10, 3, 4), 2); /* points 2 and 6 */
	assert_int_equal(shard_points(10, 2, 4), 3); /* points 1, 5, 9 */
}

/* vary_check_keys() over the variations parsed from @args (NULL-terminated):
 * 0 when each key comes once. */
static int check_keys(const char *first, ...)
{
	struct vary v[SWEEP_MAX_VARY];
	char err[512] = "";
	size_t n = 0;
	va_list ap;
	int rc;

	va_start(ap, first);
	for (const char *a = first; a; a = va_arg(ap, const char *)) {
		assert_true(n < SWEEP_MAX_VARY);
		assert_int_equal(vary_parse(&v[n], a, err, sizeof(err)), 0);
		n++;
	}
	va_end(ap);
	rc = vary_check_keys(v, n, err, sizeof(err));
	assert_true(rc == 0 || err[0] != '\0');
	for (size_t k = 0; k < n; k++)
		vary_free(&v[k]);
	return rc;
}

static void test_each_key_once(void **state)
{
	struct vary v;
	char err[256];

	(void)state;
	assert_int_equal(check_keys("traffic.rate=1kpps,2kpps", "host.cpus=1,2", NULL), 0);
	assert_int_equal(check_keys("a.b+a.c=1,2", "a.d=3", NULL), 0);
	/* prefixes of each other are other keys */
	assert_int_equal(check_keys("nic.eth0.rx-frames=1", "nic.eth0.rx-frames-irq=2", NULL), 0);
	assert_int_equal(check_keys("traffic.rate=1kpps,2kpps", "traffic.rate=3kpps", NULL), -1);
	assert_int_equal(check_keys("a.b+a.c=1,2", "a.c=3", NULL), -1);
	assert_int_equal(check_keys("a.x=1", "a.b+a.c+a.x=1,2", NULL), -1);
	assert_int_equal(check_keys("a.b+a.b=1,2", NULL), -1);
	/* blanks the loader ignores are dropped, so they hide nothing */
	assert_int_equal(check_keys("traffic.rate=1kpps", " traffic.rate =3kpps", NULL), -1);
	assert_int_equal(vary_parse(&v, " a.b + a.c =1", err, sizeof(err)), 0);
	assert_string_equal(v.key, "a.b+a.c");
	vary_free(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists_and_linear_ranges),
		cmocka_unit_test(test_log_ranges),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_points_and_values),
		cmocka_unit_test(test_shard_parse),
		cmocka_unit_test(test_shards_partition_the_points),
		cmocka_unit_test(test_each_key_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
