/* engine.c - indexed binary min-heap of events keyed by (t, seq).
 * Every move of an event writes its heap index to pos[key] (key 0, the
 * unkeyed events, writes a slot nobody reads), so a keyed event can be
 * found, moved and removed where it is.
 *
 * Measured and left out (issue 20, callgrind on the netperf seed, whose
 * events are nearly all CPU chunk ends of 8 busy CPUs, about 10 pending):
 *  - handing a CPU's next chunk end straight back when it is the earliest
 *    pending event ("fusion"): in that seed it never is (0 of 10.25 M
 *    pushes into the root hole stayed at the root in 2 simulated s; the
 *    CPUs' chunk ends interleave), and where it is (one busy CPU) the
 *    push into the root hole already costs one level;
 *  - holding the latest keyed push beside the heap, or each CPU's chunk
 *    end in the CPU until the event being handled is done, so that the
 *    one chunk end in eight replaced at once (a thread arms its chunk, a
 *    softirq takes the CPU) never enters the heap: +4% and +8% Ir, the
 *    bookkeeping on every push and pop costs more than the pushes saved;
 *  - a bottom-up (Floyd) sift of the root hole: +1.6% Ir, the new event
 *    belongs at depth 2 of 3 on average, not at a leaf; and in wall time
 *    (2026-12-04) the netperf seed ran 2.08 -> 2.25 s;
 *  - a tournament tree over slots (2026-12-04): each push walks from its
 *    leaf to the root with a compare and a select per level and no
 *    data-dependent branch, the winner carried in registers.  The netperf
 *    seed ran 2.05 -> 1.86 s (-10%; the heap's sift exit there is a coin
 *    toss for the branch predictor), but classic-sat (-3..5% events/s),
 *    fwd-10g-modern (-3%) and memcached (-3%) slowed, with +0.1..4.6% Ir:
 *    the tree always walks its full depth where the heap's sift stops
 *    early.  A 4-ary tree (half the levels, three sibling compares each)
 *    was slower still (netperf 2.0 s).  Not worth the forwarding cases. */
#include "sim/engine.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int engine_init(struct engine *e, size_t cap)
{
	*e = (struct engine){ .cap = cap };
	e->heap = malloc(cap * sizeof(*e->heap));
	e->pos = malloc(ENGINE_KEYS * sizeof(*e->pos));
	e->last = malloc(ENGINE_KEYS * sizeof(*e->last));
	if (!e->heap || !e->pos || !e->last)
		return -1;
	memset(e->pos, 0xff, ENGINE_KEYS * sizeof(*e->pos));   /* ENGINE_NOWHERE */
	memset(e->last, 0xff, ENGINE_KEYS * sizeof(*e->last)); /* UINT64_MAX */
	return 0;
}

void engine_free(struct engine *e)
{
	free(e->heap);
	free(e->pos);
	free(e->last);
	e->heap = NULL;
	e->pos = NULL;
	e->last = NULL;
}

/* Binary: nearly every push fills the root hole of the pop before it
 * (push()), so the heap's work is sifting down, where a binary heap makes
 * fewer comparisons than a 4-ary one (2 per level against 4, over twice
 * the levels): 2% fewer instructions in the netperf seed. */
#define HOT static inline __attribute__((always_inline))

__extension__ typedef unsigned __int128 order_key;

/* (t, seq) as one 128-bit number, t in the high half: every t is >= 0
 * (engine_push*() refuse t < now, and now starts at 0), so comparing keys
 * is comparing (t, seq) lexicographically, in a compare and a subtract
 * with borrow instead of two compares and branches. */
HOT order_key order_of(const struct event *a)
{
	return (order_key)(uint64_t)a->t << 64 | a->seq;
}

HOT bool before(const struct event *a, const struct event *b)
{
	return order_of(a) < order_of(b);
}

/* The heap and pos[] through restrict pointers: the compiler may then
 * keep both in registers across the moves, which it cannot do through
 * @e (a store to an event could, for all it knows, change e->heap). */
struct view {
	struct event *restrict h;
	uint32_t *restrict pos;
};

HOT struct view view_of(struct engine *e)
{
	return (struct view){ e->heap, e->pos };
}

HOT void place(struct view v, size_t i, const struct event *x)
{
	v.h[i] = *x;
	v.pos[x->key] = (uint32_t)i;
}

/* Put @x into the hole at @i, moving parents down while @x is before
 * them. */
HOT void up_from(struct engine *e, size_t i, const struct event *x)
{
	struct view v = view_of(e);

	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!before(x, &v.h[p]))
			break;
		place(v, i, &v.h[p]);
		i = p;
	}
	place(v, i, x);
}

/* Put @x into the hole at @i of a heap of @n slots, moving the least
 * child up while it is before @x.  The loop runs while both children
 * exist; a lone left child (the last slot) is looked at once after it. */
HOT void down_from(struct engine *e, size_t i, const struct event *x, size_t n)
{
	struct view v = view_of(e);
	size_t c;

	while ((c = 2 * i + 2) < n) {
		c -= before(&v.h[c - 1], &v.h[c]);
		if (!before(&v.h[c], x)) {
			place(v, i, x);
			return;
		}
		place(v, i, &v.h[c]);
		i = c;
	}
	if (c == n && before(&v.h[c - 1], x)) {
		place(v, i, &v.h[c - 1]);
		i = c - 1;
	}
	place(v, i, x);
}

/* The root hole that engine_pop() leaves (engine.h) is filled by the next
 * push, or here, before anything else looks at the heap: the last event
 * moves into it. */
HOT void settle(struct engine *e)
{
	if (!e->hole)
		return;
	e->hole = false;
	if (e->n) {
		struct event x = e->heap[e->n];

		down_from(e, 0, &x, e->n);
	}
}

/* Put @x into the hole at @i (no root hole), up or down to its place. */
HOT void fill(struct engine *e, size_t i, const struct event *x)
{
	if (i > 0 && before(x, &e->heap[(i - 1) / 2]))
		up_from(e, i, x);
	else
		down_from(e, i, x, e->n);
}

/* Events of unkeyed kinds (and stale ones a model left behind) can stay
 * in the heap until their time, so the number pending can exceed the
 * number of objects; grow by doubling (amortised, and it stops once the
 * high-water mark is reached). */
static int grow(struct engine *e)
{
	size_t cap = e->cap ? 2 * e->cap : 64;
	struct event *h = realloc(e->heap, cap * sizeof(*h));

	if (!h)
		return -1;
	e->heap = h;
	e->cap = cap;
	return 0;
}

/* A new event: into the root hole if there is one (the event popped last
 * is usually followed by the next of its object), else at the bottom. */
HOT int push(struct engine *e, const struct event *x)
{
	if (e->hole) {
		e->hole = false;
		down_from(e, 0, x, ++e->n);
		return 0;
	}
	if (e->n == e->cap && grow(e))
		return -1;
	up_from(e, e->n++, x);
	return 0;
}

int engine_push(struct engine *e, int64_t t, uint16_t kind, uint16_t obj, uint32_t gen)
{
	if (t < e->now)
		return -1;
	return push(e, &(struct event){ .t = t, .seq = e->seq++, .kind = kind, .obj = obj,
					.gen = gen });
}

/* A keyed push whose key has an event pending, or a push of the slow
 * path: out of line, so that the common push keeps its registers. */
__attribute__((noinline)) static int push_key_slow(struct engine *e, const struct event *x)
{
	if (e->lazy) {
		e->last[x->key] = x->seq;
		return push(e, x);
	}
	settle(e);
	e->cancelled++;
	fill(e, e->pos[x->key], x);
	return 0;
}

int engine_push_key(struct engine *e, int64_t t, uint16_t kind, uint16_t obj, uint32_t gen,
		    uint32_t key)
{
	struct event x = { .t = t, .seq = e->seq, .kind = kind, .obj = obj, .gen = gen,
			   .key = key };

	assert(key < ENGINE_KEYS);
	if (t < e->now)
		return -1;
	e->seq++;
	if (e->lazy || (key && e->pos[key] != ENGINE_NOWHERE))
		return push_key_slow(e, &x);
	return push(e, &x);
}

void engine_settle(struct engine *e)
{
	settle(e);
}

void engine_cancel(struct engine *e, uint32_t key)
{
	size_t i;

	assert(key > 0 && key < ENGINE_KEYS);
	if (e->lazy) {
		e->last[key] = UINT64_MAX;
		return;
	}
	if (e->pos[key] == ENGINE_NOWHERE)
		return;
	settle(e);
	i = e->pos[key];
	e->pos[key] = ENGINE_NOWHERE;
	e->cancelled++;
	if (i != --e->n) {
		struct event x = e->heap[e->n];

		fill(e, i, &x);
	}
}
