/* sock.c - the UDP socket that locally delivered frames queue on, and the
 * sink thread that reads it.
 *
 * The stack queues a datagram if its truesize fits in rcvbuf, else drops it
 * (UDP RcvbufErrors), and wakes the reader if it sleeps in recvmsg().  The
 * reader takes one datagram per recvmsg() (syscall + copy, system time),
 * then does sink-work of user time per datagram, and sleeps when the queue
 * is empty.  A datagram is delivered when recvmsg() returns it; its latency
 * runs from its last bit on the wire to that moment.
 */
#include "sim/sim.h"

#define SINK_BATCH 64 /* datagrams received per chunk before user work runs */

int sock_init(struct sim *s)
{
	uint32_t cap = s->scn->apps.rcvbuf / (64 + SOCK_SKB_OVERHEAD) + 1;

	s->sock.reader = -1;
	if (!s->scn->apps.sink)
		return 0;
	return pktq_init(&s->sock.q, cap);
}

static uint32_t truesize(const struct pkt *p)
{
	return p->len + SOCK_SKB_OVERHEAD;
}

void sock_enqueue(struct sim *s, struct pkt *p, int64_t t)
{
	struct sock *k = &s->sock;

	if (k->bytes + truesize(p) > s->scn->apps.rcvbuf || k->q.count == k->q.cap) {
		s->nic[p->in_nic].c.sock_drop++;
		return;
	}
	p->t_evt = t;
	pktq_push(&k->q, p);
	k->bytes += truesize(p);
	if (k->waiting) {
		k->waiting = false;
		sched_wake(s, &s->thr[k->reader]);
	}
}

/* recvmsg() up to SINK_BATCH datagrams; returns the system time it took
 * and sets the user work owed for them. */
static int64_t receive_batch(struct sim *s, struct thread *t, int64_t now)
{
	struct sock *k = &s->sock;
	int64_t at = now;

	t->user_ns = 0;
	for (uint32_t i = 0; i < SINK_BATCH && k->q.count; i++) {
		struct pkt p = pktq_pop(&k->q);

		k->bytes -= truesize(&p);
		at += s->prof->syscall_ns + (int64_t)p.len * s->prof->copy_ps_per_byte / 1000;
		if (at < p.t_evt)
			at = p.t_evt;
		s->nic[p.in_nic].c.delivered++;
		hist_add(&s->lat, at - p.t_arr);
		t->user_ns += s->scn->apps.sink_work_ns;
	}
	return at - now;
}

void sink_run(struct sim *s, struct cpu *c)
{
	struct thread *t = &s->thr[c->cur];

	if (s->sock.q.count == 0) {
		cpu_account(s, c);
		s->sock.waiting = true;
		t->runnable = false;
		sched_pick(s, c);
		return;
	}
	if (sched_need_resched(s, c)) {
		sched_pick(s, c);
		return;
	}
	cpu_run(s, c, LVL_THREAD, TCH_SYS, receive_batch(s, t, s->eng.now));
}

void sink_chunk_done(struct sim *s, struct cpu *c)
{
	struct thread *t = &s->thr[c->cur];

	if (c->lvl[LVL_THREAD].what == TCH_SYS && t->user_ns > 0) {
		cpu_run(s, c, LVL_THREAD, TCH_RUN, t->user_ns);
		t->user_ns = 0;
		return;
	}
	sink_run(s, c);
}
