/* fuzz_rowfile.c - libFuzzer target for results files (report/rowfile.h),
 * the reader behind rxlab sweep --resume, rxlab merge and rxlab plot.
 *
 * Input: any bytes, as the content of a results file.  rowfile_parse()
 * either fails with a terminated message, or succeeds; then every row has
 * one cell per column, and printing the file and reading it back gives the
 * same format, framing, keys, row texts and cells (print(parse(x)) is a
 * fixed point of parse).
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rowfile a, b;
	char err[512], *out = NULL;
	size_t len = 0;
	FILE *f;

	err[0] = '\0';
	if (rowfile_parse(&a, "in", (const char *)data, size, err, sizeof(err))) {
		assert(memchr(err, '\0', sizeof(err)) && err[0]);
		return 0;
	}
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
