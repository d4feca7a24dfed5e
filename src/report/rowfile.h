/* rowfile.h - a sweep's results file as rows of text: written point by
 * point, read back to resume a sweep, merge shards or draw figures.
 *
 * A results file is what `rxlab sweep --format csv|json` prints: one table,
 * a header (CSV) and one row per point.  A shard (`--shard K/N`) is a report
 * of two tables: "shard" (one row: sweep_id, shard, shards, points) and
 * "sweep" (the rows of the points of that shard), laid out exactly as
 * report_print() lays out two tables.
 *
 * Each row keeps its text exactly as table_print_row() printed it (a CSV
 * line without its '\n', or a JSON object), so a file assembled from rows of
 * several runs is byte-identical to the file one run would have printed; and
 * its cells as strings (NULL for a missing value: an empty CSV field, JSON
 * null), for the code that reads values.
 *
 * Reading accepts what rxlab writes: RFC 4180 CSV with one record per line,
 * and JSON whose rows are flat objects of strings, numbers, booleans and
 * null.  Errors name the file and the line.
 */
#ifndef RXLAB_REPORT_ROWFILE_H
#define RXLAB_REPORT_ROWFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/table.h"

struct rowfile_row {
	char *text;      /* the row as printed (no '\n'); may be NULL for rows built from cells */
	char **cell;     /* ncols strings; NULL = missing value */
	unsigned line;   /* 1-based line in the file read, 0 when built in memory */
};

struct rowfile {
	enum out_format fmt;        /* OUT_CSV or OUT_JSON */
	size_t ncols;
	char **key;                 /* column keys */
	size_t nrows, cap;
	struct rowfile_row *row;
	/* shard framing: shards == 0 for a plain results file */
	char sweep_id[24];
	unsigned shard, shards;     /* 1..shards */
	uint64_t points;            /* points of the whole sweep */
};

/* Empty rowfile of format @fmt (OUT_CSV or OUT_JSON) with no columns. */
void rowfile_init(struct rowfile *rf, enum out_format fmt);
void rowfile_free(struct rowfile *rf);

/* Set the column keys (copied) of an empty rowfile. */
void rowfile_set_keys(struct rowfile *rf, const char *const *keys, size_t n);

/* Append a row: @text (copied; may be NULL) and @cell (ncols strings, each
 * copied; NULL entries are missing values). */
void rowfile_add(struct rowfile *rf, const char *text, const char *const *cell);

/* Append row @r of table @t (whose columns are rf's keys) as rf->fmt text
 * and as cells. */
void rowfile_add_table_row(struct rowfile *rf, const struct table *t, size_t r);

/* What the reader takes (docs/sweeps.md, "Reading results files"): a
 * line of at most 1 MiB, a file of at most 1 GiB (a million-point sweep
 * is about 250 MB of CSV) and at most 10 million rows (a sweep's most
 * points).  Shards keep bigger sweeps under the limits, file by file. */
struct rowfile_limits {
	size_t line_max;     /* bytes of a line without its line end */
	uint64_t total_max;  /* bytes of the file */
	size_t rows_max;     /* rows of the table 'sweep' */
};
extern const struct rowfile_limits rowfile_limits_default;

/* Read @path (format detected from its first byte after blanks and a
 * UTF-8 BOM: '[' or '{' JSON, else CSV) into @rf (initialised here).  A
 * regular file or a stream (a pipe, `<(cmd)`, a FIFO, /dev/stdin); a
 * block device or a socket is refused before any read, and reading stops
 * at the first NUL byte or the first byte past a limit.  "-" is standard
 * input (io/infile.h: read once per command), "<stdin>" in messages.  0,
 * or -1 with "PATH:LINE: what" in @err. */
int rowfile_read(struct rowfile *rf, const char *path, char *err, size_t errlen);

/* As rowfile_read() on @len bytes at @buf; @name names them in messages. */
int rowfile_parse(struct rowfile *rf, const char *name, const char *buf, size_t len,
		  char *err, size_t errlen);

/* As rowfile_parse() under the limits @lim (tests and fuzzing use small ones). */
int rowfile_parse_limited(struct rowfile *rf, const char *name, const char *buf, size_t len,
			  const struct rowfile_limits *lim, char *err, size_t errlen);

/* Index of column @key, or -1. */
int rowfile_col(const struct rowfile *rf, const char *key);

/* Print @rf as rxlab prints it: the shard framing when rf->shards > 0,
 * then the header (CSV) and every row's text in order.  Rows without text
 * are a contract violation. */
void rowfile_print(const struct rowfile *rf, FILE *f);

/* Print the rows' cells as CSV (header and rows), whatever rf->fmt. */
void rowfile_print_csv(const struct rowfile *rf, FILE *f);

/* Write rowfile_print() output to @path as outfile_open() does
 * (io/outfile.h): atomically when @path is absent or a regular file, in
 * place when it is a FIFO or a device; "-" is stdout.  0, or -1 with a
 * message naming the file. */
int rowfile_write(const struct rowfile *rf, const char *path, char *err, size_t errlen);

#endif
