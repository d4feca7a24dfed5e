/* test_live_knobs.c - device knob names, ranges and messages
 * (src/live/knobs.h); writing them needs root and a device, which
 * tests/live/knobs_journal.sh covers. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "live/knobs.h"

static void test_names(void **state)
{
	enum knob k = KNOB_COUNT;

	(void)state;
	for (int i = 0; i < KNOB_COUNT; i++) {
		assert_int_equal(knob_parse(knob_name((enum knob)i), &k), 0);
		assert_int_equal(k, i);
	}
	/* sysfs spells it with '_', netlink with '-': both are accepted */
	assert_int_equal(knob_parse("napi-defer-hard-irqs", &k), 0);
	assert_int_equal(k, KNOB_NAPI_DEFER_HARD_IRQS);
	assert_int_equal(knob_parse("irq_suspend_timeout", &k), 0);
	assert_int_equal(k, KNOB_IRQ_SUSPEND_TIMEOUT);
	k = KNOB_GRO;
	assert_int_equal(knob_parse("napi_defer_hard_irq", &k), -1);
	assert_int_equal(knob_parse("gro_flush_timeout_ns", &k), -1);
	assert_int_equal(k, KNOB_GRO);
	assert_string_equal(knob_name(KNOB_COUNT), "?");
}

static void test_ranges(void **state)
{
	(void)state;
	assert_int_equal(knob_max(KNOB_NAPI_DEFER_HARD_IRQS), INT32_MAX);
	assert_int_equal(knob_max(KNOB_THREADED), 2);
	assert_int_equal(knob_max(KNOB_GRO), 1);
	assert_true(knob_is_time(KNOB_GRO_FLUSH_TIMEOUT));
	assert_true(knob_is_time(KNOB_IRQ_SUSPEND_TIMEOUT));
	assert_false(knob_is_time(KNOB_THREADED));
}

/* Out of range is refused before any system call, naming device and knob. */
static void test_put_out_of_range(void **state)
{
	struct knob_dev d = { .ns_fd = -1, .ifindex = 1, .ifname = "lo" };
	char err[160];

	(void)state;
	assert_int_equal(knob_put(&d, KNOB_THREADED, 3, err, sizeof(err)), -1);
	assert_string_equal(err, "lo: threaded 3 is out of range 0..2");
}

/* A set without changes restores nothing and leaves no journal. */
static void test_empty_restore(void **state)
{
	struct knob_dev d = { .ns_fd = -1, .ifindex = 1, .ifname = "lo" };
	struct knobs ks;

	(void)state;
	knobs_init(&ks, &d, false);
	assert_int_equal(knobs_restore(&ks, NULL, 0), 0);
	assert_int_equal(ks.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_put_out_of_range),
		cmocka_unit_test(test_empty_restore),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
