/* csv.h - the reader every replay shares (private to src/replay).
 *
 * A replay input is a header naming the columns exactly, then rows of
 * plain decimal integers in time order (replay/replay.h, docs/replay.md).
 * The reader checks the header, splits the rows, converts each column
 * exactly (never wrapped, rounded or signed) and keeps times from going
 * back; every error is one line "FILE:LINE: column 'x': ...; accepted ..."
 * in the caller's buffer.
 */
#ifndef RXLAB_REPLAY_CSV_H
#define RXLAB_REPLAY_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "io/infile.h"

#define CSV_MAX_COLS 8

/* Reader limits (docs/replay.md): a row is at most 8 numbers, so 4 KiB a
 * line is generous; the decisions are kept in memory until printed (about
 * 200 bytes a row), so at most 10 million rows (or packets of a capture)
 * and 1 GiB of input. */
#define REPLAY_LINE_MAX 4096
#define REPLAY_MAX_BYTES (1ull << 30)
#define REPLAY_MAX_ROWS 10000000ull

/* Invariants: line is the number of the last line read (1-based); field[]
 * points into buf after csv_next() returned 1; rows counts the rows read
 * (not the header); prev_t / prev_line are the time and line of the last
 * row that passed csv_time(). */
struct csv {
	struct linein in;
	const char *name;
	const char *const *cols;   /* expected header, NULL-terminated */
	size_t ncols;
	unsigned long line;
	uint64_t rows;
	char *buf;
	char *field[CSV_MAX_COLS];
	int64_t prev_t;
	unsigned long prev_line;
	char *err;
	size_t errlen;
};

/* Start reading @f (called @name in messages; not closed here): the first
 * line that is neither blank nor a '#' comment must be the header @cols
 * (NULL-terminated, at most CSV_MAX_COLS), blanks ignored.  Messages go to
 * @err.  0, or -1 with a message; call csv_close() either way. */
int csv_open(struct csv *c, FILE *f, const char *name, const char *const *cols,
	     char *err, size_t errlen);

/* Free the line buffer; @f stays open. */
void csv_close(struct csv *c);

/* Next data row into field[], exactly ncols columns and at most
 * REPLAY_MAX_ROWS rows: 1, 0 at the end, -1 with a message. */
int csv_next(struct csv *c);

/* Column @col of the current row as a decimal integer in 0..@max into
 * *@out: 0, or -1 with a message naming the column and the range. */
int csv_u64(struct csv *c, size_t col, uint64_t max, uint64_t *out);

/* Column @col as a time in ns (0..INT64_MAX) into *@t, not earlier than
 * the last time this accepted: 0, or -1 with a message naming both lines. */
int csv_time(struct csv *c, size_t col, int64_t *t);

#endif
