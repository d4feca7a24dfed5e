/* policy_key.h - the value policy:NAME of [nic] adaptive-rx: a moderation
 * policy the program registered (rxlab/policy.h) instead of a built-in
 * controller. */
#ifndef RXLAB_MODEL_POLICY_KEY_H
#define RXLAB_MODEL_POLICY_KEY_H

#include <stddef.h>

#include "rxlab/scenario.h"

/* Parse the adaptive-rx value @value for port @n.  1: not a policy
 * spelling (neither "policy" nor "policy:..."), nothing written; 0: NAME is
 * registered, @n holds ADAPTIVE_POLICY and NAME; -1: a policy spelling
 * with no registered policy behind it, with a message in @msg that names the
 * key and the registered policies, e.g.
 *   "adaptive-rx = policy:stp: no policy 'stp' is registered; registered: step" */
int policy_key_parse(const char *value, struct scn_nic *n, char *msg, size_t len);

#endif
