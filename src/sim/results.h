/* results.h - turning a finished run's counters into struct results.
 *
 * struct results and its parts are public (rxlab/sim.h documents every
 * field and its unit); filling one needs the host's insides (sim/sim.h),
 * so that part is here.
 */
#ifndef RXLAB_SIM_RESULTS_H
#define RXLAB_SIM_RESULTS_H

#include "rxlab/sim.h"
#include "sim/sim.h"

/* Fill @r (whatever it held is overwritten) from @s after sim_run()
 * returned 0.  0; -ENOMEM when an allocation failed, -ENODATA when the
 * window is empty (stopped at its first instant).  On error @r may own
 * memory: results_free() it. */
int results_collect(struct results *r, const struct sim *s);

#endif
