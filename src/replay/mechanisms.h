/* mechanisms.h - one replay per core mechanism (private to src/replay).
 *
 * Each file is named after the src/core module it drives and holds the
 * input columns, the output table and the loop that feeds the rows to the
 * core:
 *   dim.c       net_dim() on cumulative samples, one row per window
 *   itr.c       itr_on_irq_done() (+ the 2 s watchdog in mode 4) per interrupt
 *   adaptive.c  adaptive_sample() on cumulative samples, one row per interval
 *   coalesce.c  the coalescing engine with an infinitely fast (or
 *               --service-ns slow) host, one row per interrupt
 *   defer.c     napi_complete_done() per poll
 * replay.c picks one by kind (replay_run()).  A *_replay() reads rows with
 * csv_next() until the end, appends one table row per decision to @t and
 * returns csv_next()'s last value: 0 at the end, -1 with the message in
 * the csv's error buffer (or in @err for an option the mechanism checks).
 */
#ifndef RXLAB_REPLAY_MECHANISMS_H
#define RXLAB_REPLAY_MECHANISMS_H

#include <stddef.h>
#include <stdint.h>

#include "replay/csv.h"
#include "replay/replay.h"
#include "report/table.h"
#include "rxlab/dim.h"

#define US 1000ull
#define MS (1000 * US)
#define SEC (1000 * MS)
#define NEVER INT64_MAX

static inline int64_t add_sat(int64_t a, int64_t b)
{
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* The header of each kind's input (NULL-terminated); adaptive reads dim's. */
extern const char *const dim_cols[];
extern const char *const itr_cols[];
extern const char *const coal_cols[];
extern const char *const defer_cols[];

/* dim.c.  dim_read(): one row of cumulative counters into @s, truncated to
 * struct dim_sample's widths as dim_update_sample() does; 0 or -1. */
struct table *dim_table_new(const struct replay_opts *o);
int dim_read(struct csv *c, struct dim_sample *s);
int dim_replay(struct csv *c, const struct replay_opts *o, struct table *t);

/* itr.c */
struct table *itr_table_new(void);
int itr_replay(struct csv *c, const struct replay_opts *o, struct table *t);

/* adaptive.c */
struct table *adapt_table_new(void);
int adapt_replay(struct csv *c, const struct replay_opts *o, struct table *t, char *err,
		 size_t errlen);

/* coalesce.c (also replay_coalesce_pcap(), declared in replay/replay.h) */
struct table *coal_table_new(void);
int coal_replay(struct csv *c, const struct replay_opts *o, struct table *t, char *err,
		size_t errlen);

/* defer.c */
struct table *defer_table_new(void);
int defer_replay(struct csv *c, const struct replay_opts *o, struct table *t);

#endif
