/* source_tpacket.c - TPACKET_V3 receive ring (placeholder until implemented). */
#define _GNU_SOURCE
#include <stdio.h>

#include "live/loop_impl.h"

struct rxl_source *rxl_source_tpacket(int ifindex, const struct rxl_config *c, char *err,
				      size_t errlen)
{
	(void)ifindex;
	(void)c;
	snprintf(err, errlen, "TPACKET_V3 source: not implemented yet");
	return NULL;
}
