/* tune_load_args.h - the robust-goal options of `rxlab tune` into a
 * struct tune_request (tune/tune_request.h, tune/robust.h):
 *   --load A..B       offered rates, --load-points N (2..16, default 5)
 *                     log-spaced points from A to B, both included and
 *                     rounded to 1 frame/s; or --load A,B,... (2..16
 *                     distinct rates, sorted).  Rates as traffic.rate
 *                     takes them: 1pps..1000Mpps.  --load diurnal:PEAK:
 *                     a day's profile, 5, 15, 35, 60, 85 and 100 % of PEAK.
 *   --speeds X,Y,...  with a trace: 2..16 trace-speeds, increasing, each
 *                     as --speed takes it (0.001..1000).
 *   --max-loss P      the implied loss goal, 0..100 % ("0.1%", "0.5", "0").
 */
#ifndef RXLAB_CLI_TUNE_LOAD_ARGS_H
#define RXLAB_CLI_TUNE_LOAD_ARGS_H

#include <stdbool.h>

#include "tune/tune_request.h"

struct tune_load_opts {
	const char *load;                /* --load as written (NULL: none) */
	const char *points;              /* --load-points as written (NULL: 5) */
	char speed[TUNE_MAX_LOADS][20];  /* --speeds' items (req.speeds points here) */
};

/* Option @name with value @v: 0 when taken, 2 after a message on stderr
 * ("rxlab: tune: ..." with the accepted range) for a bad value, 1 when
 * @name is not one of these options. */
int tune_load_opt(struct tune_load_opts *lo, struct tune_request *r, const char *name,
		  const char *v);

/* After every option: read --load and --load-points into r->loads, and
 * refuse what does not go together (--load with a trace, @trace false
 * with --speeds, --speed with --speeds, --load-points without a range).
 * 0, or 2 after a message on stderr. */
int tune_load_finish(struct tune_load_opts *lo, struct tune_request *r, bool trace);

#endif
