/* rowfile.c - results files as rows of text: building, printing, reading.
 *
 * Roadmap: building (init/add), printing (framing that matches
 * report_print()), CSV reading, JSON reading.
 */
#define _POSIX_C_SOURCE 200809L
#include "report/rowfile.h"
#include "io/outfile.h"
#include "report/rowfile_stream.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/infile.h"

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "rxlab: out of memory\n");
		abort();
	}
	return p;
}

static char *xstrndup(const char *s, size_t n)
{
	char *d = xrealloc(NULL, n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static char *xstrdup(const char *s)
{
	return s ? xstrndup(s, strlen(s)) : NULL;
}

/* ---- building ---------------------------------------------------------- */

void rowfile_init(struct rowfile *rf, enum out_format fmt)
{
	memset(rf, 0, sizeof(*rf));
	rf->fmt = fmt;
}

static void free_cells(char **cell, size_t n)
{
	for (size_t c = 0; cell && c < n; c++)
		free(cell[c]);
	free(cell);
}

void rowfile_free(struct rowfile *rf)
{
	for (size_t r = 0; r < rf->nrows; r++) {
		free(rf->row[r].text);
		free_cells(rf->row[r].cell, rf->ncols);
	}
	free_cells(rf->key, rf->ncols);
	free(rf->row);
	rowfile_init(rf, rf->fmt);
}

void rowfile_set_keys(struct rowfile *rf, const char *const *keys, size_t n)
{
	rf->key = xrealloc(NULL, n * sizeof(*rf->key));
	for (size_t c = 0; c < n; c++)
		rf->key[c] = xstrdup(keys[c]);
	rf->ncols = n;
}

/* Append a row taking ownership of @text and @cell. */
static struct rowfile_row *add_owned(struct rowfile *rf, char *text, char **cell)
{
	struct rowfile_row *row;

	if (rf->nrows == rf->cap) {
		rf->cap = rf->cap ? 2 * rf->cap : 64;
		rf->row = xrealloc(rf->row, rf->cap * sizeof(*rf->row));
	}
	row = &rf->row[rf->nrows++];
	row->text = text;
	row->cell = cell;
	row->line = 0;
	return row;
}

void rowfile_add(struct rowfile *rf, const char *text, const char *const *cell)
{
	char **c = xrealloc(NULL, rf->ncols * sizeof(*c));

	for (size_t i = 0; i < rf->ncols; i++)
		c[i] = xstrdup(cell[i]);
	add_owned(rf, xstrdup(text), c);
}

static int csv_split(const char *s, size_t len, char ***cells, size_t *n, char *why,
		     size_t whylen);

void rowfile_add_table_row(struct rowfile *rf, const struct table *t, size_t r)
{
	char *csv = rowstream_table_row(t, r, OUT_CSV), **cell = NULL, why[128];
	size_t n = 0;

	if (csv_split(csv, strlen(csv), &cell, &n, why, sizeof(why)) || n != rf->ncols) {
		fprintf(stderr, "rxlab: internal error: row of %zu cells for %zu columns (%s)\n", n,
			rf->ncols, why);
		abort();
	}
	if (rf->fmt == OUT_CSV) {
		add_owned(rf, csv, cell);
		return;
	}
	free(csv);
	add_owned(rf, rowstream_table_row(t, r, rf->fmt), cell);
}

int rowfile_col(const struct rowfile *rf, const char *key)
{
	for (size_t c = 0; c < rf->ncols; c++)
		if (!strcmp(rf->key[c], key))
			return (int)c;
	return -1;
}

/* ---- printing ---------------------------------------------------------- */


static void csv_line(FILE *f, char *const *cell, size_t n)
{
	for (size_t c = 0; c < n; c++) {
		fputs(c ? "," : "", f);
		table_csv_field(f, cell[c] ? cell[c] : ""); /* as table.c quotes */
	}
	fputc('\n', f);
}

/* Rows of @rf as a JSON array whose rows are indented by @indent + 2. */
static void json_rows(const struct rowfile *rf, FILE *f, int indent)
{
	if (rf->nrows == 0) {
		fputs("[]", f);
		return;
	}
	fputs("[\n", f);
	for (size_t r = 0; r < rf->nrows; r++)
		fprintf(f, "%*s%s%s", indent + 2, "", rf->row[r].text,
			r + 1 < rf->nrows ? ",\n" : "\n");
	fprintf(f, "%*s]", indent, "");
}

static void check_texts(const struct rowfile *rf)
{
	for (size_t r = 0; r < rf->nrows; r++)
		if (!rf->row[r].text) {
			fprintf(stderr, "rxlab: internal error: row %zu has no text\n", r);
			abort();
		}
}

void rowfile_print(const struct rowfile *rf, FILE *f)
{
	check_texts(rf);
	if (rf->fmt == OUT_JSON && rf->shards) {
		fprintf(f, "{\n  \"shard\": [\n    {\"sweep_id\": \"%s\", \"shard\": %u, "
			"\"shards\": %u, \"points\": %llu}\n  ],\n  \"sweep\": ", rf->sweep_id,
			rf->shard, rf->shards, (unsigned long long)rf->points);
		json_rows(rf, f, 2);
		fputs("\n}\n", f);
		return;
	}
	if (rf->fmt == OUT_JSON) {
		json_rows(rf, f, 0);
		fputc('\n', f);
		return;
	}
	if (rf->shards)
		fprintf(f, "# shard\nsweep_id,shard,shards,points\n%s,%u,%u,%llu\n\n# sweep\n",
			rf->sweep_id, rf->shard, rf->shards, (unsigned long long)rf->points);
	if (rf->ncols)
		csv_line(f, rf->key, rf->ncols);
	for (size_t r = 0; r < rf->nrows; r++)
		fprintf(f, "%s\n", rf->row[r].text);
}

void rowfile_print_csv(const struct rowfile *rf, FILE *f)
{
	if (rf->ncols)
		csv_line(f, rf->key, rf->ncols);
	for (size_t r = 0; r < rf->nrows; r++)
		csv_line(f, rf->row[r].cell, rf->ncols);
}

int rowfile_write(const struct rowfile *rf, const char *path, char *err, size_t errlen)
{
	struct outfile *of;

	if (outfile_open(&of, path, err, errlen))
		return -1;
	rowfile_print(rf, outfile_fp(of));
	return outfile_close(of, err, errlen);
}

/* ---- reading: common ----------------------------------------------------- */

struct reader {
	const char *name, *buf;
	size_t len, pos;
	char *err;
	size_t errlen;
	size_t lpos;        /* line_at() cache: line lno starts at or before lpos */
	unsigned lno;
	size_t rows_max;
};

const struct rowfile_limits rowfile_limits_default = { 1u << 20, 1ull << 30, 10000000u };

/* 1-based line of byte @pos; rows are read in order, so counting on from
 * the last answer keeps reading linear in the file size. */
static unsigned line_at(struct reader *rd, size_t pos)
{
	if (pos < rd->lpos || rd->lno == 0) {
		rd->lpos = 0;
		rd->lno = 1;
	}
	for (; rd->lpos < pos && rd->lpos < rd->len; rd->lpos++)
		rd->lno += rd->buf[rd->lpos] == '\n';
	return rd->lno;
}

static int fail_at(struct reader *rd, size_t pos, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(rd->err, rd->errlen, "%s:%u: %s", rd->name, line_at(rd, pos), msg);
	return -1;
}

/* Keys of a row, checked against the file's columns (set by the first row
 * or the CSV header). */
static int take_keys(struct rowfile *rf, struct reader *rd, size_t pos, char **keys,
		     size_t n)
{
	if (!rf->key) {
		rf->key = keys;
		rf->ncols = n;
		return 0;
	}
	for (size_t c = 0; c < n && n == rf->ncols; c++)
		if (strcmp(keys[c], rf->key[c])) {
			fail_at(rd, pos, "key '%s' where the first row has '%s'", keys[c], rf->key[c]);
			free_cells(keys, n);
			return -1;
		}
	free_cells(keys, n);
	return n == rf->ncols ? 0 : fail_at(rd, pos, "%zu keys, the first row has %zu", n,
					    rf->ncols);
}

/* Fill the shard framing of @rf from the one-row table @meta. */
static int take_shard(struct rowfile *rf, struct reader *rd, const struct rowfile *meta)
{
	static const char *const want[] = { "sweep_id", "shard", "shards", "points" };
	char *end = NULL;
	unsigned long long v[4] = { 0 };

	if (meta->ncols != 4 || meta->nrows != 1)
		return fail_at(rd, 0, "table 'shard' must have one row of sweep_id, shard, shards, "
			       "points");
	for (int c = 0; c < 4; c++) {
		const char *s = meta->row[0].cell[c];

		if (strcmp(meta->key[c], want[c]) || !s)
			return fail_at(rd, 0, "table 'shard': column %d must be %s", c + 1, want[c]);
		if (c)
			v[c] = strtoull(s, &end, 10);
		if (c && (*end || !*s))
			return fail_at(rd, 0, "table 'shard': %s = '%s' is not a number", want[c], s);
	}
	snprintf(rf->sweep_id, sizeof(rf->sweep_id), "%s", meta->row[0].cell[0]);
	if (v[2] < 1 || v[1] < 1 || v[1] > v[2] || v[2] > 1000000)
		return fail_at(rd, 0, "table 'shard': shard %llu of %llu is not K/N with 1 <= K <= N",
			       v[1], v[2]);
	rf->shard = (unsigned)v[1];
	rf->shards = (unsigned)v[2];
	rf->points = v[3];
	return 0;
}

/* ---- reading: CSV -------------------------------------------------------- */

/* Split one CSV record (no line break) into cells; an empty field is NULL. */
static int csv_split(const char *s, size_t len, char ***cells, size_t *n, char *why,
		     size_t whylen)
{
	size_t i = 0, cap = 16;
	char **c = xrealloc(NULL, cap * sizeof(*c));

	*n = 0;
	for (;;) {
		char *v = xrealloc(NULL, len + 1);
		size_t k = 0;

		if (i < len && s[i] == '"') {
			for (i++; i < len && (s[i] != '"' || (i + 1 < len && s[i + 1] == '"')); i++)
				v[k++] = s[i] == '"' ? s[i++] : s[i];
			if (i >= len || (i + 1 < len && s[i + 1] != ',')) {
				snprintf(why, whylen, "%s", i >= len ? "unterminated quoted field" :
					 "text after a quoted field");
				free(v);
				free_cells(c, *n);
				return -1;
			}
			i++;
		} else {
			while (i < len && s[i] != ',')
				v[k++] = s[i++];
		}
		v[k] = '\0';
		if (*n == cap)
			c = xrealloc(c, (cap *= 2) * sizeof(*c));
		c[(*n)++] = k ? v : (free(v), NULL);
		if (i >= len)
			break;
		i++; /* the comma */
	}
	*cells = c;
	return 0;
}

/* Next line of @rd: its start and length (no '\n'); false at the end. */
static bool next_line(struct reader *rd, const char **s, size_t *len, size_t *at)
{
	const char *nl;

	if (rd->pos >= rd->len)
		return false;
	*at = rd->pos;
	*s = rd->buf + rd->pos;
	nl = memchr(*s, '\n', rd->len - rd->pos);
	*len = nl ? (size_t)(nl - *s) : rd->len - rd->pos;
	rd->pos += *len + (nl != NULL);
	while (*len && (*s)[*len - 1] == '\r')   /* CRLF files */
		(*len)--;
	return true;
}

/* The first character of @s that is not a blank ('\0' if none). */
static char first_char(const char *s)
{
	return s[strspn(s, " \t\r\n")];
}

/* One CSV table: a header line, then rows up to a blank line or the end. */
static int csv_table(struct rowfile *rf, struct reader *rd)
{
	const char *s;
	size_t len, at, n;
	char **cells, why[64];

	if (!next_line(rd, &s, &len, &at) || len == 0)
		return fail_at(rd, rd->pos, "no CSV header line");
	if (csv_split(s, len, &cells, &n, why, sizeof(why)))
		return fail_at(rd, at, "%s", why);
	rf->key = cells;
	rf->ncols = n;
	for (size_t c = 0; c < n; c++)
		if (!cells[c] || !first_char(cells[c]))
			return fail_at(rd, at, "column %zu of the header has no name", c + 1);
	while (next_line(rd, &s, &len, &at) && len) {
		struct rowfile_row *row;

		if (rf->nrows == rd->rows_max)
			return fail_at(rd, at, "more than %zu rows (the limit of a results file)",
				       rd->rows_max);
		if (csv_split(s, len, &cells, &n, why, sizeof(why)))
			return fail_at(rd, at, "%s", why);
		if (n != rf->ncols) {
			free_cells(cells, n);
			return fail_at(rd, at, "%zu fields, the header has %zu", n, rf->ncols);
		}
		row = add_owned(rf, xstrndup(s, len), cells);
		row->line = line_at(rd, at);
	}
	return 0;
}

/* "# NAME" line expected next. */
static int csv_section(struct reader *rd, const char *name)
{
	const char *s;
	size_t len, at;

	if (!next_line(rd, &s, &len, &at) || len != strlen(name) + 2 || strncmp(s, "# ", 2) ||
	    strncmp(s + 2, name, len - 2))
		return fail_at(rd, rd->pos, "expected the line '# %s'", name);
	return 0;
}

static int csv_read(struct rowfile *rf, struct reader *rd)
{
	struct rowfile meta;
	int rc;

	if (rd->buf[0] != '#') {
		if (csv_table(rf, rd))
			return -1;
		/* it would be read back as JSON or as a section line */
		if (first_char(rf->key[0]) && strchr("[{#", first_char(rf->key[0])))
			return fail_at(rd, 0, "the first column's name starts with '%c'",
				       first_char(rf->key[0]));
		while (rd->pos < rd->len && strchr(" \t\r\n", rd->buf[rd->pos]))
			rd->pos++;
		return rd->pos < rd->len ? fail_at(rd, rd->pos, "text after a blank line "
						   "(a results file is one table)") : 0;
	}
	if ((rd->len < 8 || strncmp(rd->buf, "# shard\n", 8)) &&
	    (rd->len < 9 || strncmp(rd->buf, "# shard\r\n", 9))) /* LF or CRLF */
		return fail_at(rd, 0, "a report of several tables; expected a sweep's results "
			       "(one table) or a shard of one");
	rowfile_init(&meta, OUT_CSV);
	rc = csv_section(rd, "shard") || csv_table(&meta, rd) || take_shard(rf, rd, &meta) ||
	     csv_section(rd, "sweep") || csv_table(rf, rd);
	rowfile_free(&meta);
	if (rc == 0 && rd->pos < rd->len)
		return fail_at(rd, rd->pos, "text after the table 'sweep'");
	return rc ? -1 : 0;
}

/* ---- reading: JSON ------------------------------------------------------- */

static void ws(struct reader *rd)
{
	while (rd->pos < rd->len && strchr(" \t\r\n", rd->buf[rd->pos]))
		rd->pos++;
}

static bool eat(struct reader *rd, char c)
{
	ws(rd);
	if (rd->pos < rd->len && rd->buf[rd->pos] == c) {
		rd->pos++;
		return true;
	}
	return false;
}

static void put_utf8(char *v, size_t *k, unsigned u)
{
	if (u < 0x80) {
		v[(*k)++] = (char)u;
	} else if (u < 0x800) {
		v[(*k)++] = (char)(0xc0 | u >> 6);
		v[(*k)++] = (char)(0x80 | (u & 0x3f));
	} else {
		v[(*k)++] = (char)(0xe0 | u >> 12);
		v[(*k)++] = (char)(0x80 | ((u >> 6) & 0x3f));
		v[(*k)++] = (char)(0x80 | (u & 0x3f));
	}
}

/* Four hex digits at @s (which need not be NUL-terminated) into *u. */
static bool hex4(const char *s, unsigned *u)
{
	*u = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
			   : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			   : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;

		if (d > 15)
			return false;
		*u = *u << 4 | d;
	}
	return true;
}

/* A JSON string at rd->pos (after blanks) into a new C string. */
static int json_str(struct reader *rd, char **out)
{
	static const char esc_in[] = "\"\\/bfnrt", esc_out[] = "\"\\/\b\f\n\r\t";
	char *v;
	size_t k = 0;

	if (!eat(rd, '"'))
		return fail_at(rd, rd->pos, "expected a string");
	v = xrealloc(NULL, rd->len - rd->pos + 1);
	while (rd->pos < rd->len && rd->buf[rd->pos] != '"') {
		char ch = rd->buf[rd->pos++];
		const char *e;
		unsigned u;

		if (ch != '\\') {
			v[k++] = ch;
			continue;
		}
		if (rd->pos < rd->len && (e = strchr(esc_in, rd->buf[rd->pos])) && *e) {
			v[k++] = esc_out[e - esc_in];
			rd->pos++;
		} else if (rd->pos + 5 <= rd->len && rd->buf[rd->pos] == 'u' &&
			   hex4(rd->buf + rd->pos + 1, &u)) {
			put_utf8(v, &k, u);
			rd->pos += 5;
		} else {
			free(v);
			return fail_at(rd, rd->pos, "bad escape in a string");
		}
	}
	if (rd->pos >= rd->len) {
		free(v);
		return fail_at(rd, rd->pos, "unterminated string");
	}
	rd->pos++;
	v[k] = '\0';
	*out = v;
	return 0;
}

/* A scalar value: string, number, true, false (as text) or null (NULL). */
static int json_scalar(struct reader *rd, char **out)
{
	size_t start;

	ws(rd);
	if (rd->pos < rd->len && rd->buf[rd->pos] == '"')
		return json_str(rd, out);
	start = rd->pos;
	while (rd->pos < rd->len && strchr("+-.0123456789eEtruefalsn", rd->buf[rd->pos]))
		rd->pos++;
	*out = xstrndup(rd->buf + start, rd->pos - start);
	if (!strcmp(*out, "null")) {
		free(*out);
		*out = NULL;
		return 0;
	}
	if (strcmp(*out, "true") && strcmp(*out, "false")) {
		char *end;

		strtod(*out, &end);
		if (!**out || *end) {
			free(*out);
			return fail_at(rd, start, "expected a string, number, true, false or null");
		}
	}
	return 0;
}

/* A flat object {"key": scalar, ...}; appended to @rf, raw text kept. */
static int json_row(struct rowfile *rf, struct reader *rd)
{
	size_t start, n = 0, cap = 16;
	char **keys = xrealloc(NULL, cap * sizeof(*keys));
	char **vals = xrealloc(NULL, cap * sizeof(*vals));
	struct rowfile_row *row;

	ws(rd);
	start = rd->pos;
	if (!eat(rd, '{'))
		goto bad;
	do {
		if (n == cap) {
			keys = xrealloc(keys, (cap *= 2) * sizeof(*keys));
			vals = xrealloc(vals, cap * sizeof(*vals));
		}
		if (json_str(rd, &keys[n]))
			goto fail;
		if (!eat(rd, ':')) {
			fail_at(rd, rd->pos, "expected ':' after the key \"%s\"", keys[n]);
			free(keys[n]);
			goto fail;
		}
		if (json_scalar(rd, &vals[n])) {
			free(keys[n]);
			goto fail;
		}
		n++;
	} while (eat(rd, ','));
	if (!eat(rd, '}'))
		goto bad;
	if (take_keys(rf, rd, start, keys, n)) {
		free_cells(vals, n);
		return -1;
	}
	row = add_owned(rf, xstrndup(rd->buf + start, rd->pos - start), vals);
	row->line = line_at(rd, start);
	return 0;
bad:
	fail_at(rd, rd->pos, "expected a row object {\"key\": value, ...}");
fail:
	free_cells(keys, n);
	free_cells(vals, n);
	return -1;
}

static int json_array(struct rowfile *rf, struct reader *rd)
{
	if (!eat(rd, '['))
		return fail_at(rd, rd->pos, "expected '[' (an array of rows)");
	if (eat(rd, ']'))
		return 0;
	do {
		ws(rd); /* so that the message names the row's line */
		if (rf->nrows == rd->rows_max)
			return fail_at(rd, rd->pos, "more than %zu rows (the limit of a results file)",
				       rd->rows_max);
		if (json_row(rf, rd))
			return -1;
	} while (eat(rd, ','));
	return eat(rd, ']') ? 0 : fail_at(rd, rd->pos, "expected ',' or ']' after a row");
}

/* {"shard": [...], "sweep": [...]} */
static int json_shard(struct rowfile *rf, struct reader *rd)
{
	struct rowfile meta;
	char *name = NULL;
	int rc = -1;

	rowfile_init(&meta, OUT_JSON);
	if (!eat(rd, '{') || json_str(rd, &name) || strcmp(name, "shard") || !eat(rd, ':')) {
		fail_at(rd, rd->pos, "expected {\"shard\": [...], \"sweep\": [...]}");
		goto out;
	}
	free(name);
	name = NULL;
	if (json_array(&meta, rd) || take_shard(rf, rd, &meta))
		goto out;
	if (!eat(rd, ',') || json_str(rd, &name) || strcmp(name, "sweep") || !eat(rd, ':')) {
		fail_at(rd, rd->pos, "expected \"sweep\": [...] after the shard table");
		goto out;
	}
	if (json_array(rf, rd))
		goto out;
	rc = eat(rd, '}') ? 0 : fail_at(rd, rd->pos, "expected '}'");
out:
	free(name);
	rowfile_free(&meta);
	return rc;
}

static int json_read(struct rowfile *rf, struct reader *rd)
{
	ws(rd);
	if (rd->buf[rd->pos] == '{' ? json_shard(rf, rd) : json_array(rf, rd))
		return -1;
	ws(rd);
	return rd->pos < rd->len ? fail_at(rd, rd->pos, "text after the JSON value") : 0;
}

/* ---- reading: entry points ------------------------------------------------ */

/* The limits and line ends of @len bytes at @buf (BOM skipped): 0, or -1. */
static int check_text(struct reader *rd, const struct rowfile_limits *lim, bool csv)
{
	size_t start = 0;
	char b[32];

	if (lim->total_max && rd->len > lim->total_max)
		return fail_at(rd, 0, "file is too large (more than %s; the limit of a results file)",
			       infile_size_text(lim->total_max, b, sizeof(b)));
	for (size_t i = 0; i <= rd->len && lim->line_max; i++) {
		if (i < rd->len && rd->buf[i] != '\n')
			continue;
		if (i - start > lim->line_max + (i > start && rd->buf[i - 1] == '\r'))
			return fail_at(rd, start, "line longer than %s (the limit of a results file)",
				       infile_size_text(lim->line_max, b, sizeof(b)));
		start = i + 1;
	}
	/* an old Mac file is one long line of CSV: say why */
	if (csv && !memchr(rd->buf, '\n', rd->len) && infile_lone_cr(rd->buf, rd->len))
		return fail_at(rd, 0, "%s", INFILE_CR_ONLY);
	return 0;
}

int rowfile_parse_limited(struct rowfile *rf, const char *name, const char *buf, size_t len,
			  const struct rowfile_limits *lim, char *err, size_t errlen)
{
	struct reader rd;
	size_t i;
	int rc;

	i = infile_bom(buf, len); /* a UTF-8 BOM, as spreadsheets write */
	buf += i;
	len -= i;
	rd = (struct reader){ name, buf, len, 0, err, errlen, 0, 0, lim->rows_max };
	for (i = 0; i < len && strchr(" \t\r\n", buf[i]); i++)
		;
	rowfile_init(rf, i < len && (buf[i] == '[' || buf[i] == '{') ? OUT_JSON : OUT_CSV);
	if (i == len) {
		snprintf(err, errlen, "%s: empty file; expected a sweep's results (CSV or JSON)", name);
		return -1;
	}
	if (memchr(buf, '\0', len)) {
		snprintf(err, errlen, "%s: binary data (a NUL byte); expected CSV or JSON text", name);
		return -1;
	}
	if (check_text(&rd, lim, rf->fmt == OUT_CSV))
		return -1;
	rc = rf->fmt == OUT_JSON ? json_read(rf, &rd) : csv_read(rf, &rd);
	if (rc)
		rowfile_free(rf);
	return rc;
}

int rowfile_parse(struct rowfile *rf, const char *name, const char *buf, size_t len,
		  char *err, size_t errlen)
{
	return rowfile_parse_limited(rf, name, buf, len, &rowfile_limits_default, err, errlen);
}

int rowfile_read(struct rowfile *rf, const char *path, char *err, size_t errlen)
{
	const struct rowfile_limits *lim = &rowfile_limits_default;
	const struct infile_limits in = { lim->line_max, lim->total_max };
	char *buf;
	size_t len;
	int rc;
	/* a pipe (`<(ssh host cat res.csv)`) and /dev/stdin are fine; a
	 * stream stops at its first NUL byte or the first byte past a limit,
	 * so /dev/zero fails at once */
	FILE *f = infile_is_stdin(path)
			  ? infile_stdin_open("a results file", &rc, err, errlen)
			  : infile_open(path, INFILE_STREAM, "a results file is a regular file or a "
					"stream (a pipe, a FIFO, /dev/stdin)", &rc, err, errlen);

	rowfile_init(rf, OUT_CSV);
	if (!f) {
		if (rc != -ENOTSUP && rc != -EISDIR && rc != -EBUSY)
			snprintf(err, errlen, "cannot open %s: %s", path, strerror(-rc));
		return -1;
	}
	path = infile_name(path);
	rc = infile_slurp(f, path, &in, "a results file", "binary data (a NUL byte); expected CSV "
			  "or JSON text", &buf, &len, err, errlen);
	fclose(f);
	if (rc)
		return -1;
	rc = rowfile_parse(rf, path, buf, len, err, errlen);
	free(buf);
	return rc;
}
