/* loop_impl.h - internals of the live receive loop shared by loop.c, the
 * sources (source_*.c) and the modes (modes_*.c).  Not installed.
 *
 * Roadmap: a source (UDP socket, TPACKET_V3 ring, AF_XDP socket) knows how
 * to receive a batch without blocking and which fd signals readiness; a
 * mode is one function that runs the loop until it must stop, built from
 * the few primitives below (poll, deliver, wait, sleep, pause), each of
 * which keeps the statistics.  Every decision of a mode comes from src/core.
 */
#ifndef RXLAB_LIVE_LOOP_IMPL_H
#define RXLAB_LIVE_LOOP_IMPL_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "rxlab/live.h"

struct rxl_source;

/* What a source does.  Contract of each op:
 *   poll     receive up to @max packets without blocking (or blocking, for
 *            a source opened blocking) into pkts[0..max) and stamp their
 *            rx_ns; the buffers stay valid until release().  Returns the
 *            count (0 = nothing ready) or a negative errno.
 *   release  give back every buffer handed out since the last release.
 *   drops    cumulative packets the source dropped before the loop saw them
 *            (may be NULL: none known).
 *   close    undo the source's changes and free it. */
struct rxl_source_ops {
	const char *name;
	int (*poll)(struct rxl_source *s, struct rxl_pkt *pkts, uint32_t max);
	void (*release)(struct rxl_source *s);
	uint64_t (*drops)(struct rxl_source *s);
	void (*close)(struct rxl_source *s);
};

struct rxl_source {
	const struct rxl_source_ops *ops;
	int fd;           /* signals readiness with EPOLLIN */
	uint32_t slots;   /* packets the source can hand out between releases */
	bool frames;      /* data is an Ethernet frame (TPACKET_V3, AF_XDP) */
};

/* Slots a source should offer for @c: a poll of budget, a coalesced batch
 * of rx-frames, a BSD burst chunk. */
uint32_t rxl_source_slots(const struct rxl_config *c);

/* Sources.  Each returns NULL with a message in @err on failure. */
struct rxl_source *rxl_source_udp(int fd, const struct rxl_config *c, char *err, size_t errlen);
struct rxl_source *rxl_source_tpacket(int ifindex, const struct rxl_config *c, char *err,
				      size_t errlen);
struct rxl_source *rxl_source_xdp(const char *ifname, uint32_t queue, const struct rxl_config *c,
				  char *err, size_t errlen);

/* Kernel socket options of the socket modes (modes_kernel.c): set them on
 * @sockfd, remembering each option's value before; rxl_kernel_restore()
 * puts those back (rxl_close()). */
int rxl_kernel_setup(struct rxl_loop *l, int sockfd, char *err, size_t errlen);
void rxl_kernel_restore(struct rxl_loop *l);

/* Histogram buckets changed since the last publication: bit b of bits[]
 * is bucket b; words lo..hi hold every set bit (lo > hi: none). */
struct rxl_dirty {
	uint64_t bits[(HIST_BUCKETS + 63) / 64];
	uint32_t lo, hi;
};

/* One socket option as it was before the loop changed it. */
struct rxl_saved_opt {
	int opt;                  /* SOL_SOCKET option */
	socklen_t len;
	uint8_t val[sizeof(struct timeval)];
};
#define RXL_MAX_SAVED_OPTS 8

struct rxl_loop {
	struct rxl_config cfg;
	struct rxl_source *src;
	rxl_batch_fn fn;
	void *arg;
	int epfd;                 /* source fd + stopfd: readiness waits */
	int timer_epfd;           /* stopfd only: timed sleeps */
	int stopfd;               /* eventfd written by rxl_stop() */
	atomic_int stop;          /* rxl_stop() was called */
	atomic_int running;       /* inside rxl_run() */
	int64_t deadline_ns;      /* rxl_run() ends here; INT64_MAX = none */
	int err;                  /* first system call failure of this run */
	struct rxl_pkt *pkts;     /* src->slots entries */
	uint32_t staged;          /* packets in pkts[] not yet delivered */
	int sockfd;               /* the caller's socket whose options were changed, or -1 */
	uint32_t nsaved;
	struct rxl_saved_opt saved[RXL_MAX_SAVED_OPTS];
	/* statistics (loop.c, "publication"): st is the loop thread's own,
	 * updated without synchronisation; pub is the copy other threads read,
	 * a seqlock: pub_seq is odd while the loop thread writes pub */
	struct rxl_stats st;
	atomic_uint_least64_t pub_seq;
	atomic_uint_least64_t pub[sizeof(struct rxl_stats) / sizeof(uint64_t)];
	struct rxl_dirty dirty_latency, dirty_batch; /* buckets of st not yet in pub */
	int64_t pub_last_ns;      /* last publication */
	int64_t cpu_last_ns;      /* last CPU refresh */
	uint32_t polls_since_refresh;
	uint64_t ru_base[4];      /* user ns, sys ns, vol, invol at the run's start */
	uint64_t st_base[4];      /* the same four stats at the run's start */
};

/* CLOCK_MONOTONIC in ns. */
int64_t rxl_now(void);

/* True when the loop must return: rxl_stop(), the deadline, or an error. */
bool rxl_done(struct rxl_loop *l);

/* Receive up to @max packets (capped at the free slots) without blocking
 * into pkts[staged..] and count the poll; staged grows.  Returns the count. */
uint32_t rxl_poll_stage(struct rxl_loop *l, uint32_t max);

/* Deliver every staged packet in one callback (none: nothing), account
 * them, release the source's buffers. */
void rxl_deliver(struct rxl_loop *l);

/* rxl_poll_stage() + rxl_deliver(): one poll of @max delivered at once. */
uint32_t rxl_poll(struct rxl_loop *l, uint32_t max);

enum rxl_wake { RXL_WAKE_READY, RXL_WAKE_TIMEOUT, RXL_WAKE_STOP };

/* Sleep until the source is readable, at most @timeout_ns (-1: no limit;
 * the deadline always limits).  Counts a sleep and a wake-up (READY) or a
 * timer wake-up (TIMEOUT). */
enum rxl_wake rxl_wait_ready(struct rxl_loop *l, int64_t timeout_ns);

/* Sleep until @t_ns without looking at the source (a timer).  Returns
 * TIMEOUT, or STOP. */
enum rxl_wake rxl_sleep_until(struct rxl_loop *l, int64_t t_ns);

/* Busy-wait @ns without sleeping (DPDK rte_delay_us); counts a pause. */
void rxl_pause(struct rxl_loop *l, int64_t ns);

/* Count a poll <-> sleep switch of an adaptive mode. */
void rxl_count_switch(struct rxl_loop *l);

/* Count a change of the coalescing values by DIM or ITR. */
void rxl_count_moderation(struct rxl_loop *l);

/* Publish the statistics for rxl_stats_get() in other threads.  The
 * primitives do it before every wait and at least every millisecond of
 * activity; a mode that may block inside a poll (a blocking source) calls
 * it before that poll. */
void rxl_stats_publish(struct rxl_loop *l);

/* The modes: run until rxl_done().  0, or a negative errno. */
int rxl_mode_interrupt(struct rxl_loop *l);
int rxl_mode_coalesce(struct rxl_loop *l);
int rxl_mode_napi(struct rxl_loop *l);
int rxl_mode_bsd_poll(struct rxl_loop *l);
int rxl_mode_busy(struct rxl_loop *l);
int rxl_mode_hybrid(struct rxl_loop *l);
int rxl_mode_dpdk_power(struct rxl_loop *l);
int rxl_mode_ixy(struct rxl_loop *l);
int rxl_mode_seastar(struct rxl_loop *l);
int rxl_mode_epoll(struct rxl_loop *l);
int rxl_mode_blocking(struct rxl_loop *l);

#endif
