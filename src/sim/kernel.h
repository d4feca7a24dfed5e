/* kernel.h - the Linux receive path on the CPUs: ISRs, softirq, NAPI, the
 * backlog, forwarding, kernel threads (kernel.c). */
#ifndef RXLAB_SIM_KERNEL_H
#define RXLAB_SIM_KERNEL_H

#include <stdint.h>

#include "sim/cpu.h"
#include "sim/pkt.h"

struct sim;
struct nic;

/* A local protocol that loopback frames of one enum pkt_kind belong to (as
 * the kernel's inet_protos): the application that sends them registers it
 * in s->proto[kind] when it is built, and kernel.c hands it the frames.
 * An application counts its frames in backlogs itself: before it calls
 * kern_netif_rx(), and down again in input and drop. */
struct proto_ops {
	/* The stack handles @p on @c at @t (process_backlog): returns the
	 * time after. */
	int64_t (*input)(struct sim *s, struct cpu *c, struct pkt *p, int64_t t);
	/* @p was dropped at a full backlog. */
	void (*drop)(struct sim *s, const struct pkt *p);
};

/* The CPU's interrupt levels: the hard IRQ handler of a source (a NIC
 * index, IRQ_TIMER | NIC index, or IRQ_TICK) returns a duration that begins
 * with the profile's idle-exit when the IRQ ended an idle period
 * (c->exit_ns); the softirq level runs handle_softirqs(). */
extern const struct level_ops kern_level_ops;
/* ksoftirqd/N, the threaded-NAPI kthread of a port (thread.nic), and the
 * FreeBSD idle poller (kern.polling.idle_poll). */
extern const struct thread_ops kern_ksoftirqd_ops, kern_napi_thread_ops, kern_idle_poll_ops;
/* The kthread of a NAPI with threaded = busy-poll (kernel.c). */
extern const struct thread_ops kern_napi_busy_thread_ops;
/* CPU ns busy-polling kthread @t spent in polls that found nothing, the
 * one in progress included (up to its CPU time as last accounted). */
static inline int64_t kern_spin_ns(const struct thread *t)
{
	return t->spin_ns + (t->spinning ? t->cpu_ns - t->spin_from : 0);
}
/* irq_exit(): run softirqs inline if pending and not already in one. */
void kern_irq_exit(struct sim *s, struct cpu *c);
/* Begin a handle_softirqs() run at the softirq level (already pushed). */
void kern_softirq_begin(struct sim *s, struct cpu *c);
/* EV_NAPI_TIMER */
void kern_napi_timer(struct sim *s, struct nic *n, uint32_t gen);
/* EV_TICK: the clock interrupt of @c; schedules the next one. */
void kern_tick(struct sim *s, struct cpu *c);

/* The stack takes frame @p of queue @n from its driver poll on @c at @t:
 * RPS steers it, or it is forwarded or delivered.  Returns the time after. */
int64_t kern_rx_frame(struct sim *s, struct cpu *c, struct nic *n, struct pkt *p, int64_t t);
/* The stack takes one skb of @segs frames, popped from @q, at @t (GRO's
 * normal list going up).  One frame: as kern_rx_frame() without RPS.  More
 * (a merged skb of local TCP segments): local-deliver once, each frame to
 * the socket (or counted delivered), one delayed-ACK step for @segs
 * frames.  Returns the time after. */
int64_t kern_deliver_skb(struct sim *s, struct cpu *c, struct pktq *q, uint32_t segs, int64_t t);
/* netif_rx(): queue @p on @c's backlog (or drop it) and raise NET_RX.
 * True when this scheduled the backlog NAPI (an RPS sender's IPI). */
bool kern_netif_rx(struct sim *s, struct cpu *c, struct pkt *p);

/* For busy polling (apps/sink.c, in the reader's context). */
/* A driver ->poll() of at most @limit RX frames starting at @t; returns
 * the time after it and the frames in *work.  Traced (napi:napi_poll at
 * that time, budget @limit) as napi_busy_loop() traces its polls. */
int64_t kern_nic_poll(struct sim *s, struct cpu *c, struct nic *n, int64_t t, uint32_t limit,
		      uint32_t *work);
/* The driver is done with a poll of @work < budget frames: complete, and
 * re-arm / arm the timer / reschedule (onto @c) as napi_complete_done() says. */
void kern_napi_settle(struct sim *s, struct cpu *c, struct nic *n, uint32_t work);
/* napi_schedule() from process context on @c (napi_resume_irqs). */
void kern_napi_schedule(struct sim *s, struct cpu *c, struct nic *n);
/* __napi_schedule() of a NAPI whose SCHED the caller already holds (a busy
 * poller giving it back, __busy_poll_stop): onto @c's poll list with NET_RX
 * raised, or to its kthread; no napi_schedule_prep(), which would only set
 * MISSED. */
void kern_napi_reschedule(struct sim *s, struct cpu *c, struct nic *n);
/* local_bh_enable() in a thread on @c: run a raised NET_RX inline now.
 * Call after the thread's next chunk is armed. */
void kern_local_bh_enable(struct sim *s, struct cpu *c);
/* hrtimer_start(napi->timer, @rel_ns) (napi_suspend_irqs). */
void kern_napi_timer_start(struct sim *s, struct nic *n, int64_t rel_ns);

#endif
