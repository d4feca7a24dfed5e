/* compare.h - `rxlab compare`: every moderation scheme on one workload. */
#ifndef RXLAB_EXPERIMENT_COMPARE_H
#define RXLAB_EXPERIMENT_COMPARE_H

#include <signal.h>
#include <stddef.h>

#include "experiment/sweep.h"
#include "report/table.h"

/* Run scenario @name (default "moderation-compare") under each preset of
 * the scheme registry (include/rxlab/scheme.h), in its order, at each
 * value of @rates (any key, or keys joined by '+'; NULL: traffic.rate low,
 * medium, overload) with extra overrides @sets; print one row per (preset,
 * value), with a column named after @rates' key holding the value when
 * @rates is given.  Returns an exit code. */
int compare_run(const char *name, const struct vary *rates, const char *const *sets,
		size_t n_sets, enum out_format fmt, const volatile sig_atomic_t *stop);

#endif
