/* adaptive.h - ethtool adaptive RX coalescing by packet rate
 * (pure; no OS, no clock).
 *
 * The rule of include/uapi/linux/ethtool.h struct ethtool_coalesce with
 * use_adaptive_rx_coalesce set: once per rate_sample_interval the driver
 * measures the RX packet rate and picks one of three coalescing sets:
 *
 *   rate <  pkt_rate_low    rx_coalesce_usecs_low / rx_max_coalesced_frames_low
 *   rate >  pkt_rate_high   rx_coalesce_usecs_high / rx_max_coalesced_frames_high
 *   otherwise               rx_coalesce_usecs / rx_max_coalesced_frames
 *
 * ("Below this threshold" / "Above this threshold"), so a rate exactly at
 * either threshold uses the normal set.  The uapi gives the rule only; no
 * algorithm beyond it is specified, so the measurement below is rxlab's:
 *
 *   - an interval ends at the first sample with t_ns - t_start_ns >=
 *     rate_sample_interval_ns; the next one starts at that sample, so
 *     intervals neither overlap nor leave gaps;
 *   - rate_pps = packets since t_start * 1e9 / (t_ns - t_start_ns), in whole
 *     packets per second, truncated; the rule compares this integer.  A
 *     caller sampling exactly on the boundary gets packets / interval.
 *   - the packet counter is cumulative and wraps at 2^64 (unsigned
 *     difference).
 *
 * Calling convention:
 *
 *   adaptive_init(&a, &cfg, t0_ns, rx_packets_now);
 *   d = adaptive_sample(&a, t_ns, rx_packets_now);    as often as convenient
 *   if (d.changed) ...apply d.rx_usecs / d.rx_frames (coalesce.h)...
 *
 * Times are int64_t nanoseconds of one clock chosen by the caller.
 */
#ifndef RXLAB_RXLAB_ADAPTIVE_H
#define RXLAB_RXLAB_ADAPTIVE_H

#include <stdbool.h>
#include <stdint.h>

/* struct ethtool_coalesce's adaptive-RX fields.  rate_sample_interval is
 * in seconds there; here in nanoseconds. */
struct adaptive_config {
	uint64_t pkt_rate_low;          /* pkts/s; below it the _low set applies */
	uint64_t pkt_rate_high;         /* pkts/s; above it the _high set applies */
	uint32_t rx_usecs_low;          /* us, rx_coalesce_usecs_low */
	uint32_t rx_frames_low;         /* frames, rx_max_coalesced_frames_low */
	uint32_t rx_usecs;              /* us, rx_coalesce_usecs (the normal set) */
	uint32_t rx_frames;             /* frames, rx_max_coalesced_frames */
	uint32_t rx_usecs_high;         /* us, rx_coalesce_usecs_high */
	uint32_t rx_frames_high;        /* frames, rx_max_coalesced_frames_high */
	int64_t rate_sample_interval_ns; /* > 0; "must not be zero" */
};

/* The set in use: the state of the mechanism. */
enum adaptive_set {
	ADAPT_LOW = 0,
	ADAPT_NORMAL,
	ADAPT_HIGH,
};

/* Invariants: t_start_ns is the time of the last decision (or of
 * adaptive_init()); pkts_start is the cumulative counter then; set is the
 * result of the last decision, ADAPT_NORMAL before the first. */
struct adaptive {
	struct adaptive_config cfg;
	enum adaptive_set set;          /* active set */
	int64_t t_start_ns;             /* start of the current interval */
	uint64_t pkts_start;            /* cumulative RX packets at t_start_ns */
	/* counters */
	uint64_t decisions;             /* intervals that ended */
	uint64_t changes;               /* decisions that switched the set */
	uint64_t intervals_in[3];       /* decisions per resulting enum adaptive_set */
};

/* What one adaptive_sample() did. */
struct adaptive_decision {
	bool decided;                   /* an interval ended at this sample */
	uint64_t rate_pps;              /* measured rate, pkts/s, truncated; 0 when !decided */
	enum adaptive_set set;          /* active set after the call */
	uint32_t rx_usecs;              /* us, of that set */
	uint32_t rx_frames;             /* frames, of that set */
	bool changed;                   /* the set switched at this sample */
};

/* Returns 0 if @c is legal, else -1 with *why set to a static message:
 * rate_sample_interval must be > 0, pkt_rate_low <= pkt_rate_high, and no
 * set may have both usecs and frames 0 (the uapi firing rule calls that
 * illegal; usecs 0 + frames 1 means no coalescing). */
int adaptive_config_check(const struct adaptive_config *c, const char **why);

/* Start an interval at @t0_ns with the cumulative counter at @rx_packets;
 * the normal set is active.  @c must pass adaptive_config_check(). */
void adaptive_init(struct adaptive *a, const struct adaptive_config *c, int64_t t0_ns,
		   uint64_t rx_packets);

/* Feed the cumulative RX packet counter at @t_ns.  Before the interval
 * ends (or if time went back) nothing changes and decided is false. */
struct adaptive_decision adaptive_sample(struct adaptive *a, int64_t t_ns,
					 uint64_t rx_packets_cumulative);

/* The rule alone: the set for @rate_pps under @c. */
enum adaptive_set adaptive_pick(const struct adaptive_config *c, uint64_t rate_pps);

#endif
