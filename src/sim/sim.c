/* sim.c - building the host from a scenario, the event loop, and the
 * end-of-run accounting check. */
#include "sim/sim.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Kernel threads first, then the applications: a thread's index is its
 * place in reports and breaks vruntime ties. */
/* The kthread napi/NAME-N of queue @n (napi_kthread_create()), where
 * threaded-cpus puts it: on its IRQ's CPU (the default, napi.rst's advice),
 * on the CPU the list gives its queue (taskset -pc), or on its IRQ's CPU
 * to begin with and free to move (all: kthread_run() sets no affinity, so
 * the scheduler's balancing may move it). */
static void add_napi_thread(struct sim *s, struct nic *n)
{
	const struct scn_nic *cfg = n->cfg;
	bool busy = n->napi_cfg->threaded == NAPI_THREADED_BUSY;
	uint16_t cpu = n->irq_cpu;
	char name[48];
	struct thread *t;

	if (cfg->threaded_cpus == THREADED_CPUS_LIST)
		cpu = cfg->threaded_cpu[n->qid];
	snprintf(name, sizeof(name), "napi/%s-%u", cfg->name, n->id + 1);
	n->napi_thread = (int16_t)sched_add_thread(s, busy ? &kern_napi_busy_thread_ops
							  : &kern_napi_thread_ops, THR_NAPI, cpu, name);
	t = &s->thr[n->napi_thread];
	t->nic = n->id;
	t->roam = cfg->threaded_cpus == THREADED_CPUS_ALL;
	t->rt_prio = (uint8_t)cfg->threaded_prio; /* chrt -f -p N PID; 0: kthread_run's */
	s->n_roam += t->roam;
}

static int build_threads(struct sim *s)
{
	const struct scenario *scn = s->scn;
	char name[48];

	/* 3: idle poller, ping, sink (an epoll server has server-threads) */
	s->thr = calloc(scn->host.cpus + scn->apps.cpu_hogs + s->n_nics + 3 + 2 * scn->apps.netperf +
			(scn->apps.server == SERVER_EPOLL ? scn->apps.server_threads - 1 : 0),
			sizeof(*s->thr));
	if (!s->thr)
		return -1;
	for (uint16_t i = 0; i < s->n_cpus; i++) {
		snprintf(name, sizeof(name), "ksoftirqd/%u", i);
		s->cpu[i].ksoftirqd =
			(int16_t)sched_add_thread(s, &kern_ksoftirqd_ops, THR_KSOFTIRQD, i, name);
	}
	for (uint16_t i = 0; i < s->n_nics; i++)
		if (s->nic[i].napi_cfg->threaded)
			add_napi_thread(s, &s->nic[i]);
	if (scn->host.rxpath == RXPATH_BSD_POLL && scn->host.bsd_idle_poll)
		s->thr[sched_add_thread(s, &kern_idle_poll_ops, THR_IDLEPOLL, 0, "idlepoll")].runnable =
			true;
	return ping_init(s) || sink_init(s) || hog_init(s) || netperf_init(s);
}

static int build_cpus(struct sim *s)
{
	s->n_cpus = (uint16_t)s->scn->host.cpus;
	s->cpu = calloc(s->n_cpus, sizeof(*s->cpu));
	if (!s->cpu)
		return -1;
	for (uint16_t i = 0; i < s->n_cpus; i++) {
		if (cpu_init(s, &s->cpu[i], i))
			return -1;
		napi_init(&s->cpu[i].backlog_napi, 64);
		s->cpu[i].backlog_napi.weight = s->scn->host.dev_weight;
		if (pktq_init(&s->cpu[i].backlog, s->scn->host.netdev_max_backlog))
			return -1;
	}
	return 0;
}

/* Room for the queues of every port, before the CPUs are built (they size
 * their IRQ and poll lists by it). */
static int alloc_queues(struct sim *s)
{
	const struct scenario *scn = s->scn;
	uint32_t n = 0;

	for (uint32_t i = 0; i < scn->n_nics; i++)
		n += scn->nic[i].combined;
	s->n_nics = (uint16_t)n;
	s->n_ports = (uint16_t)scn->n_nics;
	s->nic = calloc(n, sizeof(*s->nic));
	s->snap.nic = calloc(n, sizeof(*s->snap.nic));
	s->irq_cpu = calloc((size_t)n * scn->host.cpus, sizeof(*s->irq_cpu));
	return s->nic && s->snap.nic && s->irq_cpu ? 0 : -1;
}

/* A routed queue forwards out of the egress port's queue of the same
 * number, modulo its queues: skb_tx_hash() with the RX queue recorded. */
static void route_queues(struct sim *s, const struct port *from, const struct port *to)
{
	for (uint16_t q = 0; q < from->n_q; q++)
		s->nic[from->first + q].out = (int16_t)(to->first + q % to->n_q);
}

static int build_nics(struct sim *s)
{
	const struct scenario *scn = s->scn;
	uint16_t first = 0;

	s->n_src = (uint16_t)scn->n_traffic;
	for (uint16_t i = 0; i < s->n_ports; i++) {
		if (port_init(s, &s->port[i], &scn->nic[i], i, first))
			return -1;
		first = (uint16_t)(first + s->port[i].n_q);
	}
	for (uint32_t r = 0; r < scn->route.n; r++) {
		int from = scenario_nic_index(scn, scn->route.from[r]);
		int to = scenario_nic_index(scn, scn->route.to[r]);

		if (from >= 0 && to >= 0)
			route_queues(s, &s->port[from], &s->port[to]);
	}
	return 0;
}

static void bsd_init(struct sim *s)
{
	const struct scn_host *h = &s->scn->host;
	struct bsd_poll_config c = { .hz = h->hz, .burst_max = h->bsd_burst_max,
				     .each_burst = h->bsd_each_burst, .user_frac = h->bsd_user_frac,
				     .reg_frac = h->bsd_reg_frac, .idle_poll = h->bsd_idle_poll };

	bsd_poll_init(&s->bsd, &c);
}

/* One vmstat sample of the counters as they stand now; the next in one
 * interval.  The first is taken at time 0. */
static void vm_sample(struct sim *s)
{
	struct vm_sample *v;

	if (s->vm.n == s->vm.cap)
		return;
	v = &s->vm.p[s->vm.n++];
	memset(v, 0, sizeof(*v));
	v->t = s->eng.now;
	for (uint16_t i = 0; i < s->n_nics; i++) {
		nic_rx_advance(s, &s->nic[i], s->eng.now);
		v->in += s->nic[i].c.irqs;
	}
	for (uint16_t i = 0; i < s->n_cpus; i++) {
		cpu_account(s, &s->cpu[i]);
		v->cs += s->cpu[i].cs;
		for (int k = 0; k < ACCT_N; k++)
			v->acct[k] += s->cpu[i].acct[k];
	}
	for (uint16_t i = 0; i < s->n_threads; i++)
		v->r += s->thr[i].runnable && !s->thr[i].ops->idle_prio;
	if (s->eng.now + s->scn->run.vmstat_ns <= s->scn->run.duration_ns)
		sim_at(s, s->eng.now + s->scn->run.vmstat_ns, EV_SAMPLE, 0, 0);
}

static int vm_init(struct sim *s)
{
	int64_t iv = s->scn->run.vmstat_ns;
	uint64_t n;

	if (iv <= 0)
		return 0;
	n = (uint64_t)(s->scn->run.duration_ns / iv) + 1;
	s->vm.cap = (uint32_t)(n < VM_SAMPLES_MAX ? n : VM_SAMPLES_MAX);
	s->vm.p = calloc(s->vm.cap, sizeof(*s->vm.p));
	return s->vm.p ? 0 : -1;
}

int sim_init(struct sim *s, const struct scenario *scn)
{
	memset(s, 0, sizeof(*s));
	s->scn = scn;
	s->lvl_ops = &kern_level_ops;
	if (scn->host.rxpath == RXPATH_BSD_POLL)
		bsd_init(s);
	s->prof = &scn->profile;
	hist_reset(&s->lat);
	/* Pending events: one per NIC line, one per CPU, warm-up, slack. */
	if (alloc_queues(s) || engine_init(&s->eng, 4 * (s->n_nics + scn->host.cpus) + 16) ||
	    build_cpus(s) || rps_init(s) || build_nics(s) || sock_init(s) || build_threads(s) || sched_init(s) ||
	    xlock_init(s) || vm_init(s)) {
		snprintf(s->fatal, sizeof(s->fatal), "out of memory building the host");
		return -1;
	}
	return 0;
}

void sim_free(struct sim *s)
{
	xlock_free(s);
	rps_free(s);
	for (uint16_t i = 0; s->nic && i < s->n_nics; i++)
		nic_free(&s->nic[i]);
	for (uint16_t i = 0; i < s->n_src; i++)
		source_free(&s->src[i]);
	for (uint16_t i = 0; s->cpu && i < s->n_cpus; i++) {
		pktq_free(&s->cpu[i].backlog);
		cpu_free(&s->cpu[i]);
	}
	free(s->cpu);
	free(s->nic);
	free(s->snap.nic);
	free(s->irq_cpu);
	sched_free(s);
	free(s->thr);
	free(s->series.p);
	free(s->vm.p);
	netperf_free(s);
	sock_free(s);
	engine_free(&s->eng);
}

static void take_snapshot(struct sim *s)
{
	struct sim_snapshot *sn = &s->snap;

	sn->t = s->eng.now;
	for (uint16_t i = 0; i < s->n_nics; i++) {
		nic_rx_advance(s, &s->nic[i], s->eng.now);
		nic_tx_advance(s, &s->nic[i], s->eng.now);
		sn->nic[i] = s->nic[i].c;
	}
	for (uint16_t i = 0; i < s->n_cpus; i++) {
		cpu_account(s, &s->cpu[i]);
		memcpy(sn->acct[i], s->cpu[i].acct, sizeof(sn->acct[i]));
		idle_settle(s, &s->cpu[i]);
		memcpy(sn->cstate_ns[i], s->cpu[i].cstate_ns, sizeof(sn->cstate_ns[i]));
		memcpy(sn->cstate_usage[i], s->cpu[i].cstate_usage, sizeof(sn->cstate_usage[i]));
		sn->cs[i] = s->cpu[i].cs;
		sn->sn[i] = s->cpu[i].sn;
	}
	for (uint16_t i = 0; i < s->n_threads; i++)
		sn->thread_ns[i] = s->thr[i].cpu_ns;
	for (uint16_t i = 0; i < s->n_threads; i++)
		sn->spin_ns[i] = kern_spin_ns(&s->thr[i]);
	sn->np_bytes = netperf_bytes(s);
	sock_snapshot(s);
	hist_reset(&s->lat);
	s->warm = true;
	sim_check_invariants(s);
}

static void dispatch(struct sim *s, const struct event *ev)
{
	s->ctx_cpu = -1;
	switch ((enum sim_event_kind)ev->kind) {
	case EV_NIC_WAKE:
		nic_wake(s, &s->nic[ev->obj], ev->gen);
		return;
	case EV_CPU_DONE:
		s->ctx_cpu = (int16_t)ev->obj;
		cpu_done(s, &s->cpu[ev->obj], ev->gen);
		return;
	case EV_WARMUP:
		take_snapshot(s);
		return;
	case EV_NAPI_TIMER:
		kern_napi_timer(s, &s->nic[ev->obj], ev->gen);
		return;
	case EV_DIM_APPLY:
		adapt_dim_apply(s, &s->nic[ev->obj]);
		return;
	case EV_TICK:
		kern_tick(s, &s->cpu[ev->obj]);
		return;
	case EV_WATCHDOG:
		adapt_watchdog(s, &s->nic[ev->obj]);
		return;
	case EV_SAMPLE:
		vm_sample(s);
		return;
	case EV_BALANCE:
		sched_balance_tick(s, &s->cpu[ev->obj]);
		return;
	case EV_RPS:
		rps_event(s, &s->cpu[ev->obj]);
		return;
	case EV_EPOLL_TIMEOUT:
		sink_epoll_timeout(s, ev->obj, ev->gen);
		return;
	case EV_WAKE:
		sched_wake_arrive(s, &s->thr[ev->obj]);
		return;
	}
	sim_fail(s, "unknown event kind", ev->kind, ev->obj);
}

/* Bring every queue up to @t so the counters describe time @t. */
static void settle(struct sim *s, int64_t t)
{
	for (uint16_t i = 0; i < s->n_nics; i++) {
		nic_rx_advance(s, &s->nic[i], t);
		nic_tx_advance(s, &s->nic[i], t);
	}
	for (uint16_t i = 0; i < s->n_cpus; i++) {
		cpu_account(s, &s->cpu[i]);
		idle_settle(s, &s->cpu[i]);
	}
}

/* Every frame that entered is dropped somewhere, delivered, forwarded, or
 * still in a queue. */
static int check_accounting(struct sim *s)
{
	uint64_t in = 0, out = 0, held = 0;

	for (uint16_t i = 0; i < s->n_nics; i++) {
		const struct nic_counters *c = &s->nic[i].c;

		in += c->entered + c->acks_gen;
		out += c->link_drop + c->rx_ovr + c->rx_drp + c->tx_drp + c->tx_ok + c->delivered +
		       c->sock_drop;
		held += nic_in_flight(&s->nic[i]);
	}
	for (uint16_t i = 0; i < s->n_cpus; i++)
		held += s->cpu[i].backlog.count;
	held += rps_in_flight(s);
	held -= s->ping.queued + s->np.queued; /* loopback frames, not NIC frames */
	held += sock_in_flight(s);
	if (in == out + held)
		return 0;
	snprintf(s->fatal, sizeof(s->fatal),
		 "accounting mismatch: %" PRIu64 " frames entered, %" PRIu64
		 " reached a terminal counter, %" PRIu64 " still queued (difference %" PRId64 ")",
		 in, out, held, (int64_t)(in - out - held));
	return -1;
}

static int bad_invariant(struct sim *s, const char *what, int64_t a, int64_t b)
{
	snprintf(s->fatal, sizeof(s->fatal), "invariant violated: %s (%" PRId64 ", %" PRId64 ")",
		 what, a, b);
	return -1;
}

/* Timer IRQs of @n raised (the timer expired) and not yet serviced. */
static uint64_t timer_irqs_queued(const struct sim *s, const struct nic *n)
{
	uint64_t q = 0;

	for (uint16_t i = 0; i < s->n_cpus; i++)
		for (uint16_t k = 0; k < s->cpu[i].n_irq_q; k++)
			q += s->cpu[i].irq_q[k] == (IRQ_TIMER | n->id);
	return q;
}

/* Each hrtimer start ends once (expired, restarted, or still armed), and
 * each expiry reaches napi_watchdog() once: the core counts the fires. */
static int check_napi_timer(struct sim *s, const struct nic *n)
{
	if (n->timers_armed != n->timers_expired + n->timers_cancelled + n->timer_armed)
		return bad_invariant(s, "NAPI timers armed != expired + cancelled + pending",
				     (int64_t)n->timers_armed,
				     (int64_t)(n->timers_expired + n->timers_cancelled + n->timer_armed));
	uint64_t owed = timer_irqs_queued(s, n) + n->timer_irqs_merged;

	if (n->timers_expired != n->napi.watchdog_fires + owed)
		return bad_invariant(s, "NAPI timer expiries != napi_watchdog() calls + timer IRQs "
				     "queued or merged", (int64_t)n->timers_expired,
				     (int64_t)(n->napi.watchdog_fires + owed));
	return 0;
}

static bool list_has(const struct napi_list *l, uint16_t id)
{
	for (uint16_t i = 0; i < l->n; i++)
		if (l->id[i] == id)
			return true;
	return false;
}

/* NAPI @id of CPU @c's net_rx_action: on one of its lists, or being polled. */
static bool cpu_holds_napi(const struct cpu *c, uint16_t id)
{
	if (list_has(&c->poll_list, id) || list_has(&c->local, id) || list_has(&c->repoll, id))
		return true;
	return c->lvl[LVL_SOFTIRQ].active && c->lvl[LVL_SOFTIRQ].what == SI_POLL &&
	       c->cur_napi == id;
}

/* Someone will poll @n's NAPI: a CPU's net_rx_action, the busy poller that
 * claimed it, or its kthread (runnable: napi_threaded_poll() polls while
 * SCHED is held; or waking: the wake-up from another CPU is on its way,
 * sched-wake).  An armed hrtimer is no owner: napi_watchdog() does
 * nothing while SCHED is set. */
static bool napi_has_owner(const struct sim *s, const struct nic *n)
{
	for (uint16_t i = 0; i < s->n_cpus; i++)
		if (cpu_holds_napi(&s->cpu[i], n->id))
			return true;
	if (sock_busy_polls(s, (uint16_t)n->id))
		return true;
	return (n->napi.state & NAPI_THREADED) && n->napi_thread >= 0 &&
	       (s->thr[n->napi_thread].runnable || s->thr[n->napi_thread].waking);
}

/* A NAPI that holds SCHED with no owner is never polled again, and its
 * IRQ stays masked for the rest of the run. */
static int check_napi_owned(struct sim *s, const struct nic *n)
{
	if ((n->napi.state & NAPI_SCHED) && !napi_has_owner(s, n))
		return bad_invariant(s, "NAPI holds SCHED but nobody will poll it (port, state)",
				     n->id, n->napi.state);
	return 0;
}

static int check_nic(struct sim *s, const struct nic *n)
{
	if (check_napi_timer(s, n) || check_napi_owned(s, n))
		return -1;
	if (n->ring.count > n->cfg->rx_ring || n->ring_used > n->cfg->rx_ring)
		return bad_invariant(s, "RX ring over capacity", n->ring_used, n->cfg->rx_ring);
	if (n->ring.count > n->ring_used)
		return bad_invariant(s, "RX frames without descriptors", n->ring.count, n->ring_used);
	if (n->notified > n->ring.count || n->departed > n->txr.count)
		return bad_invariant(s, "completion index past its queue", n->notified, n->departed);
	if (n->fifo_bytes > n->fifo_cap)
		return bad_invariant(s, "RX FIFO over capacity", n->fifo_bytes, n->fifo_cap);
	if (n->txr.count > n->cfg->tx_ring || n->qdisc.count > n->cfg->txqueuelen)
		return bad_invariant(s, "TX ring or qdisc over capacity", n->txr.count,
				     n->qdisc.count);
	return 0;
}

int sim_check_invariants(struct sim *s)
{
	for (uint16_t i = 0; i < s->n_nics; i++)
		if (check_nic(s, &s->nic[i]))
			return -1;
	for (uint16_t i = 0; i < s->n_cpus; i++) {
		const struct cpu *c = &s->cpu[i];
		uint64_t sum = 0;

		for (int k = 0; k < ACCT_N; k++)
			sum += c->acct[k];
		if (c->backlog.count > s->scn->host.netdev_max_backlog)
			return bad_invariant(s, "backlog over netdev_max_backlog", c->backlog.count, i);
		if ((c->backlog_napi.state & NAPI_SCHED) && !cpu_holds_napi(c, NAPI_BACKLOG))
			return bad_invariant(s, "backlog NAPI holds SCHED off its poll lists (cpu, state)",
					     i, c->backlog_napi.state);
		if ((int64_t)sum != c->acct_t)
			return bad_invariant(s, "CPU time does not add up to elapsed time",
					     (int64_t)sum, c->acct_t);
	}
	return sched_check(s, s->fatal, sizeof(s->fatal));
}

int sim_run(struct sim *s)
{
	const struct scenario *scn = s->scn;
	int64_t end = scn->run.duration_ns;
	struct event ev;

	if (scn->run.warmup_ns > 0)
		sim_at(s, scn->run.warmup_ns, EV_WARMUP, 0, 0);
	else
		take_snapshot(s);
	for (uint16_t i = 0; i < s->n_nics; i++) {
		nic_start(s, &s->nic[i]);
		if (s->nic[i].itr.mode == ITR_SIMPLIFIED)
			sim_at(s, 2000000000, EV_WATCHDOG, i, 0);
	}
	if (scn->host.rxpath == RXPATH_BSD_POLL)
		sim_at(s, 1000000000 / scn->host.hz, EV_TICK, 0, 0);
	for (uint16_t i = 0; i < s->n_cpus; i++)
		sched_pick(s, &s->cpu[i]);
	if (s->vm.cap)
		vm_sample(s);
	while (!s->fatal[0] && engine_pop(&s->eng, end, &ev) == 0) {
		dispatch(s, &ev);
		if (s->stop && *s->stop) {
			s->partial = true;
			end = s->eng.now;
			break;
		}
	}
	if (s->fatal[0])
		return -1;
	s->eng.now = end;
	settle(s, end);
	if (sim_check_invariants(s))
		return -1;
	return check_accounting(s);
}
