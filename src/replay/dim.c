/* dim.c - net_dim() (src/core/dim.c) on recorded samples (see
 * replay/mechanisms.h): every row is one net_dim() call with the
 * cumulative counters, one table row per decided window.
 */
#include "replay/mechanisms.h"

#include <stdio.h>

const char *const dim_cols[] = { "time_ns", "packets", "bytes", "events", NULL };

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

struct table *dim_table_new(const struct replay_opts *o)
{
	char title[64];
	struct table *t;

	snprintf(title, sizeof(title), "DIM decisions (%s profile table)", replay_dim_tables[o->dim_table]);
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
int dim_read(struct csv *c, struct dim_sample *s)
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
int dim_replay(struct csv *c, const struct replay_opts *o, struct table *t)
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
