/* run.c - the simulator's public entry point (rxlab/sim.h): a validated
 * scenario in, struct results out. */
#include "rxlab/sim.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/scenario_load.h"
#include "model/trace_load.h"
#include "sim/results.h"
#include "sim/sim.h"
#include "sim/tracepoint.h"

/* A wrapper, so that only the loader makes one: rxl_sim_run() may rely on
 * every range and cross-check having passed. */
struct rxl_scenario {
	struct scenario scn;
};

static struct rxl_scenario *loaded(struct rxl_scenario *h, int rc)
{
	if (rc == 0)
		return h;
	free(h);
	return NULL;
}

struct rxl_scenario *rxl_scenario_load(const char *name_or_path, const char *const *sets,
				       size_t n_sets, char *err, size_t errlen)
{
	struct rxl_scenario *h = malloc(sizeof(*h));

	assert(name_or_path);
	if (!h) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	return loaded(h, scenario_load(&h->scn, name_or_path, sets, n_sets, err, errlen));
}

struct rxl_scenario *rxl_scenario_load_text(const char *text, const char *origin,
					    const char *const *sets, size_t n_sets, char *err,
					    size_t errlen)
{
	struct rxl_scenario *h = malloc(sizeof(*h));

	assert(text && origin);
	if (!h) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	return loaded(h, scenario_load_text(&h->scn, text, origin, sets, n_sets, err, errlen));
}

const struct scenario *rxl_scenario_get(const struct rxl_scenario *scn)
{
	assert(scn);
	return &scn->scn;
}

void rxl_scenario_free(struct rxl_scenario *scn)
{
	free(scn);
}

void rxl_traces_free(void)
{
	trace_cache_free();
}

/* Build, run and measure the host of @scn into @out.  0 or a negative
 * errno with the reason in @why (s->fatal when the model failed). */
static int simulate(struct sim *s, const struct scenario *scn, const volatile sig_atomic_t *stop,
		    struct tracepoints *tp, struct results *out, const char **why)
{
	int rc;

	if (sim_init(s, scn)) {
		tp_finish(NULL, tp);
		*why = s->fatal;
		return -ENOMEM;
	}
	s->stop = stop;
	s->tp = tp;
	rc = sim_run(s);
	tp_finish(s, tp); /* the events still buffered, while the threads' names exist */
	if (rc) {
		*why = s->fatal[0] ? s->fatal : "run failed";
		return -ENOTRECOVERABLE;
	}
	rc = results_collect(out, s);
	if (rc == -ENODATA)
		*why = "stopped before any simulated time was measured";
	else if (rc)
		*why = "out of memory collecting the results";
	return rc;
}

int rxl_sim_run(const struct rxl_scenario *scn, const volatile sig_atomic_t *stop,
		struct results *out, char *err, size_t errlen)
{
	return rxl_sim_run_traced(scn, stop, NULL, out, err, errlen);
}

int rxl_sim_run_traced(const struct rxl_scenario *scn, const volatile sig_atomic_t *stop,
		       struct rxl_trace *tr, struct results *out, char *err, size_t errlen)
{
	/* struct sim holds per-thread and per-port snapshots: too big for a
	 * caller's stack */
	struct sim *s = malloc(sizeof(*s));
	struct tracepoints *tp = tr ? tp_new(tr) : NULL;
	const char *why = "out of memory";
	int rc = -ENOMEM;

	assert(scn && out);
	memset(out, 0, sizeof(*out));
	if (s && (tp || !tr))
		rc = simulate(s, &scn->scn, stop, tp, out, &why);
	else
		tp_finish(NULL, tp);
	if (rc) { /* before sim_free(): @why may be s->fatal */
		results_free(out);
		snprintf(err, errlen, "%s: %s", scn->scn.name, why);
	}
	if (s) {
		sim_free(s);
		free(s);
	}
	return rc;
}
