/* catalog.h - the moderation settings `rxlab tune` searches.
 *
 * Each policy is a set of scenario overrides on the receiving port (the
 * port of the first [traffic] section; '*' in a key stands for its name)
 * and up to two knobs with candidate values.  Every point first resets all
 * the knobs of the catalogue (tune_baseline), so that a point is exactly
 * its policy and levels whatever the scenario set, and so that the
 * commands printed for it set everything.
 */
#ifndef RXLAB_SCHEME_CATALOG_H
#define RXLAB_SCHEME_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#define TUNE_MAX_AXES 2
#define TUNE_MAX_LEVELS 16
#define TUNE_MAX_FIXED 8

struct tune_axis {
	const char *key;                 /* scenario key, '*' = the port: "nic.*.rx-usecs" */
	const char *label;               /* column and command name: "rx-usecs" */
	size_t n;                        /* levels */
	const char *level[TUNE_MAX_LEVELS]; /* values as --set takes them, ascending */
};

struct tune_policy {
	const char *name;                /* "coalesce" */
	const char *what;                /* one line for humans */
	const char *fixed[TUNE_MAX_FIXED]; /* overrides of the policy, NULL-ended */
	size_t n_axes;
	struct tune_axis axis[TUNE_MAX_AXES];
	bool needs_sink;                 /* acts through the receiving socket */
};

extern const struct tune_policy tune_policies[];
extern const size_t tune_n_policies;

/* Overrides applied before every policy's (keys with '*'), NULL-ended;
 * the apps.* ones only when the scenario has a receiving socket. */
extern const char *const tune_baseline[];
extern const char *const tune_baseline_sink[];

/* Index of the policy called @name, or -1. */
int tune_policy_index(const char *name);

#endif
