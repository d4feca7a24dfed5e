/* sock.h - the UDP socket that locally delivered frames queue on (sock.c). */
#ifndef RXLAB_SIM_SOCK_H
#define RXLAB_SIM_SOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/pkt.h"

struct sim;

/* The UDP socket that locally delivered frames queue on.  Memory is
 * charged per datagram as frame bytes + SOCK_SKB_OVERHEAD, an estimate of
 * sk_buff truesize overhead, against rcvbuf. */
#define SOCK_SKB_OVERHEAD 256
#define SINK_BATCH 64      /* datagrams received per chunk before user work runs */
struct sock {
	struct pktq q;
	uint64_t bytes;       /* charged to rcvbuf */
	int16_t reader;       /* the sink thread, -1 = none */
	bool waiting;         /* reader sleeps in recvmsg */
	uint16_t napi;        /* NIC whose NAPI the socket's frames came from (busy poll) */
	struct pktq held;     /* requests received, reply not yet sent */
	/* busy poll (napi_busy_loop) */
	bool bp_active;       /* inside the busy loop */
	bool bp_owned;        /* the loop owns the NAPI (SCHED | IN_BUSY_POLL) */
	uint16_t bp_napi;     /* NIC whose NAPI the loop polls: napi when it began */
	uint8_t next;         /* enum sink_next: what follows the running chunk */
	int64_t bp_start;
	uint64_t bp_polls, bp_pkts, suspends, resumes;
};

/* What a datagram is charged against rcvbuf. */
static inline uint32_t sock_truesize(const struct pkt *p)
{
	return p->len + SOCK_SKB_OVERHEAD;
}

/* Allocate its queues when apps.sink is on.  0 or -1. */
int sock_init(struct sim *s);
/* Queue frame @p on the socket at @t, or drop it (rcvbuf full). */
void sock_enqueue(struct sim *s, struct pkt *p, int64_t t);

#endif
