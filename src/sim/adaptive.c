/* adaptive.c - driver-side adaptive moderation on a simulated port.
 *
 * DIM (adaptive-rx = dim) follows mlx5: every interrupt counts as an event,
 * and when the driver is about to re-enable the interrupt after a completed
 * poll it hands net_dim() a sample of cumulative (packets, bytes, events).
 * A new profile index is written to the NIC by a work item after
 * dim-work-delay (schedule_work latency); until then net_dim ignores
 * samples (APPLY_NEW_PROFILE).  The profile table follows the timer mode:
 * cqe-mode-rx = on uses the RX CQE table, off the RX EQE table.
 */
#include "sim/sim.h"

#include <stdlib.h>

static void series_add(struct sim *s, const struct mod_point *p)
{
	if (!s->series.p || s->series.n == MOD_SERIES_MAX) {
		s->series.lost++;
		return;
	}
	s->series.p[s->series.n++] = *p;
}

void adapt_init(struct sim *s, struct nic *n)
{
	if (n->cfg->adaptive_rx == ADAPTIVE_OFF)
		return;
	if (!s->series.p)
		s->series.p = calloc(MOD_SERIES_MAX, sizeof(*s->series.p));
	dim_init(&n->dim, (uint8_t)n->cfg->dim_start_ix);
	if (n->cfg->adaptive_rx == ADAPTIVE_DIM) {
		n->dim.state = DIM_APPLY_NEW_PROFILE; /* the driver applies the start profile */
		adapt_dim_apply(s, n);
	}
}

static enum dim_table dim_table_of(const struct nic *n)
{
	return n->cfg->rx_timer == TIMER_RESTART ? DIM_RX_CQE : DIM_RX_EQE;
}

void adapt_dim_apply(struct sim *s, struct nic *n)
{
	const struct dim_profile *pr = dim_profile(dim_table_of(n), n->dim.profile_ix);
	struct coal_params p = n->rx_coal.p;

	p.usecs_ns = (int64_t)pr->usec * 1000;
	p.frames = pr->pkts;
	coal_set_params(&n->rx_coal, &p);
	dim_applied(&n->dim);
	series_add(s, &(struct mod_point){ .t = s->eng.now, .nic = n->id, .kind = MOD_DIM,
					   .ix = n->dim.profile_ix, .usecs_ns = p.usecs_ns,
					   .frames = p.frames });
}

static void dim_sample(struct sim *s, struct nic *n)
{
	struct dim_sample smp = {
		.t_ns = s->eng.now,
		.pkt_ctr = (uint32_t)n->c.rx_taken,
		.byte_ctr = (uint32_t)n->c.rx_bytes,
		.event_ctr = (uint16_t)n->c.irqs,
	};
	struct dim_result r = net_dim(&n->dim, &smp);

	if (r.changed)
		sim_at(s, s->eng.now + n->cfg->dim_work_delay_ns, EV_DIM_APPLY, n->id, 0);
}

void adapt_on_rearm(struct sim *s, struct nic *n)
{
	switch (n->cfg->adaptive_rx) {
	case ADAPTIVE_OFF:
		return;
	case ADAPTIVE_DIM:
		dim_sample(s, n);
		return;
	case ADAPTIVE_PKT_RATE:
		return;
	}
}
