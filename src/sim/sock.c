/* sock.c - the UDP socket that locally delivered frames queue on (the
 * kernel's side; the thread that reads it is src/sim/apps/sink.c).
 *
 * The stack queues a datagram if its truesize fits in rcvbuf, else drops it
 * (UDP RcvbufErrors), and wakes the reader if it sleeps.
 */
#include "sim/sim.h"

int sock_init(struct sim *s)
{
	uint32_t cap = s->scn->apps.rcvbuf / (64 + SOCK_SKB_OVERHEAD) + 1;

	s->sock.reader = -1;
	if (!s->scn->apps.sink)
		return 0;
	return pktq_init(&s->sock.q, cap) || pktq_init(&s->sock.held, SINK_BATCH);
}

void sock_enqueue(struct sim *s, struct pkt *p, int64_t t)
{
	struct sock *k = &s->sock;

	if (k->bytes + sock_truesize(p) > s->scn->apps.rcvbuf || k->q.count == k->q.cap) {
		s->nic[p->in_nic].c.sock_drop++;
		return;
	}
	p->t_evt = t;
	pktq_push(&k->q, p);
	k->bytes += sock_truesize(p);
	k->napi = p->in_nic;
	if (k->waiting) {
		k->waiting = false;
		sched_wake(s, &s->thr[k->reader]);
	}
}
