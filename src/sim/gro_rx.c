/* gro_rx.c - GRO in the simulated driver poll (see gro_rx.h).
 *
 * The driver poll (kernel.c kern_nic_poll) hands every frame to
 * napi_gro_receive(), as drivers do; the decisions are src/core/gro.c's.
 * Costs: gro-pkt per frame that enters dev_gro_receive(), and the stack
 * (local-deliver, the socket, the delayed ACK) once per skb that reaches it
 * - a merged skb of N segments once, at the instant its normal list goes up
 * (gro_normal_batch segments, or the flush at the end of the poll).
 *
 * Jiffies: jiffies = floor(t * HZ / 1e9), the age GRO compares (ages are
 * taken when an skb is first held, NAPI_GRO_CB(skb)->age = jiffies).
 *
 * Not modelled here: GRO of forwarded frames and of RPS ports (they bypass
 * the table, unmerged and without gro-pkt), UDP GRO (UDP frames pass as
 * GRO_NORMAL, as plain unconnected UDP does), hardware GRO/LRO.
 */
#include "sim/gro_rx.h"

#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

static int64_t jiffy_of(const struct sim *s, int64_t t)
{
	return t * (int64_t)s->scn->host.hz / 1000000000;
}

/* The smallest MSS of the stream sources into @n's port: what bounds the
 * frames of one skb.  No stream source: 1 frame (nothing is ever held). */
static uint32_t slot_frames(const struct sim *s, const struct nic *n)
{
	uint32_t mss = 0;

	for (uint32_t i = 0; i < s->scn->n_traffic; i++) {
		const struct scn_traffic *t = &s->scn->traffic[i];
		uint32_t m = t->frame_bytes - SCN_TCP_OVERHEAD;

		if (t->pattern == TRAFFIC_STREAM && strcmp(t->port, n->cfg->name) == 0 &&
		    (!mss || m < mss))
			mss = m;
	}
	return mss ? gro_max_segs(GRO_MAX_SIZE_DEFAULT, mss) : 1;
}

int gro_rx_init(struct sim *s, struct nic *n)
{
	uint32_t batch = s->scn->host.gro_normal_batch;
	struct gro_rx *g;

	n->gro = NULL;
	if (!n->cfg->gro)
		return 0;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -1;
	n->gro = g;
	gro_init(&g->t, GRO_MAX_SIZE_DEFAULT, batch);
	g->max_segs = slot_frames(s, n);
	g->slot_pkt = calloc((size_t)GRO_SLOT_N * g->max_segs, sizeof(*g->slot_pkt));
	/* the normal list holds < batch segments, then one more skb */
	g->sizes.cap = batch + 1;
	g->sizes.v = calloc(g->sizes.cap, sizeof(*g->sizes.v));
	if (!g->slot_pkt || !g->sizes.v || pktq_init(&g->normal, batch + g->max_segs))
		return -1;
	return 0;
}

void gro_rx_free(struct nic *n)
{
	if (!n->gro)
		return;
	pktq_free(&n->gro->normal);
	free(n->gro->slot_pkt);
	free(n->gro->sizes.v);
	free(n->gro);
	n->gro = NULL;
}

static void sizes_push(struct gro_rx *g, uint32_t segs)
{
	uint32_t j = g->sizes.head + g->sizes.count++;

	g->sizes.v[j >= g->sizes.cap ? j - g->sizes.cap : j] = segs;
}

static uint32_t sizes_pop(struct gro_rx *g)
{
	uint32_t v = g->sizes.v[g->sizes.head];

	g->sizes.head = g->sizes.head + 1 == g->sizes.cap ? 0 : g->sizes.head + 1;
	g->sizes.count--;
	return v;
}

/* gro_normal_list(): every skb on the normal list through the stack. */
static int64_t list_up(struct sim *s, struct cpu *c, struct nic *n, const struct gro_ev *e,
		       int64_t t)
{
	struct gro_rx *g = n->gro;

	n->c.gro_skbs += e->skbs;
	n->c.gro_skb_segs += e->segs;
	while (g->sizes.count)
		t = kern_deliver_skb(s, c, &g->normal, sizes_pop(g), t);
	return t;
}

/* Apply the events of the last table call in order; @cur is the frame
 * that call received (GRO_EV_NORMAL), NULL for a flush. */
static int64_t apply(struct sim *s, struct cpu *c, struct nic *n, const struct pkt *cur,
		     int64_t t)
{
	struct gro_rx *g = n->gro;

	for (uint32_t i = 0; i < g->ev.n; i++) {
		const struct gro_ev *e = &g->ev.ev[i];
		const struct pkt *sp;

		switch ((enum gro_ev_kind)e->kind) {
		case GRO_EV_COMPLETE:
			sp = &g->slot_pkt[(size_t)e->slot * g->max_segs];
			for (uint32_t k = 0; k < g->slot_n[e->slot]; k++)
				pktq_push(&g->normal, &sp[k]);
			g->slot_n[e->slot] = 0;
			sizes_push(g, e->segs);
			break;
		case GRO_EV_NORMAL:
			pktq_push(&g->normal, cur);
			sizes_push(g, 1);
			break;
		case GRO_EV_LIST:
			t = list_up(s, c, n, e, t);
			break;
		}
	}
	g->ev.n = 0;
	return t;
}

int64_t gro_rx_receive(struct sim *s, struct cpu *c, struct nic *n, struct pkt *p, int64_t t)
{
	struct gro_rx *g = n->gro;
	struct gro_seg seg = { .flow = p->flow, .hash = p->hash, .hdr = SCN_TCP_HDR,
			       .tcp = p->reply == PKT_TCP, .psh = false };
	struct gro_out o;

	if (n->out >= 0 || rps_on(s, n))
		return kern_rx_frame(s, c, n, p, t);
	/* a one-queue port without RPS keeps no RSS hash in struct pkt; a NIC
	 * that delivers one spreads flows over the buckets: mix the flow id */
	if (!seg.hash)
		seg.hash = p->flow * 2654435761u;
	seg.payload = seg.tcp ? p->len - SCN_TCP_OVERHEAD : 0;
	t += s->prof->gro_pkt_ns;
	n->c.gro_segs++;
	o = gro_receive(&g->t, &seg, jiffy_of(s, t), &g->ev);
	if (o.res != GRO_NORMAL) {
		if (o.slot >= GRO_SLOT_N || g->slot_n[o.slot] >= g->max_segs) {
			sim_fail(s, "GRO slot overflow", o.slot, g->max_segs);
			return t;
		}
		g->slot_pkt[(size_t)o.slot * g->max_segs + g->slot_n[o.slot]++] = *p;
	}
	return apply(s, c, n, p, t);
}

/* napi_complete_done()'s timeout for a poll of @work frames, computed as
 * src/core/napi.c will when the caller completes (napi_defer_step(), read
 * only): GRO then flushes only old skbs, "gro_flush_normal(&n->gro,
 * !!timeout)" (net/core/dev.c). */
static int64_t complete_timeout(const struct napi *n, uint32_t work, bool pending)
{
	uint32_t count = n->defer_count;
	int64_t gft = n->gro_flush_timeout_ns > 0 ? n->gro_flush_timeout_ns : 0, timeout = 0;
	bool defer = false;

	if (work > 0) {
		if (pending)
			timeout = gft;
		count = n->defer_hard_irqs;
	}
	if (n->state & NAPI_PREFER_BUSY_POLL) {
		timeout = n->irq_suspend_timeout_ns > 0 ? n->irq_suspend_timeout_ns : 0;
		defer = timeout != 0;
	}
	if (!defer && count > 0)
		timeout = gft;
	return timeout;
}

int64_t gro_rx_poll_end(struct sim *s, struct cpu *c, struct nic *n, int64_t t, uint32_t work,
			uint32_t budget)
{
	struct gro_rx *g = n->gro;
	bool old;

	g->pending = g->t.held_skbs > 0;
	if ((n->napi.state & NAPI_IN_BUSY_POLL) && !(n->napi.state & NAPI_THREADED_BUSY_POLL)) {
		/* napi_busy_loop() calls ->poll() itself, not __napi_poll(), and
		 * napi_complete_done() returns before flushing: only the
		 * "gro_normal_list(&napi->gro)" after each poll */
		gro_normal_list(&g->t, &g->ev);
		return apply(s, c, n, NULL, t);
	}
	/* __napi_poll() with the budget used: "gro_flush_normal(&n->gro, HZ >=
	 * 1000)"; a busy-polling kthread (threaded = busy-poll) does the same
	 * after every poll in napi_threaded_poll_loop(), its napi_complete_done()
	 * returning before any flush */
	if (work >= budget || (n->napi.state & NAPI_THREADED_BUSY_POLL))
		old = s->scn->host.hz >= 1000;
	else
		old = complete_timeout(&n->napi, work, g->pending) != 0;
	gro_flush(&g->t, old, jiffy_of(s, t), &g->ev);
	return apply(s, c, n, NULL, t);
}

int64_t gro_rx_spin_until(const struct sim *s, const struct nic *n, int64_t now, int64_t ready)
{
	int64_t hz = s->scn->host.hz, j, at;

	if (!n->gro || !n->gro->t.held_skbs)
		return ready;
	/* the start of the next jiffy: the least t with t * hz / 1e9 >= j + 1 */
	j = jiffy_of(s, now) + 1;
	at = (j * 1000000000 + hz - 1) / hz;
	return at < ready ? at : ready;
}

bool gro_rx_pending(const struct nic *n)
{
	return n->gro && n->gro->pending;
}

uint64_t gro_rx_in_flight(const struct nic *n)
{
	return n->gro ? gro_in_flight(&n->gro->t) : 0;
}
