/* live_table.c - the tables of `rxlab live`, from the loop's statistics,
 * the sender's counters and the kernel's (docs/live.md lists each column
 * and where it comes from).  Ratios without a denominator are NaN ("-"). */
#include "report/live_table.h"

#include <math.h>
#include <stddef.h>

static double ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

static double per_s(const struct live_result *r, uint64_t n)
{
	return ratio((double)n, r->dur_s);
}

/* Packets the sender numbered that never reached the loop. */
static double lost(const struct live_result *r)
{
	if (!r->sender)
		return NAN;
	return r->tx.seq_next > r->rx.payload_packets
		       ? (double)(r->tx.seq_next - r->rx.payload_packets) : 0;
}

struct table *live_table(const struct live_result *r, size_t n)
{
	struct table *t = table_new("live", "Live receive (one row per mode)");

	table_add_col(t, "mode", "mode", -1);
	table_add_col(t, "offered_pps", "offered/s", 0);
	table_add_col(t, "rx_pps", "rx/s", 0);
	table_add_col(t, "lost", "lost", 0);
	table_add_col(t, "lat_p50_us", "p50us", 1);
	table_add_col(t, "lat_p99_us", "p99us", 1);
	table_add_col(t, "lat_p999_us", "p99.9us", 1);
	table_add_col(t, "lat_max_us", "maxus", 1);
	table_add_col(t, "rx_thread_cpu_pct", "thr-cpu%", 1);
	table_add_col(t, "rx_path_cpu_pct", "rx-cpu%", 1);
	table_add_col(t, "rx_core_busy_pct", "core%", 1);
	table_add_col(t, "wakeups_per_s", "wake/s", 0);
	table_add_col(t, "pkts_per_wakeup", "pkt/wake", 2);
	table_add_col(t, "timer_wakeups_per_s", "timer/s", 0);
	table_add_col(t, "polls_per_s", "poll/s", 0);
	table_add_col(t, "pkts_per_poll", "pkt/poll", 2);
	table_add_col(t, "empty_polls", "empty", -1);
	table_add_col(t, "sleeps", "sleeps", -1);
	table_add_col(t, "mode_switches", "switches", -1);
	for (size_t i = 0; i < n; i++) {
		const struct live_result *x = &r[i];

		table_row(t);
		table_str(t, rxl_mode_name(x->mode));
		table_dbl(t, x->sender ? per_s(x, x->tx.seq_next) : NAN);
		table_dbl(t, live_rx_pps(x));
		table_dbl(t, lost(x));
		table_dbl(t, live_lat_us(x, 0.5));
		table_dbl(t, live_lat_us(x, 0.99));
		table_dbl(t, live_lat_us(x, 0.999));
		table_dbl(t, live_lat_us(x, 1.0));
		table_dbl(t, live_thread_cpu_pct(x));
		table_dbl(t, live_rx_path_cpu_pct(x));
		table_dbl(t, counters_cpu_busy_pct(&x->d_sent, x->rx_cpu));
		table_dbl(t, per_s(x, x->rx.wakeups));
		table_dbl(t, ratio((double)x->rx.packets, (double)x->rx.wakeups));
		table_dbl(t, per_s(x, x->rx.timer_wakeups));
		table_dbl(t, per_s(x, x->rx.polls));
		table_dbl(t, ratio((double)x->rx.packets, (double)x->rx.polls));
		table_u64(t, x->rx.empty_polls);
		table_u64(t, x->rx.sleeps);
		table_u64(t, x->rx.mode_switches);
	}
	return t;
}

static uint64_t sum_cpus(const struct counters *d, size_t off)
{
	uint64_t s = 0;

	for (int i = 0; i < d->ncpu; i++)
		s += *(const uint64_t *)((const char *)&d->cpu[i] + off);
	return s;
}

#define SUM(d, f) sum_cpus(d, offsetof(struct cpu_counters, f))

static void kernel_row(struct table *t, const struct live_result *x)
{
	const struct counters *d = &x->d;
	int c = x->rx_cpu;

	table_row(t);
	table_str(t, rxl_mode_name(x->mode));
	table_dbl(t, per_s(x, d->napi_wakeups));
	table_dbl(t, 100.0 * ratio((double)x->d_sent.napi_ns, (double)x->d_sent.t_ns));
	table_dbl(t, per_s(x, SUM(d, net_rx)));
	table_dbl(t, c >= 0 && c < d->ncpu ? per_s(x, d->cpu[c].irqs) : NAN);
	table_dbl(t, per_s(x, SUM(d, processed)));
	table_u64(t, SUM(d, time_squeeze));
	table_dbl(t, x->sink_only ? NAN : (double)d->sock_drops);
	table_dbl(t, d->tx_dev.valid ? (double)d->tx_dev.tx_dropped : NAN);
	table_dbl(t, x->sender ? (double)x->tx.enobufs : NAN);
	table_u64(t, SUM(d, dropped));
	table_str(t, x->fifo ? "fifo" : "other");
	table_str(t, x->knobs[0] ? x->knobs : "-");
}

struct table *live_kernel_table(const struct live_result *r, size_t n)
{
	struct table *t = table_new("live_kernel", "Kernel counters (softnet_stat, softirqs, "
					       "interrupts, NAPI kthread) and drops per place");

	table_add_col(t, "mode", "mode", -1);
	table_add_col(t, "napi_wakeups_per_s", "napi-wake/s", 0);
	table_add_col(t, "napi_kthread_cpu_pct", "napi-cpu%", 1);
	table_add_col(t, "net_rx_softirqs_per_s", "NET_RX/s", 0);
	table_add_col(t, "rx_cpu_irqs_per_s", "irq/s", 0);
	table_add_col(t, "softnet_processed_per_s", "processed/s", 0);
	table_add_col(t, "time_squeeze", "squeeze", -1);
	table_add_col(t, "drop_socket", "drop-sock", 0);
	table_add_col(t, "drop_veth_ring", "drop-ring", 0);
	table_add_col(t, "drop_enobufs", "enobufs", 0);
	table_add_col(t, "drop_backlog", "drop-backlog", -1);
	table_add_col(t, "rx_sched", "sched", -1);
	table_add_col(t, "device_knobs", "device knobs", -1);
	for (size_t i = 0; i < n; i++)
		kernel_row(t, &r[i]);
	return t;
}

/* live_queues: a row per receive queue of every run with several. */
struct table *live_queues_table(const struct live_result *res, size_t n)
{
	struct table *t = table_new("live_queues", "Receive queues (one row per queue and mode)");

	table_add_col(t, "mode", "mode", -1);
	table_add_col(t, "queue", "queue", 0);
	table_add_col(t, "cpu", "cpu", 0);
	table_add_col(t, "napi_id", "napi-id", 0);
	table_add_col(t, "incoming_napi_id", "incoming-napi-id", 0);
	table_add_col(t, "rx_pps", "rx/s", 0);
	table_add_col(t, "lat_p50_us", "p50us", 1);
	table_add_col(t, "lat_p99_us", "p99us", 1);
	table_add_col(t, "wakeups_per_s", "wake/s", 0);
	table_add_col(t, "sched", "sched", -1);
	for (size_t i = 0; i < n; i++)
		for (int q = 0; res[i].queues > 1 && q < res[i].queues; q++) {
			const struct live_queue *lq = &res[i].q[q];
			double d = res[i].dur_s > 0 ? res[i].dur_s : NAN;

			table_row(t);
			table_str(t, rxl_mode_name(res[i].mode));
			table_dbl(t, q);
			table_dbl(t, lq->cpu);
			table_dbl(t, lq->napi_id);
			table_dbl(t, lq->seen_napi_id);
			table_dbl(t, (double)lq->packets / d);
			table_dbl(t, lq->p50_us);
			table_dbl(t, lq->p99_us);
			table_dbl(t, (double)lq->wakeups / d);
			table_str(t, lq->fifo ? "fifo" : "other");
		}
	return t;
}
