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

/* Outcome of one figure. */
struct figure_result {
	const struct figure *fig;
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
