/* progress.h - a sweep's progress bar on stderr.
 *
 *   [##########..........]  37/120 points  31%  0:12 elapsed  ETA 0:26
 *
 * Redrawn in place ('\r') at most ten times a second and after the last
 * point, then replaced by one line "120 points in 0:38 (3.2 points/s)".
 * The ETA is the points still to run times the mean wall time per point so
 * far.  Wall time is only shown here (or used to schedule checkpoints): it
 * never reaches a results file.  Off (no output at all) unless the caller
 * turns it on, which the sweep command does when stderr is a terminal.
 */
#ifndef RXLAB_REPORT_PROGRESS_H
#define RXLAB_REPORT_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

struct progress {
	bool on;
	size_t done, total;
	double t0_s, drawn_s;     /* CLOCK_MONOTONIC: start, last redraw */
};

/* Start counting @total points; draws nothing unless @on. */
void progress_start(struct progress *p, size_t total, bool on);
/* One more point finished. */
void progress_step(struct progress *p);
/* Replace the bar by its one-line summary (when on). */
void progress_end(struct progress *p);

#endif
