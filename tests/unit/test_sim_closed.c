/* test_sim_closed.c - closed-loop clients (pattern = closed) through the
 * public API: with N = flows x depth requests always outstanding, Little's
 * law fixes the rate: replies/s x cycle = N, where a cycle is the
 * request's wire time (84 B at 1 Gb/s: 672 ns), its latency (last bit in
 * to the reply's last bit out) and client-delay.  Lost requests come back
 * after client-rto, so a loop that loses some keeps going.
 *
 * The host is rr-server's: one PIII CPU answering 64 B requests. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "rxlab/sim.h"
#include "sim_run.h"

static void run(const char *const *sets, size_t n, struct results *r)
{
	sim_run_named("rr-server", sets, n, r);
}

/* Little's law within 1%: the 160 ms window holds about 2000 cycles per
 * outstanding request, so the window's edges move the count by < 0.1%. */
static void check_little(uint32_t flows, uint32_t depth, const char *delay, double delay_us)
{
	char f[64], d[64], c[64];
	const char *sets[] = { "traffic.pattern=closed", f, d, c };
	struct results r;
	double n = (double)flows * depth, cycle_us;

	snprintf(f, sizeof(f), "traffic.flows=%u", flows);
	snprintf(d, sizeof(d), "traffic.depth=%u", depth);
	snprintf(c, sizeof(c), "traffic.client-delay=%s", delay);
	run(sets, 4, &r);
	cycle_us = r.lat_mean_us + delay_us + 0.672;
	assert_true(r.replied_pps > 1000);
	assert_true(fabs(r.replied_pps * cycle_us / 1e6 - n) < 0.01 * n);
	assert_int_equal(r.drops_total, 0);
	results_free(&r);
}

static void test_little(void **state)
{
	(void)state;
	check_little(1, 1, "20us", 20);  /* one outstanding: netperf TCP_RR */
	check_little(3, 2, "20us", 20);  /* six: the server queues them */
	check_little(16, 4, "5us", 5);   /* 64: the server saturates, latency grows */
}

/* A socket buffer of 2 KiB holds 6 datagrams; 200 requests outstanding
 * overflow it.  Each lost request is sent again after client-rto (1 ms),
 * so the loop keeps answering (about 48k/s, the retransmissions taking
 * softirq time from the server) instead of dying out as its requests are
 * lost: without retransmission 200 losses end it within the run. */
static void test_losses_retransmit(void **state)
{
	const char *sets[] = { "traffic.pattern=closed", "traffic.flows=50", "traffic.depth=4",
			       "apps.rcvbuf=2KiB", "traffic.client-rto=1ms" };
	struct results r;

	(void)state;
	run(sets, 5, &r);
	assert_true(r.drop_socket > 200);
	assert_true(r.replied_pps > 30000);
	results_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_little),
		cmocka_unit_test(test_losses_retransmit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
