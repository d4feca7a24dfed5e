/* tune.c - the search of `rxlab tune` (see tune.h).
 *
 * Roadmap: prepare() turns a trace into scenario overrides, loads the base
 * scenario once (the port, whether a socket receives) and refuses a search
 * with nothing to search; eval_batch() hands one batch of the search to
 * sweep_run(); tune_point_scenario() rebuilds a point's scenario for its
 * commands.  Reporting is tune_report.c's.
 */
#include "tune/tune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/sweep.h"
#include "model/scenario_load.h"
#include "model/trace_load.h"
#include "model/trace_pcap.h"
#include "model/trace_play.h"
#include "report/sim_report.h"
#include "report/table.h"
#include "rxlab/live.h"
#include "rxlab/scheme.h"

#define TUNE_MAX_SETS 320

/* What the batches share. */
struct tune_ctx {
	const char *scenario;
	const char *sets[TUNE_MAX_SETS];
	size_t n_sets;                   /* user overrides + baseline */
	char buf[96][4200];              /* storage of generated overrides (a path fits) */
	size_t n_buf;
	const char *nic;                 /* the receiving port's name (tune_result) */
	bool sink;
	size_t jobs;
	bool full;                       /* an override did not fit in sets[] or buf[] */
	char rate_key[96];               /* "traffic.rate" or "traffic.NAME.rate" */
	char load_val[TUNE_MAX_LOADS][48]; /* the request's loads, "20000pps" */
	size_t n_loads;                  /* 0: the scenario's own rate */
	double own_pps;                  /* the scenario's own rate (a trace: its mean rate
					  * at its speed; NaN: not a set rate) */
	double trace_pps;                /* a trace's mean rate at speed 1 (NaN: none) */
	bool speeds;                     /* the load points are --speeds */
	const struct goal *goals;        /* every goal, the implied loss goal last */
	size_t n_goals;
	enum tune_metric objective;      /* the request's */
	bool maximize;
	const volatile sig_atomic_t *stop; /* stop flag (NULL: never) */
};

/* ---- scenario and batches ---- */

/* A generated override in @c, or NULL (and c->full) when it does not fit. */
static const char *ctx_add(struct tune_ctx *c, const char *fmt, const char *a, const char *b)
{
	char *s;

	if (c->n_buf == sizeof(c->buf) / sizeof(c->buf[0]))
		return c->full = true, NULL;
	s = c->buf[c->n_buf++];
	if (snprintf(s, sizeof(c->buf[0]), fmt, a, b) >= (int)sizeof(c->buf[0]))
		return c->full = true, NULL;
	return s;
}

/* @key with '*' replaced by the port's name (stored in @c if changed). */
static const char *port_key(struct tune_ctx *c, const char *key)
{
	const char *star = strchr(key, '*');
	char *s;

	if (!star)
		return key;
	if (c->n_buf == sizeof(c->buf) / sizeof(c->buf[0]))
		return c->full = true, NULL;
	s = c->buf[c->n_buf++];
	snprintf(s, sizeof(c->buf[0]), "%.*s%s%s", (int)(star - key), key, c->nic, star + 1);
	return s;
}

static void ctx_set(struct tune_ctx *c, const char *set)
{
	if (set && c->n_sets < TUNE_MAX_SETS)
		c->sets[c->n_sets++] = set;
	else
		c->full = true;
}

bool tune_is_trace(const char *name)
{
	size_t n = strlen(name);

	return pcap_trace_is_capture_name(name) || (n > 4 && !strcmp(name + n - 4, ".csv"));
}

/* A trace: overrides that play it into the base scenario, whole, as every
 * command plays a trace given by --set (trace_play.h): scenario_load()
 * gives the run the trace's length unless --set says; no warm-up. */
static enum tune_status trace_sets(struct tune_ctx *c, const struct tune_request *r,
				   char *err, size_t errlen)
{
	const struct scn_trace *tr;
	char msg[640];

	if (trace_load(&tr, r->target, msg, sizeof(msg)))
		return snprintf(err, errlen, "%s", msg), TUNE_BAD_INPUT;
	c->trace_pps = tr->n > 1 && tr->t_ns[tr->n - 1] > 0
		       ? (double)(tr->n - 1) * 1e9 / (double)tr->t_ns[tr->n - 1] : NAN;
	ctx_set(c, ctx_add(c, "traffic.trace=%s%s", r->target, ""));
	ctx_set(c, ctx_add(c, "traffic.trace-speed=%s%s", r->speed ? r->speed : "1", ""));
	ctx_set(c, "run.warmup=0");	/* also when --set run.duration cuts the trace */
	c->scenario = r->base ? r->base : "udp-sink";
	return TUNE_OK;
}

/* --load sets the rate of the scenario's one traffic source: refused (a
 * message in @err) with several sources, a trace or a closed loop. */
static bool load_refused(struct tune_ctx *c, const struct scenario *scn, char *err,
			 size_t errlen)
{
	const struct scn_traffic *t = &scn->traffic[0];

	if (scn->n_traffic != 1)
		return snprintf(err, errlen, "tune: --load sets the rate of one traffic source and "
				"%s has %u; set their rates with --set "
				"traffic.NAME.rate=... and tune without --load", c->scenario,
				(unsigned)scn->n_traffic), true;
	if (t->pattern == TRAFFIC_TRACE || t->pattern == TRAFFIC_CLOSED)
		return snprintf(err, errlen, "tune: --load sets the offered rate and the traffic of "
				"%s is %s, whose rate it does not set", c->scenario,
				t->pattern == TRAFFIC_TRACE ? "a trace" : "a closed loop"), true;
	if (!strcmp(t->name, "traffic"))
		snprintf(c->rate_key, sizeof(c->rate_key), "traffic.rate");
	else
		snprintf(c->rate_key, sizeof(c->rate_key), "traffic.%s.rate", t->name);
	return false;
}

/* Load the base scenario once: its receiving port and socket. */
static enum tune_status probe(struct tune_ctx *c, struct tune_result *res, char *err,
			      size_t errlen)
{
	struct scenario *scn = malloc(sizeof(*scn));
	char msg[1024];

	if (!scn)
		return snprintf(err, errlen, "out of memory"), TUNE_FAILED;
	if (scenario_load(scn, c->scenario, c->sets, c->n_sets, msg, sizeof(msg))) {
		snprintf(err, errlen, "%s", msg);
		free(scn);
		return TUNE_BAD_INPUT;
	}
	snprintf(res->port, sizeof(res->port), "%s", scn->n_traffic ? scn->traffic[0].port
								   : scn->nic[0].name);
	res->port_ix = scenario_nic_index(scn, res->port);
	c->own_pps = scn->n_traffic == 1 && scn->traffic[0].pattern != TRAFFIC_TRACE &&
		     scn->traffic[0].pattern != TRAFFIC_CLOSED ? (double)scn->traffic[0].rate_pps
							       : NAN;
	if (scn->n_traffic == 1 && scn->traffic[0].pattern == TRAFFIC_TRACE)
		c->own_pps = c->trace_pps * (double)scn->traffic[0].trace_speed_milli / 1000.0;
	if (c->n_loads && !c->speeds && load_refused(c, scn, err, errlen)) {
		free(scn);
		return TUNE_BAD_INPUT;
	}
	c->nic = res->port;
	c->sink = scn->apps.sink;
	trace_notes(stderr, scn);
	free(scn);
	return TUNE_OK;
}

/* The port's name is printed into the commands when the request names no
 * interface: it must be a name Linux accepts. */
static enum tune_status check_port_name(const struct tune_result *res,
					const struct tune_request *r, char *err, size_t errlen)
{
	char msg[400];

	if (r->iface || rxl_ifname_check(res->port, msg, sizeof(msg)) == 0)
		return TUNE_OK;
	snprintf(err, errlen, "tune: the scenario's receiving port: %s; give the interface the "
		 "commands are for with --iface NAME", msg);
	return TUNE_BAD_INPUT;
}

/* busy-poll and suspend act through the receiving socket: without one
 * they are left out, and a search left with no policy is refused. */
static enum tune_status drop_sink_policies(const struct tune_ctx *c, struct tune_result *res,
					   char *err, size_t errlen)
{
	char sink[128], other[256];
	bool any = false;

	for (size_t p = 0; p < tune_n_policies(); p++) {
		if ((tune_policy(p)->flags & RXL_SCHEME_SINK) && !c->sink)
			res->enabled[p] = false;
		any |= res->enabled[p];
	}
	if (any)
		return TUNE_OK;
	rxl_scheme_names(sink, sizeof(sink), RXL_SCHEME_TUNE | RXL_SCHEME_SINK, 0);
	rxl_scheme_names(other, sizeof(other), RXL_SCHEME_TUNE, RXL_SCHEME_SINK);
	snprintf(err, errlen, "tune: --policies: %s act through the receiving socket and %s has "
		 "no UDP sink (apps.sink = off); choose among %s, or --set apps.sink=on",
		 sink, c->scenario, other);
	return TUNE_BAD_INPUT;
}

/* The overrides every point shares: the user's (after the trace's), then
 * every knob of every scheme reset, on the port probe() found. */
static enum tune_status shared_sets(struct tune_ctx *c, const struct tune_request *r,
				    struct tune_result *res, char *err, size_t errlen)
{
	enum tune_status s = TUNE_OK;

	c->scenario = r->target;
	if (tune_is_trace(r->target))
		s = trace_sets(c, r, err, errlen);
	for (size_t i = 0; s == TUNE_OK && i < r->n_user_sets; i++)
		ctx_set(c, r->user_sets[i]);
	if (s == TUNE_OK)
		s = probe(c, res, err, errlen);
	for (size_t i = 0; s == TUNE_OK && rxl_scheme_off[i]; i++)
		ctx_set(c, port_key(c, rxl_scheme_off[i]));
	for (size_t i = 0; s == TUNE_OK && c->sink && rxl_scheme_off_sink[i]; i++)
		ctx_set(c, rxl_scheme_off_sink[i]);
	if (s == TUNE_OK && c->full) {
		snprintf(err, errlen, "tune: too many or too long overrides (--set and the "
			 "trace's path together)");
		return TUNE_TOO_LARGE;
	}
	return s;
}

static enum tune_status prepare(struct tune_ctx *c, const struct tune_request *r,
				struct tune_result *res, char *err, size_t errlen)
{
	enum tune_status s;

	c->jobs = r->jobs;
	c->n_loads = r->n_loads;
	c->trace_pps = NAN;
	for (size_t i = 0; i < r->n_loads; i++)
		snprintf(c->load_val[i], sizeof(c->load_val[i]), "%.0fpps", r->loads[i]);
	c->speeds = r->n_speeds > 0;
	if (c->speeds) {	/* tune_args.c: a trace, no --load */
		c->n_loads = r->n_speeds;
		snprintf(c->rate_key, sizeof(c->rate_key), "traffic.trace-speed");
		for (size_t i = 0; i < r->n_speeds; i++)
			snprintf(c->load_val[i], sizeof(c->load_val[i]), "%s", r->speeds[i]);
	}
	memcpy(res->enabled, r->enabled, sizeof(res->enabled));
	s = shared_sets(c, r, res, err, errlen);
	if (s == TUNE_OK)
		s = check_port_name(res, r, err, errlen);
	res->peak_pps = c->own_pps;
	if (c->n_loads)
		res->peak_pps = strtod(c->load_val[c->n_loads - 1], NULL) *
				(c->speeds ? c->trace_pps : 1.0);
	return s == TUNE_OK ? drop_sink_policies(c, res, err, errlen) : s;
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
	m->load_pps = NAN;
}

/* Summed relative miss of @m over @c's goals, and in *@tight the largest
 * signed relative excess over a limit (how close the tightest goal came
 * to missing; above 0 when one misses). */
static double load_miss(const struct tune_ctx *c, const struct tune_metrics *m, double *tight)
{
	double miss = 0.0;

	*tight = -INFINITY;
	for (size_t i = 0; i < c->n_goals; i++) {
		const struct goal *g = &c->goals[i];
		double v = m->v[g->m], scale = fabs(g->limit) > 1e-9 ? fabs(g->limit) : 1.0;
		double ex = g->op == GOAL_LE || g->op == GOAL_LT ? v - g->limit : g->limit - v;

		miss += goal_miss(g, m);
		if (!isnan(v) && ex / scale > *tight)
			*tight = ex / scale;
	}
	return miss;
}

/* The figures of one point from its runs at each load (@m[0..n)): those
 * of its worst load (tune.h) into @out. */
static void fold_loads(const struct tune_ctx *c, const struct tune_metrics *m, size_t n,
		       struct tune_metrics *out)
{
	size_t worst = 0;
	double wmiss = 0.0, wtight = 0.0;

	for (size_t l = 0; l < n; l++) {
		double tight, miss = load_miss(c, &m[l], &tight);

		if (l == 0 || miss > wmiss || (miss == wmiss && tight >= wtight)) {
			worst = l;
			wmiss = miss;
			wtight = tight;
		}
	}
	*out = m[worst];
	out->obj_set = c->n_loads > 0;
	for (size_t l = 0; out->obj_set && l < n; l++) {
		double v = m[l].v[c->objective];
		bool worse = l == 0 || isnan(v) || (c->maximize ? v <= out->obj : v >= out->obj);

		if (worse && !isnan(out->obj)) {
			out->obj = v;
			out->obj_load_pps = m[l].load_pps;
		}
	}
}

/* The overrides of policy @pol (after the shared ones) into @sets; the
 * strings it makes live in @c until the caller resets c->n_buf. */
static size_t policy_sets(struct tune_ctx *c, const struct rxl_scheme *pol, const char **sets)
{
	size_t n = c->n_sets;

	memcpy(sets, c->sets, n * sizeof(*sets));
	for (size_t i = 0; pol->sets[i]; i++)
		sets[n++] = port_key(c, pol->sets[i]);
	return n;
}

/* The variations of batch @b of policy @pol (the level lists of its
 * axes, values in @vals) into @vary; returns the number of points. */
static size_t batch_vary(struct tune_ctx *c, const struct rxl_scheme *pol,
			 const struct tune_batch *b, struct vary *vary,
			 char (*vals)[TUNE_MAX_LEVELS][48])
{
	size_t total = 1;

	for (size_t k = 0; k < pol->n_axes; k++) {
		snprintf(vary[k].key, sizeof(vary[k].key), "%s", port_key(c, pol->axis[k].key));
		vary[k].n = b->n[k];
		vary[k].val = vals[k];
		vary[k].hidden = true;
		for (size_t i = 0; i < b->n[k]; i++)
			snprintf(vals[k][i], sizeof(vals[k][i]), "%s", pol->axis[k].level[b->ix[k][i]]);
		total *= b->n[k];
	}
	return total;
}

/* The load axis, last so that it varies fastest: run k is point k / n,
 * load k % n. */
static size_t load_vary(struct tune_ctx *c, struct vary *v)
{
	if (!c->n_loads)
		return 1;
	snprintf(v->key, sizeof(v->key), "%s", c->rate_key);
	v->n = c->n_loads;
	v->val = c->load_val;
	v->hidden = true;
	return c->n_loads;
}

/* The figures of run k of @brief (as load_vary() orders them) into @m. */
static void runs_metrics(const struct tune_ctx *c, const struct point_brief *brief,
			 size_t runs, struct tune_metrics *m)
{
	for (size_t k = 0; k < runs; k++) {
		metrics_of(&brief[k], &m[k]);
		m[k].load_pps = !c->n_loads ? c->own_pps
				: strtod(c->load_val[k % c->n_loads], NULL) * (c->speeds ? c->trace_pps : 1.0);
	}
}

static int eval_batch(void *vctx, const struct tune_batch *b, struct tune_metrics *out,
		      char *err, size_t errlen)
{
	struct tune_ctx *c = vctx;
	const struct rxl_scheme *pol = tune_policy(b->pol);
	const char *sets[TUNE_MAX_SETS + RXL_SCHEME_MAX_SETS];
	struct vary vary[TUNE_MAX_AXES + 1] = { 0 };
	char vals[TUNE_MAX_AXES][TUNE_MAX_LEVELS][48];
	size_t mark = c->n_buf, n_sets = policy_sets(c, pol, sets);
	size_t total = batch_vary(c, pol, b, vary, vals);
	size_t n_l = load_vary(c, &vary[pol->n_axes]), runs = total * n_l;
	struct point_brief *brief = calloc(runs, sizeof(*brief));
	struct tune_metrics *m = calloc(runs, sizeof(*m));
	struct table *t = summary_table_new("tune", NULL, NULL, 0, true);
	int rc;

	rc = brief && m ? sweep_run(t, c->scenario, sets, n_sets, vary,
				    pol->n_axes + (c->n_loads ? 1 : 0), c->jobs, true, brief,
				    c->stop, err, errlen)
			: (snprintf(err, errlen, "out of memory"), -1);
	if (rc == 0 && c->stop && *c->stop)
		rc = (snprintf(err, errlen, "interrupted"), -1);
	if (rc == 0)
		runs_metrics(c, brief, runs, m);
	for (size_t i = 0; rc == 0 && i < total; i++)
		fold_loads(c, &m[i * n_l], n_l, &out[i]);
	free(m);
	table_free(t);
	free(brief);
	c->n_buf = mark;
	return rc;
}

/* The scenario of point @p, for the commands. */
int tune_point_scenario(const struct tune_result *res, const struct tune_point *p,
			struct scenario *scn, char *err, size_t errlen)
{
	struct tune_ctx *c = res->ctx;
	const struct rxl_scheme *pol = tune_policy(p->pol);
	const char *sets[TUNE_MAX_SETS + RXL_SCHEME_MAX_SETS + TUNE_MAX_AXES];
	size_t mark = c->n_buf, n = policy_sets(c, pol, sets);
	char msg[1024];
	int rc;

	for (size_t k = 0; k < pol->n_axes; k++) {
		const char *key = port_key(c, pol->axis[k].key);

		sets[n++] = ctx_add(c, "%s=%s", key, pol->axis[k].level[p->ix[k]]);
	}
	rc = scenario_load(scn, c->scenario, sets, n, msg, sizeof(msg));
	c->n_buf = mark;
	if (rc)
		snprintf(err, errlen, "%s", msg);
	return rc;
}

/* ---- the search ---- */

struct goal tune_loss_goal(double max_loss_pct)
{
	struct goal g = { .m = TM_DROP_PCT, .op = GOAL_LE, .limit = max_loss_pct };

	snprintf(g.text, sizeof(g.text), "loss<=%g%%", max_loss_pct);
	return g;
}

static enum tune_status search(struct tune_result *res, const struct tune_request *r,
			       char *err, size_t errlen)
{
	struct tune_state *st = &res->st;
	char msg[1024];

	memcpy(res->goals, r->goal, r->n_goals * sizeof(r->goal[0]));
	res->goals[r->n_goals] = tune_loss_goal(r->max_loss_pct);
	res->ctx->goals = res->goals;
	res->ctx->n_goals = r->n_goals + 1;
	res->ctx->objective = r->objective;
	res->ctx->maximize = r->maximize;
	*st = (struct tune_state){ .pol = res->pol, .enabled = res->enabled, .goals = res->goals,
				   .n_goals = r->n_goals + 1, .objective = r->objective,
				   .maximize = r->maximize };
	st->n_pol = tune_policy_list(res->pol, TUNE_MAX_POLICIES);
	if (tune_search(st, eval_batch, res->ctx, msg, sizeof(msg))) {
		snprintf(err, errlen, "tune: %s", msg);
		return strstr(msg, "model error") ? TUNE_FAILED : TUNE_BAD_INPUT;
	}
	if (st->n_pts == 0) { /* prepare() refuses an empty search: never a result without points */
		snprintf(err, errlen, "tune: no setting was evaluated (no policy to search)");
		return TUNE_BAD_INPUT;
	}
	return TUNE_OK;
}

enum tune_status tune_run(const struct tune_request *req, struct tune_result *res,
			  const volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	enum tune_status s;

	memset(res, 0, sizeof(*res));
	res->ctx = calloc(1, sizeof(*res->ctx));	/* large: not on the stack */
	if (!res->ctx)
		return snprintf(err, errlen, "out of memory"), TUNE_FAILED;
	res->ctx->stop = stop;
	s = prepare(res->ctx, req, res, err, errlen);
	return s == TUNE_OK ? search(res, req, err, errlen) : s;
}

void tune_result_free(struct tune_result *res)
{
	tune_state_free(&res->st);
	free(res->ctx);
	res->ctx = NULL;
	trace_cache_free();
}
