/* client.c - the schedule of a closed-loop source's requests (client.h):
 * a binary heap of (time, flow), ties by flow so that the order is the
 * same on every run. */
#include "sim/client.h"

#include <stdlib.h>

static bool before(const struct client *c, uint32_t a, uint32_t b)
{
	return c->t[a] < c->t[b] || (c->t[a] == c->t[b] && c->flow[a] < c->flow[b]);
}

static void swap(struct client *c, uint32_t a, uint32_t b)
{
	int64_t t = c->t[a];
	uint32_t f = c->flow[a];

	c->t[a] = c->t[b];
	c->flow[a] = c->flow[b];
	c->t[b] = t;
	c->flow[b] = f;
}

void client_push(struct client *c, int64_t t, uint32_t flow)
{
	uint32_t i = c->n++;

	if (c->n > c->cap) { /* at most depth per flow are outstanding */
		c->n--;
		return;
	}
	c->t[i] = t;
	c->flow[i] = flow;
	while (i > 0 && before(c, i, (i - 1) / 2)) {
		swap(c, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

void client_pop(struct client *c)
{
	uint32_t i = 0;

	if (!c->n)
		return;
	c->n--;
	c->t[0] = c->t[c->n];
	c->flow[0] = c->flow[c->n];
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < c->n && before(c, l, m))
			m = l;
		if (r < c->n && before(c, r, m))
			m = r;
		if (m == i)
			return;
		swap(c, i, m);
		i = m;
	}
}

int client_init(struct client *c, uint32_t flows, uint32_t depth, int64_t start,
		int64_t delay_ns, int64_t rto_ns)
{
	c->cap = flows * depth;
	c->n = 0;
	c->delay_ns = delay_ns;
	c->rto_ns = rto_ns;
	c->t = malloc(c->cap * sizeof(*c->t));
	c->flow = malloc(c->cap * sizeof(*c->flow));
	if (!c->t || !c->flow)
		return -1;
	for (uint32_t d = 0; d < depth; d++)
		for (uint32_t f = 0; f < flows; f++)
			client_push(c, start, f);
	return 0;
}

void client_free(struct client *c)
{
	free(c->t);
	free(c->flow);
	c->t = NULL;
	c->flow = NULL;
}
