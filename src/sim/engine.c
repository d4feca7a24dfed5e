/* engine.c - 4-ary min-heap of events keyed by (t, seq).  A 4-ary heap is
 * shallower than a binary one and its four children share a cache line,
 * which is what matters with a few dozen pending events. */
#include "sim/engine.h"

#include <stdbool.h>
#include <stdlib.h>

int engine_init(struct engine *e, size_t cap)
{
	e->now = 0;
	e->seq = 0;
	e->n = 0;
	e->cap = cap;
	e->handled = 0;
	e->heap = malloc(cap * sizeof(*e->heap));
	return e->heap ? 0 : -1;
}

void engine_free(struct engine *e)
{
	free(e->heap);
	e->heap = NULL;
}

static inline bool before(const struct event *a, const struct event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void sift_up(struct event *h, size_t i)
{
	struct event x = h[i];

	while (i > 0) {
		size_t p = (i - 1) / 4;

		if (!before(&x, &h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = x;
}

static void sift_down(struct event *h, size_t n, size_t i)
{
	struct event x = h[i];

	for (;;) {
		size_t c = 4 * i + 1, best = c, end = c + 4;

		if (c >= n)
			break;
		if (end > n)
			end = n;
		for (size_t k = c + 1; k < end; k++)
			if (before(&h[k], &h[best]))
				best = k;
		if (!before(&h[best], &x))
			break;
		h[i] = h[best];
		i = best;
	}
	h[i] = x;
}

/* Lazily cancelled events stay in the heap until their time, so the number
 * pending can exceed the number of objects; grow by doubling (amortised,
 * and it stops once the high-water mark is reached). */
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

int engine_push(struct engine *e, int64_t t, uint16_t kind, uint16_t obj, uint32_t gen)
{
	if (t < e->now || (e->n == e->cap && grow(e)))
		return -1;
	e->heap[e->n] = (struct event){ .t = t, .seq = e->seq++, .kind = kind, .obj = obj, .gen = gen };
	sift_up(e->heap, e->n++);
	return 0;
}

int engine_pop(struct engine *e, int64_t limit, struct event *ev)
{
	if (e->n == 0 || e->heap[0].t > limit)
		return -1;
	*ev = e->heap[0];
	e->heap[0] = e->heap[--e->n];
	if (e->n)
		sift_down(e->heap, e->n, 0);
	e->now = ev->t;
	e->handled++;
	return 0;
}
