/* source_xdp.c - AF_XDP socket (placeholder until implemented). */
#define _GNU_SOURCE
#include <stdio.h>

#include "live/loop_impl.h"

struct rxl_source *rxl_source_xdp(const char *ifname, uint32_t queue, const struct rxl_config *c,
				  char *err, size_t errlen)
{
	(void)ifname;
	(void)queue;
	(void)c;
	snprintf(err, errlen, "AF_XDP source: not implemented yet");
	return NULL;
}
