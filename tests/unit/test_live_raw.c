/* test_live_raw.c - the TPACKET_V3 and AF_XDP sources on the loopback
 * interface of a private network namespace.
 *
 * Needs root (CAP_NET_RAW, CAP_NET_ADMIN, CAP_BPF): skipped otherwise.
 * main() moves the process into a new network namespace with
 * unshare(CLONE_NEWNET) and brings its lo up, so no other traffic is on
 * the interface and nothing outlives the process (the namespace, and any
 * XDP program on its lo, go with it).  The AF_XDP test also checks that
 * rxl_close() detached libxdp's program.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "live/payload.h"
#include "rxlab/live.h"

#define CAP_NS 10000000000ull
#define PORT 9333

static bool in_netns;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int lo_up(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	struct ifreq ifr = { 0 };
	strcpy(ifr.ifr_name, "lo");
	int rc = ioctl(fd, SIOCGIFFLAGS, &ifr);
	ifr.ifr_flags |= IFF_UP;
	if (rc == 0)
		rc = ioctl(fd, SIOCSIFFLAGS, &ifr);
	close(fd);
	return rc;
}

struct app {
	struct rxl_loop *loop;
	uint64_t ours, want;
};

/* Counts frames that carry an rxlab payload to PORT. */
static void on_batch(void *arg, const struct rxl_pkt *pkts, size_t n)
{
	struct app *a = arg;
	for (size_t i = 0; i < n; i++) {
		const uint8_t *pl;
		size_t len;
		struct rxl_payload p;
		if (rxl_frame_udp_payload(pkts[i].data, pkts[i].len, &pl, &len) &&
		    rxl_payload_read(pl, len, &p))
			a->ours++;
	}
	if (a->ours >= a->want)
		rxl_stop(a->loop);
}

struct sender {
	uint64_t count;
};

static void *sender_main(void *arg)
{
	struct sender *s = arg;
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(PORT),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	struct timespec gap = { .tv_nsec = 100000 };
	nanosleep(&gap, NULL);
	for (uint64_t i = 0; i < s->count; i++) {
		uint8_t buf[64] = { 0 };
		struct rxl_payload p = { .seq = i, .send_ns = now_ns() };
		rxl_payload_write(buf, &p);
		sendto(fd, buf, sizeof buf, 0, (struct sockaddr *)&to, sizeof to);
		nanosleep(&gap, NULL);
	}
	close(fd);
	return NULL;
}

/* Run @l against @count packets; returns the statistics. */
static struct rxl_stats run(struct app *a, uint64_t count)
{
	int sink = socket(AF_INET, SOCK_DGRAM, 0); /* no ICMP port unreachable */
	struct sockaddr_in me = { .sin_family = AF_INET, .sin_port = htons(PORT),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	assert_int_equal(bind(sink, (struct sockaddr *)&me, sizeof me), 0);
	a->want = count;
	struct sender s = { .count = count };
	pthread_t th;
	pthread_create(&th, NULL, sender_main, &s);
	assert_int_equal(rxl_run(a->loop, CAP_NS), 0);
	pthread_join(th, NULL);
	close(sink);
	struct rxl_stats st;
	rxl_stats_get(a->loop, &st);
	return st;
}

static void check(const struct app *a, const struct rxl_stats *st, uint64_t count)
{
	assert_int_equal(a->ours, count);
	assert_int_equal(st->payload_packets, count);
	assert_int_equal(st->seq_lost, 0);
	assert_int_equal(st->seq_next, count);
	assert_int_equal(st->latency.n, count);
	assert_int_equal(st->source_drops, 0);
}

static void test_tpacket_mode(void **state)
{
	(void)state;
	if (!in_netns)
		skip();
	struct rxl_config cfg;
	char err[256];
	rxl_config_default(&cfg, RXL_MODE_TPACKET);
	cfg.tp_blocks = 64;
	struct app a = { 0 };
	a.loop = rxl_open_tpacket((int)if_nametoindex("lo"), &cfg, on_batch, &a, err, sizeof err);
	if (!a.loop)
		fail_msg("rxl_open_tpacket: %s", err);
	struct rxl_stats st = run(&a, 200);
	rxl_close(a.loop);
	check(&a, &st, 200);
	assert_true(st.wakeups >= 1);
}

/* A userspace mode on the ring: napi polls it with a budget. */
static void test_tpacket_napi(void **state)
{
	(void)state;
	if (!in_netns)
		skip();
	struct rxl_config cfg;
	char err[256];
	rxl_config_default(&cfg, RXL_MODE_NAPI);
	cfg.budget = 8;
	/* 64 blocks retired every 10 ms: a receiver kept off the CPU by a
	 * loaded machine for up to 0.6 s loses nothing (with 8 blocks of 1 ms
	 * it would, and tp_drops would count it) */
	cfg.tp_blocks = 64;
	cfg.tp_block_timeout_ms = 10;
	struct app a = { 0 };
	a.loop = rxl_open_tpacket((int)if_nametoindex("lo"), &cfg, on_batch, &a, err, sizeof err);
	assert_non_null(a.loop);
	struct rxl_stats st = run(&a, 300);
	rxl_close(a.loop);
	check(&a, &st, 300);
}

/* coalesce on the ring: packets of several polls are held (their blocks
 * stay with userspace) until the 2 ms timer fires. */
static void test_tpacket_coalesce(void **state)
{
	(void)state;
	if (!in_netns)
		skip();
	struct rxl_config cfg;
	char err[256];
	rxl_config_default(&cfg, RXL_MODE_COALESCE);
	cfg.rx_usecs = 2000;
	cfg.rx_frames = 1024;
	cfg.tp_blocks = 64;
	struct app a = { 0 };
	a.loop = rxl_open_tpacket((int)if_nametoindex("lo"), &cfg, on_batch, &a, err, sizeof err);
	assert_non_null(a.loop);
	struct rxl_stats st = run(&a, 300);
	rxl_close(a.loop);
	check(&a, &st, 300);
	assert_true(hist_mean(&st.batch) > 2.0);
	assert_true(st.polls > st.deliveries);
}

/* `ip -o link show lo` names an XDP program (xdpgeneric ...) */
static bool lo_has_xdp(void)
{
	FILE *p = popen("ip -o link show lo", "r");
	char line[2048] = "";
	assert_non_null(p);
	assert_non_null(fgets(line, sizeof line, p));
	pclose(p);
	return strstr(line, " xdp") != NULL;
}

/* A userspace mode on the AF_XDP socket: hybrid polls the RX ring. */
static void test_xdp_hybrid(void **state)
{
	(void)state;
	if (!in_netns)
		skip();
	struct rxl_config cfg;
	char err[256];
	rxl_config_default(&cfg, RXL_MODE_HYBRID);
	struct app a = { 0 };
	a.loop = rxl_open_xdp("lo", 0, &cfg, on_batch, &a, err, sizeof err);
	if (!a.loop) {
		if (strstr(err, "no libxdp"))
			skip();
		fail_msg("rxl_open_xdp: %s", err);
	}
	struct rxl_stats st = run(&a, 300);
	rxl_close(a.loop);
	check(&a, &st, 300);
	assert_false(lo_has_xdp());
}

static void test_xdp_mode_and_detach(void **state)
{
	(void)state;
	if (!in_netns)
		skip();
	struct rxl_config cfg;
	char err[256];
	rxl_config_default(&cfg, RXL_MODE_AF_XDP);
	struct app a = { 0 };
	a.loop = rxl_open_xdp("lo", 0, &cfg, on_batch, &a, err, sizeof err);
	if (!a.loop) {
		if (strstr(err, "no libxdp"))
			skip();
		fail_msg("rxl_open_xdp: %s", err);
	}
	assert_true(lo_has_xdp());
	struct rxl_stats st = run(&a, 200);
	rxl_close(a.loop);
	check(&a, &st, 200);
	assert_false(lo_has_xdp()); /* libxdp's program is gone */
}

int main(void)
{
	if (geteuid() == 0 && unshare(CLONE_NEWNET) == 0 && lo_up() == 0)
		in_netns = true;
	else
		fprintf(stderr, "test_live_raw: not root or no network namespace: skipping\n");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tpacket_mode),
		cmocka_unit_test(test_tpacket_napi),
		cmocka_unit_test(test_tpacket_coalesce),
		cmocka_unit_test(test_xdp_mode_and_detach),
		cmocka_unit_test(test_xdp_hybrid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
