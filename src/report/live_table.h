/* live_table.h - the tables of `rxlab live` (docs/live.md lists each
 * column and where it comes from). */
#ifndef RXLAB_REPORT_LIVE_TABLE_H
#define RXLAB_REPORT_LIVE_TABLE_H

#include <stddef.h>

#include "live/live_run.h"
#include "report/table.h"

/* The tables of `rxlab live` for @n results: the loop's and the
 * sender's figures, and the kernel's counters. */
struct table *live_table(const struct live_result *r, size_t n);
struct table *live_kernel_table(const struct live_result *r, size_t n);

#endif
