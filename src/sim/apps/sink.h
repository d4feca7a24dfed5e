/* sink.h - the UDP socket's reader: a sink or a request/response server
 * (sink.c). */
#ifndef RXLAB_SIM_APPS_SINK_H
#define RXLAB_SIM_APPS_SINK_H

struct sim;

/* Create the reader thread when apps.sink is on, asleep in recvmsg().  0. */
int sink_init(struct sim *s);

#endif
