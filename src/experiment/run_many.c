/* run_many.c - independent runs in threads (run_many.h). */
#include "experiment/run_many.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct pool {
	struct run_job *jobs;
	struct rxl_scenario *scn[RUN_MANY_MAX];
	size_t order[RUN_MANY_MAX]; /* loaded jobs, costliest first (cost_of()) */
	size_t n_order;
	atomic_size_t next;         /* the next index into order[] to take */
	const volatile sig_atomic_t *stop;
};

/* What job @j is expected to cost: its simulated CPU time (duration x
 * CPUs), which ranks the seed runs as their wall times do (the 8-CPU
 * netperf seed of 14 s first, at 2.2 s of the 4 s all take; a 1-CPU run of
 * 30 s costs 0.02-0.4 s).  Only the order of the runs depends on it. */
static double cost_of(const struct pool *p, size_t j)
{
	const struct scenario *s = rxl_scenario_get(p->scn[j]);

	return (double)s->run.duration_ns * (double)s->host.cpus;
}

/* Insert job @j into order[], after every job that costs at least as
 * much: by cost, then by index, whatever the thread count. */
static void order_add(struct pool *p, size_t j)
{
	size_t i = p->n_order++;

	for (; i > 0 && cost_of(p, p->order[i - 1]) < cost_of(p, j); i--)
		p->order[i] = p->order[i - 1];
	p->order[i] = j;
}

static void load_all(struct pool *p, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		struct run_job *job = &p->jobs[j];

		job->err[0] = '\0';
		p->scn[j] = rxl_scenario_load(job->scenario, job->sets, job->n_sets, job->err,
					      sizeof(job->err));
		job->rc = p->scn[j] ? 0 : -1;
		if (p->scn[j])
			order_add(p, j);
	}
}

/* Take jobs until none is left. */
static void *worker(void *arg)
{
	struct pool *p = arg;
	size_t k;

	while ((k = atomic_fetch_add(&p->next, 1)) < p->n_order) {
		size_t j = p->order[k];
		struct run_job *job = &p->jobs[j];

		job->rc = rxl_sim_run(p->scn[j], p->stop, &job->r, job->err, sizeof(job->err))
				  ? -1
				  : 0;
	}
	return NULL;
}

size_t run_many(struct run_job *jobs, size_t n, size_t threads,
		const volatile sig_atomic_t *stop)
{
	struct pool p = { .jobs = jobs, .stop = stop };
	pthread_t tid[RUN_MANY_MAX];
	size_t started = 0, first = n;

	load_all(&p, n);
	if (threads > p.n_order)
		threads = p.n_order;
	while (started + 1 < threads && pthread_create(&tid[started], NULL, worker, &p) == 0)
		started++;
	worker(&p);
	for (size_t i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	for (size_t j = 0; j < n; j++) {
		rxl_scenario_free(p.scn[j]);
		if (jobs[j].rc && first == n)
			first = j;
	}
	return first;
}
