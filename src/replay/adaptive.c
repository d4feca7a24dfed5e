/* adaptive.c - ethtool's adaptive RX by packet rate (src/core/adaptive.c)
 * on recorded samples (see replay/mechanisms.h): adaptive_sample() per
 * row of dim's input, one table row per finished interval.
 */
#include "replay/mechanisms.h"

#include <stdbool.h>
#include <stdio.h>

#include "rxlab/adaptive.h"

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

struct table *adapt_table_new(void)
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
int adapt_replay(struct csv *c, const struct replay_opts *o, struct table *t, char *err,
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
