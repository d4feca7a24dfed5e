/* sweep.h - running one scenario or a cartesian product of variations.
 *
 * A variation is "SECTION[.NAME].KEY=SPEC", or "KEY1+KEY2=SPEC" for keys
 * that move together (each point sets all of them to its value), where SPEC is a list
 * "a,b,c", a linear range "FROM..TO:N" (N >= 2 points, both ends
 * included, FROM and TO with the same unit, e.g. 10kpps..2Mpps:20) or a
 * geometric one "FROM..TO:N:log" (equal ratios, inner values rounded to
 * three significant digits: 10kpps..1Mpps:5:log is 10kpps, 31600pps,
 * 100kpps, 316kpps, 1Mpps).
 * Points are run in the order of the product with the first --vary
 * varying slowest; each point is the base overrides plus one value per
 * variation, so a point is exactly what `rxlab run --set ...` would run.
 * With jobs > 1, worker processes (fork) run points p = j, j+jobs, ... and
 * the parent emits rows in point order: the output does not depend on the
 * number of jobs.
 */
#ifndef RXLAB_EXPERIMENT_SWEEP_H
#define RXLAB_EXPERIMENT_SWEEP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/table.h"

#define SWEEP_MAX_VARY 8
#define SWEEP_MAX_LINKED 4  /* keys of one --vary joined by '+' (set to the same value) */
#define SWEEP_MAX_VALUES 4096
#define SWEEP_MAX_JOBS 256

struct vary {
	char key[96];                    /* "traffic.rate" */
	size_t n;                        /* values */
	char (*val)[48];                 /* n strings, "105263pps" */
	bool hidden;                     /* no column of its own in the table */
};

/* Parse "KEY=SPEC" into @v (allocates v->val).  0, or -1 with a message. */
int vary_parse(struct vary *v, const char *arg, char *err, size_t errlen);
void vary_free(struct vary *v);

/* Each key once across the @n_vary variations and their '+' groups
 * (vary_parse() has already dropped the blanks the loader ignores): two
 * values for one key would run the last under the labels of both.  0, or
 * -1 with a message naming the variations. */
int vary_check_keys(const struct vary *vary, size_t n_vary, char *err, size_t errlen);

/* Headline figures of one point, for callers that judge a sweep
 * (default job, rxlab tune).  Units as in struct results. */
struct point_brief {
	double offered_pps, forwarded_pps, rx_irqs_per_s;
	double delivered_pps, replied_pps, irqs_per_s, cpu_idle_pct, wire_pps, window_s;
	double lat_p50_us, lat_p99_us, lat_p999_us;
	uint64_t drops_total;
};

/* The headline figures of @r. */
struct results;
struct point_brief point_brief_of(const struct results *r);

/* Run every point of @vary over scenario @name with @sets, appending one
 * summary row per point to @t (whose first columns are the keys of the
 * variations that are not hidden) and,
 * @wide selects the summary columns (see summary_table_new()),
 * when @brief is not NULL, its headline figures to brief[point].
 * 0, or -1 with a message naming the point that failed. */
struct results;
int sweep_run(struct table *t, const char *name, const char *const *sets, size_t n_sets,
	      const struct vary *vary, size_t n_vary, size_t jobs, bool wide,
	      struct point_brief *brief, const volatile sig_atomic_t *stop, char *err, size_t errlen);

/* The points of a sweep, as sweep_exec() runs them. */
struct sweep_plan {
	const char *name;                /* scenario: file or built-in name */
	const char *const *sets;         /* base overrides "key=value" */
	size_t n_sets;
	const struct vary *vary;         /* the product; first varies slowest */
	size_t n_vary;
	size_t jobs;                     /* worker processes (0 or 1: none) */
	/* The points to run, ascending: first, first + stride, ... below
	 * sweep_points() (a shard's slice; stride 0 means 1), minus those
	 * whose bit is set in @skip (bit p % 8 of byte p / 8; NULL: none).
	 * No list of points: a plan's memory does not grow with its points. */
	size_t first, stride;
	const unsigned char *skip;
	/* Set (by a signal handler) to stop: the points running end partial,
	 * no other starts.  NULL: never. */
	const volatile sig_atomic_t *stop;
};

/* Whether bit @p of the bitmap @bits is set. */
static inline bool sweep_bit(const unsigned char *bits, size_t p)
{
	return bits && (bits[p / 8] >> (p % 8) & 1);
}

/* The points @pl runs (a walk over its slice: O(points), no memory). */
size_t sweep_todo_count(const struct sweep_plan *pl);

/* Called in the calling process, in ascending point order, once per point
 * that finished (@r's pointer members are NULL). */
typedef void sweep_emit_fn(void *ctx, size_t point, const struct results *r);

/* Run the points of @pl and hand each to @emit.  After SIGINT/SIGTERM
 * (@pl->stop set) the points that were running end partial
 * (r->partial) and are emitted, the others are not run, and the call
 * returns 0: every finished point has been emitted, in order, possibly with
 * gaps.  0, or -1 with a message naming the point that failed. */
int sweep_exec(const struct sweep_plan *pl, sweep_emit_fn *emit, void *ctx, char *err,
	       size_t errlen);

/* Estimate (experiment/estimate.h) the sweep @pl from its first and last points
 * (the ends of a range, often the cheapest and the dearest): their mean
 * times the points to run, over the processes that run at once (@pl->jobs,
 * at most the points and the online CPUs), into *jobs.  sim_s is the longer
 * point's.  0, or -1 when a point cannot be estimated. */
struct estimate;
int sweep_estimate(const struct sweep_plan *pl, struct estimate *e, size_t *jobs);

/* Points in the product of @vary (1 when @n_vary is 0); 0 if it does not
 * fit in a size_t. */
size_t sweep_points(const struct vary *vary, size_t n_vary);

/* The value variation @k takes at point @point. */
const char *sweep_point_value(const struct vary *vary, size_t n_vary, size_t point, size_t k);

/* The number of online CPUs (at least 1): the default for --jobs. */
size_t sweep_default_jobs(void);

/* Load scenario @name with @sets and run it into @r: rxl_scenario_load()
 * then rxl_sim_run() (rxlab/sim.h), whose messages it passes on.  The
 * caller frees @r with results_free().  When *@stop becomes non-zero
 * (NULL: never) the run ends at the time it reached and @r is marked
 * partial.  0, or -1 with a message. */
struct results;
int run_one(struct results *r, const char *name, const char *const *sets, size_t n_sets,
	    const volatile sig_atomic_t *stop, char *err, size_t errlen);

#endif
