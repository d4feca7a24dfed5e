/* client.h - closed-loop clients (client.c): [traffic] pattern = closed,
 * as netperf TCP_RR and mutilate's closed-loop agents drive a server. */
#ifndef RXLAB_SIM_CLIENT_H
#define RXLAB_SIM_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

/* The requests a closed-loop source will send: (time, flow) in time
 * order, a binary heap.  Each of flows connections keeps depth requests
 * outstanding: the next goes out client-delay after the reply to one left
 * the host (the client host and the wire), or client-rto after the
 * request or its reply was lost (TCP's retransmission timeout). */
struct client {
	int64_t *t;
	uint32_t *flow;
	uint32_t n, cap;
	int64_t delay_ns, rto_ns;
};

/* Every connection's first depth requests at @start.  0 or -1 (memory). */
int client_init(struct client *c, uint32_t flows, uint32_t depth, int64_t start,
		int64_t delay_ns, int64_t rto_ns);
void client_free(struct client *c);
/* The next request: false when none is scheduled. */
static inline bool client_next(const struct client *c, int64_t *t, uint32_t *flow)
{
	if (!c->n)
		return false;
	*t = c->t[0];
	*flow = c->flow[0];
	return true;
}
/* It was sent. */
void client_pop(struct client *c);
/* Schedule a request of @flow at @t. */
void client_push(struct client *c, int64_t t, uint32_t flow);

#endif
