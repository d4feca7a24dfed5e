/* test_validate.c - how a simulated figure is judged against a reported one. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "experiment/validate.h"

static const struct figure ratio_fig = { "000", "r", 1000, CHECK_RATIO, 0, NULL, 0 };
static const struct figure most_fig = { "000", "m", 24, CHECK_AT_MOST, 100, NULL, 0 };
static const struct figure least_fig = { "000", "l", 5, CHECK_AT_LEAST, 3, NULL, 0 };

/* Within 25%: 750 and 1250 are the edges, 749 and 1251 fall outside. */
static void test_ratio_edges(void **state)
{
	(void)state;
	assert_true(figure_judge(&ratio_fig, 750).ok);
	assert_true(figure_judge(&ratio_fig, 1250).ok);
	assert_false(figure_judge(&ratio_fig, 749).ok);
	assert_false(figure_judge(&ratio_fig, 1251).ok);
	assert_true(fabs(figure_judge(&ratio_fig, 1100).ratio - 1.1) < 1e-12);
}

static void test_directions(void **state)
{
	(void)state;
	assert_true(figure_judge(&most_fig, 100).ok);
	assert_false(figure_judge(&most_fig, 101).ok);
	assert_true(figure_judge(&least_fig, 3).ok);
	assert_false(figure_judge(&least_fig, 2.9).ok);
}

/* A figure the simulation could not produce is never within tolerance. */
static void test_nan_fails(void **state)
{
	(void)state;
	assert_false(figure_judge(&ratio_fig, NAN).ok);
	assert_false(figure_judge(&most_fig, NAN).ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ratio_edges),
		cmocka_unit_test(test_directions),
		cmocka_unit_test(test_nan_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
