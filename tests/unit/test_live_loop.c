/* test_live_loop.c - the live receive loop over UDP on 127.0.0.1 (no
 * privileges, no namespaces).
 *
 * A sender thread writes rxlab payloads (payload.h) to a socket bound to an
 * ephemeral port; the loop's callback stops the loop once it has the
 * expected count, and every run is capped at 10 s so that a broken mode
 * fails instead of hanging.  Assertions are on counts and on what the
 * modes did (sleeps, polls), never on how long anything took.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <errno.h>
#include <fcntl.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "live/payload.h"
#include "rxlab/live.h"

#define CAP_NS 10000000000ull

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u) };
	nanosleep(&ts, NULL);
}

static int rx_socket(struct sockaddr_in *addr)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	assert_true(fd >= 0);
	int big = 4 << 20;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof big);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	socklen_t len = sizeof(*addr);
	assert_int_equal(getsockname(fd, (struct sockaddr *)addr, &len), 0);
	return fd;
}

/* The sender: @count packets with sequence numbers from @first, a gap of
 * @gap_ns between them (0 = back to back), then @idle_ns of silence. */
struct sender {
	struct sockaddr_in to;
	uint64_t first, count, gap_ns;
	const uint64_t *seqs;  /* explicit sequence numbers instead, or NULL */
	volatile int done;
};

static void send_one(int fd, const struct sockaddr_in *to, uint64_t seq)
{
	uint8_t buf[64] = { 0 };
	struct rxl_payload p = { .seq = seq, .send_ns = now_ns() };
	rxl_payload_write(buf, &p);
	while (sendto(fd, buf, sizeof buf, 0, (const struct sockaddr *)to, sizeof *to) < 0)
		sleep_ns(10000); /* ENOBUFS on a busy loopback: retry */
}

/* Back to back in sendmmsg() bursts of 32. */
static void send_bursts(int fd, const struct sender *s)
{
	enum { B = 32 };
	uint8_t buf[B][64];
	struct iovec iov[B];
	struct mmsghdr m[B];
	for (uint64_t i = 0; i < s->count;) {
		unsigned n = s->count - i < B ? (unsigned)(s->count - i) : B;
		for (unsigned k = 0; k < n; k++) {
			struct rxl_payload p = { .seq = s->first + i + k, .send_ns = now_ns() };
			memset(buf[k], 0, sizeof buf[k]);
			rxl_payload_write(buf[k], &p);
			iov[k] = (struct iovec){ .iov_base = buf[k], .iov_len = sizeof buf[k] };
			m[k].msg_hdr = (struct msghdr){ .msg_name = (void *)&s->to,
				.msg_namelen = sizeof s->to, .msg_iov = &iov[k], .msg_iovlen = 1 };
		}
		int r = sendmmsg(fd, m, n, 0);
		if (r > 0)
			i += (unsigned)r;
		else
			sleep_ns(10000);
	}
}

static void *sender_main(void *arg)
{
	struct sender *s = arg;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	uint64_t next = now_ns();
	if (s->gap_ns == 0 && !s->seqs) {
		send_bursts(fd, s);
		close(fd);
		s->done = 1;
		return NULL;
	}
	for (uint64_t i = 0; i < s->count; i++) {
		if (s->gap_ns) {
			for (uint64_t t = now_ns(); t < next; t = now_ns())
				if (next - t > 60000)
					sleep_ns(next - t - 50000);
			next += s->gap_ns;
		}
		send_one(fd, &s->to, s->seqs ? s->seqs[i] : s->first + i);
	}
	close(fd);
	s->done = 1;
	return NULL;
}

/* The application: counts packets and stops the loop at `want`; records
 * the first packet's rx time and the time of the last callback. */
struct app {
	struct rxl_loop *loop;
	uint64_t got, want, max_batch;
	uint64_t min_batch;      /* smallest delivery before the stop (0 = none) */
	bool stopped;            /* rxl_stop() called: later deliveries are the flush */
	uint64_t first_rx_ns, last_cb_ns;
};

static void on_batch(void *arg, const struct rxl_pkt *pkts, size_t n)
{
	struct app *a = arg;
	assert_true(n >= 1);
	assert_non_null(pkts[n - 1].data);
	if (a->got == 0)
		a->first_rx_ns = pkts[0].rx_ns;
	a->last_cb_ns = now_ns();
	a->got += n;
	if (n > a->max_batch)
		a->max_batch = n;
	if (!a->stopped && (a->min_batch == 0 || n < a->min_batch))
		a->min_batch = n;
	if (a->want && a->got >= a->want) {
		a->stopped = true;
		rxl_stop(a->loop);
	}
}

static struct app last_app; /* of the last run_mode() */

static void *run_thread(void *loop)
{
	rxl_run(loop, CAP_NS);
	return NULL;
}

/* Run @mode (with key=value pairs @kv, NULL-terminated) against @count
 * packets sent with @gap_ns; returns the statistics. */
static struct rxl_stats run_mode(enum rxl_mode mode, const char *const *kv, uint64_t count,
				 uint64_t gap_ns)
{
	struct sockaddr_in addr;
	int fd = rx_socket(&addr);
	struct rxl_config cfg;
	char err[256] = "";
	rxl_config_default(&cfg, mode);
	for (; kv && kv[0]; kv += 2)
		assert_int_equal(rxl_config_set(&cfg, kv[0], kv[1], err, sizeof err), 0);
	struct app app = { .want = count };
	app.loop = rxl_open_udp(fd, &cfg, on_batch, &app, err, sizeof err);
	if (!app.loop)
		fail_msg("rxl_open_udp(%s): %s", rxl_mode_name(mode), err);
	struct sender s = { .to = addr, .count = count, .gap_ns = gap_ns };
	pthread_t th;
	pthread_create(&th, NULL, sender_main, &s);
	int rc = rxl_run(app.loop, CAP_NS);
	pthread_join(th, NULL);
	struct rxl_stats st;
	rxl_stats_get(app.loop, &st);
	rxl_close(app.loop);
	close(fd);
	assert_int_equal(rc, 0);
	assert_int_equal(app.got, st.packets);
	last_app = app;
	return st;
}

/* Every userspace mode and the unprivileged kernel modes receive all of
 * 300 packets at 10 kpps, in order, with exact accounting. */
static void test_all_modes_lossless_low_rate(void **state)
{
	(void)state;
	static const enum rxl_mode modes[] = {
		RXL_MODE_INTERRUPT, RXL_MODE_COALESCE, RXL_MODE_NAPI, RXL_MODE_DIM, RXL_MODE_ITR,
		RXL_MODE_BSD_POLL, RXL_MODE_BUSY, RXL_MODE_HYBRID, RXL_MODE_DPDK_POWER,
		RXL_MODE_IXY, RXL_MODE_SEASTAR, RXL_MODE_EPOLL, RXL_MODE_THREADED,
	};
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		struct rxl_stats st = run_mode(modes[i], NULL, 300, 100000);
		if (st.packets != 300 || st.seq_lost != 0 || st.payload_packets != 300)
			fail_msg("%s: packets %llu lost %llu payload %llu", rxl_mode_name(modes[i]),
				 (unsigned long long)st.packets, (unsigned long long)st.seq_lost,
				 (unsigned long long)st.payload_packets);
		assert_int_equal(st.seq_next, 300);
		assert_int_equal(st.seq_reordered, 0);
		assert_int_equal(st.latency.n, 300);
		assert_true(st.latency.min >= 0);
		assert_true(st.polls >= st.deliveries);
		assert_true(st.cpu_user_ns + st.cpu_sys_ns > 0);
	}
}

/* The busy-polling socket modes set SO_BUSY_POLL and friends, which needs
 * CAP_NET_ADMIN above net.core.busy_poll: run as root only.  Over loopback
 * there is no NAPI to busy-poll, so this checks the plumbing and the
 * accounting, not the kernel's polling. */
static void test_kernel_socket_modes_lossless(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();
	static const enum rxl_mode modes[] = {
		RXL_MODE_SO_BUSY_POLL, RXL_MODE_PREFER_BUSY, RXL_MODE_IRQ_SUSPEND,
	};
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		struct rxl_stats st = run_mode(modes[i], NULL, 300, 100000);
		if (st.packets != 300 || st.seq_lost != 0)
			fail_msg("%s: packets %llu lost %llu", rxl_mode_name(modes[i]),
				 (unsigned long long)st.packets, (unsigned long long)st.seq_lost);
		assert_true(st.wakeups >= 1);
	}
}

/* coalesce with rx-usecs 0: the frame threshold alone fires, so every
 * delivery has at least rx-frames packets.  The application stops after
 * 193 of 200: a remainder below 8 would never fire (as on a NIC with
 * rx-usecs 0); rxl_run() flushes what is staged when it returns. */
static void test_coalesce_frames_threshold(void **state)
{
	(void)state;
	static const char *const kv[] = { "rx-usecs", "0", "rx-frames", "8", NULL };
	struct sockaddr_in addr;
	int fd = rx_socket(&addr);
	struct rxl_config cfg;
	char err[256];
	rxl_config_default(&cfg, RXL_MODE_COALESCE);
	for (const char *const *p = kv; *p; p += 2)
		assert_int_equal(rxl_config_set(&cfg, p[0], p[1], err, sizeof err), 0);
	struct app app = { .want = 193 };
	app.loop = rxl_open_udp(fd, &cfg, on_batch, &app, err, sizeof err);
	assert_non_null(app.loop);
	struct sender s = { .to = addr, .count = 200, .gap_ns = 50000 };
	pthread_t th;
	pthread_create(&th, NULL, sender_main, &s);
	assert_int_equal(rxl_run(app.loop, CAP_NS), 0);
	pthread_join(th, NULL);
	struct rxl_stats st;
	rxl_stats_get(app.loop, &st);
	rxl_close(app.loop);
	close(fd);
	assert_true(app.got >= 193);
	assert_true(app.min_batch >= 8);
	assert_true(st.deliveries <= 200 / 8 + 1);
}

/* coalesce with rx-usecs: after the first packet the loop sleeps on the
 * timer, so deliveries come from timer wake-ups and carry several
 * packets at 50 kpps with rx-usecs 1000. */
static void test_coalesce_usecs_timer(void **state)
{
	(void)state;
	static const char *const kv[] = { "rx-usecs", "1000", "rx-frames", "1024", NULL };
	struct rxl_stats st = run_mode(RXL_MODE_COALESCE, kv, 400, 20000);
	assert_int_equal(st.packets, 400);
	assert_true(st.timer_wakeups >= st.deliveries - 1);
	assert_true(hist_mean(&st.batch) > 4.0);
}

/* itr with a fixed InterruptThrottleRate of 1000 ints/s: deliveries are at
 * least 1 ms apart (coalesce.h min_gap_ns), so N deliveries span at least
 * (N - 1) ms between the first packet and the last callback. */
static void test_itr_min_gap(void **state)
{
	(void)state;
	static const char *const kv[] = { "itr", "1000", NULL };
	struct rxl_stats st = run_mode(RXL_MODE_ITR, kv, 300, 20000);
	assert_int_equal(st.packets, 300);
	uint64_t span = last_app.last_cb_ns - last_app.first_rx_ns;
	assert_true(st.deliveries >= 2);
	assert_true((st.deliveries - 1) * 1000000u <= span);
	assert_true(hist_mean(&st.batch) > 2.0);
}

/* dim: net_dim decides once per 64 deliveries and leaves its start
 * profile on its first decision (the previous window's rates are 0, so the
 * first comparison is BETTER), so 129 deliveries change it; 2000 packets
 * 200 us apart give that many even when a loaded machine batches some. */
static void test_dim_retunes(void **state)
{
	(void)state;
	struct rxl_stats st = run_mode(RXL_MODE_DIM, NULL, 2000, 200000);
	print_message("dim: %llu deliveries, %llu profile changes\n",
		      (unsigned long long)st.deliveries, (unsigned long long)st.moderation_changes);
	assert_int_equal(st.packets, 2000);
	assert_true(st.deliveries >= 2 * 64 + 1);
	assert_true(st.moderation_changes >= 1);
}

static int get_int_opt(int fd, int opt)
{
	int v = -1;
	socklen_t len = sizeof v;
	assert_int_equal(getsockopt(fd, SOL_SOCKET, opt, &v, &len), 0);
	return v;
}

/* rxl_close() puts back every socket option and the file flags it changed
 * (root: SO_BUSY_POLL above net.core.busy_poll needs CAP_NET_ADMIN). */
static void test_close_restores_socket(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();
	static const enum rxl_mode modes[] = { RXL_MODE_SO_BUSY_POLL, RXL_MODE_PREFER_BUSY };
	for (size_t i = 0; i < 2; i++) {
		struct sockaddr_in addr;
		int fd = rx_socket(&addr);
		int rcvbuf = get_int_opt(fd, SO_RCVBUF), fl = fcntl(fd, F_GETFL);
		struct rxl_config cfg;
		char err[256];
		rxl_config_default(&cfg, modes[i]);
		assert_int_equal(rxl_config_set(&cfg, "rcvbuf", "65536", err, sizeof err), 0);
		assert_int_equal(rxl_config_set(&cfg, "busy-poll-usecs", "77", err, sizeof err), 0);
		struct app app = { 0 };
		app.loop = rxl_open_udp(fd, &cfg, on_batch, &app, err, sizeof err);
		if (!app.loop)
			fail_msg("%s: %s", rxl_mode_name(modes[i]), err);
		assert_int_equal(get_int_opt(fd, SO_BUSY_POLL), 77);
		assert_int_equal(get_int_opt(fd, SO_RCVBUF), 2 * 65536);
		rxl_close(app.loop);
		assert_int_equal(get_int_opt(fd, SO_BUSY_POLL), 0);
		assert_int_equal(get_int_opt(fd, SO_RCVBUF), rcvbuf);
		assert_int_equal(get_int_opt(fd, SO_PREFER_BUSY_POLL), 0);
		struct timeval tv;
		socklen_t len = sizeof tv;
		assert_int_equal(getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, &len), 0);
		assert_int_equal(tv.tv_sec, 0);
		assert_int_equal(tv.tv_usec, 0);
		assert_int_equal(fcntl(fd, F_GETFL), fl);
		close(fd);
	}
}

/* What each mode does, from its counters, at 5 kpps (200 packets):
 *   interrupt   one poll per readiness wake-up, nothing else;
 *   bsd-poll    no readiness wake-ups at all, only clock ticks, and no poll
 *               larger than each-burst;
 *   dpdk-power  every sleep comes after 300 empty polls, 289 of them
 *               paused;
 *   ixy         below 1.2 Mpps (and before its first 1 s sample) it sleeps
 *               before every batch: one poll per sleep. */
static void test_mode_structure(void **state)
{
	(void)state;
	struct rxl_stats st = run_mode(RXL_MODE_INTERRUPT, NULL, 200, 200000);
	assert_int_equal(st.polls, st.wakeups);
	assert_int_equal(st.timer_wakeups, 0);
	assert_int_equal(st.pauses, 0);

	static const char *const bsd[] = { "each-burst", "3", NULL };
	st = run_mode(RXL_MODE_BSD_POLL, bsd, 200, 200000);
	assert_int_equal(st.wakeups, 0);
	assert_true(st.timer_wakeups > 0);
	assert_true(st.batch.max <= 3);

	st = run_mode(RXL_MODE_DPDK_POWER, NULL, 200, 200000);
	assert_true(st.pauses >= 289 * st.sleeps);
	assert_true(st.empty_polls >= 300 * st.sleeps);

	st = run_mode(RXL_MODE_IXY, NULL, 200, 200000);
	assert_int_equal(st.polls, st.sleeps);
	assert_int_equal(st.mode_switches, 0);
}

/* busy never sleeps, and polls far more often than packets come. */
static void test_busy_never_sleeps(void **state)
{
	(void)state;
	struct rxl_stats st = run_mode(RXL_MODE_BUSY, NULL, 200, 200000);
	assert_int_equal(st.packets, 200);
	assert_int_equal(st.sleeps, 0);
	assert_int_equal(st.wakeups, 0);
	assert_true(st.empty_polls > st.packets);
}

/* Like run_mode() with @count packets already queued on the socket when
 * the loop starts: what the loop finds does not depend on how the sender
 * and the receiver were scheduled (a machine busy with other work can let
 * a back-to-back sender's receiver keep up, one packet per wake-up). */
static struct rxl_stats run_mode_queued(enum rxl_mode mode, uint64_t count)
{
	struct sockaddr_in addr;
	int fd = rx_socket(&addr), tx = socket(AF_INET, SOCK_DGRAM, 0);
	struct rxl_config cfg;
	char err[256] = "";
	struct app app = { .want = count };
	struct rxl_stats st;

	assert_true(tx >= 0);
	for (uint64_t i = 0; i < count; i++)
		send_one(tx, &addr, i);
	close(tx);
	rxl_config_default(&cfg, mode);
	app.loop = rxl_open_udp(fd, &cfg, on_batch, &app, err, sizeof err);
	if (!app.loop)
		fail_msg("rxl_open_udp(%s): %s", rxl_mode_name(mode), err);
	assert_int_equal(rxl_run(app.loop, CAP_NS), 0);
	rxl_stats_get(app.loop, &st);
	rxl_close(app.loop);
	close(fd);
	assert_int_equal(app.got, count);
	return st;
}

/* napi: packets per delivery grow with the rate.  At one packet per 5 ms
 * a wake-up finds about one packet (more only when the receiver was kept
 * off the CPU); with 2000 waiting (the socket holds 4 MiB), every poll
 * finds a full batch. */
static void test_napi_batches_grow_with_rate(void **state)
{
	(void)state;
	struct rxl_stats slow = run_mode(RXL_MODE_NAPI, NULL, 60, 5000000);
	struct rxl_stats fast = run_mode_queued(RXL_MODE_NAPI, 2000);
	double slow_mean = hist_mean(&slow.batch), fast_mean = hist_mean(&fast.batch);
	print_message("napi packets per delivery: %.2f slow, %.2f fast\n", slow_mean, fast_mean);
	assert_true(fast_mean > 2.0 * slow_mean);
}

/* napi with deferral: after a productive poll the loop polls again on the
 * timer instead of waiting for readiness (napi_defer_hard_irqs 2,
 * gro_flush_timeout 200 us), so some polls are timer-driven. */
static void test_napi_deferral_uses_timer(void **state)
{
	(void)state;
	static const char *const kv[] = { "napi-defer-hard-irqs", "2",
					  "napi-gro-flush-timeout", "200us", NULL };
	struct rxl_stats plain = run_mode(RXL_MODE_NAPI, NULL, 200, 500000);
	struct rxl_stats def = run_mode(RXL_MODE_NAPI, kv, 200, 500000);
	assert_int_equal(def.packets, 200);
	assert_int_equal(plain.timer_wakeups, 0);
	/* every readiness wake-up but the last (whose packet stopped the
	 * loop) is followed by at least 2 timer polls before the re-arm */
	assert_true(def.wakeups >= 1);
	assert_true(def.timer_wakeups >= 2 * (def.wakeups - 1));
	assert_true(def.timer_wakeups > 0);
}

/* A hybrid loop with @cfg receives 5000 packets 20 us apart; *load is read
 * when the sender is done (with @drain, once every packet is in, up to
 * 2 s later), *idle1 100 ms and *idle2 200 ms after that. */
static void hybrid_phases(const struct rxl_config *cfg, bool drain, struct rxl_stats *load,
			  struct rxl_stats *idle1, struct rxl_stats *idle2)
{
	struct sockaddr_in addr;
	int fd = rx_socket(&addr);
	char err[256];
	struct app app = { .want = 0 };
	app.loop = rxl_open_udp(fd, cfg, on_batch, &app, err, sizeof err);
	assert_non_null(app.loop);
	struct sender s = { .to = addr, .count = 5000, .gap_ns = 20000 };
	pthread_t rx, tx;
	pthread_create(&tx, NULL, sender_main, &s);
	pthread_create(&rx, NULL, run_thread, app.loop);
	pthread_join(tx, NULL);
	rxl_stats_get(app.loop, load);
	for (int i = 0; drain && load->packets < 5000 && i < 200; i++) {
		sleep_ns(10000000);   /* the last nap's packets */
		rxl_stats_get(app.loop, load);
	}
	sleep_ns(100000000);
	rxl_stats_get(app.loop, idle1);
	sleep_ns(100000000);
	rxl_stats_get(app.loop, idle2);
	rxl_stop(app.loop);
	pthread_join(rx, NULL);
	rxl_close(app.loop);
	close(fd);
}

/* hybrid: under load it spins (empty polls between packets, few sleeps);
 * when the sender stops it goes to sleep and stops polling. */
static void test_hybrid_spins_then_sleeps(void **state)
{
	(void)state;
	struct rxl_config cfg;
	char err[256];
	rxl_config_default(&cfg, RXL_MODE_HYBRID);
	/* wake-ups priced at 1 ms: a 20 us gap is worth spinning for, on
	 * any machine, and a nap (50 us by default) shorter than a wake-up
	 * does not pay, so it spins rather than naps */
	assert_int_equal(rxl_config_set(&cfg, "wake-cost", "1ms", err, sizeof err), 0);
	struct rxl_stats load, idle1, idle2;
	hybrid_phases(&cfg, false, &load, &idle1, &idle2);
	print_message("hybrid under load: %llu packets, %llu polls, %llu sleeps\n",
		      (unsigned long long)load.packets, (unsigned long long)load.polls,
		      (unsigned long long)load.sleeps);
	/* Spinning: polls that follow polls, not sleeps.  (Counted in
	 * decisions, not CPU time: on a loaded machine the spinner may be off
	 * the CPU, but it still does not choose to sleep.) */
	assert_true(load.packets > 2500);
	assert_true(load.polls > 4 * load.sleeps);
	assert_true(load.sleeps * 4 < load.packets);
	assert_true(idle1.sleeps >= 1);
	assert_int_equal(idle2.polls, idle1.polls);       /* asleep: no polls at all */
	assert_true(idle1.mode_switches >= 2);
}

/* hybrid with naps: wake-ups priced at 100 us and naps of up to 1 ms,
 * packets every 20 us (faster than a wake-up costs, on any machine).  It
 * naps on a timer and takes the packets of each nap in one batch (far
 * fewer sleeps than packets); with spin-max 0 it never spins (a sender
 * delayed by a loaded machine sends bursts, whose tiny gaps would make
 * rule 3 spin), so every poll follows a sleep, a nap or a full poll; once
 * the sender stops it sleeps on readiness and stops polling. */
static void test_hybrid_naps(void **state)
{
	(void)state;
	struct rxl_config cfg;
	char err[256];
	rxl_config_default(&cfg, RXL_MODE_HYBRID);
	assert_int_equal(rxl_config_set(&cfg, "wake-cost", "100us", err, sizeof err), 0);
	assert_int_equal(rxl_config_set(&cfg, "nap-max", "1ms", err, sizeof err), 0);
	assert_int_equal(rxl_config_set(&cfg, "spin-max", "0", err, sizeof err), 0);
	struct rxl_stats load, idle1, idle2;
	hybrid_phases(&cfg, true, &load, &idle1, &idle2);
	print_message("hybrid naps: %llu packets, %llu polls, %llu sleeps, %llu timer wake-ups, "
		      "%llu full polls\n", (unsigned long long)load.packets,
		      (unsigned long long)load.polls, (unsigned long long)load.sleeps,
		      (unsigned long long)load.timer_wakeups, (unsigned long long)load.full_polls);
	assert_int_equal(load.packets, 5000);
	assert_true(load.timer_wakeups > 0);
	assert_true(load.sleeps * 4 < load.packets);
	assert_true(load.polls <= load.sleeps + load.full_polls + 1);
	assert_true(idle1.sleeps >= 1);
	assert_int_equal(idle2.polls, idle1.polls);       /* asleep: no polls at all */
}

/* Loss and reordering from the sequence numbers. */
static void test_sequence_accounting(void **state)
{
	(void)state;
	static const uint64_t seqs[] = { 0, 1, 2, 5, 4, 6 };
	struct sockaddr_in addr;
	int fd = rx_socket(&addr);
	struct rxl_config cfg;
	char err[256];
	rxl_config_default(&cfg, RXL_MODE_EPOLL);
	struct app app = { .want = 6 };
	app.loop = rxl_open_udp(fd, &cfg, on_batch, &app, err, sizeof err);
	assert_non_null(app.loop);
	struct sender s = { .to = addr, .count = 6, .seqs = seqs };
	sender_main(&s);
	assert_int_equal(rxl_run(app.loop, CAP_NS), 0);
	struct rxl_stats st;
	rxl_stats_get(app.loop, &st);
	rxl_close(app.loop);
	close(fd);
	assert_int_equal(st.packets, 6);
	assert_int_equal(st.seq_next, 7);
	assert_int_equal(st.seq_lost, 1);      /* 3 never came; 4 came late */
	assert_int_equal(st.seq_reordered, 1);
}

/* Every packet sent ends in exactly one counter: received or dropped by
 * the socket.  1000 packets are sent into a socket buffer of a few KiB
 * before the loop runs. */
static void test_socket_drops_accounted(void **state)
{
	(void)state;
	struct sockaddr_in addr;
	int fd = rx_socket(&addr);
	int small = 4096;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
	struct rxl_config cfg;
	char err[256];
	rxl_config_default(&cfg, RXL_MODE_NAPI);
	struct app app = { 0 };
	app.loop = rxl_open_udp(fd, &cfg, on_batch, &app, err, sizeof err);
	assert_non_null(app.loop);
	struct sender s = { .to = addr, .count = 1000, .gap_ns = 0 };
	sender_main(&s);
	assert_int_equal(rxl_run(app.loop, 100000000), 0);
	struct rxl_stats st;
	rxl_stats_get(app.loop, &st);
	rxl_close(app.loop);
	close(fd);
	assert_true(st.source_drops > 0);
	assert_int_equal(st.packets + st.source_drops, 1000);
	assert_int_equal(st.seq_lost + (1000 - st.seq_next), st.source_drops);
}

/* Statistics while the loop runs: a spinning loop that neither sleeps nor
 * delivers still refreshes its CPU figures. */
static void test_stats_while_running(void **state)
{
	(void)state;
	struct sockaddr_in addr;
	int fd = rx_socket(&addr);
	struct rxl_config cfg;
	char err[256];
	rxl_config_default(&cfg, RXL_MODE_BUSY);
	struct app app = { 0 };
	app.loop = rxl_open_udp(fd, &cfg, on_batch, &app, err, sizeof err);
	assert_non_null(app.loop);
	pthread_t rx;
	pthread_create(&rx, NULL, run_thread, app.loop);
	struct rxl_stats st;
	for (int i = 0; i < 500; i++) { /* up to 5 s of CPU time for the spinner */
		sleep_ns(10000000);
		rxl_stats_get(app.loop, &st);
		if (st.cpu_user_ns + st.cpu_sys_ns > 0)
			break;
	}
	rxl_stop(app.loop);
	pthread_join(rx, NULL);
	rxl_close(app.loop);
	close(fd);
	assert_true(st.polls > 0);
	assert_true(st.cpu_user_ns + st.cpu_sys_ns > 0);
	assert_int_equal(st.run_ns, 0); /* run_ns is counted when rxl_run() returns */
}

/* Why a snapshot @st is not a state the loop was in, given the previous
 * one @prev (NULL: none), or NULL when it is consistent.  Every packet of
 * the sender is 64 bytes with a payload; a delivery adds one batch sample
 * and its packets to packets, bytes and the latency histogram at once. */
static const char *stats_inconsistency(const struct rxl_stats *st, const struct rxl_stats *prev)
{
	uint64_t nb = 0, nl = 0;
	for (size_t i = 0; i < HIST_BUCKETS; i++) {
		nb += st->batch.count[i];
		nl += st->latency.count[i];
	}
	if (st->payload_packets > st->packets)
		return "payload_packets > packets";
	if (st->bytes != 64 * st->packets)
		return "bytes != 64 x packets";
	if (st->batch.n != st->deliveries || nb != st->batch.n)
		return "batch histogram != deliveries";
	if (st->latency.n != st->payload_packets || nl != st->latency.n)
		return "latency histogram != payload_packets";
	if (st->deliveries > st->polls || st->empty_polls + st->full_polls > st->polls)
		return "more deliveries or empty/full polls than polls";
	if (prev && (st->packets < prev->packets || st->polls < prev->polls ||
		     st->deliveries < prev->deliveries || st->sleeps < prev->sleeps))
		return "a counter went back";
	return NULL;
}

/* Snapshots read while the loop runs are each a state the loop was in
 * (stats_inconsistency()), whatever the mode: a busy one publishes while
 * it polls, napi before each sleep.  The reader takes snapshots as fast as
 * it can from the main thread; the loop runs in another. */
static void test_stats_consistent_while_read(void **state)
{
	(void)state;
	static struct rxl_stats snap[2]; /* about 120 KB each: off the stack */
	static const enum rxl_mode modes[] = { RXL_MODE_BUSY, RXL_MODE_NAPI };
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		struct sockaddr_in addr;
		int fd = rx_socket(&addr);
		struct rxl_config cfg;
		char err[256];
		rxl_config_default(&cfg, modes[m]);
		struct app app = { .want = 20000 };
		app.loop = rxl_open_udp(fd, &cfg, on_batch, &app, err, sizeof err);
		assert_non_null(app.loop);
		struct sender s = { .to = addr, .count = 20000, .gap_ns = 0 };
		pthread_t rx, tx;
		pthread_create(&rx, NULL, run_thread, app.loop);
		pthread_create(&tx, NULL, sender_main, &s);
		uint64_t reads = 0, moving = 0;
		const struct rxl_stats *prev = NULL;
		for (uint64_t t0 = now_ns(); now_ns() - t0 < 2 * CAP_NS; reads++) {
			struct rxl_stats *st = &snap[reads % 2];
			rxl_stats_get(app.loop, st);
			const char *why = stats_inconsistency(st, prev);
			if (why)
				fail_msg("%s, snapshot %llu: %s (packets %llu bytes %llu payload %llu "
					 "deliveries %llu batch.n %llu latency.n %llu polls %llu)",
					 rxl_mode_name(modes[m]), (unsigned long long)reads, why,
					 (unsigned long long)st->packets, (unsigned long long)st->bytes,
					 (unsigned long long)st->payload_packets,
					 (unsigned long long)st->deliveries,
					 (unsigned long long)st->batch.n,
					 (unsigned long long)st->latency.n,
					 (unsigned long long)st->polls);
			if (prev && st->packets != prev->packets)
				moving++;
			prev = st;
			if (st->run_ns > 0) /* counted when rxl_run() returned */
				break;
		}
		pthread_join(tx, NULL);
		pthread_join(rx, NULL);
		rxl_close(app.loop);
		close(fd);
		print_message("%s: %llu snapshots, %llu of them with new packets\n",
			      rxl_mode_name(modes[m]), (unsigned long long)reads,
			      (unsigned long long)moving);
		assert_int_equal(prev->packets, app.got);
		assert_true(moving >= 2); /* read while packets came in, not just before and after */
	}
}

/* A receive error that cannot go away ends rxl_run() with it. */
static void test_fatal_error_ends_run(void **state)
{
	(void)state;
	struct sockaddr_in addr;
	int fd = rx_socket(&addr);
	struct rxl_config cfg;
	char err[256];
	rxl_config_default(&cfg, RXL_MODE_BUSY);
	struct app app = { 0 };
	app.loop = rxl_open_udp(fd, &cfg, on_batch, &app, err, sizeof err);
	assert_non_null(app.loop);
	close(fd);
	assert_int_equal(rxl_run(app.loop, CAP_NS), -EBADF);
	struct rxl_stats st;
	rxl_stats_get(app.loop, &st);
	assert_int_equal(st.errors, 1);
	rxl_close(app.loop);
}

/* rxl_run() with a duration returns with nothing sent; a stop requested
 * before rxl_run() makes it return at once. */
static void test_duration_and_early_stop(void **state)
{
	(void)state;
	struct sockaddr_in addr;
	int fd = rx_socket(&addr);
	struct rxl_config cfg;
	char err[256];
	rxl_config_default(&cfg, RXL_MODE_INTERRUPT);
	struct app app = { 0 };
	app.loop = rxl_open_udp(fd, &cfg, on_batch, &app, err, sizeof err);
	assert_non_null(app.loop);
	assert_int_equal(rxl_run(app.loop, 20000000), 0);
	struct rxl_stats st;
	rxl_stats_get(app.loop, &st);
	assert_int_equal(st.packets, 0);
	assert_true(st.run_ns >= 20000000);
	rxl_stop(app.loop);
	assert_int_equal(rxl_run(app.loop, 0), 0);
	rxl_close(app.loop);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_modes_lossless_low_rate),
		cmocka_unit_test(test_kernel_socket_modes_lossless),
		cmocka_unit_test(test_coalesce_frames_threshold),
		cmocka_unit_test(test_coalesce_usecs_timer),
		cmocka_unit_test(test_itr_min_gap),
		cmocka_unit_test(test_dim_retunes),
		cmocka_unit_test(test_mode_structure),
		cmocka_unit_test(test_close_restores_socket),
		cmocka_unit_test(test_busy_never_sleeps),
		cmocka_unit_test(test_napi_batches_grow_with_rate),
		cmocka_unit_test(test_napi_deferral_uses_timer),
		cmocka_unit_test(test_hybrid_spins_then_sleeps),
		cmocka_unit_test(test_hybrid_naps),
		cmocka_unit_test(test_sequence_accounting),
		cmocka_unit_test(test_socket_drops_accounted),
		cmocka_unit_test(test_stats_while_running),
		cmocka_unit_test(test_stats_consistent_while_read),
		cmocka_unit_test(test_fatal_error_ends_run),
		cmocka_unit_test(test_duration_and_early_stop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
