/* pkt.h - frames as the host's queues hold them, and the bounded FIFO ring
 * every queue is (RX ring, FIFO, TX ring, qdisc, backlog, socket). */
#ifndef RXLAB_SIM_PKT_H
#define RXLAB_SIM_PKT_H

#include <stdbool.h>
#include <stdint.h>

/* One frame in a queue.  t_evt is the time of the next thing that happens to
 * it in that queue: DMA completion in the RX ring, departure in a TX ring. */
struct pkt {
	int64_t t_arr;   /* last bit received on the ingress port */
	int64_t t_evt;
	uint32_t len;    /* frame bytes incl. FCS */
	uint32_t flow;   /* the flow (connection) of its traffic source, 0..flows-1 */
	uint16_t in_nic; /* the RX queue it came in on (s->nic[] index: a port's queue) */
	uint8_t reply;   /* enum pkt_kind */
	uint8_t cpu;     /* CPU that allocated its sk_buff (remote-free cost) */
	uint32_t hash;   /* the NIC's RSS hash of its flow (skb->hash; RPS steers by it),
	                  * 0 on a one-queue port without RPS */
};

/* What a frame on a TX ring is. */
enum pkt_kind {
	PKT_DATA = 0,    /* a received frame being forwarded */
	PKT_REPLY = 1,   /* a server's reply to the request that arrived at t_arr */
	PKT_ACK = 2,     /* an ACK the host's TCP generated (ack-every) */
	PKT_PING_REQ = 3,   /* loopback ICMP echo request (ping thread), not a NIC frame */
	PKT_PING_REPLY = 4, /* loopback ICMP echo reply */
	PKT_NP_DATA = 5,    /* loopback TCP segment of a netperf stream: in_nic is the
	                     * connection, len the payload bytes it carries */
	PKT_NP_ACK = 6,     /* loopback TCP ACK of a netperf stream: in_nic is the
	                     * connection, len the bytes it acknowledges */
	PKT_TCP = 7,        /* a received TCP data segment of a stream source
	                     * (pattern = stream): a NIC frame like PKT_DATA, which
	                     * GRO may merge; its payload is len - SCN_TCP_OVERHEAD */
	PKT_KIND_N
};

/* Is @p a frame received from a port (a UDP-like datagram or a TCP
 * segment), as opposed to one the host generated? */
static inline bool pkt_is_rx_data(const struct pkt *p)
{
	return p->reply == PKT_DATA || p->reply == PKT_TCP;
}

/* Is @p a loopback frame of the netperf streams (not a NIC frame)? */
static inline bool pkt_is_netperf(const struct pkt *p)
{
	return p->reply == PKT_NP_DATA || p->reply == PKT_NP_ACK;
}

_Static_assert(sizeof(struct pkt) == 32, "struct pkt stays 32 bytes (queues hold millions)");

/* Bounded FIFO ring of packets.  It holds up to cap frames (the queue's
 * limit, which its users check); the buffer has the next power of two of
 * slots, so that a position is an AND with mask, not a compare and a
 * subtraction (pktq_at() runs several times per frame). */
struct pktq {
	struct pkt *buf;
	uint32_t cap, head, count;
	uint32_t mask; /* slots - 1 */
};

/* Frame @i of @q (0: the head). */
static inline struct pkt *pktq_at(const struct pktq *q, uint32_t i)
{
	return &q->buf[(q->head + i) & q->mask];
}
static inline void pktq_push(struct pktq *q, const struct pkt *p)
{
	*pktq_at(q, q->count++) = *p;
}
static inline struct pkt pktq_pop(struct pktq *q)
{
	struct pkt p = q->buf[q->head];

	q->head = (q->head + 1) & q->mask;
	q->count--;
	return p;
}
/* Remove the first @k (<= count) frames of @q without reading them. */
static inline void pktq_drop(struct pktq *q, uint32_t k)
{
	q->head = (q->head + k) & q->mask;
	q->count -= k;
}
/* Allocate room for @cap frames, at least 1 (nic.c), in the next power of
 * two of slots: 0, or -1 out of memory. */
int pktq_init(struct pktq *q, uint32_t cap);
void pktq_free(struct pktq *q);

#endif
