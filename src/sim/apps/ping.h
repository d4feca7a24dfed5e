/* ping.h - ping -f over loopback (ping.c). */
#ifndef RXLAB_SIM_APPS_PING_H
#define RXLAB_SIM_APPS_PING_H

#include <stdbool.h>
#include <stdint.h>

struct sim;

/* ping -f 127.0.0.1 (apps.ping): one echo outstanding at a time. */
struct ping {
	int16_t thread;       /* the ping thread, -1 = none */
	uint8_t step;         /* enum ping_step in ping.c: what follows the running chunk */
	bool waiting;         /* asleep in recvmsg() until the reply is queued */
	bool done;            /* ping-count replies received */
	uint32_t ready;       /* replies queued on its raw socket, not yet read */
	uint32_t queued;      /* its frames in a backlog (not NIC frames: accounting) */
	int64_t t_send;       /* gettimeofday() before the outstanding sendmsg() */
	int64_t t_reply;      /* the queued reply's timestamp (netif_rx, SO_TIMESTAMP) */
	int64_t t_first, t_last; /* first send, last reply read: iputils' "time" */
	uint64_t sent, echoed, received, lost;
	int64_t rtt_min, rtt_max; /* ns */
	double rtt_sum, rtt_sum2; /* ns, ns^2 */
	int64_t ewma8;        /* iputils' rtt estimate, x8, ns */
};

/* Create the ping thread when apps.ping is on and register its loopback
 * protocol.  0. */
int ping_init(struct sim *s);

#endif
