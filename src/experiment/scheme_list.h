/* scheme_list.h - `rxlab schemes`: the scheme registry (rxlab/scheme.h) as
 * tables. */
#ifndef RXLAB_EXPERIMENT_SCHEME_LIST_H
#define RXLAB_EXPERIMENT_SCHEME_LIST_H

#include "report/table.h"

/* Two tables: "schemes", one row per scheme in registry order (scheme,
 * applies: the places it applies in, comma-separated, of sim, live,
 * replay, tune, compare; needs_sink; sets: its scenario overrides; tune:
 * each axis as "label=level|level|..."; live_modes; knobs: the device
 * settings as NAME=VALUE, times with a unit; doc; what), and "presets", one row
 * per preset in compare's order (preset, scheme, setting: each axis as
 * label=level, what).  Cells a scheme has nothing for are empty.  The
 * caller frees the report. */
struct report *scheme_report(void);

/* Print scheme_report() to stdout in @fmt.  Returns 0. */
int schemes_run(enum out_format fmt);

#endif
