/* engine.h - the discrete-event engine: the one owner of simulated time.
 *
 * Events are ordered by (time, seq): seq is a counter stamped at insertion,
 * so events at equal times run in the order they were scheduled and every
 * run is bit-for-bit reproducible.  The pending set is a binary min-heap in
 * a buffer sized once at creation; the event loop never allocates.
 *
 * Keyed events.  An event may carry a key (1 .. ENGINE_KEYS-1, 0: none): the
 * engine knows where each key's pending event sits in the heap (pos[]),
 * and at most one event per key is pending.  Pushing a key that has one
 * replaces it in place (new time, new seq, new gen: exactly what popping
 * the old one as stale and the new one later would do, since seq orders
 * the new event after everything pushed before it), and engine_cancel()
 * removes it.  A model uses a key for an event that a newer one of the
 * same object always supersedes (its CPU's chunk end, its NIC's next
 * wake-up): the cancelled events never reach the front of the heap.
 *
 * Cancellation by generation remains: an event carries the generation of
 * the object that scheduled it, and the handler ignores it when the object
 * has moved on (a model may invalidate a keyed event without cancelling
 * it; the stale event is popped and ignored, as it always was).
 */
#ifndef RXLAB_SIM_ENGINE_H
#define RXLAB_SIM_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct event {
	int64_t t;        /* ns */
	uint64_t seq;     /* tie-break: insertion order */
	uint16_t kind;    /* enum sim_event_kind (sim.h) */
	uint16_t obj;     /* index of the object the event is for */
	uint32_t gen;     /* generation of that object when scheduled */
	uint32_t key;     /* 0: none; else its slot in pos[] (see above) */
};

#define ENGINE_NOWHERE UINT32_MAX /* pos[] of a key with nothing pending */
#define ENGINE_KEYS 4096          /* keys 1 .. ENGINE_KEYS - 1 (sim.h uses SIM_KEY_N - 1) */

struct engine {
	int64_t now;      /* time of the event being handled; never decreases */
	uint64_t seq;
	struct event *heap;
	size_t n, cap;    /* events pending; slots */
	bool hole;        /* heap[0] is empty, the pending events are heap[1..n]:
	                   * engine_pop() leaves the root's place to the next push,
	                   * one sift down instead of a sift down and a sift up */
	uint32_t *pos;    /* pos[key]: heap index of key's event, or ENGINE_NOWHERE;
	                   * pos[0] is written by every move and never read */
	uint64_t handled; /* events popped */
	uint64_t cancelled; /* keyed events replaced or removed before their time */
	/* The slow path, for tests (set before the first push): keyed pushes
	 * and cancels change nothing in place; every event stays in the heap
	 * until its time, as before keys, and a popped keyed event that a
	 * later push or a cancel of its key superseded counts in stale (its
	 * handler ignores it).  handled - stale is then what handled is
	 * without lazy. */
	bool lazy;
	uint64_t *last;   /* lazy: seq of each key's latest push, UINT64_MAX: cancelled */
	uint64_t stale;   /* lazy: superseded keyed events popped */
};

/* Allocate room for @cap pending events.  Returns 0 or -1 (ENOMEM). */
int engine_init(struct engine *e, size_t cap);
void engine_free(struct engine *e);

/* Schedule an event at @t >= now.  Returns 0, or -1 when @t < now (a model
 * bug) or memory ran out; the caller aborts the run. */
int engine_push(struct engine *e, int64_t t, uint16_t kind, uint16_t obj, uint32_t gen);

/* The same for key @key (< ENGINE_KEYS; 0: none, engine_push()): a
 * pending event of @key is replaced in place (counted in cancelled).
 * Returns 0 or -1 as above. */
int engine_push_key(struct engine *e, int64_t t, uint16_t kind, uint16_t obj, uint32_t gen,
		    uint32_t key);

/* Remove the pending event of @key, if any (counted in cancelled). */
void engine_cancel(struct engine *e, uint32_t key);

/* Fill the root hole that engine_pop() left, when no push filled it
 * (engine_pop() calls it; engine.c). */
void engine_settle(struct engine *e);

/* Pop the earliest event into @ev and advance now to its time.  Returns 0,
 * or -1 when nothing is pending or the earliest is later than @limit.
 * Inline: the event loop calls it once per event. */
static inline int engine_pop(struct engine *e, int64_t limit, struct event *ev)
{
	if (e->hole)
		engine_settle(e);
	if (e->n == 0 || e->heap[0].t > limit)
		return -1;
	*ev = e->heap[0];
	e->pos[ev->key] = ENGINE_NOWHERE;
	e->n--;
	e->hole = true;
	if (e->lazy && ev->key)
		e->stale += e->last[ev->key] != ev->seq;
	e->now = ev->t;
	e->handled++;
	return 0;
}

#endif
