/* test_sim.c - simulation-level behaviour through the public path:
 * scenario_load_text() of an inline INI plus --set strings, sim_init(),
 * sim_run(), results_collect().
 *
 * Every expectation is worked out by hand from the model (src/sim/nic.c,
 * kernel.c, cpu.c, src/core/coalesce.c, softirq.c) and the costs of the
 * built-in profile piii-933-e1000; the arithmetic is in the comment of each
 * test with today's profile numbers, and the code reads the same costs from
 * the loaded profile so that a recalibration changes expected values, not
 * the reasoning.  The scenario choices (loads, ring sizes) assume costs of
 * that order: a recalibration by a large factor may need new loads.
 *
 * Costs used (profiles/piii-933-e1000.ini, ns):
 *   irq-entry 1500, isr 1000, rx-pkt 200 + skb-alloc 700 (the driver RX
 *   work per frame: 900, written "rx-pkt" below), netif-rx 500, backlog-pkt 300,
 *   napi-poll 400, softirq-entry 300, dma-fixed 500, dma-per-byte 8 (64 B:
 *   512), fwd-pkt 1300, copy-per-byte 0, tx-clean-pkt 400, ctx-switch 3000.
 * A 64 B frame takes (64 + 8 preamble + 12 IFG) * 8 bit / 1 Gbit/s = 672 ns
 * on the wire.  Latency is measured from the last bit received on the
 * ingress port to the last bit sent on the egress port, so it contains the
 * egress serialisation (672 ns) but not the ingress one.
 *
 * Base host: one CPU, eth0 receives 64 B frames from a constant source and
 * routes them to eth1.  eth0 has no moderation (rx-usecs 0, rx-frames 1).
 * eth1 cleans its TX ring at transmit time (tx-clean = xmit) so that no TX
 * interrupt competes with the receive path: each forwarded frame then also
 * frees the one descriptor of the previous frame (tx-clean-pkt, 400 ns).
 * The measurement window is duration - warmup; most windows below are
 * chosen to hold a whole number of periods of the pattern under test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/scenario_load.h"
#include "sim/results.h"
#include "sim/sim.h"

static const char BASE[] =
	"[host]\n"
	"profile = piii-933-e1000\n"
	"cpus = 1\n"
	"rxpath = napi\n"
	"[nic eth0]\n"
	"rx-usecs = 0\n"
	"rx-frames = 1\n"
	"[nic eth1]\n"
	"tx-clean = xmit\n"
	"[traffic]\n"
	"port = eth0\n"
	"pattern = constant\n"
	"rate = 100kpps\n"
	"frame-size = 64\n"
	"[route]\n"
	"eth0 = eth1\n"
	"[run]\n"
	"duration = 20ms\n"
	"warmup = 5ms\n";

/* One NIC, no traffic: an idle host. */
static const char IDLE[] =
	"[host]\n"
	"profile = piii-933-e1000\n"
	"cpus = 1\n"
	"[nic eth0]\n"
	"[run]\n"
	"duration = 20ms\n"
	"warmup = 5ms\n";

#define WIRE64_NS 672 /* (64 + 20) B * 8 / 1 Gbit/s */

/* ---- helpers -------------------------------------------------------------- */

struct run {
	struct scenario scn;
	struct sim sim;
	struct results r;
	const struct profile *p;
};

/* A profile cost no built-in profile has set for the next run_sets() call,
 * then cleared: idle-exit (ns), -1 = the profile's. */
static int64_t next_idle_exit = -1;

static struct run *run_sets(const char *ini, const char *const *sets, size_t n_sets)
{
	struct run *x = calloc(1, sizeof(*x));
	char err[512] = "";
	int rc;

	assert_non_null(x);
	rc = scenario_load_text(&x->scn, ini, "sim.ini", sets, n_sets, err, sizeof(err));
	if (rc)
		fail_msg("scenario_load_text() = %d: %s", rc, err);
	if (next_idle_exit >= 0)
		x->scn.profile.idle_exit_ns = next_idle_exit;
	next_idle_exit = -1;
	if (sim_init(&x->sim, &x->scn))
		fail_msg("sim_init(): %s", x->sim.fatal);
	if (sim_run(&x->sim))
		fail_msg("sim_run(): %s", x->sim.fatal);
	if (results_collect(&x->r, &x->sim))
		fail_msg("results_collect() failed");
	x->p = &x->scn.profile;
	return x;
}

#define SETS(...) (const char *const[]){ __VA_ARGS__ }, \
	(sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *))
/* RUN(BASE, "host.rxpath=classic", ...): at least one --set. */
#define RUN(ini, ...) run_sets(ini, SETS(__VA_ARGS__))

static void run_free(struct run *x)
{
	results_free(&x->r);
	sim_free(&x->sim);
	free(x);
}

#define assert_near(got, want, tol) do {					\
	double g_ = (double)(got), w_ = (double)(want), t_ = (double)(tol);	\
	if (!(fabs(g_ - w_) <= t_))						\
		fail_msg("%s = %.6f, want %.6f +- %g (%s)", #got, g_, w_, t_, #want); \
} while (0)

/* |got - want| <= rel * |want| */
#define assert_rel(got, want, rel) do {					\
	double g_ = (double)(got), w_ = (double)(want), r_ = (double)(rel);	\
	if (!(fabs(g_ - w_) <= r_ * fabs(w_)))					\
		fail_msg("%s = %.6f, want %.6f within %g%% (%s)", #got, g_, w_,	\
			 100.0 * r_, #want);					\
} while (0)

#define assert_u64_eq(got, want) do {						\
	uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);			\
	if (g_ != w_)								\
		fail_msg("%s = %llu, want %llu (%s)", #got, (unsigned long long)g_,	\
			 (unsigned long long)w_, #want);				\
} while (0)

/* DMA of a 64 B frame into an idle bus: dma-fixed + 64 * dma-per-byte. */
static int64_t dma64(const struct profile *p)
{
	return p->dma_fixed_ns + 64 * p->dma_ps_per_byte / 1000;
}

/* ---- receive path at light load ------------------------------------------- */

/* NAPI, no moderation, 100 kpps: one frame every 10 us.  Path of a frame
 * whose last bit arrives at t:
 *   DMA                      500 + 64 * 8         = 1012  (interrupt fires)
 *   hard IRQ                 irq-entry + isr      = 2500
 *   softirq                  softirq-entry        =  300
 *   ->poll()                 napi-poll            =  400
 *   driver RX                rx-pkt               =  900
 *   forward                  fwd-pkt              = 1300
 *   TX clean at xmit         tx-clean-pkt (1 desc)=  400
 *   egress wire              84 B at 1 Gbit/s     =  672
 *                                                   7484 ns
 * The poll does one frame (< weight), so napi_complete_done() re-enables the
 * IRQ 6812 ns after the frame, before the next one completes (10 us later):
 * one interrupt and one poll per frame, the CPU idles in between.
 * Every frame takes the same path, so p50 = p99 = max = 7484 ns (the
 * histogram quantile is clamped to [min, max]); tolerance 100 ns.
 * CPU: hardirq 2500 / 10000 = 25 %; softirq (300 + 400 + 900 + 1300 + 400)
 * / 10000 = 33 %; idle 42 %; tolerance 0.1 point.
 * Window 15 ms: 1500 frames; forwarded = offered within 0.1 %. */
static void test_napi_light_load_path_cost(void **state)
{
	struct run *x = RUN(BASE, "traffic.rate=100kpps");
	const struct profile *p = x->p;
	int64_t hard = p->irq_entry_ns + p->isr_ns;
	int64_t soft = p->softirq_entry_ns + p->napi_poll_ns + (p->rx_pkt_ns + p->skb_alloc_ns) + p->fwd_pkt_ns +
		       p->tx_clean_pkt_ns;
	int64_t lat = dma64(p) + hard + soft + WIRE64_NS;

	(void)state;
	assert_rel(x->r.forwarded_pps, 100000, 0.001);
	assert_u64_eq(x->r.drops_total, 0);
	assert_rel(x->r.rx_irqs_per_s, 100000, 0.001);
	assert_near(x->r.pkts_per_irq, 1.0, 0.001);
	assert_near(x->r.pkts_per_poll, 1.0, 0.001);
	assert_u64_eq(x->r.lat_samples, 1500);
	assert_near(x->r.lat_p50_us * 1e3, lat, 100);
	assert_near(x->r.lat_p99_us * 1e3, lat, 100);
	assert_near(x->r.lat_max_us * 1e3, lat, 100);
	assert_near(x->r.cpu[0].pct[ACCT_HARDIRQ], 100.0 * (double)hard / 10000, 0.1);
	assert_near(x->r.cpu[0].pct[ACCT_SOFTIRQ], 100.0 * (double)soft / 10000, 0.1);
	assert_near(x->r.cpu[0].pct[ACCT_IDLE], 100.0 - 100.0 * (double)(hard + soft) / 10000,
		    0.1);
	run_free(x);
}

/* poll-exit = idle (2.6.12's e100_poll: only a poll that cleaned nothing
 * completes), the path of test_napi_light_load_path_cost: the poll that
 * takes the frame stays listed and a second poll (napi-poll, finds
 * nothing) completes and re-enables the IRQ, 7212 ns after the frame,
 * before the next one: two polls per interrupt, one interrupt per frame.
 * With rxcore = 2.6 net_rx_action() moves the device to the tail of its
 * poll list and polls it again in the same pass: softirq time per frame
 * softirq-entry + 2 napi-poll + rx-pkt + fwd-pkt + tx-clean-pkt = 3700 ns
 * of 10000, 37 %.  With today's core (rxcore = current) the repoll ends
 * the pass, handle_softirqs() restarts it (NET_RX is raised again): one
 * more softirq-entry, 40 %. */
static void test_poll_exit_idle(void **state)
{
	struct run *o = RUN(BASE, "traffic.rate=100kpps", "nic.eth0.poll-exit=idle",
			    "host.rxcore=2.6");
	struct run *c = RUN(BASE, "traffic.rate=100kpps", "nic.eth0.poll-exit=idle");
	const struct profile *p = o->p;
	int64_t soft = p->softirq_entry_ns + 2 * p->napi_poll_ns + (p->rx_pkt_ns + p->skb_alloc_ns) +
		       p->fwd_pkt_ns + p->tx_clean_pkt_ns;

	(void)state;
	for (int i = 0; i < 2; i++) {
		struct run *x = i ? c : o;

		assert_rel(x->r.forwarded_pps, 100000, 0.001);
		assert_rel(x->r.rx_irqs_per_s, 100000, 0.001);
		assert_near(x->r.pkts_per_poll, 0.5, 0.001);
		assert_u64_eq(x->sim.nic[0].c.polls, 2 * x->sim.nic[0].c.poll_pkts);
	}
	assert_near(o->r.cpu[0].pct[ACCT_SOFTIRQ], 100.0 * (double)soft / 10000, 0.1);
	assert_near(c->r.cpu[0].pct[ACCT_SOFTIRQ],
		    100.0 * (double)(soft + p->softirq_entry_ns) / 10000, 0.1);
	run_free(o);
	run_free(c);
}

/* idle-exit: the same path at 50 kpps (a frame every 20 us) with an idle
 * CPU that needs 5 us to leave its idle state.  Every interrupt still finds
 * the CPU idle (2.5 + 5 + 3.3 us of work per frame), so each costs 5 us
 * more hard-IRQ time (25 points of 20 us) and every frame's latency grows
 * by exactly that; the rest of the path is unchanged. */
static void test_idle_exit(void **state)
{
	struct run *a = RUN(BASE, "traffic.rate=50kpps");
	struct run *b;

	next_idle_exit = 5000;
	b = RUN(BASE, "traffic.rate=50kpps");
	(void)state;
	assert_int_equal(b->p->idle_exit_ns, 5000);
	assert_u64_eq(b->r.nic[0].c.rx_irqs, a->r.nic[0].c.rx_irqs);
	assert_near(b->r.cpu[0].pct[ACCT_HARDIRQ] - a->r.cpu[0].pct[ACCT_HARDIRQ],
		    100.0 * 5000 / 20000, 0.1);
	assert_near(b->r.cpu[0].pct[ACCT_SOFTIRQ], a->r.cpu[0].pct[ACCT_SOFTIRQ], 0.1);
	assert_near((b->r.lat_max_us - a->r.lat_max_us) * 1e3, 5000, 1);
	assert_near((b->r.lat_mean_us - a->r.lat_mean_us) * 1e3, 5000, 1);
	run_free(a);
	run_free(b);
}

/* ---- coalescing ------------------------------------------------------------- */

/* Classic path, rx-frames 4, rx-usecs 1 s (absolute timer that never
 * expires first), 100 kpps.  The 4th completion fires the interrupt; the ISR
 * (2500 + 4 * (rx-pkt 900 + netif-rx 500) = 8100 ns) ends before the 5th
 * frame completes 10 us later, so every interrupt takes exactly 4 frames:
 * rx irq/s = 100000 / 4 = 25000 (tolerance 0.5 %), pkts/irq = 4.00.
 * Latency of frame i (0..3) of a group: it waits (3 - i) * 10 us for the
 * 4th frame, then DMA 1012 + ISR 8100 + softirq-entry 300, then the backlog
 * poll forwards frames in order, (i + 1) * (backlog-pkt 300 + fwd 1300 +
 * clean 400 = 2000), and the egress wire 672:
 *   i = 0: 30000 + 9412 + 2000 + 672 = 42084
 *   i = 1: 34084, i = 2: 26084, i = 3: 18084
 * max = 42084 ns (exact), mean = 30084 ns (exact), p50 = the 2nd smallest
 * = 26084 rounded up to its histogram bucket (width 128 ns at 2^14..2^15). */
static void test_classic_rx_frames_4(void **state)
{
	struct run *x = RUN(BASE, "host.rxpath=classic", "nic.eth0.rx-frames=4",
			    "nic.eth0.rx-usecs=1s");
	const struct profile *p = x->p;
	int64_t isr = p->irq_entry_ns + p->isr_ns + 4 * ((p->rx_pkt_ns + p->skb_alloc_ns) + p->netif_rx_ns);
	int64_t per = p->backlog_pkt_ns + p->fwd_pkt_ns + p->tx_clean_pkt_ns;
	int64_t base = dma64(p) + isr + p->softirq_entry_ns + WIRE64_NS;
	double lat[4];

	(void)state;
	for (int i = 0; i < 4; i++)
		lat[i] = (double)((3 - i) * 10000 + base + (i + 1) * per);
	assert_rel(x->r.rx_irqs_per_s, 25000, 0.005);
	assert_near(x->r.pkts_per_irq, 4.0, 0.01);
	assert_rel(x->r.forwarded_pps, 100000, 0.001);
	assert_u64_eq(x->r.drops_total, 0);
	assert_near(x->r.lat_max_us * 1e3, lat[0], 1);
	assert_near(x->r.lat_mean_us * 1e3, (lat[0] + lat[1] + lat[2] + lat[3]) / 4, 1);
	assert_in_range((uint64_t)(x->r.lat_p50_us * 1e3 + 0.5), (uint64_t)lat[2],
			(uint64_t)lat[2] + 128);
	run_free(x);
}

/* Classic path, rx-usecs 100 (absolute timer, cqe-mode-rx off), rx-frames 0,
 * 100 kpps: completions every 10 us at c_k.  The timer starts at the first
 * pending completion c_j and fires at c_j + 100 us = c_(j+10), a completion
 * that is counted before the interrupt asserts (nic_wake() advances RX to
 * now first).  The ISR acknowledges 2.5 us later with nothing new, so the
 * next timer starts at c_(j+11): one interrupt per 110 us with 11 frames,
 * not one per 100 us.  rx irq/s = 1e9 / 110000 = 9090.9 (0.5 %), pkts/irq
 * = 11.00.  The window (16.5 ms) holds exactly 150 periods. */
static void test_absolute_timer_100us(void **state)
{
	struct run *x = RUN(BASE, "host.rxpath=classic", "nic.eth0.rx-usecs=100",
			    "nic.eth0.rx-frames=0", "nic.eth0.cqe-mode-rx=off",
			    "run.duration=21.5ms");

	(void)state;
	assert_rel(x->r.rx_irqs_per_s, 1e9 / 110000, 0.005);
	assert_near(x->r.pkts_per_irq, 11.0, 0.01);
	assert_rel(x->r.forwarded_pps, 100000, 0.001);
	assert_u64_eq(x->r.drops_total, 0);
	run_free(x);
}

/* Restart timer (cqe-mode-rx on, e1000 RDTR), rx-usecs 100, rx-frames 0,
 * on-off traffic: 1 ms at 100 kpps (100 frames), 1 ms silence.  Inside a
 * burst every completion restarts the timer (10 us < 100 us), so it expires
 * once per burst, 100 us after the last completion: one interrupt per 2 ms
 * cycle taking the whole burst.  Window 16 ms = 8 cycles:
 * rx irq/s = 8 / 0.016 = 500 (1 %), pkts/irq = 100.00.
 * The first frame of a burst waits longest:
 *   99 * 10 us (rest of the burst) + DMA 1012 + 100 us timer
 *   + ISR (2500 + 100 * 1400 = 142500) + softirq-entry 300
 *   + backlog 300 + fwd 1300 + clean 400 + wire 672 = 1236484 ns = max. */
static void test_restart_timer_on_off(void **state)
{
	struct run *x = RUN(BASE, "host.rxpath=classic", "nic.eth0.rx-usecs=100",
			    "nic.eth0.rx-frames=0", "nic.eth0.cqe-mode-rx=on",
			    "traffic.pattern=on-off", "traffic.on=1ms", "traffic.off=1ms",
			    "run.duration=21ms");
	const struct profile *p = x->p;
	int64_t isr = p->irq_entry_ns + p->isr_ns + 100 * ((p->rx_pkt_ns + p->skb_alloc_ns) + p->netif_rx_ns);
	int64_t max = 99 * 10000 + dma64(p) + 100000 + isr + p->softirq_entry_ns +
		      p->backlog_pkt_ns + p->fwd_pkt_ns + p->tx_clean_pkt_ns + WIRE64_NS;

	(void)state;
	assert_rel(x->r.rx_irqs_per_s, 500, 0.01);
	assert_near(x->r.pkts_per_irq, 100.0, 0.01);
	assert_near(x->r.lat_max_us * 1e3, max, 1);
	assert_u64_eq(x->r.drops_total, 0);
	run_free(x);
}

/* Restart timer, rx-frames 0, constant 100 kpps: the traffic never pauses
 * for 100 us, so the timer expires only when DMA completions stop, i.e.
 * when the 256 descriptors are all full and new frames wait in the FIFO.
 * The ISR takes those 256 (frames arriving meanwhile go to the FIFO, since
 * descriptors are returned only at the end of the ISR), so every interrupt
 * takes exactly rx-ring = 256 frames, and frames wait up to ~2.6 ms (the
 * ring fill time) instead of 100 us: p50 > 1 ms.  The FIFO (48 KiB = 768
 * frames) never overflows: ~36 frames arrive during one ISR (2.5 us +
 * 256 * 1.4 us).  This is why e1000 pairs the RDTR packet timer with the
 * absolute RADV timer; scenarios have no key for that timer
 * (coal_params.abs_ns) and the model has no descriptor-minimum-threshold
 * interrupt (RXDMT0). */
static void test_restart_timer_constant_waits_for_full_ring(void **state)
{
	struct run *x = RUN(BASE, "host.rxpath=classic", "nic.eth0.rx-usecs=100",
			    "nic.eth0.rx-frames=0", "nic.eth0.cqe-mode-rx=on");

	(void)state;
	assert_near(x->r.pkts_per_irq, 256.0, 0.01);
	assert_true(x->r.lat_p50_us > 1000.0);
	assert_u64_eq(x->r.drops_total, 0);
	run_free(x);
}

/* NAPI, per-frame interrupts (rx-usecs 0, rx-frames 1) with
 * min-irq-interval 125 us at 100 kpps: a frame completes every 10 us, so
 * the condition is always met long before the gap ends and the interrupt
 * fires exactly at last_irq + 125 us: 8000 irq/s (0.5 %).  Window 15 ms =
 * 120 gaps; pkts/irq = 100000 / 8000 = 12.5 (12 and 13 alternate). */
static void test_min_irq_interval(void **state)
{
	struct run *x = RUN(BASE, "nic.eth0.min-irq-interval=125us");

	(void)state;
	assert_rel(x->r.rx_irqs_per_s, 8000, 0.005);
	assert_near(x->r.pkts_per_irq, 12.5, 0.05);
	assert_rel(x->r.forwarded_pps, 100000, 0.001);
	assert_u64_eq(x->r.drops_total, 0);
	run_free(x);
}

/* TX interrupts moderated by frames: eth1 tx-clean = irq, tx-frames 4,
 * tx-usecs 1 s.  Every 4th departure fires a TX interrupt: tx irq/s =
 * 100000 / 4 = 25000 (1 %).  eth1 receives nothing, so RX interrupts stay
 * eth0's 100000/s.  CPU per 40 us: 4 * (2500 + 300 + 400 + 900 + 1300) =
 * 21.6 us receive + (2500 + 300 + 400 + 4 * 400) = 4.8 us TX interrupt and
 * poll = 26.4 us, below 40 us: nothing is lost. */
static void test_tx_frames_4(void **state)
{
	struct run *x = RUN(BASE, "nic.eth1.tx-clean=irq", "nic.eth1.tx-frames=4",
			    "nic.eth1.tx-usecs=1s");

	(void)state;
	assert_rel(x->r.tx_irqs_per_s, 25000, 0.01);
	assert_u64_eq(x->r.nic[1].c.rx_irqs, 0);
	assert_rel(x->r.rx_irqs_per_s, 100000, 0.001);
	assert_rel(x->r.forwarded_pps, 100000, 0.001);
	assert_u64_eq(x->r.drops_total, 0);
	run_free(x);
}

/* ---- overload and drops ----------------------------------------------------- */

/* Classic path at 1.488 Mpps (64 B line rate) with rx-ring 8 and a 2 KiB
 * FIFO (32 frames).  Receive livelock: the ISR of one interrupt takes the 8
 * ready frames (2500 + 8 * 1400 = 13700 ns); frames that completed during
 * it are pending at unmask, so the next interrupt fires at once and the
 * softirq never runs.  Hence:
 *   rx irq/s = 1e9 / 13700 = 72993 (1 %), pkts/irq = 8.00 (ring size);
 *   nothing forwarded; the backlog (1000) filled during warm-up, so every
 *   frame the ISR takes in the window is a backlog drop;
 *   the rest of the wire frames overrun the FIFO: wire = fifo drops +
 *   frames DMA'd, and frames DMA'd = frames taken, up to what the ring
 *   (8 frames) and the FIFO (2048 B = 32 frames) hold at the window edges.
 * And the accounting check of sim_run() passes (run_sets() asserts it). */
static void test_ring_overflow_fifo_drops(void **state)
{
	struct run *x = RUN(BASE, "host.rxpath=classic", "nic.eth0.rx-ring=8",
			    "nic.eth0.rx-fifo=2KiB", "traffic.rate=1488kpps");
	const struct profile *p = x->p;
	const struct nic *n = &x->sim.nic[0];
	double isr = (double)(p->irq_entry_ns + p->isr_ns + 8 * ((p->rx_pkt_ns + p->skb_alloc_ns) + p->netif_rx_ns));
	uint64_t taken = x->r.nic[0].c.rx_taken;
	double wire = x->r.wire_pps * x->r.window_s;

	(void)state;
	assert_rel(x->r.rx_irqs_per_s, 1e9 / isr, 0.01);
	assert_near(x->r.pkts_per_irq, 8.0, 0.01);
	assert_near(x->r.forwarded_pps, 0, 0);
	assert_u64_eq(x->r.drop_backlog, taken);
	assert_true(x->r.drop_fifo > 0);
	assert_near(wire - (double)x->r.drop_fifo - (double)taken, 0, 8 + 32);
	/* Queues within their capacities at the end. */
	assert_true(n->ring_used <= 8);
	assert_true(n->ring.count <= 8);
	assert_true(n->fifo_bytes <= 2048);
	assert_true(x->sim.cpu[0].backlog.count <= 1000);
	run_free(x);
}

/* netdev_max_backlog = 10 on the classic path with bursts of 16: 20 kpps
 * (one frame per 50 us), rx-frames 16, rx-usecs 1 s.  The ISR (2500 + 16 *
 * 1400 = 24900 ns) ends before the next frame, and moves 16 frames to a
 * backlog that holds 10: 6 drops per interrupt, then the softirq forwards
 * the 10 (300 + 10 * 2000 ns) long before the next burst.  Window 16 ms =
 * exactly 20 bursts (fires at 751684 + 800000 j ns, j = 6..25):
 *   rx irq/s = 1250, pkts/irq = 16.00, backlog drops = 20 * 6 = 120,
 *   softnet_stat dropped = RX-DRP of eth0 = 120, forwarded = 200 frames
 *   = 12500 pps. */
static void test_backlog_overflow(void **state)
{
	struct run *x = RUN(BASE, "host.rxpath=classic", "host.netdev_max_backlog=10",
			    "traffic.rate=20kpps", "nic.eth0.rx-frames=16",
			    "nic.eth0.rx-usecs=1s", "run.duration=21ms");

	(void)state;
	assert_rel(x->r.rx_irqs_per_s, 1250, 0.001);
	assert_near(x->r.pkts_per_irq, 16.0, 0.001);
	assert_u64_eq(x->r.drop_backlog, 120);
	assert_u64_eq(x->r.cpu[0].sn.dropped, 120);
	assert_u64_eq(x->r.nic[0].c.rx_drp, 120);
	assert_u64_eq(x->r.drop_fifo + x->r.drop_link + x->r.drop_qdisc, 0);
	assert_rel(x->r.forwarded_pps, 12500, 0.001);
	run_free(x);
}

/* NAPI at 1.488 Mpps, netdev_budget 300, one NAPI (eth0; eth1 has no TX
 * interrupts).  net_rx_action() polls each NAPI on its list at most once per
 * pass: a full poll (weight 64) moves eth0 to the repoll list, the list is
 * empty, the pass ends and NET_RX is raised again (net/core/dev.c: "if
 * (list_empty(&list)) { if (list_empty(&repoll)) ...; break; }").  So one
 * NAPI never spends the 300 budget: 64 < 300, and a pass (~167 us) is far
 * from the 2-jiffy time limit: time_squeeze stays 0.  With netdev_budget 50
 * every pass ends on the budget (50 - 64 < 0): one squeeze per poll.
 * Every poll finds a full ring (arrivals 1.488 Mpps >> service), so
 * packets per poll of eth0 = 64.  Throughput: 64 frames per
 * softirq-entry 300 + napi-poll 400 + 64 * (900 + 1300 + 400) = 167100 ns,
 * 383004 pps (1.5 %: the 15 ms window holds ~90 polls).  After 10 restarts
 * handle_softirqs() hands over to ksoftirqd, which then keeps the CPU. */
static void test_napi_budget_and_squeeze(void **state)
{
	struct run *x = RUN(BASE, "traffic.rate=1488kpps", "host.netdev_budget=300");
	struct run *y = RUN(BASE, "traffic.rate=1488kpps", "host.netdev_budget=50");
	const struct profile *p = x->p;
	double pass = (double)(p->softirq_entry_ns + p->napi_poll_ns +
			       64 * ((p->rx_pkt_ns + p->skb_alloc_ns) + p->fwd_pkt_ns + p->tx_clean_pkt_ns));
	const struct nic_counters *cx = &x->r.nic[0].c, *cy = &y->r.nic[0].c;

	(void)state;
	assert_true(cx->polls > 50);
	assert_near((double)cx->poll_pkts / (double)cx->polls, 64.0, 0.01);
	assert_u64_eq(x->r.time_squeeze, 0);
	assert_rel(x->r.forwarded_pps, 64e9 / pass, 0.015);
	assert_true(x->r.ksoftirqd_pct > 95.0);
	assert_true(x->r.drop_fifo > 0);

	assert_near((double)cy->poll_pkts / (double)cy->polls, 64.0, 0.01);
	assert_near((double)y->r.time_squeeze, (double)cy->polls, 1);
	assert_rel(y->r.forwarded_pps, 64e9 / pass, 0.015);
	run_free(x);
	run_free(y);
}

/* The wire caps what reaches the port: 2 Mpps of 64 B frames offered, one
 * frame per 672 ns fits.  The sender holds the rest up to link-queue (1 ms)
 * and then drops it, so after warm-up the link is never idle: at least
 * 1e9 / 672 = 1488095 pps reach eth0 (0.2 %: a frame at each window edge),
 * and the link drops (2000000 - 1488095) pps (1 %).  The upper bound
 * (no more than line rate) is in test_rx_counters_not_ahead_of_time. */
static void test_line_rate_cap(void **state)
{
	struct run *x = RUN(BASE, "traffic.rate=2Mpps");
	double line = 1e9 / WIRE64_NS;

	(void)state;
	assert_true(x->r.wire_pps >= line * (1 - 0.002));
	assert_rel((double)x->r.drop_link / x->r.window_s, 2e6 - line, 0.01);
	run_free(x);
}

/* ---- CPU time ---------------------------------------------------------------- */

/* Every nanosecond of every CPU is in exactly one bucket: per CPU, user +
 * system + hardirq + softirq + idle = 100 % (0.01).  Checked on a host where
 * all five buckets are used: 2 CPUs, a hog on CPU 0, eth1's TX interrupts
 * on CPU 1, 100 kpps, for each receive path. */
static void test_cpu_pct_sums_to_100(void **state)
{
	static const char *const paths[] = { "host.rxpath=classic", "host.rxpath=isr-loop",
					      "host.rxpath=napi" };

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct run *x = RUN(BASE, paths[i], "host.cpus=2", "apps.cpu-hogs=1",
				    "nic.eth1.tx-clean=irq", "nic.eth1.irq-cpu=1",
				    "traffic.rate=100kpps");
		double mean = 0;

		for (uint16_t c = 0; c < x->r.n_cpus; c++) {
			double sum = 0;

			for (int k = 0; k < ACCT_N; k++)
				sum += x->r.cpu[c].pct[k];
			if (fabs(sum - 100.0) > 0.01)
				fail_msg("%s cpu %u: usr %.4f sys %.4f irq %.4f soft %.4f idle %.4f"
					 " sum %.6f, want 100 +- 0.01", paths[i], c,
					 x->r.cpu[c].pct[0], x->r.cpu[c].pct[1],
					 x->r.cpu[c].pct[2], x->r.cpu[c].pct[3],
					 x->r.cpu[c].pct[4], sum);
		}
		for (int k = 0; k < ACCT_N; k++)
			mean += x->r.cpu_pct[k];
		assert_near(mean, 100.0, 0.01);
		/* Not trivially all idle: CPU 0 receives and runs the hog. */
		assert_true(x->r.cpu[0].pct[ACCT_HARDIRQ] > 1.0);
		assert_true(x->r.cpu[0].pct[ACCT_USER] > 1.0);
		assert_true(x->r.cpu[1].pct[ACCT_HARDIRQ] > 0.1);
		run_free(x);
	}
}

/* Two always-runnable hogs on an idle host share the CPU in 4 ms slices
 * (timeslice default): each gets 50 % within 1 point (400 ms window = 100
 * slices, an odd slice is 1 %), user is everything but the switches, and
 * system time is exactly the context switches: sys % = cs/s * 3000 ns. */
static void test_cpu_hogs_share(void **state)
{
	struct run *x = RUN(IDLE, "apps.cpu-hogs=2", "run.duration=405ms");
	double sys = x->r.cs_per_s * (double)x->p->ctx_switch_ns / 1e9 * 100.0;
	double hogs = 0;

	(void)state;
	assert_int_equal(x->r.n_threads, 3); /* ksoftirqd/0, hog/0, hog/1 */
	for (uint16_t i = 0; i < x->r.n_threads; i++) {
		if (strncmp(x->r.thr[i].name, "hog/", 4) != 0) {
			assert_near(x->r.thr[i].pct, 0, 0);
			continue;
		}
		assert_near(x->r.thr[i].pct, 50.0, 1.0);
		hogs += x->r.thr[i].pct;
	}
	assert_near(x->r.cs_per_s, 1e9 / 4e6, 5); /* one switch per slice */
	assert_near(x->r.cpu[0].pct[ACCT_SYSTEM], sys, 0.001);
	assert_near(x->r.cpu[0].pct[ACCT_USER], 100.0 - sys, 0.001);
	assert_near(hogs, x->r.cpu[0].pct[ACCT_USER], 0.001);
	assert_near(x->r.cpu[0].pct[ACCT_IDLE], 0, 0);
	run_free(x);
}

/* The scheduler knows a thread only by its thread_ops: a test double in
 * place of the hog's ops is what runs, and its run_acct decides the bucket.
 * The double runs 1 ms slices of TCH_RUN charged as system time; alone on
 * an idle CPU it is picked again after each one (no context switch). */
static struct { uint32_t starts, dones; } double_calls;

static void double_start(struct sim *s, struct cpu *c)
{
	double_calls.starts++;
	thread_chunk(s, c, TCH_RUN, 1000000);
}

static void double_done(struct sim *s, struct cpu *c)
{
	double_calls.dones++;
	sched_pick(s, c);
}

static const struct thread_ops double_ops = {
	.start = double_start, .chunk_done = double_done, .run_acct = ACCT_SYSTEM,
	.resume_left = true,
};

static void test_thread_ops_double(void **state)
{
	struct run *x = calloc(1, sizeof(*x));
	const char *const sets[] = { "apps.cpu-hogs=1" };
	char err[512] = "";

	(void)state;
	assert_non_null(x);
	if (scenario_load_text(&x->scn, IDLE, "sim.ini", sets, 1, err, sizeof(err)))
		fail_msg("scenario_load_text(): %s", err);
	if (sim_init(&x->sim, &x->scn))
		fail_msg("sim_init(): %s", x->sim.fatal);
	assert_string_equal(x->sim.thr[1].name, "hog/0");
	x->sim.thr[1].ops = &double_ops;
	double_calls.starts = double_calls.dones = 0;
	if (sim_run(&x->sim) || results_collect(&x->r, &x->sim))
		fail_msg("sim_run(): %s", x->sim.fatal);
	/* 20 ms: the first context switch, then slices ending at each ms up
	 * to 19 (the one that ends at 20 ms is not run). */
	assert_int_equal(double_calls.starts, 20);
	assert_int_equal(double_calls.dones, 19);
	assert_near(x->r.cpu[0].pct[ACCT_USER], 0, 0);
	assert_near(x->r.cpu[0].pct[ACCT_IDLE], 0, 0);
	assert_near(x->r.cpu[0].pct[ACCT_SYSTEM], 100.0, 0.001);
	results_free(&x->r);
	sim_free(&x->sim);
	free(x);
}

/* ---- determinism and accounting ---------------------------------------------- */

static void assert_same_results(const struct results *a, const struct results *b)
{
	assert_true(a->wire_pps == b->wire_pps);
	assert_true(a->forwarded_pps == b->forwarded_pps);
	assert_true(a->rx_irqs_per_s == b->rx_irqs_per_s);
	assert_true(a->polls_per_s == b->polls_per_s);
	assert_true(a->lat_p50_us == b->lat_p50_us);
	assert_true(a->lat_p99_us == b->lat_p99_us);
	assert_true(a->lat_max_us == b->lat_max_us);
	assert_true(a->lat_mean_us == b->lat_mean_us);
	assert_u64_eq(a->lat_samples, b->lat_samples);
	assert_u64_eq(a->drops_total, b->drops_total);
	assert_u64_eq(a->events, b->events);
	assert_memory_equal(a->nic, b->nic, sizeof(a->nic));
	assert_memory_equal(a->cpu_pct, b->cpu_pct, sizeof(a->cpu_pct));
}

/* Poisson arrivals, 250 kpps, seed 7 twice: identical results; seed 8:
 * different arrivals, so different counters.  Offered frames in 15 ms:
 * 3750 +- 61 (Poisson sd), so wire pps within 5 % (3 sd) of 250 k. */
static void test_determinism(void **state)
{
	struct run *a = RUN(BASE, "traffic.pattern=poisson", "traffic.rate=250kpps",
			    "run.seed=7");
	struct run *b = RUN(BASE, "traffic.pattern=poisson", "traffic.rate=250kpps",
			    "run.seed=7");
	struct run *c = RUN(BASE, "traffic.pattern=poisson", "traffic.rate=250kpps",
			    "run.seed=8");

	(void)state;
	assert_same_results(&a->r, &b->r);
	assert_rel(a->r.wire_pps, 250000, 0.05);
	assert_true(memcmp(a->r.nic, c->r.nic, sizeof(a->r.nic)) != 0);
	assert_true(a->r.events != c->r.events || a->r.lat_mean_us != c->r.lat_mean_us);
	run_free(a);
	run_free(b);
	run_free(c);
}

/* Frames held in the queues of port @n, counted from the struct. */
static uint64_t held_by(const struct nic *n)
{
	return (uint64_t)n->fifo.count + n->ring.count + n->qdisc.count +
	       (n->txr.count - n->departed);
}

/* Whole-run accounting, computed here independently of sim_run()'s check:
 * every frame that entered a port is in one terminal counter (link drop,
 * FIFO overrun, backlog drop, qdisc drop, sent, delivered) or still queued
 * (FIFO, ring, qdisc, TX ring not yet sent, per-CPU backlog), and
 * results_collect() reports the same in-flight count.  1 Mpps constant for
 * 20 ms without warm-up: frame k is offered at k * 1000 ns and its last bit
 * is in at k * 1000 + 672 <= 20 ms for k = 0 .. 19999, so at least 20000
 * frames entered (that no more did is test_rx_counters_not_ahead_of_time).
 * Small TX queues and backlog make every kind of drop possible; checked for
 * each receive path. */
static void test_accounting(void **state)
{
	static const char *const paths[] = { "host.rxpath=classic", "host.rxpath=isr-loop",
					     "host.rxpath=napi" };

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct run *x = RUN(BASE, paths[i], "traffic.rate=1Mpps", "run.warmup=0ms",
				    "nic.eth1.tx-ring=4", "nic.eth1.txqueuelen=2",
				    "host.netdev_max_backlog=50");
		uint64_t in = 0, out = 0, held = 0;

		for (uint16_t k = 0; k < x->sim.n_nics; k++) {
			const struct nic *n = &x->sim.nic[k];
			const struct nic_counters *c = &n->c;

			in += c->entered;
			out += c->link_drop + c->rx_ovr + c->rx_drp + c->tx_drp + c->tx_ok +
			       c->delivered;
			held += held_by(n);
		}
		for (uint16_t k = 0; k < x->sim.n_cpus; k++)
			held += x->sim.cpu[k].backlog.count;
		if (in < 20000 || out + held != in)
			fail_msg("%s: %llu entered (want >= 20000), %llu terminal + %llu held"
				 " = %llu", paths[i], (unsigned long long)in,
				 (unsigned long long)out, (unsigned long long)held,
				 (unsigned long long)(out + held));
		assert_u64_eq(x->r.in_flight, held);
		assert_true(out > 0);
		run_free(x);
	}
}

/* The NAPI hrtimer is the simulator's, its counters the core's.  Hard-IRQ
 * deferral (napi_defer_hard_irqs 2, gro_flush_timeout 20 us) at 100 kpps:
 * each productive poll ends in napi_complete_done() DEFERRED, which arms
 * the timer (napi.deferred = timers armed: nothing else arms it without
 * busy polling); each start ends once (expired, restarted while armed, or
 * still armed at the end), and each expiry is one napi_watchdog() call,
 * counted once in napi.watchdog_fires (main counted every fire and every
 * schedule twice: once in the simulator, once in the core).  A timer that
 * expires schedules the NAPI unless a poll owns it, so watchdog_scheds <=
 * watchdog_fires.  20 ms at one frame per 10 us: far more than 100 timers. */
static void test_napi_timer_accounting(void **state)
{
	struct run *x = RUN(BASE, "nic.eth0.napi_defer_hard_irqs=2",
			    "nic.eth0.gro_flush_timeout=20us", "run.warmup=0ms");
	const struct nic *n = &x->sim.nic[0];
	uint64_t queued = 0;

	(void)state;
	for (uint8_t k = 0; k < x->sim.cpu[0].n_irq_q; k++)
		queued += x->sim.cpu[0].irq_q[k] == (IRQ_TIMER | n->id);
	assert_true(n->timers_armed > 100);
	assert_u64_eq(n->timers_armed, n->napi.deferred);
	assert_u64_eq(n->timers_armed, n->napi.watchdog_fires + queued + n->timers_cancelled +
			  n->timer_armed);
	assert_u64_eq(n->timers_expired, n->napi.watchdog_fires + queued);
	assert_true(n->napi.watchdog_scheds <= n->napi.watchdog_fires);
	assert_true(n->napi.watchdog_scheds > 0);
	run_free(x);
}

/* ---- busy polling ---------------------------------------------------------- */

/* A request/response server (scenarios/rr-server.ini, shorter). */
static const char RR[] =
	"[host]\n"
	"profile = piii-933-e1000\n"
	"cpus = 1\n"
	"rxpath = napi\n"
	"[nic eth0]\n"
	"rx-usecs = 0\n"
	"rx-frames = 1\n"
	"tx-usecs = 8\n"
	"tx-frames = 32\n"
	"[traffic]\n"
	"port = eth0\n"
	"pattern = poisson\n"
	"rate = 50kpps\n"
	"frame-size = 64\n"
	"[apps]\n"
	"sink = on\n"
	"sink-work = 5us\n"
	"reply-size = 64\n"
	"[run]\n"
	"duration = 60ms\n"
	"warmup = 10ms\n";

/* busy_poll_budget = 1: every productive busy poll is full, so the reader
 * often leaves the loop (a request is queued) with a full last poll and no
 * timer armed.  __busy_poll_stop() then hands the NAPI, SCHED held, to
 * softirq (__napi_schedule).  A napi_schedule_prep() there only sets
 * MISSED: the NAPI was on no list with its IRQ masked for the rest of the
 * run, nothing was received, every frame was an RX-OVR, and the ownership
 * invariant fails sim_run().  Now every request is received and answered:
 * 50 ms at 50 kpps is about 2500 requests; at most a few are in flight at
 * either end of the window. */
static void test_busy_poll_full_last_poll(void **state)
{
	struct run *x = RUN(RR, "apps.busy_poll=50us", "apps.busy_poll_budget=1");
	const struct nic_counters *c = &x->r.nic[0].c;

	(void)state;
	assert_u64_eq(c->rx_ovr, 0);
	assert_u64_eq(c->sock_drop, 0);
	assert_true(c->rx_ok > 2000);
	assert_near(c->tx_replies, c->rx_ok, 4);
	assert_true(x->sim.sock.w[0].bp_pkts > 0);
	run_free(x);
}

/* A sink fed by two ports, 20 kpps each, busy-polling 50 us.  The loop
 * polls the NAPI of the port the last datagram came from (sk_busy_loop()
 * reads sk_napi_id once), and a datagram from the other port ends it:
 * busy_poll_stop() must give back the NAPI the loop claimed, not the one
 * the new datagram names (that left eth0 SCHED | IN_BUSY_POLL, its frames
 * RX-OVR from then on).  50 ms at 20 kpps: about 1000 frames a port, each
 * read by the sink (a few may be queued at either end of the window). */
static void test_busy_poll_keeps_its_napi(void **state)
{
	static const char TWO[] =
		"[host]\n"
		"profile = piii-933-e1000\n"
		"cpus = 1\n"
		"rxpath = napi\n"
		"[nic eth0]\n"
		"[nic eth1]\n"
		"[traffic t0]\n"
		"port = eth0\n"
		"pattern = poisson\n"
		"rate = 20kpps\n"
		"frame-size = 64\n"
		"[traffic t1]\n"
		"port = eth1\n"
		"pattern = poisson\n"
		"rate = 20kpps\n"
		"frame-size = 64\n"
		"[apps]\n"
		"sink = on\n"
		"[run]\n"
		"duration = 60ms\n"
		"warmup = 10ms\n";
	struct run *x = RUN(TWO, "apps.busy_poll=50us");

	(void)state;
	for (int i = 0; i < 2; i++) {
		const struct nic_counters *c = &x->r.nic[i].c;

		assert_u64_eq(c->rx_ovr, 0);
		assert_true(c->rx_ok > 900);
		assert_near(c->delivered, c->rx_ok, 4);
	}
	run_free(x);
}

/* sim_check_invariants(): a NAPI holding SCHED must be on a CPU's lists,
 * being polled, claimed by the busy poller or left to its runnable
 * kthread - an idle host's NAPIs are free, so each case is set up by hand. */
static void test_napi_owner_invariant(void **state)
{
	struct run *x = RUN(IDLE, "run.warmup=0ms");
	struct sim *s = &x->sim;
	struct cpu *c = &s->cpu[0];

	(void)state;
	assert_int_equal(sim_check_invariants(s), 0);
	assert_true(napi_schedule_prep(&s->nic[0].napi));
	assert_int_equal(sim_check_invariants(s), -1);
	assert_non_null(strstr(s->fatal, "NAPI holds SCHED but nobody will poll it"));
	c->poll_list.id[c->poll_list.n++] = 0;
	assert_int_equal(sim_check_invariants(s), 0);
	c->poll_list.n = 0;
	/* The idle host has no reader: lend it one socket for this case. */
	struct sock k = { .bp_owned = true, .bp_napi = 0 };
	s->sock.w = &k;
	s->sock.n = 1;
	assert_int_equal(sim_check_invariants(s), 0);
	s->sock.w = NULL;
	s->sock.n = 0;
	assert_true(napi_complete_done(&s->nic[0].napi, 0, false).rearm_irq);
	assert_int_equal(sim_check_invariants(s), 0);
	assert_true(napi_schedule_backlog(&c->backlog_napi));
	assert_int_equal(sim_check_invariants(s), -1);
	assert_non_null(strstr(s->fatal, "backlog NAPI holds SCHED off its poll lists"));
	c->repoll.id[c->repoll.n++] = NAPI_BACKLOG;
	assert_int_equal(sim_check_invariants(s), 0);
	run_free(x);
}

/* A chunk (ISR or poll) commits its frames when it starts, so a port is
 * brought up to the chunk's end early (docs/model.md, "The chunk
 * approximation").  Counters read at the end of a 20 ms run at 1 Mpps must
 * therefore hold every frame that arrived (20000) and may run ahead by at
 * most one chunk.  The longest is an isr-loop slice: it stops after the
 * pass that crosses 200 us, and a pass takes at most a ring of 256 frames
 * at rx-pkt + netif-rx = 1400 ns each (358.4 us), so 558.4 us = 559 frames
 * at 1 Mpps; 600 is the bound.  At 2 Mpps offered the wire rate may exceed
 * line rate by the same lead. */
static void test_rx_counters_lead_bounded(void **state)
{
	static const char *const paths[] = { "host.rxpath=classic", "host.rxpath=isr-loop",
					     "host.rxpath=napi" };
	struct run *x;

	(void)state;
	for (int i = 0; i < 3; i++) {
		x = RUN(BASE, paths[i], "traffic.rate=1Mpps", "run.warmup=0ms");
		if (x->sim.nic[0].c.entered < 20000 || x->sim.nic[0].c.entered > 20600)
			fail_msg("%s: eth0 entered = %llu, want 20000..20600", paths[i],
				 (unsigned long long)x->sim.nic[0].c.entered);
		run_free(x);
	}
	x = RUN(BASE, "traffic.rate=2Mpps");
	assert_true(x->r.wire_pps <= 1e9 / WIRE64_NS + 600 / x->r.window_s);
	run_free(x);
}

/* ---- multiprocessor costs (seed 002) -------------------------------------- */

static uint64_t skb_total(const struct results *r, int what)
{
	uint64_t n = 0;

	for (uint16_t i = 0; i < r->n_cpus; i++)
		n += what == 0 ? r->cpu[i].sn.skb_hit
		     : what == 1 ? r->cpu[i].sn.skb_miss : r->cpu[i].sn.remote_free;
	return n;
}

/* skb-recycle = on, light load, tx-clean = xmit: frame k's RX refill runs
 * before its forward, whose xmit frees frame k-1.  Frames 1 and 2 find the
 * pool empty (misses); from frame 3 on, each refill finds the one sk_buff
 * that frame k-2 returned: a hit.
 * A hit skips skb-alloc, so latency drops by exactly that cost. */
static void test_skb_recycle(void **state)
{
	struct run *on = RUN(BASE, "host.skb-recycle=on", "run.warmup=0");
	struct run *off = RUN(BASE, "run.warmup=0");
	const struct nic_result *in = &on->r.nic[0];

	(void)state;
	assert_u64_eq(skb_total(&on->r, 1), 2);
	assert_u64_eq(skb_total(&on->r, 0) + skb_total(&on->r, 1), in->c.rx_taken);
	assert_u64_eq(skb_total(&off->r, 0) + skb_total(&off->r, 1), 0);
	/* mean, not a percentile: percentiles are histogram buckets; the two
	 * misses move the mean by 2 * 700 ns / ~2000 frames */
	assert_near(off->r.lat_mean_us * 1e3 - on->r.lat_mean_us * 1e3, on->p->skb_alloc_ns, 2);
	run_free(on);
	run_free(off);
}

/* irq-cpu = float on an idle two-CPU host: each interrupt finds both CPUs
 * idle (a frame's work, about 5 us, ends before the next arrives 10 us
 * later) and goes round robin, so the CPUs alternate.  Frame k is allocated
 * by CPU k mod 2 and freed when frame k+1 is transmitted, by the other CPU:
 * every free is remote.  Bound to CPU0, none is. */
static void test_irq_float_remote_free(void **state)
{
	struct run *fl = RUN(BASE, "host.cpus=2", "host.rxpath=classic", "nic.eth0.irq-cpu=float",
			     "run.warmup=0");
	struct run *bd = RUN(BASE, "host.cpus=2", "host.rxpath=classic", "run.warmup=0");
	const uint64_t *ic = fl->r.nic[0].irq_cpu;

	(void)state;
	assert_true(ic[0] + ic[1] > 1000);
	assert_true(ic[0] - ic[1] + 1 <= 2); /* |ic[0] - ic[1]| <= 1, unsigned */
	assert_u64_eq(skb_total(&fl->r, 2), fl->r.nic[1].c.tx_cleaned);
	assert_true(fl->r.nic[1].c.tx_cleaned > 1000);
	assert_u64_eq(skb_total(&bd->r, 2), 0);
	assert_u64_eq(bd->r.nic[0].irq_cpu[1], 0);
	run_free(fl);
	run_free(bd);
}

/* ---- ping -f over loopback (seed 004) ------------------------------------- */

/* An idle host: each round is ping-work, sendmsg (syscall/2 + ICMP output,
 * local-deliver), netif_rx, the softirq run in ping's context at
 * local_bh_enable (softirq-entry, then process_backlog: backlog-pkt +
 * icmp_rcv + the echo reply's output, two local-deliver; the reply's
 * netif_rx stamps it), then backlog-pkt + local-deliver to the raw socket,
 * the rest of sendmsg (syscall/2) and recvmsg (syscall).  RTT = stamp - time
 * before sendmsg; nothing competes, so every round is the same.  The reply
 * is queued while process_backlog runs and is taken in the same softirq
 * run (one softirq-entry per round). */
static void test_ping_idle_round(void **state)
{
	struct run *x = RUN(IDLE, "apps.ping=on", "apps.ping-count=1000", "apps.ping-work=30us",
			    "run.duration=1s", "run.warmup=0");
	const struct profile *p = x->p;
	int64_t rtt = p->syscall_ns / 2 + p->local_deliver_ns + p->softirq_entry_ns +
		      p->backlog_pkt_ns + 2 * p->local_deliver_ns;
	int64_t round = 30000 + rtt + p->backlog_pkt_ns + p->local_deliver_ns +
			(p->syscall_ns - p->syscall_ns / 2) + p->syscall_ns;

	(void)state;
	assert_true(x->r.ping.finished);
	assert_u64_eq(x->r.ping.transmitted, 1000);
	assert_u64_eq(x->r.ping.received, 1000);
	assert_near(x->r.ping.rtt_min_ms * 1e6, rtt, 0.5);
	assert_near(x->r.ping.rtt_max_ms * 1e6, rtt, 0.5);
	/* time runs from the first send to the last reply read: 999 rounds
	 * and the last one without its ping-work */
	assert_near(x->r.ping.time_ms * 1e6, 999.0 * (double)round + (double)(round - 30000), 1);
	run_free(x);
}

/* A CPU hog on ping's CPU: the scheduler shares the thread level fairly,
 * but the softirq part of ping's round (the softirq entry, two frames
 * through the backlog, three local-deliver) is interrupt time, not charged to ping's virtual
 * runtime.  So per round the hog also runs for ping's charged time only:
 * rounds take (1 + charged / round) times as long as alone. */
static void test_ping_shares_cpu(void **state)
{
	struct run *a = RUN(IDLE, "apps.ping=on", "apps.ping-count=2000", "run.duration=2s",
			    "run.warmup=0");
	struct run *b = RUN(IDLE, "apps.ping=on", "apps.ping-count=2000", "apps.cpu-hogs=1",
			    "run.duration=2s", "run.warmup=0");
	const struct profile *p = a->p;
	double round = a->r.ping.time_ms * 1e6 / 1999.5;
	double soft = (double)p->softirq_entry_ns + 2.0 * (double)p->backlog_pkt_ns +
		      3.0 * (double)p->local_deliver_ns;

	(void)state;
	assert_true(a->r.ping.finished && b->r.ping.finished);
	assert_rel(b->r.ping.time_ms, a->r.ping.time_ms * (2.0 - soft / round), 0.03);
	run_free(a);
	run_free(b);
}

/* One round (ping-count 1) and one frame on eth0 whose interrupt lands in
 * the softirq chunk of process_backlog.  The round, as in
 * test_ping_idle_round, after the switch to ping (ctx-switch 3000):
 * ping-work to 33000, sendmsg to netif_rx (syscall/2 + local-deliver)
 * 34700, softirq-entry: process_backlog begins at 35000; the reply is
 * stamped after backlog-pkt + two local-deliver, at 37700 (RTT 4700), and
 * the chunk ends after the reply's backlog-pkt + local-deliver, at 39200.
 * A frame that starts at 35000 (start = 35us) interrupts after its wire
 * time and DMA (672 + 1012), at 36684, before the stamp: the hard IRQ
 * (irq-entry + isr, 2500) runs first and the stamp, do_gettimeofday() in
 * netif_rx(), comes 2500 later: RTT 7200.  Started at 37000 the interrupt
 * (38684) comes after the stamp, within the chunk: RTT 4700. */
static void test_ping_stamp_after_preempting_irq(void **state)
{
	static const char *const at[2] = { "traffic.start=35us", "traffic.start=37us" };
	char ini[sizeof(IDLE) + 128];

	(void)state;
	snprintf(ini, sizeof(ini), "%s[traffic]\nport = eth0\nrate = 1kpps\ncount = 1\n", IDLE);
	for (int i = 0; i < 2; i++) {
		struct run *x = RUN(ini, at[i], "apps.ping=on", "apps.ping-count=1",
				    "apps.ping-work=30us", "run.duration=1ms", "run.warmup=0");
		const struct profile *p = x->p;
		int64_t rtt = p->syscall_ns / 2 + p->local_deliver_ns + p->softirq_entry_ns +
			      p->backlog_pkt_ns + 2 * p->local_deliver_ns;
		int64_t irq = p->irq_entry_ns + p->isr_ns;

		assert_u64_eq(x->r.ping.received, 1);
		assert_u64_eq(x->r.nic[0].c.irqs, 1);
		assert_near(x->r.ping.rtt_max_ms * 1e6, i == 0 ? rtt + irq : rtt, 0.5);
		run_free(x);
	}
}

/* netperf with a window of one send: every send() waits for the ACK of
 * the one before, and every recv() finds one segment, so each of the
 * two threads sleeps once per segment.  Alone on its CPU, a thread's
 * wake-up is its CPU's only context switch: as many switches as
 * segments on both CPUs, and every byte sent was read or is in flight. */
static void test_netperf_one_segment_window(void **state)
{
	struct run *x = RUN(IDLE, "host.cpus=2", "apps.netperf=1", "apps.netperf-send-size=16384",
			    "apps.netperf-recv-size=65536", "apps.netperf-window=16384",
			    "run.duration=50ms", "run.warmup=0");
	const struct np_conn *k = &x->sim.np.c[0];
	uint64_t segs = k->sent / 16384;

	(void)state;
	assert_u64_eq(k->sent % 16384, 0);
	assert_true(segs > 100);
	assert_true(k->bytes + 16384 >= k->sent && k->bytes <= k->sent);
	assert_true(x->r.cpu[0].cs + 1 >= segs && x->r.cpu[0].cs <= segs + 1);
	assert_true(x->r.cpu[1].cs + 1 >= segs && x->r.cpu[1].cs <= segs + 1);
	assert_int_equal(x->sim.thr[k->snd].cpu, 0);
	assert_int_equal(x->sim.thr[k->rcv].cpu, 1);
	run_free(x);
}

/* Idle balancing: two hogs pinned to CPU 0 keep netperf's sender waiting
 * there while the receiver's CPU 1 idles.  CPU 1 takes the sender once it
 * has waited longer than sched_migration_cost (cache-cold); with a cost
 * longer than the run it is always cache-hot and stays. */
static void test_netperf_idle_pull(void **state)
{
	struct run *a = RUN(IDLE, "host.cpus=2", "apps.netperf=1", "apps.cpu-hogs=2",
			    "apps.hog-cpu=0", "run.duration=50ms", "run.warmup=0");
	struct run *b = RUN(IDLE, "host.cpus=2", "apps.netperf=1", "apps.cpu-hogs=2",
			    "apps.hog-cpu=0", "host.sched_migration_cost=10s", "run.duration=50ms",
			    "run.warmup=0");
	const struct np_conn *ka = &a->sim.np.c[0], *kb = &b->sim.np.c[0];

	(void)state;
	assert_true(a->sim.cpu[1].sn.migrations >= 1);
	assert_int_equal(a->sim.thr[ka->snd].cpu, 1);
	assert_u64_eq(b->sim.cpu[1].sn.migrations + b->sim.cpu[0].sn.migrations, 0);
	assert_int_equal(b->sim.thr[kb->snd].cpu, 0);
	/* the hogs never move: they have CPU affinity */
	for (uint16_t i = 0; i < a->sim.n_threads; i++)
		if (a->sim.thr[i].kind == THR_HOG)
			assert_int_equal(a->sim.thr[i].cpu, 0);
	/* CPU 1 idles less once it has the sender too (the stream itself is not
	 * faster: a woken sender preempts the hogs at once, and on CPU 1 the
	 * two ends take turns) */
	assert_true(a->r.cpu[1].pct[ACCT_IDLE] < b->r.cpu[1].pct[ACCT_IDLE]);
	run_free(a);
	run_free(b);
}

/* vmstat-interval: a sample at 0 and one per interval; the per-interval
 * deltas add up to the run's totals. */
static void test_vmstat_samples(void **state)
{
	struct run *x = RUN(BASE, "host.rxpath=classic", "run.vmstat-interval=2ms", "run.warmup=0");
	const struct results *r = &x->r;
	uint64_t irqs = 0;

	(void)state;
	assert_u64_eq(r->n_vm, 20 / 2 + 1);
	assert_int_equal(r->vm[0].t, 0);
	assert_int_equal(r->vm[r->n_vm - 1].t, 20000000);
	for (uint16_t i = 0; i < r->n_nics; i++)
		irqs += r->nic[i].c.irqs;
	assert_u64_eq(r->vm[r->n_vm - 1].in - r->vm[0].in, irqs);
	for (uint32_t i = 1; i < r->n_vm; i++) {
		uint64_t sum = 0;

		for (int k = 0; k < ACCT_N; k++)
			sum += r->vm[i].acct[k] - r->vm[i - 1].acct[k];
		assert_u64_eq(sum, 2000000); /* one CPU, 2 ms */
	}
	run_free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_napi_light_load_path_cost),
		cmocka_unit_test(test_poll_exit_idle),
		cmocka_unit_test(test_thread_ops_double),
		cmocka_unit_test(test_idle_exit),
		cmocka_unit_test(test_classic_rx_frames_4),
		cmocka_unit_test(test_absolute_timer_100us),
		cmocka_unit_test(test_restart_timer_on_off),
		cmocka_unit_test(test_restart_timer_constant_waits_for_full_ring),
		cmocka_unit_test(test_min_irq_interval),
		cmocka_unit_test(test_tx_frames_4),
		cmocka_unit_test(test_ring_overflow_fifo_drops),
		cmocka_unit_test(test_backlog_overflow),
		cmocka_unit_test(test_napi_budget_and_squeeze),
		cmocka_unit_test(test_line_rate_cap),
		cmocka_unit_test(test_cpu_pct_sums_to_100),
		cmocka_unit_test(test_cpu_hogs_share),
		cmocka_unit_test(test_skb_recycle),
		cmocka_unit_test(test_irq_float_remote_free),
		cmocka_unit_test(test_ping_idle_round),
		cmocka_unit_test(test_ping_shares_cpu),
		cmocka_unit_test(test_ping_stamp_after_preempting_irq),
		cmocka_unit_test(test_vmstat_samples),
		cmocka_unit_test(test_netperf_one_segment_window),
		cmocka_unit_test(test_netperf_idle_pull),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_accounting),
		cmocka_unit_test(test_napi_timer_accounting),
		cmocka_unit_test(test_rx_counters_lead_bounded),
		cmocka_unit_test(test_busy_poll_full_last_poll),
		cmocka_unit_test(test_busy_poll_keeps_its_napi),
		cmocka_unit_test(test_napi_owner_invariant),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
