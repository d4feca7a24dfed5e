/* ini.c - a generic INI reader (see ini.h for the format).
 *
 * Roadmap: ini_parse() cuts the text into lines and hands each to
 * parse_line(), which classifies it (blank/comment, [section], key = value)
 * and calls add_header() or add_entry(); those enforce the rules that need
 * the document (no key before a section, no duplicates).  The rest are
 * small helpers the schema loaders share: lookup, overrides, message
 * prefixes, near-miss suggestions and reading a file.
 */
#include "model/ini.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/infile.h"

static const char malformed[] = "expected 'key = value' or '[section]'";

static char *dup_n(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

static char *dup_s(const char *s)
{
	return dup_n(s, strlen(s));
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* A '#' or ';' at @i starts a comment if it is first or follows a blank. */
static bool comment_at(const char *line, size_t i)
{
	return (line[i] == '#' || line[i] == ';') && (i == 0 || is_blank(line[i - 1]));
}

/* Trim blanks at both ends in place; returns the new start. */
static char *trim(char *s)
{
	size_t n;

	while (is_blank(*s))
		s++;
	n = strlen(s);
	while (n > 0 && is_blank(s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* Whether @s (from some index on) is only blanks, optionally followed by a
 * comment. */
static bool rest_is_empty(const char *line, size_t i)
{
	for (; line[i]; i++) {
		if (comment_at(line, i))
			return true;
		if (!is_blank(line[i]))
			return false;
	}
	return true;
}

void ini_free(struct ini_doc *d)
{
	for (size_t i = 0; i < d->n_sec; i++) {
		struct ini_section *s = d->sec[i];

		for (size_t j = 0; j < s->n_ent; j++) {
			free(s->ent[j]->key);
			free(s->ent[j]->value);
			free(s->ent[j]);
		}
		free(s->ent);
		free(s->kind);
		free(s->name);
		free(s);
	}
	free(d->sec);
	d->sec = NULL;
	d->n_sec = d->cap_sec = 0;
}

struct ini_section *ini_find_section(const struct ini_doc *d, const char *kind,
                                     const char *name)
{
	for (size_t i = 0; i < d->n_sec; i++)
		if (strcmp(d->sec[i]->kind, kind) == 0 && strcmp(d->sec[i]->name, name) == 0)
			return d->sec[i];
	return NULL;
}

struct ini_entry *ini_find(const struct ini_section *s, const char *key)
{
	for (size_t i = 0; s && i < s->n_ent; i++)
		if (strcmp(s->ent[i]->key, key) == 0)
			return s->ent[i];
	return NULL;
}

/* @arr with room for n + 1 pointers (reallocated, *cap updated), or NULL. */
static void *grow(void *arr, size_t n, size_t *cap)
{
	size_t want = *cap ? *cap * 2 : 8;

	if (n < *cap)
		return arr;
	arr = realloc(arr, want * sizeof(void *));
	if (arr)
		*cap = want;
	return arr;
}

struct ini_section *ini_section_add(struct ini_doc *d, const char *kind, const char *name,
                                    int line, const char *src)
{
	struct ini_section *s, **arr = grow(d->sec, d->n_sec, &d->cap_sec);

	if (!arr)
		return NULL;
	d->sec = arr;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->kind = dup_s(kind);
	s->name = dup_s(name);
	s->line = line;
	s->src = src;
	if (!s->kind || !s->name) {
		free(s->kind);
		free(s->name);
		free(s);
		return NULL;
	}
	d->sec[d->n_sec++] = s;
	return s;
}

struct ini_entry *ini_set(struct ini_section *s, const char *key, const char *value,
                          int line, const char *src)
{
	struct ini_entry *e = ini_find(s, key);
	char *v = dup_s(value);

	if (!v)
		return NULL;
	if (e) {
		free(e->value);
	} else {
		struct ini_entry **arr = grow(s->ent, s->n_ent, &s->cap_ent);

		if (!arr)
			goto err;
		s->ent = arr;
		e = calloc(1, sizeof(*e));
		if (!e)
			goto err;
		e->key = dup_s(key);
		if (!e->key) {
			free(e);
			goto err;
		}
		s->ent[s->n_ent++] = e;
	}
	e->value = v;
	e->line = line;
	e->src = src;
	return e;
err:
	free(v);
	return NULL;
}

char *ini_where(const struct ini_doc *d, int line, const char *src, char *buf, size_t len)
{
	if (src)
		snprintf(buf, len, "--set %s", src);
	else if (line > 0)
		snprintf(buf, len, "%s:%d", d->origin, line);
	else
		snprintf(buf, len, "%s", d->origin);
	return buf;
}

char *ini_section_label(const struct ini_section *s, char *buf, size_t len)
{
	snprintf(buf, len, "[%s%s%s]", s->kind, s->name[0] ? " " : "", s->name);
	return buf;
}

/* One parse: the document, the current section, where errors go. */
struct reader {
	struct ini_doc *d;
	struct ini_section *cur;
	int line;
	char *err;
	size_t errlen;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int fail(struct reader *r, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(r->err, r->errlen, "%s:%d: %s", r->d->origin, r->line, msg);
	return -EINVAL;
}

static int oom(struct reader *r)
{
	snprintf(r->err, r->errlen, "%s:%d: out of memory", r->d->origin, r->line);
	return -ENOMEM;
}

/* "[kind]" or "[kind name]"; @line starts at '['. */
static int add_header(struct reader *r, char *line)
{
	char *close = strchr(line, ']'), *in, *sp, *name = "";
	struct ini_section *prev;

	if (!close)
		return fail(r, "unterminated section header; expected '[section]' or "
		               "'[section NAME]'");
	if (!rest_is_empty(close + 1, 0))
		return fail(r, "unexpected text after ']'");
	*close = '\0';
	in = trim(line + 1);
	if (!*in)
		return fail(r, "empty section header; expected '[section]' or "
		               "'[section NAME]'");
	sp = in + strcspn(in, " \t");
	if (*sp) {
		*sp = '\0';
		name = trim(sp + 1);
		if (name[strcspn(name, " \t")])
			return fail(r, "too many words in section header; expected '[section]' or "
			               "'[section NAME]'");
	}
	prev = ini_find_section(r->d, in, name);
	if (prev)
		return fail(r, "duplicate section [%s%s%s] (first on line %d)", in,
		            name[0] ? " " : "", name, prev->line);
	r->cur = ini_section_add(r->d, in, name, r->line, NULL);
	return r->cur ? 0 : oom(r);
}

/* The value part after '=': quoted or up to a comment. */
static int cut_value(struct reader *r, char *v, char **out)
{
	v = trim(v);
	if (*v == '"') {
		char *end = strchr(v + 1, '"');

		if (!end)
			return fail(r, "unterminated quoted value");
		if (!rest_is_empty(end + 1, 0))
			return fail(r, "unexpected text after the closing quote");
		*end = '\0';
		*out = v + 1;
		return 0;
	}
	for (size_t i = 0; v[i]; i++) {
		if (comment_at(v, i)) {
			v[i] = '\0';
			break;
		}
	}
	*out = trim(v);
	return 0;
}

static int add_entry(struct reader *r, char *line, size_t eq)
{
	char *key, *value = NULL;
	struct ini_entry *prev;
	int rc;

	line[eq] = '\0';
	key = trim(line);
	if (!*key)
		return fail(r, "missing key before '='; %s", malformed);
	if (key[strcspn(key, " \t[]")])
		return fail(r, "'%s' is not a key; %s", key, malformed);
	rc = cut_value(r, line + eq + 1, &value);
	if (rc)
		return rc;
	if (!*value)
		return fail(r, "missing value for '%s'; write '%s = VALUE'", key, key);
	if (!r->cur)
		return fail(r, "'%s = %s' comes before the first [section]", key, value);
	prev = ini_find(r->cur, key);
	if (prev)
		return fail(r, "duplicate key '%s' (first set on line %d)", key, prev->line);
	return ini_set(r->cur, key, value, r->line, NULL) ? 0 : oom(r);
}

static int parse_line(struct reader *r, char *line)
{
	size_t i;

	while (is_blank(*line))
		line++;
	if (rest_is_empty(line, 0))
		return 0;
	if (*line == '[')
		return add_header(r, line);
	/* the first '=' before any comment separates key and value */
	for (i = 0; line[i]; i++) {
		if (comment_at(line, i))
			break;
		if (line[i] == '=')
			return add_entry(r, line, i);
	}
	/* quote what was read (without its comment), so the user sees which line */
	while (i > 0 && is_blank(line[i - 1]))
		i--;
	return fail(r, "%s, found '%.*s%s'", malformed, i > 60 ? 60 : (int)i, line,
	            i > 60 ? "..." : "");
}

int ini_parse(struct ini_doc *d, const char *text, const char *origin, char *err,
              size_t errlen)
{
	struct reader r = { d, NULL, 0, err, errlen };
	const char *p = text;
	int rc = 0;

	memset(d, 0, sizeof(*d));
	d->origin = origin;
	p += infile_bom(p, strlen(p)); /* a UTF-8 BOM, as Windows editors write */
	while (*p && rc == 0) {
		size_t n = strcspn(p, "\n"), len = n;
		char *line = dup_n(p, n);

		r.line++;
		if (!line)
			return oom(&r);
		if (len > 0 && line[len - 1] == '\r')
			line[--len] = '\0';
		if (memchr(line, '\r', len))
			rc = fail(&r, "%s", INFILE_CR_ONLY);
		else
			rc = parse_line(&r, line);
		free(line);
		p += n;
		if (*p == '\n')
			p++;
	}
	return rc;
}

int ini_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned row[64];

	if (la >= 63 || lb >= 63)
		return 255;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0];

		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned best = diag + (tolower((unsigned char)a[i - 1]) !=
			                        tolower((unsigned char)b[j - 1]));

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb] > 255 ? 255 : (int)row[lb];
}

const char *ini_suggest(const char *word, const char *const *cands)
{
	const char *best = NULL;
	int best_d = 3;

	for (; *cands; cands++) {
		int dist = ini_edit_distance(word, *cands);

		if (dist < best_d && (size_t)dist < strlen(word)) {
			best = *cands;
			best_d = dist;
		}
	}
	return best;
}

/* Scenario and profile files are a few kilobytes and their lines short; a
 * megabyte, or a line of 4 KiB, is a mistake. */
#define INI_MAX_FILE (1 << 20)
#define INI_MAX_LINE 4096

static int read_fail(int rc, char *err, size_t errlen, const char *path, const char *what)
{
	snprintf(err, errlen, "%s: %s", path, what);
	return rc;
}

/* The checks of a file read whole (@buf of @n bytes, named @name). */
static int read_checked(char *buf, size_t n, const char *name, char **text, char *err,
			size_t errlen)
{
	int rc = 0;

	if (n == 0)
		rc = read_fail(-ENODATA, err, errlen, name, "file is empty");
	else if (memchr(buf, '\0', n))
		rc = read_fail(-EILSEQ, err, errlen, name, "contains a NUL byte (not a text file?)");
	if (rc) {
		free(buf);
		return rc;
	}
	*text = buf;
	return 0;
}

static int read_stdin(char **text, char *err, size_t errlen)
{
	static const struct infile_limits lim = { INI_MAX_LINE, INI_MAX_FILE };
	char *buf;
	size_t n;
	int rc;
	FILE *f = infile_stdin_open("a scenario", &rc, err, errlen);

	if (!f)
		return rc;
	rc = infile_slurp(f, INFILE_STDIN_NAME, &lim, "a scenario or profile", NULL, &buf, &n,
			  err, errlen);
	fclose(f);
	return rc ? rc : read_checked(buf, n, INFILE_STDIN_NAME, text, err, errlen);
}

int ini_read_file(const char *path, char **text, char *err, size_t errlen)
{
	static const struct infile_limits lim = { INI_MAX_LINE, INI_MAX_FILE };
	struct stat st;
	FILE *f;
	char *buf;
	size_t n;
	int rc;

	*text = NULL;
	if (infile_is_stdin(path)) /* "-": standard input, bounded as a file is */
		return read_stdin(text, err, errlen);
	if (stat(path, &st) != 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return rc;
	}
	if (S_ISREG(st.st_mode) && st.st_size > INI_MAX_FILE) { /* say so without reading it */
		snprintf(err, errlen, "%s: file is too large (%lld bytes; at most 1 MiB)", path,
		         (long long)st.st_size);
		return -EFBIG;
	}
	/* a FIFO or a device is refused before it is read: a FIFO without a
	 * writer would block, /dev/zero never ends */
	f = infile_open(path, INFILE_REGULAR, "scenarios and profiles must be regular files", &rc,
	                err, errlen);
	if (!f) {
		if (rc != -ENOTSUP && rc != -EISDIR)
			snprintf(err, errlen, "%s: cannot read: %s", path, strerror(-rc));
		return rc;
	}
	rc = infile_slurp(f, path, &lim, "a scenario or profile", NULL, &buf, &n, err, errlen);
	fclose(f);
	return rc ? rc : read_checked(buf, n, path, text, err, errlen);
}
