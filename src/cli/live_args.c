/* live_args.c - the options of `rxlab live` (see live_args.h): modes,
 * --set (loop keys checked on a scratch configuration, device knobs),
 * --pattern (timelines: live/timeline.h), numbers with units, --profile. */
#include "cli/live_args.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "model/profile_load.h"
#include "model/queue_keys.h"
#include "model/units.h"

static int bad(const char *msg, const char *arg)
{
	fprintf(stderr, "rxlab live: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
	fprintf(stderr, "try 'rxlab live --help'\n");
	return 2;
}

/* ---- modes ---------------------------------------------------------------- */

static int add_mode(struct live_opts *o, enum rxl_mode m)
{
	for (size_t i = 0; i < o->n_modes; i++)
		if (o->modes[i] == m)
			return 0;
	o->modes[o->n_modes++] = m;
	return 0;
}

static int add_group(struct live_opts *o, const char *name)
{
	bool all = !strcmp(name, "all"), user = !strcmp(name, "userspace");

	if (!all && !user && strcmp(name, "kernel"))
		return -1;
	for (int m = 0; m < RXL_MODE_COUNT; m++)
		if (all || rxl_mode_is_userspace((enum rxl_mode)m) == user)
			add_mode(o, (enum rxl_mode)m);
	return 0;
}

/* "napi,busy" or "all": each name a mode or a group. */
static int parse_modes(struct live_opts *o, const char *list)
{
	char buf[512], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		enum rxl_mode m;

		if (add_group(o, t) == 0)
			continue;
		if (rxl_mode_parse(t, &m)) {
			fprintf(stderr, "rxlab live: unknown mode '%s'; the modes are", t);
			for (int k = 0; k < RXL_MODE_COUNT; k++)
				fprintf(stderr, " %s", rxl_mode_name((enum rxl_mode)k));
			fprintf(stderr, ", and the groups all, userspace, kernel\n");
			return 2;
		}
		add_mode(o, m);
	}
	return 0;
}

/* ---- --set ---------------------------------------------------------------- */

/* ethtool's spelling of a device flag: dev.gro=on, dev.tso=off (ethtool -K
 * DEV gro on), dev.threaded=on/off or enabled/disabled/busy-poll as the
 * scenario key threaded reads them (model/queue_keys.h).  0 when @v is one. */
static int parse_knob_word(enum knob k, const char *key, const char *v, uint64_t *out)
{
	char msg[256];
	bool b;

	if (k == KNOB_THREADED)
		return queue_keys_threaded(key, v, out, msg, sizeof(msg));
	if (knob_max(k) != 1 || unit_parse_bool(v, &b))
		return -1;
	*out = b;
	return 0;
}

static int parse_knob_value(enum knob k, const char *key, const char *v, uint64_t *out)
{
	char msg[256];

	if (unit_parse(UNIT_COUNT, v, out, NULL, 0) == UNIT_OK && *out <= knob_max(k))
		return 0;
	if (parse_knob_word(k, key, v, out) == 0)
		return 0;
	if (knob_is_time(k) &&
	    unit_parse_key(UNIT_TIME_NS, key, v, 0, knob_max(k), NULL, out, msg, sizeof(msg)) == 0)
		return 0;
	if (knob_is_time(k))
		fprintf(stderr, "rxlab live: --set %s=%s: %s\n", key, v, msg);
	else
		fprintf(stderr, "rxlab live: --set %s=%s: out of range (accepted: 0..%" PRIu64 ")\n",
			key, v, knob_max(k));
	return 2;
}

/* A device knob (dev.KEY, or a sysfs name the loop does not know), or a
 * loop key checked on a scratch configuration now, so that a typo fails
 * before any test bed is built. */
static int parse_set(struct live_opts *o, const char *s)
{
	const char *eq = strchr(s, '=');
	char key[64], err[1400];
	struct rxl_config scratch;
	bool dev = !strncmp(s, "dev.", 4);
	enum knob k;

	if (!eq || eq == s)
		return bad("--set takes KEY=VALUE, not", s);
	snprintf(key, sizeof(key), "%.*s", (int)(eq - s) - (dev ? 4 : 0), s + (dev ? 4 : 0));
	rxl_config_default(&scratch, RXL_MODE_NAPI);
	if (!dev && rxl_config_set(&scratch, key, eq + 1, err, sizeof(err)) == 0) {
		if (o->job.n_sets == LIVE_MAX_SETS)
			return bad("too many --set options (at most 64)", NULL);
		o->sets[o->job.n_sets++] = s;
		return 0;
	}
	if (!dev && strncmp(err, "unknown key", 11) != 0)
		return fprintf(stderr, "rxlab live: --set %s\n", err), 2;
	if (knob_parse(key, &k)) {
		fprintf(stderr, "rxlab live: --set: %s\n",
			dev ? "unknown device setting (accepted: dev.napi_defer_hard_irqs, "
			      "dev.gro_flush_timeout, dev.irq-suspend-timeout, dev.threaded, "
			      "dev.gro, dev.tso)" : err);
		return 2;
	}
	if (o->job.n_knobs == KNOBS_MAX)
		return bad("too many device settings", NULL);
	o->job.knobs[o->job.n_knobs].k = k;
	return parse_knob_value(k, key, eq + 1, &o->job.knobs[o->job.n_knobs++].v);
}

/* ---- --pattern ------------------------------------------------------------ */

static int parse_onoff(struct sender_config *c, const char *spec)
{
	char on[32], off[32], msg[256];
	uint64_t a, b;

	if (sscanf(spec, "%31[^/]/%31s", on, off) != 2)
		return bad("--pattern onoff takes onoff:ON/OFF, e.g. onoff:10ms/40ms, not", spec);
	if (unit_parse_key(UNIT_TIME_NS, "on", on, 1000, 3600000000000ull, NULL, &a, msg,
			   sizeof(msg)) ||
	    unit_parse_key(UNIT_TIME_NS, "off", off, 0, 3600000000000ull, NULL, &b, msg,
			   sizeof(msg)))
		return bad(msg, NULL);
	c->pattern = SEND_ONOFF;
	c->on_ns = (int64_t)a;
	c->off_ns = (int64_t)b;
	return 0;
}

static int load_timeline(struct live_opts *o, const char *path, bool pcap)
{
	char err[512];
	int rc;

	timeline_free(&o->tl);
	rc = timeline_load(&o->tl, path, pcap, o->job.snd.payload_bytes, err, sizeof(err));
	if (rc == -2)
		return bad(err, NULL);
	if (rc)
		return fprintf(stderr, "rxlab live: %s\n", err), 2;
	o->job.snd.pattern = SEND_TIMELINE;
	o->job.snd.times_ns = o->tl.times_ns;
	o->job.snd.lens = o->tl.lens;
	o->job.snd.n_times = o->tl.n;
	return 0;
}

static int parse_pattern(struct live_opts *o, const char *v)
{
	if (!strcmp(v, "constant"))
		o->job.snd.pattern = SEND_CONSTANT;
	else if (!strcmp(v, "poisson"))
		o->job.snd.pattern = SEND_POISSON;
	else if (!strncmp(v, "onoff:", 6))
		return parse_onoff(&o->job.snd, v + 6);
	else if (!strncmp(v, "csv:", 4))
		return load_timeline(o, v + 4, false);
	else if (!strncmp(v, "pcap:", 5))
		return load_timeline(o, v + 5, true);
	else
		return bad("--pattern takes constant, poisson, onoff:ON/OFF, csv:FILE or "
			   "pcap:FILE, not", v);
	return 0;
}

/* ---- numbers -------------------------------------------------------------- */

static int parse_num(const char *opt, enum unit_kind kind, const char *v, uint64_t min,
		     uint64_t max, uint64_t *out)
{
	char msg[256];

	if (unit_parse_key(kind, opt, v, min, max, NULL, out, msg, sizeof(msg)))
		return bad(msg, NULL);
	return 0;
}

static int parse_rate(struct live_opts *o, const char *v, bool *max)
{
	uint64_t pps;

	if (!strcmp(v, "max")) {
		*max = true;
		return 0;
	}
	if (parse_num("--rate", UNIT_PPS, v, 1, 100000000, &pps))
		return 2;
	*max = false;
	o->job.snd.rate_pps = (double)pps;
	return 0;
}

static int parse_cpu(const char *opt, const char *v, int *cpu)
{
	uint64_t x;

	if (parse_num(opt, UNIT_COUNT, v, 0, 1023, &x))
		return 2;
	*cpu = (int)x;
	return 0;
}

/* ---- options -------------------------------------------------------------- */

static const struct cli_opt live_opts_table[] = {
	{ "--rate", true }, { "--pattern", true }, { "--duration", true }, { "--size", true },
	{ "--batch", true }, { "--seed", true }, { "--set", true }, { "--iface", true },
	{ "--port", true }, { "--rx-cpu", true }, { "--tx-cpu", true }, { "--profile", true },
	{ "--format", true }, { "--allow-host-iface", false }, { "--no-threaded", false },
	{ "--compare-sim", false }, { "--queues", true }, { NULL, false },
};

static int parse_sized(struct live_opts *o, const char *a, const char *v)
{
	struct sender_config *s = &o->job.snd;
	uint64_t x;

	if (!strcmp(a, "--duration")) {
		if (parse_num(a, UNIT_TIME_NS, v, 10000000, 600000000000ull, &x))
			return 2;
		s->duration_ns = (int64_t)x;
		o->duration_given = true;
	} else if (!strcmp(a, "--size")) {
		if (parse_num(a, UNIT_BYTES, v, 24, 1472, &x))
			return 2;
		s->payload_bytes = (uint32_t)x;
	} else if (!strcmp(a, "--batch")) {
		if (parse_num(a, UNIT_COUNT, v, 1, 256, &x))
			return 2;
		s->batch = (uint32_t)x;
	} else if (!strcmp(a, "--seed")) {
		if (parse_num(a, UNIT_COUNT, v, 0, UINT64_MAX, &x))
			return 2;
		s->seed = x;
	} else if (!strcmp(a, "--queues")) {
		if (parse_num(a, UNIT_COUNT, v, 1, LIVE_MAX_QUEUES, &x))
			return 2;
		o->job.queues = (int)x;
	} else if (!strcmp(a, "--port")) {
		if (parse_num(a, UNIT_COUNT, v, 1, 65535, &x))
			return 2;
		o->job.port = (uint16_t)x;
	} else {
		return -1;
	}
	return 0;
}

static int set_iface(struct live_opts *o, const char *v)
{
	char err[400];

	if (rxl_ifname_check(v, err, sizeof(err))) {
		fprintf(stderr, "rxlab live: --iface: %s\n", err);
		return 2;
	}
	o->job.iface = v;
	return 0;
}

static int parse_opt(struct live_opts *o, const char *a, const char *v, bool *max)
{
	int rc = parse_sized(o, a, v);

	if (rc >= 0)
		return rc;
	if (!strcmp(a, "--rate"))
		return parse_rate(o, v, max);
	if (!strcmp(a, "--pattern"))
		return parse_pattern(o, v);
	if (!strcmp(a, "--set"))
		return parse_set(o, v);
	if (!strcmp(a, "--iface"))
		return set_iface(o, v);
	if (!strcmp(a, "--allow-host-iface"))
		return (o->allow_host_iface = true), 0;
	if (!strcmp(a, "--rx-cpu"))
		return parse_cpu(a, v, &o->job.rx_cpu);
	if (!strcmp(a, "--tx-cpu"))
		return parse_cpu(a, v, &o->job.tx_cpu);
	if (!strcmp(a, "--profile"))
		return (o->profile = v), (o->profile_given = true), 0;
	if (!strcmp(a, "--format"))
		return out_format_parse(v, &o->fmt) ? bad("--format takes table, csv or json, not", v) : 0;
	if (!strcmp(a, "--no-threaded"))
		return (o->job.threaded = false), 0;
	return (o->compare_sim = true), 0;	/* --compare-sim */
}

/* --profile: only with --compare-sim, and read now, so that a missing or
 * bad file fails before any test bed is built. */
static int check_profile(const struct live_opts *o)
{
	struct profile p;
	char err[1024];
	int rc;

	if (o->profile_given && !o->compare_sim)
		return bad("--profile applies to --compare-sim (the simulator's cost profile)", NULL);
	rc = profile_load(&p, o->profile, err, sizeof(err));
	if (rc == -ENOENT)
		fprintf(stderr, "rxlab live: --profile %s: %s (%s)\n", o->profile, strerror(ENOENT),
			err);
	else if (rc)
		fprintf(stderr, "rxlab live: --profile %s: %s\n", o->profile, err);
	return rc ? 2 : 0;
}

static int on_opt(void *ctx, const char *name, const char *val)
{
	struct live_opts *o = ctx;

	return parse_opt(o, name, val, &o->rate_max);
}

static int on_arg(void *ctx, const char *arg)
{
	return parse_modes(ctx, arg);
}

static int on_error(void *ctx, enum cli_error e, const char *word)
{
	(void)ctx;
	return bad(e == CLI_MISSING ? "missing value after" : "unknown option", word);
}

/* --queues N: each queue needs its NAPI kthread and receive thread on a
 * core of its own, which only the test bed's threaded NAPI gives, and its
 * own UDP socket (not TPACKET or AF_XDP).  More queues than online CPUs
 * would put two queues' threads on one core and measure the scheduler,
 * not the queues: refused.  As many queues as CPUs puts one beside the
 * sender: said (on a 2-core machine, 2 is the honest maximum). */
static int check_queues(const struct live_opts *o)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char msg[256];

	if (o->job.queues <= 1)
		return 0;
	if (o->job.iface)
		return bad("--queues builds the test bed's veth queues; it does not go with", "--iface");
	if (!o->job.threaded)
		return bad("--queues needs threaded NAPI (each queue's kthread on its own CPU steers "
			   "its packets to its thread); it does not go with", "--no-threaded");
	for (size_t i = 0; i < o->n_modes; i++)
		if (o->modes[i] == RXL_MODE_TPACKET || o->modes[i] == RXL_MODE_AF_XDP)
			return bad("--queues gives each queue a UDP socket; not for mode",
				   rxl_mode_name(o->modes[i]));
	if (ncpu > 0 && o->job.queues > ncpu) {
		snprintf(msg, sizeof(msg), "--queues %d: this machine has %ld CPUs, and each queue "
			 "needs a core of its own for its NAPI kthread and receive thread (more would "
			 "measure the scheduler, not the queues); accepted 1..%ld", o->job.queues, ncpu,
			 ncpu);
		return bad(msg, NULL);
	}
	if (ncpu > 0 && o->job.queues == ncpu)
		fprintf(stderr, "rxlab live: note: --queues %d on %ld CPUs: the last queue's NAPI "
			"kthread and receive thread share CPU %d with the sender (%ld queues are the "
			"honest maximum here)\n", o->job.queues, ncpu, o->job.tx_cpu, ncpu);
	return 0;
}

int live_parse_args(struct live_opts *o, int argc, char **argv)
{
	const struct cli_spec spec = { .opts = live_opts_table, .usage = live_usage,
				       .on_opt = on_opt, .on_arg = on_arg, .on_error = on_error };
	bool max;
	char err[256];
	int rc = cli_parse(&spec, o, argc, argv);

	if (rc)
		return rc;
	max = o->rate_max;
	if (max && o->job.snd.pattern != SEND_CONSTANT)
		return bad("--rate max goes with the constant pattern only", NULL);
	if (max)
		o->job.snd.pattern = SEND_MAX;
	/* A timeline lasts as long as its packets unless --duration cuts it. */
	if (o->job.snd.pattern == SEND_TIMELINE && !o->duration_given)
		o->job.snd.duration_ns = o->tl.times_ns[o->tl.n - 1] + 1000000;
	if (o->n_modes == 0)
		add_mode(o, RXL_MODE_NAPI);
	if (o->job.rx_cpu == o->job.tx_cpu)
		fprintf(stderr, "rxlab live: note: sender and receiver share CPU %d\n", o->job.rx_cpu);
	if (sender_config_check(&o->job.snd, err, sizeof(err)))
		return bad(err, NULL);
	if (check_queues(o))
		return 2;
	return check_profile(o);
}
