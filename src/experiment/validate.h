/* validate.h - `rxlab validate` and `rxlab seeds`: the measurements reported
 * in shared/seeds, each next to what the simulation of that experiment gives.
 *
 * A figure is checked one of three ways: a number within 25% of the reported
 * one (ratio 0.75..1.25), or a stated direction for qualitative claims
 * ("only tens of interrupts": at most 100).
 */
#ifndef RXLAB_EXPERIMENT_VALIDATE_H
#define RXLAB_EXPERIMENT_VALIDATE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/table.h"

enum check_kind {
	CHECK_RATIO,    /* simulated / reported within [0.75, 1.25] */
	CHECK_AT_MOST,  /* simulated <= bound */
	CHECK_AT_LEAST, /* simulated >= bound */
};

struct results;

/* How a figure relates to the model's parameters (issue #17's validation
 * classes).  FIG_UNCLASSED is every seed figure of shared/seeds (their
 * profiles say which figures calibrated which cost); the others print
 * their class after the figure's name, so that unclassed rows print as
 * they always did. */
enum fig_class {
	FIG_UNCLASSED,
	FIG_FITTED,    /* a parameter (fitted_param) was chosen to match it */
	FIG_PREDICTED, /* no parameter was set from it */
	FIG_DERIVED,   /* follows from other figures (fitted_param says how) */
};

/* One reported figure of one seed experiment. */
struct figure {
	const char *seed;       /* "001" */
	const char *name;       /* what was measured, in the post's words */
	double reported;
	enum check_kind check;
	double bound;           /* CHECK_AT_MOST / CHECK_AT_LEAST */
	/* The simulated value, from the results of the seed's runs (indexed
	 * as the run table of validate.c; runs the figure does not read may
	 * be NULL). */
	double (*measure)(const struct results *const *runs);
	uint64_t uses;          /* bit i set: reads run i */
};

/* A figure with its class (the shared/seeds figures have none). */
struct classed_figure {
	struct figure fig;
	enum fig_class cls;
	const char *fitted_param; /* FIG_FITTED: the parameter; FIG_DERIVED: from
	                           * what; else NULL */
};

/* Outcome of one figure. */
struct figure_result {
	const struct figure *fig;
	enum fig_class cls;       /* set by the caller of figure_judge() */
	const char *fitted_param;
	double simulated;
	double ratio;           /* simulated / reported (NaN when reported is 0) */
	bool ok;
};

/* Evaluate @fig against a simulated value. */
struct figure_result figure_judge(const struct figure *fig, double simulated);

/* Run every figure whose seed starts with @seed (NULL = all) and print the
 * table in @fmt, then (text) a count of figures within tolerance.  @sets are
 * extra overrides applied to every run (tests shorten runs with them).
 * Returns 0 when all are within tolerance, 1 if not, 2 on errors. */
int validate_run(const char *seed, const char *const *sets, size_t n_sets, enum out_format fmt,
		 const volatile sig_atomic_t *stop);

/* List the built-in seed scenarios with their one-line descriptions. */
int seeds_list(void);

#endif
