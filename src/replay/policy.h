/* policy.h - a registered moderation policy (rxlab/policy.h) on recorded
 * samples: the replay of a policy a program wrote itself, as `rxlab replay
 * dim` replays net_dim().
 *
 * The first sample is the origin (init() with @start); every later one is
 * one call of the op of @ev, in order.  One row per decision (KEEP or SET;
 * MEASURING calls make none):
 *   time_ns        the sample's time
 *   interval_ns    since the previous decision (or the origin / restart)
 *   packets, bytes, events   counter differences over that interval
 *   verdict        keep | set
 *   rx_usecs, rx_frames      the settings in effect after the decision
 *   changed        yes when they differ from before it
 *   restarted      yes when the counters went back since the previous row
 *                  (a device reset: reset(), or init() with the settings in
 *                  effect, at that sample, which is then fed as usual)
 */
#ifndef RXLAB_REPLAY_POLICY_H
#define RXLAB_REPLAY_POLICY_H

#include <stddef.h>

#include "report/table.h"
#include "rxlab/policy.h"

/* Replay @n samples (@n >= 1, times non-decreasing) through the policy
 * registered as @name, starting from @start, and return the decisions as a
 * new table "replay_policy" in *@out (caller frees).  0, or -1 with a
 * one-line message in @err and *@out NULL: no such policy (the message lists
 * the registered ones), no op for @ev, no samples, time going back
 * ("sample 7: time_ns 90 is before sample 6's 100"), a decision outside the
 * limits ("sample 7: policy step, on-poll-done: decided rx-usecs 0 and ..."). */
int replay_policy(const char *name, const struct rxl_policy_settings *start,
		  enum rxl_policy_event ev, const struct rxl_policy_sample *smp, size_t n,
		  struct table **out, char *err, size_t errlen);

#endif
