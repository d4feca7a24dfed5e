/* replay.c - core mechanisms on recorded inputs (see replay/replay.h).
 *
 * Roadmap of src/replay:
 *   csv.c        the shared reader: header check, exact unsigned integers,
 *                time order, "file:line: column 'x': ..." messages
 *   dim.c, itr.c, adaptive.c, coalesce.c, defer.c
 *                one replay per src/core module (replay/mechanisms.h)
 *   replay.c     the options (one table of numeric options with units,
 *                unit_parse_key, and a few named ones: --profile, --mode,
 *                --timer, --format), replay_run() picking the mechanism
 *                by kind, replay_coalesce_pcap(), replay_main()
 *
 * Each replay drives the core exactly as the simulator does (src/sim/nic.c,
 * src/sim/adaptive.c) so that the two can be compared decision by decision;
 * nothing here decides anything the core does not.
 */
#include "replay/replay.h"

#include <stdbool.h>
#include <string.h>

#include "model/trace_pcap.h"
#include "model/units.h"
#include "io/infile.h"
#include "replay/mechanisms.h"
#include "rxlab/napi.h"

/* ---- options ----------------------------------------------------------- */

#define K(k) (1u << (k))
#define K_RX (K(REPLAY_ADAPTIVE) | K(REPLAY_COALESCE))

/* A numeric option: stored in the uint64_t at @off of struct replay_opts.
 * @bare_ns: a bare number is nanoseconds (options named *-ns); otherwise
 * the unit kind decides (UNIT_TIME_US: bare = us, as ethtool reads it). */
struct num_opt {
	unsigned kinds;
	const char *name;
	enum unit_kind unit;
	bool bare_ns;
	uint64_t min, max;
	const char *noun;
	size_t off;
};

#define O(f) offsetof(struct replay_opts, f)
static const struct num_opt num_opts[] = {
	{ K(REPLAY_DIM), "--start-ix", UNIT_COUNT, false, 0, DIM_NUM_PROFILES - 1, NULL,
	  O(start_ix) },
	{ K(REPLAY_ITR), "--speed", UNIT_BPS, false, 1000000, 800000000000ull, NULL, O(link_bps) },
	{ K(REPLAY_ADAPTIVE), "--pkt-rate-low", UNIT_PPS, false, 0, 1000000000, NULL,
	  O(pkt_rate_low_pps) },
	{ K(REPLAY_ADAPTIVE), "--pkt-rate-high", UNIT_PPS, false, 0, 1000000000, NULL,
	  O(pkt_rate_high_pps) },
	{ K(REPLAY_ADAPTIVE), "--rx-usecs-low", UNIT_TIME_US, false, 0, 10 * SEC, NULL,
	  O(rx_usecs_low_ns) },
	{ K(REPLAY_ADAPTIVE), "--rx-frames-low", UNIT_COUNT, false, 0, 65535, "frames",
	  O(rx_frames_low) },
	{ K_RX, "--rx-usecs", UNIT_TIME_US, false, 0, 10 * SEC, NULL, O(rx_usecs_ns) },
	{ K_RX, "--rx-frames", UNIT_COUNT, false, 0, 65535, "frames", O(rx_frames) },
	{ K(REPLAY_ADAPTIVE), "--rx-usecs-high", UNIT_TIME_US, false, 0, 10 * SEC, NULL,
	  O(rx_usecs_high_ns) },
	{ K(REPLAY_ADAPTIVE), "--rx-frames-high", UNIT_COUNT, false, 0, 65535, "frames",
	  O(rx_frames_high) },
	{ K(REPLAY_ADAPTIVE), "--sample-interval", UNIT_TIME_NS, false, 1 * MS, 3600 * SEC, NULL,
	  O(sample_interval_ns) },
	{ K(REPLAY_COALESCE), "--rx-usecs-irq", UNIT_TIME_US, false, 0, 10 * SEC, NULL,
	  O(rx_usecs_irq_ns) },
	{ K(REPLAY_COALESCE), "--rx-frames-irq", UNIT_COUNT, false, 0, 65535, "frames",
	  O(rx_frames_irq) },
	{ K(REPLAY_COALESCE), "--itr-ns", UNIT_TIME_NS, true, 0, 100 * MS, NULL, O(itr_ns) },
	{ K(REPLAY_COALESCE), "--rdtr", UNIT_COUNT, false, 0, 65535, "x 1.024 us", O(rdtr) },
	{ K(REPLAY_COALESCE), "--radv", UNIT_COUNT, false, 0, 65535, "x 1.024 us", O(radv) },
	{ K(REPLAY_COALESCE), "--service-ns", UNIT_TIME_NS, true, 0, 10 * SEC, NULL,
	  O(service_ns) },
	{ K(REPLAY_DEFER), "--napi-defer-hard-irqs", UNIT_COUNT, false, 0, INT32_MAX, NULL,
	  O(defer_hard_irqs) },
	{ K(REPLAY_DEFER), "--gro-flush-timeout", UNIT_TIME_NS, false, 0, 10 * SEC, NULL,
	  O(gro_flush_timeout_ns) },
	{ K(REPLAY_DEFER), "--weight", UNIT_COUNT, false, 1, NAPI_POLL_WEIGHT, NULL, O(weight) },
};
#define N_NUM_OPTS (sizeof(num_opts) / sizeof(num_opts[0]))

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

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

static int set_num(struct replay_opts *o, const struct num_opt *d, const char *v, char *err,
		   size_t errlen)
{
	uint64_t *dst = (uint64_t *)(void *)((char *)o + d->off);
	uint64_t x;

	if (d->bare_ns && all_digits(v)) {
		/* "--itr-ns 2048": the option's name gives the unit. */
		if (unit_parse_key(UNIT_COUNT, d->name, v, d->min, d->max, "ns", &x, err, errlen))
			return -1;
	} else if (unit_parse_key(d->unit, d->name, v, d->min, d->max, d->noun, &x, err, errlen)) {
		return -1;
	}
	*dst = x;
	if (!strcmp(d->name, "--rx-usecs") || !strcmp(d->name, "--rx-frames"))
		o->rx_given = 1;
	return 0;
}

static int pick(const char *const *names, const char *v, int *out)
{
	for (int i = 0; names[i]; i++) {
		if (!strcmp(names[i], v)) {
			*out = i;
			return 0;
		}
	}
	return -1;
}

/* --mode: an InterruptThrottleRate value, or fixed:N for a fixed rate. */
static int set_itr_mode(struct replay_opts *o, const char *v, char *err, size_t errlen)
{
	const char *num = strncmp(v, "fixed:", 6) ? v : v + 6;
	const char *why = "";
	uint64_t x;

	if (!all_digits(num) || unit_parse(UNIT_COUNT, num, &x, NULL, 0) || x > UINT32_MAX ||
	    itr_from_param((uint32_t)x, &o->itr, &why) || (num != v && o->itr.mode != ITR_FIXED)) {
		snprintf(err, errlen, "--mode %s: accepted 0 (off), 1 (dynamic), 3 (dynamic "
			 "conservative), 4 (simplified) or fixed:N with N 100..100000 ints/s", v);
		return -1;
	}
	return 0;
}

/* The options that take a name rather than a number. */
static int set_named(struct replay_opts *o, const char *a, const char *v, char *err,
		     size_t errlen)
{
	static const char *const timers[] = { "absolute", "restart", NULL };
	int i;

	if (!strcmp(a, "--format")) {
		if (out_format_parse(v, &o->fmt) == 0)
			return 0;
		snprintf(err, errlen, "--format %s: accepted table, csv or json", v);
	} else if (!strcmp(a, "--profile") && o->kind == REPLAY_DIM) {
		if (pick(table_names, v, &i) == 0)
			return o->dim_table = (enum dim_table)i, 0;
		snprintf(err, errlen, "--profile %s: accepted rx-eqe, rx-cqe, tx-eqe or tx-cqe", v);
	} else if (!strcmp(a, "--timer") && o->kind == REPLAY_COALESCE) {
		if (pick(timers, v, &i) == 0)
			return o->timer = (enum coal_timer_mode)i, o->rx_given = 1, 0;
		snprintf(err, errlen, "--timer %s: accepted absolute or restart", v);
	} else if (!strcmp(a, "--mode") && o->kind == REPLAY_ITR) {
		return set_itr_mode(o, v, err, errlen);
	} else {
		return 1;
	}
	return -1;
}

/* One option with value @v; 0, -1 with a message. */
static int set_opt(struct replay_opts *o, const char *a, const char *v, char *err, size_t errlen)
{
	int rc = set_named(o, a, v, err, errlen);

	if (rc <= 0)
		return rc;
	for (size_t i = 0; i < N_NUM_OPTS; i++)
		if ((num_opts[i].kinds & K(o->kind)) && !strcmp(num_opts[i].name, a))
			return set_num(o, &num_opts[i], v, err, errlen);
	snprintf(err, errlen, "unknown option %s for 'replay %s' (see docs/replay.md)", a,
		 kind_names[o->kind]);
	return -1;
}

int replay_parse_args(struct replay_opts *o, int argc, char **argv, const char **file,
		      char *err, size_t errlen)
{
	*file = NULL;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--pcap") && o->kind == REPLAY_COALESCE) {
			o->pcap = 1;
		} else if (a[0] == '-' && a[1] != '\0') {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "missing value after %s", a);
				return -1;
			}
			if (set_opt(o, a, argv[++i], err, errlen))
				return -1;
		} else if (*file) {
			snprintf(err, errlen, "more than one input file: %s and %s", *file, a);
			return -1;
		} else {
			*file = a;
		}
	}
	if (!*file) {
		snprintf(err, errlen, "replay %s needs an input file (or - for standard input)",
			 kind_names[o->kind]);
		return -1;
	}
	return 0;
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

static int replay_usage(const char *msg)
{
	fprintf(stderr, "rxlab: %s\n", msg);
	fprintf(stderr, "usage: rxlab replay dim|itr|adaptive|coalesce|defer [OPTIONS] FILE.csv|-\n"
			"       rxlab replay coalesce [OPTIONS] CAPTURE.pcap (or --pcap FILE|-)\n"
			"see docs/replay.md\n");
	return 2;
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

static int replay_file(const struct replay_opts *o, const char *file, char *err, size_t errlen)
{
	bool stdin_ = !strcmp(file, "-");
	bool capture = o->kind == REPLAY_COALESCE && (o->pcap || pcap_trace_is_capture_name(file));
	struct table *t = NULL;
	struct report *rep;
	int rc;
	/* a FIFO is a stream like standard input (it waits for its writer);
	 * a character device is read bounded (/dev/zero stops at its first
	 * byte), a block device or a socket is refused before any read */
	FILE *f = stdin_ ? stdin : infile_open(file, INFILE_STREAM, "a replay input is a regular "
					       "file or a stream (a pipe, a FIFO, -)", NULL, err,
					       errlen);

	if (!f)
		return -1;
	if (capture) {
		rc = replay_coalesce_pcap(o, f, stdin_ ? "<stdin>" : file, &t, err, errlen);
	} else {
		rc = replay_run(o, f, stdin_ ? "<stdin>" : file, &t, err, errlen);
		if (!stdin_)
			fclose(f);
	}
	if (rc)
		return -1;
	rep = report_new();
	report_add(rep, t);
	report_print(rep, stdout, o->fmt);
	report_free(rep);
	return 0;
}

int replay_main(int argc, char **argv)
{
	struct replay_opts o;
	enum replay_kind k;
	const char *file;
	char err[1024];

	if (argc < 1)
		return replay_usage("replay needs a kind");
	if (replay_kind_parse(argv[0], &k)) {
		snprintf(err, sizeof(err), "unknown replay kind '%.40s'; accepted dim, itr, "
			 "adaptive, coalesce or defer", argv[0]);
		return replay_usage(err);
	}
	replay_opts_default(&o, k);
	if (replay_parse_args(&o, argc - 1, argv + 1, &file, err, sizeof(err)))
		return replay_usage(err);
	if (replay_file(&o, file, err, sizeof(err))) {
		fprintf(stderr, "rxlab: %s\n", err);
		return 2;
	}
	return 0;
}
