/* sock.h - the sockets that locally delivered frames queue on, one per
 * reader thread (sock.c). */
#ifndef RXLAB_SIM_SOCK_H
#define RXLAB_SIM_SOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "rxlab/rng.h"
#include "rxlab/scenario.h"
#include "rxlab/server.h"
#include "sim/pkt.h"

struct sim;

/* A reader's socket: the UDP socket of sink = on, or an epoll worker's
 * sockets together (server = epoll: rcvbuf applies per worker, to all its
 * connections at once; with one connection per worker that is exact).
 * Memory is charged per datagram as frame bytes + SOCK_SKB_OVERHEAD, an
 * estimate of sk_buff truesize overhead, against rcvbuf. */
#define SOCK_SKB_OVERHEAD 256
#define SINK_BATCH 64      /* datagrams received per chunk before user work runs */
struct sock {
	struct pktq q;
	uint64_t bytes;       /* charged to rcvbuf */
	int16_t reader;       /* the reading thread, -1 = none */
	bool waiting;         /* reader sleeps in recvmsg / epoll_wait */
	uint16_t napi;        /* queue whose NAPI the last frame came from: the
	                       * epoll's napi_id (busy poll) */
	struct pktq held;     /* requests received, reply not yet sent */
	/* busy poll (napi_busy_loop) */
	bool bp_active;       /* inside the busy loop */
	bool bp_owned;        /* the loop owns the NAPI (SCHED | IN_BUSY_POLL) */
	uint16_t bp_napi;     /* NIC whose NAPI the loop polls: napi when it began */
	uint8_t next;         /* enum sink_next: what follows the running chunk */
	int64_t bp_start;
	uint64_t bp_polls, bp_pkts, suspends, resumes;
	uint64_t served;      /* requests answered (datagrams read, for a sink) */
	uint64_t timeouts;    /* epoll_wait() calls that timed out */
	struct sock_snap {    /* the counters above at the end of warm-up */
		uint64_t bp_polls, bp_pkts, suspends, resumes, served, timeouts;
	} snap;
	/* epoll (server = epoll) */
	bool ep_napi_ok;      /* ep->napi_id valid: ep_busy_loop() clears it when a
	                       * busy loop ends empty, a queued frame sets it */
	uint32_t wait_gen;    /* epoll_wait() calls that slept: names the timeout */
	struct rng work_rng;  /* server-work draws: stream SOCK_WORK_STREAM + worker */
};
#define SOCK_WORK_STREAM 0x776f726b00ULL /* "work" */

/* Every reader's socket: one for sink = on, server-threads for an epoll
 * server; none otherwise. */
struct sock_set {
	struct sock *w;
	uint16_t n;
};

/* What a datagram is charged against rcvbuf. */
static inline uint32_t sock_truesize(const struct pkt *p)
{
	return p->len + SOCK_SKB_OVERHEAD;
}

/* Allocate the readers' sockets when apps.sink is on.  0 or -1. */
int sock_init(struct sim *s);
void sock_free(struct sim *s);
/* Queue frame @p on its reader's socket at @t, or drop it (rcvbuf full). */
void sock_enqueue(struct sim *s, struct pkt *p, int64_t t);
/* Record every socket's counters as the window starts (warm-up ends). */
void sock_snapshot(struct sim *s);
/* Fill @r with the window's per-reader counters (@win_ns long); @r owns
 * r->w afterwards.  0 or -1 (out of memory). */
int sock_collect(struct server_result *r, const struct sim *s, double win_ns);
/* Datagrams queued or held (received, reply not sent) on every socket. */
uint64_t sock_in_flight(const struct sim *s);
/* Whether a reader's busy loop owns the NAPI of queue @nic. */
bool sock_busy_polls(const struct sim *s, uint16_t nic);

/* The worker that connection (flow) @flow, arriving on queue @queue (its
 * index in s->nic[]), belongs to, for @n_workers workers:
 * SPREAD_RR: flow % workers; SPREAD_NAPI (SO_INCOMING_NAPI_ID, memcached
 * -N): the worker that serves the queue's NAPI, queue % workers - with
 * more queues than workers queues map round robin onto workers, with more
 * workers than queues workers n_queues.. get no connections (memcached -N
 * gives each worker one queue). */
uint16_t sock_worker_of(enum scn_spread spread, uint32_t flow, uint16_t queue,
			uint16_t n_workers);

#endif
