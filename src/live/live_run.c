/* live_run.c - one live measurement (see live_run.h for the order). */
#define _GNU_SOURCE
#include "live/live_run.h"

#include <arpa/inet.h>
#include <errno.h>
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
#include "rxlab/scheme.h"
#include "live/testbed.h"

#define DRAIN_MAX_NS 200000000	/* wait at most this long for the last packets */
#define DRAIN_STEP_NS 5000000
#define FIFO_PRIO 10
#define START_SETTLE_NS 2000000	/* after the receive thread is up */

/* Everything a run holds, released by run_undo() in reverse. */
struct run {
	const struct live_job *j;
	struct testbed tb;
	bool have_tb;
	struct knob_dev dev;
	struct knobs knobs;
	int rx_fd, tx_fd;
	struct rxl_config cfg;
	struct rxl_loop *loop;
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

/* Kernels before threaded busy polling reject threaded = 2 (ERANGE from
 * the netlink policy): run the threaded mode with threaded = 1 then, and
 * say so. */
static bool threaded_fallback(struct run *run, struct live_knob *k)
{
	char e[256];

	if (k->k != KNOB_THREADED || k->v != 2 || run->j->n_knobs > 0 ||
	    knobs_set(&run->knobs, KNOB_THREADED, 1, e, sizeof(e)))
		return false;
	fprintf(stderr, "rxlab live: note: this kernel has no threaded busy polling "
		"(threaded = 2); threaded mode runs with threaded = 1\n");
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

static int rx_socket(struct run *run, char *err, size_t errlen)
{
	const struct live_job *j = run->j;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(j->port) };
	int ns = run->have_tb ? run->tb.ns_rx : -1;

	a.sin_addr = run->have_tb ? run->tb.rx_addr : (struct in_addr){ htonl(INADDR_ANY) };
	run->rx_fd = socket_in(ns, AF_INET, SOCK_DGRAM, 0);
	if (run->rx_fd < 0 ||
	    (j->iface && setsockopt(run->rx_fd, SOL_SOCKET, SO_BINDTODEVICE, j->iface,
				    (socklen_t)strlen(j->iface)) != 0) ||
	    bind(run->rx_fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		snprintf(err, errlen, "receive socket on port %u: %s", j->port, strerror(errno));
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

	if (!run->have_tb && strcmp(j->iface, "lo") != 0)
		return 0;
	a.sin_addr = run->have_tb ? run->tb.rx_addr : (struct in_addr){ htonl(INADDR_LOOPBACK) };
	run->tx_fd = socket_in(run->have_tb ? run->tb.ns_tx : -1, AF_INET, SOCK_DGRAM, 0);
	if (run->tx_fd < 0 || connect(run->tx_fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
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
		run->loop = rxl_open_udp(run->rx_fd, &run->cfg, on_batch, NULL, err, errlen);
		return run->loop ? 0 : 1;
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
		run->loop = rxl_open_tpacket(run->dev.ifindex, &run->cfg, on_batch, NULL, err, errlen);
	else
		run->loop = rxl_open_xdp(run->dev.ifname, 0, &run->cfg, on_batch, NULL, err, errlen);
	if (run->have_tb && testbed_enter(&run->tb, TESTBED_HOME) != 0)
		__builtin_trap();	/* the main thread cannot stay in the test bed */
	return run->loop ? 0 : 1;
}

/* ---- set up and undo ---------------------------------------------------- */

/* hybrid's wake-cost, unless --set gives one: what a sleep and wake-up of
 * the receive thread costs on this machine, as `rxlab live calibrate`
 * measured it (profile veth-host): the thread's own cost (ctx-switch) and
 * the core's leaving its idle state (idle-exit), which spinning avoids.
 * The library's default is a guess for machines nobody measured. */
static void calibrated_wake_cost(struct rxl_config *cfg)
{
	struct profile p;
	char err[256];

	if (profile_load(&p, "veth-host", err, sizeof(err)) == 0 &&
	    p.ctx_switch_ns + p.idle_exit_ns >= 1000)
		cfg->wake_cost_ns = (uint64_t)(p.ctx_switch_ns + p.idle_exit_ns);
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

static int device_setup(struct run *run, char *err, size_t errlen)
{
	const struct live_job *j = run->j;
	struct testbed_opts o = { .rx_cpu = j->rx_cpu, .tx_cpu = j->tx_cpu, .napi = true,
				  .threaded = j->threaded, .napi_prio = FIFO_PRIO };

	run->dev.ns_fd = -1;
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
					  .rx_ifindex = run->dev.ifindex, .sock_fd = run->rx_fd };
	if (run->have_tb) {
		run->src.tx_ns = run->tb.ns_tx;
		run->src.tx_ifindex = run->tb.tx_ifindex;
	}
	if (knob_napi_list(&run->dev, &id, &pid, 1) == 1 && pid > 0)
		run->src.napi_pid = pid;
}

static void run_undo(struct run *run)
{
	char e[256];

	rxl_close(run->loop);
	run->loop = NULL;
	if (knobs_restore(&run->knobs, e, sizeof(e)))
		fprintf(stderr, "rxlab: restoring device settings: %s\n", e);
	if (run->tx_fd >= 0)
		close(run->tx_fd);
	if (run->rx_fd >= 0)
		close(run->rx_fd);
	run->tx_fd = run->rx_fd = -1;
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

/* Wait for the sender (or a signal), read the counters into @sent, then
 * wait for the last packets to land. */
static void wait_traffic(struct run *run, struct sender *s, struct live_result *r,
			 struct counters *sent)
{
	struct rxl_stats st;
	int64_t until;

	while (!sender_done(s)) {
		if (stopped(run->j))
			sender_stop(s);
		sleep_ns(DRAIN_STEP_NS);
	}
	sender_join(s, &r->tx);
	counters_read(sent, &run->src);
	until = mono_ns() + DRAIN_MAX_NS;
	do {
		sleep_ns(DRAIN_STEP_NS);
		rxl_stats_get(run->loop, &st);
	} while (st.payload_packets < r->tx.sent && mono_ns() < until && !stopped(run->j));
}

static int measure(struct run *run, struct live_result *r, char *err, size_t errlen)
{
	/* The scheduling class the mode is designed for (live.h): SCHED_FIFO
	 * for the modes that sleep and hybrid, SCHED_OTHER for the spinners,
	 * which would starve the FIFO NAPI kthread on their CPU. */
	struct rx_thread x = { .loop = run->loop, .cpu = run->j->rx_cpu,
			       .want_fifo = rxl_mode_sched_fifo(run->j->mode) };
	struct sender_config sc = run->j->snd;
	struct counters before, sent, after;
	struct sender *s = NULL;

	sc.cpu = run->j->tx_cpu;
	counters_read(&before, &run->src);
	if (pthread_create(&x.t, NULL, rx_main, &x) != 0) {
		snprintf(err, errlen, "cannot start the receive thread");
		return 1;
	}
	/* The first packets must find the loop running, not a thread still
	 * migrating to its CPU. */
	while (!atomic_load(&x.ready))
		sleep_ns(100000);
	run->src.rx_tid = x.tid;
	sleep_ns(START_SETTLE_NS);
	if (run->tx_fd >= 0 && (s = sender_start(run->tx_fd, &sc, err, errlen)) == NULL) {
		rxl_stop(run->loop);
		pthread_join(x.t, NULL);
		return 2;
	}
	if (s) {
		wait_traffic(run, s, r, &sent);
	} else {
		while (!stopped(run->j) && mono_ns() < before.t_ns + sc.duration_ns)
			sleep_ns(DRAIN_STEP_NS);
		counters_read(&sent, &run->src);
	}
	rxl_stop(run->loop);
	pthread_join(x.t, NULL);
	run->src.rx_tid = 0;	/* gone: its schedstat with it */
	counters_read(&after, &run->src);
	counters_diff(&r->d, &after, &before);
	counters_diff(&r->d_sent, &sent, &before);
	rxl_stats_get(run->loop, &r->rx);
	r->sender = s != NULL;
	r->fifo = x.fifo;
	r->napi_kthread = run->src.napi_pid > 0;
	/* Rates are per second of the planned sending time, or of the time
	 * actually sent when a signal cut the run short. */
	if (s && stopped(run->j) && r->tx.end_ns > r->tx.start_ns)
		r->dur_s = (double)(r->tx.end_ns - r->tx.start_ns) / 1e9;
	else
		r->dur_s = s ? (double)sc.duration_ns / 1e9 : (double)r->d.t_ns / 1e9;
	if (x.rc < 0) {
		snprintf(err, errlen, "receive loop: %s", strerror(-x.rc));
		return 1;
	}
	return 0;
}

/* How idle the two cores were before the run: printed, and a warning
 * with the figure when the receiver core was too busy (idle_check.h). */
static void idle_note(const struct live_job *j, struct live_result *r)
{
	char line[160];

	idle_check_measure(&r->idle, j->rx_cpu, j->tx_cpu, IDLE_CHECK_WINDOW_NS);
	idle_check_format(&r->idle, line, sizeof(line));
	fprintf(stderr, "rxlab live: %s: idle check: %s\n", rxl_mode_name(j->mode), line);
	if (idle_check_busy(&r->idle))
		fprintf(stderr, "rxlab live: warning: %s: the receiver core (CPU %d) was only "
			"%.1f%% idle before the run (under %.0f%%): other work runs there, so this "
			"run's latencies include waiting behind it and its core%% counts it; the "
			"figures do not describe the receive path alone\n", rxl_mode_name(j->mode),
			j->rx_cpu, r->idle.rx_idle_pct, IDLE_CHECK_MIN_PCT);
}

int live_run(const struct live_job *j, struct live_result *r, char *err, size_t errlen)
{
	struct run run = { .j = j, .rx_fd = -1, .tx_fd = -1 };
	int rc;

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
