/* live_result.c - the headline figures of one live run (live_run.h).
 * Ratios without a denominator are NaN. */
#include "live/live_run.h"

#include <math.h>

#include "rxlab/hist.h"

static double ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

static double per_s(const struct live_result *r, uint64_t n)
{
	return ratio((double)n, r->dur_s);
}

/* With the built-in sender, packets that carry its header (others, such as
 * stray frames a packet socket sees, do not count). */
double live_rx_pps(const struct live_result *r)
{
	return per_s(r, r->sender ? r->rx.payload_packets : r->rx.packets);
}

double live_lat_us(const struct live_result *r, double q)
{
	if (r->rx.latency.n == 0)
		return NAN;
	return (double)hist_quantile(&r->rx.latency, q) / 1000.0;
}

/* CPU figures are over the sending window (d_sent): the drain after it
 * waits up to 200 ms for packets that may never come (lost ones), idle
 * time that would deflate the CPU of exactly the modes that lose packets.
 * The thread's CPU is its schedstat there; getrusage over the loop's whole
 * run when its tid was not known. */
double live_thread_cpu_pct(const struct live_result *r)
{
	if (r->d_sent.rx_thread_ns > 0)
		return 100.0 * ratio((double)r->d_sent.rx_thread_ns, (double)r->d_sent.t_ns);
	return 100.0 * ratio((double)(r->rx.cpu_user_ns + r->rx.cpu_sys_ns), (double)r->rx.run_ns);
}

/* The receive path's CPU on the receiver's core: the receive thread plus
 * the threaded NAPI kthread that feeds it, over the sending window.
 * The two share the core, so neither alone is the cost of a mode: a
 * SCHED_OTHER spinner gets what the SCHED_FIFO kthread leaves of it, and
 * the kthread's work costs more when it has to preempt a running thread
 * (docs/live.md, "What thread CPU measures").  NaN without a known kthread. */
double live_rx_path_cpu_pct(const struct live_result *r)
{
	if (!r->napi_kthread || r->d_sent.rx_thread_ns == 0)
		return NAN;
	return 100.0 * ratio((double)(r->d_sent.rx_thread_ns + r->d_sent.napi_ns),
			     (double)r->d_sent.t_ns);
}
