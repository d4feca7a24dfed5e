/* test_rowfile_stream.c - a results file written row by row is byte for
 * byte the one rowfile_print() prints from all its rows, in every layout
 * (CSV, JSON, each with and without the shard framing) and with 0, 1 and 3
 * rows; a checkpoint's tail after k rows completes the same file. */
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

#include "report/rowfile.h"
#include "report/rowfile_stream.h"

static const char *const csv_rows[] = { "1,x", "2,\"y,z\"", "3," };
static const char *const json_rows[] = { "{\"a\": 1, \"b\": \"x\"}", "{\"a\": 2, \"b\": \"y,z\"}",
					 "{\"a\": 3, \"b\": null}" };

/* A rowfile of @n rows in @fmt, framed as shard 2/3 when @shard. */
static void make(struct rowfile *rf, enum out_format fmt, bool shard, size_t n)
{
	static const char *const keys[] = { "a", "b" };
	const char *cells[2] = { "1", "x" };

	rowfile_init(rf, fmt);
	rowfile_set_keys(rf, keys, 2);
	for (size_t i = 0; i < n; i++)
		rowfile_add(rf, fmt == OUT_JSON ? json_rows[i] : csv_rows[i], cells);
	if (shard) {
		snprintf(rf->sweep_id, sizeof(rf->sweep_id), "0123456789abcdef");
		rf->shard = 2;
		rf->shards = 3;
		rf->points = 9;
	}
}

static char *printed(const struct rowfile *rf)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	rowfile_print(rf, f);
	fclose(f);
	return buf;
}

/* Stream the first @k rows of @rf, then the tail with the others; and the
 * whole file streamed: both must equal rowfile_print(). */
static void check(enum out_format fmt, bool shard, size_t n, size_t k)
{
	struct rowfile rf;
	struct rowstream rs;
	char *want, *buf = NULL, *tail, *joined;
	const char *texts[3];
	size_t len = 0;
	FILE *f;

	make(&rf, fmt, shard, n);
	want = printed(&rf);
	for (size_t i = 0; i < n; i++)
		texts[i] = rf.row[i].text;
	f = open_memstream(&buf, &len);
	rowstream_begin(&rs, f, &rf);
	for (size_t i = 0; i < k; i++)
		rowstream_row(&rs, texts[i]);
	fflush(f);
	tail = rowstream_tail(&rs, texts + k, n - k);
	assert_non_null(tail);
	joined = malloc(strlen(buf) + strlen(tail) + 1);
	strcpy(joined, buf);
	strcat(joined, tail);
	assert_string_equal(joined, want);
	for (size_t i = k; i < n; i++)
		rowstream_row(&rs, texts[i]);
	rowstream_end(&rs);
	fclose(f);
	assert_string_equal(buf, want);
	free(joined);
	free(tail);
	free(buf);
	free(want);
	rowfile_free(&rf);
}

static void test_every_layout(void **state)
{
	static const enum out_format fmts[] = { OUT_CSV, OUT_JSON };

	(void)state;
	for (size_t f = 0; f < 2; f++)
		for (int shard = 0; shard < 2; shard++)
			for (size_t n = 0; n <= 3; n++)
				for (size_t k = 0; k <= n; k++)
					check(fmts[f], shard, n, k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
