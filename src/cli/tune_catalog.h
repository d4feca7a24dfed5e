/* tune_catalog.h - the moderation settings `rxlab tune` searches.
 *
 * Each policy is a set of scenario overrides on the receiving port (the
 * port of the first [traffic] section; '*' in a key stands for its name)
 * and up to two knobs with candidate values.  Every point first resets all
 * the knobs of the catalogue (tune_baseline), so that a point is exactly
 * its policy and levels whatever the scenario set, and so that the
 * commands printed for it set everything.
 */
#ifndef RXLAB_CLI_TUNE_CATALOG_H
#define RXLAB_CLI_TUNE_CATALOG_H

#include <stddef.h>

#include "cli/tune_search.h"

extern const struct tune_policy tune_policies[];
extern const size_t tune_n_policies;

/* Overrides applied before every policy's (keys with '*'), NULL-ended;
 * the apps.* ones only when the scenario has a receiving socket. */
extern const char *const tune_baseline[];
extern const char *const tune_baseline_sink[];

/* Index of the policy called @name, or -1. */
int tune_policy_index(const char *name);

#endif
