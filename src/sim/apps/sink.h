/* sink.h - the UDP socket's reader: a sink or a request/response server
 * (sink.c). */
#ifndef RXLAB_SIM_APPS_SINK_H
#define RXLAB_SIM_APPS_SINK_H

#include <stdint.h>

struct sim;

/* Create the reader thread when apps.sink is on, asleep in recvmsg().  0. */
int sink_init(struct sim *s);
/* Worker @w's epoll_wait() timeout (epoll-timeout) expired; @gen names the
 * wait it was armed for, so a wait that data already ended ignores it. */
void sink_epoll_timeout(struct sim *s, uint16_t w, uint32_t gen);

#endif
