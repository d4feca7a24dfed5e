/* test_trace_play.c - spans, whole-trace runs and the link check of
 * traces (model/trace_play.h) on traces built here. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "model/trace_play.h"

static struct scn_trace trace(const int64_t *t, const uint32_t *len, uint64_t n)
{
	return (struct scn_trace){ .n = n, .t_ns = t, .len = len };
}

static void test_span_and_run(void **state)
{
	static const int64_t t[] = { 0, 1000, 1999999999 };
	static const uint32_t len[] = { 64, 64, 64 };
	static const int64_t huge[] = { 0, INT64_MAX / 2 };
	struct scn_trace tr = trace(t, len, 3), big = trace(huge, len, 2);

	(void)state;
	assert_int_equal(trace_play_ns(&tr, 1000), 1999999999);
	assert_int_equal(trace_play_ns(&tr, 2000), 999999999);     /* floor of 999999999.5 */
	assert_int_equal(trace_play_ns(&tr, 3), 666666666333);      /* exact, no overflow */
	/* the span rounded down to the us, plus 1.001 ms: tune's duration */
	assert_int_equal(trace_run_ns(&tr, 1000, 0), (1999999 + 1001) * 1000LL);
	assert_int_equal(trace_run_ns(&tr, 1000, 5000), 5000 + (1999999 + 1001) * 1000LL);
	/* spans beyond int64 at a slow speed saturate instead of wrapping */
	assert_int_equal(trace_play_ns(&big, 1), INT64_MAX);
	assert_int_equal(trace_run_ns(&big, 1, 0), INT64_MAX);
}

static void test_link(void **state)
{
	/* 1514-byte frames (1518 with FCS, 1538 on the wire: 12304 bits, 12.304
	 * us at 1 Gbit/s) every 10 us: 2.304 us more per frame than the link
	 * has, so frame k waits 2.304 * k us */
	static int64_t t[1000];
	static uint32_t len[1000];
	struct scn_trace tr;
	struct trace_link l;

	(void)state;
	for (int i = 0; i < 1000; i++)
		t[i] = 10000LL * i, len[i] = 1518;
	tr = trace(t, len, 1000);
	trace_link_check(&tr, 1000, 1000000000, 1000000, &l);
	assert_int_equal(l.peak_bps, 100 * 12304 * 1000ULL);   /* 100 frames per 1 ms window */
	/* waits grow by 2.304 us: frame 434 would wait 999.936 us, frame 435
	 * 1002.24 us > 1 ms and is dropped; the next fit behind it again */
	assert_true(l.drops > 0);
	assert_true(l.max_wait_ns <= 1000000);
	/* at half speed the link keeps up */
	trace_link_check(&tr, 500, 1000000000, 1000000, &l);
	assert_int_equal(l.drops, 0);
	assert_int_equal(l.max_wait_ns, 0);
	assert_int_equal(l.peak_bps, 50 * 12304 * 1000ULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_span_and_run),
		cmocka_unit_test(test_link),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
