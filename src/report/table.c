/* table.c - text, CSV and JSON tables (see table.h).
 *
 * Roadmap: cells are formatted to text once, when they are added (the
 * column's precision is known by then), and stored with their kind:
 * string, number or missing.  The three printers only differ in how they
 * quote each kind and where they put separators, so each is a short loop
 * over the same cell array.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/table.h"

#include <errno.h>
#include <sys/stat.h>

#include "io/infile.h"
#include "io/outfile.h"
#include "report/col_units.h"

enum cell_kind {
	CELL_MISSING,	/* NaN, infinity or NULL string: "-" / "" / null */
	CELL_STR,
	CELL_NUM,	/* text is a JSON literal: a number, true or false */
};

struct cell {
	enum cell_kind kind;
	char *text;	/* NULL for CELL_MISSING */
};

struct column {
	char *key;
	char *header;
	int precision;	/* digits after the point for doubles; -1 = integer */
	char *unit;	/* table_set_unit(), or NULL: derived (table_col_unit()) */
};

/*
 * Invariants: cells holds nrows * ncols entries, row-major; the last row
 * has row_fill (<= ncols) cells given, the rest are CELL_MISSING; columns
 * are only added while nrows == 0.
 */
struct table {
	char *name;
	char *title;
	char *text;	/* table_set_text(): the text form, NULL = aligned columns */
	struct column *cols;
	size_t ncols;
	struct cell *cells;
	size_t nrows;
	size_t row_fill;
};

struct report {
	struct table **tables;
	size_t n;
};

/* ---- helpers ---------------------------------------------------------- */

/* Contract violations are checked even with NDEBUG: writing past a row
 * would corrupt memory, and these checks are not on any hot path. */
static void contract_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("rxlab: table contract violation: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "rxlab: out of memory (%zu bytes)\n", n);
		abort();
	}
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xrealloc(NULL, n), s, n);
}

int out_format_parse(const char *s, enum out_format *f)
{
	static const struct {
		const char *name;
		enum out_format fmt;
	} names[] = {
		{ "table", OUT_TABLE },
		{ "csv", OUT_CSV },
		{ "json", OUT_JSON },
	};
	size_t i;

	for (i = 0; s && i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(s, names[i].name) == 0) {
			*f = names[i].fmt;
			return 0;
		}
	}
	return -1;
}

/* ---- building --------------------------------------------------------- */

struct table *table_new(const char *name, const char *title)
{
	struct table *t;

	if (!name)
		contract_fail("table_new: name is NULL");
	t = xrealloc(NULL, sizeof(*t));
	memset(t, 0, sizeof(*t));
	t->name = xstrdup(name);
	t->text = NULL;
	t->title = title ? xstrdup(title) : NULL;
	return t;
}

void table_free(struct table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->ncols; i++) {
		free(t->cols[i].key);
		free(t->cols[i].header);
		free(t->cols[i].unit);
	}
	for (i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i].text);
	free(t->cols);
	free(t->cells);
	free(t->name);
	free(t->title);
	free(t->text);
	free(t);
}

void table_add_col(struct table *t, const char *key, const char *header,
		   int precision)
{
	struct column *c;

	if (!key || !header)
		contract_fail("table %s: column key or header is NULL", t->name);
	if (t->nrows)
		contract_fail("table %s: column %s added after the first row",
			      t->name, key);
	if (precision < -1 || precision > 30)
		contract_fail("table %s: column %s precision %d not in [-1, 30]",
			      t->name, key, precision);
	t->cols = xrealloc(t->cols, (t->ncols + 1) * sizeof(*t->cols));
	c = &t->cols[t->ncols++];
	c->key = xstrdup(key);
	c->header = xstrdup(header);
	c->precision = precision;
	c->unit = NULL;
}

void table_set_unit(struct table *t, const char *key, const char *unit)
{
	for (size_t i = 0; i < t->ncols; i++) {
		if (!strcmp(t->cols[i].key, key)) {
			free(t->cols[i].unit);
			t->cols[i].unit = xstrdup(unit);
			return;
		}
	}
	contract_fail("table %s: no column %s to give the unit %s", t->name, key, unit);
}

void table_row(struct table *t)
{
	size_t i, first = t->nrows * t->ncols;

	if (t->ncols == 0)
		contract_fail("table %s: row added before any column", t->name);
	t->cells = xrealloc(t->cells, (first + t->ncols) * sizeof(*t->cells));
	for (i = 0; i < t->ncols; i++)
		t->cells[first + i] = (struct cell){ CELL_MISSING, NULL };
	t->nrows++;
	t->row_fill = 0;
}

/* The next cell of the current row; @text is taken over. */
static void put_cell(struct table *t, enum cell_kind kind, char *text)
{
	if (t->nrows == 0 || t->row_fill >= t->ncols)
		contract_fail("table %s: cell %zu of row %zu, but %zu columns",
			      t->name, t->row_fill + 1, t->nrows, t->ncols);
	t->cells[(t->nrows - 1) * t->ncols + t->row_fill++] =
		(struct cell){ kind, text };
}

void table_str(struct table *t, const char *s)
{
	put_cell(t, s ? CELL_STR : CELL_MISSING, s ? xstrdup(s) : NULL);
}

void table_bool(struct table *t, bool v)
{
	put_cell(t, CELL_NUM, xstrdup(v ? "true" : "false"));
}

void table_i64(struct table *t, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	put_cell(t, CELL_NUM, xstrdup(buf));
}

void table_u64(struct table *t, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	put_cell(t, CELL_NUM, xstrdup(buf));
}

/*
 * Make "%.*f" output locale-proof and sign-consistent: any run of bytes that
 * is not a digit or '-' is the locale's decimal separator (possibly multibyte)
 * and becomes '.'; "-0.00" becomes "0.00".  Works in place: never grows.
 */
static void normalize_number(char *s)
{
	char *out = s, *in = s;
	bool nonzero = false;

	while (*in) {
		if ((*in >= '0' && *in <= '9') || *in == '-') {
			nonzero |= *in >= '1' && *in <= '9';
			*out++ = *in++;
			continue;
		}
		*out++ = '.';
		while (*in && !(*in >= '0' && *in <= '9') && *in != '-')
			in++;
	}
	*out = '\0';
	if (s[0] == '-' && !nonzero)
		memmove(s, s + 1, strlen(s));
}

void table_dbl(struct table *t, double v)
{
	/* DBL_MAX has 309 integer digits; precision is at most 30. */
	char buf[400];
	int prec;

	if (t->nrows == 0 || t->row_fill >= t->ncols) {
		put_cell(t, CELL_MISSING, NULL);	/* reports and aborts */
		return;
	}
	if (v != v || v - v != 0.0) {		/* NaN or +-infinity */
		put_cell(t, CELL_MISSING, NULL);
		return;
	}
	prec = t->cols[t->row_fill].precision;
	snprintf(buf, sizeof(buf), "%.*f", prec < 0 ? 0 : prec, v);
	normalize_number(buf);
	put_cell(t, CELL_NUM, xstrdup(buf));
}

/* ---- text ------------------------------------------------------------- */

static const struct cell *cell_at(const struct table *t, size_t row,
				  size_t col)
{
	return &t->cells[row * t->ncols + col];
}

static const char *cell_text(const struct cell *c)
{
	return c->kind == CELL_MISSING ? "-" : c->text;
}

/* Width of column @col and whether it is left-aligned (holds a string). */
static size_t text_col_width(const struct table *t, size_t col, bool *left)
{
	size_t r, w = strlen(t->cols[col].header);

	*left = false;
	for (r = 0; r < t->nrows; r++) {
		const struct cell *c = cell_at(t, r, col);
		size_t n = strlen(cell_text(c));

		*left |= c->kind == CELL_STR;
		if (n > w)
			w = n;
	}
	return w;
}

static void text_field(FILE *f, const char *s, size_t width, bool left,
		       bool last)
{
	int w = (int)width;

	if (left && last)
		fputs(s, f);
	else if (left)
		fprintf(f, "%-*s", w, s);
	else
		fprintf(f, "%*s", w, s);
}

static void text_print(const struct table *t, FILE *f)
{
	size_t *width = xrealloc(NULL, t->ncols * sizeof(*width));
	bool *left = xrealloc(NULL, t->ncols * sizeof(*left));
	size_t r, c;

	for (c = 0; c < t->ncols; c++)
		width[c] = text_col_width(t, c, &left[c]);
	if (t->title)
		fprintf(f, "%s\n", t->title);
	if (t->text) {
		fputs(t->text, f);
		free(width);
		free(left);
		return;
	}
	for (c = 0; c < t->ncols; c++) {
		fputs(c ? "  " : "", f);
		text_field(f, t->cols[c].header, width[c], left[c],
			   c + 1 == t->ncols);
	}
	if (t->ncols)
		fputc('\n', f);
	for (r = 0; r < t->nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			fputs(c ? "  " : "", f);
			text_field(f, cell_text(cell_at(t, r, c)), width[c],
				   left[c], c + 1 == t->ncols);
		}
		fputc('\n', f);
	}
	free(width);
	free(left);
}

/* ---- CSV -------------------------------------------------------------- */

/* RFC 4180 section 2: fields holding a comma, quote or line break are
 * enclosed in quotes, with each quote doubled. */
/* Whether @s must be quoted: RFC 4180's separators, and a start that a
 * reader would take for something else at the start of a file (a JSON
 * '[' or '{', a UTF-8 byte-order mark): rowfile_parse() detects the format
 * and skips a BOM from the first bytes. */
static bool csv_needs_quotes(const char *s)
{
	return strpbrk(s, ",\"\r\n") || s[0] == '[' || s[0] == '{' ||
	       !strncmp(s, "\xef\xbb\xbf", 3);
}

void table_csv_field(FILE *f, const char *s)
{
	if (!csv_needs_quotes(s)) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_print(const struct table *t, FILE *f)
{
	size_t r, c;

	for (c = 0; c < t->ncols; c++) {
		fputs(c ? "," : "", f);
		table_csv_field(f, t->cols[c].key);
	}
	if (t->ncols)
		fputc('\n', f);
	for (r = 0; r < t->nrows; r++)
		table_print_row(t, r, f, OUT_CSV);
}

/* ---- JSON ------------------------------------------------------------- */

/* RFC 8259 section 7: quote, backslash and control characters escaped;
 * other bytes (UTF-8) pass through. */
static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		switch (ch) {
		case '"':  fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		default:
			if (ch < 0x20)
				fprintf(f, "\\u%04x", ch);
			else
				fputc(ch, f);
		}
	}
	fputc('"', f);
}

static void json_row(const struct table *t, FILE *f, size_t r)
{
	size_t c;

	fputc('{', f);
	for (c = 0; c < t->ncols; c++) {
		const struct cell *cl = cell_at(t, r, c);

		fputs(c ? ", " : "", f);
		json_string(f, t->cols[c].key);
		fputs(": ", f);
		if (cl->kind == CELL_STR)
			json_string(f, cl->text);
		else
			fputs(cl->kind == CELL_NUM ? cl->text : "null", f);
	}
	fputc('}', f);
}

/* The array of rows, one per line indented by @indent + 2, with the closing
 * bracket indented by @indent; no newline after it.  Empty: "[]". */
static void json_array(const struct table *t, FILE *f, int indent)
{
	size_t r;

	if (t->nrows == 0) {
		fputs("[]", f);
		return;
	}
	fputs("[\n", f);
	for (r = 0; r < t->nrows; r++) {
		fprintf(f, "%*s", indent + 2, "");
		json_row(t, f, r);
		fputs(r + 1 < t->nrows ? ",\n" : "\n", f);
	}
	fprintf(f, "%*s]", indent, "");
}

void table_set_text(struct table *t, const char *text)
{
	free(t->text);
	t->text = xstrdup(text);
}

/* ---- printing ----------------------------------------------------------- */

size_t table_nrows(const struct table *t)
{
	return t->nrows;
}

size_t table_ncols(const struct table *t)
{
	return t->ncols;
}

const char *table_col_key(const struct table *t, size_t c)
{
	if (c >= t->ncols)
		contract_fail("table %s: no column %zu of %zu", t->name, c, t->ncols);
	return t->cols[c].key;
}

const char *table_name(const struct table *t)
{
	return t->name;
}

/* Whether every given cell of column @c is true or false (and one is). */
static bool col_is_bool(const struct table *t, size_t c)
{
	bool any = false;

	for (size_t r = 0; r < t->nrows; r++) {
		const struct cell *cl = cell_at(t, r, c);

		if (cl->kind == CELL_MISSING)
			continue;
		if (cl->kind != CELL_NUM || (strcmp(cl->text, "true") && strcmp(cl->text, "false")))
			return false;
		any = true;
	}
	return any;
}

const char *table_col_unit(const struct table *t, size_t c)
{
	const char *u;

	if (c >= t->ncols)
		contract_fail("table %s: no column %zu of %zu", t->name, c, t->ncols);
	if (t->cols[c].unit)
		return t->cols[c].unit;
	u = col_unit_rule(t->name, t->cols[c].key);
	if (u)
		return u;
	for (size_t r = 0; r < t->nrows; r++)
		if (cell_at(t, r, c)->kind == CELL_STR)
			return "text";
	return col_is_bool(t, c) ? "bool" : "count";
}

void table_print_row(const struct table *t, size_t r, FILE *f, enum out_format fmt)
{
	if (r >= t->nrows || fmt == OUT_TABLE)
		contract_fail("table %s: cannot print row %zu of %zu alone in format %d", t->name,
			      r, t->nrows, (int)fmt);
	if (fmt == OUT_JSON) {
		json_row(t, f, r);
		return;
	}
	for (size_t c = 0; c < t->ncols; c++) {
		const struct cell *cl = cell_at(t, r, c);

		fputs(c ? "," : "", f);
		table_csv_field(f, cl->kind == CELL_MISSING ? "" : cl->text);
	}
	fputc('\n', f);
}

void table_print(const struct table *t, FILE *f, enum out_format fmt)
{
	switch (fmt) {
	case OUT_TABLE:
		text_print(t, f);
		return;
	case OUT_CSV:
		csv_print(t, f);
		return;
	case OUT_JSON:
		json_array(t, f, 0);
		fputc('\n', f);
		return;
	}
	contract_fail("table %s: unknown output format %d", t->name, (int)fmt);
}

struct report *report_new(void)
{
	struct report *r = xrealloc(NULL, sizeof(*r));

	r->tables = NULL;
	r->n = 0;
	return r;
}

void report_free(struct report *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->n; i++)
		table_free(r->tables[i]);
	free(r->tables);
	free(r);
}

void report_add(struct report *r, struct table *t)
{
	if (!t)
		contract_fail("report_add: table is NULL");
	r->tables = xrealloc(r->tables, (r->n + 1) * sizeof(*r->tables));
	r->tables[r->n++] = t;
}

/* Several tables as one JSON object keyed by table name, in order. */
static void report_json_object(const struct report *r, FILE *f)
{
	size_t i;

	if (r->n == 0) {
		fputs("{}\n", f);
		return;
	}
	fputs("{\n", f);
	for (i = 0; i < r->n; i++) {
		fputs("  ", f);
		json_string(f, r->tables[i]->name);
		fputs(": ", f);
		json_array(r->tables[i], f, 2);
		fputs(i + 1 < r->n ? ",\n" : "\n", f);
	}
	fputs("}\n", f);
}

void report_print(const struct report *r, FILE *f, enum out_format fmt)
{
	size_t i;

	if (fmt == OUT_JSON && r->n != 1) {
		report_json_object(r, f);
		return;
	}
	for (i = 0; i < r->n; i++) {
		if (i)
			fputc('\n', f);
		if (fmt == OUT_CSV && r->n > 1)
			fprintf(f, "# %s\n", r->tables[i]->name);
		table_print(r->tables[i], f, fmt);
	}
}

size_t report_count(const struct report *r)
{
	return r->n;
}

const struct table *report_table(const struct report *r, size_t i)
{
	if (i >= r->n)
		contract_fail("report: no table %zu of %zu", i, r->n);
	return r->tables[i];
}

static bool named(const char *name, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* "unknown table 'X'; this report's tables: a, b, c" into @err. */
static void unknown_table(const struct report *r, const char *name, char *err, size_t errlen)
{
	int n = snprintf(err, errlen, "unknown table '%s'; this report's tables:", name);

	for (size_t i = 0; i < r->n && n >= 0 && (size_t)n < errlen; i++)
		n += snprintf(err + n, errlen - (size_t)n, "%s %s", i ? "," : "", r->tables[i]->name);
}

int report_select(struct report *r, const char *const *names, size_t n, char *err,
		  size_t errlen)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < r->n && strcmp(r->tables[j]->name, names[i]))
			j++;
		if (j == r->n) {
			unknown_table(r, names[i], err, errlen);
			return -1;
		}
	}
	for (size_t j = 0; j < r->n; j++) {
		if (named(r->tables[j]->name, names, n))
			r->tables[kept++] = r->tables[j];
		else
			table_free(r->tables[j]);
	}
	r->n = kept;
	return 0;
}

/* {"units": {"KEY": "UNIT", ...}, "rows": [...]}, the rows indented by
 * @indent + 4 and the closing brace by @indent; no newline after it. */
static void json_table_units(const struct table *t, FILE *f, int indent)
{
	fprintf(f, "{\n%*s\"units\": {", indent + 2, "");
	for (size_t c = 0; c < t->ncols; c++) {
		fputs(c ? ", " : "", f);
		json_string(f, t->cols[c].key);
		fputs(": ", f);
		json_string(f, table_col_unit(t, c));
	}
	fprintf(f, "},\n%*s\"rows\": ", indent + 2, "");
	json_array(t, f, indent + 2);
	fprintf(f, "\n%*s}", indent, "");
}

void report_print_units(const struct report *r, FILE *f, enum out_format fmt)
{
	if (fmt != OUT_JSON) {
		report_print(r, f, fmt);
		return;
	}
	if (r->n == 1) {
		json_table_units(r->tables[0], f, 0);
		fputc('\n', f);
		return;
	}
	fputs(r->n ? "{\n" : "{}\n", f);
	for (size_t i = 0; i < r->n; i++) {
		fputs("  ", f);
		json_string(f, r->tables[i]->name);
		fputs(": ", f);
		json_table_units(r->tables[i], f, 2);
		fputs(i + 1 < r->n ? ",\n" : "\n", f);
	}
	if (r->n)
		fputs("}\n", f);
}

/* ---- files ------------------------------------------------------------ */

/* @dir as a directory to write into: created (one level, 0777 & ~umask)
 * if absent; a symbolic link or another kind of file refused. */
static int out_dir_ready(const char *dir, char *err, size_t errlen)
{
	struct stat st;

	if (lstat(dir, &st) && errno == ENOENT && mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "%s: cannot create the directory: %s", dir, strerror(errno));
		return -1;
	}
	if (lstat(dir, &st)) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is %s, not a directory (--out-dir writes its files into "
			 "a directory it creates or finds, never through a link)", dir,
			 infile_type_name(st.st_mode));
		return -1;
	}
	return 0;
}

/* A table name as a file name: letters, digits, '_' and '-' only. */
static void check_file_name(const char *name)
{
	if (!name[0] || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			       "0123456789_-") != strlen(name))
		contract_fail("table name '%s' is not a file name", name);
}

static void abort_all(struct outfile **of, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (of[i])
			outfile_abort(of[i]);
}

/* Close every file: those written in place first (a FIFO that fails cannot
 * be undone), then the regular ones; after a failure the others are
 * abandoned and keep what they had. */
static int close_all(struct outfile **of, size_t n, char *err, size_t errlen)
{
	for (int atomic = 0; atomic < 2; atomic++) {
		for (size_t i = 0; i < n; i++) {
			struct outfile *o = of[i];

			if (!o || outfile_atomic(o) != atomic)
				continue;
			of[i] = NULL;
			if (outfile_close(o, err, errlen)) {
				abort_all(of, n);
				return -1;
			}
		}
	}
	return 0;
}

/* Open DIR/NAME.EXT for every table of @r into @of (locked: a second
 * writer of the same directory fails here, before anything is written). */
static int open_all(const struct report *r, const char *dir, const char *ext,
		    struct outfile **of, char *err, size_t errlen)
{
	char path[4096];

	for (size_t i = 0; i < r->n; i++) {
		check_file_name(r->tables[i]->name);
		if ((size_t)snprintf(path, sizeof(path), "%s/%s.%s", dir, r->tables[i]->name, ext) >=
		    sizeof(path)) {
			snprintf(err, errlen, "%s: path too long", dir);
		} else if (outfile_open(&of[i], path, err, errlen) == 0) {
			continue;
		}
		abort_all(of, i);
		return -1;
	}
	return 0;
}

int report_write_dir(const struct report *r, const char *dir, enum out_format fmt, char *err,
		     size_t errlen)
{
	struct outfile **of;
	int rc;

	if (fmt == OUT_TABLE)
		contract_fail("report_write_dir: the text format has no file per table");
	if (out_dir_ready(dir, err, errlen))
		return -1;
	of = xrealloc(NULL, (r->n ? r->n : 1) * sizeof(*of));
	memset(of, 0, (r->n ? r->n : 1) * sizeof(*of));
	rc = open_all(r, dir, fmt == OUT_JSON ? "json" : "csv", of, err, errlen);
	for (size_t i = 0; rc == 0 && i < r->n; i++) {
		FILE *f = outfile_fp(of[i]);

		if (fmt == OUT_JSON) {
			json_table_units(r->tables[i], f, 0);
			fputc('\n', f);
		} else {
			csv_print(r->tables[i], f);
		}
	}
	if (rc == 0)
		rc = close_all(of, r->n, err, errlen);
	free(of);
	return rc;
}

int report_write_file(const struct report *r, const char *path,
		      enum out_format fmt, char *err, size_t errlen)
{
	struct outfile *of;

	if (outfile_open(&of, path, err, errlen))
		return -1;
	report_print(r, outfile_fp(of), fmt);
	return outfile_close(of, err, errlen);
}
