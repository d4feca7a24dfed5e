/* runq.c - a vruntime-ordered binary heap and an intrusive thread list,
 * the per-CPU containers of the scheduler (cpu.c).
 *
 * CFS keeps its runnable entities in a red-black tree; a heap gives the
 * same three answers the model needs (least vruntime, insert, remove one)
 * in O(log n) with an array and no per-node allocation, and the model
 * never walks a queue in order. */
#include "sim/runq.h"

#include <assert.h>
#include <stddef.h>

bool runq_before(int64_t va, int32_t ia, int64_t vb, int32_t ib)
{
	return va < vb || (va == vb && ia < ib);
}

static bool ent_before(const struct rq_ent *a, const struct rq_ent *b)
{
	return runq_before(a->vruntime, a->id, b->vruntime, b->id);
}

static void put(struct runq *q, int32_t *pos, uint32_t i, struct rq_ent e)
{
	q->e[i] = e;
	pos[e.id] = (int32_t)i;
}

static void sift_up(struct runq *q, int32_t *pos, uint32_t i)
{
	struct rq_ent e = q->e[i];

	while (i > 0 && ent_before(&e, &q->e[(i - 1) / 2])) {
		put(q, pos, i, q->e[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	put(q, pos, i, e);
}

static void sift_down(struct runq *q, int32_t *pos, uint32_t i)
{
	struct rq_ent e = q->e[i];

	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= q->n)
			break;
		if (c + 1 < q->n && ent_before(&q->e[c + 1], &q->e[c]))
			c++;
		if (!ent_before(&q->e[c], &e))
			break;
		put(q, pos, i, q->e[c]);
		i = c;
	}
	put(q, pos, i, e);
}

void runq_insert(struct runq *q, int32_t *pos, int64_t vruntime, int32_t id)
{
	assert(q->n < q->cap && pos[id] == -1);
	q->e[q->n] = (struct rq_ent){ .vruntime = vruntime, .id = id };
	sift_up(q, pos, q->n++);
}

void runq_erase(struct runq *q, int32_t *pos, int32_t id)
{
	uint32_t i;

	assert(pos[id] >= 0 && (uint32_t)pos[id] < q->n && q->e[pos[id]].id == id);
	i = (uint32_t)pos[id];
	pos[id] = -1;
	if (i == --q->n)
		return;
	q->e[i] = q->e[q->n];
	/* The entry moved into the hole may belong above or below it. */
	if (i > 0 && ent_before(&q->e[i], &q->e[(i - 1) / 2]))
		sift_up(q, pos, i);
	else
		sift_down(q, pos, i);
}

const struct rq_ent *runq_first(const struct runq *q)
{
	return q->n ? &q->e[0] : NULL;
}

void rq_list_init(struct rq_list *l)
{
	l->head = -1;
	l->n = 0;
}

void rq_list_add(struct rq_list *l, struct rq_link *links, int32_t id)
{
	links[id].prev = -1;
	links[id].next = l->head;
	if (l->head >= 0)
		links[l->head].prev = id;
	l->head = id;
	l->n++;
}

void rq_list_del(struct rq_list *l, struct rq_link *links, int32_t id)
{
	if (links[id].prev >= 0)
		links[links[id].prev].next = links[id].next;
	else
		l->head = links[id].next;
	if (links[id].next >= 0)
		links[links[id].next].prev = links[id].prev;
	links[id].next = links[id].prev = -1;
	l->n--;
}
