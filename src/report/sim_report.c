/* sim_report.c - results -> tables. */
#include "report/sim_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/tool_tables.h"

struct col {
	const char *key, *header;
	int prec;
	bool compact;           /* shown in the narrow text form too */
};

/* Summary columns; the first keys are the contract of `--format csv`. */
static const struct col summary_cols[] = {
	{ "rxpath", "rxpath", -1, true },
	{ "offered_pps", "offered/s", 0, true },
	{ "forwarded_pps", "fwd/s", 0, true },
	{ "delivered_pps", "dlv/s", 0, true },
	{ "rx_irqs_per_s", "rx-irq/s", 0, true },
	{ "pkts_per_irq", "pkt/irq", 2, true },
	{ "cpu_hardirq_pct", "hi%", 1, true },
	{ "cpu_softirq_pct", "si%", 1, true },
	{ "cpu_user_pct", "us%", 1, true },
	{ "cpu_idle_pct", "id%", 1, true },
	{ "lat_p50_us", "p50us", 1, true },
	{ "lat_p99_us", "p99us", 1, true },
	{ "drops_total", "drops", -1, true },
	{ "cpu_system_pct", "sy%", 1, false },
	{ "tx_irqs_per_s", "tx-irq/s", 0, true },
	{ "polls_per_s", "polls/s", 0, false },
	{ "drop_link", "d-link", -1, false },
	{ "drop_fifo", "d-fifo", -1, false },
	{ "drop_backlog", "d-backlog", -1, false },
	{ "drop_qdisc", "d-qdisc", -1, false },
	{ "time_squeeze", "squeeze", -1, true },
	{ "ksoftirqd_pct", "ksoftirqd%", 1, true },
	{ "cs_per_s", "cs/s", 0, false },
	{ "lat_p999_us", "p99.9us", 1, false },
	{ "lat_max_us", "max-us", 1, false },
	{ "drop_socket", "d-socket", -1, false },
	{ "replied_pps", "replies/s", 0, false },
	{ "pkts_per_poll", "pkt/poll", 2, false },
	{ "partial", "partial", -1, false },
};

#define N_SUMMARY (sizeof(summary_cols) / sizeof(summary_cols[0]))

struct table *summary_table_new(const char *name, const char *title,
				const char *const *extra_keys, size_t n_extra, bool wide)
{
	struct table *t = table_new(name, title);

	for (size_t i = 0; i < n_extra; i++)
		table_add_col(t, extra_keys[i], extra_keys[i], -1);
	for (size_t i = 0; i < N_SUMMARY; i++)
		if (wide || summary_cols[i].compact)
			table_add_col(t, summary_cols[i].key, summary_cols[i].header,
				      summary_cols[i].prec);
	return t;
}

/* Value of summary column @i for @r (column 0, rxpath, is a string). */
static double summary_value(const struct results *r, size_t i)
{
	const double v[] = {
		0, r->offered_pps, r->forwarded_pps, r->delivered_pps, r->rx_irqs_per_s,
		r->pkts_per_irq, r->cpu_pct[ACCT_HARDIRQ], r->cpu_pct[ACCT_SOFTIRQ],
		r->cpu_pct[ACCT_USER], r->cpu_pct[ACCT_IDLE], r->lat_p50_us, r->lat_p99_us,
		(double)r->drops_total, r->cpu_pct[ACCT_SYSTEM], r->tx_irqs_per_s, r->polls_per_s,
		(double)r->drop_link, (double)r->drop_fifo, (double)r->drop_backlog,
		(double)r->drop_qdisc, (double)r->time_squeeze, r->ksoftirqd_pct, r->cs_per_s,
		r->lat_p999_us, r->lat_max_us, (double)r->drop_socket, r->replied_pps,
		r->pkts_per_poll, r->partial,
	};

	_Static_assert(sizeof(v) / sizeof(v[0]) == N_SUMMARY, "one value per summary column");
	return v[i];
}

void summary_row(struct table *t, const struct results *r, bool wide)
{
	table_str(t, r->rxpath);
	for (size_t i = 1; i < N_SUMMARY; i++) {
		if (!wide && !summary_cols[i].compact)
			continue;
		if (!strcmp(summary_cols[i].key, "partial"))
			table_bool(t, r->partial);
		else if (summary_cols[i].prec < 0)
			table_u64(t, (uint64_t)summary_value(r, i));
		else
			table_dbl(t, summary_value(r, i));
	}
}

static const struct col extra_cols[] = {
	{ "wire_pps", "wire/s", 0, false },
	{ "irqs_per_s", "irq/s", 0, false },
	{ "lat_mean_us", "mean-us", 1, false },
	{ "lat_samples", "lat-samples", -1, false },
	{ "in_flight", "in-flight", -1, false },
	{ "netperf_mbit_s", "netperf-Mbit/s", 1, false },
	{ "served_pps", "served/s", 0, false },
	{ "lat_p95_us", "p95us", 1, false },
	{ "server_cpu_pct", "server-cpu%", 1, false },
	{ "cpu_ns_per_query", "ns/query", 0, false },
	{ "cycles_per_query", "cycles/query", 0, false },
};

#define N_EXTRA (sizeof(extra_cols) / sizeof(extra_cols[0]))

static const char *const cdf_keys[RESULTS_CDF_N] = {
	"lat_cdf_p0_us", "lat_cdf_p1_us", "lat_cdf_p5_us", "lat_cdf_p10_us", "lat_cdf_p20_us",
	"lat_cdf_p30_us", "lat_cdf_p40_us", "lat_cdf_p50_us", "lat_cdf_p60_us", "lat_cdf_p70_us",
	"lat_cdf_p80_us", "lat_cdf_p90_us", "lat_cdf_p95_us", "lat_cdf_p99_us", "lat_cdf_p999_us",
	"lat_cdf_p9999_us", "lat_cdf_p100_us",
};

const char *metrics_cdf_key(size_t i)
{
	return i < RESULTS_CDF_N ? cdf_keys[i] : NULL;
}

void metrics_extra_cols(struct table *t)
{
	for (size_t i = 0; i < N_EXTRA; i++)
		table_add_col(t, extra_cols[i].key, extra_cols[i].header, extra_cols[i].prec);
	for (size_t i = 0; i < RESULTS_CDF_N; i++)
		table_add_col(t, cdf_keys[i], cdf_keys[i] + 4, 1);
}

void metrics_extra_row(struct table *t, const struct results *r)
{
	table_dbl(t, r->wire_pps);
	table_dbl(t, r->irqs_per_s);
	table_dbl(t, r->lat_mean_us);
	table_u64(t, r->lat_samples);
	table_u64(t, r->in_flight);
	table_dbl(t, r->netperf.conns ? r->netperf.mbit_s : NAN);
	table_dbl(t, r->server.n_workers ? r->server.served_pps : NAN);
	table_dbl(t, r->server.lat_p95_us);
	table_dbl(t, r->server.n_workers ? r->server.server_cpu_pct : NAN);
	table_dbl(t, r->server.cpu_ns_per_query);
	table_dbl(t, r->server.cycles_per_query ? (double)r->server.cycles_per_query : NAN);
	for (size_t i = 0; i < RESULTS_CDF_N; i++)
		table_dbl(t, r->lat_cdf_us[i]);
}

bool metrics_is_output(const char *key)
{
	for (size_t i = 0; i < N_SUMMARY; i++)
		if (!strcmp(key, summary_cols[i].key))
			return true;
	for (size_t i = 0; i < N_EXTRA; i++)
		if (!strcmp(key, extra_cols[i].key))
			return true;
	for (size_t i = 0; i < RESULTS_CDF_N; i++)
		if (!strcmp(key, cdf_keys[i]))
			return true;
	return false;
}

/* netstat -i: counters over the measurement window. */
static struct table *netstat_table(const struct results *r)
{
	static const char *keys[] = { "iface", "rx_ok", "rx_err", "rx_drp", "rx_ovr",
				      "tx_ok", "tx_err", "tx_drp", "tx_ovr" };
	static const char *hdrs[] = { "Iface", "RX-OK", "RX-ERR", "RX-DRP", "RX-OVR",
				      "TX-OK", "TX-ERR", "TX-DRP", "TX-OVR" };
	struct table *t = table_new("netstat_i", "Kernel Interface table (netstat -i, window)");

	for (size_t i = 0; i < 9; i++)
		table_add_col(t, keys[i], hdrs[i], -1);
	for (uint16_t i = 0; i < r->n_nics; i++) {
		const struct nic_counters *c = &r->nic[i].c;

		table_row(t);
		table_str(t, r->nic[i].name);
		table_u64(t, c->rx_ok);
		table_u64(t, 0);
		table_u64(t, c->rx_drp);
		table_u64(t, c->rx_ovr);
		table_u64(t, c->tx_ok);
		table_u64(t, 0);
		table_u64(t, c->tx_drp);
		table_u64(t, 0);
	}
	return t;
}

/* /proc/interrupts: one row per vector (a port's queue), one column per
 * CPU (whole run). */
static struct table *interrupts_table(const struct results *r)
{
	struct table *t = table_new("interrupts", "/proc/interrupts (whole run)");
	char key[16], hdr[16];

	table_add_col(t, "irq", "irq", -1);
	for (uint16_t c = 0; c < r->n_cpus; c++) {
		snprintf(key, sizeof(key), "cpu%u", c);
		snprintf(hdr, sizeof(hdr), "CPU%u", c);
		table_add_col(t, key, hdr, -1);
	}
	table_add_col(t, "device", "device", -1);
	for (uint16_t i = 0; i < r->n_queues; i++) {
		table_row(t);
		table_u64(t, 24 + i);
		for (uint16_t c = 0; c < r->n_cpus; c++)
			table_u64(t, r->queue_irq_cpu[(size_t)i * r->n_cpus + c]);
		table_str(t, r->queue[i].name);
	}
	return t;
}

/* Does any port have more than one queue? */
static bool multi_queue(const struct results *r)
{
	return r->n_queues > r->n_nics;
}

/* Add @n columns of @cols to @t. */
static void add_cols(struct table *t, const struct col *cols, size_t n)
{
	for (size_t i = 0; i < n; i++)
		table_add_col(t, cols[i].key, cols[i].header, cols[i].prec);
}

/* Per queue (ethtool -S rx_queue_N_* style counters, window): how RSS
 * spread the frames and what each vector and NAPI did with them. */
static struct table *queues_table(const struct results *r)
{
	static const struct col cols[] = {
		{ "queue", "queue", -1, true },         { "irq_cpu", "irq-cpu", -1, true },
		{ "rx_ok", "RX-OK", -1, true },         { "rx_ovr", "RX-OVR", -1, true },
		{ "rx_pps", "rx/s", 0, true },          { "irqs_per_s", "irq/s", 0, true },
		{ "pkts_per_irq", "pkt/irq", 2, true }, { "polls_per_s", "poll/s", 0, true },
		{ "pkts_per_poll", "pkt/poll", 2, true }, { "tx_ok", "TX-OK", -1, true },
	};
	struct table *t = table_new("queues", "Queues (per RX/TX queue pair and its vector, window)");

	add_cols(t, cols, sizeof(cols) / sizeof(cols[0]));
	for (uint16_t i = 0; i < r->n_queues; i++) {
		const struct nic_counters *c = &r->queue[i].c;

		table_row(t);
		table_str(t, r->queue[i].name);
		table_u64(t, r->queue[i].irq_cpu);
		table_u64(t, c->rx_ok);
		table_u64(t, c->rx_ovr);
		table_dbl(t, (double)c->rx_taken / r->window_s);
		table_dbl(t, (double)c->irqs / r->window_s);
		table_dbl(t, c->rx_irqs ? (double)c->rx_taken / (double)c->rx_irqs : NAN);
		table_dbl(t, (double)c->polls / r->window_s);
		table_dbl(t, c->polls ? (double)c->poll_pkts / (double)c->polls : NAN);
		table_u64(t, c->tx_ok);
	}
	return t;
}

static void gro_row(struct table *t, const char *name, const struct nic_counters *c,
		    double window_s)
{
	table_row(t);
	table_str(t, name);
	table_u64(t, c->gro_segs);
	table_u64(t, c->gro_skbs);
	table_u64(t, c->gro_skb_segs);
	table_dbl(t, (double)c->gro_skbs / window_s);
	table_dbl(t, c->gro_skbs ? (double)c->gro_skb_segs / (double)c->gro_skbs : NAN);
}

/* GRO (ports with gro = on), window: frames into napi_gro_receive(), skbs
 * out of it to the stack and the frames they carried; per port, and per
 * queue when a port has several. */
static struct table *gro_table(const struct results *r)
{
	static const struct col cols[] = {
		{ "iface", "iface", -1, true },        { "gro_in", "segs-in", -1, true },
		{ "gro_skbs", "skbs-out", -1, true },  { "gro_skb_segs", "segs-out", -1, true },
		{ "skbs_per_s", "skbs/s", 0, true },   { "segs_per_skb", "segs/skb", 2, true },
	};
	struct table *t = table_new("gro", "GRO (napi_gro_receive: frames in, skbs to the stack, "
				    "window)");

	add_cols(t, cols, sizeof(cols) / sizeof(cols[0]));
	for (uint16_t i = 0; i < r->n_nics; i++)
		gro_row(t, r->nic[i].name, &r->nic[i].c, r->window_s);
	for (uint16_t i = 0; multi_queue(r) && i < r->n_queues; i++)
		gro_row(t, r->queue[i].name, &r->queue[i].c, r->window_s);
	return t;
}

/* Idle-state residency per CPU, as `cpupower monitor -m Idle_Stats` and
 * turbostat show it: Busy% (C0) and the % of the window in each state. */
static struct table *cstates_table(const struct results *r)
{
	struct table *t = table_new("cpuidle", "CPU idle states (cpupower monitor, % of window)");
	char key[40], hdr[32];

	table_add_col(t, "cpu", "CPU", -1);
	table_add_col(t, "busy_pct", "Busy%", 2);
	for (uint8_t k = 0; k < r->n_cstates; k++) {
		snprintf(key, sizeof(key), "%s_pct", r->cstate_name[k]);
		snprintf(hdr, sizeof(hdr), "%s%%", r->cstate_name[k]);
		table_add_col(t, key, hdr, 2);
	}
	for (uint8_t k = 0; k < r->n_cstates; k++) {
		snprintf(key, sizeof(key), "%s_usage", r->cstate_name[k]);
		snprintf(hdr, sizeof(hdr), "%s-usage", r->cstate_name[k]);
		table_add_col(t, key, hdr, -1);
	}
	for (uint16_t i = 0; i < r->n_cpus; i++) {
		table_row(t);
		table_u64(t, i);
		table_dbl(t, 100.0 - r->cpu[i].pct[ACCT_IDLE]);
		for (uint8_t k = 0; k < r->n_cstates; k++)
			table_dbl(t, r->cpu[i].cstate_pct[k]);
		for (uint8_t k = 0; k < r->n_cstates; k++)
			table_u64(t, r->cpu[i].cstate_usage[k]);
	}
	return t;
}

/* /proc/net/softnet_stat, decimal, window. */
static struct table *softnet_table(const struct results *r)
{
	struct table *t = table_new("softnet_stat", "/proc/net/softnet_stat (window, decimal)");

	table_add_col(t, "cpu", "cpu", -1);
	table_add_col(t, "processed", "processed", -1);
	table_add_col(t, "dropped", "dropped", -1);
	table_add_col(t, "time_squeeze", "time_squeeze", -1);
	table_add_col(t, "ksoftirqd_wakes", "ksoftirqd-wakes", -1);
	for (uint16_t i = 0; i < r->n_cpus; i++) {
		table_row(t);
		table_u64(t, i);
		table_u64(t, r->cpu[i].sn.processed);
		table_u64(t, r->cpu[i].sn.dropped);
		table_u64(t, r->cpu[i].sn.time_squeeze);
		table_u64(t, r->cpu[i].sn.ksoftirqd_wakes);
	}
	return t;
}

/* Per CPU: sk_buff recycling ("RC hit/miss"), frees of sk_buffs another
 * CPU allocated, and time spent spinning for a device's xmit lock. */
static struct table *skb_table(const struct results *r)
{
	struct table *t = table_new("skb", "sk_buffs per CPU (window)");

	table_add_col(t, "cpu", "cpu", -1);
	table_add_col(t, "recycle_hit", "recycle-hit", -1);
	table_add_col(t, "recycle_miss", "recycle-miss", -1);
	table_add_col(t, "remote_free", "remote-free", -1);
	table_add_col(t, "xmit_spin_pct", "xmit-spin%", 1);
	for (uint16_t i = 0; i < r->n_cpus; i++) {
		const struct softnet_counters *sn = &r->cpu[i].sn;

		table_row(t);
		table_u64(t, i);
		table_u64(t, sn->skb_hit);
		table_u64(t, sn->skb_miss);
		table_u64(t, sn->remote_free);
		table_dbl(t, 100.0 * (double)sn->xmit_spin_ns / (r->window_s * 1e9));
	}
	return t;
}

/* netperf's result line, summed over the connections. */
static struct table *netperf_table(const struct results *r)
{
	const struct netperf_result *n = &r->netperf;
	struct table *t = table_new("netperf", "netperf TCP_STREAM to localhost (window, all "
				    "connections)");

	table_add_col(t, "connections", "conns", -1);
	table_add_col(t, "elapsed_s", "Elapsed(s)", 2);
	table_add_col(t, "throughput_mbit_s", "Throughput(10^6bits/s)", 1);
	table_add_col(t, "per_connection_mbit_s", "per-conn", 1);
	table_add_col(t, "loopback_drops", "lo-drops", -1);
	table_add_col(t, "migrations", "migrations", -1);
	table_row(t);
	table_u64(t, n->conns);
	table_dbl(t, r->window_s);
	table_dbl(t, n->mbit_s);
	table_dbl(t, n->mbit_s / n->conns);
	table_u64(t, n->drops);
	table_u64(t, n->migrations);
	return t;
}

/* The summary ping -f prints at the end (iputils), and its numbers. */
static struct table *ping_table(const struct results *r)
{
	const struct ping_result *p = &r->ping;
	struct table *t = table_new("ping", NULL);
	char text[512];
	int n;

	n = snprintf(text, sizeof(text),
		     "--- 127.0.0.1 ping statistics ---\n"
		     "%llu packets transmitted, %llu received, %.0f%% packet loss, time %.0fms\n",
		     (unsigned long long)p->transmitted, (unsigned long long)p->received,
		     p->transmitted ? 100.0 * (double)(p->transmitted - p->received) /
				      (double)p->transmitted : 0.0, floor(p->time_ms));
	if (p->received && n > 0 && (size_t)n < sizeof(text))
		snprintf(text + n, sizeof(text) - (size_t)n,
			 "rtt min/avg/max/mdev = %.3f/%.3f/%.3f/%.3f ms, ipg/ewma %.3f/%.3f ms\n",
			 p->rtt_min_ms, p->rtt_avg_ms, p->rtt_max_ms, p->rtt_mdev_ms, p->ipg_ms,
			 p->ewma_ms);
	table_set_text(t, text);
	table_add_col(t, "transmitted", "transmitted", -1);
	table_add_col(t, "received", "received", -1);
	table_add_col(t, "finished", "finished", -1);
	table_add_col(t, "time_ms", "time_ms", 0);
	table_add_col(t, "rtt_min_ms", "rtt_min_ms", 3);
	table_add_col(t, "rtt_avg_ms", "rtt_avg_ms", 3);
	table_add_col(t, "rtt_max_ms", "rtt_max_ms", 3);
	table_add_col(t, "rtt_mdev_ms", "rtt_mdev_ms", 3);
	table_add_col(t, "ipg_ms", "ipg_ms", 3);
	table_add_col(t, "ewma_ms", "ewma_ms", 3);
	table_row(t);
	table_u64(t, p->transmitted);
	table_u64(t, p->received);
	table_bool(t, p->finished);
	table_dbl(t, floor(p->time_ms));
	table_dbl(t, p->rtt_min_ms);
	table_dbl(t, p->rtt_avg_ms);
	table_dbl(t, p->rtt_max_ms);
	table_dbl(t, p->rtt_mdev_ms);
	table_dbl(t, p->ipg_ms);
	table_dbl(t, p->ewma_ms);
	return t;
}

/* vmstat N, friendly (--style friendly): one line per interval, with its
 * time.  in and cs per second; us, sy, id as % of all CPUs' time, with sy =
 * system + irq + softirq as procps's vmstat shows them, and hi / sirq apart
 * (not "si": vmstat's si is swap-in). */
static struct table *vmstat_table(const struct results *r)
{
	struct table *t = table_new("vmstat", "vmstat (one line per interval; sy includes hi and sirq)");

	table_add_col(t, "t_s", "t", 3);
	table_add_col(t, "r", "r", -1);
	table_add_col(t, "b", "b", -1);
	table_add_col(t, "in", "in", -1);
	table_add_col(t, "cs", "cs", -1);
	table_add_col(t, "us", "us", -1);
	table_add_col(t, "sy", "sy", -1);
	table_add_col(t, "id", "id", -1);
	table_add_col(t, "wa", "wa", -1);
	table_add_col(t, "hi", "hi", -1);
	table_add_col(t, "sirq", "sirq", -1);
	for (uint32_t i = 1; i < r->n_vm; i++) {
		const struct vm_sample *a = &r->vm[i - 1], *b = &r->vm[i];
		double dt = (double)(b->t - a->t) / 1e9, tot = 0, d[ACCT_N];

		for (int k = 0; k < ACCT_N; k++)
			tot += d[k] = (double)(b->acct[k] - a->acct[k]);
		if (dt <= 0 || tot <= 0)
			continue;
		table_row(t);
		table_dbl(t, (double)b->t / 1e9);
		table_u64(t, b->r);
		table_u64(t, 0);
		table_dbl(t, (double)(b->in - a->in) / dt);
		table_dbl(t, (double)(b->cs - a->cs) / dt);
		table_dbl(t, 100 * d[ACCT_USER] / tot);
		table_dbl(t, 100 * (d[ACCT_SYSTEM] + d[ACCT_HARDIRQ] + d[ACCT_SOFTIRQ]) / tot);
		table_dbl(t, 100 * d[ACCT_IDLE] / tot);
		table_u64(t, 0);
		table_dbl(t, 100 * d[ACCT_HARDIRQ] / tot);
		table_dbl(t, 100 * d[ACCT_SOFTIRQ] / tot);
	}
	return t;
}

static struct table *mpstat_table(const struct results *r)
{
	static const char *keys[] = { "usr", "sys", "irq", "soft", "idle" };
	struct table *t = table_new("mpstat", "CPU time (mpstat -P ALL, % of window)");

	table_add_col(t, "cpu", "CPU", -1);
	for (int k = 0; k < ACCT_N; k++)
		table_add_col(t, keys[k], keys[k] , 1);
	table_add_col(t, "cs_per_s", "cs/s", 0);
	for (uint16_t i = 0; i < r->n_cpus; i++) {
		table_row(t);
		table_u64(t, i);
		for (int k = 0; k < ACCT_N; k++)
			table_dbl(t, r->cpu[i].pct[k]);
		table_dbl(t, (double)r->cpu[i].cs / r->window_s);
	}
	return t;
}

static struct table *threads_table(const struct results *r)
{
	struct table *t = table_new("threads", "Threads (top, %CPU of one CPU over the window)");

	table_add_col(t, "command", "COMMAND", -1);
	table_add_col(t, "cpu_pct", "%CPU", 1);
	table_add_col(t, "time_ms", "TIME(ms)", 1);
	/* threaded = busy-poll: which threads' CPU is busy polling, and how
	 * much of it found nothing (only then: other outputs unchanged) */
	if (r->busy_poll) {
		table_add_col(t, "busy_poll", "BUSY-POLL", -1);
		table_add_col(t, "spin_pct", "SPIN%", 1);
	}
	for (uint16_t i = 0; i < r->n_threads; i++) {
		table_row(t);
		table_str(t, r->thr[i].name);
		table_dbl(t, r->thr[i].pct);
		table_dbl(t, (double)r->thr[i].cpu_ns / 1e6);
		if (r->busy_poll) {
			table_str(t, r->thr[i].busy_poll ? "yes" : NULL);
			table_dbl(t, r->thr[i].spin_pct);
		}
	}
	return t;
}

struct table *coalesce_table(const struct scenario *scn)
{
	static const char *const adaptive[] = { "off", "dim", "pkt-rate" };
	static const char *const keys[] = {
		"iface", "adaptive-rx", "rx-usecs", "rx-frames", "rx-usecs-irq", "rx-frames-irq",
		"tx-usecs", "tx-frames", "tx-usecs-irq", "tx-frames-irq", "cqe-mode-rx",
		"cqe-mode-tx", "min-irq-interval-us", "napi_defer_hard_irqs",
		"gro_flush_timeout-us",
	};
	struct table *t = table_new("coalesce", "Coalesce parameters (ethtool -c) and NAPI deferral");

	/* times in us with ns resolution; names, switches and counts plain */
	static const int prec[] = { -1, -1, 3, -1, 3, -1, 3, -1, 3, -1, -1, -1, 3, -1, 3 };

	_Static_assert(sizeof(prec) / sizeof(prec[0]) == sizeof(keys) / sizeof(keys[0]),
		       "one precision per column");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		table_add_col(t, keys[i], keys[i], prec[i]);
	for (uint32_t i = 0; i < scn->n_nics; i++) {
		const struct scn_nic *n = &scn->nic[i];
		char policy[SCN_NAME_LEN + 8];

		snprintf(policy, sizeof(policy), "policy:%s", n->adaptive_policy);
		table_row(t);
		table_str(t, n->name);
		table_str(t, n->adaptive_rx == ADAPTIVE_POLICY ? policy : adaptive[n->adaptive_rx]);
		table_dbl(t, (double)n->rx_usecs_ns / 1e3);
		table_u64(t, n->rx_frames);
		table_dbl(t, (double)n->rx_usecs_irq_ns / 1e3);
		table_u64(t, n->rx_frames_irq);
		table_dbl(t, (double)n->tx_usecs_ns / 1e3);
		table_u64(t, n->tx_frames);
		table_dbl(t, (double)n->tx_usecs_irq_ns / 1e3);
		table_u64(t, n->tx_frames_irq);
		table_str(t, n->rx_timer == TIMER_RESTART ? "on" : "off");
		table_str(t, n->tx_timer == TIMER_RESTART ? "on" : "off");
		table_dbl(t, (double)n->min_irq_gap_ns / 1e3);
		table_u64(t, n->napi_defer_hard_irqs);
		table_dbl(t, (double)n->gro_flush_timeout_ns / 1e3);
	}
	return t;
}

/* Moderation changes made by DIM / e1000 ITR / pkt-rate / a policy over
 * time. */
static struct table *series_table(const struct results *r)
{
	/* indexed by enum mod_kind */
	static const char *const kinds[] = { "dim", "itr", "pkt-rate", "policy" };
	struct table *t = table_new("moderation", "Moderation changes over time (adaptive-rx)");

	table_add_col(t, "time_us", "time-us", 1);
	table_add_col(t, "iface", "iface", -1);
	table_add_col(t, "controller", "controller", -1);
	table_add_col(t, "index", "profile/class", -1);
	table_add_col(t, "rx_usecs", "rx-usecs", 3);
	table_add_col(t, "rx_frames", "rx-frames/itr", -1);
	for (uint32_t i = 0; i < r->n_series; i++) {
		const struct mod_point *p = &r->series[i];

		table_row(t);
		table_dbl(t, (double)p->t / 1e3);
		table_str(t, r->queue[p->nic].name);
		table_str(t, kinds[p->kind]);
		table_u64(t, p->ix);
		table_dbl(t, (double)p->usecs_ns / 1e3);
		table_u64(t, p->frames);
	}
	return t;
}

/* The columns an epoll server run adds to its summary (mutilate's and
 * memcached's figures of merit): served queries, latency avg and p95 (p99
 * and p99.9 are summary columns already; the narrow form adds p99.9), the
 * workers' CPU and the host's busy cycles per query (NaN when the profile
 * gives no ghz). */
static void server_summary_cols(struct table *t, bool wide)
{
	table_add_col(t, "served_pps", "served/s", 0);
	table_add_col(t, "lat_avg_us", "avg-us", 1);
	table_add_col(t, "lat_p95_us", "p95us", 1);
	if (!wide)
		table_add_col(t, "lat_p999_us", "p99.9us", 1);
	table_add_col(t, "server_cpu_pct", "server-cpu%", 1);
	table_add_col(t, "cycles_per_query", "cycles/query", 0);
}

static void server_summary_row(struct table *t, const struct results *r, bool wide)
{
	const struct server_result *v = &r->server;

	table_dbl(t, v->served_pps);
	table_dbl(t, r->lat_mean_us);
	table_dbl(t, v->lat_p95_us);
	if (!wide)
		table_dbl(t, r->lat_p999_us);
	table_dbl(t, v->server_cpu_pct);
	table_dbl(t, v->cycles_per_query ? (double)v->cycles_per_query : NAN);
}

/* Per worker (top, and the busy-poll and IRQ-suspension counters of its
 * epoll set), window. */
static struct table *workers_table(const struct results *r)
{
	static const struct col cols[] = {
		{ "worker", "worker", -1, true },        { "cpu", "cpu", -1, true },
		{ "served", "served", -1, true },        { "served_pps", "served/s", 0, true },
		{ "cpu_pct", "%CPU", 1, true },          { "busy_polls", "bp-polls", -1, true },
		{ "busy_poll_pkts", "bp-pkts", -1, true }, { "suspends", "suspends", -1, true },
		{ "resumes", "resumes", -1, true },      { "epoll_timeouts", "timeouts", -1, true },
	};
	struct table *t = table_new("workers", "Server workers (epoll sets, window)");

	add_cols(t, cols, sizeof(cols) / sizeof(cols[0]));
	for (uint16_t i = 0; i < r->server.n_workers; i++) {
		const struct worker_result *w = &r->server.w[i];

		table_row(t);
		table_str(t, w->name);
		table_u64(t, w->cpu);
		table_u64(t, w->served);
		table_dbl(t, w->served_pps);
		table_dbl(t, w->cpu_pct);
		table_u64(t, w->busy_polls);
		table_u64(t, w->busy_poll_pkts);
		table_u64(t, w->suspends);
		table_u64(t, w->resumes);
		table_u64(t, w->epoll_timeouts);
	}
	return t;
}

int report_style_parse(const char *s, enum report_style *st)
{
	if (!strcmp(s, "tool"))
		*st = STYLE_TOOL;
	else if (!strcmp(s, "friendly"))
		*st = STYLE_FRIENDLY;
	else
		return -1;
	return 0;
}

static struct table *summary_table(const struct results *r, bool wide)
{
	char title[128];
	struct table *sum;

	if (r->partial)
		snprintf(title, sizeof(title), "Summary (PARTIAL: interrupted at %.3f ms of simulated "
			 "time)", (double)r->t_end / 1e6);
	else
		snprintf(title, sizeof(title), "Summary (measurement window)");
	sum = summary_table_new("summary", title, NULL, 0, wide);
	if (r->server.epoll)
		server_summary_cols(sum, wide);
	table_row(sum);
	summary_row(sum, r, wide);
	if (r->server.epoll)
		server_summary_row(sum, r, wide);
	return sum;
}

struct report *run_report_styled(const struct results *r, bool wide, enum report_style st)
{
	struct report *rep = report_new();
	bool tool = st == STYLE_TOOL;

	report_add(rep, summary_table(r, wide));
	report_add(rep, tool ? tool_netstat_table(r) : netstat_table(r));
	report_add(rep, tool ? tool_interrupts_table(r) : interrupts_table(r));
	if (multi_queue(r))
		report_add(rep, queues_table(r));
	if (r->gro)
		report_add(rep, gro_table(r));
	report_add(rep, tool ? tool_softnet_table(r) : softnet_table(r));
	if (r->skb_table)
		report_add(rep, skb_table(r));
	report_add(rep, tool ? tool_mpstat_table(r) : mpstat_table(r));
	if (r->cstates_table)
		report_add(rep, cstates_table(r));
	report_add(rep, threads_table(r));
	if (r->server.epoll)
		report_add(rep, workers_table(r));
	if (r->n_series)
		report_add(rep, series_table(r));
	if (r->n_vm > 1)
		report_add(rep, tool ? tool_vmstat_table(r) : vmstat_table(r));
	if (r->ping.on)
		report_add(rep, ping_table(r));
	if (r->netperf.conns)
		report_add(rep, netperf_table(r));
	return rep;
}

struct report *run_report(const struct results *r, bool wide)
{
	return run_report_styled(r, wide, STYLE_TOOL);
}
