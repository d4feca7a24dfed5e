/* test_sim_queues.c - multi-queue ports through the public API: a queue's
 * run when RSS sends it everything equals a one-queue port's run; the
 * indirection table decides which queues get frames; each vector
 * interrupts the CPU its irq-affinity names, once per frame when every
 * frame is an interrupt; per-queue NAPI settings and per-queue coalescing
 * (ethtool --per-queue) act on their queue only; RPS moves the stack's
 * work to the CPUs of rps-cpus.
 *
 * The host: a PIII 933 forwarding 64 B frames under NAPI at 40 kpps,
 * far from saturation (about 3.5 us per frame on one CPU), with an
 * rx-fifo large enough for every queue's share never to overflow. */
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

static const char BASE[] =
	"[host]\n"
	"profile = piii-933-e1000\n"
	"cpus = 4\n"
	"rxpath = napi\n"
	"[nic eth0]\n"
	"rx-usecs = 0\n"
	"rx-frames = 1\n"
	"rx-fifo = 4MiB\n"
	"[nic eth1]\n"
	"tx-clean = xmit\n"
	"[traffic]\n"
	"port = eth0\n"
	"pattern = poisson\n"
	"rate = 40kpps\n"
	"frame-size = 64\n"
	"[route]\n"
	"eth0 = eth1\n"
	"[run]\n"
	"duration = 30ms\n"
	"warmup = 5ms\n";

static void run(const char *const *sets, size_t n, struct results *r)
{
	sim_run_text(BASE, "q.ini", sets, n, r);
}

/* One flow: RSS sends every frame to one queue, whose run is the one-queue
 * port's, counter for counter (the other queues' lookahead resolves the
 * same frames in the same order and changes nothing). */
static void test_one_flow_is_one_queue(void **state)
{
	const char *one[] = { "host.cpus=1" };
	const char *four[] = { "host.cpus=1", "nic.eth0.combined=4" };
	struct results a, b;
	uint16_t hot = 0;

	(void)state;
	run(one, 1, &a);
	run(four, 2, &b);
	assert_int_equal(a.n_queues, 2);
	assert_int_equal(b.n_queues, 5);
	for (uint16_t q = 0; q < 4; q++)
		if (b.queue[q].c.rx_ok)
			hot = q;
	for (uint16_t q = 0; q < 4; q++)
		if (q != hot)
			assert_int_equal(b.queue[q].c.entered, 0);
	assert_memory_equal(&a.nic[0].c, &b.nic[0].c, sizeof(a.nic[0].c));
	assert_memory_equal(&a.nic[1].c, &b.nic[1].c, sizeof(a.nic[1].c));
	assert_true(a.lat_p99_us == b.lat_p99_us && a.lat_mean_us == b.lat_mean_us);
	assert_int_equal(a.events > 0, 1);
	results_free(&a);
	results_free(&b);
}

/* indir = weight 0 1 0 1: only queues 1 and 3 receive, whatever the flows;
 * indir = equal 2 on four queues: only queues 0 and 1. */
static void test_indirection(void **state)
{
	const char *w[] = { "nic.eth0.combined=4", "traffic.flows=256",
			    "nic.eth0.indir=weight 0 1 0 1" };
	const char *e[] = { "nic.eth0.combined=4", "traffic.flows=256", "nic.eth0.indir=equal 2" };
	struct results r;

	(void)state;
	run(w, 3, &r);
	assert_int_equal(r.queue[0].c.entered + r.queue[2].c.entered, 0);
	assert_true(r.queue[1].c.rx_ok > 200 && r.queue[3].c.rx_ok > 200);
	results_free(&r);
	run(e, 3, &r);
	assert_int_equal(r.queue[2].c.entered + r.queue[3].c.entered, 0);
	assert_true(r.queue[0].c.rx_ok > 200 && r.queue[1].c.rx_ok > 200);
	results_free(&r);
}

/* rx-frames 1, no timer, 40 kpps on four queues: every frame raises its
 * queue's vector (a poll takes one frame and re-arms long before the next
 * frame of the same queue, 100 us apart on average), on the CPU its
 * irq-affinity gives, and on no other; RSS spreads 1000 flows evenly
 * enough that each queue has well over 150 frames of the 1200. */
static void test_vectors_follow_affinity(void **state)
{
	const char *sets[] = { "nic.eth0.combined=4", "traffic.flows=1000",
			       "nic.eth0.irq-affinity=3,2,1,0", "run.warmup=0" };
	const uint16_t cpu[4] = { 3, 2, 1, 0 };
	struct results r;

	(void)state;
	run(sets, 4, &r);
	assert_int_equal(r.n_cpus, 4);
	for (uint16_t q = 0; q < 4; q++) {
		const uint64_t *irq = &r.queue_irq_cpu[(size_t)q * r.n_cpus];
		uint64_t rx = r.queue[q].c.rx_ok;

		assert_int_equal(r.queue[q].irq_cpu, cpu[q]);
		assert_true(rx > 150);
		/* an interrupt per frame, except for a frame that arrives while
		 * its queue's interrupt and poll (under 10 us here) still run:
		 * at 10 kpps per queue, Poisson, that is 1 - e^-0.1 < 10% */
		assert_true(r.queue[q].c.rx_irqs <= rx && r.queue[q].c.rx_irqs * 10 >= rx * 9);
		for (uint16_t c = 0; c < 4; c++)
			assert_int_equal(irq[c], c == cpu[q] ? r.queue[q].c.irqs : 0);
	}
	results_free(&r);
}

/* napi_defer_hard_irqs per queue: queue 1 defers (the timer polls instead
 * of the IRQ), queue 0 does not, so queue 1 has far fewer interrupts per
 * frame; gro_flush_timeout set for both. */
static void test_per_queue_napi(void **state)
{
	const char *sets[] = { "nic.eth0.combined=2", "traffic.flows=64",
			       "nic.eth0.napi_defer_hard_irqs=0 100",
			       "nic.eth0.gro_flush_timeout=50us", "traffic.rate=200kpps" };
	struct results r;
	double per0, per1;

	(void)state;
	run(sets, 5, &r);
	per0 = (double)r.queue[0].c.rx_irqs / (double)r.queue[0].c.rx_ok;
	per1 = (double)r.queue[1].c.rx_irqs / (double)r.queue[1].c.rx_ok;
	assert_true(r.queue[0].c.rx_ok > 1000 && r.queue[1].c.rx_ok > 1000);
	assert_true(per0 > 0.2);
	assert_true(per1 < 0.02);
	results_free(&r);
}

/* ethtool --per-queue: queue 0 interrupts per frame, queue 1 waits for 32
 * frames or 100 us, so at 100 kpps per queue it takes several frames per
 * interrupt (about 10 in 100 us), and queue 0 about one. */
static void test_per_queue_coalescing(void **state)
{
	const char *sets[] = { "nic.eth0.combined=2", "traffic.flows=64",
			       "nic.eth0.rx-usecs=0 100us", "nic.eth0.rx-frames=1 32",
			       "traffic.rate=200kpps" };
	struct results r;
	double per0, per1;

	(void)state;
	run(sets, 5, &r);
	per0 = (double)r.queue[0].c.rx_ok / (double)r.queue[0].c.rx_irqs;
	per1 = (double)r.queue[1].c.rx_ok / (double)r.queue[1].c.rx_irqs;
	assert_true(r.queue[0].c.rx_ok > 1000 && r.queue[1].c.rx_ok > 1000);
	assert_true(per0 < 1.5);
	assert_true(per1 > 5);
	results_free(&r);
}

/* RPS (rps-cpus = 1-3) on a one-queue router at 600 kpps: alone, CPU 0
 * forwards about 384 kpps on this profile (2.6 us per frame, as the
 * livelock scenario's NAPI peak with TX cleaned at transmit); with RPS it
 * keeps only the driver's part and enqueue_to_backlog, and CPUs 1-3 run
 * the forwarding from their backlogs, so every frame goes out (600 kpps
 * within a frame of the window's edges). */
static void test_rps(void **state)
{
	const char *off[] = { "traffic.rate=600kpps", "traffic.flows=256",
			      "traffic.pattern=constant" };
	const char *on[] = { "traffic.rate=600kpps", "traffic.flows=256", "traffic.pattern=constant",
			     "nic.eth0.rps-cpus=1-3" };
	struct results a, b;

	(void)state;
	run(off, 3, &a);
	run(on, 4, &b);
	assert_true(a.forwarded_pps < 400000);
	assert_true(b.forwarded_pps > 599000);
	assert_int_equal(a.cpu[1].sn.processed, 0);
	for (uint16_t c = 1; c < 4; c++)
		assert_true(b.cpu[c].sn.processed > 1000);
	results_free(&a);
	results_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_flow_is_one_queue),
		cmocka_unit_test(test_indirection),
		cmocka_unit_test(test_vectors_follow_affinity),
		cmocka_unit_test(test_per_queue_napi),
		cmocka_unit_test(test_per_queue_coalescing),
		cmocka_unit_test(test_rps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
