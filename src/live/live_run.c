/* live_run.c - one live measurement (see live_run.h for the order). */
#define _GNU_SOURCE
#include "live/live_run.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "model/profile_load.h"
#include "model/units.h"
#include "live/nl.h"
#include "live/queues.h"
#include "rxlab/scheme.h"
#include "live/testbed.h"
#include "rxlab/hist.h"

#define DRAIN_MAX_NS 200000000	/* wait at most this long for the last packets */
#define DRAIN_STEP_NS 5000000
#define FIFO_PRIO LIVE_FIFO_PRIO
#define START_SETTLE_NS 2000000	/* after the receive thread is up */

/* Everything a run holds, released by run_undo() in reverse. */
struct run {
	const struct live_job *j;
	struct testbed tb;
	bool have_tb;
	struct knob_dev dev;
	struct knobs knobs;
	int nq;				/* receive queues: 1, or j->queues on the test bed */
	int qcpu[LIVE_MAX_QUEUES];	/* queue q's CPU (its NAPI kthread and thread) */
	int rx_fd[LIVE_MAX_QUEUES], tx_fd[LIVE_MAX_QUEUES];	/* per queue, -1 = none */
	struct rxl_config cfg;
	struct rxl_loop *loop[LIVE_MAX_QUEUES];
	uint32_t probe_napi[LIVE_MAX_QUEUES];	/* NAPI id each queue's probe came through */
	struct counters_src src;
};

static bool stopped(const struct live_job *j)
{
	return j->stop && *j->stop;
}

void live_job_default(struct live_job *j, enum rxl_mode mode)
{
	memset(j, 0, sizeof(*j));
	j->mode = mode;
	sender_config_default(&j->snd);
	j->port = 9000;
	j->rx_cpu = 1;
	j->tx_cpu = 0;
	j->threaded = true;
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_ns(int64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000 };

	nanosleep(&ts, NULL);
}

/* ---- device knobs ------------------------------------------------------- */

/* The knobs a mode needs on the device, before the user's --set ones: the
 * device settings of the scheme it does (include/rxlab/scheme.h: deferral
 * as the safety net of prefer busy poll and IRQ suspension, IRQ
 * suspension's timeout, threaded's busy-polling NAPI kthread).  The loop's
 * irq-suspend-timeout, when set, is the one applied. */
static size_t mode_knobs(const struct run *run, struct live_knob *k)
{
	const struct rxl_scheme *sc = rxl_scheme_of_mode(run->j->mode);
	size_t n = 0;

	for (size_t i = 0; sc && sc->knob[i].name; i++) {
		enum knob id;

		if (knob_parse(sc->knob[i].name, &id))
			continue;	/* never: tests/unit/test_scheme.c checks the names */
		k[n] = (struct live_knob){ id, sc->knob[i].value };
		if (id == KNOB_IRQ_SUSPEND_TIMEOUT && run->cfg.irq_suspend_timeout_ns)
			k[n].v = run->cfg.irq_suspend_timeout_ns;
		n++;
	}
	return n;
}

static void knob_note(struct live_result *r, enum knob k, uint64_t v)
{
	size_t at = strlen(r->knobs);
	char val[32];

	if (knob_is_time(k))
		unit_format(UNIT_TIME_NS, v, val, sizeof(val));
	else
		snprintf(val, sizeof(val), "%" PRIu64, v);
	snprintf(r->knobs + at, sizeof(r->knobs) - at, "%s%s=%s", at ? " " : "", knob_name(k), val);
}

/* The user asked for a threaded setting with --set. */
static bool user_sets_threaded(const struct live_job *j)
{
	for (size_t i = 0; i < j->n_knobs; i++)
		if (j->knobs[i].k == KNOB_THREADED)
			return true;
	return false;
}

/* Kernels before threaded busy polling (netdev napi-set threaded 2, the
 * busy-polling kthread: Linux 6.19, commit c18d4b190a46) reject threaded
 * = 2 (ERANGE from the netlink policy): run the threaded mode with
 * threaded = 1 then, and say so.  Not when the user's --set asked for it. */
static bool threaded_fallback(struct run *run, struct live_knob *k)
{
	char e[256];

	if (k->k != KNOB_THREADED || k->v != 2 || user_sets_threaded(run->j) ||
	    knobs_set(&run->knobs, KNOB_THREADED, 1, e, sizeof(e)))
		return false;
	fprintf(stderr, "rxlab live: note: this kernel refuses threaded = 2 on every NAPI (the "
		"busy-polling NAPI kthread is Linux 6.19, commit c18d4b190a46); threaded mode "
		"runs with threaded = 1\n");
	k->v = 1;
	return true;
}

static int apply_knobs(struct run *run, struct live_result *r, char *err, size_t errlen)
{
	struct live_knob k[KNOBS_MAX * 2];
	size_t n = mode_knobs(run, k);

	for (size_t i = 0; i < run->j->n_knobs; i++)
		k[n++] = run->j->knobs[i];
	for (size_t i = 0; i < n; i++) {
		if (knobs_set(&run->knobs, k[i].k, k[i].v, err, errlen) && !threaded_fallback(run, &k[i]))
			return 1;
		knob_note(r, k[i].k, k[i].v);
	}
	return 0;
}

/* ---- sockets and the loop ----------------------------------------------- */

/* Queue q's receive socket; with several queues all of them SO_REUSEPORT
 * on the port, steered by queue (queues.h). */
static int rx_socket_q(struct run *run, int q, char *err, size_t errlen)
{
	const struct live_job *j = run->j;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(j->port) };
	int ns = run->have_tb ? run->tb.ns_rx : -1, one = 1, fd;

	a.sin_addr = run->have_tb ? run->tb.rx_addr : (struct in_addr){ htonl(INADDR_ANY) };
	fd = run->rx_fd[q] = socket_in(ns, AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 ||
	    (run->nq > 1 && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) != 0) ||
	    (j->iface && setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, j->iface,
				    (socklen_t)strlen(j->iface)) != 0) ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		snprintf(err, errlen, "receive socket on port %u: %s", j->port, strerror(errno));
		return 1;
	}
	return 0;
}

static int rx_socket(struct run *run, char *err, size_t errlen)
{
	for (int q = 0; q < run->nq; q++)
		if (rx_socket_q(run, q, err, errlen))
			return 1;
	if (run->nq > 1 && queues_steer(run->rx_fd[0], run->qcpu, run->nq) != 0) {
		snprintf(err, errlen, "SO_ATTACH_REUSEPORT_CBPF: %s", strerror(errno));
		return 1;
	}
	return 0;
}

/* The sender's socket: in the test bed's sender namespace, or on loopback
 * for --iface lo.  No sender for any other --iface (traffic comes from
 * outside: rxlab sends nowhere but loopback and its own namespaces). */
static int tx_socket(struct run *run, char *err, size_t errlen)
{
	const struct live_job *j = run->j;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(j->port) };

	if (!run->have_tb && !j->tx_ns && strcmp(j->iface, "lo") != 0)
		return 0;
	a.sin_addr = run->have_tb ? run->tb.rx_addr : (struct in_addr){ htonl(INADDR_LOOPBACK) };
	if (!run->have_tb && j->tx_ns)	/* live calibrate --iface --sender-ns */
		a.sin_addr = j->tx_ns->dst;
	if (run->nq > 1)	/* one flow per queue, found by probing */
		return queues_probe(run->tb.ns_tx, &a, run->rx_fd, run->nq, run->tx_fd,
				    run->probe_napi, err, errlen) ? 1 : 0;
	run->tx_fd[0] = socket_in(run->have_tb ? run->tb.ns_tx : j->tx_ns ? j->tx_ns->ns_fd : -1,
				  AF_INET, SOCK_DGRAM, 0);
	if (run->tx_fd[0] < 0 || connect(run->tx_fd[0], (struct sockaddr *)&a, sizeof(a)) != 0) {
		snprintf(err, errlen, "sender socket: %s", strerror(errno));
		return 1;
	}
	return 0;
}

/* The CLI only counts: statistics come from the loop itself. */
static void on_batch(void *arg, const struct rxl_pkt *pkts, size_t n)
{
	(void)arg;
	(void)pkts;
	(void)n;
}

static int open_loop(struct run *run, char *err, size_t errlen)
{
	enum rxl_mode m = run->j->mode;

	if (m != RXL_MODE_TPACKET && m != RXL_MODE_AF_XDP) {
		for (int q = 0; q < run->nq; q++)
			if (!(run->loop[q] = rxl_open_udp(run->rx_fd[q], &run->cfg, on_batch, NULL, err,
							  errlen)))
				return 1;
		return 0;
	}
	/* On a real interface the library attaches an XDP program: journal
	 * it first, so that a run killed before detaching is undone by the
	 * next (the test bed's veth takes its program along when it dies). */
	if (m == RXL_MODE_AF_XDP && !run->have_tb &&
	    knobs_record(&run->knobs, KNOB_XDP, 0, err, errlen))
		return 1;
	/* Packet sockets and AF_XDP bind to the device: open them inside its
	 * namespace. */
	if (run->have_tb && testbed_enter(&run->tb, TESTBED_RX) != 0) {
		snprintf(err, errlen, "entering the receiver namespace: %s", strerror(errno));
		return 1;
	}
	if (m == RXL_MODE_TPACKET)
		run->loop[0] = rxl_open_tpacket(run->dev.ifindex, &run->cfg, on_batch, NULL, err,
						errlen);
	else
		run->loop[0] = rxl_open_xdp(run->dev.ifname, 0, &run->cfg, on_batch, NULL, err, errlen);
	if (run->have_tb && testbed_enter(&run->tb, TESTBED_HOME) != 0)
		__builtin_trap();	/* the main thread cannot stay in the test bed */
	return run->loop[0] ? 0 : 1;
}

/* ---- set up and undo ---------------------------------------------------- */

/* hybrid's wake-cost, unless --set gives one: what a sleep and wake-up of
 * the receive thread costs on this machine, as `rxlab live calibrate`
 * measured it (profile veth-host): the thread's own cost (ctx-switch) and
 * the core's leaving its idle state (idle-exit, without [cstates]) or the
 * cross-CPU wake-up's latency (sched-wake, with them), which spinning
 * avoids.  (The exit latency of a deep state is latency, not CPU, and is
 * left out: it would make hybrid spin at rates where sleeping is cheaper.)
 * The library's default is a guess for machines nobody measured. */
static void calibrated_wake_cost(struct rxl_config *cfg)
{
	struct profile p;
	char err[256];

	if (profile_load(&p, "veth-host", err, sizeof(err)) == 0 &&
	    p.ctx_switch_ns + p.idle_exit_ns + p.sched_wake_ns >= 1000)
		cfg->wake_cost_ns = (uint64_t)(p.ctx_switch_ns + p.idle_exit_ns + p.sched_wake_ns);
}

static int config_build(struct run *run, char *err, size_t errlen)
{
	rxl_config_default(&run->cfg, run->j->mode);
	calibrated_wake_cost(&run->cfg);
	for (size_t i = 0; i < run->j->n_sets; i++) {
		char key[64];
		const char *s = run->j->sets[i], *eq = strchr(s, '=');

		snprintf(key, sizeof(key), "%.*s", eq ? (int)(eq - s) : 0, s);
		if (!eq || rxl_config_set(&run->cfg, key, eq + 1, err, errlen))
			return 2;
	}
	return rxl_config_check(&run->cfg, err, errlen) ? 2 : 0;
}

/* Queue q's CPU: queue 0 on rx_cpu, then the CPUs that are neither
 * rx_cpu nor tx_cpu in order, tx_cpu last (a receive queue beside the
 * sender only when there is no other core: live_args.c warns). */
static void queue_cpus(struct run *run)
{
	const struct live_job *j = run->j;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int n = 0;

	run->nq = !j->iface && j->queues > 1 ? j->queues : 1;
	run->qcpu[n++] = j->rx_cpu;
	for (int c = 0; c < ncpu && n < run->nq; c++)
		if (c != j->rx_cpu && c != j->tx_cpu)
			run->qcpu[n++] = c;
	while (n < run->nq)
		run->qcpu[n++] = j->tx_cpu;
}

static int device_setup(struct run *run, char *err, size_t errlen)
{
	const struct live_job *j = run->j;
	struct testbed_opts o = { .rx_cpu = j->rx_cpu, .tx_cpu = j->tx_cpu, .napi = true,
				  .threaded = j->threaded, .napi_prio = FIFO_PRIO };

	run->dev.ns_fd = -1;
	queue_cpus(run);
	o.queues = run->nq;
	for (int q = 0; q < run->nq; q++)
		o.queue_cpu[q] = run->qcpu[q];
	if (j->iface) {
		snprintf(run->dev.ifname, sizeof(run->dev.ifname), "%s", j->iface);
		run->dev.ifindex = (int)if_nametoindex(j->iface);
		if (run->dev.ifindex == 0) {
			snprintf(err, errlen, "--iface %s: no such interface", j->iface);
			return 2;
		}
		knobs_init(&run->knobs, &run->dev, true);
		return 0;
	}
	if (testbed_create(&run->tb, &o, err, errlen))
		return 1;
	run->have_tb = true;
	run->dev = (struct knob_dev){ .ns_fd = run->tb.ns_rx, .ifindex = run->tb.rx_ifindex };
	snprintf(run->dev.ifname, sizeof(run->dev.ifname), "%s", run->tb.rx_if);
	knobs_init(&run->knobs, &run->dev, false);
	return 0;
}

static void counters_source(struct run *run)
{
	int pid = 0;
	uint32_t id;

	run->src = (struct counters_src){ .rx_ns = run->dev.ns_fd, .tx_ns = -1,
					  .rx_ifindex = run->dev.ifindex, .sock_fd = run->rx_fd[0] };
	if (run->have_tb) {
		run->src.tx_ns = run->tb.ns_tx;
		run->src.tx_ifindex = run->tb.tx_ifindex;
	}
	if (run->nq > 1) {	/* every queue's kthread (testbed.c pinned them) */
		for (int q = 0; q < run->nq && q < run->tb.n_napi; q++)
			run->src.napi_pid[q] = run->tb.napi_pids[q];
		return;
	}
	if (knob_napi_list(&run->dev, &id, &pid, 1) == 1 && pid > 0)
		run->src.napi_pid[0] = pid;
}

static void run_undo(struct run *run)
{
	char e[256];

	for (int q = 0; q < LIVE_MAX_QUEUES; q++) {
		rxl_close(run->loop[q]);
		run->loop[q] = NULL;
	}
	if (knobs_restore(&run->knobs, e, sizeof(e)))
		fprintf(stderr, "rxlab: restoring device settings: %s\n", e);
	for (int q = 0; q < LIVE_MAX_QUEUES; q++) {
		if (run->tx_fd[q] >= 0)
			close(run->tx_fd[q]);
		if (run->rx_fd[q] >= 0)
			close(run->rx_fd[q]);
		run->tx_fd[q] = run->rx_fd[q] = -1;
	}
	if (run->have_tb)
		testbed_destroy(&run->tb);
	run->have_tb = false;
}

/* ---- the measurement ---------------------------------------------------- */

struct rx_thread {
	pthread_t t;
	struct rxl_loop *loop;
	int cpu, rc;
	bool want_fifo, fifo;
	pid_t tid;		/* for its schedstat (counters_src.rx_tid) */
	atomic_bool ready;	/* pinned and scheduled: about to enter rxl_run() */
};

static void *rx_main(void *arg)
{
	struct rx_thread *x = arg;
	struct sched_param sp = { .sched_priority = FIFO_PRIO };
	cpu_set_t set;

	if (x->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(x->cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	if (x->want_fifo)
		x->fifo = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) == 0;
	x->tid = gettid();
	atomic_store(&x->ready, true);
	x->rc = rxl_run(x->loop, 0);
	return NULL;
}

/* Stop and join the first @n receive threads. */
static void threads_stop(struct run *run, struct rx_thread *x, int n)
{
	for (int q = 0; q < n; q++)
		rxl_stop(run->loop[q]);
	for (int q = 0; q < n; q++) {
		pthread_join(x[q].t, NULL);
		run->src.rx_tid[q] = 0;	/* gone: its schedstat with it */
	}
}

/* Payload packets all loops have received so far. */
static uint64_t payload_now(const struct run *run)
{
	static struct rxl_stats st;	/* large; live_run() runs one at a time */
	uint64_t n = 0;

	for (int q = 0; q < run->nq; q++) {
		rxl_stats_get(run->loop[q], &st);
		n += st.payload_packets;
	}
	return n;
}

/* Wait for the sender (or a signal), read the counters into @sent, then
 * wait for the last packets to land. */
static void wait_traffic(struct run *run, struct sender *s, struct live_result *r,
			 struct counters *sent)
{
	int64_t until;

	while (!sender_done(s)) {
		if (stopped(run->j))
			sender_stop(s);
		sleep_ns(DRAIN_STEP_NS);
	}
	sender_join(s, &r->tx);
	counters_read(sent, &run->src);
	until = mono_ns() + DRAIN_MAX_NS;
	do
		sleep_ns(DRAIN_STEP_NS);
	while (payload_now(run) < r->tx.sent && mono_ns() < until && !stopped(run->j));
}

/* dst += src for the counters of two loops (queues of one run). */
static void stats_add(struct rxl_stats *dst, const struct rxl_stats *src)
{
	uint64_t *d[] = { &dst->packets, &dst->bytes, &dst->deliveries, &dst->polls,
			  &dst->empty_polls, &dst->full_polls, &dst->sleeps, &dst->wakeups,
			  &dst->timer_wakeups, &dst->pauses, &dst->sleep_ns, &dst->mode_switches,
			  &dst->moderation_changes, &dst->errors, &dst->source_drops,
			  &dst->payload_packets, &dst->cpu_user_ns, &dst->cpu_sys_ns,
			  &dst->vol_ctxsw, &dst->invol_ctxsw };
	const uint64_t *v[] = { &src->packets, &src->bytes, &src->deliveries, &src->polls,
				&src->empty_polls, &src->full_polls, &src->sleeps, &src->wakeups,
				&src->timer_wakeups, &src->pauses, &src->sleep_ns, &src->mode_switches,
				&src->moderation_changes, &src->errors, &src->source_drops,
				&src->payload_packets, &src->cpu_user_ns, &src->cpu_sys_ns,
				&src->vol_ctxsw, &src->invol_ctxsw };

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		*d[i] += *v[i];
	if (src->run_ns > dst->run_ns)
		dst->run_ns = src->run_ns;
	if (src->seq_next > dst->seq_next)
		dst->seq_next = src->seq_next;
	hist_merge(&dst->latency, &src->latency);
	hist_merge(&dst->batch, &src->batch);
}

/* The loops' statistics into @r: the sum over queues (a loop of one flow
 * among several sees the others' sequence numbers as gaps, so seq_lost is
 * left at the sum of its own, not used: lost counts come from totals), and
 * a row per queue when there are several. */
static void collect(struct run *run, struct live_result *r, const struct rx_thread *x)
{
	static struct rxl_stats st;

	rxl_stats_get(run->loop[0], &r->rx);
	r->queues = run->nq;
	for (int q = 0; q < run->nq; q++) {
		struct live_queue *lq = &r->q[q];

		if (q > 0) {
			rxl_stats_get(run->loop[q], &st);
			stats_add(&r->rx, &st);
		}
		const struct rxl_stats *z = q > 0 ? &st : &r->rx;
		*lq = (struct live_queue){ .cpu = x[q].cpu, .fifo = x[q].fifo,
					   .napi_id = run->probe_napi[q],
					   .seen_napi_id = queues_napi_id(run->rx_fd[q]),
					   .packets = z->payload_packets, .wakeups = z->wakeups };
		lq->p50_us = z->latency.n ? (double)hist_quantile(&z->latency, 0.5) / 1e3 : NAN;
		lq->p99_us = z->latency.n ? (double)hist_quantile(&z->latency, 0.99) / 1e3 : NAN;
	}
	if (run->nq > 1) {	/* q 0's own figures, before the sum replaced them */
		rxl_stats_get(run->loop[0], &st);
		r->q[0].packets = st.payload_packets;
		r->q[0].wakeups = st.wakeups;
		r->q[0].p50_us = st.latency.n ? (double)hist_quantile(&st.latency, 0.5) / 1e3 : NAN;
		r->q[0].p99_us = st.latency.n ? (double)hist_quantile(&st.latency, 0.99) / 1e3 : NAN;
	}
}

/* Start one receive thread per queue, each pinned to its queue's CPU, and
 * wait until all run: the first packets must find the loops running, not a
 * thread still migrating to its CPU. */
static int threads_start(struct run *run, struct rx_thread *x, char *err, size_t errlen)
{
	for (int q = 0; q < run->nq; q++) {
		/* The scheduling class the mode is designed for (live.h):
		 * SCHED_FIFO for the modes that sleep and hybrid, SCHED_OTHER for
		 * the spinners, which would starve the FIFO NAPI kthread. */
		x[q].loop = run->loop[q];
		x[q].cpu = run->qcpu[q];
		x[q].want_fifo = rxl_mode_sched_fifo(run->j->mode);
		if (pthread_create(&x[q].t, NULL, rx_main, &x[q]) != 0) {
			snprintf(err, errlen, "cannot start the receive thread");
			threads_stop(run, x, q);
			return 1;
		}
	}
	for (int q = 0; q < run->nq; q++) {
		while (!atomic_load(&x[q].ready))
			sleep_ns(100000);
		run->src.rx_tid[q] = x[q].tid;
	}
	return 0;
}

static int measure(struct run *run, struct live_result *r, char *err, size_t errlen)
{
	struct rx_thread x[LIVE_MAX_QUEUES] = { 0 };
	struct sender_config sc = run->j->snd;
	struct counters before, sent, after;
	struct sender *s = NULL;

	sc.cpu = run->j->tx_cpu;
	sc.more_fds = run->nq > 1 ? &run->tx_fd[1] : NULL;
	sc.n_more_fds = run->nq > 1 ? (size_t)run->nq - 1 : 0;
	counters_read(&before, &run->src);
	if (threads_start(run, x, err, errlen))
		return 1;
	sleep_ns(START_SETTLE_NS);
	if (run->tx_fd[0] >= 0 && (s = sender_start(run->tx_fd[0], &sc, err, errlen)) == NULL) {
		threads_stop(run, x, run->nq);
		return 2;
	}
	if (s) {
		wait_traffic(run, s, r, &sent);
	} else {
		while (!stopped(run->j) && mono_ns() < before.t_ns + sc.duration_ns)
			sleep_ns(DRAIN_STEP_NS);
		counters_read(&sent, &run->src);
	}
	threads_stop(run, x, run->nq);
	counters_read(&after, &run->src);
	counters_diff(&r->d, &after, &before);
	counters_diff(&r->d_sent, &sent, &before);
	collect(run, r, x);
	r->sender = s != NULL;
	r->fifo = x[0].fifo;
	r->napi_kthread = run->src.napi_pid[0] > 0;
	/* Rates are per second of the planned sending time, or of the time
	 * actually sent when a signal cut the run short. */
	if (s && stopped(run->j) && r->tx.end_ns > r->tx.start_ns)
		r->dur_s = (double)(r->tx.end_ns - r->tx.start_ns) / 1e9;
	else
		r->dur_s = s ? (double)sc.duration_ns / 1e9 : (double)r->d.t_ns / 1e9;
	for (int q = 0; q < run->nq; q++)
		if (x[q].rc < 0) {
			snprintf(err, errlen, "receive loop: %s", strerror(-x[q].rc));
			return 1;
		}
	return 0;
}

/* How idle the two cores were before the run: printed, and a warning
 * with the figure when the receiver core was too busy (idle_check.h). */
static void idle_note(const struct live_job *j, struct live_result *r)
{
	char line[160];
	int tries = 1;

	/* The previous run's test bed dies in the kernel's cleanup_net work
	 * after it is closed, which keeps a CPU busy for a few hundred ms:
	 * look again, up to IDLE_CHECK_TRIES windows, before calling the
	 * machine busy. */
	idle_check_measure(&r->idle, j->rx_cpu, j->tx_cpu, IDLE_CHECK_WINDOW_NS);
	while (idle_check_busy(&r->idle) && tries++ < IDLE_CHECK_TRIES && !stopped(j))
		idle_check_measure(&r->idle, j->rx_cpu, j->tx_cpu, IDLE_CHECK_WINDOW_NS);
	idle_check_format(&r->idle, line, sizeof(line));
	fprintf(stderr, "rxlab live: %s: idle check: %s%s\n", rxl_mode_name(j->mode), line,
		tries > 1 ? " (the last of several windows)" : "");
	if (idle_check_busy(&r->idle))
		fprintf(stderr, "rxlab live: warning: %s: the receiver core (CPU %d) was only "
			"%.1f%% idle before the run (under %.0f%%): other work runs there, so this "
			"run's latencies include waiting behind it and its core%% counts it; the "
			"figures do not describe the receive path alone\n", rxl_mode_name(j->mode),
			j->rx_cpu, r->idle.rx_idle_pct, IDLE_CHECK_MIN_PCT);
}

int live_run(const struct live_job *j, struct live_result *r, char *err, size_t errlen)
{
	struct run run = { .j = j, .nq = 1 };
	int rc;

	for (int q = 0; q < LIVE_MAX_QUEUES; q++)
		run.rx_fd[q] = run.tx_fd[q] = -1;

	memset(r, 0, sizeof(*r));
	r->mode = j->mode;
	r->rx_cpu = j->rx_cpu;
	/* TPACKET and AF_XDP read frames below the socket layer; the UDP socket
	 * still bound on the port only keeps the kernel from answering with
	 * ICMP port unreachable, which would fail the sender's sends. */
	r->sink_only = j->mode == RXL_MODE_TPACKET || j->mode == RXL_MODE_AF_XDP;
	if ((rc = config_build(&run, err, errlen)) != 0)
		return rc;
	idle_note(j, r);
	if ((rc = device_setup(&run, err, errlen)) == 0 && (rc = rx_socket(&run, err, errlen)) == 0 &&
	    (rc = tx_socket(&run, err, errlen)) == 0 && (rc = apply_knobs(&run, r, err, errlen)) == 0 &&
	    (rc = open_loop(&run, err, errlen)) == 0) {
		counters_source(&run);
		rc = measure(&run, r, err, errlen);
	}
	run_undo(&run);
	return rc;
}
