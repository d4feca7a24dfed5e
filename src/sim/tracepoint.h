/* tracepoint.h - the kernel tracepoints of a run (tracepoint.c): the
 * events of rxlab/sim.h's struct rxl_trace, at the places in the receive
 * path where Linux fires them.
 *
 * Each hook is named as the kernel's trace_*() call and costs one branch
 * on s->tp when tracing is off (the default): the model never depends on
 * whether it is on.  An event may be stamped later than now (a frame a
 * poll chunk hands up the stack at its computed time) but never earlier,
 * so a buffer ordered by (time, sequence) releases every event older than
 * now in order, and the output is in time order across CPUs, as
 * `perf script` sorts it.
 */
#ifndef RXLAB_SIM_TRACEPOINT_H
#define RXLAB_SIM_TRACEPOINT_H

#include "sim/sim.h"

/* Tracing state of a run, owned by its caller (run.c). */
struct tracepoints;

/* A tracer that hands @tr the events of @s; s->tp stays NULL until the
 * caller sets it.  NULL when out of memory. */
struct tracepoints *tp_new(struct rxl_trace *tr);
/* The run is over: release every event still buffered (in order) and
 * free @tp.  NULL is fine. */
void tp_finish(struct sim *s, struct tracepoints *tp);

/* The out-of-line halves of the hooks below (tracepoint.c). */
void tp_irq(struct sim *s, const struct cpu *c, const struct nic *n, enum rxl_tp_kind k,
	    int64_t t);
void tp_napi_poll(struct sim *s, const struct cpu *c, uint16_t napi, uint32_t work,
		  uint32_t budget, int64_t t);
void tp_rx_skb(struct sim *s, const struct cpu *c, const struct pkt *p, uint32_t len, int64_t t);

/* irq:irq_handler_entry / _exit of queue @n's vector on @c at @t. */
static inline void trace_irq_handler_entry(struct sim *s, const struct cpu *c,
					   const struct nic *n, int64_t t)
{
	if (s->tp)
		tp_irq(s, c, n, RXL_TP_IRQ_ENTRY, t);
}

static inline void trace_irq_handler_exit(struct sim *s, const struct cpu *c,
					  const struct nic *n, int64_t t)
{
	if (s->tp)
		tp_irq(s, c, n, RXL_TP_IRQ_EXIT, t);
}

/* napi:napi_poll: NAPI @napi (a queue index, or NAPI_BACKLOG for @c's
 * backlog) returned @work of @budget at @t. */
static inline void trace_napi_poll(struct sim *s, const struct cpu *c, uint16_t napi,
				   uint32_t work, uint32_t budget, int64_t t)
{
	if (s->tp)
		tp_napi_poll(s, c, napi, work, budget, t);
}

/* net:netif_receive_skb: an skb of @len bytes (skb->len), whose first
 * frame is @p, goes up the stack on @c at @t. */
static inline void trace_netif_receive_skb(struct sim *s, const struct cpu *c,
					   const struct pkt *p, uint32_t len, int64_t t)
{
	if (s->tp)
		tp_rx_skb(s, c, p, len, t);
}

/* skb->len of a port's frame of @frame_len bytes (FCS included) at
 * netif_receive_skb: eth_type_trans() has pulled the 14-byte Ethernet
 * header and the driver left the 4-byte FCS out. */
static inline uint32_t tp_skb_len(uint32_t frame_len)
{
	return frame_len > 18 ? frame_len - 18 : 0;
}

#endif
