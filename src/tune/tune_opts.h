/* tune_opts.h - the command line of `rxlab tune` (see tune.h), read into
 * a struct before anything runs, so that every wrong option fails first
 * and the parser can be fuzzed on its own (tests/fuzz/fuzz_tune.c).
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

/* Read the arguments after "tune" into @o (initialised by tune_opts_init();
 * its strings point into @argv).  0, or 2 after a message on stderr
 * ("rxlab: tune: ..."): an unknown option, a missing value, a bad goal or
 * objective, an empty or duplicated --policies list, an --iface name that
 * fails rxl_ifname_check(), no scenario or no goal. */
int tune_opts_parse(struct tune_opts *o, int argc, char **argv);

#endif
