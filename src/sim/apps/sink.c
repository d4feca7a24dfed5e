/* sink.c - the threads that read the sockets (sock.c): the UDP sink, a
 * request/response server, or the workers of an epoll server.
 *
 * An epoll server (server = epoll) has server-threads workers; each is
 * this same reader on its own socket queue (struct sock, s->sock.w[i],
 * thread.nic = i), with its own busy-poll and suspend state, so sink = on
 * is the one-worker server.  A worker's epoll busy loop polls the NAPI of
 * its last frame (ep->napi_id) and drops it when the loop ends empty
 * (ep_busy_loop: "ep->napi_id = 0"), until a frame is queued again.  A
 * finite epoll-timeout wakes a sleeping worker (epoll_wait() returns 0)
 * and it calls epoll_wait() again.  Per request it spends sink-work plus a
 * server-work draw (epoll_work.c).
 *
 * The reader takes one datagram per recvmsg() (syscall + copy, system
 * time), then does sink-work of user time per datagram.  A sink is done
 * with a datagram when recvmsg() returns it (latency: last bit in to that
 * moment).  A server (reply-size > 0) then sends a reply of reply-size
 * bytes out of the port the request came from (sendmsg: syscall + the
 * forwarding path); the request's latency runs to the reply's last bit out.
 *
 * Busy polling (busy_poll > 0, or prefer_busy_poll as epoll does it):
 * instead of sleeping on an empty socket the reader runs napi_busy_loop()
 * on the NAPI its last datagram came from: it claims the NAPI (SCHED |
 * IN_BUSY_POLL, so napi_complete_done() will not re-arm the IRQ), polls it
 * with busy_poll_budget frames at a time, and on leaving runs
 * busy_poll_stop(): with prefer_busy_poll the NAPI timer is armed for the
 * port's irq-suspend-timeout, or, without one, the deferral counter is
 * reloaded and the timer armed for gro_flush_timeout (the IRQ stays
 * masked; src/core/napi.c), then one more poll
 * completes the NAPI, or, when it is full, hands it to softirq (or to the
 * timer).  A busy poller that finds the NAPI owned by softirq sets
 * PREFER_BUSY_POLL and spins.
 *
 * IRQ suspension (irq-suspend-timeout on the port, with prefer_busy_poll):
 * when epoll returns events the NAPI timer is stretched to the suspend
 * timeout (napi_suspend_irqs); when the busy loop ends with no events the
 * NAPI is scheduled (napi_resume_irqs) and softirq completes it with the
 * normal deferral rules.
 */
#include <stdio.h>

#include "model/server_keys.h"
#include "sim/apps/epoll_work.h"
#include "sim/sim.h"

#define SPIN_NS 1000       /* one busy-loop turn while softirq owns the NAPI */
#define BUSY_POLL_BUDGET 8 /* include/net/busy_poll.h */

enum sink_next { NEXT_LOOP, NEXT_WORK, NEXT_REPLY, NEXT_SLEEP, NEXT_TIMED_OUT };

static bool epoll_server(const struct sim *s)
{
	return s->scn->apps.server == SERVER_EPOLL;
}

static bool server(const struct sim *s)
{
	return s->scn->apps.reply_bytes > 0;
}

static uint32_t bp_budget(const struct sim *s)
{
	return s->scn->apps.busy_poll_budget ? s->scn->apps.busy_poll_budget : BUSY_POLL_BUDGET;
}

/* The worker (its socket) that thread @t reads. */
static struct sock *sock_of(struct sim *s, const struct thread *t)
{
	return &s->sock.w[t->nic];
}

/* recvmsg() up to SINK_BATCH datagrams; returns the time it took and sets
 * the user work owed for them: sink-work each, plus an epoll server's
 * server-work draw. */
static int64_t receive_batch(struct sim *s, struct sock *k, struct thread *t, int64_t now)
{
	int64_t at = now;

	t->user_ns = 0;
	for (uint32_t i = k->held.count; i < SINK_BATCH && k->q.count; i++) {
		struct pkt p = pktq_pop(&k->q);

		k->bytes -= sock_truesize(&p);
		if (i % s->scn->apps.sink_batch == 0)
			at += s->prof->syscall_ns; /* one recvmsg per sink-batch datagrams */
		at += (int64_t)p.len * s->prof->copy_ps_per_byte / 1000;
		if (at < p.t_evt)
			at = p.t_evt;
		t->user_ns += s->scn->apps.sink_work_ns + epoll_work_ns(&s->scn->apps, &k->work_rng);
		if (server(s)) {
			pktq_push(&k->held, &p);
			continue;
		}
		s->nic[p.in_nic].c.delivered++;
		k->served++;
		hist_add(&s->lat, at - p.t_arr);
	}
	return at - now;
}

/* sendmsg() a reply to every held request; returns the time it took. */
static int64_t send_replies(struct sim *s, struct sock *k, int64_t now)
{
	int64_t at = now;

	while (k->held.count) {
		struct pkt p = pktq_pop(&k->held);

		p.len = s->scn->apps.reply_bytes;
		p.reply = PKT_REPLY;
		at += s->prof->syscall_ns + s->prof->fwd_pkt_ns;
		k->served++;
		nic_xmit(s, &s->nic[p.in_nic], &p, at);
	}
	return at - now;
}

/* ---- busy polling ---- */

/* One turn of napi_busy_loop(): a poll, or a spin while softirq owns the
 * NAPI.  An empty poll spins until the next frame can be in memory, since
 * every poll in between would find nothing. */
static int64_t bp_turn(struct sim *s, struct sock *k, struct cpu *c, int64_t deadline)
{
	struct nic *n = &s->nic[k->bp_napi];
	int64_t now = s->eng.now, end;
	uint32_t work;

	if (!k->bp_owned)
		k->bp_owned = napi_busy_poll_claim(&n->napi, s->scn->apps.prefer_busy_poll);
	if (!k->bp_owned)
		return deadline - now < SPIN_NS ? (deadline > now ? deadline - now : 1) : SPIN_NS;
	end = kern_nic_poll(s, c, n, now, bp_budget(s), &work);
	c->bp_work = work;
	k->bp_polls++;
	k->bp_pkts += work;
	if (work == 0) {
		int64_t next = nic_rx_next_ready(s, n);

		if (next > deadline)
			next = deadline;
		if (next > end)
			end = next;
	}
	return end > now ? end - now : 1;
}

/* busy_poll_stop() (net/core/dev.c): give the NAPI back; returns the time
 * it took.  The last poll ends it three ways: less than the budget, and the
 * driver completed (napi_complete_done); the full budget with the timer
 * armed (skip_schedule), and __busy_poll_stop() clears SCHED so that the
 * watchdog takes over; the full budget without, and __busy_poll_stop()
 * calls __napi_schedule() - SCHED is still the busy poller's, so the NAPI
 * goes on the poll list as it is (napi_schedule_prep() here would only set
 * MISSED and leave it on no list with its IRQ masked). */
static int64_t bp_stop(struct sim *s, struct sock *k, struct cpu *c)
{
	struct nic *n = &s->nic[k->bp_napi];
	int64_t now = s->eng.now, end, timer_ns;
	uint32_t work;

	k->bp_active = false;
	if (!k->bp_owned)
		return 0;
	k->bp_owned = false;
	timer_ns = napi_busy_poll_stop(&n->napi, s->scn->apps.prefer_busy_poll);
	if (timer_ns > 0)
		kern_napi_timer_start(s, n, timer_ns);
	end = kern_nic_poll(s, c, n, now, bp_budget(s), &work);
	if (work < bp_budget(s))
		kern_napi_settle(s, c, n, work);
	else if (timer_ns > 0)
		napi_busy_poll_release(&n->napi);
	else
		kern_napi_reschedule(s, c, n);
	return end - now;
}

/* SO_BUSY_POLL, SO_PREFER_BUSY_POLL and IRQ suspension drive a Linux NAPI
 * instance.  Under rxpath = bsd-poll there is none to drive: polling(4)
 * owns the device and keeps its interrupt off, so the reader just sleeps
 * in recvmsg() (busy polling there would re-arm the interrupt through
 * napi_complete_done()). */
static bool busy_polling(const struct sim *s)
{
	return (s->scn->apps.busy_poll_ns > 0 || s->scn->apps.prefer_busy_poll) &&
	       s->scn->host.rxpath != RXPATH_BSD_POLL;
}

static bool suspending(const struct sim *s, const struct sock *k)
{
	return s->scn->apps.prefer_busy_poll && s->scn->host.rxpath != RXPATH_BSD_POLL &&
	       s->nic[k->napi].napi_cfg->irq_suspend_timeout_ns > 0;
}

/* ---- the reader thread ---- */

static void run(struct sim *s, struct sock *k, struct cpu *c, enum thread_chunk what,
		int64_t dur, enum sink_next next)
{
	k->next = (uint8_t)next;
	cpu_run(s, c, LVL_THREAD, (uint8_t)what, dur);
	kern_local_bh_enable(s, c);
}

/* Sleep in recvmsg() / epoll_wait(); a finite epoll-timeout arms its
 * wake-up. */
static void sleep_now(struct sim *s, struct sock *k, struct cpu *c)
{
	int64_t tmo = s->scn->apps.epoll_timeout_ns;

	k->waiting = true;
	k->wait_gen++;
	if (epoll_server(s) && tmo >= 0)
		sim_at(s, s->eng.now + tmo, EV_EPOLL_TIMEOUT, s->thr[c->cur].nic, k->wait_gen);
	sched_sleep(s, c);
}

/* Data is queued: leave the busy loop, tell epoll's suspend logic, receive. */
static void on_data(struct sim *s, struct sock *k, struct cpu *c)
{
	int64_t dur = k->bp_active ? bp_stop(s, k, c) : 0;

	if (suspending(s, k)) {
		k->suspends++;
		kern_napi_timer_start(s, &s->nic[k->napi],
				      s->nic[k->napi].napi_cfg->irq_suspend_timeout_ns);
	}
	dur += receive_batch(s, k, &s->thr[c->cur], s->eng.now + dur);
	run(s, k, c, TCH_SYS, dur, NEXT_WORK);
}

/* The socket is empty: busy-poll, or leave the busy loop and sleep. */
static void on_empty(struct sim *s, struct sock *k, struct cpu *c)
{
	int64_t deadline, dur;

	/* ep_busy_loop() needs a valid ep->napi_id (sk_busy_loop() always has
	 * the socket's). */
	if (!busy_polling(s) || (epoll_server(s) && !k->bp_active && !k->ep_napi_ok)) {
		sleep_now(s, k, c);
		return;
	}
	if (!k->bp_active) {
		/* sk_busy_loop() reads sk_napi_id once: the loop keeps that
		 * NAPI even when the next datagram comes from another port. */
		k->bp_active = true;
		k->bp_napi = k->napi;
		k->bp_start = s->eng.now;
		run(s, k, c, TCH_SYS, bp_turn(s, k, c, k->bp_start + s->scn->apps.busy_poll_ns),
		    NEXT_LOOP);
		return;
	}
	deadline = k->bp_start + s->scn->apps.busy_poll_ns;
	if (s->eng.now < deadline) {
		run(s, k, c, TCH_SYS, bp_turn(s, k, c, deadline), NEXT_LOOP);
		return;
	}
	dur = bp_stop(s, k, c);
	if (k->q.count) {
		/* the last poll queued frames: ep_busy_loop() sees events and
		 * returns true, keeping ep->napi_id and the IRQs suspended */
		run(s, k, c, TCH_SYS, dur > 0 ? dur : 1, NEXT_LOOP);
		return;
	}
	k->ep_napi_ok = false; /* "ep->napi_id = 0" until a frame is queued */
	if (suspending(s, k)) {
		k->resumes++;
		kern_napi_schedule(s, c, &s->nic[k->bp_napi]);
	}
	run(s, k, c, TCH_SYS, dur > 0 ? dur : 1, NEXT_SLEEP);
}

static void sink_run(struct sim *s, struct sock *k, struct cpu *c)
{
	if (sched_need_resched(s, c)) {
		sched_pick(s, c);
		return;
	}
	if (k->q.count)
		on_data(s, k, c);
	else
		on_empty(s, k, c);
}

static void sink_chunk_done(struct sim *s, struct cpu *c)
{
	struct thread *t = &s->thr[c->cur];
	struct sock *k = sock_of(s, t);

	switch ((enum sink_next)k->next) {
	case NEXT_WORK:
		if (t->user_ns > 0) {
			int64_t w = t->user_ns;

			t->user_ns = 0;
			run(s, k, c, TCH_RUN, w, NEXT_REPLY);
			return;
		}
		/* fall through */
	case NEXT_REPLY:
		if (k->held.count) {
			run(s, k, c, TCH_SYS, send_replies(s, k, s->eng.now), NEXT_LOOP);
			return;
		}
		break;
	case NEXT_SLEEP:
		if (k->q.count == 0) {
			sleep_now(s, k, c);
			return;
		}
		break;
	case NEXT_TIMED_OUT:
		/* epoll_wait() returned 0; the server calls it again */
		run(s, k, c, TCH_SYS, s->prof->syscall_ns, NEXT_LOOP);
		return;
	case NEXT_LOOP:
		break;
	}
	sink_run(s, k, c);
}

/* Between chunks the reader continues where it left off (its sock.next). */
static const struct thread_ops sink_ops = {
	.start = sink_chunk_done, .chunk_done = sink_chunk_done, .run_acct = ACCT_USER,
	.resume_left = true,
};

/* Create reader @i on @cpu, asleep in recvmsg() / epoll_wait(); @roam:
 * without CPU affinity (server-cpus = all). */
static int add_reader(struct sim *s, uint16_t i, uint16_t cpu, const char *name, bool roam)
{
	struct sock *k = &s->sock.w[i];
	int id = sched_add_thread(s, &sink_ops, THR_SINK, cpu, name);

	if (id < 0)
		return -1;
	k->reader = (int16_t)id;
	s->thr[id].rt_prio = (uint8_t)s->scn->apps.sink_prio;
	s->thr[id].nic = i; /* THR_SINK: the worker it is */
	s->thr[id].roam = roam;
	s->n_roam = (uint16_t)(s->n_roam + roam);
	k->waiting = true;
	return 0;
}

int sink_init(struct sim *s)
{
	const struct scn_apps *a = &s->scn->apps;
	char name[48];

	if (!a->sink)
		return 0;
	if (a->server != SERVER_EPOLL)
		return add_reader(s, 0, (uint16_t)a->sink_cpu, "udp-sink", false);
	for (uint16_t i = 0; i < s->sock.n; i++) {
		snprintf(name, sizeof(name), "epoll-worker/%u", i);
		if (add_reader(s, i, a->server_cpu[i], name, server_keys_roam(a)))
			return -1;
	}
	return 0;
}

void sink_epoll_timeout(struct sim *s, uint16_t w, uint32_t gen)
{
	struct sock *k = &s->sock.w[w];

	if (!k->waiting || k->wait_gen != gen)
		return; /* data woke it first */
	k->waiting = false;
	k->timeouts++;
	k->next = NEXT_TIMED_OUT;
	sched_wake(s, &s->thr[k->reader]);
}
