/* results.h - what a finished run measured, as plain numbers.
 *
 * Rates are per second of the measurement window (duration - warmup).
 * Ratios that have no denominator (packets per interrupt with no interrupt)
 * are NaN, which the report prints as "-": not reliable, not zero.
 */
#ifndef RXLAB_SIM_RESULTS_H
#define RXLAB_SIM_RESULTS_H

#include "sim/sim.h"

struct nic_result {
	char name[SCN_NAME_LEN];
	struct nic_counters c;          /* window differences */
	uint64_t irq_cpu[SCN_MAX_CPUS]; /* interrupts per CPU, whole run (/proc/interrupts) */
};

struct cpu_result {
	double pct[ACCT_N];             /* user, system, hardirq, softirq, idle */
	struct softnet_counters sn;     /* window differences */
	uint64_t cs;
};

struct thread_result {
	char name[48];
	double pct;                     /* % of one CPU over the window (top) */
	int64_t cpu_ns;                 /* total over the run */
};

/* ping -f over loopback (apps.ping), whole run, iputils' summary. */
struct ping_result {
	bool on;
	bool finished;                  /* all ping-count replies came back */
	uint64_t transmitted, received;
	double time_ms;                 /* first request to last reply read */
	double rtt_min_ms, rtt_avg_ms, rtt_max_ms, rtt_mdev_ms;
	double ipg_ms, ewma_ms;         /* time / (transmitted - 1), rtt estimate */
};

/* netperf TCP_STREAM over loopback (apps.netperf), measurement window. */
struct netperf_result {
	uint32_t conns;                 /* 0: none */
	double mbit_s;                  /* all connections, 10^6 bits/s read by netserver */
	uint64_t drops;                 /* loopback segments and ACKs dropped at a backlog */
	uint64_t migrations;            /* threads moved by idle balancing (all CPUs) */
};

/* The latency distribution is exported as its value at these quantiles
 * (min, p1, p5, p10 .. p90 by 10, p95, p99, p99.9, p99.99, max): enough to
 * draw a CDF of each run without keeping its histogram.  Each value is the
 * upper edge of the histogram bucket (within 0.8%), as hist_quantile(). */
#define RESULTS_CDF_N 17
extern const double results_cdf_q[RESULTS_CDF_N];

struct results {
	char scenario[64];
	const char *rxpath;
	double window_s;
	bool partial;                   /* interrupted: covers 0..t_end only */
	int64_t t_end;                  /* simulated time reached, ns */
	double offered_pps;             /* configured offered load, all sources */
	double wire_pps;                /* frames that reached the ports */
	double forwarded_pps, delivered_pps;
	double replied_pps;             /* server replies sent (requests served) */
	double irqs_per_s, rx_irqs_per_s, tx_irqs_per_s;
	double pkts_per_irq;            /* RX frames taken / RX interrupts */
	double polls_per_s, pkts_per_poll;
	double cpu_pct[ACCT_N];         /* mean over CPUs */
	double ksoftirqd_pct;           /* sum over ksoftirqd threads */
	double cs_per_s;
	double lat_p50_us, lat_p99_us, lat_p999_us, lat_max_us, lat_mean_us;
	uint64_t lat_samples;
	double lat_cdf_us[RESULTS_CDF_N]; /* latency at results_cdf_q[i], us (NaN: no sample) */
	uint64_t drop_link, drop_fifo, drop_backlog, drop_qdisc, drop_socket, drops_total;
	uint64_t time_squeeze;
	bool skb_table;                 /* any sk_buff recycling, remote frees or lock spins */
	uint64_t in_flight;             /* frames still queued at the end */
	uint64_t events;                /* engine events handled */
	uint16_t n_nics, n_cpus, n_threads;
	struct nic_result nic[SCN_MAX_NICS];
	struct cpu_result *cpu;         /* n_cpus entries, owned */
	struct thread_result *thr;      /* n_threads entries, owned */
	struct mod_point *series;       /* moderation changes over the run, owned */
	uint32_t n_series;
	uint64_t series_lost;           /* changes beyond MOD_SERIES_MAX */
	struct ping_result ping;
	struct netperf_result netperf;
	struct vm_sample *vm;           /* vmstat samples (cumulative), owned */
	uint32_t n_vm;
};

const char *rxpath_name(enum rxpath p);

/* Fill @r from a finished run.  0, or -1 on allocation failure. */
int results_collect(struct results *r, const struct sim *s);
void results_free(struct results *r);

#endif
