/* run_many.h - independent runs in threads, results as if run one by one.
 *
 * The simulator has no state of its own (rxlab/sim.h, "Threads"), so runs
 * that share nothing may run at once, each into its own struct results.
 * run_many() loads every scenario in the calling thread, in order (loading
 * a scenario that names a trace is not thread-safe, and a load error is
 * then the same whatever the thread count), and runs the loaded ones on
 * @threads threads, the calling thread among them, the costliest first
 * (simulated CPU time: run.duration x host.cpus) so that the longest run is
 * not the last to start.  Which
 * thread runs what changes nothing in any result: a run is deterministic
 * in any thread.
 */
#ifndef RXLAB_EXPERIMENT_RUN_MANY_H
#define RXLAB_EXPERIMENT_RUN_MANY_H

#include <signal.h>
#include <stddef.h>

#include "rxlab/sim.h"

#define RUN_MANY_MAX 64 /* runs per call */

struct run_job {
	/* in */
	const char *scenario;         /* name or path, as rxl_scenario_load() */
	const char *const *sets;      /* overrides, @n_sets of them */
	size_t n_sets;
	/* out */
	struct results r;             /* when rc == 0: the caller frees it (results_free()) */
	int rc;                       /* 0, or -1 with a message in err */
	char err[512];
};

/* Run the @n (<= RUN_MANY_MAX) jobs of @jobs on up to @threads threads
 * (0 or 1: all in the calling thread; a thread that cannot be created
 * leaves its share to the others).  When *@stop becomes non-zero (NULL:
 * never) every run ends at the time it reached, marked partial, as
 * run_one() (experiment/sweep.h).  Returns the index of the first job in
 * @jobs that failed, or @n when none did; every job's rc and err are set
 * either way, and a job whose scenario did not load is not run. */
size_t run_many(struct run_job *jobs, size_t n, size_t threads,
		const volatile sig_atomic_t *stop);

#endif
