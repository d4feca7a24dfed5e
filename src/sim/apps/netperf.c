/* netperf.c - `netperf -t TCP_STREAM -H localhost`: connections that keep
 * CPUs busy with system-call and loopback work (seed 004, test 2).
 *
 * Each connection is a netperf process that sends and the netserver child
 * that receives.  What one send() does, in the sender's context:
 *
 *   netperf-work   user time around the call (netperf's loop)
 *   syscall entry  then, per segment of at most netperf-mss bytes that the
 *                  window allows: copy from user (copy-per-byte), TCP/IP
 *                  output (local-deliver), loopback_xmit() -> netif_rx()
 *                  onto this CPU's backlog (netif-rx), and local_bh_enable()
 *                  at the end of dev_queue_xmit(), which runs NET_RX here
 *                  unless ksoftirqd has it
 *   softirq        process_backlog(): tcp_v4_rcv (local-deliver) queues the
 *                  bytes on netserver's socket and wakes it if it sleeps
 *   window full    send() sleeps in sk_stream_wait_memory() until an ACK
 *
 * and one recv() in netserver's context: syscall entry; if nothing is
 * queued it sleeps; else it copies out up to netperf-recv-size bytes,
 * sends the window update (an ACK, local-deliver + netif-rx, processed by
 * the softirq of the receiver's CPU, which wakes a sender waiting for
 * room), returns, and spends netperf-work in user space.
 *
 * The window is on bytes sent and not yet read (the receive window of a
 * loopback connection whose buffers are always free otherwise).  A frame
 * dropped at a full backlog is counted and then treated as delivered at
 * once: TCP's retransmission is not modelled.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sim/sim.h"

static void np_queue(struct sim *s, struct cpu *c, uint16_t conn, uint8_t kind, uint32_t len)
{
	struct pkt p = { .t_arr = s->eng.now, .t_evt = s->eng.now, .len = len, .in_nic = conn,
			 .reply = kind, .cpu = (uint8_t)c->id };

	s->np.queued++;
	kern_netif_rx(s, c, &p);
}

/* Bytes the window lets the sender put out now (0: it must wait). */
static uint32_t np_room(const struct sim *s, const struct np_conn *k)
{
	uint32_t win = s->scn->apps.netperf_window;

	return k->unacked < win ? win - k->unacked : 0;
}

static void sender_step(struct sim *s, struct cpu *c, struct np_conn *k, uint16_t id)
{
	const struct profile *pr = s->prof;
	const struct scn_apps *a = &s->scn->apps;
	uint32_t seg;

	switch ((enum np_snd_step)k->snd_step) {
	case NS_BEGIN:
		k->snd_step = NS_ENTER;
		thread_chunk(s, c, TCH_RUN, a->netperf_work_ns);
		return;
	case NS_ENTER:
		k->snd_left = a->netperf_send;
		k->snd_step = NS_SEGMENT;
		thread_chunk(s, c, TCH_SYS, pr->syscall_ns / 2);
		return;
	case NS_SEGMENT:
		seg = np_room(s, k);
		if (seg == 0) {
			k->snd_wait = true;
			sched_sleep(s, c);
			return;
		}
		seg = seg < a->netperf_mss ? seg : a->netperf_mss;
		k->snd_seg = seg < k->snd_left ? seg : k->snd_left;
		k->unacked += k->snd_seg;
		k->snd_step = NS_XMIT;
		thread_chunk(s, c, TCH_SYS, profile_copy_ns(pr, k->snd_seg) + pr->local_deliver_ns);
		return;
	case NS_XMIT:
		k->sent += k->snd_seg;
		np_queue(s, c, id, PKT_NP_DATA, k->snd_seg);
		k->snd_left -= k->snd_seg;
		k->snd_step = NS_AFTER;
		thread_chunk(s, c, TCH_SYS, pr->netif_rx_ns);
		kern_local_bh_enable(s, c);
		return;
	case NS_AFTER:
		if (k->snd_left) {
			k->snd_step = NS_SEGMENT;
			sender_step(s, c, k, id);
			return;
		}
		k->snd_step = NS_BEGIN;
		thread_chunk(s, c, TCH_SYS, pr->syscall_ns - pr->syscall_ns / 2);
		return;
	default:
		sim_fail(s, "netperf sender in an unknown step", k->snd_step, id);
	}
}

static void receiver_step(struct sim *s, struct cpu *c, struct np_conn *k, uint16_t id)
{
	const struct profile *pr = s->prof;
	const struct scn_apps *a = &s->scn->apps;

	switch ((enum np_rcv_step)k->rcv_step) {
	case NR_BEGIN:
		k->rcv_step = NR_CHECK;
		thread_chunk(s, c, TCH_SYS, pr->syscall_ns / 2);
		return;
	case NR_CHECK:
		if (k->unread == 0) {
			k->rcv_wait = true;
			sched_sleep(s, c);
			return;
		}
		k->reading = k->unread < a->netperf_recv ? k->unread : a->netperf_recv;
		k->unread -= k->reading;
		k->rcv_step = NR_READ;
		thread_chunk(s, c, TCH_SYS, profile_copy_ns(pr, k->reading));
		return;
	case NR_READ:
		k->bytes += k->reading;
		k->rcv_step = NR_ACK;
		thread_chunk(s, c, TCH_SYS, pr->local_deliver_ns);
		return;
	case NR_ACK:
		np_queue(s, c, id, PKT_NP_ACK, k->reading);
		k->rcv_step = NR_USER;
		thread_chunk(s, c, TCH_SYS, pr->netif_rx_ns + pr->syscall_ns - pr->syscall_ns / 2);
		kern_local_bh_enable(s, c);
		return;
	case NR_USER:
		k->rcv_step = NR_BEGIN;
		thread_chunk(s, c, TCH_RUN, a->netperf_work_ns);
		return;
	default:
		sim_fail(s, "netserver in an unknown step", k->rcv_step, id);
	}
}

static void netperf_run(struct sim *s, struct cpu *c)
{
	const struct thread *t;

	if (sched_need_resched(s, c)) {
		sched_pick(s, c);
		return;
	}
	t = &s->thr[c->cur];
	sender_step(s, c, &s->np.c[t->nic], t->nic);
}

static void netserver_run(struct sim *s, struct cpu *c)
{
	const struct thread *t;

	if (sched_need_resched(s, c)) {
		sched_pick(s, c);
		return;
	}
	t = &s->thr[c->cur];
	receiver_step(s, c, &s->np.c[t->nic], t->nic);
}

/* The effect of frame @p arriving at its socket. */
static void np_arrive(struct sim *s, const struct pkt *p)
{
	struct np_conn *k = &s->np.c[p->in_nic];

	if (p->reply == PKT_NP_DATA) {
		k->unread += p->len;
		if (k->rcv_wait) {
			k->rcv_wait = false;
			sched_wake(s, &s->thr[k->rcv]);
		}
		return;
	}
	k->unacked -= p->len;
	k->acked += p->len;
	if (k->snd_wait) {
		k->snd_wait = false;
		sched_wake(s, &s->thr[k->snd]);
	}
}

/* The stack handles loopback frame @p (PKT_NP_DATA or _ACK) on @c at @t, in
 * process_backlog; returns the time after. */
static int64_t netperf_input(struct sim *s, struct cpu *c, struct pkt *p, int64_t t)
{
	(void)c;
	s->np.queued--;
	np_arrive(s, p);
	return t + s->prof->local_deliver_ns;
}

/* A netperf frame was dropped at a full backlog. */
static void netperf_drop(struct sim *s, const struct pkt *p)
{
	s->np.queued--;
	s->np.drops++;
	np_arrive(s, p);
}

static const struct proto_ops netperf_proto = { .input = netperf_input, .drop = netperf_drop };

/* Each step of sender and receiver is a chunk; between chunks they
 * continue where they left off (snd_step / rcv_step). */
static const struct thread_ops netperf_ops = {
	.start = netperf_run, .chunk_done = netperf_run, .run_acct = ACCT_USER,
	.resume_left = true,
};

static const struct thread_ops netserver_ops = {
	.start = netserver_run, .chunk_done = netserver_run, .run_acct = ACCT_USER,
	.resume_left = true,
};

static int16_t np_thread(struct sim *s, const struct thread_ops *ops, enum thread_kind kind,
			 uint32_t conn, uint32_t cpu, const char *name)
{
	char full[48];
	struct thread *t;

	snprintf(full, sizeof(full), "%s/%u", name, conn);
	t = &s->thr[sched_add_thread(s, ops, kind, (uint16_t)cpu, full)];
	t->nic = (uint16_t)conn;
	t->roam = true; /* netperf sets no affinity */
	s->n_roam++;
	t->runnable = kind == THR_NETPERF; /* netserver starts asleep in recv() */
	return (int16_t)(t - s->thr);
}

int netperf_init(struct sim *s)
{
	uint32_t n = s->scn->apps.netperf;

	s->np.n = n;
	if (!n)
		return 0;
	s->proto[PKT_NP_DATA] = s->proto[PKT_NP_ACK] = &netperf_proto;
	s->np.c = calloc(n, sizeof(*s->np.c));
	if (!s->np.c)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		struct np_conn *k = &s->np.c[i];

		k->snd = np_thread(s, &netperf_ops, THR_NETPERF, i, (2 * i) % s->n_cpus, "netperf");
		k->rcv = np_thread(s, &netserver_ops, THR_NETSERVER, i, (2 * i + 1) % s->n_cpus,
				   "netserver");
		k->rcv_wait = true;
	}
	return 0;
}

uint64_t netperf_bytes(const struct sim *s)
{
	uint64_t b = 0;

	for (uint32_t i = 0; i < s->np.n; i++)
		b += s->np.c[i].bytes;
	return b;
}

void netperf_free(struct sim *s)
{
	free(s->np.c);
	s->np.c = NULL;
}
