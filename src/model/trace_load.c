/* trace_load.c - pcap/pcapng captures and CSV timelines into arrivals.
 *
 * Roadmap: trace_read() sniffs the first four bytes and hands the stream
 * to read_capture() (libpcap through model/trace_pcap.c) or read_csv(); both
 * append to a growing pair of arrays (add_pkt) that becomes the
 * struct scn_trace the simulator reads.  trace_load() keeps what it read
 * in a small per-process cache, so the many runs of a sweep or of
 * `rxlab tune` (and their forked workers) read a file once.
 */
#include "model/trace_load.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/trace_pcap.h"
#include "model/units.h"
#include "io/infile.h"

/* Arrays being filled. */
struct tbuf {
	int64_t *t;
	uint32_t *len;
	uint64_t n, cap, bytes;
};

static int grow(struct tbuf *b)
{
	uint64_t cap = b->cap ? b->cap * 2 : 4096;
	int64_t *t = realloc(b->t, cap * sizeof(*t));
	uint32_t *len;

	if (!t)
		return -1;
	b->t = t;
	len = realloc(b->len, cap * sizeof(*len));
	if (!len)
		return -1;
	b->len = len;
	b->cap = cap;
	return 0;
}

/* Append a packet at @t_ns (relative to the first) of @wire_len bytes
 * without FCS; the caller has checked the range. */
static int add_pkt(struct tbuf *b, int64_t t_ns, uint32_t wire_len)
{
	uint32_t frame = wire_len + 4 < 64 ? 64 : wire_len + 4;

	if (b->n == b->cap && grow(b))
		return -1;
	b->t[b->n] = t_ns;
	b->len[b->n] = frame;
	b->bytes += frame;
	b->n++;
	return 0;
}

/* The span a trace may have: the longest a run can play (run.duration at
 * most 3600 s, trace-speed at most 1000), which also keeps the simulator's
 * picosecond arithmetic (src/sim/nic.c: ns x 1000) far from overflow. */
#define TRACE_MAX_SPAN_NS (3600ll * 1000 * 1000000000ll)
#define TRACE_SPAN_TEXT "accepted a trace of at most 1000 h (3600000 s: run.duration 3600 s " \
	"at trace-speed 1000)"

static bool span_ok(int64_t t_rel_ns)
{
	return t_rel_ns <= TRACE_MAX_SPAN_NS;
}

static bool is_capture_magic(const unsigned char m[4])
{
	static const uint32_t magics[] = { 0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1,
					   0x0a0d0d0a };
	uint32_t v = (uint32_t)m[0] << 24 | (uint32_t)m[1] << 16 | (uint32_t)m[2] << 8 | m[3];

	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (v == magics[i])
			return true;
	return false;
}

/* ---- captures ---- */

static int capture_len_ok(struct pcap_trace *p, const char *name, uint64_t n, uint32_t len,
			  char *err, size_t errlen)
{
	if (len >= 1 && len <= TRACE_MAX_LEN)
		return 0;
	snprintf(err, errlen, "%s: packet %llu (byte offset %ld): length %u bytes is out of range: "
		 "accepted 1..%d bytes (a frame up to 9216 bytes with FCS; a capture taken above "
		 "GRO/TSO holds merged packets: capture with GRO off)", name,
		 (unsigned long long)n, pcap_trace_offset(p), len, TRACE_MAX_LEN);
	return -1;
}

static int read_capture(struct tbuf *b, FILE *f, const char *name, char *err, size_t errlen)
{
	struct pcap_trace *p;
	int64_t t;
	uint32_t len;
	int rc;

	if (pcap_trace_open(&p, f, name, err, errlen)) {
		fclose(f); /* libpcap did not take it */
		return -1;
	}
	while ((rc = pcap_trace_next(p, &t, &len, err, errlen)) == 1) {
		if (capture_len_ok(p, name, b->n + 1, len, err, errlen)) {
			rc = -1;
			break;
		}
		if (!span_ok(t)) {
			snprintf(err, errlen, "%s: packet %llu (byte offset %ld): %lld s after the first "
				 "packet; %s", name, (unsigned long long)b->n + 1, pcap_trace_offset(p),
				 (long long)(t / 1000000000), TRACE_SPAN_TEXT);
			rc = -1;
			break;
		}
		if (b->n == TRACE_MAX_PKTS || add_pkt(b, t, len)) {
			snprintf(err, errlen, "%s: packet %llu: too many packets (at most %u) or out "
				 "of memory", name, (unsigned long long)b->n + 1, TRACE_MAX_PKTS);
			rc = -1;
			break;
		}
	}
	pcap_trace_close(p);
	return rc;
}

/* ---- CSV timelines ---- */

/* Longest CSV line accepted: "time_us,length" rows are short; and the
 * most bytes a CSV trace may have (TRACE_MAX_PKTS rows of up to 64 bytes). */
#define CSV_LINE_MAX 256
#define CSV_MAX_BYTES (1ull << 32)

struct csvr {
	struct linein in;
	const char *name;
	unsigned long line;
	char *err;
	size_t errlen;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int csv_fail(struct csvr *c, const char *fmt, ...)
{
	int n = snprintf(c->err, c->errlen, "%s:%lu: ", c->name, c->line);
	va_list ap;

	if (n < 0 || (size_t)n >= c->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Trim blanks at both ends in place. */
static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

/* The next line that is not blank or a comment: 1 with it, 0 at the end,
 * -1 with a message. */
static int next_line(struct csvr *c, char **out)
{
	for (;;) {
		int rc;
		char *s;

		rc = linein_next(&c->in, NULL, c->err, c->errlen);
		c->line = c->in.line;
		if (rc != 1)
			return rc;
		s = trim(c->in.buf);
		if (*s && *s != '#') {
			*out = s;
			return 1;
		}
	}
}

static int csv_header(struct csvr *c)
{
	char *s = NULL, *comma, *a, *b;
	int rc = next_line(c, &s);

	if (rc <= 0) {
		if (rc == 0)
			snprintf(c->err, c->errlen, "%s: empty trace: no header and no packets; the "
				 "first line must be 'time_us,length'", c->name);
		return -1;
	}
	comma = strchr(s, ',');
	if (comma)
		*comma = '\0';
	a = trim(s);
	b = comma ? trim(comma + 1) : "";
	if (comma && !strcmp(a, "time_us") && !strcmp(b, "length"))
		return 0;
	return csv_fail(c, "header is not 'time_us,length' (a CSV trace starts with that line; "
			"a capture must start with a pcap or pcapng magic number)");
}

static int csv_time(struct csvr *c, const char *v, int64_t *t_ns)
{
	char buf[64];
	uint64_t x;

	if (strlen(v) > 40 || strchr(v, ' ') || !*v) {
		return csv_fail(c, "column 'time_us': '%.40s' is not a time; accepted a decimal "
				"number of microseconds such as 12 or 12.345", v);
	}
	snprintf(buf, sizeof(buf), "%sus", v);
	if (unit_parse(UNIT_TIME_NS, buf, &x, NULL, 0) != UNIT_OK || x > INT64_MAX)
		return csv_fail(c, "column 'time_us': '%.40s' is not a time; accepted a decimal "
				"number of microseconds such as 12 or 12.345 (at most 3 decimals)",
				v);
	*t_ns = (int64_t)x;
	return 0;
}

static int csv_length(struct csvr *c, const char *v, uint32_t *len)
{
	uint64_t x;

	bool num = unit_parse(UNIT_COUNT, v, &x, NULL, 0) == UNIT_OK;

	if (!num || x < 1 || x > TRACE_MAX_LEN)
		return csv_fail(c, "column 'length': '%.40s' %s: accepted 1..%d bytes (the frame "
				"without FCS, as a capture reports it)", v,
				num ? "is out of range" : "is not a whole number", TRACE_MAX_LEN);
	*len = (uint32_t)x;
	return 0;
}

/* One row "time_us,length" into @t_ns (absolute) and @len. */
static int csv_row(struct csvr *c, char *s, int64_t *t_ns, uint32_t *len)
{
	char *comma = strchr(s, ',');

	if (!comma || strchr(comma + 1, ','))
		return csv_fail(c, "%s columns, expected 2 (time_us,length)",
				comma ? "more than 2" : "1");
	*comma = '\0';
	if (csv_time(c, trim(s), t_ns))
		return -1;
	return csv_length(c, trim(comma + 1), len);
}

static int csv_rows(struct tbuf *b, struct csvr *c)
{
	int64_t t = 0, t0 = 0, prev = 0;
	unsigned long prev_line = 0, first_line = 0;
	uint32_t len = 0;
	char *s = NULL;
	int rc;

	while ((rc = next_line(c, &s)) == 1) {
		if (csv_row(c, s, &t, &len))
			return -1;
		if (b->n == 0) {
			t0 = prev = t;
			first_line = c->line;
		}
		if (!span_ok(t - t0))
			return csv_fail(c, "column 'time_us': %lld s after the first packet (line %lu); "
					"%s", (long long)((t - t0) / 1000000000), first_line,
					TRACE_SPAN_TEXT);
		if (t < prev)
			return csv_fail(c, "column 'time_us': %.3f is earlier than %.3f on line %lu; "
					"accepted rows in time order", (double)t / 1e3,
					(double)prev / 1e3, prev_line);
		if (b->n == TRACE_MAX_PKTS)
			return csv_fail(c, "too many packets: at most %u", TRACE_MAX_PKTS);
		if (add_pkt(b, t - t0, len))
			return csv_fail(c, "out of memory");
		prev = t;
		prev_line = c->line;
	}
	return rc;
}

static int read_csv(struct tbuf *b, FILE *f, const char *name, char *err, size_t errlen)
{
	static const struct infile_limits lim = { CSV_LINE_MAX, CSV_MAX_BYTES };
	struct csvr c = { .name = name, .err = err, .errlen = errlen };
	int rc;

	linein_init(&c.in, f, name, &lim, "expected time_us,length");
	rc = csv_header(&c);
	if (rc == 0)
		rc = csv_rows(b, &c);
	linein_free(&c.in);
	return rc;
}

/* ---- entry points ---- */

/* Which reader @f needs: 1 capture, 0 CSV, -1 with a message. */
static int sniff(FILE *f, const char *name, char *err, size_t errlen)
{
	unsigned char m[4] = { 0 };
	long start = ftell(f); /* 0, or where standard input (`< FILE`) starts */
	size_t got = fread(m, 1, sizeof(m), f);
	bool capture = got == 4 && is_capture_magic(m);

	if (ferror(f) || fseek(f, start > 0 ? start : 0, SEEK_SET)) {
		snprintf(err, errlen, "%s: cannot read: %s (a trace is a regular file)", name,
			 strerror(errno));
		return -1;
	}
	if (!capture && pcap_trace_is_capture_name(name)) {
		snprintf(err, errlen, "%s: not a pcap or pcapng capture (%s)", name,
			 got ? "no pcap or pcapng magic number in its first 4 bytes" : "empty file");
		return -1;
	}
	return capture;
}

int trace_read(struct scn_trace *tr, FILE *f, const char *name, char *err, size_t errlen)
{
	struct tbuf b = { 0 };
	int kind = sniff(f, name, err, errlen);
	int rc = kind;

	memset(tr, 0, sizeof(*tr));
	if (kind == 1) {
		rc = read_capture(&b, f, name, err, errlen); /* closes f */
	} else {
		if (kind == 0)
			rc = read_csv(&b, f, name, err, errlen);
		fclose(f);
	}
	if (rc == 0 && b.n == 0) {
		snprintf(err, errlen, "%s: empty trace: no packets%s", name,
			 kind == 1 ? " in the capture" : " after the header");
		rc = -1;
	}
	if (rc) {
		free(b.t);
		free(b.len);
		return -1;
	}
	*tr = (struct scn_trace){ .n = b.n, .t_ns = b.t, .len = b.len, .bytes = b.bytes };
	return 0;
}

void trace_release(struct scn_trace *tr)
{
	free((void *)tr->t_ns);
	free((void *)tr->len);
	memset(tr, 0, sizeof(*tr));
}

#define TRACE_CACHE_MAX 16

static struct cached_trace {
	char path[256];
	struct scn_trace tr;
} cache[TRACE_CACHE_MAX];
static size_t n_cached;

/* The most bytes of a trace read from standard input (copied to a
 * temporary file first: the readers seek): a CSV trace's own limit. */
#define STDIN_TRACE_MAX CSV_MAX_BYTES

static FILE *open_stdin(int *rc, char *err, size_t errlen)
{
	FILE *f = infile_stdin_open("a trace", rc, err, errlen);

	return f ? infile_spool(f, INFILE_STDIN_NAME, STDIN_TRACE_MAX, "a trace read from "
				"standard input", rc, err, errlen) : NULL;
}

static int load_file(const struct scn_trace **out, const char *path, char *err,
		     size_t errlen);

/* "-": read once per process, whatever the outcome (a failure is told
 * again, not read again: standard input is gone). */
static int load_stdin(const struct scn_trace **out, char *err, size_t errlen)
{
	static bool tried;
	static int rc;
	static char msg[1024];

	if (tried && rc) {
		snprintf(err, errlen, "%s", msg);
		return rc;
	}
	tried = true;
	rc = load_file(out, "-", msg, sizeof(msg));
	if (rc)
		snprintf(err, errlen, "%s", msg);
	return rc;
}

int trace_load(const struct scn_trace **out, const char *path, char *err, size_t errlen)
{
	for (size_t i = 0; i < n_cached; i++) {
		if (!strcmp(cache[i].path, path)) {
			*out = &cache[i].tr;
			return 0;
		}
	}
	return infile_is_stdin(path) ? load_stdin(out, err, errlen)
				     : load_file(out, path, err, errlen);
}

static int load_file(const struct scn_trace **out, const char *path, char *err,
		     size_t errlen)
{
	FILE *f;
	int rc;

	for (size_t i = 0; i < n_cached; i++) {
		if (!strcmp(cache[i].path, path)) {
			*out = &cache[i].tr;
			return 0;
		}
	}
	if (n_cached == TRACE_CACHE_MAX || strlen(path) >= sizeof(cache[0].path)) {
		snprintf(err, errlen, "%s: too many traces in one run (at most %d) or path too long",
			 path, TRACE_CACHE_MAX);
		return -EINVAL;
	}
	/* regular files only, checked before any read: a FIFO without a
	 * writer would block, a device never ends, and the reader seeks;
	 * standard input ("-") is copied to a temporary file, bounded */
	f = infile_is_stdin(path) ? open_stdin(&rc, err, errlen)
				  : infile_open(path, INFILE_REGULAR, "a trace is a pcap, pcapng or "
						"CSV file", &rc, err, errlen);
	if (!f)
		return rc == -ENOTSUP || rc == -EISDIR || rc == -EBUSY || rc == -EFBIG ? -EINVAL
										      : rc;
	rc = trace_read(&cache[n_cached].tr, f, infile_name(path), err, errlen);
	if (rc)
		return -EINVAL;
	snprintf(cache[n_cached].path, sizeof(cache[0].path), "%s", path);
	*out = &cache[n_cached++].tr;
	return 0;
}

void trace_cache_free(void)
{
	for (size_t i = 0; i < n_cached; i++)
		trace_release(&cache[i].tr);
	n_cached = 0;
}
