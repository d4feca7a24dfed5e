/* table.h - the one path by which rxlab output reaches the user.
 *
 * A table is a name (machine key), a title (human heading), columns and
 * rows of typed cells; a report is an ordered list of tables.  Each can be
 * printed as an aligned text table, RFC 4180 CSV or JSON, so the CLI builds
 * its numbers once and the user picks the format.
 *
 * Output is deterministic: doubles use fixed "%.*f" with the column's
 * precision (never %g), the decimal separator is always '.', whatever the
 * locale, and "-0.00" is printed as "0.00".
 *
 * "Not reliable" values (a ratio over a zero interval, ...) are stored as NaN
 * or infinity with table_dbl(), or as a NULL string with table_str(); they
 * print as "-" in text, an empty field in CSV and null in JSON.  A row with
 * fewer cells than columns is padded with such missing cells.
 *
 * Allocation failure aborts with a message: output tables are small and
 * there is nothing useful to do without them.
 */
#ifndef RXLAB_REPORT_TABLE_H
#define RXLAB_REPORT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum out_format {
	OUT_TABLE,	/* aligned text for humans */
	OUT_CSV,	/* RFC 4180, '\n' line ends, header row of column keys */
	OUT_JSON,	/* array of objects keyed by column key */
};

/* Parse "table", "csv" or "json" into @f.  0 on success, -1 otherwise (@f
 * untouched). */
int out_format_parse(const char *s, enum out_format *f);

struct table;

/* New empty table.  @name is the machine key (e.g. "netstat_i", used as the
 * JSON key and CSV "# name" line in a multi-table report); @title is the
 * human heading of the text form (e.g. "Kernel Interface table"), or NULL
 * for none.  Both are copied. */
struct table *table_new(const char *name, const char *title);
void table_free(struct table *t);

/* Append a column.  @key names it in CSV and JSON ("rx_irqs_per_s"),
 * @header in text ("RX-IRQ/s").  @precision is the number of digits after
 * the decimal point for table_dbl() cells, or -1 to round them to integers.
 * Columns must all be added before the first row.  Both strings are copied. */
void table_add_col(struct table *t, const char *key, const char *header,
		   int precision);

/* Start a new row, then give one cell per column, in column order.  Giving
 * more cells than there are columns is a contract violation.  table_str()
 * copies @s; NULL is a missing value.  table_dbl() stores NaN and infinities
 * as missing values. */
void table_row(struct table *t);
void table_str(struct table *t, const char *s);
/* A boolean cell: true/false in every format (a JSON literal). */
void table_bool(struct table *t, bool v);
void table_i64(struct table *t, int64_t v);
void table_u64(struct table *t, uint64_t v);
void table_dbl(struct table *t, double v);

/* Give @t a text form of its own: the text output prints the title, then
 * @text verbatim (it should end with a newline), instead of the aligned
 * columns, for tables that imitate a tool's own output (ping's summary).
 * CSV and JSON still print the columns.  @text is copied. */
void table_set_text(struct table *t, const char *text);

/* Write @s as one RFC 4180 CSV field: as is, or quoted with quotes doubled
 * when it holds a comma, quote or line break (what table_print() does). */
void table_csv_field(FILE *f, const char *s);

/* Print @t to @f.  Text: the title line, a header row, then the rows; each
 * column as wide as its widest entry, two spaces between columns; a column
 * holding any string cell is left-aligned, others right-aligned; no
 * trailing blanks.  CSV: a header row of keys, then the rows.  JSON: an
 * array with one object per row, keys in column order, one row per line,
 * or "[]".  A table without columns prints only its title. */
void table_print(const struct table *t, FILE *f, enum out_format fmt);

/* Rows added so far; columns; the key of column @c (< table_ncols()). */
size_t table_nrows(const struct table *t);
size_t table_ncols(const struct table *t);
const char *table_col_key(const struct table *t, size_t c);

/* Row @r of @t alone, exactly as table_print() writes it within the table:
 * CSV, the line with its '\n'; JSON, the object, with no indentation,
 * separator or newline.  The text form (OUT_TABLE) is a contract violation:
 * its column widths depend on every row.  Sweeps use this to assemble
 * results files row by row (resume, shards, merge). */
void table_print_row(const struct table *t, size_t r, FILE *f, enum out_format fmt);

struct report;

struct report *report_new(void);
void report_free(struct report *r);	/* frees its tables too */

/* Append @t to @r, which takes ownership of it. */
void report_add(struct report *r, struct table *t);

/* Print every table of @r in order.  Text: tables separated by a blank
 * line.  CSV: a single table alone; several each preceded by "# name" and
 * separated by a blank line.  JSON: a single table is its array; several
 * form an object {"name": [...], ...} in order. */
void report_print(const struct report *r, FILE *f, enum out_format fmt);

/* Write @r to @path as outfile_open() does (io/outfile.h): where the
 * shell's `> PATH` would, atomically (temporary file, fsync, rename) when
 * @path is absent or a regular file, in place when it is a FIFO or a
 * device; "-" is stdout.  0 on success; -1 on failure with a message naming
 * the file and the strerror() text in @err (@errlen bytes; @err may be
 * NULL), the target as it was and no temporary file left behind. */
int report_write_file(const struct report *r, const char *path,
		      enum out_format fmt, char *err, size_t errlen);

#endif
