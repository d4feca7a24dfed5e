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

/* Give column @key (which must exist) the unit @unit (copied), instead of
 * the one table_col_unit() derives. */
void table_set_unit(struct table *t, const char *key, const char *unit);

/* The unit of column @c (< table_ncols()), for JSON's "units" and
 * docs/outputs-schema.md: table_set_unit()'s, else the one its key and
 * table name give (report/col_units.h: "_pct" is "%", "_us" "us", "_pps"
 * "pkt/s", "_per_s" "1/s", ...), else "text" when a cell of the column is a
 * string, "bool" when every value is true or false, else "count".  Valid
 * while @t lives. */
const char *table_col_unit(const struct table *t, size_t c);

/* The table's machine key (table_new()'s @name). */
const char *table_name(const struct table *t);

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

/* Tables in @r; table @i (< report_count()), in order. */
size_t report_count(const struct report *r);
const struct table *report_table(const struct report *r, size_t i);

/* Keep only the tables of @r named in @names[0..@n), in @r's order (a name
 * given twice counts once), freeing the others.  0, or -1 when a name is
 * not a table of @r: "unknown table 'X'; this report's tables: summary,
 * netstat_i, ..." in @err, and @r unchanged. */
int report_select(struct report *r, const char *const *names, size_t n, char *err,
		  size_t errlen);

/* As report_print(), except that JSON carries each column's unit
 * (table_col_unit()): one table is the object
 *   {"units": {"KEY": "UNIT", ...}, "rows": [ROW, ...]}
 * (the rows as report_print() writes them); several are {"NAME": that
 * object, ...} in order.  CSV and text are report_print()'s. */
void report_print_units(const struct report *r, FILE *f, enum out_format fmt);

/* Write each table of @r to DIR/NAME.csv (@fmt OUT_CSV: report_print()'s
 * CSV of the table alone: one header row, no comment lines) or
 * DIR/NAME.json (OUT_JSON: report_print_units()'s object of the table);
 * OUT_TABLE is a contract violation.  @dir is created (one level) if it is
 * absent; a symbolic link or anything but a directory is refused.  Every
 * file is written as outfile_open() does (io/outfile.h: an existing one
 * replaced atomically, a symlink inside @dir followed as the shell's `>`
 * follows it) and all are opened, so locked, before any is written;
 * files of @dir that are not tables of @r are left alone.  0, or -1 with
 * one line in @err, the files not yet closed as they were. */
int report_write_dir(const struct report *r, const char *dir, enum out_format fmt, char *err,
		     size_t errlen);

/* Write @r to @path as outfile_open() does (io/outfile.h): where the
 * shell's `> PATH` would, atomically (temporary file, fsync, rename) when
 * @path is absent or a regular file, in place when it is a FIFO or a
 * device; "-" is stdout.  0 on success; -1 on failure with a message naming
 * the file and the strerror() text in @err (@errlen bytes; @err may be
 * NULL), the target as it was and no temporary file left behind. */
int report_write_file(const struct report *r, const char *path,
		      enum out_format fmt, char *err, size_t errlen);

#endif
