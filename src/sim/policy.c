/* policy.c - a registered moderation policy on a simulated port
 * (sim/policy.h).
 *
 * The driver samples the port's cumulative counters -- packets and bytes
 * taken from the ring, interrupts asserted: what it hands net_dim() in
 * adaptive.c -- at both places a driver can decide: in its interrupt
 * handler and after a completed poll, right before it re-enables the
 * interrupt.  A SET is written to the RX coalescing engine at once, as
 * pkt-rate's are (no work-queue delay like DIM's: a driver that wants one
 * models it in its policy), and a SET that changes rx-usecs or rx-frames
 * joins the run's moderation changes (MOD_POLICY) as DIM's do.  A decision
 * outside the limits of rxlab/policy.h is a bug of the policy: the run
 * fails naming it.
 */
#include "sim/policy.h"

#include <stdio.h>

#include "rxlab/policy.h"

static struct rxl_policy_sample sample_of(const struct sim *s, const struct nic *n)
{
	return (struct rxl_policy_sample){ .t_ns = s->eng.now, .packets = n->c.rx_taken,
					   .bytes = n->c.rx_bytes, .events = n->c.irqs };
}

void policy_start(struct sim *s, struct nic *n)
{
	const struct rxl_policy_ops *ops = rxl_policy_find(n->cfg->adaptive_policy);
	struct rxl_policy_settings start = {
		.rx_usecs = (uint32_t)(n->rx_coal.p.usecs_ns / 1000),
		.rx_frames = n->rx_coal.p.frames,
	};
	struct rxl_policy_sample now = sample_of(s, n);

	if (!ops) {
		snprintf(s->fatal, sizeof(s->fatal), "[nic %s] adaptive-rx = policy:%s: the "
			 "policy is no longer registered", n->cfg->name, n->cfg->adaptive_policy);
		return;
	}
	rxl_policy_run_init(&n->policy, ops, &start, &now);
}

static void apply(struct sim *s, struct nic *n, const struct rxl_policy_settings *set)
{
	struct coal_params p = n->rx_coal.p;

	p.usecs_ns = (int64_t)set->rx_usecs * 1000;
	p.frames = set->rx_frames;
	if (p.usecs_ns != n->rx_coal.p.usecs_ns || p.frames != n->rx_coal.p.frames)
		mod_series_add(&s->series,
			       &(struct mod_point){ .t = s->eng.now, .nic = n->id,
						    .kind = MOD_POLICY, .usecs_ns = p.usecs_ns,
						    .frames = p.frames });
	coal_set_params(&n->rx_coal, &p);
	rxl_policy_run_applied(&n->policy, set);
}

static void decide(struct sim *s, struct nic *n, enum rxl_policy_event ev)
{
	struct rxl_policy_sample smp = sample_of(s, n);
	struct rxl_policy_decision d;
	const char *why;

	if (n->cfg->adaptive_rx != ADAPTIVE_POLICY || !n->policy.ops)
		return;
	if (rxl_policy_run_event(&n->policy, ev, &smp, &d, &why)) {
		if (!s->fatal[0])
			snprintf(s->fatal, sizeof(s->fatal),
				 "[nic %s] policy %s, %s at t=%lld ns: %s", n->cfg->name,
				 n->policy.ops->name, rxl_policy_event_name(ev),
				 (long long)s->eng.now, why);
		return;
	}
	if (d.verdict == RXL_POLICY_SET)
		apply(s, n, &d.set);
}

void policy_on_irq(struct sim *s, struct nic *n)
{
	decide(s, n, RXL_POLICY_ON_IRQ);
}

void policy_on_poll_done(struct sim *s, struct nic *n)
{
	decide(s, n, RXL_POLICY_ON_POLL_DONE);
}
