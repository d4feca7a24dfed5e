/* verify.c - `rxlab tune --verify`: the pure parts (which points, how
 * they run live, how a measurement is judged).  The runs and the table
 * are in verify_run.c.  See verify.h.
 */
#include "tune/verify.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/units.h"

void verify_opts_init(struct verify_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->duration_ns = VERIFY_DEFAULT_DURATION_NS;
	o->tolerance = VERIFY_DEFAULT_TOLERANCE;
	o->fmt = OUT_TABLE;
}

size_t verify_pick(const struct tune_state *st, const struct tune_point **out, size_t cap)
{
	struct tune_state rest = *st;
	const struct tune_point *best = tune_best(st), *second;
	struct tune_point *others;
	size_t n = 0, at;

	if (!best || cap == 0)
		return 0;
	out[0] = best;
	if (cap < 2 || st->n_pts < 2)
		return 1;
	/* the runner-up: the best of the points without the best, in the
	 * search's own order (tune_best() on a copy of the state); found
	 * back by its index (a memcmp would see the points' padding) */
	others = malloc((st->n_pts - 1) * sizeof(*others));
	if (!others)
		return 1;
	for (size_t i = 0; i < st->n_pts; i++)
		if (&st->pts[i] != best)
			others[n++] = st->pts[i];
	rest.pts = others;
	rest.n_pts = rest.cap = n;
	second = tune_best(&rest);
	at = (size_t)(second - others);
	free(others);
	out[1] = &st->pts[at < (size_t)(best - st->pts) ? at : at + 1];
	return 2;
}

/* Level @ix of axis @a of @sc as a count or (@time) ns, into @v. */
static int level_value(const struct rxl_scheme *sc, const struct tune_point *p, size_t a,
		       bool time, uint64_t *v, char *why, size_t whylen)
{
	const char *text;
	char *end;

	if (a >= sc->n_axes || p->ix[a] >= sc->axis[a].n)
		return snprintf(why, whylen, "%s has no axis %zu level %u", sc->name, a,
				(unsigned)p->ix[a]), -1;
	text = sc->axis[a].level[p->ix[a]];
	if (time) {
		if (unit_parse(UNIT_TIME_NS, text, v, NULL, 0) == 0)
			return 0;
	} else {
		*v = strtoull(text, &end, 10);
		if (*text && !*end)
			return 0;
	}
	return snprintf(why, whylen, "%s: %s level '%s' is not a %s", sc->name,
			sc->axis[a].label, text, time ? "time" : "count"), -1;
}

/* A loop parameter KEY=V, @unit after the number ("" or "ns"). */
static void add_set(struct verify_live *l, const char *key, uint64_t v, const char *unit)
{
	snprintf(l->set[l->n_sets++], sizeof(l->set[0]), "%s=%" PRIu64 "%s", key, v, unit);
}

static void add_knob(struct verify_live *l, enum knob k, uint64_t v)
{
	l->knob[l->n_knobs++] = (struct live_knob){ k, v };
}

/* coalesce, itr, itr-dynamic, busy-poll: loop parameters of one mode. */
static int map_loop(const struct rxl_scheme *sc, const struct tune_point *p,
		    struct verify_live *l, char *why, size_t whylen)
{
	uint64_t a = 0, b = 0;

	if (!strcmp(sc->name, "coalesce")) {
		l->mode = RXL_MODE_COALESCE;
		if (level_value(sc, p, 0, false, &a, why, whylen) ||
		    level_value(sc, p, 1, false, &b, why, whylen))
			return -1;
		add_set(l, "rx-usecs", a, "");
		add_set(l, "rx-frames", b, "");
		return 0;
	}
	if (!strcmp(sc->name, "busy-poll")) {
		l->mode = RXL_MODE_SO_BUSY_POLL;
		if (level_value(sc, p, 0, true, &a, why, whylen))
			return -1;
		add_set(l, "busy-poll-usecs", a / 1000, "");
		return 0;
	}
	l->mode = RXL_MODE_ITR;	/* itr, itr-dynamic */
	if (level_value(sc, p, 0, false, &a, why, whylen))
		return -1;
	add_set(l, "itr", a, "");
	return 0;
}

/* defer, suspend: device knobs (live_run.c sets the mode's own first, then
 * these, so the point's values win). */
static int map_knobs(const struct rxl_scheme *sc, const struct tune_point *p,
		     struct verify_live *l, char *why, size_t whylen)
{
	uint64_t a, b;

	if (!strcmp(sc->name, "defer")) {
		l->mode = RXL_MODE_NAPI;
		if (level_value(sc, p, 0, false, &a, why, whylen) ||
		    level_value(sc, p, 1, true, &b, why, whylen))
			return -1;
		add_knob(l, KNOB_NAPI_DEFER_HARD_IRQS, a);
		add_knob(l, KNOB_GRO_FLUSH_TIMEOUT, b);
		return 0;
	}
	l->mode = RXL_MODE_IRQ_SUSPEND;
	if (level_value(sc, p, 0, true, &a, why, whylen) ||
	    level_value(sc, p, 1, true, &b, why, whylen))
		return -1;
	add_knob(l, KNOB_GRO_FLUSH_TIMEOUT, a);
	/* the loop records it and live_run.c writes it with the mode's knobs */
	add_set(l, "irq-suspend-timeout", b, "ns");
	return 0;
}

int verify_map(const struct rxl_scheme *sc, const struct tune_point *p, struct verify_live *out,
	       char *why, size_t whylen)
{
	static const char *const loop[] = { "coalesce", "busy-poll", "itr", "itr-dynamic", NULL };
	static const char *const knobs[] = { "defer", "suspend", NULL };

	memset(out, 0, sizeof(*out));
	if (!strcmp(sc->name, "dim")) {
		out->mode = RXL_MODE_DIM;
		return 0;
	}
	for (size_t i = 0; loop[i]; i++)
		if (!strcmp(sc->name, loop[i]))
			return map_loop(sc, p, out, why, whylen);
	for (size_t i = 0; knobs[i]; i++)
		if (!strcmp(sc->name, knobs[i]))
			return map_knobs(sc, p, out, why, whylen);
	snprintf(why, whylen, "the live engine has no mode for policy %s", sc->name);
	return -1;
}

bool verify_cpu_compared(enum rxl_mode mode)
{
	return mode != RXL_MODE_COALESCE && mode != RXL_MODE_DIM && mode != RXL_MODE_ITR;
}

double verify_ratio(double measured, double predicted)
{
	if (isnan(measured) || isnan(predicted))
		return NAN;
	if (predicted == 0 && measured == 0)
		return 1;
	return predicted > 0 ? measured / predicted : NAN;
}

bool verify_agrees(double ratio, double tol)
{
	return !isnan(ratio) && ratio >= 1.0 / tol && ratio <= tol;
}

bool verify_meets(const struct tune_state *st, const struct tune_metrics *m, double max_loss_pct)
{
	if (!(m->v[TM_DROP_PCT] <= max_loss_pct))
		return false;
	for (size_t g = 0; g < st->n_goals; g++)
		if (!goal_met(&st->goals[g], m))
			return false;
	return true;
}

int verify_preflight(const struct tune_request *req, char *err, size_t errlen)
{
	if (tune_is_trace(req->target))
		return snprintf(err, errlen, "tune: --verify needs a scenario that describes the "
				"test bed (e.g. live-veth), not a trace: the live sender plays a "
				"constant rate"), -1;
	if (geteuid() != 0)
		return snprintf(err, errlen, "tune: --verify needs root: it builds network "
				"namespaces and a veth pair and changes device settings; run as "
				"root, or leave out --verify"), -1;
	return 0;
}
