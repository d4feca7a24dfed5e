/* tune_report.h - what `rxlab tune` prints and what --out DIR holds, from
 * the result of tune_run() (tune.h).  The same result gives the same bytes.
 *
 * Errors: 0, or -1 with a one-line message in @err (without "rxlab: "; at
 * most the length of one of the request's strings or DIR plus 2 KiB).
 */
#ifndef RXLAB_TUNE_TUNE_REPORT_H
#define RXLAB_TUNE_TUNE_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "report/table.h"
#include "tune/tune.h"

/* Print on @f in @fmt the Pareto front of CPU vs p99 latency and the best
 * setting that meets every goal with the objective (or, when none does,
 * the closest), two tables; in OUT_TABLE also the verdict ("searched N
 * settings ...", then "best: ..." or "no setting meets ...") and, after
 * "to apply it on Linux:", the commands that apply the best point
 * (scheme/apply.h) to @req->iface or the scenario's port.  @res is a
 * TUNE_OK result of tune_run() for @req. */
int tune_report_print(FILE *f, const struct tune_result *res, const struct tune_request *req,
		      enum out_format fmt, char *err, size_t errlen);

/* The two tables of tune_report_print(), "front" and "best", as a report
 * (the caller frees it): for `tune --table NAME` and `--out-dir DIR`. */
struct report *tune_report_tables(const struct tune_result *res, const struct tune_request *req);

/* Create @dir if it is not there and write DIR/tune-points.csv (every
 * point, with whether it is on the front and its round), DIR/tune.dat and
 * DIR/tune.gp (gnuplot: `cd DIR && gnuplot tune.gp` draws tune.svg and
 * tune.png; every text from the user is a checked single-quoted literal)
 * and DIR/apply.sh (the commands as a script).  All four are opened, and
 * so locked, before any is written (io/outfile.h), so that a second `tune
 * --out DIR` fails at once; after a failure, those not yet closed keep
 * what they had. */
int tune_report_write(const char *dir, const struct tune_result *res,
		      const struct tune_request *req, char *err, size_t errlen);

/* The line after --out in table format: "\nwrote DIR/tune-points.csv,
 * tune.dat, tune.gp (cd DIR && gnuplot tune.gp) and apply.sh", DIR quoted
 * for the shell in the command (io/shell_quote.h). */
void tune_report_wrote(FILE *f, const char *dir);

#endif
