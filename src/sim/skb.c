/* skb.c - where an sk_buff is allocated and freed, and the transmit lock.
 *
 * Three costs of a multiprocessor router that a uniprocessor never sees
 * (seed 002): the slab allocation of every RX sk_buff, which Olsson's
 * private recycling replaces with a per-CPU free list ("RC hit/miss"); the
 * cache lines a CPU must pull when it frees an sk_buff that another CPU
 * allocated (Fraser's "cache invalidates" when interrupts float); and the
 * driver's transmit lock, which lets one CPU at a time into a port's
 * hard_start_xmit, so two CPUs forwarding to one port take turns.
 *
 * The lock is modelled on the chunk model's terms: a chunk computes all of
 * its per-packet effects when it starts, so the holds of chunks already
 * computed are known intervals in the (near) future.  A CPU that wants the
 * lock takes the first gap at or after its request that is long enough for
 * its hold, spinning until then; that CPU time counts as busy, as spinning
 * does.  Chunks computed earlier win every overlap: a bias towards the CPU
 * that started first, which the docs mention.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sim/sim.h"

int64_t skb_alloc(struct sim *s, struct cpu *c, struct pkt *p)
{
	p->cpu = (uint8_t)c->id;
	if (!s->scn->host.skb_recycle)
		return s->prof->skb_alloc_ns;
	if (c->skb_pool > 0) {
		c->skb_pool--;
		c->sn.skb_hit++;
		return 0;
	}
	c->sn.skb_miss++;
	return s->prof->skb_alloc_ns;
}

bool skb_free(struct sim *s, struct cpu *c, const struct pkt *p)
{
	bool remote = p->cpu != c->id;

	if (s->scn->host.skb_recycle && c->skb_pool < s->scn->host.skb_recycle_max)
		c->skb_pool++;
	c->sn.remote_free += remote;
	return remote;
}

int xlock_init(struct sim *s)
{
	if (s->n_cpus < 2 || s->prof->xmit_locked_ns <= 0)
		return 0;
	for (uint16_t i = 0; i < s->n_nics; i++) {
		s->nic[i].xlock = calloc(1, sizeof(*s->nic[i].xlock));
		if (!s->nic[i].xlock) {
			snprintf(s->fatal, sizeof(s->fatal), "out of memory (xmit lock)");
			return -1;
		}
	}
	return 0;
}

void xlock_free(struct sim *s)
{
	for (uint16_t i = 0; i < s->n_nics; i++) {
		free(s->nic[i].xlock);
		s->nic[i].xlock = NULL;
	}
}

/* Forget hold @i: the last one moves into its slot. */
static void xlock_drop(struct xlock *x, uint32_t i)
{
	x->per_cpu[x->cpu[i]]--;
	x->n--;
	x->start[i] = x->start[x->n];
	x->end[i] = x->end[x->n];
	x->cpu[i] = x->cpu[x->n];
}

/* Forget holds that ended before @now: nobody can ask for the past.
 * While every end is later than @now (min_end) there is none. */
static void xlock_prune(struct xlock *x, int64_t now)
{
	int64_t min_end = INT64_MAX;

	if (x->min_end > now)
		return;
	for (uint32_t i = 0; i < x->n;) {
		if (x->end[i] > now) {
			min_end = x->end[i] < min_end ? x->end[i] : min_end;
			i++;
			continue;
		}
		xlock_drop(x, i);
	}
	x->min_end = min_end;
}

/* The first t' >= t where [t', t' + hold) overlaps no hold of another CPU. */
static int64_t xlock_gap(const struct xlock *x, uint16_t cpu, int64_t t, int64_t hold)
{
	bool moved = true;

	while (moved) {
		moved = false;
		for (uint32_t i = 0; i < x->n; i++) {
			if (x->cpu[i] == cpu || x->end[i] <= t || x->start[i] >= t + hold)
				continue;
			t = x->end[i];
			moved = true;
		}
	}
	return t;
}

int64_t xlock_acquire(struct sim *s, struct cpu *c, struct nic *n, int64_t t, int64_t hold)
{
	struct xlock *x = n->xlock;
	int64_t at;

	if (!x)
		return t;
	xlock_prune(x, s->eng.now);
	if (x->per_cpu[(uint8_t)c->id] == x->n)
		return t; /* no other CPU holds it: the scan would not move @t */
	at = xlock_gap(x, c->id, t, hold);
	c->sn.xmit_spin_ns += (uint64_t)(at - t);
	return at;
}

void xlock_release(struct sim *s, struct cpu *c, struct nic *n, int64_t at, int64_t end)
{
	struct xlock *x = n->xlock;

	(void)s;
	if (!x || end <= at)
		return;
	if (x->n == XLOCK_MAX) {
		/* more holds in flight than recorded: forget the earliest-ending */
		uint32_t m = 0;

		for (uint32_t i = 1; i < x->n; i++)
			m = x->end[i] < x->end[m] ? i : m;
		xlock_drop(x, m);
	}
	x->start[x->n] = at;
	x->end[x->n] = end;
	x->cpu[x->n] = (uint8_t)c->id;
	x->per_cpu[(uint8_t)c->id]++;
	x->min_end = end < x->min_end ? end : x->min_end;
	x->n++;
}
