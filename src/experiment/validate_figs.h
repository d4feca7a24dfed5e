/* validate_figs.h - the seed experiments' runs and figures (validate_figs.c),
 * for validate.c only. */
#ifndef RXLAB_EXPERIMENT_VALIDATE_FIGS_H
#define RXLAB_EXPERIMENT_VALIDATE_FIGS_H

#include <stddef.h>

#include "experiment/validate.h"

#define MAX_RUN_SETS 8

/* One simulation: a built-in scenario and its overrides (NULL-terminated). */
struct seed_run {
	const char *scenario;
	const char *sets[MAX_RUN_SETS];
};

/* Indexed as the bits of struct figure's uses; n_seed_runs <= 64. */
extern const struct seed_run seed_runs[];
extern const size_t n_seed_runs;

extern const struct figure seed_figures[];
extern const size_t n_seed_figures;

#endif
