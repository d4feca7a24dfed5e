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
/* live_queues: one row per receive queue (its CPU, probed and
 * SO_INCOMING_NAPI_ID NAPI ids, rx/s, p50/p99 in us, wake-ups/s) of every
 * run of @r (@n runs) that had several queues. */
struct table *live_queues_table(const struct live_result *r, size_t n);

#endif
