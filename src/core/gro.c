/* gro.c - GRO of one NAPI instance (see include/rxlab/gro.h).
 *
 * Linux 6.x, in the order a segment meets it:
 *   dev_gro_receive() (net/core/gro.c): bucket = skb->hash & 7; the
 *     protocol callback (tcp_gro_receive, net/ipv4/tcp_offload.c) finds the
 *     held skb p of the same flow and either merges (skb_gro_receive) or
 *     sets flush; "if (pp) napi_gro_complete(pp)"; a segment not merged is
 *     GRO_NORMAL when flush is set, else held - in a full bucket
 *     (count >= MAX_GRO_SKBS) after gro_flush_oldest();
 *   napi_gro_complete() -> gro_normal_one(): onto rx_list, rx_count +=
 *     segments, and "if (rx_count >= gro_normal_batch) gro_normal_list()";
 *   napi_gro_flush(flush_old): buckets in bit order, each chain from its
 *     oldest skb, stopping at "NAPI_GRO_CB(skb)->age == jiffies" when
 *     flush_old.
 *
 * Pure: no libc beyond what the compiler emits.
 */
#include <stddef.h>
#include <stdint.h>

#include "rxlab/gro.h"

void gro_init(struct gro_table *g, uint32_t max_size, uint32_t normal_batch)
{
	*g = (struct gro_table){ .max_size = max_size,
				 .normal_batch = normal_batch ? normal_batch : 1 };
}

static void ev_add(struct gro_evs *ev, enum gro_ev_kind kind, uint16_t slot, uint32_t skbs,
		   uint32_t segs)
{
	if (ev->n < GRO_EV_MAX)
		ev->ev[ev->n++] = (struct gro_ev){ .kind = (uint8_t)kind, .slot = slot,
						   .skbs = skbs, .segs = segs };
}

void gro_normal_list(struct gro_table *g, struct gro_evs *ev)
{
	/* "if (!gro->rx_count) return;" */
	if (!g->rx_count)
		return;
	ev_add(ev, GRO_EV_LIST, GRO_NO_SLOT, g->rx_skbs, g->rx_count);
	g->rx_count = 0;
	g->rx_skbs = 0;
}

/* gro_normal_one(): an skb of @segs segments joins the normal list. */
static void normal_one(struct gro_table *g, uint32_t segs, struct gro_evs *ev)
{
	g->rx_count += segs;
	g->rx_skbs++;
	if (g->rx_count >= g->normal_batch)
		gro_normal_list(g, ev);
}

/* napi_gro_complete() of skb @i of bucket @b: off the chain, slot freed,
 * onto the normal list. */
static void complete_at(struct gro_table *g, struct gro_bucket *b, uint32_t i,
			struct gro_evs *ev)
{
	struct gro_skb k = b->skb[i];

	for (uint32_t j = i + 1; j < b->n; j++)
		b->skb[j - 1] = b->skb[j];
	b->n--;
	g->slot_used[k.slot] = 0;
	g->held_segs -= k.segs;
	g->held_skbs--;
	ev_add(ev, GRO_EV_COMPLETE, k.slot, 1, k.segs);
	normal_one(g, k.segs, ev);
}

/* The lowest free slot not completed in this call: slots completed are
 * free again, but the event list still names them; skip those. */
static uint16_t slot_take(struct gro_table *g, const struct gro_evs *ev, uint32_t ev0)
{
	for (uint16_t s = 0; s < GRO_SLOT_N; s++) {
		bool fresh = !g->slot_used[s];

		for (uint32_t e = ev0; fresh && e < ev->n; e++)
			fresh = !(ev->ev[e].kind == GRO_EV_COMPLETE && ev->ev[e].slot == s);
		if (fresh) {
			g->slot_used[s] = 1;
			return s;
		}
	}
	return GRO_NO_SLOT; /* not reached: at most 64 held + 1 evicted */
}

/* tcp_gro_lookup(): the held skb of @s's flow in @b, youngest first. */
static int lookup(const struct gro_bucket *b, const struct gro_seg *s)
{
	for (uint32_t i = b->n; i-- > 0;)
		if (b->skb[i].flow == s->flow && b->skb[i].hash == s->hash)
			return (int)i;
	return -1;
}

/* A new held skb of @s in @b (youngest, at the end). */
static struct gro_out hold(struct gro_table *g, struct gro_bucket *b, const struct gro_seg *s,
			   int64_t jiffy, struct gro_evs *ev, uint32_t ev0)
{
	struct gro_out o = { .res = GRO_HELD };

	/* "if (unlikely(gro_list->count >= MAX_GRO_SKBS)) gro_flush_oldest()" */
	if (b->n >= GRO_MAX_SKBS)
		complete_at(g, b, 0, ev);
	o.slot = slot_take(g, ev, ev0);
	b->skb[b->n++] = (struct gro_skb){ .flow = s->flow, .hash = s->hash,
					   .len = s->hdr + s->payload, .mss = s->payload,
					   .segs = 1, .age = jiffy, .slot = o.slot };
	g->held_segs++;
	g->held_skbs++;
	return o;
}

static struct gro_out normal(struct gro_table *g, struct gro_evs *ev)
{
	ev_add(ev, GRO_EV_NORMAL, GRO_NO_SLOT, 1, 1);
	normal_one(g, 1, ev);
	return (struct gro_out){ .res = GRO_NORMAL, .slot = GRO_NO_SLOT };
}

struct gro_out gro_receive(struct gro_table *g, const struct gro_seg *s, int64_t jiffy,
			   struct gro_evs *ev)
{
	struct gro_bucket *b = &g->b[s->hash & (GRO_HASH_BUCKETS - 1)];
	uint32_t ev0 = ev->n;
	int i;

	if (!s->tcp)
		return normal(g, ev);
	i = lookup(b, s);
	if (i >= 0) {
		struct gro_skb *p = &b->skb[i];

		/* "flush |= (len - 1) >= mss" (a single frame larger than the
		 * mss) and skb_gro_receive()'s "p->len + len >= gro_max_size"
		 * -> -E2BIG: not merged, mss = 1, pp = p (same_flow stays 0) */
		if (s->payload == 0 || s->payload - 1 >= p->mss ||
		    p->len + s->payload >= g->max_size) {
			complete_at(g, b, (uint32_t)i, ev);
			return s->psh || s->payload == 0 ? normal(g, ev) : hold(g, b, s, jiffy, ev, ev0);
		}
		p->len += s->payload;
		p->segs++;
		g->held_segs++;
		struct gro_out o = { .res = GRO_MERGED, .slot = p->slot };
		/* out_check_final: "flush = len < mss; flush |= PSH..." and
		 * "if (p && (!same_flow || flush)) pp = p" */
		if (s->payload < p->mss || s->psh)
			complete_at(g, b, (uint32_t)i, ev);
		return o;
	}
	/* no p: mss stays 1, "flush = len < mss" only for an empty segment */
	if (s->psh || s->payload == 0)
		return normal(g, ev);
	return hold(g, b, s, jiffy, ev, ev0);
}

void gro_flush(struct gro_table *g, bool flush_old, int64_t jiffy, struct gro_evs *ev)
{
	for (uint32_t k = 0; k < GRO_HASH_BUCKETS; k++) {
		struct gro_bucket *b = &g->b[k];

		while (b->n) {
			if (flush_old && b->skb[0].age == jiffy)
				break;
			complete_at(g, b, 0, ev);
		}
	}
	gro_normal_list(g, ev);
}
