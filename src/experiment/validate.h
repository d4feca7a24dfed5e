/* validate.h - `rxlab validate` and `rxlab seeds`: the measurements reported
 * in shared/seeds, each next to what the simulation of that experiment gives.
 *
 * A figure is checked one of three ways: a number within 25% of the reported
 * one (ratio 0.75..1.25), or a stated direction for qualitative claims
 * ("only tens of interrupts": at most 100).  Each carries a class (fitted,
 * predicted, derived, qualitative, or a model claim that is not in the
 * post), and the score is given per class.
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
struct builtin_file;

/* How a figure relates to the model's parameters.  Fitted, predicted and
 * qualitative figures are scored (validate exits 0 only when all of them
 * agree); derived figures and the model's claims are shown, not scored. */
enum fig_class {
	FIG_FITTED,      /* a parameter (param) was chosen so that it matches */
	FIG_PREDICTED,   /* a number no parameter was set from */
	FIG_DERIVED,     /* follows from an input or another figure (param: how) */
	FIG_QUALITATIVE, /* a direction or an ordering the post reports */
	FIG_CLAIM,       /* not in the post: what the model says (out of the score) */
	FIG_N_CLASSES
};

/* The class's name as printed and in JSON: "fitted", "predicted", ... */
const char *fig_class_name(enum fig_class c);

/* One reported figure of one seed experiment. */
struct figure {
	const char *seed;       /* "001" */
	const char *id;         /* "001.tx-irqs": stable, named by fitted: comments */
	const char *name;       /* what was measured, in the post's words */
	double reported;
	enum check_kind check;
	double bound;           /* CHECK_AT_MOST / CHECK_AT_LEAST */
	/* The simulated value, from the results of the seed's runs (indexed
	 * as the run table of validate_figs.c; runs the figure does not read
	 * may be NULL). */
	double (*measure)(const struct results *const *runs);
	uint64_t uses;          /* bit i set: reads run i */
	enum fig_class cls;
	/* FIG_FITTED: "FILE: KEY[, KEY...]", FILE the built-in profile (without
	 * "profiles/") or scenario that sets the keys; FIG_DERIVED: from what;
	 * else NULL. */
	const char *param;
};

/* Outcome of one figure. */
struct figure_result {
	const struct figure *fig;
	double simulated;
	double ratio;           /* simulated / reported (NaN when reported is 0) */
	bool ok;
};

/* The figures validate checks, in the order it prints them; *@n their count. */
const struct figure *validate_figures(size_t *n);

/* Check @figs against the "fitted: KEYS to ID[, ID...]" comment lines of
 * @files (terminated by a NULL name): every ID such a line names is a
 * FIG_FITTED figure whose param is "FILE: KEYS", FILE the line's file
 * without "profiles/", and every FIG_FITTED figure is named by exactly one
 * such line.  Returns 0, or -1 with the first disagreement in @err. */
int validate_classes_check(const struct figure *figs, size_t n, const struct builtin_file *files,
			   char *err, size_t len);

/* Evaluate @fig against a simulated value. */
struct figure_result figure_judge(const struct figure *fig, double simulated);

/* Run every figure whose seed starts with @seed (NULL = all) and print the
 * tables in @fmt: the posts' figures ("validate"), the model's claims
 * ("claims") and the score per class ("score"), then (text) the score as
 * one line.  @sets are extra overrides applied to every run (tests shorten
 * runs with them).  The runs go on @jobs threads (experiment/run_many.h;
 * 0 or 1: one), which changes nothing in the output.  Returns 0 when every
 * scored figure (fitted, predicted, qualitative) is within tolerance, 1 if
 * not, 2 on errors (a run failed, no figure matched @seed, the classes
 * disagree with the fitted: comments). */
int validate_run(const char *seed, const char *const *sets, size_t n_sets, enum out_format fmt,
		 size_t jobs, const volatile sig_atomic_t *stop);

/* List the built-in seed scenarios with their one-line descriptions. */
int seeds_list(void);

#endif
