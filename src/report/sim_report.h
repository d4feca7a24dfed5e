/* sim_report.h - the tables a simulation prints, in the formats people in
 * this field read: a summary row, netstat -i, /proc/interrupts,
 * /proc/net/softnet_stat, mpstat-style CPU split and top-style threads. */
#ifndef RXLAB_REPORT_SIM_REPORT_H
#define RXLAB_REPORT_SIM_REPORT_H

#include <stdbool.h>

#include "report/table.h"
#include "sim/results.h"

/* The one-row-per-run summary table (sweeps add their varied keys first).
 * @wide: every column (CSV, JSON); otherwise the narrow set that fits a
 * terminal (text). */
struct table *summary_table_new(const char *name, const char *title,
				const char *const *extra_keys, size_t n_extra, bool wide);
/* Append the summary columns of @r to the current row; @wide as above. */
void summary_row(struct table *t, const struct results *r, bool wide);

/* `ethtool -c` for every port of @scn: the coalescing settings as
 * configured (adaptive controllers then change them at run time). */
struct table *coalesce_table(const struct scenario *scn);

/* Every table of a single run. */
struct report *run_report(const struct results *r, bool wide);

#endif
