/* sock.c - the sockets that locally delivered frames queue on (the
 * kernel's side; the threads that read them are src/sim/apps/sink.c).
 *
 * The stack queues a datagram on its reader's socket if its truesize fits
 * in rcvbuf, else drops it (UDP RcvbufErrors), and wakes the reader if it
 * sleeps.  With sink = on there is one reader; with server = epoll the
 * connection (pkt.flow) picks the worker (server-spread).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

int sock_init(struct sim *s)
{
	const struct scn_apps *a = &s->scn->apps;
	uint32_t cap = a->rcvbuf / (64 + SOCK_SKB_OVERHEAD) + 1;
	uint16_t n = a->server == SERVER_EPOLL ? (uint16_t)a->server_threads : 1;

	s->sock.n = 0;
	if (!a->sink)
		return 0;
	s->sock.w = calloc(n, sizeof(*s->sock.w));
	if (!s->sock.w)
		return -1;
	s->sock.n = n;
	for (uint16_t i = 0; i < n; i++) {
		struct sock *k = &s->sock.w[i];

		k->reader = -1;
		rng_seed(&k->work_rng, s->scn->run.seed, SOCK_WORK_STREAM + i);
		if (pktq_init(&k->q, cap) || pktq_init(&k->held, SINK_BATCH))
			return -1;
	}
	return 0;
}

void sock_free(struct sim *s)
{
	for (uint16_t i = 0; i < s->sock.n; i++) {
		pktq_free(&s->sock.w[i].q);
		pktq_free(&s->sock.w[i].held);
	}
	free(s->sock.w);
	s->sock.w = NULL;
	s->sock.n = 0;
}

uint16_t sock_worker_of(enum scn_spread spread, uint32_t flow, uint16_t queue,
			uint16_t n_workers)
{
	if (spread == SPREAD_RR)
		return (uint16_t)(flow % n_workers);
	return (uint16_t)(queue % n_workers);
}

void sock_enqueue(struct sim *s, struct pkt *p, int64_t t)
{
	const struct scn_apps *a = &s->scn->apps;
	struct sock *k = &s->sock.w[s->sock.n == 1 ? 0 :
		sock_worker_of((enum scn_spread)a->server_spread, p->flow, p->in_nic, s->sock.n)];

	if (k->bytes + sock_truesize(p) > a->rcvbuf || k->q.count == k->q.cap) {
		s->nic[p->in_nic].c.sock_drop++;
		nic_client_next(s, p, t, true);
		return;
	}
	p->t_evt = t;
	pktq_push(&k->q, p);
	k->bytes += sock_truesize(p);
	k->napi = p->in_nic;
	k->ep_napi_ok = true;
	if (k->waiting) {
		k->waiting = false;
		sched_wake(s, &s->thr[k->reader]);
	}
}

uint64_t sock_in_flight(const struct sim *s)
{
	uint64_t n = 0;

	for (uint16_t i = 0; i < s->sock.n; i++)
		n += s->sock.w[i].q.count + s->sock.w[i].held.count;
	return n;
}

bool sock_busy_polls(const struct sim *s, uint16_t nic)
{
	for (uint16_t i = 0; i < s->sock.n; i++)
		if (s->sock.w[i].bp_owned && s->sock.w[i].bp_napi == nic)
			return true;
	return false;
}

void sock_snapshot(struct sim *s)
{
	for (uint16_t i = 0; i < s->sock.n; i++) {
		struct sock *k = &s->sock.w[i];

		k->snap = (struct sock_snap){ .bp_polls = k->bp_polls, .bp_pkts = k->bp_pkts,
					      .suspends = k->suspends, .resumes = k->resumes,
					      .served = k->served, .timeouts = k->timeouts };
	}
}

static void collect_worker(struct worker_result *w, const struct sim *s, const struct sock *k,
			   double win_ns)
{
	const struct thread *t = &s->thr[k->reader];

	snprintf(w->name, sizeof(w->name), "%s", t->name);
	w->cpu = t->cpu;
	w->served = k->served - k->snap.served;
	w->served_pps = (double)w->served / (win_ns / 1e9);
	w->cpu_pct = 100.0 * (double)(t->cpu_ns - s->snap.thread_ns[k->reader]) / win_ns;
	w->busy_polls = k->bp_polls - k->snap.bp_polls;
	w->busy_poll_pkts = k->bp_pkts - k->snap.bp_pkts;
	w->suspends = k->suspends - k->snap.suspends;
	w->resumes = k->resumes - k->snap.resumes;
	w->epoll_timeouts = k->timeouts - k->snap.timeouts;
}

/* CPU time the host spent not idle in the window, ns, every CPU. */
static uint64_t busy_ns(const struct sim *s)
{
	uint64_t ns = 0;

	for (uint16_t i = 0; i < s->n_cpus; i++)
		for (int k = 0; k < ACCT_N; k++)
			if (k != ACCT_IDLE)
				ns += s->cpu[i].acct[k] - s->snap.acct[i][k];
	return ns;
}

int sock_collect(struct server_result *r, const struct sim *s, double win_ns)
{
	uint64_t served = 0;

	memset(r, 0, sizeof(*r));
	r->lat_p95_us = s->lat.n ? (double)hist_quantile(&s->lat, 0.95) / 1e3 : NAN;
	if (s->sock.n == 0)
		return 0;
	r->w = calloc(s->sock.n, sizeof(*r->w));
	if (!r->w)
		return -1;
	r->epoll = s->scn->apps.server == SERVER_EPOLL;
	r->n_workers = s->sock.n;
	for (uint16_t i = 0; i < s->sock.n; i++) {
		collect_worker(&r->w[i], s, &s->sock.w[i], win_ns);
		r->served_pps += r->w[i].served_pps;
		r->server_cpu_pct += r->w[i].cpu_pct;
		served += r->w[i].served;
	}
	r->cpu_ns_per_query = served ? (double)busy_ns(s) / (double)served : NAN;
	r->cycles_per_query = served ? profile_cycles(s->prof, busy_ns(s) / served) : 0;
	return 0;
}
