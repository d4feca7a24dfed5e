/* replay.c - core mechanisms on recorded inputs (see replay/replay.h).
 *
 * Roadmap:
 *   csv_*        the shared reader: header check, exact unsigned integers,
 *                time order, "file:line: column 'x': ..." messages
 *   options      the kinds' names and defaults (the command line that sets
 *                them is src/cli/replay_args.c)
 *   dim_*        net_dim() on cumulative samples, one row per window
 *   itr_*        itr_on_irq_done() (+ the 2 s watchdog in mode 4) per interrupt
 *   adapt_*      adaptive_sample() on cumulative samples, one row per interval
 *   coal_*       the coalescing engine with an infinitely fast (or
 *                --service-ns slow) host, one row per interrupt
 *   defer_*      napi_complete_done() per poll
 *   replay_run(), replay_coalesce_pcap()
 *
 * Each replay drives the core exactly as the simulator does (src/sim/nic.c,
 * src/sim/adaptive.c) so that the two can be compared decision by decision;
 * nothing here decides anything the core does not.
 */
#include "replay/replay.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/trace_pcap.h"
#include "model/units.h"
#include "io/infile.h"
#include "rxlab/adaptive.h"
#include "rxlab/napi.h"

#define US 1000ull
#define MS (1000 * US)
#define SEC (1000 * MS)
#define CSV_MAX_COLS 8
#define NEVER INT64_MAX

/* e1000_watchdog() runs every 2 s (e1000_main.c round_jiffies(jiffies + 2 * HZ)). */
#define ITR_WATCHDOG_NS ((int64_t)(2 * SEC))

/* ---- the CSV reader ---------------------------------------------------- */

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
static int csv_open(struct csv *c, FILE *f, const char *name, const char *const *cols,
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

static void csv_close(struct csv *c)
{
	linein_free(&c->in);
	c->buf = NULL;
}

/* Next data row into field[]: 1, 0 at the end, -1 on error. */
static int csv_next(struct csv *c)
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
static int csv_u64(struct csv *c, size_t col, uint64_t max, uint64_t *out)
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
static int csv_time(struct csv *c, size_t col, int64_t *t)
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

/* ---- options ----------------------------------------------------------- */

static const char *const kind_names[REPLAY_N] = { "dim", "itr", "adaptive", "coalesce",
						  "defer" };
static const char *const table_names[] = { "rx-eqe", "rx-cqe", "tx-eqe", "tx-cqe", NULL };

int replay_kind_parse(const char *s, enum replay_kind *k)
{
	for (int i = 0; i < REPLAY_N; i++) {
		if (!strcmp(s, kind_names[i])) {
			*k = (enum replay_kind)i;
			return 0;
		}
	}
	return -1;
}

const char *replay_kind_name(enum replay_kind k)
{
	return (unsigned)k < REPLAY_N ? kind_names[k] : "?";
}

void replay_opts_default(struct replay_opts *o, enum replay_kind k)
{
	memset(o, 0, sizeof(*o));
	o->kind = k;
	o->fmt = OUT_TABLE;
	o->dim_table = DIM_RX_EQE;
	o->start_ix = DIM_DEF_PROFILE_IX;
	o->itr.mode = ITR_DEFAULT_MODE;
	o->link_bps = 1000000000;
	/* adaptive: rxlab's own defaults (the uapi has none), so that each set
	 * is reachable on a gigabit link: per-frame interrupts below 10 kpps,
	 * 20 us / 16 frames up to 100 kpps, 100 us / 64 frames above. */
	o->pkt_rate_low_pps = 10000;
	o->pkt_rate_high_pps = 100000;
	o->rx_usecs_low_ns = 0;
	o->rx_frames_low = 1;
	o->rx_usecs_ns = k == REPLAY_ADAPTIVE ? 20 * US : 0;
	o->rx_frames = k == REPLAY_ADAPTIVE ? 16 : 1;
	o->rx_usecs_high_ns = 100 * US;
	o->rx_frames_high = 64;
	o->sample_interval_ns = 1 * SEC;
	o->timer = COAL_TIMER_ABSOLUTE;
	o->weight = NAPI_POLL_WEIGHT;
}

/* ---- dim --------------------------------------------------------------- */

static const char *const dim_cols[] = { "time_ns", "packets", "bytes", "events", NULL };

static const char *dim_cmp_name(enum dim_cmp c)
{
	switch (c) {
	case DIM_WORSE:
		return "worse";
	case DIM_SAME:
		return "same";
	case DIM_BETTER:
		return "better";
	}
	return "?";
}

static const char *dim_tune_name(enum dim_tune_state s)
{
	switch (s) {
	case DIM_PARKING_ON_TOP:
		return "parking_on_top";
	case DIM_PARKING_TIRED:
		return "parking_tired";
	case DIM_GOING_RIGHT:
		return "going_right";
	case DIM_GOING_LEFT:
		return "going_left";
	}
	return "?";
}

static struct table *dim_table_new(const struct replay_opts *o)
{
	char title[64];
	struct table *t;

	snprintf(title, sizeof(title), "DIM decisions (%s profile table)", table_names[o->dim_table]);
	t = table_new("replay_dim", title);
	table_add_col(t, "time_ns", "time_ns", -1);
	table_add_col(t, "window_ns", "window_ns", -1);
	table_add_col(t, "ppms", "ppms", -1);
	table_add_col(t, "bpms", "bpms", -1);
	table_add_col(t, "epms", "epms", -1);
	table_add_col(t, "cmp", "cmp", -1);
	table_add_col(t, "tune", "tune", -1);
	table_add_col(t, "profile_ix", "ix", -1);
	table_add_col(t, "usec", "usec", -1);
	table_add_col(t, "pkts", "pkts", -1);
	table_add_col(t, "changed", "changed", -1);
	return t;
}

/* One row of cumulative counters, truncated to the widths of struct
 * dim_sample as the kernel's dim_update_sample() does (u32, u32, u16). */
static int dim_read(struct csv *c, struct dim_sample *s)
{
	uint64_t pk, by, ev;

	if (csv_time(c, 0, &s->t_ns) || csv_u64(c, 1, UINT64_MAX, &pk) ||
	    csv_u64(c, 2, UINT64_MAX, &by) || csv_u64(c, 3, UINT64_MAX, &ev))
		return -1;
	s->pkt_ctr = (uint32_t)pk;
	s->byte_ctr = (uint32_t)by;
	s->event_ctr = (uint16_t)ev;
	return 0;
}

static void dim_row(struct table *t, const struct replay_opts *o, const struct dim *d,
		    const struct dim_sample *start, const struct dim_sample *end,
		    const struct dim_result *r)
{
	const struct dim_profile *p = dim_profile(o->dim_table, r->profile_ix);
	struct dim_stats st = { 0, 0, 0 };

	/* The same function net_dim() used for this window: it succeeded there. */
	dim_calc_stats(start, end, &st);
	table_row(t);
	table_i64(t, end->t_ns);
	table_i64(t, end->t_ns - start->t_ns);
	table_u64(t, st.ppms);
	table_u64(t, st.bpms);
	table_u64(t, st.epms);
	table_str(t, r->compared ? dim_cmp_name(r->cmp) : NULL);
	table_str(t, dim_tune_name(d->tune_state));
	table_u64(t, r->profile_ix);
	table_u64(t, p->usec);
	table_u64(t, p->pkts);
	table_str(t, r->changed ? "yes" : "no");
}

/* Every row is one net_dim() call, as mlx5 makes one per completed poll.
 * A new profile is applied before the next row (dim_applied(): the
 * driver's work item has run), so that row starts the next window. */
static int dim_replay(struct csv *c, const struct replay_opts *o, struct table *t)
{
	struct dim d;
	struct dim_sample s, start;
	int rc;

	dim_init(&d, (uint8_t)o->start_ix);
	while ((rc = csv_next(c)) == 1) {
		struct dim_result r;

		if (dim_read(c, &s))
			return -1;
		start = d.start_sample;
		r = net_dim(&d, &s);
		if (!r.decided)
			continue;
		dim_row(t, o, &d, &start, &s, &r);
		if (r.changed)
			dim_applied(&d);
	}
	return rc;
}

/* ---- itr --------------------------------------------------------------- */

static const char *const itr_cols[] = { "time_ns", "rx_packets", "rx_bytes", "tx_packets",
					"tx_bytes", NULL };

static const char *itr_class_name(enum itr_class c)
{
	switch (c) {
	case ITR_LOWEST_LATENCY:
		return "lowest";
	case ITR_LOW_LATENCY:
		return "low";
	case ITR_BULK_LATENCY:
		return "bulk";
	}
	return "?";
}

/* The rate e1000_set_itr() aims at (itr.h ITR_RATE_*); in the other modes
 * the current rate is its own target. */
static uint32_t itr_target(const struct itr *t, enum itr_outcome out)
{
	enum itr_class c = t->rx_class > t->tx_class ? t->rx_class : t->tx_class;

	switch (out) {
	case ITR_NOT_DYNAMIC:
	case ITR_OLD_MAC:
		return t->itr;
	case ITR_LINK_NOT_1000:
		return ITR_RATE_BULK;
	case ITR_CLASSIFIED:
		break;
	}
	return itr_class_rate(c);
}

static struct table *itr_table_new(void)
{
	struct table *t = table_new("replay_itr", "e1000 ITR after each interrupt");

	table_add_col(t, "time_ns", "time_ns", -1);
	table_add_col(t, "rx_class", "rx_class", -1);
	table_add_col(t, "tx_class", "tx_class", -1);
	table_add_col(t, "target_ints_per_s", "target/s", -1);
	table_add_col(t, "itr_ints_per_s", "itr/s", -1);
	table_add_col(t, "reg", "ITR", -1);
	table_add_col(t, "gap_ns", "gap_ns", -1);
	table_add_col(t, "changed", "changed", -1);
	return t;
}

static void itr_row(struct table *t, int64_t time_ns, const struct itr *s,
		    const struct itr_decision *d, bool changed)
{
	bool dyn = s->mode == ITR_DYNAMIC || s->mode == ITR_DYNAMIC_CONSERVATIVE;

	table_row(t);
	table_i64(t, time_ns);
	table_str(t, dyn ? itr_class_name(s->rx_class) : NULL);
	table_str(t, dyn ? itr_class_name(s->tx_class) : NULL);
	table_u64(t, itr_target(s, d->outcome));
	table_u64(t, d->itr);
	table_u64(t, d->reg);
	table_i64(t, d->gap_ns);
	table_str(t, changed ? "yes" : "no");
}

/* Mode 4: e1000_watchdog() every 2 s from the first row, with the bytes
 * (GOTCL / GORCL) of the rows before each run. */
struct itr_wd {
	int64_t next_ns;
	uint64_t tx_bytes, rx_bytes;
};

static int64_t add_sat(int64_t a, int64_t b)
{
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* The watchdog runs due by @t_ns.  After two runs in a row the bytes are
 * zero and every further run sets the same rate (itr_simplified(0, 0)):
 * only the core's run counter would tell them apart, so a long gap in the
 * recording is skipped in one step instead of one run per 2 s (a gap of
 * years was billions of runs).  Times saturate at INT64_MAX. */
static void itr_watchdogs(struct itr *s, struct itr_wd *w, int64_t t_ns)
{
	int runs = 0;

	if (w->next_ns == NEVER)
		w->next_ns = add_sat(t_ns, ITR_WATCHDOG_NS);
	while (w->next_ns <= t_ns && w->next_ns != NEVER) {
		if (runs++ == 2) {
			w->next_ns += (t_ns - w->next_ns) / ITR_WATCHDOG_NS * ITR_WATCHDOG_NS;
		} else {
			itr_on_watchdog(s, w->tx_bytes, w->rx_bytes);
			w->tx_bytes = w->rx_bytes = 0;
		}
		w->next_ns = add_sat(w->next_ns, ITR_WATCHDOG_NS);
	}
}

static int itr_replay(struct csv *c, const struct replay_opts *o, struct table *t)
{
	struct itr s;
	struct itr_wd w = { NEVER, 0, 0 };
	int rc;

	itr_init(&s, &o->itr, (uint32_t)(o->link_bps / 1000000));
	while ((rc = csv_next(c)) == 1) {
		uint64_t v[4];
		uint32_t before = s.itr;
		struct itr_decision d;
		int64_t tn = 0;

		if (csv_time(c, 0, &tn))
			return -1;
		for (size_t i = 0; i < 4; i++)
			if (csv_u64(c, i + 1, UINT32_MAX, &v[i]))
				return -1;
		itr_watchdogs(&s, &w, tn);
		d = itr_on_irq_done(&s, (uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2],
				    (uint32_t)v[3]);
		w.rx_bytes += v[1];
		w.tx_bytes += v[3];
		itr_row(t, tn, &s, &d, s.itr != before);
	}
	return rc;
}

/* ---- adaptive ---------------------------------------------------------- */

static const char *adapt_set_name(enum adaptive_set s)
{
	switch (s) {
	case ADAPT_LOW:
		return "low";
	case ADAPT_NORMAL:
		return "normal";
	case ADAPT_HIGH:
		return "high";
	}
	return "?";
}

static struct table *adapt_table_new(void)
{
	struct table *t = table_new("replay_adaptive", "Adaptive RX (pkt-rate) per sample interval");

	table_add_col(t, "time_ns", "time_ns", -1);
	table_add_col(t, "interval_ns", "interval_ns", -1);
	table_add_col(t, "packets", "packets", -1);
	table_add_col(t, "rate_pps", "rate_pps", -1);
	table_add_col(t, "set", "set", -1);
	table_add_col(t, "rx_usecs", "rx-usecs", -1);
	table_add_col(t, "rx_frames", "rx-frames", -1);
	table_add_col(t, "changed", "changed", -1);
	return t;
}

static int adapt_config(const struct replay_opts *o, struct adaptive_config *ac, char *err,
			size_t errlen)
{
	const char *why = NULL;

	if (o->rx_usecs_low_ns % US || o->rx_usecs_ns % US || o->rx_usecs_high_ns % US) {
		snprintf(err, errlen, "--rx-usecs-low/--rx-usecs/--rx-usecs-high: accepted whole "
			 "microseconds (ethtool's unit)");
		return -1;
	}
	*ac = (struct adaptive_config){
		.pkt_rate_low = o->pkt_rate_low_pps, .pkt_rate_high = o->pkt_rate_high_pps,
		.rx_usecs_low = (uint32_t)(o->rx_usecs_low_ns / US),
		.rx_frames_low = (uint32_t)o->rx_frames_low,
		.rx_usecs = (uint32_t)(o->rx_usecs_ns / US), .rx_frames = (uint32_t)o->rx_frames,
		.rx_usecs_high = (uint32_t)(o->rx_usecs_high_ns / US),
		.rx_frames_high = (uint32_t)o->rx_frames_high,
		.rate_sample_interval_ns = (int64_t)o->sample_interval_ns,
	};
	if (adaptive_config_check(ac, &why)) {
		snprintf(err, errlen, "adaptive options: %s", why);
		return -1;
	}
	return 0;
}

static void adapt_row(struct table *t, int64_t t_ns, const struct adaptive *before,
		      uint64_t pkts, const struct adaptive_decision *d)
{
	table_row(t);
	table_i64(t, t_ns);
	table_i64(t, t_ns - before->t_start_ns);
	table_u64(t, pkts - before->pkts_start);
	table_u64(t, d->rate_pps);
	table_str(t, adapt_set_name(d->set));
	table_u64(t, d->rx_usecs);
	table_u64(t, d->rx_frames);
	table_str(t, d->changed ? "yes" : "no");
}

/* The first row starts the first interval (adaptive_init()); every later
 * row is one adaptive_sample() of the cumulative packet counter. */
static int adapt_replay(struct csv *c, const struct replay_opts *o, struct table *t, char *err,
			size_t errlen)
{
	struct adaptive_config ac;
	struct adaptive a;
	bool started = false;
	int rc;

	if (adapt_config(o, &ac, err, errlen))
		return -1;
	while ((rc = csv_next(c)) == 1) {
		struct dim_sample s;
		uint64_t pkts;
		struct adaptive before;
		struct adaptive_decision d;

		/* dim_read() checks the row; the packet counter is re-read
		 * at its full 64 bits (adaptive.h: it wraps at 2^64). */
		if (dim_read(c, &s) || csv_u64(c, 1, UINT64_MAX, &pkts))
			return -1;
		if (!started) {
			adaptive_init(&a, &ac, s.t_ns, pkts);
			started = true;
			continue;
		}
		before = a;
		d = adaptive_sample(&a, s.t_ns, pkts);
		if (d.decided)
			adapt_row(t, s.t_ns, &before, pkts, &d);
	}
	return rc;
}

/* ---- coalesce ---------------------------------------------------------- */

static const char *const coal_cols[] = { "time_ns", NULL };

static const char *coal_cause_name(enum coal_cause c)
{
	switch (c) {
	case COAL_CAUSE_NONE:
		return "none";
	case COAL_CAUSE_FRAMES:
		return "frames";
	case COAL_CAUSE_TIMER:
		return "timer";
	case COAL_CAUSE_GAP:
		return "itr-release";
	}
	return "?";
}

/* struct coal_params from the options; e1000 RDTR/RADV as src/sim/nic.c
 * maps RxIntDelay/RxAbsIntDelay (1.024 us units, RDTR restarts per frame). */
static int coal_config(const struct replay_opts *o, struct coal_params *p, char *err,
		       size_t errlen)
{
	const char *why = NULL;

	*p = (struct coal_params){
		.usecs_ns = (int64_t)o->rx_usecs_ns, .frames = (uint32_t)o->rx_frames,
		.usecs_irq_ns = (int64_t)o->rx_usecs_irq_ns, .frames_irq = (uint32_t)o->rx_frames_irq,
		.mode = o->timer, .min_gap_ns = (int64_t)o->itr_ns,
	};
	if (o->radv && !o->rdtr)
		why = "--radv needs --rdtr > 0 (RxIntDelay 0 disables RxAbsIntDelay)";
	else if (o->rdtr && o->rx_given)
		why = "--rdtr replaces --rx-usecs, --rx-frames and --timer; give one or the other";
	coal_params_e1000((uint32_t)o->rdtr, (uint32_t)o->radv, p);
	if (why || coal_params_check(p, &why)) {
		snprintf(err, errlen, "coalescing options: %s", why);
		return -1;
	}
	return 0;
}

static struct table *coal_table_new(void)
{
	struct table *t = table_new("replay_coalesce", "Interrupts of the coalescing engine");

	table_add_col(t, "time_ns", "time_ns", -1);
	table_add_col(t, "packets", "packets", -1);
	table_add_col(t, "cause", "cause", -1);
	table_add_col(t, "wait_ns", "wait_ns", -1);
	return t;
}

/* The host side of the line: masked between an interrupt and its
 * re-enable @service_ns later (0: the host is infinitely fast). */
struct coal_host {
	struct coal c;
	bool masked;
	int64_t unmask_ns;
	int64_t now_ns;            /* time of the last thing that happened */
	int64_t service_ns;
};

/* Everything that happens before a completion at @until (NEVER: until
 * nothing is left).  As in src/sim/nic.c lookahead(), an interrupt due at
 * the same time as a completion fires first, and a re-enable due then
 * happens before the completion too. */
static void coal_run_until(struct coal_host *h, struct table *t, int64_t until)
{
	for (;;) {
		enum coal_cause why;
		int64_t ft;

		if (h->masked) {
			if (h->unmask_ns > until)
				return;
			h->masked = false;
			h->now_ns = h->unmask_ns;
			coal_unmask(&h->c, h->unmask_ns);
			continue;
		}
		ft = coal_fire_time(&h->c, h->now_ns, &why);
		if (ft == COAL_NEVER || ft > until)
			return;
		table_row(t);
		table_i64(t, ft);
		table_u64(t, h->c.pending);
		table_str(t, coal_cause_name(why));
		table_i64(t, ft - h->c.t_first);
		coal_fire(&h->c, ft, why);
		/* The ISR reads and clears the cause register at once. */
		coal_ack(&h->c, ft);
		h->masked = true;
		h->unmask_ns = add_sat(ft, h->service_ns);
		h->now_ns = ft;
	}
}

static int coal_replay(struct csv *c, const struct replay_opts *o, struct table *t, char *err,
		       size_t errlen)
{
	struct coal_params p;
	struct coal_host h = { .service_ns = (int64_t)o->service_ns, .now_ns = INT64_MIN };
	int64_t tn = 0;
	int rc;

	if (coal_config(o, &p, err, errlen))
		return -1;
	coal_init(&h.c, &p);
	while ((rc = csv_next(c)) == 1) {
		if (csv_time(c, 0, &tn))
			return -1;
		coal_run_until(&h, t, tn);
		coal_complete(&h.c, tn);
		h.now_ns = tn;
	}
	if (rc == 0)
		coal_run_until(&h, t, NEVER - 1);
	return rc;
}

/* ---- defer ------------------------------------------------------------- */

static const char *const defer_cols[] = { "time_ns", "work", NULL };

static struct table *defer_table_new(void)
{
	struct table *t = table_new("replay_defer", "napi_complete_done() after each poll");

	table_add_col(t, "time_ns", "time_ns", -1);
	table_add_col(t, "work", "work", -1);
	table_add_col(t, "trigger", "trigger", -1);
	table_add_col(t, "action", "action", -1);
	table_add_col(t, "timer_at_ns", "timer_at_ns", -1);
	table_add_col(t, "defer_left", "defer_left", -1);
	return t;
}

/* The driver side: is the IRQ enabled, when does the NAPI hrtimer expire. */
struct defer_host {
	struct napi n;
	bool irq_armed;
	int64_t timer_ns;          /* absolute expiry, NEVER = not armed */
};

/* Who scheduled this poll, as far as the decisions so far tell: still
 * scheduled after a full poll, the hrtimer (napi_watchdog()), the IRQ
 * (napi_schedule_prep()), or something else while the IRQ was masked and
 * the timer not yet due (a busy poller, or a gap in the recording). */
static const char *defer_trigger(struct defer_host *h, int64_t t_ns)
{
	if (h->n.state & NAPI_SCHED)
		return "repoll";
	if (h->timer_ns <= t_ns) {
		h->timer_ns = NEVER;
		napi_watchdog(&h->n);
		return "timer";
	}
	napi_schedule_prep(&h->n);
	if (h->irq_armed) {
		h->irq_armed = false;
		return "irq";
	}
	return "other";
}

/* The poll returned @work: the driver completes if it did less than its
 * weight (napi_complete_done()), then __napi_poll() (napi_poll_finish()). */
static const char *defer_finish(struct defer_host *h, int64_t t_ns, uint32_t work)
{
	struct napi_done d = { false, false, 0 };

	if (work < h->n.weight)
		d = napi_complete_done(&h->n, work, false);
	if (napi_poll_finish(&h->n, work).next == NAPI_NEXT_REPOLL)
		return "repoll";
	h->timer_ns = d.timer_ns > 0 ? add_sat(t_ns, d.timer_ns) : NEVER;
	h->irq_armed = d.rearm_irq;
	if (d.reschedule)
		return "reschedule";
	if (d.rearm_irq)
		return d.timer_ns > 0 ? "irq-rearmed+timer" : "irq-rearmed";
	return d.timer_ns > 0 ? "timer-armed" : "none";
}

static int defer_replay(struct csv *c, const struct replay_opts *o, struct table *t)
{
	struct defer_host h = { .irq_armed = true, .timer_ns = NEVER };
	int64_t tn = 0;
	uint64_t work;
	int rc;

	napi_init(&h.n, (uint32_t)o->weight);
	napi_set_defer(&h.n, (uint32_t)o->defer_hard_irqs, (int64_t)o->gro_flush_timeout_ns);
	while ((rc = csv_next(c)) == 1) {
		const char *trigger, *action;

		if (csv_time(c, 0, &tn) || csv_u64(c, 1, o->weight, &work))
			return -1;
		trigger = defer_trigger(&h, tn);
		action = defer_finish(&h, tn, (uint32_t)work);
		table_row(t);
		table_i64(t, tn);
		table_u64(t, work);
		table_str(t, trigger);
		table_str(t, action);
		if (h.timer_ns != NEVER)
			table_i64(t, h.timer_ns);
		else
			table_str(t, NULL);
		table_u64(t, h.n.defer_count);
	}
	return rc;
}

/* ---- entry points ------------------------------------------------------ */

static const char *const *const kind_cols[REPLAY_N] = {
	[REPLAY_DIM] = dim_cols, [REPLAY_ITR] = itr_cols, [REPLAY_ADAPTIVE] = dim_cols,
	[REPLAY_COALESCE] = coal_cols, [REPLAY_DEFER] = defer_cols,
};

static int replay_rows(struct csv *c, const struct replay_opts *o, struct table **out,
		       char *err, size_t errlen)
{
	switch (o->kind) {
	case REPLAY_DIM:
		*out = dim_table_new(o);
		return dim_replay(c, o, *out);
	case REPLAY_ITR:
		*out = itr_table_new();
		return itr_replay(c, o, *out);
	case REPLAY_ADAPTIVE:
		*out = adapt_table_new();
		return adapt_replay(c, o, *out, err, errlen);
	case REPLAY_COALESCE:
		*out = coal_table_new();
		return coal_replay(c, o, *out, err, errlen);
	case REPLAY_DEFER:
		*out = defer_table_new();
		return defer_replay(c, o, *out);
	case REPLAY_N:
		break;
	}
	snprintf(err, errlen, "unknown replay kind %d", (int)o->kind);
	return -1;
}

int replay_run(const struct replay_opts *o, FILE *in, const char *name, struct table **out,
	       char *err, size_t errlen)
{
	struct csv c;
	int rc;

	*out = NULL;
	if ((unsigned)o->kind >= REPLAY_N) {
		snprintf(err, errlen, "unknown replay kind %d", (int)o->kind);
		return -1;
	}
	rc = csv_open(&c, in, name, kind_cols[o->kind], err, errlen);
	if (rc == 0)
		rc = replay_rows(&c, o, out, err, errlen);
	csv_close(&c);
	if (rc < 0) {
		table_free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

/* coalesce on a capture: its packets' times are the arrivals. */
int replay_coalesce_pcap(const struct replay_opts *o, FILE *f, const char *name,
			 struct table **out, char *err, size_t errlen)
{
	struct coal_host h = { .service_ns = (int64_t)o->service_ns, .now_ns = INT64_MIN };
	struct pcap_trace *tr;
	struct coal_params p;
	uint64_t n = 0;
	uint32_t len;
	int64_t tn;
	int rc;

	*out = NULL;
	if (coal_config(o, &p, err, errlen) || pcap_trace_open(&tr, f, name, err, errlen)) {
		fclose(f); /* libpcap did not take it */
		return -1;
	}
	*out = coal_table_new();
	coal_init(&h.c, &p);
	while ((rc = pcap_trace_next(tr, &tn, &len, err, errlen)) == 1) {
		if (++n > REPLAY_MAX_ROWS) {
			snprintf(err, errlen, "%s: packet %llu (byte offset %ld): more than %llu packets; "
				 "a replay keeps its decisions in memory: split the capture", name,
				 (unsigned long long)n, pcap_trace_offset(tr), REPLAY_MAX_ROWS);
			rc = -1;
			break;
		}
		coal_run_until(&h, *out, tn);
		coal_complete(&h.c, tn);
		h.now_ns = tn;
	}
	if (rc == 0)
		coal_run_until(&h, *out, NEVER - 1);
	pcap_trace_close(tr);
	if (rc < 0) {
		table_free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}
