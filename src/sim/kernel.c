/* kernel.c - the Linux receive path on the simulated CPUs.
 *
 * Three paths, [host] rxpath:
 *   classic   the ISR acknowledges the cause register, moves every ready
 *             frame to the per-CPU backlog (netif_rx: netdev_max_backlog,
 *             drops counted in softnet_stat column 2 and RX-DRP), cleans
 *             TX, and re-enables the interrupt.  NET_RX then forwards from
 *             the backlog (process_backlog, quota dev_weight).  Under
 *             overload the ISR eats the CPU: receive livelock (Mogul &
 *             Ramakrishnan 1996).
 *   isr-while classic, but the ISR loops while the cause register shows new
 *             completions (stock FreeBSD dc_intr).
 *   isr-loop  isr-while plus the patch of shared/seeds/000_if_dc.diff: when
 *             the loop ends after doing work, read the register once more.
 *   napi      the ISR acknowledges, leaves the line masked and schedules the
 *             NAPI; net_rx_action polls it with weight 64 inside
 *             netdev_budget / netdev_budget_usecs, round-robin, and
 *             napi_complete_done() decides when the IRQ is re-enabled.
 *
 * Softirq processing follows handle_softirqs(): passes of net_rx_action,
 * restarted while NET_RX is raised again, at most 10 passes or 2 ms or
 * until need_resched(), then ksoftirqd/N takes over as a normal thread.
 * [host] rxcore = 2.6 gives 2.6.12's instead (poll_next, poll_requeue):
 * one poll list, a device that stays moves to its tail within the pass,
 * and __do_softirq() stops after 10 passes only.  A driver's poll-exit
 * rule (src/core/poll_rules.c) decides whether a poll below its weight
 * stays listed.
 * Softirqs run inline at irq_exit unless the CPU is already in one.
 */
#include <string.h>

#include "sim/gro_rx.h"
#include "sim/policy.h"
#include "sim/sim.h"
#include "sim/tracepoint.h"

/* ---- poll lists ---- */

/* host.rxcore = 2.6: net_rx_action() and __do_softirq() of Linux 2.6.12. */
static bool rxcore_26(const struct sim *s)
{
	return s->scn->host.rxcore == RXCORE_26;
}

static void list_add(struct napi_list *l, uint16_t id)
{
	l->id[l->n++] = id;
}

/* The lists hold one or two NAPIs nearly always: a loop, not a call to
 * memmove() / memcpy(), which cost more than the copy (2% of the
 * netperf seed). */
static uint16_t list_pop(struct napi_list *l)
{
	uint16_t id = l->id[0];

	for (uint16_t i = 1; i < l->n; i++)
		l->id[i - 1] = l->id[i];
	l->n--;
	return id;
}

static void list_splice(struct napi_list *dst, struct napi_list *src)
{
	for (uint16_t i = 0; i < src->n; i++)
		dst->id[dst->n + i] = src->id[i];
	dst->n = (uint16_t)(dst->n + src->n);
	src->n = 0;
}

static void raise_net_rx(struct cpu *c, uint16_t id)
{
	list_add(&c->poll_list, id);
	c->net_rx_pending = true;
}

/* A NIC's NAPI was just scheduled (SCHED set by its caller): hand it to its
 * kthread when threaded (____napi_schedule sets SCHED_THREADED and wakes
 * it), else put it on this CPU's poll list and raise NET_RX. */
static void napi_kick(struct sim *s, struct cpu *c, struct nic *n)
{
	if (napi_schedule_threaded(&n->napi)) {
		sched_wake(s, &s->thr[n->napi_thread]);
		return;
	}
	raise_net_rx(c, n->id);
}

/* The driver re-enables @n's interrupt (napi_complete_done said so, or a
 * classic ISR is done): adaptive controllers sample first, as drivers call
 * net_dim() / e1000_set_itr() right before unmasking. */
static void driver_rearm(struct sim *s, struct nic *n)
{
	adapt_on_rearm(s, n);
	nic_unmask(s, n, s->eng.now);
}

/* Arm the NAPI hrtimer @rel_ns from now (napi_complete_done's decision). */
static void napi_timer_arm(struct sim *s, struct nic *n, int64_t rel_ns)
{
	n->timers_armed++;
	n->timers_cancelled += n->timer_armed; /* hrtimer_start() restarts an armed timer */
	n->timer_armed = true;
	n->timer_at = s->eng.now + rel_ns;
	n->timer_gen++;
	sim_at(s, s->eng.now + rel_ns, EV_NAPI_TIMER, n->id, n->timer_gen);
}

void kern_napi_timer_start(struct sim *s, struct nic *n, int64_t rel_ns)
{
	napi_timer_arm(s, n, rel_ns);
}

/* Where a NAPI that napi_complete_done() kept (MISSED: SCHED still held,
 * d.reschedule) gets its next poll.  It depends on who polled it: */
enum napi_resched {
	RESCHED_KICK,      /* process context (busy_poll_stop): napi_kick(), its
	                    * kthread when threaded, else this CPU's poll list */
	RESCHED_POLL_LIST, /* net_rx_action: back on this CPU's poll list under
	                    * its list id (a NIC or NAPI_BACKLOG), NET_RX raised */
	RESCHED_NONE,      /* its kthread: napi_threaded_poll() polls again while
	                    * SCHED is held, so nothing is to be done (a kick
	                    * would set SCHED_THREADED again) */
};

/* Apply decision @d of napi_complete_done() for the NAPI of port @dev, list
 * id @id, polled on @c: unmask, arm the timer, reschedule (@how), in that
 * order.  @dev is NULL for the backlog pseudo-NAPI, which has no IRQ and
 * no deferral. */
static void napi_apply_done(struct sim *s, struct cpu *c, struct nic *dev, uint16_t id,
			    struct napi_done d, enum napi_resched how)
{
	if (d.rearm_irq && dev)
		driver_rearm(s, dev);
	if (d.timer_ns > 0 && dev)
		napi_timer_arm(s, dev, d.timer_ns);
	if (!d.reschedule)
		return;
	if (how == RESCHED_KICK)
		napi_kick(s, c, dev);
	else if (how == RESCHED_POLL_LIST)
		raise_net_rx(c, id);
}

void kern_napi_settle(struct sim *s, struct cpu *c, struct nic *n, uint32_t work)
{
	napi_apply_done(s, c, n, n->id, napi_complete_done(&n->napi, work, gro_rx_pending(n)),
			RESCHED_KICK);
}

void kern_napi_schedule(struct sim *s, struct cpu *c, struct nic *n)
{
	if (napi_schedule_prep(&n->napi))
		napi_kick(s, c, n);
}

/* net/core/dev.c __busy_poll_stop(napi, false): "gro_normal_list(...);
 * __napi_schedule(napi);" with SCHED still set by napi_busy_loop(). */
void kern_napi_reschedule(struct sim *s, struct cpu *c, struct nic *n)
{
	napi_kick(s, c, n);
}

void kern_local_bh_enable(struct sim *s, struct cpu *c)
{
	if (!c->net_rx_pending || c->lvl[LVL_SOFTIRQ].active || cpu_top(c) != LVL_THREAD)
		return;
	cpu_push(s, c, LVL_SOFTIRQ);
	c->si_in_thread = false;
	kern_softirq_begin(s, c);
}

/* ---- per-packet work ---- */

/* @c cleans transmitted descriptors of @n at @t; returns the time after. */
static int64_t tx_clean(struct sim *s, struct cpu *c, struct nic *n, int64_t t)
{
	uint32_t remote, k = nic_tx_clean(s, c, n, t, &remote);

	return t + k * s->prof->tx_clean_pkt_ns + remote * s->prof->remote_free_ns;
}

/* The TX clean a classic ISR does: none with tx-clean = xmit ("the Tx ring
 * is not cleaned at interrupt time", seed 002). */
static int64_t irq_tx_clean(struct sim *s, struct cpu *c, struct nic *n, int64_t t)
{
	return nic_tx_irqs(n) ? tx_clean(s, c, n, t) : t;
}

/* The TX clean a NAPI poll does: only with tx-clean = irq (hardirq cleans
 * in the ISR: "TX is mitigated (not polled)", seed 001). */
static int64_t poll_tx_clean(struct sim *s, struct cpu *c, struct nic *n, int64_t t)
{
	return n->cfg->tx_clean == TX_CLEAN_IRQ ? tx_clean(s, c, n, t) : t;
}

/* tx-clean = xmit: the driver cleans its TX ring when it transmits, once
 * fewer than tx-clean-thresh descriptors are free (always when 0). */
static int64_t xmit_clean(struct sim *s, struct cpu *c, struct nic *n, int64_t t)
{
	uint32_t thresh = n->cfg->tx_clean_thresh;

	if (n->cfg->tx_clean != TX_CLEAN_XMIT)
		return t;
	if (thresh && n->cfg->tx_ring - n->txr.count >= thresh)
		return t;
	return tx_clean(s, c, n, t);
}

/* TCP's delayed ACK: one ACK frame out of the port for every ack-every
 * frames delivered from it (tcp_ack_snd_check from the receive path).
 * @p is the last of @segs frames the stack took at once (a GRO skb of
 * @segs segments): they count as @segs, and one ACK covers them all, as
 * __tcp_ack_snd_check() sends one ACK when more than one full segment is
 * unacknowledged.  Returns the time after sending it. */
static int64_t send_ack(struct sim *s, struct cpu *c, struct nic *n, const struct pkt *p,
			uint32_t segs, int64_t t)
{
	struct pkt ack = { .t_arr = p->t_arr, .len = s->scn->apps.ack_bytes, .in_nic = n->id,
			   .reply = PKT_ACK };

	if (!s->scn->apps.ack_every)
		return t;
	n->ack_count += segs;
	if (n->ack_count < s->scn->apps.ack_every)
		return t;
	n->ack_count = 0;
	n->c.acks_gen++;
	t += s->prof->fwd_pkt_ns;
	t = xmit_clean(s, c, n, t);
	nic_xmit(s, n, &ack, t);
	return t;
}

/* The stack takes frame @p at @t: forward it or deliver it.  Returns the
 * time when the CPU is done with it. */
static int64_t deliver(struct sim *s, struct cpu *c, struct pkt *p, int64_t t)
{
	int64_t locked = s->prof->xmit_locked_ns, at;
	struct nic *in, *out;

	trace_netif_receive_skb(s, c, p, s->proto[p->reply] ? p->len : tp_skb_len(p->len), t);
	if (s->proto[p->reply])
		return s->proto[p->reply]->input(s, c, p, t);
	in = &s->nic[p->in_nic];

	if (in->out < 0) {
		t += s->prof->local_deliver_ns;
		if (s->scn->apps.sink)
			sock_enqueue(s, p, t);
		else
			in->c.delivered++;
		return send_ack(s, c, in, p, 1, t);
	}
	out = &s->nic[in->out];
	t += s->prof->fwd_pkt_ns - locked + profile_copy_ns(s->prof, p->len);
	at = xlock_acquire(s, c, out, t, locked);
	t = xmit_clean(s, c, out, at + locked);
	xlock_release(s, c, out, at, t);
	nic_xmit(s, out, p, t);
	return t;
}

int64_t kern_rx_frame(struct sim *s, struct cpu *c, struct nic *n, struct pkt *p, int64_t t)
{
	return rps_on(s, n) ? rps_steer(s, c, p, t) : deliver(s, c, p, t);
}

int64_t kern_deliver_skb(struct sim *s, struct cpu *c, struct pktq *q, uint32_t segs, int64_t t)
{
	struct pkt p = pktq_pop(q);
	struct nic *in = &s->nic[p.in_nic];

	if (segs == 1)
		return deliver(s, c, &p, t);
	/* one skb: the first frame's headers and @segs payloads (a stream's
	 * segments are all the first one's size) */
	trace_netif_receive_skb(s, c, &p, tp_skb_len(p.len) + (segs - 1) * (p.len - SCN_TCP_OVERHEAD),
				t);
	t += s->prof->local_deliver_ns; /* once for the merged skb */
	for (uint32_t k = 0;; k++) {
		if (s->scn->apps.sink)
			sock_enqueue(s, &p, t);
		else
			in->c.delivered++;
		if (k + 1 == segs)
			break;
		p = pktq_pop(q);
	}
	return send_ack(s, c, in, &p, segs, t);
}

bool kern_netif_rx(struct sim *s, struct cpu *c, struct pkt *p)
{
	if (c->backlog.count >= s->scn->host.netdev_max_backlog) {
		c->sn.dropped++;
		if (s->proto[p->reply]) {
			s->proto[p->reply]->drop(s, p);
			return false;
		}
		s->nic[p->in_nic].c.rx_drp++;
		nic_client_next(s, p, s->eng.now, true);
		skb_free(s, c, p);
		return false;
	}
	pktq_push(&c->backlog, p);
	/* enqueue_to_backlog(): test_and_set SCHED, no MISSED bit; frames that
	 * arrive while process_backlog runs are its business (poll_settle) */
	if (!napi_schedule_backlog(&c->backlog_napi))
		return false;
	raise_net_rx(c, NAPI_BACKLOG);
	return true;
}

/* ---- hard IRQ ---- */

/* One pass of a classic ISR over the RX ring: every ready frame goes to the
 * backlog.  Returns the time after; *work counts frames and TX cleans. */
static int64_t isr_pass(struct sim *s, struct cpu *c, struct nic *n, int64_t t, uint32_t *work)
{
	uint32_t before = n->c.tx_cleaned, taken = 0;

	t = irq_tx_clean(s, c, n, t);
	for (;;) {
		struct pkt p;

		nic_rx_advance(s, n, t);
		if (!nic_rx_ready(n, t))
			break;
		p = nic_rx_take(n);
		t += s->prof->rx_pkt_ns + profile_copy_ns(s->prof, p.len) + s->prof->netif_rx_ns;
		t += skb_alloc(s, c, &p);
		kern_netif_rx(s, c, &p);
		taken++;
	}
	nic_rx_refill(s, n, t, taken);
	*work = (uint32_t)(n->c.tx_cleaned - before) + taken;
	return t;
}

/* The isr-loop ISR is computed in slices of at most this much CPU time, so
 * that counters stay current when the loop does not end (see below). */
#define ISR_SLICE_NS 200000

/* Read the cause register at *t (reg-read), learn whether any completion
 * arrived since the last read, and acknowledge it. */
static bool read_cause(struct sim *s, struct nic *n, int64_t *t)
{
	bool cause;

	*t += s->prof->reg_read_ns;
	nic_rx_advance(s, n, *t);
	nic_tx_advance(s, n, *t);
	cause = n->rx_coal.pending > 0 || (nic_tx_irqs(n) && n->tx_coal.pending > 0);
	nic_ack(s, n, *t);
	return cause;
}

/* ISRs that loop on the cause register, as dc(4) does:
 *   isr-while (stock dc_intr): while (read shows causes) { ack; pass; }
 *   isr-loop (shared/seeds/000_if_dc.diff): the same, and when the loop
 *     ends after doing work, "goto again": one more read.
 * The patch's own comment asks "XXX limit repeats?": neither limits them,
 * so when frames arrive faster than a pass drains them the ISR never
 * returns.  It is computed in slices of ISR_SLICE_NS; n->isr_more says it
 * continues in the next one. */
static int64_t isr_loop(struct sim *s, struct cpu *c, struct nic *n, int64_t t, bool again)
{
	int64_t stop = t + ISR_SLICE_NS;
	uint64_t cnt;
	uint32_t work;
	bool cause;

	for (;;) {
		cnt = 0;
		do {
			t = isr_pass(s, c, n, t, &work);
			cnt += work;
			cause = read_cause(s, n, &t);
		} while (cause && t < stop);
		if (cause || !again || cnt == 0)
			break;
		cause = read_cause(s, n, &t);
		if (!cause || t >= stop)
			break;
	}
	n->isr_more = cause && t >= stop;
	return t;
}

/* The hrtimer interrupt of a NIC's NAPI: napi_watchdog(). */
static int64_t timer_isr(struct sim *s, struct cpu *c, struct nic *n)
{
	for (uint32_t k = 0; k <= n->timer_irqs_merged; k++)
		if (napi_watchdog(&n->napi)) /* counts watchdog_fires and _scheds */
			napi_kick(s, c, n);
	n->timer_irqs_merged = 0;
	return s->prof->hrtimer_irq_ns;
}

/* hardclock(): hardclock_device_poll() schedules the POLL netisr. */
static int64_t tick_isr(struct sim *s, struct cpu *c)
{
	if (bsd_poll_tick(&s->bsd, s->eng.now))
		c->bsd_pending = true;
	return s->prof->irq_entry_ns;
}

void kern_tick(struct sim *s, struct cpu *c)
{
	sim_at(s, s->eng.now + 1000000000 / s->scn->host.hz, EV_TICK, c->id, 0);
	cpu_irq(s, c, IRQ_TICK);
}

static int64_t hardirq_work(struct sim *s, struct cpu *c, uint16_t irq)
{
	struct nic *n = &s->nic[irq & ~IRQ_FLAGS];
	int64_t t0 = s->eng.now, t = t0 + c->exit_ns; /* idle-exit when it was idle */
	uint32_t work;

	c->exit_ns = 0;
	if (irq == IRQ_TICK)
		return t - t0 + tick_isr(s, c);
	if (irq == IRQ_IPI) /* its handler only raised NET_RX: irq_exit runs it */
		return t - t0 + s->prof->irq_entry_ns;
	if (irq & IRQ_TIMER)
		return t - t0 + timer_isr(s, c, n);
	if (n->isr_more)
		return isr_loop(s, c, n, t, s->scn->host.rxpath == RXPATH_ISR_LOOP) - t0;
	t += s->prof->irq_entry_ns + s->prof->isr_ns;
	nic_ack(s, n, t);
	n->cyc_rx_pkts = n->cyc_rx_bytes = n->cyc_tx_pkts = n->cyc_tx_bytes = 0;
	policy_on_irq(s, n);
	switch (s->scn->host.rxpath) {
	case RXPATH_NAPI:
		/* tx-clean = hardirq: the ISR cleans TX and schedules the poll
		 * only for an RX cause (Olsson's e1000 before 011114) */
		if (n->cfg->tx_clean == TX_CLEAN_HARDIRQ) {
			t = tx_clean(s, c, n, t);
			if (!n->icr_rx)
				break;
		}
		if (napi_schedule_prep(&n->napi))
			napi_kick(s, c, n);
		break;
	case RXPATH_CLASSIC:
		t = isr_pass(s, c, n, t, &work);
		break;
	case RXPATH_ISR_WHILE:
	case RXPATH_ISR_LOOP:
		t = isr_loop(s, c, n, t, s->scn->host.rxpath == RXPATH_ISR_LOOP);
		break;
	case RXPATH_BSD_POLL: /* interrupts stay disabled while polling */
		break;
	}
	return t - t0;
}

/* The hard IRQ handler of @irq, as kern_level_ops.isr: its duration.  It
 * preempts whatever runs on @c, and a softirq chunk's frames were handled
 * (their times computed) when the chunk began: a ping reply stamped later
 * in that chunk is stamped later by the handler's time (ping_irq_preempt). */
static int64_t hardirq_start(struct sim *s, struct cpu *c, uint16_t irq)
{
	int64_t d;

	/* a queue vector's handler, once (not again for an isr-loop slice),
	 * after the idle exit */
	if (s->tp && !(irq & IRQ_FLAGS) && !s->nic[irq].isr_more)
		trace_irq_handler_entry(s, c, &s->nic[irq], s->eng.now + c->exit_ns);
	d = hardirq_work(s, c, irq);

	ping_irq_preempt(s, c, s->eng.now, d);
	return d;
}

static void hardirq_done(struct sim *s, struct cpu *c, uint16_t irq)
{
	struct nic *n = &s->nic[irq & ~IRQ_FLAGS];

	if (!(irq & IRQ_FLAGS)) {
		if (n->isr_more) {
			cpu_run(s, c, LVL_HARDIRQ, irq, hardirq_start(s, c, irq));
			return;
		}
		trace_irq_handler_exit(s, c, n, s->eng.now);
		if (s->scn->host.rxpath != RXPATH_NAPI && s->scn->host.rxpath != RXPATH_BSD_POLL)
			driver_rearm(s, n);
		else if (s->scn->host.rxpath == RXPATH_NAPI && n->cfg->tx_clean == TX_CLEAN_HARDIRQ)
			nic_isr_done(s, n, s->eng.now, n->napi.state & NAPI_SCHED);
	}
	if (c->n_irq_q) {
		uint16_t next = c->irq_q[0];

		for (uint16_t i = 1; i < c->n_irq_q; i++)
			c->irq_q[i - 1] = c->irq_q[i];
		c->n_irq_q--;
		cpu_run(s, c, LVL_HARDIRQ, next, hardirq_start(s, c, next));
		return;
	}
	cpu_end(s, c, LVL_HARDIRQ);
	kern_irq_exit(s, c);
}

void kern_napi_timer(struct sim *s, struct nic *n, uint32_t gen)
{
	if (gen != n->timer_gen)
		return; /* restarted since: counted in timers_cancelled */
	n->timer_armed = false;
	n->timers_expired++;
	if (cpu_irq(s, &s->cpu[n->irq_cpu], IRQ_TIMER | n->id))
		n->timer_irqs_merged++;
}

static void bsd_netisr_begin(struct sim *s, struct cpu *c);

void kern_irq_exit(struct sim *s, struct cpu *c)
{
	if (c->bsd_pending && !c->lvl[LVL_SOFTIRQ].active) {
		cpu_push(s, c, LVL_SOFTIRQ);
		c->si_in_thread = false;
		bsd_netisr_begin(s, c);
		return;
	}
	if (c->net_rx_pending && !c->lvl[LVL_SOFTIRQ].active) {
		cpu_push(s, c, LVL_SOFTIRQ);
		c->si_in_thread = false;
		kern_softirq_begin(s, c);
		return;
	}
	cpu_resume(s, c);
}

/* ---- NAPI polls ---- */

/* A driver ->poll(): TX clean, then up to weight RX frames. */
static int64_t nic_poll(struct sim *s, struct cpu *c, struct nic *n, int64_t t, uint32_t limit,
			uint32_t *work)
{
	uint32_t w = 0;

	t = poll_tx_clean(s, c, n, t + s->prof->napi_poll_ns);
	while (w < limit) {
		struct pkt p;

		nic_rx_advance(s, n, t);
		if (!nic_rx_ready(n, t))
			break;
		p = nic_rx_take(n);
		t += s->prof->rx_pkt_ns + profile_copy_ns(s->prof, p.len);
		t += skb_alloc(s, c, &p);
		t = n->gro ? gro_rx_receive(s, c, n, &p, t) : kern_rx_frame(s, c, n, &p, t);
		w++;
	}
	if (n->gro)
		t = gro_rx_poll_end(s, c, n, t, w, limit);
	nic_rx_refill(s, n, t, w);
	n->c.polls++;
	n->c.poll_pkts += w;
	*work = w;
	return t;
}

/* napi_busy_loop()'s poll: traced where it ends ("trace_napi_poll(napi,
 * work, budget)" right after it). */
int64_t kern_nic_poll(struct sim *s, struct cpu *c, struct nic *n, int64_t t, uint32_t limit,
		      uint32_t *work)
{
	t = nic_poll(s, c, n, t, limit, work);
	trace_napi_poll(s, c, n->id, *work, limit, t);
	return t;
}

/* process_backlog(): up to @limit frames from the backlog. */
static int64_t backlog_poll(struct sim *s, struct cpu *c, int64_t t, uint32_t limit,
			    uint32_t *work)
{
	uint32_t w = 0;

	while (w < limit && c->backlog.count) {
		struct pkt p = pktq_pop(&c->backlog);

		t = deliver(s, c, &p, t + s->prof->backlog_pkt_ns);
		w++;
	}
	*work = w;
	return t;
}

static void rx_action_finish(struct sim *s, struct cpu *c)
{
	struct napi_list l = c->local; /* the storage of two lists trades places */

	list_splice(&l, &c->poll_list);
	list_splice(&l, &c->repoll);
	c->local = c->poll_list;
	c->poll_list = l;
	if (c->poll_list.n)
		c->net_rx_pending = true;
	switch (rxcore_26(s) ? softirq_after_pass_26(&c->sr, c->net_rx_pending)
			     : softirq_after_pass(&c->sr, c->net_rx_pending, sched_need_resched(s, c),
						  s->eng.now, s->scn->host.hz)) {
	case SOFTIRQ_RESTART:
		cpu_run(s, c, LVL_SOFTIRQ, SI_ENTRY, s->prof->softirq_entry_ns);
		return;
	case SOFTIRQ_WAKE_KSOFTIRQD:
		c->sn.ksoftirqd_wakes++;
		sched_wake(s, &s->thr[c->ksoftirqd]);
		break;
	case SOFTIRQ_DONE:
		break;
	}
	cpu_end(s, c, LVL_SOFTIRQ);
	cpu_resume(s, c);
}

/* The most frames a poll of a NAPI with @weight may take: its weight, or
 * in 2.6 "min(dev->quota, *budget)" (e100_poll, process_backlog; the quota
 * is the weight again whenever a device moves to the tail).  The budget
 * left is positive here: 2.6 tests it before every poll. */
static uint32_t poll_limit(const struct sim *s, const struct cpu *c, uint32_t weight)
{
	if (rxcore_26(s) && c->nb.budget > 0 && (uint32_t)c->nb.budget < weight)
		return (uint32_t)c->nb.budget;
	return weight;
}

static void poll_start(struct sim *s, struct cpu *c, uint16_t id)
{
	int64_t t = s->eng.now, end;
	uint32_t work, limit;

	if (id == NAPI_BACKLOG) {
		limit = poll_limit(s, c, c->backlog_napi.weight);
		end = backlog_poll(s, c, t, limit, &work);
		c->cur_stay = work >= limit;
	} else {
		struct nic *n = &s->nic[id];
		uint64_t tx0 = n->c.tx_cleaned;

		limit = poll_limit(s, c, n->napi.weight);
		end = nic_poll(s, c, n, t, limit, &work);
		c->cur_stay = napi_exit_after_poll(n->cfg->poll_exit, work,
						   (uint32_t)(n->c.tx_cleaned - tx0), limit) == RULE_POLL;
	}
	c->cur_napi = id;
	c->cur_work = work;
	cpu_run(s, c, LVL_SOFTIRQ, SI_POLL, end - t);
}

/* The next device to poll.  Today's net_rx_action() works through the
 * list it took at the start (local) and then the devices listed since,
 * but a repoll ends the pass.  2.6.12's polls the head of its one
 * poll_list each time, so a device scheduled meanwhile (an interrupt
 * during process_backlog) is polled in this pass, after those listed
 * before it. */
static void poll_next(struct sim *s, struct cpu *c)
{
	if (rxcore_26(s) || (c->local.n == 0 && c->repoll.n == 0))
		list_splice(&c->local, &c->poll_list);
	if (c->local.n == 0) {
		rx_action_finish(s, c);
		return;
	}
	poll_start(s, c, list_pop(&c->local));
}

/* NAPI @id stays scheduled for another poll: onto the repoll list (today's
 * net_rx_action(): spliced back at the end of the pass), or in 2.6 to the
 * tail of the poll list ("list_del(&dev->poll_list); list_add_tail(
 * &dev->poll_list, &queue->poll_list)"), behind the devices interrupts
 * listed while it was polled. */
static void poll_requeue(struct sim *s, struct cpu *c, uint16_t id)
{
	if (!rxcore_26(s)) {
		list_add(&c->repoll, id);
		return;
	}
	list_splice(&c->local, &c->poll_list);
	list_add(&c->local, id);
}

/* After a poll: complete or repoll, as __napi_poll() and the driver do.
 * A poll that stays (c->cur_stay: a full one, or a driver whose poll-exit
 * rule keeps polling after work, which today's drivers express by
 * returning their budget) is a full poll to the NAPI core. */
static void poll_settle(struct sim *s, struct cpu *c, struct napi *n, struct nic *dev,
			uint32_t work)
{
	/* process_backlog() takes what was queued while it ran before it lets
	 * go of the queue: here, a repoll in the same net_rx_action pass */
	if (c->cur_napi == NAPI_BACKLOG && !c->cur_stay && c->backlog.count) {
		poll_requeue(s, c, c->cur_napi);
		return;
	}
	if (c->cur_stay) {
		struct napi_poll_result r = napi_poll_finish(n, work > n->weight ? work : n->weight);

		if (r.next == NAPI_NEXT_REPOLL)
			poll_requeue(s, c, c->cur_napi);
		else if (r.done.reschedule)
			raise_net_rx(c, c->cur_napi);
		return;
	}
	napi_apply_done(s, c, dev, c->cur_napi,
			napi_complete_done(n, work, dev && gro_rx_pending(dev)), RESCHED_POLL_LIST);
}

/* napi:napi_poll of the poll that just ended on @c: a poll that stays
 * returned its budget, as today's drivers express it. */
static void poll_trace(struct sim *s, struct cpu *c)
{
	uint16_t id = c->cur_napi;
	uint32_t budget = poll_limit(s, c, id == NAPI_BACKLOG ? c->backlog_napi.weight
							     : s->nic[id].napi.weight);

	trace_napi_poll(s, c, id, c->cur_stay && c->cur_work < budget ? budget : c->cur_work,
			budget, s->eng.now);
}

static void poll_done(struct sim *s, struct cpu *c)
{
	uint16_t id = c->cur_napi;
	uint32_t work = c->cur_work;

	if (s->tp)
		poll_trace(s, c);
	if (id == NAPI_BACKLOG)
		poll_settle(s, c, &c->backlog_napi, NULL, work);
	else
		poll_settle(s, c, &s->nic[id].napi, &s->nic[id], work);
	c->sn.processed += work;
	/* 2.6 tests budget and time at the top of its loop: not once the
	 * list is empty */
	if (rxcore_26(s)) {
		list_splice(&c->local, &c->poll_list);
		if (c->local.n == 0) {
			rx_action_finish(s, c);
			return;
		}
	}
	if (netrx_account(&c->nb, work, s->eng.now, s->scn->host.hz) == NETRX_SQUEEZE) {
		c->sn.time_squeeze++;
		rx_action_finish(s, c);
		return;
	}
	poll_next(s, c);
}

/* ---- softirq ---- */

void kern_softirq_begin(struct sim *s, struct cpu *c)
{
	c->sn.softirq_runs++;
	softirq_begin(&c->sr, s->eng.now, s->scn->host.hz);
	cpu_run(s, c, LVL_SOFTIRQ, SI_ENTRY, s->prof->softirq_entry_ns);
}

/* A pass starts: clear the pending bit and enter net_rx_action(). */
static void rx_action_begin(struct sim *s, struct cpu *c)
{
	const struct scn_host *h = &s->scn->host;

	c->net_rx_pending = false;
	if (h->rxcore == RXCORE_26)
		netrx_begin_26(&c->nb, s->eng.now, h->netdev_max_backlog, h->hz);
	else
		netrx_begin(&c->nb, s->eng.now, h->netdev_budget, h->netdev_budget_usecs_ns, h->hz);
	c->repoll.n = 0;
	list_splice(&c->local, &c->poll_list);
	poll_next(s, c);
}

/* ---- FreeBSD DEVICE_POLLING (kern_poll.c) ---- */

/* One chunk of the POLL netisr: every registered handler polled with
 * bsd_poll_chunk() frames; POLL_AND_CHECK_STATUS also reads each device's
 * status register. */
static void bsd_chunk(struct sim *s, struct cpu *c)
{
	uint32_t count = bsd_poll_chunk(&s->bsd), work;
	int64_t t = s->eng.now;

	for (uint16_t i = 0; i < s->n_nics; i++) {
		if (c->bsd_cmd == BSD_POLL_AND_CHECK_STATUS)
			t += s->prof->reg_read_ns;
		t = nic_poll(s, c, &s->nic[i], t, count, &work);
		c->sn.processed += work;
	}
	cpu_run(s, c, LVL_SOFTIRQ, SI_BSD, t - s->eng.now);
}

static void bsd_netisr_begin(struct sim *s, struct cpu *c)
{
	c->bsd_pending = false;
	c->in_bsd = true;
	c->sn.softirq_runs++;
	c->bsd_cmd = (uint8_t)bsd_poll_begin(&s->bsd, s->eng.now);
	bsd_chunk(s, c);
}

/* netisr_pollmore(): another chunk, a new burst for missed ticks, or done. */
static void bsd_chunk_done(struct sim *s, struct cpu *c)
{
	switch (bsd_poll_more(&s->bsd, s->eng.now)) {
	case BSD_POLL_NEXT_CHUNK:
		c->bsd_cmd = BSD_POLL_ONLY;
		bsd_chunk(s, c);
		return;
	case BSD_POLL_AGAIN:
		c->bsd_cmd = (uint8_t)bsd_poll_begin(&s->bsd, s->eng.now);
		bsd_chunk(s, c);
		return;
	case BSD_POLL_DONE:
		break;
	}
	c->in_bsd = false;
	cpu_end(s, c, LVL_SOFTIRQ);
	cpu_resume(s, c);
}

/* poll_idle(): with kern.polling.idle_poll the idle loop polls every
 * handler with each_burst frames, then yields.  A pass that finds nothing
 * waits for the next frame that can be in memory (every pass in between
 * would find nothing too). */
static void idle_poll_run(struct sim *s, struct cpu *c)
{
	uint32_t count = bsd_poll_idle_count(&s->bsd), work, total = 0;
	int64_t now = s->eng.now, t = now, next = INT64_MAX;

	if (!sched_thread_continue(s, c, true))
		return;
	for (uint16_t i = 0; i < s->n_nics; i++) {
		t = nic_poll(s, c, &s->nic[i], t, count, &work);
		total += work;
	}
	for (uint16_t i = 0; total == 0 && i < s->n_nics; i++) {
		int64_t r = nic_rx_next_ready(s, &s->nic[i]);

		if (r < next)
			next = r;
	}
	/* No frame will ever be ready (no source, or all have stopped): wait
	 * out the run; a thread that wakes preempts the idle poller anyway. */
	if (total == 0 && next > t)
		t = next > s->scn->run.duration_ns ? s->scn->run.duration_ns : next;
	cpu_run(s, c, LVL_THREAD, TCH_SYS, t > now ? t - now : 1);
}

static void softirq_chunk_done(struct sim *s, struct cpu *c)
{
	switch ((enum si_step)c->lvl[LVL_SOFTIRQ].what) {
	case SI_ENTRY:
		rx_action_begin(s, c);
		return;
	case SI_POLL:
		poll_done(s, c);
		return;
	case SI_BSD:
		bsd_chunk_done(s, c);
		return;
	case SI_NONE:
		break;
	}
	sim_fail(s, "softirq chunk with no step", c->id, 0);
}

static void ksoftirqd_run(struct sim *s, struct cpu *c)
{
	if (!sched_thread_continue(s, c, c->net_rx_pending))
		return;
	c->lvl[LVL_THREAD].active = true;
	c->lvl[LVL_THREAD].what = TCH_RUN;
	cpu_push(s, c, LVL_SOFTIRQ);
	c->si_in_thread = true;
	kern_softirq_begin(s, c);
}

/* ---- threaded NAPI (napi_threaded_poll) ---- */

/* The kthread polls one weight quantum at a time while its NAPI is
 * scheduled; netdev_budget does not apply and fairness comes from the
 * scheduler (cond_resched between polls). */
static void napi_thread_run(struct sim *s, struct cpu *c)
{
	struct nic *n = &s->nic[s->thr[c->cur].nic];
	int64_t now = s->eng.now, end;

	if (!sched_thread_continue(s, c, n->napi.state & NAPI_SCHED))
		return;
	end = nic_poll(s, c, n, now, n->napi.weight, &c->thr_work);
	c->sn.processed += c->thr_work;
	cpu_run(s, c, LVL_THREAD, TCH_POLL, end - now);
}

/* threaded = busy-poll (Linux 6.19, commit c18d4b190a46; net/core/dev.c
 * napi_threaded_poll() and napi_threaded_poll_loop(busy_poll)): once its
 * NAPI is scheduled the kthread owns it for good.  Each loop iteration
 * claims it (napi_thread_busy_poll(): IN_BUSY_POLL), polls one weight at
 * napi-poll plus the per-frame costs, and calls cond_resched()
 * (sched_thread_continue() with work always there): the driver's
 * napi_complete_done() returns false, so the IRQ stays masked and the
 * kthread never sleeps - its CPU is 100% system time.
 *
 * A poll that finds nothing is followed by polls that find nothing until a
 * frame can be in memory (nic_rx_next_ready(), as the FreeBSD idle poller
 * of idle_poll_run() waits): that stretch, up to the end of the timeslice
 * (busy_spin_until()), is one chunk, charged to the kthread as system time
 * and counted in its spin_ns, instead of one event per empty poll.  The frame
 * is found by the poll that starts at that instant, one napi-poll after it
 * is ready; the kernel's loop finds it 0..napi-poll after (its phase is
 * arbitrary).  TX completions wait for the next poll meanwhile (the IRQ is
 * masked).  GRO's per-loop flush (gro_flush_normal()) is GRO's business,
 * in the poll. */
/* How far an idle busy poller on @c spins before it looks again: to @ready
 * (when a frame can be in memory), but not past the run's end nor past its
 * timeslice, so that cond_resched() lets a fair thread that is due have
 * the CPU on time (the scheduler looks only between chunks). */
static int64_t busy_spin_until(struct sim *s, const struct cpu *c, int64_t ready)
{
	int64_t slice = s->scn->run.timeslice_ns, cap = c->slice_start + slice;

	if (cap <= s->eng.now)
		cap = s->eng.now + slice;
	if (cap > s->scn->run.duration_ns)
		cap = s->scn->run.duration_ns;
	return ready < cap ? ready : cap;
}

static void napi_busy_thread_run(struct sim *s, struct cpu *c)
{
	struct thread *t = &s->thr[c->cur];
	struct nic *n = &s->nic[t->nic];
	int64_t now = s->eng.now, end, next;
	bool busy;

	/* the empty poll that ended (or was preempted): the CPU it got */
	t->spin_ns = kern_spin_ns(t);
	t->spinning = false;
	/* napi_thread_wait() returns at once while SCHED_THREADED is set */
	if (!sched_thread_continue(s, c, n->napi.state & NAPI_SCHED_THREADED))
		return;
	busy = napi_thread_busy_poll(&n->napi);
	end = nic_poll(s, c, n, now, n->napi.weight, &c->thr_work);
	c->sn.processed += c->thr_work;
	if (busy && c->thr_work == 0) {
		next = busy_spin_until(s, c, gro_rx_spin_until(s, n, end, nic_rx_next_ready(s, n)));
		if (next > end)
			end = next;
		t->spinning = true;
		t->spin_from = t->cpu_ns;
	}
	cpu_run(s, c, LVL_THREAD, TCH_POLL, end > now ? end - now : 1);
}

/* The kthread's poll ended: __napi_poll() and the driver's completion (a
 * busy-polling kthread's napi_complete_done() decides nothing while
 * IN_BUSY_POLL is set). */
static void napi_thread_settle(struct sim *s, struct cpu *c)
{
	struct nic *n = &s->nic[s->thr[c->cur].nic];
	uint32_t work = c->thr_work;

	trace_napi_poll(s, c, n->id, work, n->napi.weight, s->eng.now);
	if (work >= n->napi.weight)
		napi_poll_finish(&n->napi, work);
	else
		napi_apply_done(s, c, n, n->id,
				napi_complete_done(&n->napi, work, gro_rx_pending(n)), RESCHED_NONE);
}

static void napi_thread_poll_done(struct sim *s, struct cpu *c)
{
	napi_thread_settle(s, c);
	napi_thread_run(s, c);
}

static void napi_busy_thread_poll_done(struct sim *s, struct cpu *c)
{
	napi_thread_settle(s, c);
	napi_busy_thread_run(s, c);
}

/* ---- what the CPU model calls ---- */

const struct thread_ops kern_ksoftirqd_ops = {
	.start = ksoftirqd_run, .chunk_done = ksoftirqd_run, .run_acct = ACCT_SYSTEM,
	.resume_left = true,
};

const struct thread_ops kern_napi_thread_ops = {
	.start = napi_thread_run, .chunk_done = napi_thread_poll_done, .run_acct = ACCT_SYSTEM,
	.resume_left = true,
};

/* Not resume_left: a chunk the scheduler preempts (a wake-up on its CPU)
 * is not finished later.  A wait for the next frame has nothing left to
 * do - resumed, it would wait past the frame's arrival - and a poll's
 * frames were taken when it started; the CPU it had left is not charged
 * (at most one poll's).  Preempted, the kthread polls afresh. */
const struct thread_ops kern_napi_busy_thread_ops = {
	.start = napi_busy_thread_run, .chunk_done = napi_busy_thread_poll_done,
	.run_acct = ACCT_SYSTEM,
};

const struct thread_ops kern_idle_poll_ops = {
	.start = idle_poll_run, .chunk_done = idle_poll_run, .run_acct = ACCT_SYSTEM,
	.idle_prio = true, .resume_left = true,
};

const struct level_ops kern_level_ops = {
	.isr = hardirq_start, .isr_done = hardirq_done, .softirq_step = softirq_chunk_done,
};
