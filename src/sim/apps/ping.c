/* ping.c - `ping -f 127.0.0.1`: a thread that measures how long the host
 * takes to turn an ICMP echo around over loopback (seed 004).
 *
 * One echo is outstanding at a time, as with ping -f on an idle loopback
 * (it sends the next request when the reply is in).  Each round:
 *
 *   ping-work      user time: bookkeeping and the flood's '.' and '\b' to the
 *                  terminal (iputils prints one per request and reply)
 *   sendmsg()      syscall entry, ICMP/IP output (local-deliver), then
 *                  loopback_xmit() queues the request on this CPU's backlog
 *                  (netif_rx) and raises NET_RX; local_bh_enable() on the
 *                  way out runs the softirq, in ping's context, unless
 *                  ksoftirqd has it
 *   softirq        process_backlog(): icmp_echo() answers (local-deliver),
 *                  the reply goes through netif_rx() again - its timestamp,
 *                  SO_TIMESTAMP, is what ping reads as the arrival time -
 *                  and is queued on ping's raw socket (local-deliver).
 *                  The chunk's frames get their times when it begins; a
 *                  hard IRQ that preempts it before the stamp delays the
 *                  stamp by its own time (ping_irq_preempt), as
 *                  do_gettimeofday() in 2.6.12's netif_rx() would read
 *                  the clock after the handler ran
 *   recvmsg()      syscall; if the reply is not there yet, ping sleeps until
 *                  the stack queues it
 *
 * RTT is reply timestamp - time before sendmsg(), as ping computes it.
 * Whatever competes for the CPU - interrupts, NAPI polls of a flood in the
 * same softirq run, ksoftirqd - stretches the round, and the time between
 * requests (ipg) grows while the RTT itself hardly does: the flood takes
 * the CPU between rounds, not inside them, except when the softirq is left
 * to ksoftirqd, which is when an RTT becomes milliseconds.
 *
 * A request or reply dropped at a full backlog ends the ping (ping -f would
 * send the next one after 10 ms; not modelled); it is counted as lost.
 */
#include <math.h>

#include "sim/sim.h"

/* What to do when the running chunk of the ping thread ends. */
enum ping_step {
	PS_BEGIN = 0, /* start a round: ping-work */
	PS_WORKED,    /* ping-work done: sendmsg() up to netif_rx */
	PS_XMIT,      /* queue the request, then the rest of sendmsg() */
	PS_SENT,      /* sendmsg() returned: recvmsg() */
	PS_READ,      /* recvmsg() returned the reply: account it */
};

/* Ethernet + IP + ICMP headers around the payload (the loopback device
 * carries an Ethernet header). */
static uint32_t ping_frame_len(const struct sim *s)
{
	return s->scn->apps.ping_size + 8 + 20 + 14;
}

static void ping_arm(struct sim *s, struct cpu *c, enum thread_chunk what, int64_t dur,
		     enum ping_step next)
{
	s->ping.step = (uint8_t)next;
	thread_chunk(s, c, what, dur);
}

/* iputils: rtt += triptime - rtt/8 (rtt is 8 x the estimate). */
static void ping_account(struct ping *p, int64_t rtt)
{
	p->received++;
	p->rtt_sum += (double)rtt;
	p->rtt_sum2 += (double)rtt * (double)rtt;
	if (rtt < p->rtt_min)
		p->rtt_min = rtt;
	if (rtt > p->rtt_max)
		p->rtt_max = rtt;
	p->ewma8 = p->ewma8 ? p->ewma8 + rtt - p->ewma8 / 8 : rtt * 8;
}

/* Queue the echo request on this CPU's backlog, as loopback_xmit() does. */
static void ping_xmit(struct sim *s, struct cpu *c)
{
	struct pkt req = { .t_arr = s->eng.now, .t_evt = s->eng.now, .len = ping_frame_len(s),
			   .reply = PKT_PING_REQ, .cpu = (uint8_t)c->id };

	s->ping.queued++;
	kern_netif_rx(s, c, &req);
}

static void ping_step_now(struct sim *s, struct cpu *c)
{
	struct ping *p = &s->ping;
	const struct profile *pr = s->prof;

	switch ((enum ping_step)p->step) {
	case PS_BEGIN:
		if (p->done || p->lost) {
			sched_sleep(s, c);
			return;
		}
		ping_arm(s, c, TCH_RUN, s->scn->apps.ping_work_ns, PS_WORKED);
		return;
	case PS_WORKED:
		p->t_send = s->eng.now;
		if (p->sent++ == 0)
			p->t_first = s->eng.now;
		ping_arm(s, c, TCH_SYS, pr->syscall_ns / 2 + pr->local_deliver_ns, PS_XMIT);
		return;
	case PS_XMIT:
		ping_xmit(s, c);
		ping_arm(s, c, TCH_SYS, pr->syscall_ns - pr->syscall_ns / 2, PS_SENT);
		kern_local_bh_enable(s, c);
		return;
	case PS_SENT:
		if (!p->ready) {
			p->waiting = true;
			sched_sleep(s, c);
			return;
		}
		ping_arm(s, c, TCH_SYS, pr->syscall_ns, PS_READ);
		return;
	case PS_READ:
		p->ready--;
		ping_account(p, p->t_reply - p->t_send);
		p->t_last = s->eng.now;
		p->done = p->received >= s->scn->apps.ping_count;
		p->step = PS_BEGIN;
		ping_step_now(s, c);
		return;
	}
}

static void ping_run(struct sim *s, struct cpu *c)
{
	if (sched_need_resched(s, c)) {
		sched_pick(s, c);
		return;
	}
	ping_step_now(s, c);
}

/* The stack handles loopback frame @p (an echo request or reply) on @c at
 * @t, in process_backlog; returns the time after. */
static int64_t ping_input(struct sim *s, struct cpu *c, struct pkt *p, int64_t t)
{
	struct ping *pg = &s->ping;

	pg->queued--;
	t += s->prof->local_deliver_ns;
	if (p->reply == PKT_PING_REQ) {
		/* icmp_echo(): the reply leaves through loopback_xmit() */
		t += s->prof->local_deliver_ns;
		p->reply = PKT_PING_REPLY;
		p->t_arr = t;
		pg->echoed++;
		pg->queued++;
		kern_netif_rx(s, c, p);
		return t;
	}
	pg->ready++;
	pg->t_reply = p->t_arr;
	pg->stamp_cpu = c->id;
	if (pg->waiting) {
		pg->waiting = false;
		sched_wake(s, &s->thr[pg->thread]);
	}
	return t;
}

void ping_irq_preempt(struct sim *s, const struct cpu *c, int64_t t0, int64_t dur_ns)
{
	struct ping *pg = &s->ping;

	/* Between the chunk's start and the stamp, the CPU runs that chunk
	 * or the hard IRQs that preempt it (nothing else preempts a softirq),
	 * so every handler that begins before the stamp delays it. */
	if (pg->ready && pg->stamp_cpu == c->id && t0 < pg->t_reply)
		pg->t_reply += dur_ns;
}

/* A loopback frame of the ping was dropped at a full backlog. */
static void ping_drop(struct sim *s, const struct pkt *p)
{
	(void)p;
	s->ping.queued--;
	s->ping.lost++;
}

static const struct proto_ops ping_proto = { .input = ping_input, .drop = ping_drop };

/* Between chunks ping continues where it left off (s->ping.step). */
static const struct thread_ops ping_ops = {
	.start = ping_run, .chunk_done = ping_run, .run_acct = ACCT_USER, .resume_left = true,
};

int ping_init(struct sim *s)
{
	s->ping.thread = -1;
	s->ping.rtt_min = INT64_MAX;
	if (!s->scn->apps.ping)
		return 0;
	s->ping.thread = (int16_t)sched_add_thread(s, &ping_ops, THR_PING,
						   (uint16_t)s->scn->apps.ping_cpu, "ping");
	s->thr[s->ping.thread].runnable = true;
	s->proto[PKT_PING_REQ] = s->proto[PKT_PING_REPLY] = &ping_proto;
	return 0;
}
