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
#define TUNE_DEFAULT_MAX_LOSS_PCT 0.1

/* --placement (docs/tune.md "Placement"): the IRQ / NAPI-thread placement
 * stage after the search (tune/placement.h). */
enum tune_placement_mode {
	TUNE_PLACEMENT_AUTO,             /* default: on when the port has combined > 1 */
	TUNE_PLACEMENT_ON,               /* the same, and a note when the port has one queue */
	TUNE_PLACEMENT_OFF,              /* never */
};

/* --per-queue (docs/tune.md "Per-queue values"): the per-queue stage after
 * the placement stage (tune/perqueue.h). */
enum tune_per_queue_mode {
	TUNE_PER_QUEUE_AUTO,             /* default: on when the port has combined > 1, the best
					  * policy a per-queue knob, and the queues unequal load */
	TUNE_PER_QUEUE_ON,               /* the same without the unequal load, and a note
					  * when the stage cannot run */
	TUNE_PER_QUEUE_OFF,              /* never */
};

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
	/* robust goals (docs/tune.md): a setting meets the goals only if it
	 * meets them, and loses at most max_loss_pct of the frames, at every
	 * load point (tune/robust.h) */
	double loads[TUNE_MAX_LOADS]; /* offered rates, frames/s, ascending; n_loads 0: the scenario's own rate */
	size_t n_loads;
	double max_loss_pct; /* --max-loss, % of frames; default 0.1 */
	const char *speeds[TUNE_MAX_LOADS]; /* with a trace only: trace-speeds as written
					  * (each as --speed takes it), ascending;
					  * n_speeds 0: the one of --speed */
	size_t n_speeds;
	enum tune_placement_mode placement; /* --placement auto | on | off */
	enum tune_per_queue_mode per_queue; /* --per-queue auto | on | off */
};

/* Defaults: every policy, minimise cpu, @jobs processes, no goal yet,
 * the scenario's own load, max_loss_pct TUNE_DEFAULT_MAX_LOSS_PCT,
 * placement TUNE_PLACEMENT_AUTO, per_queue TUNE_PER_QUEUE_AUTO. */
void tune_request_init(struct tune_request *r, size_t jobs);

#endif
