/* gro_rx.h - GRO in the simulated driver poll: a queue's GRO table
 * (src/core/gro.c) with the frames it holds, and what its events cost
 * (gro_rx.c).  Only queues of ports with gro = on have one (nic.gro). */
#ifndef RXLAB_SIM_GRO_RX_H
#define RXLAB_SIM_GRO_RX_H

#include <stdbool.h>
#include <stdint.h>

#include "rxlab/gro.h"
#include "sim/cpu.h"
#include "sim/pkt.h"

struct sim;
struct nic;

struct gro_rx {
	struct gro_table t;
	struct gro_evs ev;
	uint32_t max_segs;     /* frames one slot can hold (gro_max_segs of the
	                        * smallest MSS of the port's stream sources) */
	struct pkt *slot_pkt;  /* slot i's frames at [i * max_segs ..) */
	uint32_t slot_n[GRO_SLOT_N];
	struct pktq normal;    /* frames of the skbs on the normal list, in order */
	struct pktq_u32 {      /* ... and the segment count of each skb */
		uint32_t *v;
		uint32_t cap, head, count;
	} sizes;
	bool pending;          /* skbs were held when the last poll ended, before its
	                        * flush: napi_complete_done()'s "n->gro_bitmask" */
};

/* Give queue @n of a port with gro = on its GRO state (n->gro); nothing
 * for gro = off.  0, or -1 out of memory. */
int gro_rx_init(struct sim *s, struct nic *n);
void gro_rx_free(struct nic *n);

/* napi_gro_receive() of frame @p, taken from @n's ring by the driver poll
 * on @c at @t: gro-pkt of CPU, then the stack for every skb whose normal
 * list goes up now (kern_deliver_skb).  Forwarded frames (a port with a
 * route) and RPS ports bypass GRO: the stack takes them as without it.
 * Returns the time after. */
int64_t gro_rx_receive(struct sim *s, struct cpu *c, struct nic *n, struct pkt *p, int64_t t);

/* The end of a driver poll of @work frames with budget @budget, at @t:
 * the GRO flush of __napi_poll() (budget used: only skbs older than this
 * jiffy when HZ >= 1000, else all) or of napi_complete_done() (only old
 * ones when it will use a timeout - gro_flush_timeout with GRO holding
 * packets or a deferral count left, or irq-suspend-timeout - else all),
 * then the normal list; while a busy poller owns the NAPI (IN_BUSY_POLL)
 * only the normal list, as napi_busy_loop() does after each poll; a
 * busy-polling kthread (threaded = busy-poll) flushes as a full budget
 * does, after every poll (napi_threaded_poll_loop()).
 * Returns the time after. */
int64_t gro_rx_poll_end(struct sim *s, struct cpu *c, struct nic *n, int64_t t, uint32_t work,
			uint32_t budget);

/* The first instant at or after @now when a poll of @n would flush a held
 * skb that the last one kept (it turns old when the jiffy changes), or
 * @ready if that is earlier (no skb held: @ready).  A busy poller that
 * spins over polls that find nothing wakes then. */
int64_t gro_rx_spin_until(const struct sim *s, const struct nic *n, int64_t now, int64_t ready);

/* napi_complete_done()'s gro_pending for @n (false without GRO). */
bool gro_rx_pending(const struct nic *n);

/* Frames GRO holds or has on its normal list (accounting). */
uint64_t gro_rx_in_flight(const struct nic *n);

#endif
