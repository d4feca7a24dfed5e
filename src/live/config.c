/* config.c - mode names, defaults and the key = value setter of struct
 * rxl_config (include/rxlab/live.h).  One table holds every key with its
 * field, unit and accepted range, so the error messages, the defaults and
 * the documentation cannot drift apart. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "live/policy.h"
#include "rxlab/live.h"

static const char *const mode_names[RXL_MODE_COUNT] = {
	[RXL_MODE_INTERRUPT] = "interrupt",   [RXL_MODE_COALESCE] = "coalesce",
	[RXL_MODE_NAPI] = "napi",             [RXL_MODE_DIM] = "dim",
	[RXL_MODE_ITR] = "itr",               [RXL_MODE_BSD_POLL] = "bsd-poll",
	[RXL_MODE_BUSY] = "busy",             [RXL_MODE_HYBRID] = "hybrid",
	[RXL_MODE_DPDK_POWER] = "dpdk-power", [RXL_MODE_IXY] = "ixy",
	[RXL_MODE_SEASTAR] = "seastar",       [RXL_MODE_EPOLL] = "epoll",
	[RXL_MODE_SO_BUSY_POLL] = "so-busy-poll", [RXL_MODE_PREFER_BUSY] = "prefer-busy",
	[RXL_MODE_IRQ_SUSPEND] = "irq-suspend", [RXL_MODE_THREADED] = "threaded",
	[RXL_MODE_TPACKET] = "tpacket",       [RXL_MODE_AF_XDP] = "af-xdp",
};

const char *rxl_mode_name(enum rxl_mode m)
{
	return (unsigned)m < RXL_MODE_COUNT ? mode_names[m] : "?";
}

int rxl_mode_parse(const char *name, enum rxl_mode *out)
{
	for (int m = 0; m < RXL_MODE_COUNT; m++) {
		if (strcmp(name, mode_names[m]) == 0) {
			*out = (enum rxl_mode)m;
			return 0;
		}
	}
	return -1;
}

bool rxl_mode_is_userspace(enum rxl_mode m)
{
	return m <= RXL_MODE_SEASTAR;
}

bool rxl_mode_sched_fifo(enum rxl_mode m)
{
	switch (m) {
	case RXL_MODE_BUSY:
	case RXL_MODE_DPDK_POWER:
	case RXL_MODE_IXY:
	case RXL_MODE_SEASTAR:
	case RXL_MODE_SO_BUSY_POLL:
	case RXL_MODE_PREFER_BUSY:
	case RXL_MODE_IRQ_SUSPEND:
		return false;
	case RXL_MODE_INTERRUPT:
	case RXL_MODE_COALESCE:
	case RXL_MODE_NAPI:
	case RXL_MODE_DIM:
	case RXL_MODE_ITR:
	case RXL_MODE_BSD_POLL:
	case RXL_MODE_HYBRID:
	case RXL_MODE_EPOLL:
	case RXL_MODE_THREADED:
	case RXL_MODE_TPACKET:
	case RXL_MODE_AF_XDP:
	case RXL_MODE_COUNT:
		break;
	}
	return true;
}

enum key_type { KT_U32, KT_U64, KT_NS, KT_BOOL };

struct key_def {
	const char *key;
	enum key_type type;
	size_t off;
	uint64_t min, max;
};

#define K(name, t, field, lo, hi) { name, t, offsetof(struct rxl_config, field), lo, hi }
static const struct key_def keys[] = {
	K("budget", KT_U32, budget, 1, 1024),
	K("max-pkt-bytes", KT_U32, max_pkt_bytes, 64, 65536),
	K("rcvbuf", KT_U32, rcvbuf_bytes, 0, 1u << 30),
	K("rx-usecs", KT_U32, rx_usecs, 0, 1000000),
	K("rx-frames", KT_U32, rx_frames, 0, 1024),
	K("itr", KT_U32, itr, 0, 100000),
	K("napi-defer-hard-irqs", KT_U32, napi_defer_hard_irqs, 0, 1000),
	K("napi-gro-flush-timeout", KT_NS, napi_gro_flush_timeout_ns, 0, 100000000),
	K("hz", KT_U32, hz, 100, 100000),
	K("burst-max", KT_U32, burst_max, 10, 1000),
	K("each-burst", KT_U32, each_burst, 1, 1000),
	K("user-frac", KT_U32, user_frac, 0, 99),
	K("wake-cost", KT_NS, wake_cost_ns, 1000, 10000000),
	K("spin-max", KT_NS, spin_max_ns, 0, 100000000),
	K("spin-yield", KT_BOOL, spin_yield, 0, 1),
	K("nap-max", KT_NS, nap_max_ns, 0, 100000000),
	K("dpdk-pause-polls", KT_U32, dpdk_pause_polls, 0, 1000000),
	K("dpdk-sleep-polls", KT_U32, dpdk_sleep_polls, 1, 10000000),
	K("dpdk-pause", KT_NS, dpdk_pause_ns, 0, 1000000),
	K("ixy-threshold-pps", KT_U64, ixy_threshold_pps, 0, 1000000000),
	K("ixy-samples", KT_U32, ixy_samples, 1, 64),
	K("ixy-interval", KT_NS, ixy_interval_ns, 1000000, 10000000000ull),
	K("seastar-idle-poll", KT_NS, seastar_idle_poll_ns, 0, 1000000000),
	K("busy-poll-usecs", KT_U32, busy_poll_usecs, 0, 1000000),
	K("busy-poll-budget", KT_U32, busy_poll_budget, 1, 65535),
	K("prefer-busy-poll", KT_BOOL, prefer_busy_poll, 0, 1),
	K("irq-suspend-timeout", KT_NS, irq_suspend_timeout_ns, 0, 1000000000000ull),
	K("tp-block-bytes", KT_U32, tp_block_bytes, 4096, 4194304),
	K("tp-blocks", KT_U32, tp_blocks, 2, 1024),
	K("tp-block-timeout", KT_U32, tp_block_timeout_ms, 1, 1000),
	K("xdp-frames", KT_U32, xdp_frames, 64, 65536),
	K("xdp-need-wakeup", KT_BOOL, xdp_need_wakeup, 0, 1),
	K("xdp-skb-mode", KT_BOOL, xdp_skb_mode, 0, 1),
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

void rxl_config_default(struct rxl_config *c, enum rxl_mode m)
{
	memset(c, 0, sizeof(*c));
	c->mode = m;
	c->budget = 64;
	c->max_pkt_bytes = 2048;
	c->rx_usecs = 50;
	c->rx_frames = 32;
	c->itr = 3;
	c->hz = 1000;
	c->burst_max = 150;
	c->each_burst = 5;
	c->user_frac = 50;
	c->wake_cost_ns = 20000; /* see docs/live-library.md, "The hybrid switch" */
	c->spin_max_ns = 200000;
	c->spin_yield = true;
	c->nap_max_ns = 50000; /* the latency bound of coalesce's default rx-usecs */
	c->dpdk_pause_polls = 10;
	c->dpdk_sleep_polls = 300;
	c->dpdk_pause_ns = 1000;
	c->ixy_threshold_pps = 1200000;
	c->ixy_samples = 5;
	c->ixy_interval_ns = 1000000000;
	c->seastar_idle_poll_ns = 200000;
	/* IRQ suspension busy-polls from epoll through prefer_busy_poll alone
	 * (napi.rst "IRQ suspension"; epoll makes one non-blocking pass even
	 * at busy_poll_usecs 0 since the series that added it): no spin time,
	 * as the scheme registry defines suspend. */
	c->busy_poll_usecs = m == RXL_MODE_IRQ_SUSPEND ? 0 : 50;
	c->busy_poll_budget = 64;
	c->prefer_busy_poll = m == RXL_MODE_PREFER_BUSY || m == RXL_MODE_IRQ_SUSPEND;
	c->tp_block_bytes = 1u << 20;
	c->tp_blocks = 8;
	c->tp_block_timeout_ms = 1;
	c->xdp_frames = 4096;
	c->xdp_need_wakeup = true;
	c->xdp_skb_mode = true;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* A nanosecond value with an optional unit suffix. */
static int parse_ns(const char *v, uint64_t *out)
{
	static const struct { const char *sfx; uint64_t mul; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	char *end;
	errno = 0;
	if (*v < '0' || *v > '9')
		return -1;
	unsigned long long x = strtoull(v, &end, 10);
	if (errno)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].sfx) == 0) {
			if (x > UINT64_MAX / units[i].mul)
				return -1;
			*out = x * units[i].mul;
			return 0;
		}
	}
	return -1;
}

static int parse_value(const struct key_def *k, const char *v, uint64_t *out)
{
	if (k->type == KT_BOOL) {
		static const char *const t[] = { "1", "true", "on", "yes" };
		static const char *const f[] = { "0", "false", "off", "no" };
		for (int i = 0; i < 4; i++) {
			if (strcasecmp(v, t[i]) == 0) { *out = 1; return 0; }
			if (strcasecmp(v, f[i]) == 0) { *out = 0; return 0; }
		}
		return -1;
	}
	if (k->type == KT_NS)
		return parse_ns(v, out);
	char *end;
	errno = 0;
	if (*v < '0' || *v > '9')
		return -1;
	unsigned long long x = strtoull(v, &end, 10);
	if (errno || *end)
		return -1;
	*out = x;
	return 0;
}

static void store(struct rxl_config *c, const struct key_def *k, uint64_t x)
{
	char *p = (char *)c + k->off;
	switch (k->type) {
	case KT_U32: { uint32_t v = (uint32_t)x; memcpy(p, &v, sizeof v); break; }
	case KT_U64:
	case KT_NS: memcpy(p, &x, sizeof x); break;
	case KT_BOOL: { bool v = x != 0; memcpy(p, &v, sizeof v); break; }
	}
}

static uint64_t load(const struct rxl_config *c, const struct key_def *k)
{
	const char *p = (const char *)c + k->off;
	switch (k->type) {
	case KT_U32: { uint32_t v; memcpy(&v, p, sizeof v); return v; }
	case KT_U64:
	case KT_NS: { uint64_t v; memcpy(&v, p, sizeof v); return v; }
	case KT_BOOL: { bool v; memcpy(&v, p, sizeof v); return v; }
	}
	return 0;
}

static void key_list(char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = 0;
	for (size_t i = 0; i < NKEYS && at + 1 < len; i++) {
		int n = snprintf(buf + at, len - at, "%s%s", i ? ", " : "", keys[i].key);
		if (n < 0)
			break;
		at += (size_t)n;
	}
}

int rxl_config_set(struct rxl_config *c, const char *key, const char *value, char *err,
		   size_t errlen)
{
	if (strcmp(key, "policy") == 0)
		return live_policy_set(c, value, err, errlen);
	for (size_t i = 0; i < NKEYS; i++) {
		const struct key_def *k = &keys[i];
		if (strcmp(key, k->key) != 0)
			continue;
		uint64_t x;
		const char *unit = k->type == KT_NS ? " ns (suffix ns, us, ms or s)"
			: k->type == KT_BOOL ? " (0/1, true/false, on/off)" : "";
		if (parse_value(k, value, &x) != 0 || x < k->min || x > k->max)
			return fail(err, errlen, "%s: '%s' out of range (accepted: %" PRIu64 "..%" PRIu64 "%s)",
				    key, value, k->min, k->max, unit);
		store(c, k, x);
		return 0;
	}
	char list[1024];
	key_list(list, sizeof list);
	return fail(err, errlen, "unknown key '%s' (accepted: %s)", key, list);
}

static bool pow2(uint32_t x)
{
	return x && !(x & (x - 1));
}

int rxl_config_check(const struct rxl_config *c, char *err, size_t errlen)
{
	const char *why;

	if ((unsigned)c->mode >= RXL_MODE_COUNT)
		return fail(err, errlen, "mode: %d is not a receive mode", (int)c->mode);
	/* every field in its key's range, for callers that fill the struct
	 * themselves */
	for (size_t i = 0; i < NKEYS; i++) {
		uint64_t v = load(c, &keys[i]);
		if (v < keys[i].min || v > keys[i].max)
			return fail(err, errlen, "%s: %" PRIu64 " out of range (accepted: %" PRIu64 "..%" PRIu64 ")",
				    keys[i].key, v, keys[i].min, keys[i].max);
	}
	if ((c->mode == RXL_MODE_COALESCE || c->mode == RXL_MODE_DIM) && c->rx_usecs == 0 &&
	    c->rx_frames == 0)
		return fail(err, errlen, "rx-usecs and rx-frames are both 0 (set rx-frames 1 for no coalescing)");
	if (c->policy && rxl_policy_ops_check(c->policy, &why))
		return fail(err, errlen, "policy: %s", why);
	if (c->mode == RXL_MODE_ITR && !(c->itr <= 1 || c->itr == 3 || c->itr == 4 ||
					 (c->itr >= 100 && c->itr <= 100000)))
		return fail(err, errlen, "itr: %u out of range (accepted: 0, 1, 3, 4 or 100..100000)", c->itr);
	if (c->each_burst > c->burst_max)
		return fail(err, errlen, "each-burst: %u above burst-max %u", c->each_burst, c->burst_max);
	if (c->dpdk_sleep_polls <= c->dpdk_pause_polls)
		return fail(err, errlen, "dpdk-sleep-polls: %u must be above dpdk-pause-polls %u",
			    c->dpdk_sleep_polls, c->dpdk_pause_polls);
	if (!pow2(c->tp_block_bytes))
		return fail(err, errlen, "tp-block-bytes: %u is not a power of two", c->tp_block_bytes);
	if (!pow2(c->xdp_frames))
		return fail(err, errlen, "xdp-frames: %u is not a power of two", c->xdp_frames);
	return 0;
}
