/* engine.h - the discrete-event engine: the one owner of simulated time.
 *
 * Events are ordered by (time, seq): seq is a counter stamped at insertion,
 * so events at equal times run in the order they were scheduled and every
 * run is bit-for-bit reproducible.  The pending set is a 4-ary min-heap in
 * a buffer sized once at creation; the event loop never allocates.
 *
 * Cancellation is lazy: an event carries the generation of the object that
 * scheduled it, and the handler ignores it when the object has moved on.
 */
#ifndef RXLAB_SIM_ENGINE_H
#define RXLAB_SIM_ENGINE_H

#include <stddef.h>
#include <stdint.h>

struct event {
	int64_t t;        /* ns */
	uint64_t seq;     /* tie-break: insertion order */
	uint16_t kind;    /* enum sim_event_kind (sim.h) */
	uint16_t obj;     /* index of the object the event is for */
	uint32_t gen;     /* generation of that object when scheduled */
};

struct engine {
	int64_t now;      /* time of the event being handled; never decreases */
	uint64_t seq;
	struct event *heap;
	size_t n, cap;
	uint64_t handled; /* events popped */
};

/* Allocate room for @cap pending events.  Returns 0 or -1 (ENOMEM). */
int engine_init(struct engine *e, size_t cap);
void engine_free(struct engine *e);

/* Schedule an event at @t >= now.  Returns 0, or -1 when @t < now (a model
 * bug) or memory ran out; the caller aborts the run. */
int engine_push(struct engine *e, int64_t t, uint16_t kind, uint16_t obj, uint32_t gen);

/* Pop the earliest event into @ev and advance now to its time.  Returns 0,
 * or -1 when nothing is pending or the earliest is later than @limit. */
int engine_pop(struct engine *e, int64_t limit, struct event *ev);

#endif
