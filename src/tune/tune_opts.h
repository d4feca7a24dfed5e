/* tune_opts.h - what a tune search is asked (see tune.h): the command line
 * (src/cli/tune_args.h) fills it before anything runs, so that every wrong
 * option fails first.
 */
#ifndef RXLAB_TUNE_TUNE_OPTS_H
#define RXLAB_TUNE_TUNE_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "tune/goal.h"
#include "report/table.h"

#define TUNE_MAX_GOALS 8
#define TUNE_MAX_POLICIES 16
#define TUNE_MAX_USER_SETS 256

struct tune_opts {
	const char *target;              /* scenario or trace */
	const char *base;                /* scenario a trace is played into */
	struct goal goal[TUNE_MAX_GOALS];
	size_t n_goals;
	enum tune_metric objective;
	bool maximize, objective_set;
	bool enabled[TUNE_MAX_POLICIES]; /* by index in tune_policy() */
	const char *out_dir, *iface, *speed;
	size_t jobs;
	enum out_format fmt;
	const char *user_sets[TUNE_MAX_USER_SETS];
	size_t n_user_sets;
	char seed_set[64];               /* "run.seed=N" of --seed */
};

/* Defaults: every policy, minimise cpu, @jobs processes, a table. */
void tune_opts_init(struct tune_opts *o, size_t jobs);

#endif
