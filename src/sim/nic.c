/* nic.c - a network port: ingress link, RX FIFO and descriptor ring with
 * DMA, TX ring and qdisc, and an interrupt line with RX and TX coalescing.
 *
 * Frame path on receive: the sender offers a frame; if the link has been
 * busy longer than link-queue the frame is dropped at the link, else it is
 * serialised (64 B frames take 84 B of wire time: preamble + IFG).  When its
 * last bit is in, it takes a free descriptor (DMA: fixed latency plus bus
 * time per byte, one transfer at a time) or waits in the on-chip FIFO; with
 * no FIFO room it is an overrun (RX-OVR).  A DMA completion is what the
 * coalescing engine counts.
 *
 * Interrupt line: asserting it masks it until the driver re-enables it
 * (nic_unmask).  While unmasked the line is re-evaluated at the next time
 * anything can change: a coalescing deadline or the next DMA completion.
 */
#include "sim/sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rxlab/rss.h"
#include "sim/gro_rx.h"

int pktq_init(struct pktq *q, uint32_t cap)
{
	uint64_t slots = 1;

	q->cap = cap ? cap : 1;
	while (slots < q->cap)
		slots <<= 1; /* at most 2^32: mask fits in 32 bits */
	q->mask = (uint32_t)(slots - 1);
	q->head = q->count = 0;
	q->buf = calloc(slots, sizeof(*q->buf));
	return q->buf ? 0 : -1;
}

void pktq_free(struct pktq *q)
{
	free(q->buf);
	q->buf = NULL;
}

/* ---- link ---- */

/* Wire time of a frame in picoseconds: frame + 8 B preamble + 12 B IFG. */
static int64_t wire_ps(uint32_t len, uint64_t speed_bps)
{
	return (int64_t)(((unsigned __int128)(len + 20) * 8 * 1000000000000ull) / speed_bps);
}

/* Wire time of a trace frame: the same as wire_ps() in 64 bits, which a
 * frame of at most 9216 B cannot overflow (9236 * 8e12 < 2^63). */
static int64_t wire_ps_trace(uint32_t len, uint64_t speed_bps)
{
	return (int64_t)((uint64_t)(len + 20) * 8 * 1000000000000ull / speed_bps);
}

/* ---- traffic sources ---- */

/* Offers later than this are never reached: the link works in
 * picoseconds (ns x 1000, link_peek()), which must fit
 * in int64, and a run lasts at most an hour.  About 53 days. */
#define OFFER_MAX_NS (INT64_MAX / 1000 / 2)

/* start + t * 1000 / milli without overflow, or INT64_MAX ("never") past
 * OFFER_MAX_NS: t * 1000 wrapped for a trace of more than 106 days.
 * q * 1000 + r * 1000 / milli is the same quotient, exactly.  The loader
 * keeps traces to 1000 h; this guards every other caller. */
static int64_t trace_offset_ns(int64_t start, int64_t t, uint32_t milli)
{
	int64_t q = t / milli, r = t % milli, v;

	if (q > OFFER_MAX_NS / 1000)
		return INT64_MAX;
	v = start + q * 1000 + r * 1000 / milli;
	return v > OFFER_MAX_NS ? INT64_MAX : v;
}

/* Offer @k of a trace source: its capture time scaled by trace-speed; the
 * frame's length and wire time become the source's next. */
static int64_t offer_trace(struct source *src, uint64_t k)
{
	const struct scn_traffic *c = src->cfg;

	if (k >= c->trace->n)
		return INT64_MAX; /* the trace is over: the sender stops */
	src->len = c->trace->len[k];
	src->wire_ps = wire_ps_trace(src->len, src->speed_bps);
	return trace_offset_ns(c->start_ns, c->trace->t_ns[k], c->trace_speed_milli);
}

/* Offer k+1 of a constant-rate source from offer k: floor((k+1)e9/rate)
 * = floor(k e9/rate) + e9/rate, plus one when the remainders carry
 * (offer_step() on the offset's quotient and remainder). */
static inline void offer_step(int64_t *off_q, uint64_t *off_r, int64_t step_q, uint64_t step_r,
			      uint64_t rate)
{
	*off_q += step_q;
	*off_r += step_r;
	if (*off_r >= rate) {
		*off_r -= rate;
		(*off_q)++;
	}
}

static int64_t offer_constant_next(struct source *src)
{
	offer_step(&src->off_q, &src->off_r, src->step_q, src->step_r, src->cfg->rate_pps);
	return src->cfg->start_ns + src->off_q;
}

static int64_t offer_onoff(const struct source *src, uint64_t k)
{
	const struct scn_traffic *c = src->cfg;
	uint64_t per_on = (uint64_t)((c->on_ns + src->period_ns - 1) / src->period_ns);
	uint64_t cycle, j;

	if (per_on == 0)
		per_on = 1;
	cycle = k / per_on;
	j = k % per_on;
	return c->start_ns + (int64_t)cycle * (c->on_ns + c->off_ns) + (int64_t)j * src->period_ns;
}

/* A closed-loop source's next request is the earliest it scheduled. */
static void closed_next(struct source *src)
{
	if (!client_next(&src->client, &src->next_offer, &src->next_flow))
		src->next_offer = INT64_MAX;
}

/* pattern = stream: segment @k belongs to flow (k / stream-burst) % flows:
 * each flow sends a burst back to back (a TSO/GSO skb the sender's NIC
 * cut into segments), then the next flow's turn, round robin. */
static uint32_t stream_flow(const struct scn_traffic *c, uint64_t k)
{
	return (uint32_t)((k / c->stream_burst) % c->flows);
}

/* source_step() for every pattern (the common case is inline below). */
static void source_step_any(struct source *src)
{
	if (src->cfg->pattern == TRAFFIC_CLOSED) {
		src->k++;
		client_pop(&src->client);
		closed_next(src);
		return;
	}
	if (src->cfg->count && src->k + 1 >= src->cfg->count) {
		src->k++;
		src->next_offer = INT64_MAX; /* count reached: the sender stops */
		return;
	}
	switch (src->cfg->pattern) {
	case TRAFFIC_CONSTANT:
		src->k++;
		src->next_offer = offer_constant_next(src);
		break;
	case TRAFFIC_STREAM:
		src->k++;
		src->next_offer = offer_constant_next(src);
		src->next_flow = stream_flow(src->cfg, src->k);
		return;
	case TRAFFIC_POISSON:
		src->next_offer += rng_exp_ns(&src->rng, 1e9 / (double)src->cfg->rate_pps);
		src->k++;
		break;
	case TRAFFIC_ONOFF:
		src->next_offer = offer_onoff(src, ++src->k);
		break;
	case TRAFFIC_TRACE:
		src->next_offer = offer_trace(src, ++src->k);
		break;
	case TRAFFIC_CLOSED: /* above */
		break;
	}
	src->next_flow = flowdist_draw(&src->fd, &src->flow_rng);
}

/* @src moves on to its next frame.  Inline for a constant source with no
 * frame count (once per offered frame, 148.8 M a simulated second on the
 * 100G host): what source_step_any() does for it. */
static inline __attribute__((always_inline)) void source_step(struct source *src)
{
	if (src->cfg->pattern == TRAFFIC_CONSTANT && !src->cfg->count) {
		src->k++;
		src->next_offer = offer_constant_next(src);
		src->next_flow = flowdist_draw(&src->fd, &src->flow_rng);
		return;
	}
	source_step_any(src);
}

/* Flow -> hash and queue of @pt for @src's flows: the Toeplitz hash of
 * each flow's 5-tuple (or address pair) through the indirection table.
 * Only a port that has a use for them keeps them: several queues, RPS. */
static int flow_queues(struct port *pt, struct source *src)
{
	const struct scn_traffic *c = src->cfg;
	struct rss_tuple tu;

	if (pt->n_q == 1 && pt->cfg->rps_n == 0)
		return 0;
	src->flow_queue = malloc(c->flows * sizeof(*src->flow_queue));
	src->flow_hash = malloc(c->flows * sizeof(*src->flow_hash));
	if (!src->flow_queue || !src->flow_hash)
		return -1;
	for (uint32_t f = 0; f < c->flows; f++) {
		rss_flow_tuple(f, (uint16_t)c->dport, &tu);
		src->flow_hash[f] = rss_hash_v4(rss_default_key, &tu, pt->cfg->rss_l4);
		src->flow_queue[f] = (uint16_t)rss_queue(pt->indir, pt->indir_size,
							 src->flow_hash[f]);
	}
	return 0;
}

static int source_init(struct sim *s, struct source *src, const struct scn_traffic *cfg,
		       struct port *pt, uint64_t stream)
{
	const struct scn_nic *port = pt->cfg;

	src->cfg = cfg;
	src->nic = pt->id;
	src->k = 0;
	src->off_q = 0;
	src->off_r = 0;
	src->step_q = cfg->rate_pps ? (int64_t)(1000000000u / cfg->rate_pps) : 0;
	src->step_r = cfg->rate_pps ? 1000000000u % cfg->rate_pps : 0;
	src->wire_ps = wire_ps(cfg->frame_bytes, port->speed_bps);
	src->period_ns = cfg->rate_pps ? (int64_t)(1000000000u / cfg->rate_pps) : 1;
	if (src->period_ns < 1)
		src->period_ns = 1;
	rng_seed(&src->rng, s->scn->run.seed, stream);
	src->next_offer = cfg->start_ns;
	if (cfg->pattern == TRAFFIC_POISSON)
		src->next_offer += rng_exp_ns(&src->rng, 1e9 / (double)cfg->rate_pps);
	src->len = cfg->frame_bytes;
	src->speed_bps = port->speed_bps;
	if (cfg->pattern == TRAFFIC_TRACE)
		src->next_offer = offer_trace(src, 0);
	/* streams 2000.. (sources are 1000..; at most SCN_MAX_TRAFFIC of each) */
	rng_seed(&src->flow_rng, s->scn->run.seed, stream + 1000);
	if (flowdist_init(&src->fd, cfg->flows, cfg->flow_pop == FLOWPOP_ZIPF ? FLOW_ZIPF
					   : FLOW_UNIFORM, (double)cfg->zipf_milli / 1000.0))
		return -1;
	src->next_flow = flowdist_draw(&src->fd, &src->flow_rng);
	if (cfg->pattern == TRAFFIC_STREAM)
		src->next_flow = stream_flow(cfg, 0);
	if (cfg->pattern == TRAFFIC_CLOSED) {
		if (client_init(&src->client, cfg->flows, cfg->depth, cfg->start_ns,
				cfg->client_delay_ns, cfg->client_rto_ns))
			return -1;
		closed_next(src);
		pt->closed = src;
	}
	return flow_queues(pt, src);
}

/* The source of this port that offers next (lowest time, then lowest index). */
static struct source *next_source(struct sim *s, const struct port *pt)
{
	struct source *best = NULL;

	if (pt->n_src == 1)
		return &s->src[pt->src[0]];
	for (uint16_t i = 0; i < pt->n_src; i++) {
		struct source *src = &s->src[pt->src[i]];

		if (!best || src->next_offer < best->next_offer)
			best = src;
	}
	return best;
}

/* ---- RX ---- */

static int64_t dma_done(struct sim *s, struct nic *n, int64_t t_start, uint32_t len)
{
	int64_t t = t_start + s->prof->dma_fixed_ns;

	if (t < n->dma_free)
		t = n->dma_free;
	t += (int64_t)len * s->prof->dma_ps_per_byte / 1000;
	n->dma_free = t;
	return t;
}

static void ring_fill(struct sim *s, struct nic *n, struct pkt *p, int64_t t_start)
{
	p->t_evt = dma_done(s, n, t_start, p->len);
	pktq_push(&n->ring, p);
	n->ring_used++;
	n->c.rx_ok++;
}

/* A frame arriving at @n goes straight to its ring: nothing waits in the
 * FIFO and a descriptor is free. */
static inline bool ring_room(const struct nic *n)
{
	return n->fifo.count == 0 && n->ring_used < n->cfg->rx_ring;
}

/* Else it waits in the FIFO, if a frame of @len fits. */
static inline bool fifo_room(const struct nic *n, uint32_t len)
{
	return n->fifo_bytes + len <= n->fifo_cap && n->fifo.count < n->fifo.cap;
}

/* Would rx_accept() drop a frame of @len at @n now? */
static inline bool rx_full(const struct nic *n, uint32_t len)
{
	return !ring_room(n) && !fifo_room(n, len);
}

/* Frame @p into @n's ring, or else its FIFO: false when neither has room
 * (an overrun, which the caller counts). */
static inline bool rx_place(struct sim *s, struct nic *n, struct pkt *p)
{
	if (ring_room(n)) {
		ring_fill(s, n, p, p->t_arr);
	} else if (fifo_room(n, p->len)) {
		pktq_push(&n->fifo, p);
		n->fifo_bytes += p->len;
	} else {
		return false;
	}
	return true;
}

static inline void rx_accept(struct sim *s, struct nic *n, struct pkt *p)
{
	if (!rx_place(s, n, p)) {
		n->c.rx_ovr++;
		if (s->port[n->port].closed) /* else nic_client_next() does nothing */
			nic_client_next(s, p, p->t_arr, true);
	}
}

/* ---- the port's link ---- */

/* A frame the link resolved: dropped by the sender (len 0), else arrived.
 * t_evt is when that happens; t_arr its last bit in, or for a drop the
 * lower bound nic_schedule() takes for it (when it would have been in). */
#define LINK_DROPPED 0u

/* What the link needs of a source to resolve its frames (frame_at()),
 * read once per resolution, so that a loop over frames keeps it in
 * registers. */
struct frame_rules {
	struct nic *q0;          /* the port's first queue */
	const uint16_t *fq;      /* flow -> queue in the port (RSS), NULL: one queue */
	const uint32_t *fh;      /* flow -> RSS hash, NULL: 0 */
	int64_t wire_ps, lq_ps;  /* a frame's wire time; the port's link-queue, ps */
	uint32_t len;
	uint8_t reply;           /* enum pkt_kind of its frames */
};

static inline __attribute__((always_inline)) struct frame_rules rules_of(struct sim *s, const struct port *pt,
					  const struct source *src)
{
	return (struct frame_rules){
		.q0 = &s->nic[pt->first], .fq = src->flow_queue, .fh = src->flow_hash,
		.wire_ps = src->wire_ps, .lq_ps = pt->cfg->link_queue_ns * 1000, .len = src->len,
		.reply = src->cfg->pattern == TRAFFIC_STREAM ? PKT_TCP : PKT_DATA };
}

/* The frame offered at @offer (ns) in flow @flow, on a link free from
 * @wire_free (ps), as the link resolves it (t_evt: when it reaches the
 * port, or for a link drop its offer); its queue into *@q, its last bit
 * in into *@end_ps. */
static inline __attribute__((always_inline)) struct pkt frame_at(const struct frame_rules *r, int64_t offer, uint32_t flow,
				  int64_t wire_free, struct nic **q, int64_t *end_ps)
{
	int64_t offer_ps = offer * 1000;
	int64_t start_ps = offer_ps > wire_free ? offer_ps : wire_free;
	struct pkt p;

	*end_ps = start_ps + r->wire_ps;
	*q = r->fq ? r->q0 + r->fq[flow] : r->q0;
	p = (struct pkt){ .t_arr = (*end_ps + 999) / 1000, .len = r->len, .flow = flow,
			  .in_nic = (*q)->id, .reply = r->reply, .hash = r->fh ? r->fh[flow] : 0 };
	p.t_evt = p.t_arr;
	if (start_ps - offer_ps > r->lq_ps) {
		p.len = LINK_DROPPED;
		p.t_evt = offer;
	}
	return p;
}

/* link_peek() when nothing is kept: resolve the next frame into pt->peek. */
static struct link_frame *link_peek_new(struct sim *s, struct port *pt)
{
	struct link_frame *f = &pt->peek;
	struct source *src;
	struct frame_rules r;

	pt->peeked = true;
	f->src = NULL;
	src = next_source(s, pt);
	if (!src || src->next_offer == INT64_MAX)
		return NULL;
	r = rules_of(s, pt, src);
	f->p = frame_at(&r, src->next_offer, src->next_flow, pt->wire_free, &f->q, &f->end_ps);
	f->src = src;
	return f;
}

/* What the link does with the port's next offered frame, without doing it:
 * NULL when no source has one.  The answer depends only on the sources
 * and wire_free, which change only in link_resolve(), so it is kept in the
 * port (pt->peek, which the pointer returned is) until then: every queue
 * brought up to date asks for it. */
static inline struct link_frame *link_peek(struct sim *s, struct port *pt)
{
	if (pt->peeked)
		return pt->peek.src ? &pt->peek : NULL;
	return link_peek_new(s, pt);
}

/* The link resolves the frame peeked: its source moves on. */
static void link_resolve(struct port *pt, const struct link_frame *f)
{
	pt->peeked = false;
	if (f->p.len != LINK_DROPPED)
		pt->wire_free = f->end_ps;
	source_step(f->src);
}

/* Resolve the frame peeked into its queue's inq (which has room). */
static void link_commit(struct port *pt, const struct link_frame *f)
{
	link_resolve(pt, f);
	pktq_push(&f->q->inq, &f->p);
}

/* Frame @p, whose time has come, enters @q. */
static inline void take_in(struct sim *s, struct nic *q, struct pkt *p)
{
	q->c.entered++;
	if (p->len == LINK_DROPPED) {
		q->c.link_drop++;
		if (s->port[q->port].closed)
			nic_client_next(s, p, p->t_evt, true);
	} else
		rx_accept(s, q, p);
}

/* The frames at the head of @q's inq that happened by @t and end as
 * drops, the link's or @q's (@q cannot take them: rx_full), counted where
 * they sit and removed.  A drop changes nothing the next one depends on
 * (the loop stores nothing, so what blocks @q is read once). */
static void take_in_drops(struct nic *q, int64_t t)
{
	uint32_t k = 0, lost = 0;

	for (; k < q->inq.count; k++) {
		const struct pkt *h = pktq_at(&q->inq, k);

		if (h->t_evt > t)
			break;
		if (h->len == LINK_DROPPED)
			lost++;
		else if (!rx_full(q, h->len))
			break;
	}
	q->c.entered += k;
	q->c.link_drop += lost;
	q->c.rx_ovr += k - lost;
	pktq_drop(&q->inq, k);
}

/* Frames of @q's inq that happened by @t enter @q.  Those that end as
 * drops are counted in runs (take_in_drops()), unless a closed-loop client
 * hears of each: on an overloaded multi-queue port most frames end so.
 * Inline: nic_rx_advance() calls it for each frame a poll takes. */
static inline __attribute__((always_inline)) void queue_take_in(struct sim *s, struct nic *q, int64_t t)
{
	bool closed = s->port[q->port].closed;

	while (q->inq.count) {
		const struct pkt *h = pktq_at(&q->inq, 0);
		struct pkt p;

		if (h->t_evt > t)
			return;
		if (closed) {
			p = pktq_pop(&q->inq);
			take_in(s, q, &p);
			continue;
		}
		p = *h;
		if (p.len != LINK_DROPPED && rx_place(s, q, &p)) {
			q->c.entered++;
			pktq_drop(&q->inq, 1);
			continue;
		}
		take_in_drops(q, t); /* @h the first of them */
	}
}

/* queue_take_in() out of line, for the link's rare case of a full inq: the
 * link's loops keep their registers. */
__attribute__((noinline)) static void take_in_full(struct sim *s, struct nic *q, int64_t t)
{
	queue_take_in(s, q, t);
}

/* The state of a constant source that link_fill_constant() steps. */
struct cursor {
	int64_t next_offer, off_q;
	uint64_t off_r, k;
	uint32_t flow;
	struct rng r;
};

static struct cursor cursor_of(const struct source *src)
{
	return (struct cursor){ src->next_offer, src->off_q, src->off_r, src->k, src->next_flow,
				src->flow_rng };
}

static void cursor_store(struct source *src, const struct cursor *c)
{
	src->next_offer = c->next_offer;
	src->off_q = c->off_q;
	src->off_r = c->off_r;
	src->k = c->k;
	src->next_flow = c->flow;
	src->flow_rng = c->r;
}

/* link_fill()'s loop for the frames after the first of a port's only
 * source when it is constant, open-loop and has no frame count (the usual
 * traffic generator, pt->const_src): each frame computed as
 * link_peek_new() would and pushed straight into its queue's inq, as
 * link_commit() would, the one it stops at left peeked as link_fill()
 * leaves it (what is peeked is a function of the source and wire_free).
 * The source's state is in a local cursor, which the compiler keeps in
 * registers from frame to frame (through the source it must load and
 * store it around every write to an inq), the frame rules in locals too,
 * and each frame's step as source_step() takes it. */
static void link_fill_constant(struct sim *s, struct port *pt, struct source *src, int64_t t)
{
	const int64_t start_ns = src->cfg->start_ns, step_q = src->step_q;
	const uint64_t step_r = src->step_r, rate = src->cfg->rate_pps;
	const struct frame_rules r = rules_of(s, pt, src);
	const struct flowdist fd = src->fd;
	struct cursor c = cursor_of(src);
	int64_t wire_free = pt->wire_free;

	for (;;) {
		struct nic *q;
		int64_t end_ps;
		struct pkt p = frame_at(&r, c.next_offer, c.flow, wire_free, &q, &end_ps);

		if (q->inq.count == q->inq.cap && p.t_evt <= t)
			take_in_full(s, q, t); /* touches neither the source nor the link */
		if (p.t_evt > t || q->inq.count == q->inq.cap) {
			cursor_store(src, &c);
			pt->wire_free = wire_free;
			pt->peek = (struct link_frame){ .src = src, .q = q, .p = p, .end_ps = end_ps };
			pt->peeked = true;
			return;
		}
		pktq_push(&q->inq, &p);
		if (p.len != LINK_DROPPED)
			wire_free = end_ps;
		c.k++;
		offer_step(&c.off_q, &c.off_r, step_q, step_r, rate);
		c.next_offer = start_ns + c.off_q;
		c.flow = flowdist_draw(&fd, &c.r);
	}
}

/* Resolve every frame of the port that happens by @t.  A queue whose inq is
 * full takes its frames in first (they happened by @t too). */
static void link_fill(struct sim *s, struct port *pt, int64_t t)
{
	struct link_frame *f;

	while ((f = link_peek(s, pt)) && f->p.t_evt <= t) {
		if (f->q->inq.count == f->q->inq.cap)
			take_in_full(s, f->q, t);
		if (f->q->inq.count == f->q->inq.cap)
			break; /* a drop resolved out of order holds it; the next advance */
		link_commit(pt, f);
		if (pt->const_src) {
			link_fill_constant(s, pt, pt->const_src, t);
			return;
		}
	}
}

/* ---- frames certain to be dropped ----
 *
 * While a queue's ring and FIFO cannot take a frame, every frame that
 * reaches it is an overrun, and nothing but a refill (nic_rx_refill)
 * changes that: a drop changes no state of the queue.  A port whose frames
 * all go to one queue (pt->drop_src) counts such frames without building
 * them, exactly as queue_take_in() would have counted them, in the link's
 * order and at the same call: the source is stepped as the link steps it,
 * so its random streams are drawn exactly as before.  A constant source
 * whose period is short jumps over them in closed form (drop_jump).
 * RXLAB_RX_PERFRAME=1 in the environment at sim init turns this off: every
 * frame then takes the per-frame path (the property test compares both). */


/* Frames of the longest period a source keeps a table for (32 KiB). */
#define DROP_PERIOD_MAX 4096u

/* When frame @j of @src (with a period table) has its last bit in, ps. */
static int64_t drop_end_ps(const struct source *src, uint64_t j)
{
	return src->cfg->start_ns * 1000 + (int64_t)(j / src->drop_p) * src->drop_tp_ps +
	       src->drop_end[j % src->drop_p];
}

/* How many frames of the table's period end by @rem ps into it (drop_end[]
 * increases: every frame takes wire time).  Frame i ends at 1000 floor(i
 * 1e9 / rate) + wire + its wait, so at most hi end by rem: those offered
 * by floor((rem - wire) / 1000); the wait rarely moves the last one out. */
static uint64_t drop_in_period(const struct source *src, int64_t rem)
{
	uint64_t rate = src->cfg->rate_pps;
	uint32_t lo = 0, hi;

	if (rem < src->wire_ps)
		return 0;
	hi = (uint32_t)((((uint64_t)(rem - src->wire_ps) / 1000 + 1) * rate + 999999999u) /
			1000000000u);
	if (hi > src->drop_p)
		hi = src->drop_p;
	if (hi == 0 || src->drop_end[hi - 1] <= rem)
		return hi;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (src->drop_end[mid] <= rem)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Put @src at frame @k as offer_constant_next() would have: offer k is at
 * start + floor(k e9 / rate), and k = m periods + i frames. */
static void drop_seek(struct source *src, uint64_t k)
{
	uint64_t rate = src->cfg->rate_pps, m = k / src->drop_p, i = k % src->drop_p;

	src->k = k;
	src->off_q = (int64_t)m * (src->drop_tp_ps / 1000) + (int64_t)(i * 1000000000u / rate);
	src->off_r = i * 1000000000u % rate;
	src->next_offer = src->cfg->start_ns + src->off_q;
}

/* Step @pt's constant source over its frames whose last bit is in by
 * @t_ps, in closed form from its period table; how many.  The link must be
 * where the table has it (it is: the source is alone on the link). */
static uint64_t drop_jump(struct port *pt, struct source *src, int64_t t_ps)
{
	int64_t s0 = src->cfg->start_ns * 1000, rel = t_ps - s0, rem;
	uint64_t k = src->k, m, next;

	if (k ? pt->wire_free != drop_end_ps(src, k - 1) : pt->wire_free > s0)
		return 0;
	if (rel < src->drop_end[0])
		return 0;
	m = (uint64_t)(rel / src->drop_tp_ps);
	rem = rel - (int64_t)m * src->drop_tp_ps;
	next = m * src->drop_p + drop_in_period(src, rem);
	if (src->cfg->count && next > src->cfg->count - 1)
		next = src->cfg->count - 1; /* its last frame: source_step() stops it */
	if (next <= k)
		return 0;
	drop_seek(src, next);
	pt->wire_free = drop_end_ps(src, next - 1);
	return next - k;
}

/* Count, without building them, the frames of @pt's only source that
 * happen by @t (t_evt <= t, as link_fill() takes them): they all reach
 * @n, which takes none of them (rx_full). */
static void drop_run(struct port *pt, struct nic *n, int64_t t)
{
	struct source *src = pt->drop_src;
	int64_t t_ps = t * 1000, lq_ps = pt->cfg->link_queue_ns * 1000, wire = src->wire_ps;
	uint64_t ovr = 0, lost = 0;

	pt->peeked = false;
	if (src->drop_end)
		ovr = drop_jump(pt, src, t_ps);
	while (src->next_offer <= t) {
		int64_t offer_ps = src->next_offer * 1000;
		int64_t start_ps = offer_ps > pt->wire_free ? offer_ps : pt->wire_free;

		if (start_ps - offer_ps > lq_ps) {
			lost++;
		} else {
			if (start_ps + wire > t_ps)
				break;
			pt->wire_free = start_ps + wire;
			ovr++;
		}
		source_step(src);
	}
	n->c.entered += ovr + lost;
	n->c.rx_ovr += ovr;
	n->c.link_drop += lost;
}

/* nic_rx_advance() of the queue all of @pt's frames go to: they are taken
 * in one by one in the link's order, and counted in bulk while @n can take
 * none.  Frames resolved ahead into its inq come first; while any of them
 * is later than @t the port's own order is kept: false, and the caller
 * brings @n up to @t as for any queue. */
static bool rx_direct(struct sim *s, struct port *pt, struct nic *n, int64_t t)
{
	const struct source *src = pt->drop_src;
	struct link_frame *f;
	struct pkt p;

	if (n->inq.count)
		queue_take_in(s, n, t);
	if (n->inq.count || t > OFFER_MAX_NS)
		return false;
	for (;;) {
		if (pt->peeked && (!pt->peek.src || pt->peek.p.t_evt > t))
			return true; /* known: nothing happens by @t */
		if (rx_full(n, src->len)) {
			drop_run(pt, n, t);
			return true; /* it stopped at the first frame after @t */
		}
		if (!(f = link_peek(s, pt)) || f->p.t_evt > t)
			return true;
		p = f->p; /* take_in() may peek again, over pt->peek */
		link_resolve(pt, f);
		take_in(s, n, &p);
	}
}

void nic_rx_advance(struct sim *s, struct nic *n, int64_t t)
{
	struct port *pt = &s->port[n->port];

	if (!pt->drop_src || pt->drop_q != n->id || !rx_direct(s, pt, n, t)) {
		link_fill(s, pt, t);
		queue_take_in(s, n, t);
	}
	while (n->notified < n->ring.count) {
		int64_t te = pktq_at(&n->ring, n->notified)->t_evt;

		if (te > t)
			break;
		coal_complete(&n->rx_coal, te);
		n->notified++;
	}
}

struct pkt nic_rx_take(struct nic *n)
{
	struct pkt p = pktq_pop(&n->ring);

	n->notified--;
	n->c.rx_taken++;
	n->c.rx_bytes += p.len;
	n->cyc_rx_pkts++;
	n->cyc_rx_bytes += p.len;
	return p;
}

void nic_rx_refill(struct sim *s, struct nic *n, int64_t t, uint32_t k)
{
	n->ring_used -= k;
	while (n->fifo.count && n->ring_used < n->cfg->rx_ring) {
		struct pkt p = pktq_pop(&n->fifo);

		n->fifo_bytes -= p.len;
		ring_fill(s, n, &p, t);
	}
}

/* How many frames a queue's lookahead may resolve for other queues while
 * it looks for its own next one (multi-queue ports only). */
#define RUNAHEAD_FRAMES 64

/* Lower bound on the next frame of @n not yet in its ring.  A queue of a
 * multi-queue port resolves the port's frames ahead until it finds its
 * own (bounded: a queue that RSS sends nothing gets a wake-up at the
 * frontier now and then), so that it need not wake for every frame of
 * its siblings; one queue alone has the port's next frame. */
static int64_t rx_next_arrival(struct sim *s, struct nic *n)
{
	struct port *pt = &s->port[n->port];
	struct link_frame *f;
	uint32_t k = 0;

	while (n->inq.count == 0 && (f = link_peek(s, pt))) {
		if (pt->n_q == 1 || k++ == RUNAHEAD_FRAMES * pt->n_q ||
		    f->q->inq.count == f->q->inq.cap)
			return f->p.t_arr;
		link_commit(pt, f);
	}
	return n->inq.count ? pktq_at(&n->inq, 0)->t_arr : COAL_NEVER;
}

int64_t nic_rx_next_ready(struct sim *s, struct nic *n)
{
	if (n->ring.count)
		return pktq_at(&n->ring, 0)->t_evt;
	return rx_next_arrival(s, n);
}

/* ---- TX ---- */

static void nic_schedule(struct sim *s, struct nic *n);
static bool xmit_moot(const struct sim *s, const struct nic *n);

void nic_client_next(struct sim *s, const struct pkt *p, int64_t t, bool lost)
{
	struct port *pt = &s->port[s->nic[p->in_nic].port];
	struct source *src = pt->closed;
	struct nic *q;

	if (!src || (!pkt_is_rx_data(p) && p->reply != PKT_REPLY))
		return;
	client_push(&src->client, t + (lost ? src->client.rto_ns : src->client.delay_ns), p->flow);
	closed_next(src);
	pt->peeked = false;
	/* the flow's queue may now have an earlier next frame than its line
	 * was told (a request resolved later than this one keeps its time:
	 * the link took it first) */
	q = &s->nic[pt->first + (src->flow_queue ? src->flow_queue[p->flow] : 0)];
	if (!q->masked)
		nic_schedule(s, q);
}

/* Onto @n's TX ring; the frame leaves when the port's egress link, which
 * its queues share, is free. */
static void tx_place(struct sim *s, struct nic *n, struct pkt *p, int64_t t)
{
	struct port *pt = &s->port[n->port];
	int64_t t_ps = t * 1000;

	if (t_ps < pt->tx_free)
		t_ps = pt->tx_free;
	if (p->len != pt->tx_wire_len) { /* a 128-bit divide: once per length */
		pt->tx_wire_len = p->len;
		pt->tx_wire_ps = wire_ps(p->len, n->cfg->speed_bps);
	}
	pt->tx_free = t_ps + pt->tx_wire_ps;
	p->t_evt = (pt->tx_free + 999) / 1000;
	if (p->reply == PKT_REPLY)
		nic_client_next(s, p, p->t_evt, false);
	pktq_push(&n->txr, p);
}

void nic_tx_advance(struct sim *s, struct nic *n, int64_t t)
{
	bool irq = nic_tx_irqs(n);

	while (n->departed < n->txr.count) {
		const struct pkt *p = pktq_at(&n->txr, n->departed);

		if (p->t_evt > t)
			break;
		n->c.tx_ok++;
		n->c.tx_replies += p->reply == PKT_REPLY;
		n->c.tx_acks += p->reply == PKT_ACK;
		n->c.tx_bytes += p->len;
		if (p->reply != PKT_ACK)
			hist_add(&s->lat, p->t_evt - p->t_arr);
		if (irq)
			coal_complete(&n->tx_coal, p->t_evt);
		n->departed++;
	}
}

uint32_t nic_tx_clean(struct sim *s, struct cpu *c, struct nic *n, int64_t t, uint32_t *remote)
{
	uint32_t k;

	nic_tx_advance(s, n, t);
	k = n->departed;
	*remote = 0;
	for (uint32_t i = 0; i < k; i++) {
		struct pkt p = pktq_pop(&n->txr);

		if (pkt_is_rx_data(&p))
			*remote += skb_free(s, c, &p);
		n->cyc_tx_pkts++;
		n->cyc_tx_bytes += p.len;
	}
	n->departed = 0;
	n->c.tx_cleaned += k;
	while (n->qdisc.count && n->txr.count < n->cfg->tx_ring) {
		struct pkt p = pktq_pop(&n->qdisc);

		/* not before it was queued: a chunk on another CPU (or the poll
		 * this interrupt preempted) queued it at its own, later, time */
		tx_place(s, n, &p, p.t_evt > t ? p.t_evt : t);
	}
	return k;
}


void nic_xmit(struct sim *s, struct nic *n, const struct pkt *p, int64_t t)
{
	struct pkt q = *p;

	nic_tx_advance(s, n, t);
	if (n->txr.count < n->cfg->tx_ring && n->qdisc.count == 0)
		tx_place(s, n, &q, t);
	else if (n->qdisc.count < n->cfg->txqueuelen) {
		q.t_evt = t; /* queued at */
		pktq_push(&n->qdisc, &q);
	} else {
		n->c.tx_drp++;
		nic_client_next(s, &q, t, true);
	}
	if (!n->masked && nic_tx_irqs(n) && !xmit_moot(s, n))
		nic_schedule(s, n);
}

/* ---- interrupt line ---- */

/* When would @c fire, given the completions already known: q's frames from
 * @from on (their t_evt)?  The reference: walks a copy from @c every time,
 * so known future DMA completions / departures are exact, at the cost of
 * every known completion before the fire time per question (per transmit,
 * for a TX ring).  nic->walk_ref selects it (tests/unit/test_property.c
 * runs every scenario both ways). */
static int64_t lookahead_walk(const struct coal *c, const struct pktq *q, uint32_t from,
			      int64_t now)
{
	struct coal x = *c;
	int64_t ft = coal_fire_time(&x, now, NULL);

	for (uint32_t i = from; i < q->count; i++) {
		int64_t te = pktq_at(q, i)->t_evt;

		if (te >= ft)
			break;
		coal_complete(&x, te);
		ft = coal_fire_time(&x, now, NULL);
	}
	return ft;
}

/* The same answer from the walk kept in @a (struct coal_ahead): it resumes
 * where the last question stopped, so each known completion is walked once
 * between two changes of @c other than its completions (fire, ack, unmask,
 * new parameters).  The ring changes only at its ends: frames join at the
 * tail, and leave at the head only after @c has seen them, so the walked
 * ones stay at from + (the count the walk is ahead of @c). */
static inline __attribute__((always_inline)) int64_t lookahead(struct coal_ahead *a, const struct coal *c, const struct pktq *q,
			 uint32_t from, int64_t now)
{
	uint32_t i = from + coal_ahead_sync(a, c, now);
	int64_t ft = a->ft_ok ? a->ft : coal_fire_time(&a->x, now, NULL);
	/* with an absolute timer only, one pending completion fixes ft */
	for (; i < q->count && !(a->x.timer_only && a->x.pending); i++) {
		int64_t te = pktq_at(q, i)->t_evt;

		if (te >= ft)
			break;
		coal_complete(&a->x, te);
		ft = coal_fire_time(&a->x, now, NULL);
	}
	a->ft = ft; /* what the next question at this now starts from */
	a->ft_ok = true;
	return ft;
}

static void nic_assert(struct sim *s, struct nic *n, bool rx, bool tx)
{
	int64_t now = s->eng.now;
	enum coal_cause why;

	n->irq_rx = rx;
	if (rx) {
		coal_fire_time(&n->rx_coal, now, &why);
		coal_fire(&n->rx_coal, now, why);
		n->c.rx_irqs++;
	}
	if (tx) {
		coal_fire_time(&n->tx_coal, now, &why);
		coal_fire(&n->tx_coal, now, why);
		n->c.tx_irqs++;
	}
	n->masked = true;
	n->wake_gen++;
	n->wake_t = COAL_NEVER;
	n->c.irqs++;
	if (n->cfg->irq_float)
		n->irq_cpu = cpu_float_pick(s, n->irq_cpu);
	s->irq_cpu[(size_t)n->id * s->n_cpus + n->irq_cpu]++;
	cpu_irq(s, &s->cpu[n->irq_cpu], n->id);
}

/* Fire times of the RX and TX causes given everything known now. */
static void fire_times(struct sim *s, struct nic *n, int64_t *rx, int64_t *tx)
{
	int64_t now = s->eng.now;

	*rx = *tx = COAL_NEVER;
	if (n->walk_ref) {
		if (!n->rx_off)
			*rx = lookahead_walk(&n->rx_coal, &n->ring, n->notified, now);
		if (nic_tx_irqs(n))
			*tx = lookahead_walk(&n->tx_coal, &n->txr, n->departed, now);
		return;
	}
	if (!n->rx_off)
		*rx = lookahead(&n->rx_ahead, &n->rx_coal, &n->ring, n->notified, now);
	if (nic_tx_irqs(n))
		*tx = lookahead(&n->tx_ahead, &n->tx_coal, &n->txr, n->departed, now);
}

/* Can @n's next arrival not move its RX fire time @rx, so that the line
 * need not wake for it?  So it is when a completion is pending (in the
 * walk) and the only threshold is an absolute timer: the deadline counts
 * from the first pending completion, and a new one comes after every
 * completion walked (DMA completes in order), so it neither starts the
 * timer nor meets a frame count or a marked descriptor; *_irq values
 * would switch thresholds, so there are none.  The frames are taken in at
 * the next advance instead, with the same times: nothing reads a queue
 * without advancing it, and only a refill (by a poll, which advances
 * first) changes what a frame finds.  Not with a closed-loop source: its
 * drops feed the sender, and the link must not resolve ahead of them.
 * n->wake_ref (tests) wakes for every arrival, as before. */
static bool arrival_moot(const struct sim *s, const struct nic *n, int64_t rx)
{
	return !n->wake_ref && rx != COAL_NEVER && !s->port[n->port].closed &&
	       n->rx_coal.timer_only;
}

/* Can the frame nic_xmit() just put on @n's TX ring leave the line's
 * decision as it is, so that nic_schedule() need not be asked?  So it is
 * on a queue that receives nothing (its port has no source and nothing
 * is in its RX path: no RX fire time, no arrival) whose TX walk is in step
 * with tx_coal at this now and has a completion pending under an absolute
 * timer only: the new departure (after every one walked) leaves the TX
 * fire time tx_ahead.ft as it is, so nic_schedule() would find the wake
 * pending no later than it and return.  n->wake_ref (tests) asks every
 * time, as before. */
static bool xmit_moot(const struct sim *s, const struct nic *n)
{
	const struct coal_ahead *a = &n->tx_ahead;

	/* the walk's state first: it is what most often fails */
	return !n->wake_ref && a->ft_ok && a->x.completions >= n->tx_coal.completions &&
	       a->x.epoch == n->tx_coal.epoch && a->now_ns == s->eng.now && a->live &&
	       !n->walk_ref && a->x.pending > 0 && n->wake_t != COAL_NEVER &&
	       n->wake_t <= a->ft && s->port[n->port].n_src == 0 && n->ring.count == 0 &&
	       n->fifo.count == 0 && n->inq.count == 0 && n->rx_coal.pending == 0 &&
	       n->tx_coal.timer_only;
}

/* nic_schedule() given @n's fire times @rx and @tx at this now (what
 * fire_times() returns; nic_wake() has them already). */
static void schedule_at(struct sim *s, struct nic *n, int64_t rx, int64_t tx)
{
	int64_t next = COAL_NEVER, wake;

	/* with the RX cause off, an arrival changes nothing */
	if (!n->rx_off && !arrival_moot(s, n, rx))
		next = rx_next_arrival(s, n);
	wake = rx < tx ? rx : tx;
	if (next < wake)
		wake = next;
	if (wake < s->eng.now)
		wake = s->eng.now;
	/* A pending wake-up no later than this one re-evaluates anyway. */
	if (wake == COAL_NEVER || n->wake_t <= wake)
		return;
	n->wake_gen++;
	n->wake_t = wake;
	sim_at(s, wake, EV_NIC_WAKE, n->id, n->wake_gen);
}

/* Re-evaluate the line at the earliest time anything can change.  Never
 * asserts synchronously: model code calls this from the middle of a chunk,
 * so assertion always happens in an EV_NIC_WAKE handler of its own. */
static void nic_schedule(struct sim *s, struct nic *n)
{
	int64_t rx, tx;

	fire_times(s, n, &rx, &tx);
	schedule_at(s, n, rx, tx);
}

void nic_ack(struct sim *s, struct nic *n, int64_t t)
{
	nic_rx_advance(s, n, t);
	nic_tx_advance(s, n, t);
	n->icr_rx = n->irq_rx || n->rx_coal.pending > 0;
	n->irq_rx = false;
	coal_ack(&n->rx_coal, t);
	coal_ack(&n->tx_coal, t);
}

void nic_unmask(struct sim *s, struct nic *n, int64_t t)
{
	n->masked = false;
	n->rx_off = false;
	nic_rx_advance(s, n, t);
	nic_tx_advance(s, n, t);
	coal_unmask(&n->rx_coal, t);
	coal_unmask(&n->tx_coal, t);
	nic_schedule(s, n);
}

void nic_isr_done(struct sim *s, struct nic *n, int64_t t, bool rx_polled)
{
	n->masked = false;
	n->rx_off = rx_polled;
	nic_rx_advance(s, n, t);
	nic_tx_advance(s, n, t);
	coal_unmask(&n->tx_coal, t);
	if (!rx_polled)
		coal_unmask(&n->rx_coal, t);
	nic_schedule(s, n);
}

void nic_wake(struct sim *s, struct nic *n, uint32_t gen)
{
	int64_t rx, tx, now = s->eng.now;

	if (gen != n->wake_gen || n->masked)
		return;
	n->wake_t = COAL_NEVER;
	nic_rx_advance(s, n, now);
	nic_tx_advance(s, n, now);
	fire_times(s, n, &rx, &tx);
	if (rx <= now || tx <= now)
		nic_assert(s, n, rx <= now, tx <= now);
	else
		schedule_at(s, n, rx, tx);
}

uint64_t nic_in_flight(const struct nic *n)
{
	return n->fifo.count + n->ring.count + n->qdisc.count + (n->txr.count - n->departed) +
	       gro_rx_in_flight(n);
}

/* ---- setup ---- */

static struct coal_params coal_rx_params(const struct scn_nic *c, const struct scn_qcoal *q)
{
	struct coal_params p = {
		.usecs_ns = q->rx_usecs_ns, .frames = q->rx_frames,
		.usecs_irq_ns = c->rx_usecs_irq_ns, .frames_irq = c->rx_frames_irq,
		.mode = c->rx_timer == TIMER_RESTART ? COAL_TIMER_RESTART : COAL_TIMER_ABSOLUTE,
		.min_gap_ns = c->min_irq_gap_ns,
	};

	if (c->driver == DRIVER_E1000) {
		/* e1000's rx-usecs sets ITR (src/sim/adaptive.c), not a timer */
		p.usecs_ns = 0;
		p.frames = 1;
		p.usecs_irq_ns = 0;
		p.frames_irq = 0;
	}
	coal_params_e1000(c->rx_int_delay, c->rx_abs_int_delay, &p);
	return p;
}

/* TX: the queue's tx-usecs / tx-frames, or e1000 TxIntDelay (TIDV, a packet timer)
 * with TxAbsIntDelay (TADV, absolute), in 1.024 us units, and then a
 * tx-frames given beside them marks every tx-frames-th descriptor. */
static struct coal_params coal_tx_params(const struct scn_nic *c, const struct scn_qcoal *q)
{
	struct coal_params p = {
		.usecs_ns = q->tx_usecs_ns, .frames = q->tx_frames,
		.usecs_irq_ns = c->tx_usecs_irq_ns, .frames_irq = c->tx_frames_irq,
		.mode = c->tx_timer == TIMER_RESTART ? COAL_TIMER_RESTART : COAL_TIMER_ABSOLUTE,
		.min_gap_ns = c->min_irq_gap_ns,
	};

	coal_params_e1000(c->tx_int_delay, c->tx_abs_int_delay, &p);
	if (c->tx_frames_marked) /* the driver's count beside TIDV (scenario_load.c) */
		p.every = q->tx_frames;
	return p;
}

/* How many frames a queue's inq holds: what the port's link may resolve
 * for it ahead of time. */
#define INQ_FRAMES 1024

/* The CPU of queue @q's vector: irq-affinity, spread, or irq-cpu. */
static uint16_t vector_cpu(const struct sim *s, const struct scn_nic *cfg, uint16_t q)
{
	if (cfg->irq_affinity_n)
		return cfg->irq_affinity[q];
	if (cfg->irq_spread)
		return (uint16_t)(q % s->scn->host.cpus);
	return (uint16_t)cfg->irq_cpu;
}

static int queue_init(struct sim *s, struct nic *n, const struct port *pt, uint16_t q)
{
	const struct scn_nic *cfg = pt->cfg;
	struct coal_params rx = coal_rx_params(cfg, &cfg->coal[q]);
	struct coal_params tx = coal_tx_params(cfg, &cfg->coal[q]);

	n->cfg = cfg;
	n->napi_cfg = &cfg->napi[q];
	n->id = (uint16_t)(pt->first + q);
	n->port = pt->id;
	n->qid = q;
	n->out = -1;
	/* a port with one queue is named as before; queues as i40e/ice name
	 * their vectors in /proc/interrupts */
	if (pt->n_q == 1)
		snprintf(n->vec, sizeof(n->vec), "%s", cfg->name);
	else
		snprintf(n->vec, sizeof(n->vec), "%s-TxRx-%u", cfg->name, q);
	n->fifo_cap = cfg->rx_fifo_bytes / pt->n_q;
	n->irq_cpu = vector_cpu(s, cfg, q);
	n->wake_t = COAL_NEVER;
	coal_init(&n->rx_coal, &rx);
	coal_init(&n->tx_coal, &tx);
	napi_init(&n->napi, s->scn->host.napi_weight);
	napi_set_defer(&n->napi, n->napi_cfg->defer_hard_irqs, n->napi_cfg->gro_flush_timeout_ns);
	napi_set_irq_suspend(&n->napi, n->napi_cfg->irq_suspend_timeout_ns);
	napi_set_threaded(&n->napi, n->napi_cfg->threaded);
	n->napi_thread = -1;
	adapt_init(s, n);
	if (pktq_init(&n->ring, cfg->rx_ring) || pktq_init(&n->fifo, n->fifo_cap / 64 + 1) ||
	    pktq_init(&n->txr, cfg->tx_ring) || pktq_init(&n->qdisc, cfg->txqueuelen) ||
	    pktq_init(&n->inq, INQ_FRAMES))
		return -1;
	return gro_rx_init(s, n);
}

static int indir_init(struct port *pt)
{
	const struct scn_nic *c = pt->cfg;

	pt->indir_size = c->indir_size;
	if (c->indir_weights)
		return rss_indir_weight(pt->indir, pt->indir_size, c->indir_weight,
					c->indir_weights);
	return rss_indir_equal(pt->indir, pt->indir_size, c->indir_n ? c->indir_n : pt->n_q);
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/* The period table of @src (see struct source), when it has one: a
 * constant source (or a stream of one flow: no flow draws) whose gaps
 * repeat every rate / gcd(1e9, rate) frames.  The link is simulated over
 * one period from frame 0 (link idle); if frame p finds it idle again, and
 * no frame of the period waited past link-queue, then every later period
 * is the same shifted by 1e9 / gcd ns.  0, or -1 out of memory. */
static int drop_table(const struct port *pt, struct source *src)
{
	const struct scn_traffic *c = src->cfg;
	int64_t s0 = c->start_ns * 1000, wf = 0, lq_ps = pt->cfg->link_queue_ns * 1000;
	uint64_t g, p;

	if ((c->pattern != TRAFFIC_CONSTANT && c->pattern != TRAFFIC_STREAM) || c->flows > 1 ||
	    c->rate_pps == 0 || c->start_ns > OFFER_MAX_NS)
		return 0;
	g = gcd_u64(1000000000u, c->rate_pps);
	p = c->rate_pps / g;
	if (p > DROP_PERIOD_MAX)
		return 0;
	src->drop_end = malloc(p * sizeof(*src->drop_end));
	if (!src->drop_end)
		return -1;
	src->drop_p = (uint32_t)p;
	src->drop_tp_ps = (int64_t)(1000000000000ull / g);
	for (uint64_t j = 0; j <= p; j++) {
		int64_t offer_ps = s0 + (int64_t)(j * 1000000000u / c->rate_pps) * 1000;
		int64_t start_ps = offer_ps > wf ? offer_ps : wf;

		if (j == p && start_ps == offer_ps)
			return 0; /* idle again: periodic */
		if (j == p || start_ps - offer_ps > lq_ps)
			break;
		wf = start_ps + src->wire_ps;
		src->drop_end[j] = wf - s0;
	}
	free(src->drop_end);
	src->drop_end = NULL;
	return 0;
}

/* pt->drop_src: a port with one source, not closed-loop and not a trace
 * (its frames have one length), every flow of which RSS sends to the same
 * queue.  RXLAB_RX_PERFRAME (set, not "0") keeps the per-frame path. */
static int drop_init(struct sim *s, struct port *pt)
{
	const char *env = getenv("RXLAB_RX_PERFRAME");
	struct source *src;

	pt->drop_src = NULL;
	pt->const_src = NULL;
	if (pt->n_src != 1 || (env && *env && strcmp(env, "0") != 0))
		return 0;
	src = &s->src[pt->src[0]];
	if (src->cfg->pattern == TRAFFIC_CONSTANT && !src->cfg->count && src->cfg->rate_pps)
		pt->const_src = src;
	if (src->cfg->pattern == TRAFFIC_CLOSED || src->cfg->pattern == TRAFFIC_TRACE)
		return 0;
	for (uint32_t f = 1; src->flow_queue && f < src->cfg->flows; f++)
		if (src->flow_queue[f] != src->flow_queue[0])
			return 0;
	pt->drop_src = src;
	pt->drop_q = (uint16_t)(pt->first + (src->flow_queue ? src->flow_queue[0] : 0));
	return drop_table(pt, src);
}

int port_init(struct sim *s, struct port *pt, const struct scn_nic *cfg, uint16_t id,
	      uint16_t first)
{
	pt->cfg = cfg;
	pt->id = id;
	pt->first = first;
	pt->n_q = (uint16_t)cfg->combined;
	pt->tx_wire_len = UINT32_MAX; /* no frame is that long: none saved */
	if (indir_init(pt))
		return -1;
	for (uint16_t q = 0; q < pt->n_q; q++)
		if (queue_init(s, &s->nic[first + q], pt, q))
			return -1;
	for (uint16_t i = 0; i < s->scn->n_traffic; i++) {
		if (scenario_nic_index(s->scn, s->scn->traffic[i].port) != id)
			continue;
		if (source_init(s, &s->src[i], &s->scn->traffic[i], pt, 1000 + i))
			return -1;
		pt->src[pt->n_src++] = i;
	}
	return drop_init(s, pt);
}

/* Arm the line at time 0 (interrupts enabled when the driver comes up). */
void nic_start(struct sim *s, struct nic *n)
{
	/* DEVICE_POLLING: the driver registers a poll handler and keeps its
	 * interrupts disabled (polling(4)). */
	if (s->scn->host.rxpath == RXPATH_BSD_POLL) {
		n->masked = true;
		return;
	}
	nic_schedule(s, n);
}

void source_free(struct source *src)
{
	flowdist_free(&src->fd);
	client_free(&src->client);
	free(src->flow_queue);
	free(src->flow_hash);
	free(src->drop_end);
	src->flow_queue = NULL;
	src->flow_hash = NULL;
	src->drop_end = NULL;
}

void nic_free(struct nic *n)
{
	pktq_free(&n->inq);
	pktq_free(&n->ring);
	pktq_free(&n->fifo);
	pktq_free(&n->txr);
	pktq_free(&n->qdisc);
	gro_rx_free(n);
}
