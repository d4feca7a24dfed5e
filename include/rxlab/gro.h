/* gro.h - Linux GRO (generic receive offload) of one NAPI instance: the
 * hash table of held skbs and the gro_normal list (pure; no OS, no clock,
 * no allocation: the table is fixed-size and lives where the caller puts it).
 *
 * Follows net/core/gro.c (dev_gro_receive, skb_gro_receive,
 * __napi_gro_flush_chain, gro_flush_oldest), include/net/gro.h
 * (gro_normal_one, gro_normal_list) and net/ipv4/tcp_offload.c
 * (tcp_gro_receive) of Linux 6.x; see shared/reference/modern-host.md
 * section 5.  The table does not see packets, only what decides merging:
 * a flow id and hash, the payload length, the header length and PSH.
 *
 * Storage is the caller's: the table names each held skb by a slot
 * (0..GRO_SLOT_N-1) in which the caller keeps its segments.  Every call
 * appends to a caller-provided event list (struct gro_evs) what reached
 * the normal list and when the normal list went up the stack, in order:
 *
 *   GRO_EV_COMPLETE slot S, segs N   held skb S (N segments) completed
 *                                    (napi_gro_complete) onto the normal list;
 *                                    slot S is free again afterwards
 *   GRO_EV_NORMAL   segs 1           the segment just received went to the
 *                                    normal list unmerged (GRO_NORMAL)
 *   GRO_EV_LIST     skbs K, segs N   gro_normal_list(): the K skbs on the
 *                                    normal list (N segments) go to the stack
 *                                    (netif_receive_skb_list_internal) now
 *
 * The caller applies the events in order: it moves a completed slot's
 * segments to its normal list, and at GRO_EV_LIST hands its normal list to
 * the stack (one stack traversal per skb).  For gro_receive() it first
 * stores the new segment in .slot when .res is GRO_MERGED or GRO_HELD: a
 * GRO_EV_COMPLETE of that slot in the same call includes the segment (a
 * merge that flushed, e.g. a short segment), and a new hold never reuses a
 * slot completed in the same call.
 */
#ifndef RXLAB_RXLAB_GRO_H
#define RXLAB_RXLAB_GRO_H

#include <stdbool.h>
#include <stdint.h>

#define GRO_HASH_BUCKETS 8          /* include/net/gro.h */
#define GRO_MAX_SKBS 8              /* net/core/gro.c MAX_GRO_SKBS, per bucket */
#define GRO_MAX_SIZE_DEFAULT 65536  /* GRO_LEGACY_MAX_SIZE, default gro_max_size */
#define GRO_NORMAL_BATCH_DEFAULT 8  /* net.core.gro_normal_batch, segments */
/* Slots: every bucket full, plus one so that a new hold never takes the slot
 * of the skb it evicts in the same call. */
#define GRO_SLOT_N (GRO_HASH_BUCKETS * GRO_MAX_SKBS + 1)
#define GRO_NO_SLOT 0xffffu
/* Most events one call can append: each held skb completes once and each
 * completion can be followed by a list handoff, plus the final handoff. */
#define GRO_EV_MAX (2 * GRO_SLOT_N + 4)

/* One segment as dev_gro_receive() sees it. */
struct gro_seg {
	uint32_t flow;    /* connection id: same flow = same 5-tuple */
	uint32_t hash;    /* skb->hash (RSS): the bucket is hash & (GRO_HASH_BUCKETS - 1) */
	uint32_t hdr;     /* network + transport header bytes (skb->len - payload) */
	uint32_t payload; /* TCP payload bytes (skb_gro_len after the headers) */
	bool tcp;         /* a TCP segment; anything else passes as GRO_NORMAL */
	bool psh;         /* PSH (or URG/RST/SYN/FIN): merged, then flushed */
};

/* One held skb (a struct of the caller's table; read-only to the caller). */
struct gro_skb {
	uint32_t flow, hash;
	uint32_t len;     /* skb->len: hdr of the first segment + all payloads, bytes */
	uint32_t mss;     /* gso_size: the first segment's payload */
	uint32_t segs;    /* NAPI_GRO_CB(skb)->count */
	int64_t age;      /* NAPI_GRO_CB(skb)->age: the jiffy it was held in */
	uint16_t slot;
};

/* skbs of one bucket, oldest first (the kernel's list, read tail to head). */
struct gro_bucket {
	struct gro_skb skb[GRO_MAX_SKBS];
	uint32_t n;
};

struct gro_table {
	struct gro_bucket b[GRO_HASH_BUCKETS];
	uint8_t slot_used[GRO_SLOT_N];
	uint32_t max_size;     /* gro_max_size, bytes */
	uint32_t normal_batch; /* gro_normal_batch, segments (>= 1) */
	uint32_t rx_count;     /* segments on the normal list (napi->rx_count) */
	uint32_t rx_skbs;      /* skbs on the normal list */
	uint32_t held_segs;    /* segments in held skbs */
	uint32_t held_skbs;
};

enum gro_ev_kind { GRO_EV_COMPLETE, GRO_EV_NORMAL, GRO_EV_LIST };
struct gro_ev {
	uint8_t kind;     /* enum gro_ev_kind */
	uint16_t slot;    /* GRO_EV_COMPLETE: the slot; else GRO_NO_SLOT */
	uint32_t skbs;    /* GRO_EV_LIST: skbs handed to the stack; else 1 */
	uint32_t segs;    /* segments of that skb / those skbs */
};
struct gro_evs {
	uint32_t n;       /* events appended since the caller last set n = 0 */
	struct gro_ev ev[GRO_EV_MAX];
};

/* dev_gro_receive()'s result for the segment. */
enum gro_result {
	GRO_MERGED,       /* merged into the held skb of .slot (GRO_MERGED_FREE) */
	GRO_HELD,         /* a new held skb in .slot */
	GRO_NORMAL,       /* passed to the normal list unmerged */
};
struct gro_out {
	enum gro_result res;
	uint16_t slot;    /* GRO_MERGED / GRO_HELD: where the segment is; else GRO_NO_SLOT */
};

/* An empty table; @max_size gro_max_size in bytes (>= 2), @normal_batch
 * gro_normal_batch in segments (>= 1; 0 is taken as 1). */
void gro_init(struct gro_table *g, uint32_t max_size, uint32_t normal_batch);

/* napi_gro_receive() of segment @s at jiffy @jiffy.  Events go to @ev
 * (appended; @ev must have room for 4).  TCP segments, with the held skb
 * of the same flow in their bucket, p:
 *  - p exists, and the segment is not larger than p's mss and p->len +
 *    payload < max_size: merged; if it is shorter than the mss or has PSH
 *    the merged skb completes at once;
 *  - p exists but the segment does not fit: p completes, and the segment
 *    is held anew (or goes GRO_NORMAL with PSH);
 *  - no p: a PSH or empty segment goes GRO_NORMAL, else it is held; in a
 *    bucket of GRO_MAX_SKBS the oldest skb completes first.
 * Non-TCP segments go GRO_NORMAL.  A completion or a GRO_NORMAL puts the
 * skb on the normal list, which goes to the stack once it holds
 * normal_batch segments (gro_normal_one()). */
struct gro_out gro_receive(struct gro_table *g, const struct gro_seg *s, int64_t jiffy,
			   struct gro_evs *ev);

/* napi_gro_flush(@flush_old) then gro_normal_list() (gro_flush_normal()):
 * complete every held skb, bucket by bucket, oldest first - with
 * @flush_old only those not held in jiffy @jiffy (each bucket stops at its
 * first skb of this jiffy) - then hand the normal list to the stack.
 * Appends at most GRO_EV_MAX events. */
void gro_flush(struct gro_table *g, bool flush_old, int64_t jiffy, struct gro_evs *ev);

/* gro_normal_list() alone: the normal list to the stack, if not empty. */
void gro_normal_list(struct gro_table *g, struct gro_evs *ev);

/* Segments held in skbs or waiting on the normal list. */
static inline uint32_t gro_in_flight(const struct gro_table *g)
{
	return g->held_segs + g->rx_count;
}

/* Most segments one skb can hold when its segments carry @mss payload
 * bytes each (the last may be shorter) under @max_size: hdr + n * mss
 * stays below max_size, so n <= (max_size - 1) / mss + 1 for any header.
 * @mss >= 1. */
static inline uint32_t gro_max_segs(uint32_t max_size, uint32_t mss)
{
	return (max_size - 1) / mss + 1;
}

#endif
