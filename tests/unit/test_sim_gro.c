/* test_sim_gro.c - GRO in the simulator through the public API, against
 * hand-computed counts and times.
 *
 * The host: xeon-6338-mlx5 (local-deliver 350 ns, gro-pkt 0), one CPU,
 * NAPI weight 64, HZ 1000, a 10 Gb/s port whose interrupt waits for
 * rx-frames frames (rx-usecs 10 ms is never reached first), and one TCP
 * stream of 1518-byte frames (MSS 1448) at the link rate, `count`
 * segments, starting at 1 ms: every segment is in the ring before the
 * interrupt, all of them inside jiffy 1.
 *
 * 90 segments, rx-frames 90: poll 1 takes 64 (the budget), poll 2 the
 * other 26.  With GRO the 46th segment does not fit the first skb
 * (52 + 46 * 1448 >= 65536): that skb of 45 goes up at once (45 >= 8,
 * gro_normal_batch); poll 1 ends at its budget with HZ >= 1000, so only
 * skbs older than this jiffy flush - none; poll 2 completes (26 < 64)
 * without gro_flush_timeout and flushes everything: the second skb holds
 * segments 46..90 = 45.  So 2 skbs instead of 90 (factor 45), and the
 * softirq does 88 fewer local deliveries: 88 x 350 ns = 30.8 us less.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rxlab/sim.h"
#include "sim_run.h"

/* idle = poll: the profile's C-states (C6 exits 170 us) would add to the
 * latencies these tests bound; GRO's timing is what is under test. */
static const char BASE[] =
	"[host]\n"
	"profile = xeon-6338-mlx5\n"
	"cpus = 1\n"
	"rxpath = napi\n"
	"idle = poll\n"
	"[nic eth0]\n"
	"speed = 10Gbit\n"
	"rx-ring = 1024\n"
	"rx-usecs = 10ms\n"
	"rx-frames = 90\n"
	"[traffic]\n"
	"port = eth0\n"
	"pattern = stream\n"
	"rate = 812743pps\n"
	"frame-size = 1518\n"
	"count = 90\n"
	"start = 1ms\n"
	"[run]\n"
	"duration = 5ms\n"
	"warmup = 0\n";

static void run(const char *const *sets, size_t n, struct results *r)
{
	sim_run_text(BASE, "gro.ini", sets, n, r);
}

static double softirq_ns(const struct results *r)
{
	return r->cpu[0].pct[ACCT_SOFTIRQ] / 100.0 * r->window_s * 1e9;
}

/* 90 segments: 90 skbs without GRO, 2 of 45 with it; the same polls; the
 * stack CPU 88 local deliveries (local-deliver 350 ns in xeon-6338-mlx5)
 * less, and 90 segments through GRO (gro-pkt 80 ns) more. */
static void test_stream_skbs_and_cpu(void **state)
{
	const char *off[] = { "nic.eth0.gro=off" };
	const char *on[] = { "nic.eth0.gro=on" };
	struct results a, b;

	(void)state;
	run(off, 1, &a);
	run(on, 1, &b);
	assert_int_equal(a.nic[0].c.delivered, 90);
	assert_int_equal(b.nic[0].c.delivered, 90);
	assert_int_equal(a.nic[0].c.polls, 2);
	assert_int_equal(b.nic[0].c.polls, 2);
	assert_int_equal(a.nic[0].c.gro_segs, 0);
	assert_false(a.gro);
	assert_true(b.gro);
	assert_int_equal(b.nic[0].c.gro_segs, 90);
	assert_int_equal(b.nic[0].c.gro_skbs, 2);
	assert_int_equal(b.nic[0].c.gro_skb_segs, 90);
	assert_true(fabs(softirq_ns(&a) - softirq_ns(&b) - (88 * 350.0 - 90 * 80.0)) < 1.0);
	assert_true(fabs(a.cpu[0].pct[ACCT_HARDIRQ] - b.cpu[0].pct[ACCT_HARDIRQ]) < 1e-9);
	results_free(&a);
	results_free(&b);
}

/* Delayed ACKs (ack-every 2): one per 2 segments without GRO (45), one per
 * skb that covers >= 2 segments with it (2). */
static void test_stream_acks(void **state)
{
	const char *off[] = { "nic.eth0.gro=off", "apps.ack-every=2" };
	const char *on[] = { "nic.eth0.gro=on", "apps.ack-every=2" };
	struct results a, b;

	(void)state;
	run(off, 2, &a);
	run(on, 2, &b);
	assert_int_equal(a.nic[0].c.acks_gen, 45);
	assert_int_equal(b.nic[0].c.acks_gen, 2);
	assert_int_equal(b.nic[0].c.tx_acks, 2);
	results_free(&a);
	results_free(&b);
}

/* 10 segments, rx-frames 10, read by a sink: one poll of 10 (< 64).
 * Without gro_flush_timeout napi_complete_done() flushes all: one skb of
 * 10, read within microseconds.  With gro_flush_timeout = 50us (no
 * deferral) it flushes only skbs older than this jiffy - none: the skb
 * waits, the IRQ is re-armed and the timer armed for 50 us; the watchdog's
 * poll finds no work, completes with timeout 0 and flushes.  Every
 * segment then waits at least the 50 us, and not much more (the first
 * arrived 10 x 1.23 us before the poll, which takes a few us).  Without
 * GRO the same gro_flush_timeout holds nothing and arms no timer. */
static void test_flush_timeout_waits_for_timer(void **state)
{
	const char *now[] = { "nic.eth0.gro=on", "nic.eth0.rx-frames=10", "traffic.count=10",
			      "apps.sink=on" };
	const char *timer[] = { "nic.eth0.gro=on", "nic.eth0.rx-frames=10", "traffic.count=10",
				"apps.sink=on", "nic.eth0.gro_flush_timeout=50us" };
	const char *nogro[] = { "nic.eth0.gro=off", "nic.eth0.rx-frames=10", "traffic.count=10",
				"apps.sink=on", "nic.eth0.gro_flush_timeout=50us" };
	struct results a, b, c;

	(void)state;
	run(now, 4, &a);
	run(timer, 5, &b);
	run(nogro, 5, &c);
	assert_int_equal(a.nic[0].c.gro_skbs, 1);
	assert_int_equal(b.nic[0].c.gro_skbs, 1);
	assert_int_equal(b.nic[0].c.gro_skb_segs, 10);
	assert_int_equal(a.lat_samples, 10);
	assert_int_equal(b.lat_samples, 10);
	assert_true(a.lat_max_us < 30.0);
	assert_true(c.lat_max_us < 30.0);
	assert_true(b.lat_cdf_us[0] >= 50.0);  /* the minimum */
	assert_true(b.lat_max_us < 50.0 + 30.0);
	assert_int_equal(b.nic[0].c.polls, 2); /* the interrupt's and the watchdog's */
	assert_int_equal(c.nic[0].c.polls, 1);
	results_free(&a);
	results_free(&b);
	results_free(&c);
}

/* Threaded NAPI, 10 segments read by a sink on CPU 1.  threaded = 1 with
 * gro_flush_timeout = 50us: the kthread's completion holds the skb as
 * softirq's does, until the watchdog's poll (at least 50 us).  threaded =
 * busy-poll: the kthread never completes (IN_BUSY_POLL) and flushes only
 * skbs older than the current jiffy after each poll, so the skb of jiffy 1
 * (all 10 segments arrive between 1.0012 and 1.0124 ms) goes up at the
 * first poll of jiffy 2, at 2 ms: every segment waits 2 - 1.0124 = 0.988
 * ms or more, and not much past 2 - 1.0012 = 0.999 ms. */
static void test_threaded_flushes(void **state)
{
	const char *timer[] = { "host.cpus=2", "apps.sink-cpu=1", "nic.eth0.gro=on",
				"nic.eth0.rx-frames=10", "traffic.count=10", "apps.sink=on",
				"nic.eth0.threaded=1", "nic.eth0.gro_flush_timeout=50us" };
	const char *busy[] = { "host.cpus=2", "apps.sink-cpu=1", "nic.eth0.gro=on",
			       "nic.eth0.rx-frames=10", "traffic.count=10", "apps.sink=on",
			       "nic.eth0.threaded=busy-poll" };
	struct results a, b;

	(void)state;
	run(timer, 8, &a);
	run(busy, 7, &b);
	assert_int_equal(a.lat_samples, 10);
	assert_true(a.lat_cdf_us[0] >= 50.0);
	assert_true(a.lat_max_us < 50.0 + 30.0);
	assert_int_equal(b.lat_samples, 10);
	assert_int_equal(b.nic[0].c.gro_skbs, 1);
	assert_true(b.lat_cdf_us[0] >= 988.0);
	assert_true(b.lat_max_us < 999.0 + 30.0);
	results_free(&a);
	results_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream_skbs_and_cpu),
		cmocka_unit_test(test_stream_acks),
		cmocka_unit_test(test_flush_timeout_waits_for_timer),
		cmocka_unit_test(test_threaded_flushes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
