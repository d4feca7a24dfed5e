/* validate_figs.c - the seed experiments' runs and their reported figures.
 *
 * Each run is a built-in scenario with overrides; each figure names the runs
 * it reads, how to read it off their results, its class and, for a fitted
 * figure, the parameter that was chosen to match it.  The profile or
 * scenario that sets that parameter says so in a comment line
 *     # fitted: KEY[, KEY...] to FIGURE-ID[, FIGURE-ID...]
 * and validate_classes_check() fails when the two disagree.
 */
#include "experiment/validate_figs.h"

#include <math.h>
#include <string.h>

#include "rxlab/sim.h"

static const struct nic_result *nic_named(const struct results *r, const char *name)
{
	for (uint16_t i = 0; i < r->n_nics; i++)
		if (!strcmp(r->nic[i].name, name))
			return &r->nic[i];
	return NULL;
}

static double thread_s(const struct results *r, const char *name)
{
	for (uint16_t i = 0; i < r->n_threads; i++)
		if (!strcmp(r->thr[i].name, name))
			return (double)r->thr[i].cpu_ns / 1e9;
	return NAN;
}

static double thread_pct(const struct results *r, const char *name)
{
	for (uint16_t i = 0; i < r->n_threads; i++)
		if (!strcmp(r->thr[i].name, name))
			return r->thr[i].pct;
	return NAN;
}

#define NIC(r, name, field) (nic_named((r), (name)) ? (double)nic_named((r), (name))->c.field : NAN)
#define INTR_PCT(r) ((r)->cpu_pct[ACCT_HARDIRQ] + (r)->cpu_pct[ACCT_SOFTIRQ])

/* The runs, in the order figures index them. */
enum {
	R001, R000_CEL_STOCK, R000_CEL_PATCH, R000_CEL_POLL, R000_DUR_STOCK, R000_DUR_PATCH,
	R003_5, R003_20 = R003_5 + 5, R004 = R003_20 + 5, R004_USECS, R004_DEFER,
	R002_REC, R002_1B, R002_1F, R002_1S, R002_2B, R002_2F, R002_2S,
	R004_PING, R004_PING_IDLE, R004_PING_USECS, R004_PING_DEFER, R004_PING_DIM, R004_NETPERF,
	RW_SOFT_1B, RW_KTHR_1B, RW_SOFT_5K, RW_KTHR_5K,
	N_RUNS
};
_Static_assert(N_RUNS <= 64, "USES() is a 64-bit mask");

/* Seed 004's answers are today's knobs, on today's receive core and e100
 * poll (napi_complete_done() once a poll is under budget), on the post's
 * host; they are compared with the post's kernel. */
#define TODAY_SETS "host.rxcore=current", "nic.eth0.poll-exit=budget"

#define FLOAT_SETS "nic.eth0.irq-cpu=float", "nic.eth1.irq-cpu=float"
#define SPLIT_SETS "nic.eth1.irq-cpu=1"

/* Wang 2021 (tcp-rr-threaded.ini): threaded NAPI with unpinned kthreads,
 * and 5 KB requests and replies as one 5066-byte frame each. */
#define KTHREAD_SETS "nic.eth0.threaded=1", "nic.eth0.threaded-cpus=all"
#define SIZE_5K_SETS "traffic.frame-size=5066", "apps.reply-size=5066"

/* Seed 003: the link-utilisation sweep, 5 rates per coalescing setting. */
#define S003(base, frames, rate) [base] = { "seeds/003-tg3-tcp-receive", \
	{ "nic.eth0.rx-frames=" frames, "nic.eth0.rx-frames-irq=" frames, "traffic.rate=" rate, NULL } }

const struct seed_run seed_runs[N_RUNS] = {
	[R001] = { "seeds/001-napi-router", { NULL } },
	[R000_CEL_STOCK] = { "seeds/000-celeron-admtek", { "host.rxpath=isr-while", NULL } },
	[R000_CEL_PATCH] = { "seeds/000-celeron-admtek", { "host.rxpath=isr-loop", NULL } },
	[R000_CEL_POLL] = { "seeds/000-celeron-admtek",
			    { "host.rxpath=bsd-poll", "host.hz=1000", "apps.cpu-hogs=1", "run.warmup=400ms",
			      NULL } },
	[R000_DUR_STOCK] = { "seeds/000-duron-pnic", { "host.rxpath=isr-while", NULL } },
	[R000_DUR_PATCH] = { "seeds/000-duron-pnic", { "host.rxpath=isr-loop", NULL } },
	S003(R003_5, "5", "20kpps"), S003(R003_5 + 1, "5", "40kpps"), S003(R003_5 + 2, "5", "60kpps"),
	S003(R003_5 + 3, "5", "70kpps"), S003(R003_5 + 4, "5", "80kpps"),
	S003(R003_20, "20", "20kpps"), S003(R003_20 + 1, "20", "40kpps"),
	S003(R003_20 + 2, "20", "60kpps"), S003(R003_20 + 3, "20", "70kpps"),
	S003(R003_20 + 4, "20", "80kpps"),
	[R004] = { "seeds/004-e100-napi", { NULL } },
	[R004_USECS] = { "seeds/004-e100-napi", { TODAY_SETS, "nic.eth0.rx-usecs=100",
						  "nic.eth0.rx-frames=32", NULL } },
	[R004_DEFER] = { "seeds/004-e100-napi", { TODAY_SETS, "nic.eth0.napi_defer_hard_irqs=2",
						  "nic.eth0.gro_flush_timeout=50us", NULL } },
	[R004_PING] = { "seeds/004-e100-ping", { NULL } },
	[R004_PING_IDLE] = { "seeds/004-e100-ping", { "traffic.start=60s", NULL } },
	[R004_PING_USECS] = { "seeds/004-e100-ping", { TODAY_SETS, "nic.eth0.rx-usecs=100",
						       "nic.eth0.rx-frames=32", NULL } },
	[R004_PING_DEFER] = { "seeds/004-e100-ping", { TODAY_SETS, "nic.eth0.napi_defer_hard_irqs=2",
						       "nic.eth0.gro_flush_timeout=50us", NULL } },
	[R004_PING_DIM] = { "seeds/004-e100-ping", { TODAY_SETS, "nic.eth0.adaptive-rx=dim", NULL } },
	[R004_NETPERF] = { "seeds/004-e100-netperf", { NULL } },
	[R002_REC] = { "seeds/002-smp-recycle", { NULL } },
	[R002_1B] = { "seeds/002-smp-router-1flow", { NULL } },
	[R002_1F] = { "seeds/002-smp-router-1flow", { FLOAT_SETS, NULL } },
	[R002_1S] = { "seeds/002-smp-router-1flow", { SPLIT_SETS, NULL } },
	[R002_2B] = { "seeds/002-smp-router-2flows", { NULL } },
	[R002_2F] = { "seeds/002-smp-router-2flows", { FLOAT_SETS, NULL } },
	[R002_2S] = { "seeds/002-smp-router-2flows", { SPLIT_SETS, NULL } },
	[RW_SOFT_1B] = { "tcp-rr-threaded", { NULL } },
	[RW_KTHR_1B] = { "tcp-rr-threaded", { KTHREAD_SETS, NULL } },
	[RW_SOFT_5K] = { "tcp-rr-threaded", { SIZE_5K_SETS, NULL } },
	[RW_KTHR_5K] = { "tcp-rr-threaded", { KTHREAD_SETS, SIZE_5K_SETS, NULL } },
};

/* ---- seed 002: SMP forwarding (Olsson's recycling run, Fraser's router) ---- */

static double s002_tx_ok(const struct results *const *r) { return NIC(r[R002_REC], "eth1", tx_ok); }
static double s002_rx_irqs(const struct results *const *r) { return NIC(r[R002_REC], "eth0", irqs); }
static double s002_tx_irqs(const struct results *const *r) { return NIC(r[R002_REC], "eth1", irqs); }

/* Forwarding rate while the 10 M frames at 1.14 Mpps last (8.77 s). */
static double s002_fwd_pps(const struct results *const *r)
{
	return s002_tx_ok(r) / (10e6 / 1.14e6);
}

static double skb_sum(const struct results *r, int miss)
{
	double n = 0;

	for (uint16_t i = 0; i < r->n_cpus; i++)
		n += (double)(miss ? r->cpu[i].sn.skb_miss : r->cpu[i].sn.skb_hit);
	return n;
}

static double s002_hits(const struct results *const *r) { return skb_sum(r[R002_REC], 0); }

/* Misses per million allocations (reported: 384 of 4,313,483, i.e. 89). */
static double s002_miss_ppm(const struct results *const *r)
{
	double hit = skb_sum(r[R002_REC], 0), miss = skb_sum(r[R002_REC], 1);

	return hit + miss > 0 ? 1e6 * miss / (hit + miss) : NAN;
}

/* Busy CPU summed over CPUs, % of one CPU ("65%x2" is 130). */
static double busy_sum(const struct results *r)
{
	double s = 0;

	for (uint16_t i = 0; i < r->n_cpus; i++)
		s += 100.0 - r->cpu[i].pct[ACCT_IDLE];
	return s;
}

#define S002(name, run) \
	static double name##_kpps(const struct results *const *r) { return r[run]->forwarded_pps / 1e3; } \
	static double name##_cpu(const struct results *const *r) { return busy_sum(r[run]); }
S002(s002_1b, R002_1B)
S002(s002_1f, R002_1F)
S002(s002_1s, R002_1S)
S002(s002_2b, R002_2B)
S002(s002_2f, R002_2F)
S002(s002_2s, R002_2S)

/* ---- seed 004: e100 NAPI on POWER ---- */

static double s004_irqs(const struct results *const *r) { return r[R004]->irqs_per_s; }
static double s004_usecs_pct(const struct results *const *r)
{
	return 100.0 * r[R004_USECS]->irqs_per_s / r[R004]->irqs_per_s;
}
static double s004_defer_pct(const struct results *const *r)
{
	return 100.0 * r[R004_DEFER]->irqs_per_s / r[R004]->irqs_per_s;
}

/* ping -f: total time (ms) and round trips (ms) of a run. */
static double ping_time(const struct results *r) { return r->ping.finished ? r->ping.time_ms : NAN; }
static double s004_ping_idle_ms(const struct results *const *r) { return ping_time(r[R004_PING_IDLE]); }
static double s004_ping_ms(const struct results *const *r) { return ping_time(r[R004_PING]); }
static double s004_rtt_idle(const struct results *const *r) { return 1e3 * r[R004_PING_IDLE]->ping.rtt_avg_ms; }
static double s004_rtt(const struct results *const *r) { return 1e3 * r[R004_PING]->ping.rtt_avg_ms; }
static double s004_rtt_max(const struct results *const *r) { return 1e3 * r[R004_PING]->ping.rtt_max_ms; }

/* An answer's ping time as % of the flood's with NAPI alone. */
static double ping_pct(const struct results *const *r, int run)
{
	return 100.0 * ping_time(r[run]) / ping_time(r[R004_PING]);
}
static double s004_ping_usecs(const struct results *const *r) { return ping_pct(r, R004_PING_USECS); }
static double s004_ping_defer(const struct results *const *r) { return ping_pct(r, R004_PING_DEFER); }
static double s004_ping_dim(const struct results *const *r) { return ping_pct(r, R004_PING_DIM); }

/* netperf + vmstat 2 (test 2): vmstat's figures between samples @a and @b
 * (samples are 2 s apart; netperf settles by sample 3, pktgen starts at
 * sample 5 of 7). */
enum vm_what { VM_IN, VM_CS, VM_US, VM_SY };
static double vm_between(const struct results *r, uint32_t a, uint32_t b, enum vm_what w)
{
	const struct vm_sample *x, *y;
	double dt, tot = 0;

	if (b >= r->n_vm)
		return NAN;
	x = &r->vm[a];
	y = &r->vm[b];
	dt = (double)(y->t - x->t) / 1e9;
	for (int k = 0; k < ACCT_N; k++)
		tot += (double)(y->acct[k] - x->acct[k]);
	if (dt <= 0 || tot <= 0)
		return NAN;
	switch (w) {
	case VM_IN:
		return (double)(y->in - x->in) / dt;
	case VM_CS:
		return (double)(y->cs - x->cs) / dt;
	case VM_US:
		return 100.0 * (double)(y->acct[ACCT_USER] - x->acct[ACCT_USER]) / tot;
	case VM_SY:
		return 100.0 * (double)(y->acct[ACCT_SYSTEM] - x->acct[ACCT_SYSTEM] +
					y->acct[ACCT_HARDIRQ] - x->acct[ACCT_HARDIRQ] +
					y->acct[ACCT_SOFTIRQ] - x->acct[ACCT_SOFTIRQ]) / tot;
	}
	return NAN;
}

#define NP(name, a, b, w) \
	static double name(const struct results *const *r) { return vm_between(r[R004_NETPERF], a, b, w); }
NP(s004_np_cs_before, 3, 5, VM_CS)
NP(s004_np_us_before, 3, 5, VM_US)
NP(s004_np_in, 5, 7, VM_IN)
NP(s004_np_us, 5, 7, VM_US)
NP(s004_np_sy, 5, 7, VM_SY)

static double s004_np_cs_pct(const struct results *const *r)
{
	return 100.0 * vm_between(r[R004_NETPERF], 5, 7, VM_CS) / s004_np_cs_before(r);
}

/* ---- seed 003: tg3 coalescing on a TCP receive stream ---- */

/* Received frames per interrupt of the port (RX and TX share it on tg3). */
static double tg3_ppi(const struct results *r)
{
	const struct nic_result *n = nic_named(r, "eth0");

	return n && n->c.irqs ? (double)n->c.rx_taken / (double)n->c.irqs : NAN;
}

static double tg3_cpu(const struct results *r)
{
	return 100.0 - r->cpu_pct[ACCT_IDLE];
}

static double max_over(const struct results *const *r, int first, double (*f)(const struct results *))
{
	double m = NAN;

	for (int i = first; i < first + 5; i++)
		if (isnan(m) || f(r[i]) > m)
			m = f(r[i]);
	return m;
}

static double s003_ppi5(const struct results *const *r) { return max_over(r, R003_5, tg3_ppi); }
static double s003_ppi20(const struct results *const *r) { return max_over(r, R003_20, tg3_ppi); }
static double s003_cpu5(const struct results *const *r) { return max_over(r, R003_5, tg3_cpu); }
static double s003_cpu20(const struct results *const *r) { return max_over(r, R003_20, tg3_cpu); }

/* ---- seed 000: dc(4) under a SYN flood (FreeBSD 4, 100 Mb/s) ---- */

static double cel_stock_irqs(const struct results *const *r) { return r[R000_CEL_STOCK]->rx_irqs_per_s; }
static double cel_stock_intr(const struct results *const *r) { return INTR_PCT(r[R000_CEL_STOCK]); }
static double cel_patch_irqs(const struct results *const *r) { return r[R000_CEL_PATCH]->rx_irqs_per_s; }
static double cel_patch_intr(const struct results *const *r) { return INTR_PCT(r[R000_CEL_PATCH]); }
static double dur_irqs(const struct results *const *r) { return r[R000_DUR_STOCK]->rx_irqs_per_s; }
static double dur_tcp(const struct results *const *r) { return r[R000_DUR_STOCK]->delivered_pps; }
static double dur_intr(const struct results *const *r) { return INTR_PCT(r[R000_DUR_STOCK]); }
static double cel_poll_irqs(const struct results *const *r) { return r[R000_CEL_POLL]->rx_irqs_per_s; }
static double cel_poll_user(const struct results *const *r) { return thread_pct(r[R000_CEL_POLL], "hog/0"); }
static double cel_poll_tcp(const struct results *const *r) { return r[R000_CEL_POLL]->delivered_pps; }

/* |patched / stock - 1| in %: "the patch made no difference". */
static double dur_patch_change(const struct results *const *r)
{
	return 100.0 * fabs(r[R000_DUR_PATCH]->rx_irqs_per_s / r[R000_DUR_STOCK]->rx_irqs_per_s - 1);
}

/* ---- seed 001: Olsson's NAPI router (PIII 933, 2 x e1000) ---- */

static double s001_rx_ok(const struct results *const *r) { return NIC(r[R001], "eth0", rx_ok); }
static double s001_tx_ok(const struct results *const *r) { return NIC(r[R001], "eth1", tx_ok); }
static double s001_rx_ovr(const struct results *const *r) { return NIC(r[R001], "eth0", rx_ovr); }
static double s001_tx_irqs(const struct results *const *r) { return NIC(r[R001], "eth1", irqs); }
/* ps's TIME of ksoftirqd, as 2.4 counts it: each timer tick is charged to
 * the task it interrupts (kernel/timer.c update_process_times()), so the
 * hard interrupts taken while ksoftirqd ran are in its TIME.  ksoftirqd
 * runs for the whole flood, so that is all of the run's hard-IRQ time
 * (warm-up 0: the window is the run). */
static double s001_ksoftirqd(const struct results *const *r)
{
	const struct results *x = r[R001];

	return thread_s(x, "ksoftirqd/0") + x->cpu[0].pct[ACCT_HARDIRQ] / 100.0 * x->window_s;
}

/* Forwarding rate while the 10 M frames at 890 kpps last (11.24 s). */
static double s001_fwd_pps(const struct results *const *r)
{
	return NIC(r[R001], "eth1", tx_ok) / (10e6 / 890e3);
}

/* ---- Wang 2021: neper tcp_rr, 1000 flows, softirq vs threaded NAPI ---- */

/* The simulated host is the server; neper measures the round trip at the
 * client, which is the server's latency plus the scenario's client-delay
 * (a constant, so it adds to every percentile exactly). */
#define WANG_CLIENT_DELAY_US 20.0

static double wang_qps_m(const struct results *r) { return r->replied_pps / 1e6; }

/* Round-trip percentile @i of results_cdf_q[] (11: p90, 13: p99, 14: p99.9). */
static double wang_rtt(const struct results *r, int i)
{
	return r->lat_cdf_us[i] + WANG_CLIENT_DELAY_US;
}

#define WANG(name, run) \
	static double name##_qps(const struct results *const *r) { return wang_qps_m(r[run]); } \
	static double name##_p50(const struct results *const *r) { return r[run]->lat_p50_us + \
									  WANG_CLIENT_DELAY_US; } \
	static double name##_p90(const struct results *const *r) { return wang_rtt(r[run], 11); } \
	static double name##_p99(const struct results *const *r) { return wang_rtt(r[run], 13); } \
	static double name##_p999(const struct results *const *r) { return wang_rtt(r[run], 14); }
WANG(rw_s1, RW_SOFT_1B)
WANG(rw_k1, RW_KTHR_1B)
WANG(rw_s5, RW_SOFT_5K)
WANG(rw_k5, RW_KTHR_5K)

/* kthread's p99.9 as a fraction of softirq's at the same request size. */
static double rw_tail_1b(const struct results *const *r) { return rw_k1_p999(r) / rw_s1_p999(r); }
static double rw_tail_5k(const struct results *const *r) { return rw_k5_p999(r) / rw_s5_p999(r); }

#define USES(run) (UINT64_C(1) << (run))
#define USES5(run) (UINT64_C(0x1f) << (run))

/* ---- figures added with the classes (issue #18) ---- */

/* The patch's effect on the Celeron, % change from stock (the post: 46k ->
 * 38k interrupts/s, 60 -> 55 % in interrupts). */
static double cel_change_irqs(const struct results *const *r)
{
	return 100.0 * (cel_patch_irqs(r) / cel_stock_irqs(r) - 1);
}
static double cel_change_intr(const struct results *const *r)
{
	return 100.0 * (cel_patch_intr(r) / cel_stock_intr(r) - 1);
}

/* 002's orderings: 1 flow, float - bound (the post: 270 - 290); 2 flows,
 * the smaller of float - bound and split - float (380 - 270, 450 - 380). */
static double s002_1f_below_bound(const struct results *const *r)
{
	return s002_1f_kpps(r) - s002_1b_kpps(r);
}
static double s002_2_order(const struct results *const *r)
{
	return fmin(s002_2f_kpps(r) - s002_2b_kpps(r), s002_2s_kpps(r) - s002_2f_kpps(r));
}

/* The RX port's interrupts of every cause (001: /proc/interrupts). */
static double s001_rx_port_irqs(const struct results *const *r) { return NIC(r[R001], "eth0", irqs); }

#define F(seed, id, name, reported, check, bound, fn, uses, cls, param) \
	{ seed, seed "." id, name, reported, check, bound, fn, uses, cls, param }
#define RATIO(seed, id, name, reported, fn, uses, cls, param) \
	F(seed, id, name, reported, CHECK_RATIO, 0, fn, uses, cls, param)

/* The fitted parameters, as "FILE: KEYS" (FILE a built-in profile or
 * scenario, whose comment line "fitted: KEYS to IDS" names the figure). */
#define CEL_FIT "celeron-450-admtek: irq-entry, isr, rx-pkt, local-deliver"
#define DUR_FIT "duron-600-pnic: rx-pkt, local-deliver"
#define PIII_FWD_FIT "piii-933-e1000: rx-pkt, fwd-pkt, tx-clean-pkt"
#define PIII_REC_FIT "piii-933-e1000: skb-alloc"
#define FRASER_UP_FIT "fraser-dual-82543: netif-rx, fwd-pkt"
#define FRASER_MP_FIT "fraser-dual-82543: remote-free, xmit-locked"
#define TG3_FIT "altix-tg3: irq-entry, isr, napi-poll, rx-pkt, local-deliver"
#define TG3_TX_FIT "seeds/003-tg3-tcp-receive: tx-usecs"
#define E100_FLOOD_FIT "power-e100: napi-poll"
#define E100_RTT_FIT "power-e100: local-deliver"
#define PING_FIT "seeds/004-e100-ping: ping-work"
#define NETPERF_FIT "seeds/004-e100-netperf: netperf-work"

#define SAT "saturation: the CPU is the bottleneck, so it is busy"
#define SAT_1 SAT " (one CPU forwards)"

/* One row of Wang's table: QPS (@qps_cls, @param: fitted or predicted),
 * p50 (derived: a closed loop of 1000 flows with one request each has a
 * mean round trip of 1000 / QPS, Little's law, and these are tight
 * distributions), p90, p99, p99.9 (predicted). */
#define WANG_ROWS(mode, id, f, run, qps_cls, param, qps, p50, p90, p99, p999) \
	RATIO("wang", id "-qps", "tcp_rr 1000 flows, " mode ": QPS, millions", qps, f##_qps, \
	      USES(run), qps_cls, param), \
	RATIO("wang", id "-p50", "tcp_rr 1000 flows, " mode ": p50, us", p50, f##_p50, USES(run), \
	      FIG_DERIVED, "1000 flows / QPS, Little's law"), \
	RATIO("wang", id "-p90", "tcp_rr 1000 flows, " mode ": p90, us", p90, f##_p90, USES(run), \
	      FIG_PREDICTED, NULL), \
	RATIO("wang", id "-p99", "tcp_rr 1000 flows, " mode ": p99, us", p99, f##_p99, USES(run), \
	      FIG_PREDICTED, NULL), \
	RATIO("wang", id "-p999", "tcp_rr 1000 flows, " mode ": p99.9, us", p999, f##_p999, \
	      USES(run), FIG_PREDICTED, NULL)

const struct figure seed_figures[] = {
	/* 000 */
	RATIO("000", "cel-stock-irqs", "Celeron 450 + ADMtek, stock dc: interrupts/s at ~57 kpps",
	      46000, cel_stock_irqs, USES(R000_CEL_STOCK), FIG_FITTED, CEL_FIT),
	RATIO("000", "cel-stock-intr", "Celeron 450 + ADMtek, stock dc: % CPU in interrupts (57-63)",
	      60, cel_stock_intr, USES(R000_CEL_STOCK), FIG_FITTED, CEL_FIT),
	RATIO("000", "cel-patch-irqs", "Celeron 450 + ADMtek, ISR-loop patch: interrupts/s", 38000,
	      cel_patch_irqs, USES(R000_CEL_PATCH), FIG_PREDICTED, NULL),
	RATIO("000", "cel-patch-intr",
	      "Celeron 450 + ADMtek, ISR-loop patch: % CPU in interrupts (50-60)", 55, cel_patch_intr,
	      USES(R000_CEL_PATCH), FIG_PREDICTED, NULL),
	RATIO("000", "cel-change-irqs",
	      "Celeron 450 + ADMtek, the patch's effect: % change of interrupts/s (46k -> 38k)",
	      100.0 * (38000.0 / 46000.0 - 1), cel_change_irqs,
	      USES(R000_CEL_STOCK) | USES(R000_CEL_PATCH), FIG_PREDICTED, NULL),
	RATIO("000", "cel-change-intr",
	      "Celeron 450 + ADMtek, the patch's effect: % change of CPU in interrupts (60 -> 55)",
	      100.0 * (55.0 / 60.0 - 1), cel_change_intr,
	      USES(R000_CEL_STOCK) | USES(R000_CEL_PATCH), FIG_PREDICTED, NULL),
	RATIO("000", "dur-irqs", "Duron 600 + PNIC: interrupts/s where it bogs down", 25000, dur_irqs,
	      USES(R000_DUR_STOCK), FIG_FITTED, DUR_FIT),
	RATIO("000", "dur-tcp", "Duron 600 + PNIC: packets/s reaching TCP (response limiter count)",
	      44000, dur_tcp, USES(R000_DUR_STOCK), FIG_FITTED, DUR_FIT),
	F("000", "dur-intr", "Duron 600 + PNIC: bogged down, % CPU in interrupts at least 90", 100,
	  CHECK_AT_LEAST, 90, dur_intr, USES(R000_DUR_STOCK), FIG_DERIVED,
	  SAT ": the fitted per-frame costs at 57 kpps exceed it"),
	F("000", "dur-patch",
	  "Duron 600 + PNIC: the patch makes no difference, % change of interrupts/s at most 10", 0,
	  CHECK_AT_MOST, 10, dur_patch_change, USES(R000_DUR_STOCK) | USES(R000_DUR_PATCH),
	  FIG_QUALITATIVE, NULL),
	/* 000, the author's conclusion run by the model (kern.polling.user_frac
	 * = 50 is an input): claims, not figures of the post */
	F("000", "poll-irqs", "polling under load: interrupts/s at most 100", 0, CHECK_AT_MOST, 100,
	  cel_poll_irqs, USES(R000_CEL_POLL), FIG_CLAIM, NULL),
	F("000", "poll-user", "polling under load: % CPU left to a user process (user_frac 50), "
	  "at least 45", 50, CHECK_AT_LEAST, 45, cel_poll_user, USES(R000_CEL_POLL), FIG_CLAIM, NULL),
	F("000", "poll-tcp", "polling (HZ=1000) still takes in the flood: pps to TCP, at least 51300",
	  57000, CHECK_AT_LEAST, 51300, cel_poll_tcp, USES(R000_CEL_POLL), FIG_CLAIM, NULL),
	/* 001 */
	RATIO("001", "rx-ok", "eth0 RX-OK of 10 M frames offered at 890 kpps", 4031309, s001_rx_ok,
	      USES(R001), FIG_DERIVED, "the forwarding rate over the 11.24 s of the flood"),
	RATIO("001", "tx-ok", "eth1 TX-OK (frames routed)", 4031305, s001_tx_ok, USES(R001),
	      FIG_DERIVED, "RX-OK: every frame received is routed"),
	RATIO("001", "rx-ovr", "eth0 RX-OVR (overruns at the NIC)", 5968699, s001_rx_ovr, USES(R001),
	      FIG_DERIVED, "10 M offered less RX-OK"),
	RATIO("001", "fwd-pps", "forwarding rate during the flood, pps (\"about 350.000 p/s\")",
	      350000, s001_fwd_pps, USES(R001), FIG_FITTED, PIII_FWD_FIT),
	F("001", "rx-irqs", "interrupts of the RX port over the run (/proc/interrupts 26: 41), "
	  "at most 100", 41, CHECK_AT_MOST, 100, s001_rx_port_irqs, USES(R001), FIG_QUALITATIVE,
	  NULL),
	RATIO("001", "tx-irqs", "interrupts of the TX port over the run (/proc/interrupts 24: 80652)",
	      80652, s001_tx_irqs, USES(R001), FIG_PREDICTED, NULL),
	RATIO("001", "ksoftirqd", "ksoftirqd CPU time over the run, s (ps TIME 0:11, with the hard "
	      "IRQs it was interrupted by)", 11, s001_ksoftirqd, USES(R001), FIG_DERIVED,
	      SAT ": 2.4 hands the re-raised poll to ksoftirqd for the 11.24 s of the flood"),
	/* 002, Olsson's recycling run */
	RATIO("002", "rec-fwd-pps", "1.14 Mpps into NAPI, bound, skb recycling: forwarding rate, pps",
	      491000, s002_fwd_pps, USES(R002_REC), FIG_FITTED, PIII_REC_FIT),
	RATIO("002", "rec-tx-ok", "eth1 TX-OK (frames forwarded of 10 M offered)", 4313217,
	      s002_tx_ok, USES(R002_REC), FIG_DERIVED, "the forwarding rate over 8.77 s"),
	F("002", "rec-rx-irqs", "RX interrupts over the run (\"19\"): at most 100", 19, CHECK_AT_MOST,
	  100, s002_rx_irqs, USES(R002_REC), FIG_QUALITATIVE, NULL),
	RATIO("002", "rec-tx-irqs", "TX interrupts over the run (\"53k\")", 53005, s002_tx_irqs,
	      USES(R002_REC), FIG_PREDICTED, NULL),
	RATIO("002", "rec-hits", "sk_buff recycling hits (RC hit)", 4313099, s002_hits,
	      USES(R002_REC), FIG_DERIVED, "TX-OK: every forwarded frame's sk_buff is recycled"),
	F("002", "rec-miss", "recycling misses per million allocations (RC miss 384: 89), "
	  "at most 1000", 89, CHECK_AT_MOST, 1000, s002_miss_ppm, USES(R002_REC), FIG_QUALITATIVE,
	  NULL),
	/* 002, Fraser's router */
	RATIO("002", "1b-kpps", "5k irq/s, TX clean at xmit, 1 flow, bound: kpps", 290, s002_1b_kpps,
	      USES(R002_1B), FIG_FITTED, FRASER_UP_FIT),
	RATIO("002", "1b-cpu", "1 flow, bound: CPU busy, % summed over CPUs (99%x1)", 99,
	      s002_1b_cpu, USES(R002_1B), FIG_DERIVED, SAT_1),
	RATIO("002", "1f-kpps", "1 flow, float: kpps", 270, s002_1f_kpps, USES(R002_1F), FIG_DERIVED,
	      "the assumed offered load, all forwarded"),
	F("002", "1f-order", "1 flow: float forwards less than bound (270 < 290): float - bound, "
	  "kpps, below 0", -20, CHECK_AT_MOST, -0.5, s002_1f_below_bound,
	  USES(R002_1B) | USES(R002_1F), FIG_QUALITATIVE, NULL),
	RATIO("002", "1f-cpu", "1 flow, float: CPU busy, % summed (65%x2)", 130, s002_1f_cpu,
	      USES(R002_1F), FIG_FITTED, FRASER_MP_FIT),
	RATIO("002", "1s-kpps", "1 flow, split: kpps", 290, s002_1s_kpps, USES(R002_1S),
	      FIG_PREDICTED, NULL),
	RATIO("002", "1s-cpu", "1 flow, split: CPU busy, % summed (99%x1)", 99, s002_1s_cpu,
	      USES(R002_1S), FIG_DERIVED, SAT_1),
	RATIO("002", "2b-kpps", "2 flows, bound: kpps", 270, s002_2b_kpps, USES(R002_2B), FIG_FITTED,
	      FRASER_UP_FIT),
	RATIO("002", "2b-cpu", "2 flows, bound: CPU busy, % summed (99%x1)", 99, s002_2b_cpu,
	      USES(R002_2B), FIG_DERIVED, SAT_1),
	RATIO("002", "2f-kpps", "2 flows, float: kpps", 380, s002_2f_kpps, USES(R002_2F), FIG_FITTED,
	      FRASER_MP_FIT),
	RATIO("002", "2f-cpu", "2 flows, float: CPU busy, % summed (82%x2)", 164, s002_2f_cpu,
	      USES(R002_2F), FIG_PREDICTED, NULL),
	RATIO("002", "2s-kpps", "2 flows, split: kpps", 450, s002_2s_kpps, USES(R002_2S),
	      FIG_PREDICTED, NULL),
	RATIO("002", "2s-cpu", "2 flows, split: CPU busy, % summed (96%x2)", 192, s002_2s_cpu,
	      USES(R002_2S), FIG_PREDICTED, NULL),
	F("002", "2-order", "2 flows: bound < float < split (270, 380, 450): the smaller step, kpps, "
	  "above 0", 70, CHECK_AT_LEAST, 0.5, s002_2_order,
	  USES(R002_2B) | USES(R002_2F) | USES(R002_2S), FIG_QUALITATIVE, NULL),
	/* 003 */
	RATIO("003", "ppi5", "rx-frames = rx-frames-irq = 5: most received packets per interrupt "
	      "over the sweep", 4.2, s003_ppi5, USES5(R003_5), FIG_DERIVED,
	      "rx-frames = 5 caps it"),
	RATIO("003", "ppi20", "rx-frames = rx-frames-irq = 20: most received packets per interrupt",
	      19.6, s003_ppi20, USES5(R003_20), FIG_FITTED, TG3_TX_FIT),
	RATIO("003", "cpu5", "rx-frames 5: highest CPU utilisation over the sweep, %", 52, s003_cpu5,
	      USES5(R003_5), FIG_FITTED, TG3_FIT),
	RATIO("003", "cpu20", "rx-frames 20: highest CPU utilisation over the sweep, %", 35,
	      s003_cpu20, USES5(R003_20), FIG_FITTED, TG3_FIT),
	/* 004 */
	RATIO("004", "irqs", "77 kpps of pktgen into e100 NAPI: interrupts/s (\"upwards of 36000\")",
	      36000, s004_irqs, USES(R004), FIG_PREDICTED, NULL),
	RATIO("004", "ping-idle-ms", "ping -f 127.0.0.1, 100000 echoes, idle: time, ms", 4332,
	      s004_ping_idle_ms, USES(R004_PING_IDLE), FIG_FITTED, PING_FIT),
	RATIO("004", "rtt-idle", "ping -f idle: rtt avg, us", 9, s004_rtt_idle, USES(R004_PING_IDLE),
	      FIG_FITTED, E100_RTT_FIT),
	RATIO("004", "ping-ms", "ping -f while receiving 77 kpps: time, ms", 26370, s004_ping_ms,
	      USES(R004_PING), FIG_FITTED, E100_FLOOD_FIT),
	RATIO("004", "rtt", "ping -f while receiving 77 kpps: rtt avg, us", 10, s004_rtt,
	      USES(R004_PING), FIG_PREDICTED, NULL),
	F("004", "rtt-max", "ping -f while receiving 77 kpps: a rare long round trip (max 9.41 ms of "
	  "100,000, mdev 34 us): rtt max, us, at least 1000", 9410, CHECK_AT_LEAST, 1000,
	  s004_rtt_max, USES(R004_PING), FIG_QUALITATIVE, NULL),
	RATIO("004", "np-us-before", "netperf x10 to localhost, before pktgen: vmstat us (9-11)", 10,
	      s004_np_us_before, USES(R004_NETPERF), FIG_FITTED, NETPERF_FIT),
	RATIO("004", "np-cs-before",
	      "netperf x10, before pktgen: vmstat cs (41,175-77,821; mean 51,295)", 51295,
	      s004_np_cs_before, USES(R004_NETPERF), FIG_PREDICTED, NULL),
	RATIO("004", "np-in", "netperf x10 + 77 kpps: vmstat in (\"about 32,000\")", 32000,
	      s004_np_in, USES(R004_NETPERF), FIG_PREDICTED, NULL),
	RATIO("004", "np-us", "netperf x10 + 77 kpps: vmstat us (7-9)", 9, s004_np_us,
	      USES(R004_NETPERF), FIG_PREDICTED, NULL),
	RATIO("004", "np-sy", "netperf x10 + 77 kpps: vmstat sy = sys + hi + si (91-93)", 91,
	      s004_np_sy, USES(R004_NETPERF), FIG_DERIVED, "100 - us"),
	F("004", "np-cs-collapse", "netperf x10 + 77 kpps: cs as % of before, at most 10 "
	  "(\"collapse\" to 1,182-2,597)", 0, CHECK_AT_MOST, 10, s004_np_cs_pct, USES(R004_NETPERF),
	  FIG_QUALITATIVE, NULL),
	/* 004, the answers to "how often to be polled?" run by the model */
	F("004", "usecs-irqs", "rx-usecs 100 / rx-frames 32: % of NAPI's interrupts, at most 50", 0,
	  CHECK_AT_MOST, 50, s004_usecs_pct, USES(R004) | USES(R004_USECS), FIG_CLAIM, NULL),
	F("004", "defer-irqs", "napi_defer_hard_irqs 2 + gro_flush_timeout 50us: % of NAPI's "
	  "interrupts, at most 10", 0, CHECK_AT_MOST, 10, s004_defer_pct,
	  USES(R004) | USES(R004_DEFER), FIG_CLAIM, NULL),
	F("004", "usecs-ping", "rx-usecs 100 / rx-frames 32: % of NAPI's ping -f time, at most 50", 0,
	  CHECK_AT_MOST, 50, s004_ping_usecs, USES(R004_PING) | USES(R004_PING_USECS), FIG_CLAIM,
	  NULL),
	F("004", "defer-ping", "napi_defer_hard_irqs 2 + gro_flush_timeout 50us: % of NAPI's ping -f "
	  "time, at most 50", 0, CHECK_AT_MOST, 50, s004_ping_defer,
	  USES(R004_PING) | USES(R004_PING_DEFER), FIG_CLAIM, NULL),
	F("004", "dim-ping", "adaptive-rx = dim: % of NAPI's ping -f time, at most 100", 0,
	  CHECK_AT_MOST, 100, s004_ping_dim, USES(R004_PING) | USES(R004_PING_DIM), FIG_CLAIM, NULL),
	/* Wang 2021 (tcp-rr-threaded.ini) */
	WANG_ROWS("softirq 1B/1B", "s1", rw_s1, RW_SOFT_1B, FIG_FITTED,
		  "skx-56t-100g: local-deliver", 2.75, 337, 376, 1040, 3690),
	WANG_ROWS("kthread 1B/1B", "k1", rw_k1, RW_KTHR_1B, FIG_PREDICTED, NULL,
		  2.67, 371, 408, 455, 550),
	WANG_ROWS("softirq 5KB/5KB", "s5", rw_s5, RW_SOFT_5K, FIG_FITTED,
		  "skx-56t-100g: copy-per-byte", 1.46, 678, 750, 969, 2780),
	WANG_ROWS("kthread 5KB/5KB", "k5", rw_k5, RW_KTHR_5K, FIG_PREDICTED, NULL,
		  1.44, 695, 789, 891, 1060),
	F("wang", "tail-1b", "tcp_rr 1B/1B: kthread p99.9 / softirq p99.9 (550us / 3.69ms), "
	  "at most 0.5", 0.149, CHECK_AT_MOST, 0.5, rw_tail_1b, USES(RW_SOFT_1B) | USES(RW_KTHR_1B),
	  FIG_QUALITATIVE, NULL),
	F("wang", "tail-5k", "tcp_rr 5KB/5KB: kthread p99.9 / softirq p99.9 (1.06ms / 2.78ms), "
	  "at most 0.5", 0.381, CHECK_AT_MOST, 0.5, rw_tail_5k, USES(RW_SOFT_5K) | USES(RW_KTHR_5K),
	  FIG_QUALITATIVE, NULL),
};

const size_t n_seed_figures = sizeof(seed_figures) / sizeof(seed_figures[0]);
const size_t n_seed_runs = N_RUNS;
