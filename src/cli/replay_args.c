/* replay_args.c - the options of `rxlab replay` (see replay_args.h).
 *
 * One table of numeric options with units (unit_parse_key), a few named
 * ones (--profile, --mode, --timer, --format) and the flag --pcap; each
 * kind is given only its own to the shared parser (opts.h).  An unknown
 * word takes the place of an option with a value, as it always did: the
 * last word is "missing value after", any other "unknown option".
 */
#include "cli/replay_args.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "model/units.h"
#include "rxlab/napi.h"

#define US 1000ull
#define MS (1000 * US)
#define SEC (1000 * MS)

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
		if (pick(replay_dim_tables, v, &i) == 0)
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
		 replay_kind_name(o->kind));
	return -1;
}


struct replay_args {
	struct replay_opts *o;
	const char **file;
	const char *last;	/* the last word */
	char *err;
	size_t errlen;
};

static int on_opt(void *ctx, const char *name, const char *val)
{
	struct replay_args *r = ctx;

	if (!val)	/* --pcap, coalesce only */
		return r->o->pcap = 1, 0;
	return set_opt(r->o, name, val, r->err, r->errlen) ? 2 : 0;
}

static int on_arg(void *ctx, const char *arg)
{
	struct replay_args *r = ctx;

	if (*r->file)
		return snprintf(r->err, r->errlen, "more than one input file: %s and %s", *r->file,
				arg), 2;
	*r->file = arg;
	return 0;
}

static int on_error(void *ctx, enum cli_error e, const char *word)
{
	struct replay_args *r = ctx;

	if (e == CLI_MISSING || word == r->last)
		snprintf(r->err, r->errlen, "missing value after %s", word);
	else
		snprintf(r->err, r->errlen, "unknown option %s for 'replay %s' (see docs/replay.md)",
			 word, replay_kind_name(r->o->kind));
	return 2;
}

/* The options of @k into @t (CLI_MAX_OPTS is enough for any kind). */
static void kind_opts(enum replay_kind k, struct cli_opt *t)
{
	size_t n = 0;

	t[n++] = (struct cli_opt){ "--format", true };
	if (k == REPLAY_DIM)
		t[n++] = (struct cli_opt){ "--profile", true };
	if (k == REPLAY_ITR)
		t[n++] = (struct cli_opt){ "--mode", true };
	if (k == REPLAY_COALESCE) {
		t[n++] = (struct cli_opt){ "--timer", true };
		t[n++] = (struct cli_opt){ "--pcap", false };
	}
	for (size_t i = 0; i < N_NUM_OPTS; i++)
		if (num_opts[i].kinds & K(k))
			t[n++] = (struct cli_opt){ num_opts[i].name, true };
	t[n] = (struct cli_opt){ NULL, false };
}

int replay_parse_args(struct replay_opts *o, int argc, char **argv, const char **file,
		      char *err, size_t errlen)
{
	struct cli_opt opts[CLI_MAX_OPTS + 1];
	const struct cli_spec spec = { .opts = opts, .usage = replay_usage, .dash_is_arg = true,
				       .on_opt = on_opt, .on_arg = on_arg, .on_error = on_error };
	struct replay_args r = { o, file, argc ? argv[argc - 1] : NULL, err, errlen };
	char **args = malloc(((size_t)argc + 2) * sizeof(*args));
	int rc;

	*file = NULL;
	if (!args)
		return snprintf(err, errlen, "out of memory"), -1;
	/* the parser's argv[0] is the command's name */
	args[0] = (char *)replay_kind_name(o->kind);
	memcpy(args + 1, argv, (size_t)argc * sizeof(*args));
	args[argc + 1] = NULL;
	kind_opts(o->kind, opts);
	rc = cli_parse(&spec, &r, argc + 1, args);
	free(args);
	if (rc)
		return rc == CLI_HELP ? 1 : -1;
	if (!*file) {
		snprintf(err, errlen, "replay %s needs an input file (or - for standard input)",
			 replay_kind_name(o->kind));
		return -1;
	}
	return 0;
}
