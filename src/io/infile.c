/* infile.c - opening and reading the files a user names (see infile.h).
 *
 * Roadmap: infile_open() (the type check on the open descriptor),
 * infile_slurp() (a whole file, checked chunk by chunk as it arrives),
 * linein_next() (one bounded line at a time, for the streaming readers).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* fdopen() */
#endif
#include "io/infile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *infile_type_name(unsigned mode)
{
	switch (mode & S_IFMT) {
	case S_IFIFO:
		return "a FIFO";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFSOCK:
		return "a socket";
	case S_IFDIR:
		return "a directory";
	case S_IFLNK:
		return "a symbolic link";
	default:
		return "a regular file";
	}
}

static bool type_ok(mode_t m, enum infile_kind kind)
{
	return S_ISREG(m) || (kind == INFILE_STREAM && (S_ISFIFO(m) || S_ISCHR(m)));
}

/* @fd, opened O_NONBLOCK, as a blocking stream; a FIFO of a stream reader
 * is opened again without O_NONBLOCK, so that it waits for its writer (a
 * non-blocking FIFO without a writer reads as an empty file). */
static FILE *blocking_stream(int fd, const char *path, mode_t m)
{
	FILE *f;
	int fl;

	if (S_ISFIFO(m)) {
		int again = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

		close(fd);
		if (again < 0)
			return NULL;
		fd = again;
	} else if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "rb");
	if (!f)
		close(fd);
	return f;
}

FILE *infile_open(const char *path, enum infile_kind kind, const char *accepted, int *rc,
		  char *err, size_t errlen)
{
	struct stat st;
	int dummy, fd;
	FILE *f;

	rc = rc ? rc : &dummy;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 && errno == ENXIO && stat(path, &st) == 0 && S_ISSOCK(st.st_mode)) {
		*rc = -ENOTSUP; /* open() of a socket fails "No such device or address" */
		snprintf(err, errlen, "%s: is a socket, not a regular file; %s", path, accepted);
		return NULL;
	}
	if (fd < 0 || fstat(fd, &st)) {
		*rc = -errno;
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!type_ok(st.st_mode, kind)) {
		close(fd);
		*rc = S_ISDIR(st.st_mode) ? -EISDIR : -ENOTSUP;
		if (S_ISDIR(st.st_mode))
			snprintf(err, errlen, "%s: is a directory, not a file", path);
		else
			snprintf(err, errlen, "%s: is %s, not a regular file; %s", path,
				 infile_type_name(st.st_mode), accepted);
		return NULL;
	}
	f = blocking_stream(fd, path, st.st_mode);
	if (!f) {
		*rc = -errno;
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
	}
	return f;
}

bool infile_is_stdin(const char *path)
{
	return path && !strcmp(path, "-");
}

const char *infile_name(const char *path)
{
	return infile_is_stdin(path) ? INFILE_STDIN_NAME : path;
}

/* The reader that claimed standard input, or NULL. */
static const char *stdin_reader;

/* The process that may read standard input, or 0: any. */
static pid_t stdin_owner;

void infile_stdin_parent_only(void)
{
	stdin_owner = getpid();
}

int infile_stdin_claim(const char *what, char *err, size_t errlen)
{
	if (stdin_owner && getpid() != stdin_owner) {
		snprintf(err, errlen, "%s: a worker process cannot read standard input; %s is read "
			 "once, by the command before its workers start (give a file)",
			 INFILE_STDIN_NAME, what);
		return -EBUSY;
	}
	if (!stdin_reader) {
		stdin_reader = what;
		return 0;
	}
	snprintf(err, errlen, "%s: standard input is already read as %s; %s cannot read it too "
		 "(a command reads standard input once: give one of them a file)",
		 INFILE_STDIN_NAME, stdin_reader, what);
	return -EBUSY;
}

FILE *infile_stdin_open(const char *what, int *rc, char *err, size_t errlen)
{
	struct stat st;
	int dummy, fd;
	FILE *f;

	rc = rc ? rc : &dummy;
	if ((*rc = infile_stdin_claim(what, err, errlen)))
		return NULL;
	if (fstat(0, &st) == 0 && S_ISDIR(st.st_mode)) {
		*rc = -EISDIR;
		snprintf(err, errlen, "%s: is a directory, not a file", INFILE_STDIN_NAME);
		return NULL;
	}
	fd = fcntl(0, F_DUPFD_CLOEXEC, 3);
	f = fd < 0 ? NULL : fdopen(fd, "rb");
	if (!f) {
		*rc = -errno;
		snprintf(err, errlen, "%s: cannot read: %s", INFILE_STDIN_NAME, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

/* Copy @in to @out, at most @max bytes: 0, 1 past @max, or -1 (errno). */
static int copy_bounded(FILE *in, FILE *out, uint64_t max)
{
	char buf[65536];
	uint64_t total = 0;
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
		total += n;
		if (total > max)
			return 1;
		if (fwrite(buf, 1, n, out) != n)
			return -1;
	}
	return ferror(in) ? -1 : 0;
}

FILE *infile_spool(FILE *in, const char *name, uint64_t max, const char *what, int *rc,
		   char *err, size_t errlen)
{
	struct stat st;
	char b[32];
	int dummy, c;
	FILE *out;

	rc = rc ? rc : &dummy;
	if (fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode))
		return in;
	out = tmpfile();
	c = out ? copy_bounded(in, out, max) : -1;
	if (c == 0 && (fflush(out) || fseek(out, 0, SEEK_SET)))
		c = -1;
	*rc = c > 0 ? -EFBIG : -(errno ? errno : EIO);
	if (c > 0)
		snprintf(err, errlen, "%s: more than %s (the limit of %s)", name,
			 infile_size_text(max, b, sizeof(b)), what);
	else if (c < 0)
		snprintf(err, errlen, "%s: cannot read (into a temporary file): %s", name,
			 strerror(errno ? errno : EIO));
	fclose(in);
	if (c && out)
		fclose(out);
	return c ? NULL : out;
}

size_t infile_bom(const char *buf, size_t len)
{
	return len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3) ? 3 : 0;
}

bool infile_lone_cr(const char *buf, size_t len)
{
	const char *cr = memchr(buf, '\r', len);

	for (; cr; cr = memchr(cr + 1, '\r', len - (size_t)(cr + 1 - buf)))
		if ((size_t)(cr + 1 - buf) == len || cr[1] != '\n')
			return true;
	return false;
}

const char *infile_size_text(uint64_t n, char *buf, size_t len)
{
	if (n >= (1ull << 30) && n % (1ull << 30) == 0)
		snprintf(buf, len, "%llu GiB", (unsigned long long)(n >> 30));
	else if (n >= (1ull << 20) && n % (1ull << 20) == 0)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(n >> 20));
	else if (n >= 1024 && n % 1024 == 0)
		snprintf(buf, len, "%llu KiB", (unsigned long long)(n >> 10));
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)n);
	return buf;
}

/* Check the @n new bytes at @p: lines counted in *@line, the length of the
 * current line in *@col.  0, or -1 with a message. */
static int scan_chunk(const char *p, size_t n, unsigned long *line, size_t *col, const char *name,
		      const struct infile_limits *lim, const char *what, const char *nul_msg,
		      char *err, size_t errlen)
{
	char b[32];

	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\n' || p[i] == '\r') { /* a CR-only file is the parser's to name */
			*line += p[i] == '\n';
			*col = 0;
			continue;
		}
		if (p[i] == '\0' && nul_msg) {
			snprintf(err, errlen, "%s: %s", name, nul_msg);
			return -EILSEQ;
		}
		if (lim->line_max && ++*col > lim->line_max) {
			snprintf(err, errlen, "%s:%lu: line longer than %s (the limit of %s)", name,
				 *line, infile_size_text(lim->line_max, b, sizeof(b)), what);
			return -E2BIG;
		}
	}
	return 0;
}

static int slurp_fail(int rc, char **buf, char *err, size_t errlen, const char *fmt,
		      const char *name, const char *a, const char *b)
{
	if (fmt)
		snprintf(err, errlen, fmt, name, a, b);
	free(*buf);
	*buf = NULL;
	return rc;
}

int infile_slurp(FILE *f, const char *name, const struct infile_limits *lim, const char *what,
		 const char *nul_msg, char **buf, size_t *len, char *err, size_t errlen)
{
	size_t cap = 0, n, col = 0;
	unsigned long line = 1;
	char b[32];
	int rc;

	*buf = NULL;
	*len = 0;
	do {
		char *p;

		if (cap - *len < 65536) {
			cap = cap ? 2 * cap : 65536;
			if (lim->total_max && cap > lim->total_max + 65536) /* one chunk past it */
				cap = (size_t)lim->total_max + 65536;
			p = realloc(*buf, cap + 1);
			if (!p)
				return slurp_fail(-ENOMEM, buf, err, errlen, "%s: out of memory%s%s",
						  name, "", "");
			*buf = p;
		}
		n = fread(*buf + *len, 1, cap - *len, f);
		rc = scan_chunk(*buf + *len, n, &line, &col, name, lim, what, nul_msg, err, errlen);
		if (rc)
			return slurp_fail(rc, buf, err, errlen, NULL, NULL, NULL, NULL);
		*len += n;
		if (lim->total_max && *len > lim->total_max)
			return slurp_fail(-EFBIG, buf, err, errlen, "%s: file is too large (more than %s; the "
					  "limit of %s)", name, infile_size_text(lim->total_max, b, sizeof(b)),
					  what);
	} while (n > 0);
	if (ferror(f))
		return slurp_fail(-EIO, buf, err, errlen, "%s: cannot read: %s%s", name,
				  strerror(errno ? errno : EIO), "");
	(*buf)[*len] = '\0';
	return 0;
}

void linein_init(struct linein *r, FILE *f, const char *name, const struct infile_limits *lim,
		 const char *expect)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->name = name;
	r->lim = *lim;
	r->expect = expect;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int line_fail(struct linein *r, char *err, size_t errlen, const char *fmt, ...)
{
	int n = snprintf(err, errlen, "%s:%lu: ", r->name, r->line);
	va_list ap;

	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Append @ch to r->buf at *@n, growing it; -1 when out of memory. */
static int put(struct linein *r, size_t *n, int ch)
{
	if (*n + 2 > r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 256;
		char *p = realloc(r->buf, cap);

		if (!p)
			return -1;
		r->buf = p;
		r->cap = cap;
	}
	r->buf[(*n)++] = (char)ch;
	return 0;
}

/* The file's BOM: dropped once its three bytes are there. */
static void drop_bom(struct linein *r, size_t *n)
{
	if (r->bytes == 3 && *n == 3 && infile_bom(r->buf, 3))
		*n = 0;
}

int linein_next(struct linein *r, size_t *len, char *err, size_t errlen)
{
	size_t n = 0;
	char b[32];
	int ch;

	r->line++;
	while ((ch = getc(r->f)) != EOF && ch != '\n') {
		if (++r->bytes > r->lim.total_max && r->lim.total_max)
			return line_fail(r, err, errlen, "file is too large (more than %s)",
					 infile_size_text(r->lim.total_max, b, sizeof(b)));
		if (ch == '\0')
			return line_fail(r, err, errlen, "contains a NUL byte; expected a text line");
		if (ch < 0x20 && ch != '\t' && ch != '\r') /* binary data, not a text line */
			return line_fail(r, err, errlen, "contains the control character 0x%02x; "
					 "expected a text line", (unsigned)ch);
		if (n > 0 && r->buf[n - 1] == '\r')
			return line_fail(r, err, errlen, INFILE_CR_ONLY);
		if (r->lim.line_max && n >= r->lim.line_max && ch != '\r')
			return line_fail(r, err, errlen, "line longer than %zu characters; %s",
					 r->lim.line_max, r->expect);
		if (put(r, &n, ch))
			return line_fail(r, err, errlen, "out of memory");
		drop_bom(r, &n);
	}
	if (ferror(r->f)) {
		snprintf(err, errlen, "%s: read error: %s", r->name, strerror(errno ? errno : EIO));
		return -1;
	}
	if (ch == '\n')
		r->bytes++;
	if (n > 0 && r->buf[n - 1] == '\r')
		n--;
	if (!r->buf && put(r, &n, 0))
		return line_fail(r, err, errlen, "out of memory");
	r->buf[n] = '\0';
	if (len)
		*len = n;
	return ch == EOF && n == 0 ? 0 : 1;
}

void linein_free(struct linein *r)
{
	free(r->buf);
	r->buf = NULL;
	r->cap = 0;
}
