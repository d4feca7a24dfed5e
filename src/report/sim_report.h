/* sim_report.h - the tables a simulation prints, in the formats people in
 * this field read: a summary row, netstat -i, /proc/interrupts,
 * /proc/net/softnet_stat, mpstat-style CPU split and top-style threads. */
#ifndef RXLAB_REPORT_SIM_REPORT_H
#define RXLAB_REPORT_SIM_REPORT_H

#include <stdbool.h>

#include "report/table.h"
#include "rxlab/sim.h"

/* The one-row-per-run summary table (sweeps add their varied keys first).
 * @wide: every column (CSV, JSON); otherwise the narrow set that fits a
 * terminal (text). */
struct table *summary_table_new(const char *name, const char *title,
				const char *const *extra_keys, size_t n_extra, bool wide);
/* Append the summary columns of @r to the current row; @wide as above. */
void summary_row(struct table *t, const struct results *r, bool wide);

/* Output columns a sweep row carries after the wide summary: wire_pps,
 * irqs_per_s (RX + TX + other), lat_mean_us, lat_samples, in_flight,
 * netperf_mbit_s (apps.netperf's throughput, NaN without it) and the
 * latency CDF (lat_cdf_p0_us .. lat_cdf_p100_us at results_cdf_q[]).
 * Kept out of the summary so that `rxlab run` and the default job print what
 * they always printed. */
void metrics_extra_cols(struct table *t);
void metrics_extra_row(struct table *t, const struct results *r);

/* Key of latency CDF column @i (< RESULTS_CDF_N): "lat_cdf_p99_us". */
const char *metrics_cdf_key(size_t i);

/* True when @key is an output column of summary_table_new() or
 * metrics_extra_cols(); any other column of a sweep is an input key. */
bool metrics_is_output(const char *key);

/* `ethtool -c` for every port of @scn: the coalescing settings as
 * configured (adaptive controllers then change them at run time). */
struct table *coalesce_table(const struct scenario *scn);

/* How the tables that imitate a file or tool print (`run --style`):
 * STYLE_TOOL  netstat_i, interrupts, softnet_stat, vmstat and mpstat as
 *             the real netstat -i, /proc/interrupts, /proc/net/softnet_stat,
 *             vmstat and mpstat -P ALL show them (report/tool_tables.h);
 * STYLE_FRIENDLY the labelled decimal tables rxlab printed before them
 *             (vmstat's softirq column named sirq, not si). */
enum report_style { STYLE_TOOL, STYLE_FRIENDLY };

/* "tool" or "friendly" into @st: 0, or -1 (@st untouched). */
int report_style_parse(const char *s, enum report_style *st);

/* Every table of a single run, the imitating ones in style @st. */
struct report *run_report_styled(const struct results *r, bool wide, enum report_style st);
/* run_report_styled(@r, @wide, STYLE_TOOL). */
struct report *run_report(const struct results *r, bool wide);

#endif
