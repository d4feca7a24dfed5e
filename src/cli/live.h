/* live.h - `rxlab live`: the receive modes of the live engine on real
 * packets (test bed or --iface), real counters, optional side-by-side with
 * the simulator; `rxlab live calibrate` writes the veth host's profile.
 * See docs/live.md. */
#ifndef RXLAB_CLI_LIVE_H
#define RXLAB_CLI_LIVE_H

#include "cli/live_run.h"
#include "report/table.h"

/* `rxlab live ARGS...` (@argv after "live").  Returns the exit status:
 * 0, 1 (a run failed), 2 (bad usage; message on stderr), 128+signal. */
int live_main(int argc, char **argv);

/* `rxlab live calibrate ARGS...`. */
int live_calibrate_main(int argc, char **argv);

/* The tables of `rxlab live` for @n results (live_table.c). */
struct table *live_table(const struct live_result *r, size_t n);
struct table *live_kernel_table(const struct live_result *r, size_t n);

/* Received packets per second, one-way latency quantile @q in us, CPU of
 * the receive thread in % of one CPU: NaN when not measurable. */
double live_rx_pps(const struct live_result *r);
double live_lat_us(const struct live_result *r, double q);
double live_thread_cpu_pct(const struct live_result *r);
/* Receive thread + threaded NAPI kthread CPU in % of one CPU (NaN when
 * there is no kthread: softirq NAPI, --iface). */
double live_rx_path_cpu_pct(const struct live_result *r);

/* Side by side with the simulator (live_sim.c): run each result's workload
 * in the simulator with profile @profile.  NULL with a message on error. */
struct table *live_sim_table(const struct live_result *r, size_t n, const struct live_job *jobs,
			     const char *profile, char *err, size_t errlen);

#endif
