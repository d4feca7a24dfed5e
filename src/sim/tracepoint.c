/* tracepoint.c - the kernel tracepoints of a run (see tracepoint.h).
 *
 * The hooks fill a struct rxl_tp_event as the kernel's TP_fast_assign()
 * would, with what the simulator knows at that moment (the CPU, the thread
 * running on it, the queue), and push it into a binary heap ordered by
 * (time, sequence).  Before each push every event older than now leaves
 * the heap for the caller's emit(): nothing stamped later can precede it.
 * The heap holds the events of the chunks in progress, a poll's frames at
 * most per CPU, so it stays small.
 */
#include "sim/tracepoint.h"

#include <stdlib.h>

/* Made-up kernel addresses (direct map, 0xffff888...): a queue's napi
 * struct, a CPU's backlog NAPI (per-CPU softnet_data), and the skbs, taken
 * from a ring of TP_SKB_SLOTS slots as a slab cache reuses them. */
#define TP_NAPI_BASE 0xffff888100a00000ULL
#define TP_BACKLOG_BASE 0xffff88813bc00000ULL
#define TP_SKB_BASE 0xffff888104000000ULL
#define TP_SKB_SLOTS 1024
/* The simulated /proc/interrupts numbers queue q's vector 24 + q
 * (src/report/sim_report.c interrupts_table). */
#define TP_IRQ_BASE 24
/* A thread's pid: 1000 + its index (0 is the idle task, swapper). */
#define TP_PID_BASE 1000

struct tp_slot {
	struct rxl_tp_event e;
	uint64_t seq;
};

struct tracepoints {
	struct rxl_trace *out;
	struct tp_slot *heap;
	size_t n, cap;
	uint64_t seq;         /* events pushed */
	uint64_t skbs;        /* netif_receive_skb events: the skb slot */
};

struct tracepoints *tp_new(struct rxl_trace *tr)
{
	struct tracepoints *tp = calloc(1, sizeof(*tp));

	if (!tp)
		return NULL;
	tp->out = tr;
	tr->emitted = 0;
	tr->last_ns = 0;
	tr->truncated = tr->stopped = tr->nomem = false;
	return tp;
}

static bool slot_before(const struct tp_slot *a, const struct tp_slot *b)
{
	return a->e.t_ns < b->e.t_ns || (a->e.t_ns == b->e.t_ns && a->seq < b->seq);
}

static void slot_swap(struct tp_slot *a, struct tp_slot *b)
{
	struct tp_slot x = *a;

	*a = *b;
	*b = x;
}

static void heap_up(struct tracepoints *tp, size_t i)
{
	while (i > 0 && slot_before(&tp->heap[i], &tp->heap[(i - 1) / 2])) {
		slot_swap(&tp->heap[i], &tp->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
}

static void heap_down(struct tracepoints *tp, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < tp->n && slot_before(&tp->heap[l], &tp->heap[m]))
			m = l;
		if (l + 1 < tp->n && slot_before(&tp->heap[l + 1], &tp->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		slot_swap(&tp->heap[i], &tp->heap[m]);
		i = m;
	}
}

/* No more events: the run goes on untraced (s->tp NULL, hooks free). */
static void tp_stop(struct sim *s, struct tracepoints *tp)
{
	tp->n = 0;
	if (s)
		s->tp = NULL;
}

/* Hand the oldest event to the caller.  False when the events stop. */
static bool emit_top(struct tracepoints *tp)
{
	struct rxl_trace *tr = tp->out;
	struct rxl_tp_event e = tp->heap[0].e;

	tp->heap[0] = tp->heap[--tp->n];
	heap_down(tp, 0);
	if (tr->limit && tr->emitted == tr->limit) {
		tr->truncated = true;
		return false;
	}
	tr->emitted++;
	tr->last_ns = e.t_ns;
	if (tr->emit(tr->ctx, &e)) {
		tr->stopped = true;
		return false;
	}
	return true;
}

/* Release every event older than @before (all with INT64_MAX). */
static bool release(struct tracepoints *tp, int64_t before)
{
	while (tp->n && tp->heap[0].e.t_ns < before)
		if (!emit_top(tp))
			return false;
	return true;
}

static void push(struct sim *s, struct rxl_tp_event *e)
{
	struct tracepoints *tp = s->tp;

	if (!release(tp, s->eng.now)) {
		tp_stop(s, tp);
		return;
	}
	if (tp->n == tp->cap) {
		size_t cap = tp->cap ? 2 * tp->cap : 256;
		struct tp_slot *h = realloc(tp->heap, cap * sizeof(*h));

		if (!h) {
			tp->out->nomem = true;
			tp_stop(s, tp);
			return;
		}
		tp->heap = h;
		tp->cap = cap;
	}
	/* no hook stamps the past, so this event is not older than any
	 * already out (tests/sim/tracepoints.sh checks the order) */
	tp->heap[tp->n] = (struct tp_slot){ *e, tp->seq++ };
	heap_up(tp, tp->n++);
}

/* The common fields: @c and the thread running on it. */
static struct rxl_tp_event event(const struct sim *s, const struct cpu *c, enum rxl_tp_kind k,
				 int64_t t)
{
	struct rxl_tp_event e = { .t_ns = t, .kind = k, .cpu = c->id, .comm = "swapper" };

	if (c->cur >= 0) {
		e.pid = TP_PID_BASE + c->cur;
		e.comm = s->thr[c->cur].name;
	}
	return e;
}

void tp_irq(struct sim *s, const struct cpu *c, const struct nic *n, enum rxl_tp_kind k,
	    int64_t t)
{
	struct rxl_tp_event e = event(s, c, k, t);

	e.irq = TP_IRQ_BASE + n->id;
	e.name = n->vec;
	push(s, &e);
}

void tp_napi_poll(struct sim *s, const struct cpu *c, uint16_t napi, uint32_t work,
		  uint32_t budget, int64_t t)
{
	struct rxl_tp_event e = event(s, c, RXL_TP_NAPI_POLL, t);

	if (napi == NAPI_BACKLOG) {
		e.name = "(no_device)"; /* napi->dev is NULL: the trace's own word */
		e.addr = TP_BACKLOG_BASE + (uint64_t)c->id * 0x40000;
	} else {
		e.name = s->nic[napi].cfg->name;
		e.addr = TP_NAPI_BASE + (uint64_t)napi * 0x1000;
	}
	e.work = work;
	e.budget = budget;
	push(s, &e);
}

void tp_rx_skb(struct sim *s, const struct cpu *c, const struct pkt *p, uint32_t len, int64_t t)
{
	struct rxl_tp_event e = event(s, c, RXL_TP_NETIF_RECEIVE_SKB, t);

	/* a loopback frame (an application's protocol) comes in on lo */
	e.name = s->proto[p->reply] ? "lo" : s->nic[p->in_nic].cfg->name;
	e.addr = TP_SKB_BASE + (s->tp->skbs++ % TP_SKB_SLOTS) * 0x100;
	e.len = len;
	push(s, &e);
}

void tp_finish(struct sim *s, struct tracepoints *tp)
{
	if (!tp)
		return;
	if (s && s->tp == tp)
		release(tp, INT64_MAX);
	free(tp->heap);
	free(tp);
}
