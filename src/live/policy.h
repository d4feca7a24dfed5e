/* policy.h - a registered moderation policy (rxlab/policy.h) in the live
 * loop: mode dim with [policy] set runs it where net_dim() would run. */
#ifndef RXLAB_LIVE_POLICY_H
#define RXLAB_LIVE_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "live/loop_impl.h"
#include "rxlab/coalesce.h"
#include "rxlab/policy.h"

/* rxl_config_set(c, "policy", NAME): c->policy = the policy registered as
 * @name.  0, or -EINVAL with "policy: no policy 'x' is registered;
 * registered: a, b" in @err. */
int live_policy_set(struct rxl_config *c, const char *name, char *err, size_t errlen);

/* The live side of one policy run: its run state and the loop's own
 * cumulative counters (deliveries are the events). */
struct live_policy {
	struct rxl_policy_run run;
	struct rxl_policy_sample at;
	uint32_t max_frames;      /* the loop's staging slots: rx-frames above them never fire */
};

/* Start the policy of @l's config at @now_ns with @p (the engine's start
 * parameters: rx-usecs / rx-frames of the config). */
void live_policy_start(struct rxl_loop *l, struct live_policy *lp, const struct coal_params *p,
		       int64_t now_ns);

/* The engine fired at @now_ns (an "interrupt"): on_irq.  Then, after the
 * delivery of @pkts packets / @bytes, on_poll_done.  A SET goes to @c (its
 * rx-frames capped at max_frames) and counts as a moderation change when it
 * differs; a decision outside the limits of rxlab/policy.h ends the run
 * with -EINVAL (rxl_run()'s return). */
void live_policy_fired(struct rxl_loop *l, struct live_policy *lp, struct coal *c,
		       int64_t now_ns);
void live_policy_done(struct rxl_loop *l, struct live_policy *lp, struct coal *c,
		      uint32_t pkts, uint64_t bytes, int64_t now_ns);

#endif
