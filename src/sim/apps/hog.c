/* hog.c - cpu-hogs (apps.cpu-hogs): threads that are always runnable and
 * spend every timeslice in user space, the load that competes with the
 * receive path for a CPU. */
#include <stdio.h>

#include "sim/sim.h"

/* A whole timeslice of user work; the scheduler decides when it ends. */
static void hog_start(struct sim *s, struct cpu *c)
{
	cpu_run(s, c, LVL_THREAD, TCH_RUN, s->scn->run.timeslice_ns);
}

/* The slice is over: let the scheduler pick (this hog again if it is
 * still the one with the least vruntime). */
static void hog_slice_done(struct sim *s, struct cpu *c)
{
	sched_pick(s, c);
}

/* Its timeslices are interchangeable: a preempted one is not finished. */
static const struct thread_ops hog_ops = {
	.start = hog_start, .chunk_done = hog_slice_done, .run_acct = ACCT_USER,
	.resume_left = false,
};

int hog_init(struct sim *s)
{
	char name[48];

	for (uint32_t i = 0; i < s->scn->apps.cpu_hogs; i++) {
		snprintf(name, sizeof(name), "hog/%u", i);
		int i_thr = sched_add_thread(s, &hog_ops, THR_HOG, (uint16_t)s->scn->apps.hog_cpu,
					     name);

		s->thr[i_thr].runnable = true;
	}
	return 0;
}
