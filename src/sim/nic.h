/* nic.h - the ports and their queues: traffic sources, link, RSS, and per
 * queue the RX FIFO share and ring with DMA, TX ring, qdisc, the interrupt
 * vector and its coalescing (nic.c).
 *
 * A port ([nic NAME]) has combined = N queue pairs; each queue is one
 * struct nic in s->nic[], with its own rings, coalescing engines, NAPI
 * instance and MSI-X vector, as a multi-queue driver has them.  With
 * combined = 1 a port is one struct nic, as a 2001 NIC was.  The port
 * keeps what its queues share: the ingress and egress links, the traffic
 * sources and the RSS indirection table. */
#ifndef RXLAB_SIM_NIC_H
#define RXLAB_SIM_NIC_H

#include <stdbool.h>
#include <stdint.h>

#include "rxlab/adaptive.h"
#include "rxlab/coalesce.h"
#include "rxlab/dim.h"
#include "rxlab/itr.h"
#include "rxlab/napi.h"
#include "rxlab/policy.h"
#include "rxlab/flowdist.h"
#include "rxlab/rng.h"
#include "rxlab/rss.h"
#include "rxlab/scenario.h"
#include "rxlab/sim.h"
#include "sim/client.h"
#include "sim/pkt.h"

struct sim;
struct cpu;

/* A traffic source feeding one port. */
struct source {
	const struct scn_traffic *cfg;
	uint16_t nic;
	struct rng rng;
	int64_t next_offer;   /* when the sender offers its next frame */
	uint64_t k;           /* frames offered so far (constant / on-off phase math) */
	int64_t period_ns;    /* nominal gap, for constant and on-off */
	int64_t wire_ps;      /* wire time of its next frame on its port */
	uint32_t len;         /* bytes of its next frame (a trace's change per frame) */
	uint64_t speed_bps;   /* its port's speed */
	/* constant rate: offer k is at start + floor(k * 1e9 / rate), kept as
	 * quotient and remainder and stepped by 1e9 / rate (step_q, step_r:
	 * its quotient and remainder, divided once) without dividing */
	int64_t off_q;
	uint64_t off_r;
	int64_t step_q;
	uint64_t step_r;
	/* flows: the flow of its next frame, drawn from a stream of its own so
	 * that arrival times do not depend on the number of flows */
	struct rng flow_rng;
	struct flowdist fd;
	uint32_t next_flow;
	uint16_t *flow_queue; /* flow -> queue within the port (RSS), NULL: one queue */
	uint32_t *flow_hash;  /* flow -> its RSS hash, NULL with flow_queue */
	struct client client; /* pattern = closed: the requests it will send */
	/* A constant source alone on its port, whose frames never wait long
	 * enough to be link-dropped, is periodic on the wire: frame j's last
	 * bit is in at start_ns * 1000 + (j / drop_p) * drop_tp_ps +
	 * drop_end[j % drop_p] picoseconds (nic.c, drop_table()).  NULL: not. */
	int64_t *drop_end;
	uint32_t drop_p;      /* frames per period: rate / gcd(1e9, rate) */
	int64_t drop_tp_ps;   /* the period: 1e12 / gcd(1e9, rate) */
};

/* The port's next offered frame as the link will resolve it (nic.c). */
struct link_frame {
	struct source *src;   /* NULL: no source has a frame to offer */
	struct nic *q;        /* the queue RSS sends it to */
	struct pkt p;         /* t_evt: when it reaches the port or is link-dropped */
	int64_t end_ps;       /* its last bit in, if it is sent */
};

/* A port: what its queues share.  Its link resolves frames ahead of time
 * into each queue's inq (the link does not depend on the queues), and a
 * queue takes its own frames from there when it is brought up to date
 * (nic_rx_advance), so each queue sees exactly the frames that reached it
 * by then, whichever queue's event moved the link. */
struct port {
	const struct scn_nic *cfg;
	uint16_t id;
	uint16_t first, n_q;  /* its queues: s->nic[first .. first + n_q) */
	uint16_t n_src, src[SCN_MAX_TRAFFIC];
	struct source *closed; /* its closed-loop source (then its only one), else NULL */
	int64_t wire_free;    /* ingress link busy until (ps), after the frames resolved */
	int64_t tx_free;      /* egress link busy until (ps) */
	uint32_t tx_wire_len; /* length of the last frame sent (UINT32_MAX: none yet) */
	int64_t tx_wire_ps;   /* and its wire time, saved by tx_place() */
	struct link_frame peek; /* the next frame, while peeked (until it is resolved) */
	bool peeked;
	/* Every frame of its only source goes to queue drop_q (one queue, or one
	 * flow): while that queue cannot take a frame, the frames that reach it
	 * are counted without being built (nic.c, drop_run()).  NULL: not so, or
	 * the per-frame path was asked for (RXLAB_RX_PERFRAME, read at init). */
	struct source *drop_src;
	uint16_t drop_q;
	/* Its only source when that is constant, open-loop and without a frame
	 * count: link_fill() then resolves its frames in a loop of their own
	 * (nic.c, link_fill_constant()).  NULL: not so, or RXLAB_RX_PERFRAME. */
	struct source *const_src;
	uint32_t indir_size;
	uint32_t indir[RSS_INDIR_MAX]; /* RSS indirection table: entry -> queue */
};

/* The driver's transmit lock of a port (dev->xmit_lock, netif_tx_lock) on
 * a machine with several CPUs: the intervals during which chunks already
 * computed hold it.  A CPU that wants it spins until a gap long enough for
 * its own hold (see xlock_acquire in kernel.c). */
#define XLOCK_MAX 4096
struct xlock {
	uint32_t n;
	int64_t start[XLOCK_MAX], end[XLOCK_MAX];
	uint8_t cpu[XLOCK_MAX];
	/* what lets an acquire skip the scans, exactly: how many of the n
	 * holds each CPU has (none of another CPU: no gap to look for), and a
	 * lower bound on their ends (above now: nothing to prune) */
	uint32_t per_cpu[256];
	int64_t min_end;
};

struct gro_rx;

struct nic {
	const struct scn_nic *cfg; /* its port's */
	const struct scn_napi *napi_cfg; /* its NAPI's settings (cfg->napi[qid]) */
	uint16_t id;          /* index in s->nic[] */
	uint16_t port, qid;   /* its port (s->port[]) and its queue number there */
	int16_t out;          /* egress queue for forwarding, -1 = deliver locally */
	char vec[SCN_NAME_LEN + 16]; /* its vector's name in /proc/interrupts */
	/* RX */
	struct pktq inq;      /* frames its port's link resolved for it, not yet in
	                       * (t_evt: when each reaches the FIFO or is link-dropped) */
	uint32_t fifo_cap;    /* its share of the port's rx-fifo, bytes */
	struct pktq ring;     /* accepted frames, not yet taken by the driver */
	uint32_t ring_used;   /* descriptors owned by hardware or holding frames */
	uint32_t notified;    /* ring entries (from head) already seen by rx_coal */
	struct pktq fifo;     /* frames waiting for a descriptor */
	uint32_t fifo_bytes;
	int64_t dma_free;     /* DMA engine busy until */
	struct coal rx_coal;
	struct coal_ahead rx_ahead; /* rx_coal's fire-time walk over the ring (nic.c lookahead) */
	/* TX */
	struct pktq txr;      /* descriptors not yet cleaned, in departure order */
	uint32_t departed;    /* txr entries (from head) already on the wire */
	struct pktq qdisc;
	int64_t tx_free;      /* egress link busy until */
	struct coal tx_coal;
	struct coal_ahead tx_ahead; /* tx_coal's fire-time walk over txr (nic.c lookahead) */
	struct xlock *xlock;  /* dev->xmit_lock holds, NULL = not modelled */
	/* interrupt line */
	bool masked;          /* asserted and not yet re-enabled by the driver */
	bool walk_ref;        /* test switch: predict fire times by the reference walk
	                       * (nic.c lookahead_walk), not the kept one; set it between
	                       * sim_init() and sim_run() */
	bool wake_ref;        /* test switch: wake at the next arrival, and ask again after
	                       * every transmit, even when that cannot change the line's
	                       * decision (nic.c arrival_moot, xmit_moot); set it
	                       * between sim_init() and sim_run() */
	bool rx_off;          /* tx-clean = hardirq under NAPI: the RX cause is disabled while
	                       * its NAPI is scheduled; the line still fires for TX */
	bool irq_rx;          /* the last assertion included the RX cause */
	bool icr_rx;          /* the last cause-register read showed RX (asserted, or
	                       * completions pending) */
	uint32_t wake_gen;
	uint32_t ack_count;   /* frames delivered since the last ACK sent */
	int64_t wake_t;       /* time of the pending valid EV_NIC_WAKE, or COAL_NEVER */
	uint16_t irq_cpu;     /* CPU of the next interrupt (irq-cpu; float picks per IRQ) */
	bool isr_more;        /* an isr-loop ISR continues in its next slice */
	struct napi napi;     /* its counters are the core's: napi_watchdog() counts fires */
	uint32_t timer_gen;   /* generation of the pending EV_NAPI_TIMER */
	bool timer_armed;     /* the EV_NAPI_TIMER of timer_gen has not expired yet */
	int64_t timer_at;     /* ... its expiry (the idle governor's sleep length) */
	/* the NAPI hrtimer, as the caller owns it: armed = expired + cancelled
	 * + (timer_armed), and every expiry calls napi_watchdog() once, when
	 * the timer IRQ is serviced (sim_check_invariants) */
	uint64_t timers_armed;     /* hrtimer_start() calls */
	uint64_t timers_cancelled; /* ... that restarted a timer still armed */
	uint64_t timers_expired;   /* ... that expired (a timer IRQ raised) */
	uint32_t timer_irqs_merged; /* expiries merged into this NAPI's timer IRQ
	                             * still queued: its ISR runs napi_watchdog()
	                             * once for each, as Linux runs the callback
	                             * once per expiry */
	int16_t napi_thread;  /* threaded NAPI: its kthread, else -1 */
	struct gro_rx *gro;   /* gro = on: its GRO table and held frames (gro_rx.h), else NULL */
	struct dim dim;       /* adaptive-rx = dim */
	struct adaptive rate; /* adaptive-rx = pkt-rate */
	struct itr itr;       /* InterruptThrottleRate != 0 */
	struct rxl_policy_run policy; /* adaptive-rx = policy:NAME (sim/policy.c) */
	/* per interrupt cycle, zeroed by the ISR (e1000 total_{rx,tx}_*) */
	uint32_t cyc_rx_pkts, cyc_rx_bytes, cyc_tx_pkts, cyc_tx_bytes;
	uint64_t wd_rx_bytes, wd_tx_bytes; /* byte counters at the last watchdog run */
	struct nic_counters c;
};

/* Build port @id of @cfg with its queues s->nic[@first ..) and its traffic
 * sources.  0, or -1 out of memory. */
int port_init(struct sim *s, struct port *pt, const struct scn_nic *cfg, uint16_t id,
	      uint16_t first);
void nic_free(struct nic *n);
void source_free(struct source *src);
/* Enable the interrupt line at the start of the run. */
void nic_start(struct sim *s, struct nic *n);
/* Bring RX up to @t: draw arrivals, fill FIFO/ring, tell the coalescer about
 * DMA completions.  Calls with an earlier @t than before are no-ops. */
void nic_rx_advance(struct sim *s, struct nic *n, int64_t t);
/* Is the ring's head frame in host memory at @t? (after nic_rx_advance(t)) */
static inline bool nic_rx_ready(const struct nic *n, int64_t t)
{
	return n->ring.count && pktq_at(&n->ring, 0)->t_evt <= t;
}
struct pkt nic_rx_take(struct nic *n);
/* Earliest time a frame can be ready in host memory (ring head, else a
 * lower bound from the link). */
int64_t nic_rx_next_ready(struct sim *s, struct nic *n);
/* The driver gives @k descriptors back at @t; waiting FIFO frames move in. */
void nic_rx_refill(struct sim *s, struct nic *n, int64_t t, uint32_t k);
/* Transmit @p at @t (from forwarding): ring, else qdisc, else drop. */
void nic_xmit(struct sim *s, struct nic *n, const struct pkt *p, int64_t t);
/* Count frames on the wire by @t (TX-OK, latency, TX completions). */
void nic_tx_advance(struct sim *s, struct nic *n, int64_t t);
/* CPU @c cleans transmitted descriptors at @t and frees their sk_buffs;
 * returns how many, and in *remote how many of those sk_buffs another CPU
 * allocated (the costs are the caller's). */
uint32_t nic_tx_clean(struct sim *s, struct cpu *c, struct nic *n, int64_t t, uint32_t *remote);
/* Driver read the cause register at @t (n->icr_rx says whether RX was in it). */
void nic_ack(struct sim *s, struct nic *n, int64_t t);
/* Driver re-enabled the interrupt, every cause, at @t. */
void nic_unmask(struct sim *s, struct nic *n, int64_t t);
/* tx-clean = hardirq under NAPI: the ISR is done at @t and re-enables the
 * line for TX; the RX cause stays disabled while @rx_polled (its NAPI is
 * scheduled) until nic_unmask().  Olsson's e1000 of Oct 2001: "during poll
 * we disable only RX interrupts" (shared/seeds/001). */
void nic_isr_done(struct sim *s, struct nic *n, int64_t t, bool rx_polled);
/* Does @n raise TX completion interrupts (tx-clean = irq or hardirq)? */
static inline bool nic_tx_irqs(const struct nic *n)
{
	return n->cfg->tx_clean != TX_CLEAN_XMIT;
}
/* EV_NIC_WAKE */
void nic_wake(struct sim *s, struct nic *n, uint32_t gen);
/* pattern = closed: the client of @p's flow learns at @t that its reply
 * left (@lost false: the next request goes client-delay later) or that
 * the request or its reply was lost (client-rto later).  Nothing for a
 * port without a closed-loop source. */
void nic_client_next(struct sim *s, const struct pkt *p, int64_t t, bool lost);
/* Frames held in this port's queues (for the accounting check). */
uint64_t nic_in_flight(const struct nic *n);

#endif
