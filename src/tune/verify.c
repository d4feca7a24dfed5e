/* verify.c - `rxlab tune --verify`: predicted beside measured (verify.h). */
#include "tune/verify.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/sweep.h"
#include "model/units.h"
#include "rxlab/sim.h"

/* ---- policy -> live setting ------------------------------------------------ */

/* How a tune axis (its label) is set on the live engine: a loop key
 * (rxl_config_set()) or a device setting (knob_parse()). */
static const struct {
	const char *label, *loop_key, *knob;
	bool strip_us;		/* the level is "5us", the loop key takes whole us */
} axis_map[] = {
	{ "rx-usecs", "rx-usecs", NULL, false },
	{ "rx-frames", "rx-frames", NULL, false },
	{ "InterruptThrottleRate", "itr", NULL, false },
	{ "busy_poll", "busy-poll-usecs", NULL, true },
	{ "irq-suspend-timeout", "irq-suspend-timeout", NULL, false },
	{ "napi_defer_hard_irqs", NULL, "napi_defer_hard_irqs", false },
	{ "gro_flush_timeout", NULL, "gro_flush_timeout", false },
};

static int add_loop_set(struct verify_setting *vs, const char *key, const char *level,
			bool strip_us, char *why, size_t whylen)
{
	struct rxl_config scratch;
	char val[48], msg[512];
	size_t n = strlen(level);

	if (vs->n_sets == VERIFY_MAX_SETS)
		return snprintf(why, whylen, "too many loop settings"), -1;
	if (strip_us && n > 2 && !strcmp(level + n - 2, "us"))
		n -= 2;
	snprintf(val, sizeof(val), "%.*s", (int)n, level);
	rxl_config_default(&scratch, vs->mode);
	if (rxl_config_set(&scratch, key, val, msg, sizeof(msg)) != 0)
		return snprintf(why, whylen, "the live loop refuses %s=%s: %s", key, val, msg), -1;
	snprintf(vs->sets[vs->n_sets], sizeof(vs->sets[0]), "%s=%s", key, val);
	vs->set_ptr[vs->n_sets] = vs->sets[vs->n_sets];
	vs->n_sets++;
	return 0;
}

static int add_knob(struct verify_setting *vs, const char *name, const char *level, char *why,
		    size_t whylen)
{
	enum knob k;
	uint64_t v;

	if (knob_parse(name, &k) != 0 || vs->n_knobs == KNOBS_MAX)
		return snprintf(why, whylen, "no device setting %s", name), -1;
	if (unit_parse(UNIT_COUNT, level, &v, NULL, 0) != UNIT_OK &&
	    !(knob_is_time(k) && unit_parse(UNIT_TIME_NS, level, &v, NULL, 0) == UNIT_OK))
		return snprintf(why, whylen, "%s=%s: not a value of the device", name, level), -1;
	vs->knobs[vs->n_knobs++] = (struct live_knob){ k, v };
	return 0;
}

int verify_plan(const struct rxl_scheme *pol, const uint8_t *ix, struct verify_setting *vs,
		char *why, size_t whylen)
{
	bool defer = !strcmp(pol->name, "defer");

	memset(vs, 0, sizeof(*vs));
	if (pol->n_modes == 0 && !defer)
		return snprintf(why, whylen, "no live mode does %s", pol->name), -1;
	vs->mode = defer ? RXL_MODE_NAPI : pol->mode[0];
	for (size_t a = 0; a < pol->n_axes; a++) {
		const char *label = pol->axis[a].label, *level = pol->axis[a].level[ix[a]];
		size_t m = 0;
		int rc;

		while (m < sizeof(axis_map) / sizeof(axis_map[0]) && strcmp(axis_map[m].label, label))
			m++;
		if (m == sizeof(axis_map) / sizeof(axis_map[0]))
			return snprintf(why, whylen, "%s: the live engine has no %s", pol->name, label),
			       -1;
		rc = axis_map[m].loop_key
			     ? add_loop_set(vs, axis_map[m].loop_key, level, axis_map[m].strip_us, why,
					    whylen)
			     : add_knob(vs, axis_map[m].knob, level, why, whylen);
		if (rc)
			return -1;
	}
	return 0;
}

/* ---- the runner-up ------------------------------------------------------------ */

static double obj(const struct tune_state *st, const struct tune_point *p)
{
	double v = p->m.v[st->objective];

	return isnan(v) ? INFINITY : st->maximize ? -v : v;
}

static double nan_inf(double v)
{
	return isnan(v) ? INFINITY : v;
}

/* Is @a before @b in tune_search.h's order (without its last tie-break,
 * which the caller's evaluation order stands in for)? */
static bool before(const struct tune_state *st, const struct tune_point *a,
		   const struct tune_point *b)
{
	bool ma = tune_meets(st, a), mb = tune_meets(st, b);

	if (ma != mb)
		return ma;
	if (!ma && tune_miss(st, a) != tune_miss(st, b))
		return tune_miss(st, a) < tune_miss(st, b);
	if (obj(st, a) != obj(st, b))
		return obj(st, a) < obj(st, b);
	if (nan_inf(a->m.v[TM_P99]) != nan_inf(b->m.v[TM_P99]))
		return nan_inf(a->m.v[TM_P99]) < nan_inf(b->m.v[TM_P99]);
	return nan_inf(a->m.v[TM_CPU]) < nan_inf(b->m.v[TM_CPU]);
}

static bool same_setting(const struct tune_point *a, const struct tune_point *b)
{
	return a->pol == b->pol && !memcmp(a->ix, b->ix, sizeof(a->ix));
}

const struct tune_point *verify_runner_up(const struct tune_state *st,
					  const struct tune_point *best)
{
	const struct tune_point *r = NULL;

	for (size_t i = 0; i < st->n_pts; i++) {
		const struct tune_point *p = &st->pts[i];

		if (best && same_setting(p, best))
			continue;
		if (!r || before(st, p, r))
			r = p;
	}
	return r;
}

/* ---- predicted: the setting simulated at a load ------------------------------------ */

#define PRED_MAX_SETS (TUNE_MAX_USER_SETS + 64)

struct pred_sets {
	const char *p[PRED_MAX_SETS];
	char buf[64][160];
	size_t n, n_buf;
};

static void pred_add(struct pred_sets *s, const char *key, const char *port, const char *val)
{
	char k[96];

	if (s->n == PRED_MAX_SETS || s->n_buf == 64)
		return;
	if (rxl_scheme_key(k, sizeof(k), key, port) != 0)
		return;
	if (snprintf(s->buf[s->n_buf], sizeof(s->buf[0]), "%s%s%s", k, val ? "=" : "",
		     val ? val : "") >= (int)sizeof(s->buf[0]))
		return;	/* never: keys and levels are the registry's, far shorter */
	s->p[s->n++] = s->buf[s->n_buf++];
}

/* tune.c's overrides of point @p (tune.c shared_sets(), policy_sets(),
 * tune_point_scenario()) and traffic.rate = @load. */
static void pred_sets_of(struct pred_sets *s, const struct tune_result *res,
			 const struct tune_request *req, const struct tune_point *p, bool sink,
			 double load)
{
	const struct rxl_scheme *pol = res->pol[p->pol];
	char rate[48];

	s->n = s->n_buf = 0;
	for (size_t i = 0; i < req->n_user_sets && s->n < PRED_MAX_SETS; i++)
		s->p[s->n++] = req->user_sets[i];
	for (size_t i = 0; rxl_scheme_off[i]; i++)
		pred_add(s, rxl_scheme_off[i], res->port, NULL);
	for (size_t i = 0; sink && rxl_scheme_off_sink[i]; i++)
		pred_add(s, rxl_scheme_off_sink[i], res->port, NULL);
	for (size_t i = 0; pol->sets[i]; i++)
		pred_add(s, pol->sets[i], res->port, NULL);
	for (size_t k = 0; k < pol->n_axes; k++)
		pred_add(s, pol->axis[k].key, res->port, pol->axis[k].level[p->ix[k]]);
	snprintf(rate, sizeof(rate), "%.0fpps", load);
	pred_add(s, "traffic.rate", res->port, rate);
}

static void metrics_of(const struct point_brief *b, struct tune_metrics *m)
{
	double frames = b->wire_pps * b->window_s;

	m->v[TM_P50] = b->lat_p50_us;
	m->v[TM_P99] = b->lat_p99_us;
	m->v[TM_P999] = b->lat_p999_us;
	m->v[TM_CPU] = 100.0 - b->cpu_idle_pct;
	m->v[TM_THROUGHPUT] = b->forwarded_pps + b->delivered_pps + b->replied_pps;
	m->v[TM_DROPS] = (double)b->drops_total;
	m->v[TM_DROP_PCT] = frames > 0 ? 100.0 * (double)b->drops_total / frames : 0.0;
	m->v[TM_IRQS] = b->irqs_per_s;
}

static int predict(const struct tune_result *res, const struct tune_request *req,
		   const struct tune_point *p, bool sink, double load,
		   const volatile sig_atomic_t *stop, struct tune_metrics *m, char *err,
		   size_t errlen)
{
	static struct pred_sets s;
	struct rxl_scenario *scn;
	struct results r;
	struct point_brief b;
	int rc;

	pred_sets_of(&s, res, req, p, sink, load);
	if (!(scn = rxl_scenario_load(req->target, s.p, s.n, err, errlen)))
		return 2;
	rc = rxl_sim_run(scn, stop, &r, err, errlen);
	rxl_scenario_free(scn);
	if (rc)
		return 1;
	b = point_brief_of(&r);
	results_free(&r);
	metrics_of(&b, m);
	return 0;
}

/* ---- measured: the live engine at a load ------------------------------------------ */

static int measure(const struct verify_setting *vs, double load, int64_t dur_ns,
		   const volatile sig_atomic_t *stop, struct tune_metrics *m, char *err,
		   size_t errlen)
{
	struct live_job j;
	struct live_result r;
	double sent, got;
	int rc;

	live_job_default(&j, vs->mode);
	j.stop = stop;
	j.snd.rate_pps = load;
	j.snd.duration_ns = dur_ns;
	j.sets = vs->set_ptr;
	j.n_sets = vs->n_sets;
	memcpy(j.knobs, vs->knobs, sizeof(vs->knobs));
	j.n_knobs = vs->n_knobs;
	if ((rc = live_run(&j, &r, err, errlen)) != 0)
		return rc;
	sent = (double)r.tx.sent;
	got = (double)r.rx.packets;
	for (int i = 0; i < TM_N; i++)
		m->v[i] = NAN;
	m->v[TM_P50] = live_lat_us(&r, 0.50);
	m->v[TM_P99] = live_lat_us(&r, 0.99);
	m->v[TM_P999] = live_lat_us(&r, 0.999);
	m->v[TM_CPU] = counters_cpu_busy_pct(&r.d_sent, r.rx_cpu);
	m->v[TM_THROUGHPUT] = live_rx_pps(&r);
	m->v[TM_DROPS] = sent > got ? sent - got : 0;
	m->v[TM_DROP_PCT] = sent > 0 ? 100.0 * m->v[TM_DROPS] / sent : 0;
	return 0;
}

/* ---- the table ----------------------------------------------------------------------- */

/* The goals met by @m, and the loss bound (the request's max_loss_pct;
 * 0 = none). */
static bool meets(const struct tune_request *req, const struct tune_metrics *m)
{
	for (size_t i = 0; i < req->n_goals; i++)
		if (!goal_met(&req->goal[i], m))
			return false;
	return !(req->max_loss_pct > 0 && !(m->v[TM_DROP_PCT] <= req->max_loss_pct));
}

static double ratio(double meas, double pred)
{
	return pred > 0 && isfinite(pred) && isfinite(meas) ? meas / pred : NAN;
}

static const char *agree(double r, double tol)
{
	return isnan(r) ? "-" : r >= 1 / tol && r <= tol ? "yes" : "no";
}

static void setting_name(const struct rxl_scheme *pol, const struct tune_point *p, char *buf,
			 size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "%s", pol->name);

	for (size_t k = 0; k < pol->n_axes && at < len; k++)
		at += (size_t)snprintf(buf + at, len - at, " %s=%s", pol->axis[k].label,
				       pol->axis[k].level[p->ix[k]]);
}

static void row(FILE *f, const char *who, const char *name, double load, const char *kind,
		const struct tune_metrics *m, const char *verdict)
{
	fprintf(f, "%-9s %-50s %9.0f %-9s %9.1f %7.1f %10.0f %7.2f  %s\n", who, name, load, kind,
		m->v[TM_P99], m->v[TM_CPU], m->v[TM_THROUGHPUT], m->v[TM_DROP_PCT], verdict);
}

static int verify_point(FILE *f, const struct tune_result *res, const struct tune_request *req,
			const struct tune_point *p, const char *who, bool sink, const double *loads,
			size_t n_loads, int64_t dur_ns, const volatile sig_atomic_t *stop, char *err,
			size_t errlen)
{
	const struct rxl_scheme *pol = res->pol[p->pol];
	struct verify_setting vs;
	char name[160], why[512];
	int rc;

	setting_name(pol, p, name, sizeof(name));
	if (verify_plan(pol, p->ix, &vs, why, sizeof(why)) != 0) {
		fprintf(f, "%-9s %-50s not verifiable here: %s\n", who, name, why);
		return 0;
	}
	for (size_t l = 0; l < n_loads && !(stop && *stop); l++) {
		struct tune_metrics pm, mm;
		double rp, rc_;

		if ((rc = predict(res, req, p, sink, loads[l], stop, &pm, err, errlen)) != 0)
			return rc;
		if ((rc = measure(&vs, loads[l], dur_ns, stop, &mm, err, errlen)) != 0)
			return rc;
		rp = ratio(mm.v[TM_P99], pm.v[TM_P99]);
		rc_ = ratio(mm.v[TM_CPU], pm.v[TM_CPU]);
		row(f, who, name, loads[l], "predicted", &pm, meets(req, &pm) ? "meets" : "misses");
		row(f, who, name, loads[l], "measured", &mm, meets(req, &mm) ? "meets" : "misses");
		fprintf(f, "%-9s %-50s %9.0f %-9s %8.2fx %6.2fx %9.2fx %7s  p99 %s, cpu %s within "
			"tolerance\n", who, name, loads[l], "ratio", rp, rc_,
			ratio(mm.v[TM_THROUGHPUT], pm.v[TM_THROUGHPUT]), "-", agree(rp, VERIFY_P99_TOL),
			agree(rc_, VERIFY_CPU_TOL));
	}
	return stop && *stop ? (snprintf(err, errlen, "interrupted"), 1) : 0;
}

int tune_verify(FILE *f, const struct tune_result *res, const struct tune_request *req,
		int64_t dur_ns, const volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	const struct tune_point *best = tune_best(&res->st);
	const struct tune_point *second = verify_runner_up(&res->st, best);
	struct scenario *scn = malloc(sizeof(*scn));
	double loads[TUNE_MAX_LOADS];
	size_t n = req->n_loads;
	bool sink;
	int rc;

	if (!scn)
		return snprintf(err, errlen, "out of memory"), 1;
	if (!best || tune_point_scenario(res, best, scn, err, errlen) != 0) {
		free(scn);
		return best ? 2 : (snprintf(err, errlen, "verify: no point"), 2);
	}
	sink = scn->apps.sink;
	memcpy(loads, req->loads, sizeof(loads));
	if (n == 0)
		loads[n++] = scn->n_traffic ? (double)scn->traffic[0].rate_pps : 0;
	free(scn);
	for (size_t i = 0; i < n; i++)
		if (!(loads[i] > 0))
			return snprintf(err, errlen, "the scenario's traffic has no packet rate "
					"(traffic.rate) for the live sender to offer"), 2;
	fprintf(f, "\nVerification on real packets (the live engine's veth test bed, %.1f s per "
		"point)\ntolerance: measured/predicted within 1/%.0f..%.0f for p99, 1/%.0f..%.0f for "
		"cpu (docs/tune.md \"Verifying on real packets\"); meets/misses: the goals",
		(double)dur_ns / 1e9, VERIFY_P99_TOL, VERIFY_P99_TOL, VERIFY_CPU_TOL, VERIFY_CPU_TOL);
	for (size_t i = 0; i < req->n_goals; i++)
		fprintf(f, " %s", req->goal[i].text);
	if (req->max_loss_pct > 0)
		fprintf(f, " and loss <= %g%%", req->max_loss_pct);
	if (req->iface)
		fprintf(f, "\n(--iface %s names the commands only: the settings are measured on the "
			"test bed's veth, the only interface rxlab changes here)", req->iface);
	fprintf(f, "\n%-9s %-50s %9s %-9s %9s %7s %10s %7s  %s\n", "setting", "", "load/s", "figures",
		"p99(us)", "cpu(%)", "thru(/s)", "drop%", "goals");
	rc = verify_point(f, res, req, best, "best", sink, loads, n, dur_ns, stop, err, errlen);
	if (rc == 0 && second)
		rc = verify_point(f, res, req, second, "runner-up", sink, loads, n, dur_ns, stop, err,
				  errlen);
	else if (rc == 0)
		fprintf(f, "runner-up none: the search evaluated one setting\n");
	return rc;
}
