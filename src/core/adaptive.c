/* adaptive.c - ethtool adaptive RX coalescing (see include/rxlab/adaptive.h).
 *
 * Roadmap: adaptive_config_check() (input), adaptive_rate_pps() (the
 * measurement), adaptive_pick() (the uapi rule), adaptive_sample() (one
 * interval at a time; one switch on the set).
 *
 * Pure: no libc beyond what the compiler emits.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rxlab/adaptive.h"

#define ADAPT_NSEC_PER_SEC 1000000000ull

int adaptive_config_check(const struct adaptive_config *c, const char **why)
{
	/* include/uapi/linux/ethtool.h: "rate_sample_interval ... must not
	 * be zero"; a negative one is no interval either. */
	if (c->rate_sample_interval_ns <= 0) {
		*why = "rate_sample_interval must be > 0 (it must not be 0)";
		return -1;
	}
	if (c->pkt_rate_low > c->pkt_rate_high) {
		*why = "pkt_rate_low must be <= pkt_rate_high";
		return -1;
	}
	/* The uapi firing rule: usecs and frames both 0 is illegal. */
	if (c->rx_usecs_low == 0 && c->rx_frames_low == 0) {
		*why = "rx_usecs_low and rx_frames_low are both 0 (use rx_frames_low = 1 "
		       "for no coalescing)";
		return -1;
	}
	if (c->rx_usecs == 0 && c->rx_frames == 0) {
		*why = "rx_usecs and rx_frames are both 0 (use rx_frames = 1 for no coalescing)";
		return -1;
	}
	if (c->rx_usecs_high == 0 && c->rx_frames_high == 0) {
		*why = "rx_usecs_high and rx_frames_high are both 0 (use rx_frames_high = 1 "
		       "for no coalescing)";
		return -1;
	}
	return 0;
}

void adaptive_init(struct adaptive *a, const struct adaptive_config *c, int64_t t0_ns,
		   uint64_t rx_packets)
{
	memset(a, 0, sizeof(*a));
	a->cfg = *c;
	a->set = ADAPT_NORMAL;
	a->t_start_ns = t0_ns;
	a->pkts_start = rx_packets;
}

/* floor(@pkts * 1e9 / @ns) for @ns > 0, without 128-bit arithmetic (which
 * would pull in libgcc's __udivti3).  Whole seconds' worth first; the
 * remainder (< @ns) times 1e9 fits 64 bits unless it exceeds 1.8e10, in
 * which case both are scaled down by powers of two (relative error below
 * 1e-9, i.e. below 1 pkt/s).  Saturates at UINT64_MAX. */
static uint64_t adaptive_rate_pps(uint64_t pkts, uint64_t ns)
{
	uint64_t whole = pkts / ns;
	uint64_t rem = pkts % ns;
	uint64_t frac;

	if (whole > UINT64_MAX / ADAPT_NSEC_PER_SEC)
		return UINT64_MAX;
	/* ns > rem > 1.8e10 here, so ns stays > 0. */
	while (rem > UINT64_MAX / ADAPT_NSEC_PER_SEC) {
		rem >>= 1;
		ns >>= 1;
	}
	/* rem <= ns after equal shifts, so frac <= 1e9. */
	frac = rem * ADAPT_NSEC_PER_SEC / ns;
	whole *= ADAPT_NSEC_PER_SEC;
	return whole > UINT64_MAX - frac ? UINT64_MAX : whole + frac;
}

enum adaptive_set adaptive_pick(const struct adaptive_config *c, uint64_t rate_pps)
{
	if (rate_pps < c->pkt_rate_low)
		return ADAPT_LOW;
	if (rate_pps > c->pkt_rate_high)
		return ADAPT_HIGH;
	return ADAPT_NORMAL;
}

/* The active set's values into @d (one switch over the state enum). */
static void adaptive_values(const struct adaptive *a, struct adaptive_decision *d)
{
	d->set = a->set;
	switch (a->set) {
	case ADAPT_LOW:
		d->rx_usecs = a->cfg.rx_usecs_low;
		d->rx_frames = a->cfg.rx_frames_low;
		break;
	case ADAPT_NORMAL:
		d->rx_usecs = a->cfg.rx_usecs;
		d->rx_frames = a->cfg.rx_frames;
		break;
	case ADAPT_HIGH:
		d->rx_usecs = a->cfg.rx_usecs_high;
		d->rx_frames = a->cfg.rx_frames_high;
		break;
	}
}

struct adaptive_decision adaptive_sample(struct adaptive *a, int64_t t_ns,
					 uint64_t rx_packets_cumulative)
{
	struct adaptive_decision d = { .decided = false };
	int64_t elapsed_ns = t_ns - a->t_start_ns;
	enum adaptive_set next;

	if (elapsed_ns >= a->cfg.rate_sample_interval_ns) {
		/* Unsigned difference: wraps modulo 2^64. */
		uint64_t pkts = rx_packets_cumulative - a->pkts_start;

		d.decided = true;
		d.rate_pps = adaptive_rate_pps(pkts, (uint64_t)elapsed_ns);
		next = adaptive_pick(&a->cfg, d.rate_pps);
		d.changed = next != a->set;
		a->set = next;
		a->t_start_ns = t_ns;
		a->pkts_start = rx_packets_cumulative;
		a->decisions++;
		a->changes += d.changed;
		a->intervals_in[next]++;
	}
	adaptive_values(a, &d);
	return d;
}
