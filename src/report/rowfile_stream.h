/* rowfile_stream.h - a results file written row by row, byte for byte as
 * rowfile_print() prints the whole rowfile (report/rowfile.h), so that a
 * sweep need not keep its rows to print them in the end.
 *
 *   rowstream_begin(&rs, f, &frame);   nothing written yet
 *   rowstream_row(&rs, text);          the first row writes the head first
 *   rowstream_end(&rs);                head (if no row came), then the tail
 *
 * The head is the shard framing (frame->shards > 0), then the CSV header or
 * the JSON opening; the tail closes the JSON array (and the shard object).
 * The head waits for the first row or the end, so a sweep whose first point
 * fails prints nothing, as it did when it printed everything at the end.
 *
 * A row's text is what table_print_row() printed (a CSV line without its
 * '\n', or a JSON object): rowstream_table_row() makes it.
 */
#ifndef RXLAB_REPORT_ROWFILE_STREAM_H
#define RXLAB_REPORT_ROWFILE_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/rowfile.h"
#include "report/table.h"

struct rowstream {
	FILE *f;
	const struct rowfile *frame;   /* fmt, keys and shard framing; its rows are not read */
	size_t nrows;                  /* rows written */
	bool head_done;
};

/* Start writing to @f a file framed as @frame (borrowed until the end). */
void rowstream_begin(struct rowstream *rs, FILE *f, const struct rowfile *frame);

/* Write one row (@text as described above). */
void rowstream_row(struct rowstream *rs, const char *text);

/* Finish the file: the head if no row came, then the tail. */
void rowstream_end(struct rowstream *rs);

/* What rowstream_row() for each of @texts[0..n) and then rowstream_end()
 * would write now, as a string (caller frees), @rs unchanged: the trailer
 * of a checkpoint (outfile_checkpoint()).  NULL when out of memory. */
char *rowstream_tail(const struct rowstream *rs, const char *const *texts, size_t n);

/* Row @r of @t as a row text in format @fmt (OUT_CSV or OUT_JSON); caller
 * frees.  Aborts when out of memory, as rowfile_add_table_row() does. */
char *rowstream_table_row(const struct table *t, size_t r, enum out_format fmt);

#endif
