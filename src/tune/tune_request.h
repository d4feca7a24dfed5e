/* tune_request.h - what a tune search is asked (see tune.h).  The command
 * line (src/cli/tune_args.h) fills it and checks every word the user typed
 * before anything runs, so that every wrong option fails first; tune_run()
 * takes it as it is.
 */
#ifndef RXLAB_TUNE_TUNE_REQUEST_H
#define RXLAB_TUNE_TUNE_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

#include "tune/goal.h"

#define TUNE_MAX_GOALS 8
#define TUNE_MAX_POLICIES 16
#define TUNE_MAX_USER_SETS 256
#define TUNE_MAX_LOADS 16

struct tune_request {
	const char *target;              /* scenario (file or built-in name) or trace
					  * (tune_is_trace()) */
	const char *base;                /* with a trace only: the scenario it is played
					  * into (NULL: udp-sink) */
	const char *speed;               /* with a trace only: its trace-speed as written,
					  * a number 0.001..1000 (NULL: 1) */
	struct goal goal[TUNE_MAX_GOALS]; /* 1..TUNE_MAX_GOALS, all must hold */
	size_t n_goals;
	enum tune_metric objective;      /* among the settings that meet the goals */
	bool maximize;                   /* true for throughput only */
	bool enabled[TUNE_MAX_POLICIES]; /* policies searched, by index in tune_policy() */
	const char *iface;               /* interface the commands name, passing
					  * rxl_ifname_check() (NULL: the scenario's port) */
	const char *user_sets[TUNE_MAX_USER_SETS]; /* scenario overrides, "KEY=VALUE" */
	size_t n_user_sets;
	size_t jobs;                     /* processes that run a batch, 1..SWEEP_MAX_JOBS */
	/* --load: every point is judged at each of these offered rates (the
	 * rate of the scenario's one traffic source; a scenario only, not a
	 * trace); it meets only if it meets every goal at every load */
	double loads[TUNE_MAX_LOADS]; /* offered rates, frames/s, ascending; n_loads 0: the scenario's own rate */
	size_t n_loads;
	double max_loss_pct; /* --max-loss, % of frames; default 0.1 */
	/* --speeds: with a trace only, instead of --load: the trace is played
	 * at each of these trace-speeds (numbers 0.001..1000 as written,
	 * ascending), each a load point as above */
	const char *speeds[TUNE_MAX_LOADS];
	size_t n_speeds;
};

/* Defaults: every policy, minimise cpu, @jobs processes, no goal yet,
 * the scenario's own load, max_loss_pct 0.1. */
void tune_request_init(struct tune_request *r, size_t jobs);

#endif
