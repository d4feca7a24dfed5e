/* test_validate.c - how a simulated figure is judged against a reported one. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "experiment/validate.h"
#include "model/builtin.h"

static const struct figure ratio_fig = { .seed = "000", .id = "000.r", .name = "r",
					 .reported = 1000, .check = CHECK_RATIO };
static const struct figure most_fig = { .seed = "000", .id = "000.m", .name = "m", .reported = 24,
					.check = CHECK_AT_MOST, .bound = 100 };
static const struct figure least_fig = { .seed = "000", .id = "000.l", .name = "l", .reported = 5,
					 .check = CHECK_AT_LEAST, .bound = 3 };

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

/* ---- classes against the profiles' "fitted:" comment lines ---- */

static const struct figure class_figs[] = {
	{ .seed = "900", .id = "900.a", .name = "a", .cls = FIG_FITTED, .param = "prof-x: rx-pkt" },
	{ .seed = "900", .id = "900.b", .name = "b", .cls = FIG_PREDICTED },
	{ .seed = "900", .id = "900.c", .name = "c", .cls = FIG_FITTED,
	  .param = "seeds/900-x: rx-usecs, ping-work" },
};

static int check(const char *prof, const char *scn, char *err, size_t len)
{
	const struct builtin_file files[] = {
		{ "profiles/prof-x", "profiles/prof-x.ini", prof },
		{ "seeds/900-x", "scenarios/seeds/900-x.ini", scn },
		{ NULL, NULL, NULL },
	};

	return validate_classes_check(class_figs, 3, files, err, len);
}

#define PROF_OK "# prof-x\n#   fitted: rx-pkt to 900.a\n[cost]\nrx-pkt = 1us\n"
#define SCN_OK "# 900\n# fitted: rx-usecs, ping-work to 900.c\n"

static void test_classes_agree(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(check(PROF_OK, SCN_OK, err, sizeof(err)), 0);
}

/* A predicted figure that a comment says was fitted is an error. */
static void test_predicted_but_fitted(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(check(PROF_OK "# fitted: skb-alloc to 900.b\n", SCN_OK, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "figure 900.b is predicted"));
	assert_non_null(strstr(err, "prof-x: skb-alloc were fitted"));
}

/* The comment and the figure name different keys, or another file. */
static void test_param_differs(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(check("# fitted: tx-pkt to 900.a\n", SCN_OK, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "figure 900.a is fitted from prof-x: rx-pkt"));
	assert_int_equal(check(PROF_OK, "# fitted: rx-usecs to 900.c\n", err, sizeof(err)), -1);
}

/* A fitted figure no comment names, or two comments name, is an error;
 * so is a line naming no known figure or lacking " to ". */
static void test_fitted_needs_one_line(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(check(PROF_OK, "# nothing fitted here\n", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "figure 900.c is fitted"));
	assert_non_null(strstr(err, "but 0 comment lines"));
	assert_int_equal(check(PROF_OK PROF_OK, SCN_OK, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "but 2 comment lines"));
	assert_int_equal(check(PROF_OK "# fitted: rx-pkt to 900.zz\n", SCN_OK, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "900.zz\": no figure has that id"));
	assert_int_equal(check(PROF_OK "# fitted: rx-pkt\n", SCN_OK, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "expected KEYS to FIGURE-ID"));
	/* not a comment: not a claim */
	assert_int_equal(check(PROF_OK "fitted: skb-alloc to 900.b\n", SCN_OK, err, sizeof(err)),
			 0);
}

/* The real table agrees with the built-in profiles and scenarios, every
 * id is unique, and only fitted and derived figures carry a param. */
static void test_real_classes(void **state)
{
	size_t n;
	const struct figure *f = validate_figures(&n);
	char err[512] = "";

	(void)state;
	assert_true(n > 50);
	if (validate_classes_check(f, n, builtin_files, err, sizeof(err)))
		fail_msg("%s", err);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(strncmp(f[i].id, f[i].seed, strlen(f[i].seed)), 0);
		assert_true((f[i].param != NULL) == (f[i].cls == FIG_FITTED || f[i].cls == FIG_DERIVED));
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(f[i].id, f[j].id);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ratio_edges),
		cmocka_unit_test(test_directions),
		cmocka_unit_test(test_nan_fails),
		cmocka_unit_test(test_classes_agree),
		cmocka_unit_test(test_predicted_but_fitted),
		cmocka_unit_test(test_param_differs),
		cmocka_unit_test(test_fitted_needs_one_line),
		cmocka_unit_test(test_real_classes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
