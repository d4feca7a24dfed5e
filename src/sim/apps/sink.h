/* sink.h - the UDP socket's reader: a sink or a request/response server
 * (sink.c).
 *
 * Part of the host that sim/sim.h describes: include "sim/sim.h", which
 * includes this header after the counters and forward declarations it
 * uses. */
#ifndef RXLAB_SIM_APPS_SINK_H
#define RXLAB_SIM_APPS_SINK_H

#ifndef RXLAB_SIM_SIM_H
#error "include sim/sim.h, not this header"
#endif

/* Create the reader thread when apps.sink is on, asleep in recvmsg().  0. */
int sink_init(struct sim *s);

#endif
