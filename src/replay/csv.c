/* csv.c - the reader every replay shares (see replay/csv.h).
 *
 * A line is read through io/infile.h's linein (its length and byte limits,
 * "\r\n" line ends); blank lines and '#' comments are skipped before the
 * header and between rows, and fields are trimmed of blanks.
 */
#include "replay/csv.h"

#include <stdarg.h>
#include <string.h>

__attribute__((format(printf, 2, 3)))
static int csv_fail(struct csv *c, const char *fmt, ...)
{
	int n = snprintf(c->err, c->errlen, "%s:%lu: ", c->name, c->line);
	va_list ap;

	if (n >= 0 && (size_t)n < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* The header as the user must write it: "time_ns,packets,bytes,events". */
static const char *csv_header(const struct csv *c, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->ncols && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," : "", c->cols[i]);
	return buf;
}

static char *trim(char *s)
{
	char *e;

	s += strspn(s, " \t");
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return s;
}

/* Next line that is neither blank nor a '#' comment, without its line end.
 * 1, 0 at the end, -1 on error. */
static int csv_getline(struct csv *c)
{
	int rc;

	while ((rc = linein_next(&c->in, NULL, c->err, c->errlen)) == 1) {
		c->line = c->in.line;
		c->buf = c->in.buf;
		if (*trim(c->buf) && *trim(c->buf) != '#')
			return 1;
	}
	return rc;
}

/* Split buf at commas into field[]; exactly ncols fields. */
static int csv_split(struct csv *c)
{
	char hdr[128], *p = c->buf;
	size_t n = 0;

	for (;;) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		if (n < CSV_MAX_COLS)
			c->field[n] = trim(p);
		n++;
		if (!comma)
			break;
		p = comma + 1;
	}
	if (n != c->ncols)
		return csv_fail(c, "%zu column%s, expected %zu (%s)", n, n == 1 ? "" : "s", c->ncols,
				csv_header(c, hdr, sizeof(hdr)));
	return 0;
}

/* Remove blanks in place ("time_ns, work" reads as "time_ns,work"). */
static void drop_blanks(char *s)
{
	char *w = s;

	for (; *s; s++)
		if (*s != ' ' && *s != '\t')
			*w++ = *s;
	*w = '\0';
}

/* Start reading @f: the first line must be the header @cols exactly. */
int csv_open(struct csv *c, FILE *f, const char *name, const char *const *cols,
	     char *err, size_t errlen)
{
	char hdr[128];
	int rc;

	static const struct infile_limits lim = { REPLAY_LINE_MAX, REPLAY_MAX_BYTES };

	memset(c, 0, sizeof(*c));
	linein_init(&c->in, f, name, &lim, "a row is a few decimal integers (docs/replay.md)");
	c->name = name;
	c->cols = cols;
	c->err = err;
	c->errlen = errlen;
	c->prev_t = INT64_MIN;
	while (cols[c->ncols])
		c->ncols++;
	rc = csv_getline(c);
	if (rc == 0) {
		c->line = 1;
		return csv_fail(c, "no header; the first line must be '%s'",
				csv_header(c, hdr, sizeof(hdr)));
	}
	if (rc < 0)
		return -1;
	drop_blanks(c->buf);
	if (strcmp(c->buf, csv_header(c, hdr, sizeof(hdr))))
		return csv_fail(c, "header '%.80s' is not '%s'", c->buf, hdr);
	return 0;
}

void csv_close(struct csv *c)
{
	linein_free(&c->in);
	c->buf = NULL;
}

/* Next data row into field[]: 1, 0 at the end, -1 on error. */
int csv_next(struct csv *c)
{
	int rc = csv_getline(c);

	if (rc <= 0)
		return rc;
	if (++c->rows > REPLAY_MAX_ROWS)
		return csv_fail(c, "more than %llu rows; a replay keeps its decisions in memory: "
				"split the input", REPLAY_MAX_ROWS);
	return csv_split(c) ? -1 : 1;
}

/* Column @col as a decimal integer in 0..@max, exactly: digits only (no
 * sign, no exponent, no fraction), never wrapped or rounded. */
int csv_u64(struct csv *c, size_t col, uint64_t max, uint64_t *out)
{
	const char *s = c->field[col], *what = NULL;
	uint64_t v = 0;

	for (const char *p = s; *p && !what; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (d > 9)
			what = "is not a whole number";
		else if (v > (UINT64_MAX - d) / 10)
			what = "is out of range";
		else
			v = v * 10 + d;
	}
	if (!*s)
		what = "is empty";
	else if (!what && v > max)
		what = "is out of range";
	if (what)
		return csv_fail(c, "column '%s': '%.40s' %s; accepted a decimal integer 0..%llu",
				c->cols[col], s, what, (unsigned long long)max);
	*out = v;
	return 0;
}

/* Column @col as a time in ns, not earlier than the previous row's. */
int csv_time(struct csv *c, size_t col, int64_t *t)
{
	uint64_t v;

	if (csv_u64(c, col, INT64_MAX, &v))
		return -1;
	if ((int64_t)v < c->prev_t) {
		/* -1 here, not csv_fail()'s value: gcc -O2 cannot see through
		 * the variadic call that *t is set whenever 0 is returned */
		csv_fail(c, "column '%s': %llu is earlier than %lld on line %lu; "
			 "accepted rows in time order (time never goes back)",
			 c->cols[col], (unsigned long long)v, (long long)c->prev_t,
			 c->prev_line);
		return -1;
	}
	c->prev_t = *t = (int64_t)v;
	c->prev_line = c->line;
	return 0;
}
