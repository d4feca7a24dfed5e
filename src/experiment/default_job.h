/* default_job.h - what `rxlab` does with no arguments. */
#ifndef RXLAB_EXPERIMENT_DEFAULT_JOB_H
#define RXLAB_EXPERIMENT_DEFAULT_JOB_H

#include <signal.h>
#include <stddef.h>

#include "report/table.h"

/* The receive-livelock experiment: the built-in scenario "livelock" swept
 * over offered rates for each of the classic, isr-loop and napi kernels.
 * Text output has one table per kernel and a verdict; CSV and JSON one table
 * with an rxpath column.  @sets are extra overrides; @jobs processes run the
 * points.  With @plot_dir (NULL: none) it also draws the sweep's figures
 * there (report/plot.h) and names the folder last: on stdout after the text
 * tables, on stderr with CSV or JSON.  A folder that cannot be written is
 * refused before the sweep runs (2); a figure that cannot be written or
 * drawn after it fails the job (2, or 1 when gnuplot fails) once the tables
 * are printed.  Returns an exit code. */
int default_job(enum out_format fmt, const char *const *sets, size_t n_sets, size_t jobs,
		const char *plot_dir, const volatile sig_atomic_t *stop);

/* Where `rxlab` with no arguments puts its figures (in the current
 * directory). */
#define DEFAULT_JOB_FIGURES "rxlab-livelock-figures"

/* Offered rates of the default sweep (for tests and docs). */
extern const char *const livelock_rates;

#endif
