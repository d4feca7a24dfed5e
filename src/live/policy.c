/* policy.c - a registered moderation policy in the live loop
 * (live/policy.h).
 *
 * Mode dim's coalescing engine with a policy in place of net_dim(): the
 * engine starts at the config's rx-usecs / rx-frames (EQE timer, as
 * coalesce) and the policy sees each firing as an interrupt and each
 * delivery as a completed poll, with the loop's own cumulative counters.
 */
#include "live/policy.h"

#include <errno.h>
#include <stdio.h>

#include "rxlab/live.h"

int live_policy_set(struct rxl_config *c, const char *name, char *err, size_t errlen)
{
	const struct rxl_policy_ops *ops = rxl_policy_find(name);
	char names[RXL_POLICY_MAX * (RXL_POLICY_NAME_MAX + 2) + 1];

	if (ops) {
		c->policy = ops;
		return 0;
	}
	rxl_policy_list(names, sizeof(names));
	if (err && errlen)
		snprintf(err, errlen, "policy: no policy '%s' is registered; registered: %s", name,
			 names[0] ? names : "none");
	return -EINVAL;
}

void live_policy_start(struct rxl_loop *l, struct live_policy *lp, const struct coal_params *p,
		       int64_t now_ns)
{
	struct rxl_policy_settings start = { .rx_usecs = (uint32_t)(p->usecs_ns / 1000),
					     .rx_frames = p->frames };

	lp->at = (struct rxl_policy_sample){ .t_ns = now_ns };
	lp->max_frames = l->src->slots;
	rxl_policy_run_init(&lp->run, l->cfg.policy, &start, &lp->at);
}

static void decide(struct rxl_loop *l, struct live_policy *lp, struct coal *c,
		   enum rxl_policy_event ev)
{
	struct rxl_policy_decision d;
	struct coal_params p = c->p;
	uint64_t changes = lp->run.changes;
	const char *why;

	if (rxl_policy_run_event(&lp->run, ev, &lp->at, &d, &why)) {
		l->err = -EINVAL; /* a policy bug; rxl_done() ends the run */
		return;
	}
	if (d.verdict != RXL_POLICY_SET)
		return;
	if (d.set.rx_frames > lp->max_frames)
		d.set.rx_frames = lp->max_frames;
	p.usecs_ns = (int64_t)d.set.rx_usecs * 1000;
	p.frames = d.set.rx_frames;
	coal_set_params(c, &p);
	rxl_policy_run_applied(&lp->run, &d.set);
	if (lp->run.changes != changes)
		rxl_count_moderation(l);
}

void live_policy_fired(struct rxl_loop *l, struct live_policy *lp, struct coal *c,
		       int64_t now_ns)
{
	lp->at.t_ns = now_ns;
	lp->at.events++;
	decide(l, lp, c, RXL_POLICY_ON_IRQ);
}

void live_policy_done(struct rxl_loop *l, struct live_policy *lp, struct coal *c,
		      uint32_t pkts, uint64_t bytes, int64_t now_ns)
{
	lp->at.t_ns = now_ns;
	lp->at.packets += pkts;
	lp->at.bytes += bytes;
	decide(l, lp, c, RXL_POLICY_ON_POLL_DONE);
}
