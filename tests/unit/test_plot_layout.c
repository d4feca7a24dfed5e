/* test_plot_layout.c - axis ranges, tics and the key's place (src/report/plot_layout.c).
 *
 * Exact values: the round tops of linear axes, the 1-2-5 ends and tics of
 * log axes (and the linear steps of a narrow one), and where a key goes
 * for lines whose cells are known: a free corner first, then a free place
 * along a row, then room made above the data (the y range's new top), and
 * outside when the key is larger than the plot area.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "report/plot_layout.h"

static void expect_near(double got, double want)
{
	if (fabs(got - want) > 1e-9 * fmax(1, fabs(want)))
		fail_msg("got %.12g, want %.12g", got, want);
}

static void test_ranges(void **state)
{
	struct layout_axis a;

	(void)state;
	expect_near(layout_nice_up(376), 500);
	expect_near(layout_nice_up(200), 200);
	expect_near(layout_nice_down(7.1), 5);
	expect_near(layout_nice_down(1), 1);
	expect_near(layout_round_up(376.4), 400);
	expect_near(layout_round_up(79.8), 80);
	expect_near(layout_round_up(247000), 250000);
	expect_near(layout_round_up(1), 1);
	expect_near(layout_round_up(0), 1);
	expect_near(layout_round_up(NAN), 1);
	a = layout_log_axis(1.3, 258);
	assert_true(a.log);
	expect_near(a.lo, 1);
	expect_near(a.hi, 500);
	a = layout_log_axis(20400, 21900);	/* narrow: linear steps of 200 */
	expect_near(a.lo, 20400);
	expect_near(a.hi, 22400);
	a = layout_log_axis(20100, 21900);
	expect_near(a.lo, 20000);
	expect_near(a.hi, 22400);
	a = layout_log_axis(7, 7);		/* one value: a step either side */
	expect_near(a.lo, 5);
	expect_near(a.hi, 10);
}

static void expect_tics(struct layout_axis a, const double *want, size_t n)
{
	double t[32];
	size_t got = layout_log_tics(&a, t, 32);

	assert_int_equal(got, n);
	for (size_t i = 0; i < n; i++)
		expect_near(t[i], want[i]);
}

static void test_tics(void **state)
{
	(void)state;
	expect_tics((struct layout_axis){ 20, 1488, true },
		    (const double[]){ 20, 50, 100, 200, 500, 1000 }, 6);
	/* linear steps of 50, 350 too close to 300 */
	expect_tics((struct layout_axis){ 50, 400, true },
		    (const double[]){ 50, 100, 150, 200, 250, 300, 400 }, 7);
	expect_tics((struct layout_axis){ 1, 1e6, true }, NULL, 0);	/* gnuplot's decades */
	expect_tics((struct layout_axis){ 1, 100, false }, NULL, 0);	/* not a log axis */
}

/* A plot area 0..1 x 0..1 (linear) with the lines given. */
static void area(struct layout *l)
{
	layout_init(l, (struct layout_axis){ 0, 1, false }, (struct layout_axis){ 0, 1, false });
}

static const struct layout_key small = { .entries = 2, .cols = 1, .title_chars = 8 };

static void test_corners(void **state)
{
	struct layout l;
	struct layout_place p;

	(void)state;
	area(&l);
	layout_line(&l, (const double[]){ 0, 1 }, (const double[]){ 0, 1 }, 2, false);
	assert_int_equal(layout_key_place(&l, &small).corner, LAYOUT_TOP_LEFT);
	area(&l);
	layout_line(&l, (const double[]){ 0, 1 }, (const double[]){ 1, 0 }, 2, false);
	assert_int_equal(layout_key_place(&l, &small).corner, LAYOUT_TOP_RIGHT);
	area(&l);	/* an X: both top corners taken */
	layout_line(&l, (const double[]){ 0, 1 }, (const double[]){ 0.3, 1 }, 2, false);
	layout_line(&l, (const double[]){ 0, 1 }, (const double[]){ 1, 0.3 }, 2, false);
	p = layout_key_place(&l, &small);
	assert_int_equal(p.corner, LAYOUT_BOTTOM_LEFT);
	assert_true(p.y_hi == 1);
}

static void test_along_a_row(void **state)
{
	struct layout l;
	struct layout_place p;

	(void)state;
	area(&l);	/* vertical lines at both edges: the middle of the top is free */
	layout_line(&l, (const double[]){ 0.05, 0.05 }, (const double[]){ 0, 1 }, 2, false);
	layout_line(&l, (const double[]){ 0.95, 0.95 }, (const double[]){ 0, 1 }, 2, false);
	p = layout_key_place(&l, &small);
	assert_int_equal(p.corner, LAYOUT_AT);
	assert_true(p.at_x > 0.05 && p.at_x < 0.2);
	assert_true(p.at_y > 0.9 && p.at_y <= 1);
}

static void test_headroom_and_outside(void **state)
{
	struct layout l;
	struct layout_place p;
	struct layout_key huge = { .entries = 40, .cols = 1, .title_chars = 8 };

	(void)state;
	area(&l);	/* filled to 0.8 everywhere: the key fits above it */
	layout_line(&l, (const double[]){ 0, 1 }, (const double[]){ 0.8, 0.8 }, 2, true);
	p = layout_key_place(&l, &small);
	assert_int_equal(p.corner, LAYOUT_TOP_LEFT);
	assert_true(p.y_hi == 1);
	area(&l);	/* to 0.9: room made above it */
	layout_line(&l, (const double[]){ 0, 1 }, (const double[]){ 0.9, 0.9 }, 2, true);
	p = layout_key_place(&l, &small);
	assert_int_equal(p.corner, LAYOUT_TOP_LEFT);
	assert_true(p.y_hi > 1.02 && p.y_hi < 1.3);
	/* the data end below the key (two rows) in the new range */
	assert_true(0.9 / p.y_hi < 1 - (2 * LAYOUT_ROW_PX + 6) / LAYOUT_AREA_H_PX);
	assert_int_equal(layout_key_place(&l, &huge).corner, LAYOUT_OUTSIDE);
	layout_init(&l, (struct layout_axis){ 0, 1, false }, (struct layout_axis){ 1, 100, true });
	layout_line(&l, (const double[]){ 0, 1 }, (const double[]){ 90, 90 }, 2, true);
	p = layout_key_place(&l, &small);	/* log: the top grows by a factor */
	assert_true(p.y_hi > 150 && p.y_hi < 250);	/* 100^(0.98 / 0.86), not 1 + 99 * 0.98 / 0.86 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_tics),
		cmocka_unit_test(test_corners),
		cmocka_unit_test(test_along_a_row),
		cmocka_unit_test(test_headroom_and_outside),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
