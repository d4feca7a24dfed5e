/* adaptive.c - driver-side adaptive moderation on a simulated port.
 *
 * DIM (adaptive-rx = dim) follows mlx5: every interrupt counts as an event,
 * and when the driver is about to re-enable the interrupt after a completed
 * poll it hands net_dim() a sample of cumulative (packets, bytes, events).
 * A new profile index is written to the NIC by a work item after
 * dim-work-delay (schedule_work latency); until then net_dim ignores
 * samples (APPLY_NEW_PROFILE).  The profile table follows the timer mode:
 * cqe-mode-rx = on uses the RX CQE table, off the RX EQE table.
 *
 * e1000 InterruptThrottleRate follows e1000_main.c: the ISR zeroes the
 * per-cycle byte and packet totals, the poll adds to them, and when
 * napi_complete_done lets the driver re-enable the interrupt,
 * e1000_set_itr() classifies the cycle and writes the ITR register: the
 * minimum gap between two interrupts of the port (RX and TX alike).
 *
 * adaptive-rx = pkt-rate follows the ethtool contract: once per
 * sample-interval the measured RX rate selects the low, normal or high
 * rx-usecs / rx-frames set.
 *
 * adaptive-rx = policy:NAME runs a registered policy (sim/policy.c).
 */
#include "sim/policy.h"
#include "sim/sim.h"

#include <stdlib.h>

/* Write ITR: the minimum gap applies to the port's one interrupt. */
static void itr_write(struct sim *s, struct nic *n, uint32_t ints_per_s, int64_t gap_ns)
{
	struct coal_params rx = n->rx_coal.p, tx = n->tx_coal.p;

	rx.min_gap_ns = tx.min_gap_ns = gap_ns;
	coal_set_params(&n->rx_coal, &rx);
	coal_set_params(&n->tx_coal, &tx);
	mod_series_add(&s->series,
		       &(struct mod_point){ .t = s->eng.now, .nic = n->id, .kind = MOD_ITR,
					    .ix = (uint8_t)n->itr.rx_class, .usecs_ns = gap_ns,
					    .frames = ints_per_s });
}

/* The ITR configuration: ethtool -C rx-usecs on an e1000 (set at run
 * time, so it wins), else the InterruptThrottleRate module parameter. */
static int itr_config_of(const struct scn_nic *c, struct itr_config *ic)
{
	const char *why;

	if (c->driver == DRIVER_E1000 && c->rx_usecs_ns)
		return itr_from_ethtool_rx_usecs((uint32_t)(c->rx_usecs_ns / 1000), ic, &why);
	return itr_from_param(c->itr_param, ic, &why);
}

static void itr_start(struct sim *s, struct nic *n)
{
	struct itr_config ic;

	if (itr_config_of(n->cfg, &ic) || ic.mode == ITR_OFF)
		return;
	itr_init(&n->itr, &ic, (uint32_t)(n->cfg->speed_bps / 1000000));
	itr_write(s, n, n->itr.itr, itr_gap_ns(itr_reg_from_rate(n->itr.itr)));
}

void adapt_init(struct sim *s, struct nic *n)
{
	struct adaptive_config ac = scn_adaptive_config(n->cfg);

	struct itr_config ic;

	if (n->cfg->adaptive_rx == ADAPTIVE_OFF &&
	    (itr_config_of(n->cfg, &ic) || ic.mode == ITR_OFF))
		return;
	if (!s->series.p)
		s->series.p = calloc(MOD_SERIES_MAX, sizeof(*s->series.p));
	itr_start(s, n);
	switch (n->cfg->adaptive_rx) {
	case ADAPTIVE_OFF:
		break;
	case ADAPTIVE_DIM:
		dim_init(&n->dim, (uint8_t)n->cfg->dim_start_ix);
		n->dim.state = DIM_APPLY_NEW_PROFILE; /* the driver applies the start profile */
		adapt_dim_apply(s, n);
		break;
	case ADAPTIVE_PKT_RATE:
		adaptive_init(&n->rate, &ac, 0, 0);
		break;
	case ADAPTIVE_POLICY:
		policy_start(s, n);
		break;
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
	mod_series_add(&s->series,
		       &(struct mod_point){ .t = s->eng.now, .nic = n->id, .kind = MOD_DIM,
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

static void rate_sample(struct sim *s, struct nic *n)
{
	struct adaptive_decision d = adaptive_sample(&n->rate, s->eng.now, n->c.rx_taken);
	struct coal_params p = n->rx_coal.p;

	if (!d.changed)
		return;
	p.usecs_ns = (int64_t)d.rx_usecs * 1000;
	p.frames = d.rx_frames;
	coal_set_params(&n->rx_coal, &p);
	mod_series_add(&s->series,
		       &(struct mod_point){ .t = s->eng.now, .nic = n->id, .kind = MOD_PKT_RATE,
					    .ix = (uint8_t)d.set, .usecs_ns = p.usecs_ns,
					    .frames = p.frames });
}

static void itr_sample(struct sim *s, struct nic *n)
{
	struct itr_decision d;

	if (n->itr.mode == ITR_OFF || n->itr.mode == ITR_FIXED)
		return;
	d = itr_on_irq_done(&n->itr, n->cyc_rx_pkts, n->cyc_rx_bytes, n->cyc_tx_pkts,
			    n->cyc_tx_bytes);
	if (d.changed)
		itr_write(s, n, d.itr, d.gap_ns);
}

void adapt_on_rearm(struct sim *s, struct nic *n)
{
	if (n->itr.mode != ITR_OFF)
		itr_sample(s, n);
	switch (n->cfg->adaptive_rx) {
	case ADAPTIVE_OFF:
		return;
	case ADAPTIVE_DIM:
		dim_sample(s, n);
		return;
	case ADAPTIVE_PKT_RATE:
		rate_sample(s, n);
		return;
	case ADAPTIVE_POLICY:
		policy_on_poll_done(s, n);
		return;
	}
}

/* e1000_watchdog(): every 2 s; in InterruptThrottleRate mode 4 the rate
 * follows the TX/RX byte ratio of the last period. */
void adapt_watchdog(struct sim *s, struct nic *n)
{
	struct itr_decision d = itr_on_watchdog(&n->itr, n->c.tx_bytes - n->wd_tx_bytes,
						n->c.rx_bytes - n->wd_rx_bytes);

	n->wd_tx_bytes = n->c.tx_bytes;
	n->wd_rx_bytes = n->c.rx_bytes;
	if (d.changed)
		itr_write(s, n, d.itr, d.gap_ns);
	sim_at(s, s->eng.now + 2000000000, EV_WATCHDOG, n->id, 0);
}
