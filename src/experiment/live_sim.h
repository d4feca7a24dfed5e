/* live_sim.h - `rxlab live --compare-sim`: each live run's workload in the
 * simulator, side by side. */
#ifndef RXLAB_EXPERIMENT_LIVE_SIM_H
#define RXLAB_EXPERIMENT_LIVE_SIM_H

#include <signal.h>
#include <stddef.h>

#include "live/live_run.h"
#include "report/table.h"

/* Run each of the @n results' workload (@jobs[i]) in the simulator with
 * profile @profile; *@stop non-zero (NULL: never) ends a run early.  The
 * table, or NULL with a message on error. */
struct table *live_sim_table(const struct live_result *r, size_t n, const struct live_job *jobs,
			     const char *profile, const volatile sig_atomic_t *stop, char *err,
			     size_t errlen);

#endif
