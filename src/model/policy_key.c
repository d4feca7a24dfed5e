/* policy_key.c - adaptive-rx = policy:NAME (model/policy_key.h).
 *
 * The spelling keeps user policies apart from the built-in values: one key
 * still selects every controller (so a sweep can vary
 * nic.eth0.adaptive-rx=off,dim,policy:step on one axis), and a built-in
 * added later can never take a user's name.  The registry is consulted at
 * load time so that a typo is a load error with the line, not a failed run.
 */
#include "model/policy_key.h"

#include <stdio.h>
#include <string.h>

#include "rxlab/policy.h"

#define PREFIX "policy"

/* "registered: a, b", or a hint when there are none. */
static void registered_list(char *buf, size_t len)
{
	char names[RXL_POLICY_MAX * (RXL_POLICY_NAME_MAX + 2) + 1];

	rxl_policy_list(names, sizeof(names));
	if (names[0])
		snprintf(buf, len, "registered: %s", names);
	else
		snprintf(buf, len, "none is registered (a program registers its own with "
			 "rxl_policy_register(), docs/policies.md)");
}

int policy_key_parse(const char *value, struct scn_nic *n, char *msg, size_t len)
{
	size_t plen = strlen(PREFIX);
	const char *name;
	char list[RXL_POLICY_MAX * (RXL_POLICY_NAME_MAX + 2) + 128];

	if (strncmp(value, PREFIX, plen) != 0 || (value[plen] != ':' && value[plen] != '\0'))
		return 1;
	name = value[plen] ? value + plen + 1 : value + plen;
	registered_list(list, sizeof(list));
	if (*name == '\0') {
		snprintf(msg, len, "adaptive-rx = %s: name the policy, policy:NAME; %s", value,
			 list);
		return -1;
	}
	if (!rxl_policy_find(name)) {
		snprintf(msg, len, "adaptive-rx = %s: no policy '%s' is registered; %s", value,
			 name, list);
		return -1;
	}
	n->adaptive_rx = ADAPTIVE_POLICY;
	snprintf(n->adaptive_policy, sizeof(n->adaptive_policy), "%s", name);
	return 0;
}
