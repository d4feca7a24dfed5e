/* test_live_sender.c - the sender (src/live/sender.h) over UDP on 127.0.0.1
 * in the current namespace: the packets of a timeline arrive numbered from
 * 0, in order, with the sizes asked for and a send time in the payload
 * header; configuration errors name the field. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <arpa/inet.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "live/payload.h"
#include "live/sender.h"

#define N 200

/* A bound receiving socket and a sender socket connected to it. */
static void socket_pair(int *rx, int *tx)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int big = 4 << 20;

	*rx = socket(AF_INET, SOCK_DGRAM, 0);
	*tx = socket(AF_INET, SOCK_DGRAM, 0);
	assert_true(*rx >= 0 && *tx >= 0);
	setsockopt(*rx, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	assert_int_equal(bind(*rx, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(*rx, (struct sockaddr *)&a, &len), 0);
	assert_int_equal(connect(*tx, (struct sockaddr *)&a, sizeof(a)), 0);
}

static void test_timeline_numbered_in_order(void **state)
{
	static int64_t times[N];
	static uint32_t lens[N];
	struct sender_config c;
	struct sender_stats st;
	struct timespec ts;
	uint8_t buf[2048];
	int rx, tx;

	(void)state;
	for (int i = 0; i < N; i++) {
		times[i] = (int64_t)i * 20000;	/* every 20 us: 4 ms in all */
		lens[i] = 24 + (uint32_t)(i % 50);
	}
	socket_pair(&rx, &tx);
	sender_config_default(&c);
	c.pattern = SEND_TIMELINE;
	c.times_ns = times;
	c.lens = lens;
	c.n_times = N;
	c.batch = 8;
	assert_int_equal(sender_run(tx, &c, NULL, &st), 0);
	assert_int_equal(st.sent, N);
	assert_int_equal(st.seq_next, N);
	assert_int_equal(st.enobufs + st.errors, 0);
	assert_true(st.calls >= N / 8);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	for (uint64_t i = 0; i < N; i++) {
		struct rxl_payload p;
		ssize_t n = recv(rx, buf, sizeof(buf), MSG_DONTWAIT);

		assert_int_equal(n, lens[i]);
		assert_true(rxl_payload_read(buf, (size_t)n, &p));
		assert_int_equal(p.seq, i);
		assert_true(p.send_ns >= (uint64_t)st.start_ns);
		assert_true(p.send_ns <= (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
	}
	assert_int_equal(recv(rx, buf, sizeof(buf), MSG_DONTWAIT), -1);
	close(rx);
	close(tx);
}

/* The stop flag ends a paced run long before its duration. */
static void test_stop_flag(void **state)
{
	struct sender_config c;
	struct sender_stats st;
	char err[128];
	struct sender *s;
	int rx, tx;

	(void)state;
	socket_pair(&rx, &tx);
	sender_config_default(&c);
	c.rate_pps = 1000;
	c.duration_ns = 600000000000;	/* ten minutes unless stopped */
	s = sender_start(tx, &c, err, sizeof(err));
	assert_non_null(s);
	sender_stop(s);
	assert_int_equal(sender_join(s, &st), 0);
	assert_int_equal(st.seq_next, st.sent + st.enobufs + st.errors);
	close(rx);
	close(tx);
}

static void test_config_errors(void **state)
{
	struct sender_config c;
	char err[160];

	(void)state;
	sender_config_default(&c);
	assert_int_equal(sender_config_check(&c, err, sizeof(err)), 0);
	c.payload_bytes = 10;
	assert_int_equal(sender_config_check(&c, err, sizeof(err)), -1);
	assert_string_equal(err, "payload 10 bytes out of range (accepted: 24..1472)");
	sender_config_default(&c);
	c.rate_pps = 0;
	assert_int_equal(sender_config_check(&c, err, sizeof(err)), -1);
	assert_string_equal(err, "sender rate 0 pps out of range (accepted: 1 pps..100 Mpps)");
	sender_config_default(&c);
	c.pattern = SEND_ONOFF;
	assert_int_equal(sender_config_check(&c, err, sizeof(err)), -1);
	assert_string_equal(err, "on/off sender needs on > 0 and off >= 0");
	sender_config_default(&c);
	c.batch = 300;
	assert_int_equal(sender_config_check(&c, err, sizeof(err)), -1);
	assert_string_equal(err, "sender batch 300 out of range (accepted: 1..256)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeline_numbered_in_order),
		cmocka_unit_test(test_stop_flag),
		cmocka_unit_test(test_config_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
