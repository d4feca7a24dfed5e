/* fuzz_rowfile.c - libFuzzer target for results files (report/rowfile.h),
 * the reader behind rxlab sweep --resume, rxlab merge and rxlab plot.
 *
 * Input: any bytes, as the content of a results file.  rowfile_parse()
 * either fails with a terminated message, or succeeds; then every row has
 * one cell per column, and printing the file and reading it back gives the
 * same format, framing, keys, row texts and cells (print(parse(x)) is a
 * fixed point of parse).
 *
 * The reader's bounds: the same bytes are parsed again under small limits
 * drawn from the first two bytes (lines of 1..64 bytes, files of 1..1021
 * bytes, 0..4 rows).  A refusal must be one line naming the file; a
 * success must respect every limit and equal the unlimited parse.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1 /* open_memstream */
#endif
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/rowfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_cell(const char *a, const char *b)
{
	assert((a == NULL) == (b == NULL));
	assert(!a || !strcmp(a, b));
}

static void same_file(const struct rowfile *a, const struct rowfile *b)
{
	assert(a->fmt == b->fmt && a->shards == b->shards && a->shard == b->shard);
	assert(a->points == b->points && !strcmp(a->sweep_id, b->sweep_id));
	assert(a->nrows == b->nrows);
	if (a->nrows)
		assert(a->ncols == b->ncols);
	for (size_t c = 0; c < a->ncols && a->nrows; c++)
		assert(!strcmp(a->key[c], b->key[c]));
	for (size_t r = 0; r < a->nrows; r++) {
		assert(!strcmp(a->row[r].text, b->row[r].text));
		for (size_t c = 0; c < a->ncols; c++)
			same_cell(a->row[r].cell[c], b->row[r].cell[c]);
	}
}

/* Whether every line of @len bytes at @buf (a BOM skipped) is at most
 * @max bytes, a CR before its LF not counted. */
static int lines_within(const char *buf, size_t len, size_t max)
{
	size_t start = len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3) ? 3 : 0;

	for (size_t i = start; i <= len; i++) {
		if (i < len && buf[i] != '\n')
			continue;
		if (i - start > max + (i > start && buf[i - 1] == '\r'))
			return 0;
		start = i + 1;
	}
	return 1;
}

static void limited(const uint8_t *data, size_t size, const struct rowfile *full, int full_rc)
{
	struct rowfile_limits lim = { 1 + data[0] % 64, 1 + (uint64_t)data[1] * 4, data[0] % 5 };
	struct rowfile c;
	char err[512];

	err[0] = '\0';
	if (rowfile_parse_limited(&c, "lim", (const char *)data, size, &lim, err, sizeof(err))) {
		assert(memchr(err, '\0', sizeof(err)) && !strncmp(err, "lim", 3));
		return;
	}
	assert(size <= lim.total_max && c.nrows <= lim.rows_max);
	assert(lines_within((const char *)data, size, lim.line_max));
	assert(full_rc == 0);
	same_file(full, &c);
	rowfile_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rowfile a, b;
	char err[512], *out = NULL;
	size_t len = 0;
	FILE *f;

	err[0] = '\0';
	if (rowfile_parse(&a, "in", (const char *)data, size, err, sizeof(err))) {
		assert(memchr(err, '\0', sizeof(err)) && err[0]);
		if (size >= 2)
			limited(data, size, NULL, -1);
		return 0;
	}
	if (size >= 2)
		limited(data, size, &a, 0);
	f = open_memstream(&out, &len);
	assert(f);
	rowfile_print(&a, f);
	fclose(f);
	if (rowfile_parse(&b, "out", out, len, err, sizeof(err))) {
		fprintf(stderr, "printed file does not parse: %s\n%s", err, out);
		abort();
	}
	same_file(&a, &b);
	rowfile_free(&a);
	rowfile_free(&b);
	free(out);
	return 0;
}
