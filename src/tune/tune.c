/* tune.c - the search of `rxlab tune` (see tune.h).
 *
 * Roadmap: prepare() turns a trace into scenario overrides, loads the base
 * scenario once (the port, whether a socket receives) and refuses a search
 * with nothing to search; eval_batch() hands one batch of the search to
 * sweep_run(); tune_point_scenario() rebuilds a point's scenario for its
 * commands.  After the search, placement_stage() runs the best point with
 * each placement (placement.h), then perqueue_stage() measures the
 * queues' shares and runs the per-queue descent (perqueue.h: pq_step()
 * for one queue and knob, pq_eval() for its candidates).  Reporting is
 * tune_report.c's.
 */
#include "tune/tune.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/sweep.h"
#include "model/quirks.h"
#include "model/scenario_load.h"
#include "model/trace_load.h"
#include "model/trace_pcap.h"
#include "model/trace_play.h"
#include "report/sim_report.h"
#include "report/table.h"
#include "rxlab/live.h"
#include "rxlab/scheme.h"
#include "rxlab/sim.h"
#include "tune/robust.h"

#define TUNE_MAX_SETS 320

/* What the batches share. */
struct tune_ctx {
	const char *scenario;
	const char *sets[TUNE_MAX_SETS];
	size_t n_sets;                   /* user overrides + baseline */
	char buf[96][4200];              /* storage of generated overrides (a path fits) */
	size_t n_buf;
	const char *nic;                 /* the receiving port's name (tune_result) */
	enum nic_driver driver;          /* the port's driver (model/quirks.h) */
	const struct rxl_scheme *const *pol; /* the policies searched (tune_result.pol) */
	bool sink;
	size_t jobs;
	bool full;                       /* an override did not fit in sets[] or buf[] */
	/* the load points (robust.h): each point of a batch runs at every one */
	size_t n_loads;                  /* 0: once, at the scenario's own load */
	double load[TUNE_MAX_LOADS];     /* frames/s, or trace-speeds, ascending */
	char load_set[TUNE_MAX_LOADS][SCN_MAX_TRAFFIC][96]; /* the overrides of each */
	size_t n_load_sets;              /* overrides per load */
	const struct tune_request *req;  /* the goals and --max-loss the loads fold by */
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
	ctx_set(c, ctx_add(c, "traffic.trace=%s%s", r->target, ""));
	ctx_set(c, ctx_add(c, "traffic.trace-speed=%s%s", r->speed ? r->speed : "1", ""));
	ctx_set(c, "run.warmup=0");	/* also when --set run.duration cuts the trace */
	c->scenario = r->base ? r->base : "udp-sink";
	return TUNE_OK;
}

/* Frames/s the scenario's own sources offer (a trace: its mean rate at
 * its speed, times @speed_scale; a closed loop: nothing, its rate is the
 * server's). */
static double own_rate(const struct scenario *scn, double speed_scale)
{
	double pps = 0.0;

	for (uint32_t i = 0; i < scn->n_traffic; i++) {
		const struct scn_traffic *t = &scn->traffic[i];
		const struct scn_trace *tr = t->trace;

		if (t->pattern == TRAFFIC_TRACE && tr && tr->n > 1 && tr->t_ns[tr->n - 1] > 0)
			pps += 1e9 * (double)tr->n / (double)tr->t_ns[tr->n - 1] *
			       t->trace_speed_milli / 1000.0 * speed_scale;
		else if (t->pattern != TRAFFIC_TRACE && t->pattern != TRAFFIC_CLOSED)
			pps += (double)t->rate_pps;
	}
	return pps;
}

/* --speeds: one override per point, the trace's speed. */
static void speed_points(struct tune_ctx *c, const struct tune_request *r)
{
	for (size_t i = 0; i < r->n_speeds; i++) {
		c->load[i] = strtod(r->speeds[i], NULL);
		snprintf(c->load_set[i][0], sizeof(c->load_set[i][0]), "traffic.trace-speed=%s",
			 r->speeds[i]);
	}
	c->n_loads = r->n_speeds;
	c->n_load_sets = 1;
}

/* --load: every source's rate, scaled so that they add up to each load
 * and keep their shares; a source whose rate is not offered (a trace, a
 * closed loop) is refused. */
static enum tune_status rate_points(struct tune_ctx *c, const struct scenario *scn,
				    const struct tune_request *r, char *err, size_t errlen)
{
	double total = own_rate(scn, 1.0);

	for (uint32_t t = 0; t < scn->n_traffic; t++) {
		const struct scn_traffic *tr = &scn->traffic[t];

		if (tr->pattern == TRAFFIC_TRACE || tr->pattern == TRAFFIC_CLOSED) {
			snprintf(err, errlen, "tune: --load sets the offered rate, and [traffic%s%s] "
				 "of %s %s", strcmp(tr->name, "traffic") ? " " : "",
				 strcmp(tr->name, "traffic") ? tr->name : "", c->scenario,
				 tr->pattern == TRAFFIC_TRACE ? "plays a trace at its own rate; tune the "
				 "trace itself with --speeds" : "is a closed loop (pattern = closed: its "
				 "depth and the server's answers set its rate, which --load cannot)");
			return TUNE_BAD_INPUT;
		}
	}
	for (size_t i = 0; i < r->n_loads; i++) {
		c->load[i] = r->loads[i];
		for (uint32_t t = 0; t < scn->n_traffic; t++) {
			const struct scn_traffic *tr = &scn->traffic[t];
			double pps = llround(r->loads[i] * (double)tr->rate_pps / total);
			bool plain = !strcmp(tr->name, "traffic");

			snprintf(c->load_set[i][t], sizeof(c->load_set[i][t]), "traffic.%s%srate=%.0fpps",
				 plain ? "" : tr->name, plain ? "" : ".", pps < 1.0 ? 1.0 : pps);
		}
	}
	c->n_loads = r->n_loads;
	c->n_load_sets = scn->n_traffic;
	return TUNE_OK;
}

/* The load points of the request, and the peak rate the traps judge by. */
static enum tune_status load_points(struct tune_ctx *c, const struct scenario *scn,
				    struct tune_result *res, char *err, size_t errlen)
{
	const struct tune_request *r = c->req;

	if (r->n_speeds) {
		speed_points(c, r);
		/* the speed the scenario plays at is --speed's (1): scale to the fastest */
		res->peak_pps = own_rate(scn, c->load[c->n_loads - 1] /
					 (scn->n_traffic ? scn->traffic[0].trace_speed_milli / 1000.0
					  : 1.0));
		return TUNE_OK;
	}
	res->peak_pps = r->n_loads ? r->loads[r->n_loads - 1] : own_rate(scn, 1.0);
	return r->n_loads ? rate_points(c, scn, r, err, errlen) : TUNE_OK;
}

/* Load the base scenario once: its receiving port and socket, and the
 * overrides of the load points. */
static enum tune_status probe(struct tune_ctx *c, struct tune_result *res, char *err,
			      size_t errlen)
{
	struct scenario *scn = malloc(sizeof(*scn));
	enum tune_status st;
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
	c->nic = res->port;
	c->driver = res->port_ix >= 0 ? scn->nic[res->port_ix].driver : DRIVER_GENERIC;
	c->sink = scn->apps.sink;
	trace_notes(stderr, scn);
	st = load_points(c, scn, res, err, errlen);
	free(scn);
	return st;
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

/* ---- the port's driver ---- */

/* Does tune keep the base scenario's driver on the port?  The drivers of
 * the quirk tables but generic and e1000 (model/quirks.h): their points
 * are what that driver does.  e1000 keeps the reset to generic that the
 * registry's "off" overrides make, as it always did: its coalescing is the
 * itr policies. */
static bool quirk_driver_kept(enum nic_driver d)
{
	return d != DRIVER_GENERIC && d != DRIVER_E1000;
}

/* Is policy @pol one the driver @d can be given at all?  The itr policies
 * are e1000's InterruptThrottleRate; dim needs adaptive-rx. */
static bool policy_possible(const struct rxl_scheme *pol, enum nic_driver d)
{
	for (size_t k = 0; k < pol->n_axes; k++)
		if (!strcmp(pol->axis[k].label, "InterruptThrottleRate"))
			return false;
	for (size_t i = 0; pol->sets[i]; i++)
		if (strstr(pol->sets[i], "adaptive-rx=") && !quirk_driver(d)->adaptive)
			return false;
	return true;
}

/* Keep of @ax's levels those driver @d programs as asked (quirk_honours());
 * how many are left. */
static size_t honoured_levels(struct rxl_scheme_axis *ax, enum nic_driver d)
{
	size_t n = 0;

	for (size_t i = 0; i < ax->n; i++)
		if (quirk_honours(d, ax->label, ax->level[i]))
			ax->level[n++] = ax->level[i];
	return ax->n = n;
}

/* Point res->pol at copies of the policies whose levels are those driver
 * @d honours (docs/quirks.md), and leave out the policies it cannot be
 * given or that keep no level; say which on stderr. */
static void honoured_policies(struct tune_result *res, enum nic_driver d)
{
	const char *name = quirk_driver(d)->name;

	for (size_t p = 0; p < res->st.n_pol; p++) {
		struct rxl_scheme *own = &res->pol_own[p];
		bool keep = policy_possible(res->pol[p], d);

		*own = *res->pol[p];
		for (size_t k = 0; keep && k < own->n_axes; k++) {
			size_t all = own->axis[k].n;

			keep = honoured_levels(&own->axis[k], d) > 0;
			if (keep && own->axis[k].n < all && res->enabled[p])
				fprintf(stderr, "rxlab: tune: note: driver %s: %s searches %zu of its %zu "
					"%s levels, those the driver programs as asked (docs/quirks.md)\n",
					name, own->name, own->axis[k].n, all, own->axis[k].label);
		}
		if (!keep && res->enabled[p]) {
			fprintf(stderr, "rxlab: tune: note: driver %s: %s left out (the driver has no "
				"such setting; docs/quirks.md)\n", name, own->name);
			res->enabled[p] = false;
		}
		res->pol[p] = own;
	}
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
	if (s == TUNE_OK && quirk_driver_kept(c->driver))
		ctx_set(c, ctx_add(c, "nic.%s.driver=%s", c->nic, quirk_driver(c->driver)->name));
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
	c->req = r;
	memcpy(res->enabled, r->enabled, sizeof(res->enabled));
	s = shared_sets(c, r, res, err, errlen);
	if (s == TUNE_OK)
		s = check_port_name(res, r, err, errlen);
	return s == TUNE_OK ? drop_sink_policies(c, res, err, errlen) : s;
}

static void metrics_of(const struct point_brief *b, struct tune_metrics *m)
{
	double frames = b->wire_pps * b->window_s;

	memset(m, 0, sizeof(*m));
	m->v[TM_P50] = b->lat_p50_us;
	m->v[TM_P99] = b->lat_p99_us;
	m->v[TM_P999] = b->lat_p999_us;
	m->v[TM_CPU] = 100.0 - b->cpu_idle_pct;
	m->v[TM_THROUGHPUT] = b->forwarded_pps + b->delivered_pps + b->replied_pps;
	m->v[TM_DROPS] = (double)b->drops_total;
	m->v[TM_DROP_PCT] = frames > 0 ? 100.0 * (double)b->drops_total / frames : 0.0;
	m->v[TM_IRQS] = b->irqs_per_s;
	m->max_drop_pct = m->v[TM_DROP_PCT];
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

/* Run the @total points of one batch at load @li (the scenario's own
 * when there are no loads), their figures into @at[i * n + li]. */
static int eval_load(struct tune_ctx *c, const char **sets, size_t n_sets, struct vary *vary,
		     size_t n_axes, size_t total, size_t li, struct tune_metrics *at, char *err,
		     size_t errlen)
{
	struct point_brief *brief = calloc(total, sizeof(*brief));
	struct table *t = summary_table_new("tune", NULL, NULL, 0, true);
	size_t n = c->n_loads ? c->n_loads : 1;
	int rc;

	for (size_t k = 0; c->n_loads && k < c->n_load_sets; k++)
		sets[n_sets++] = c->load_set[li][k];
	rc = brief && t ? sweep_run(t, c->scenario, sets, n_sets, vary, n_axes, c->jobs, true,
				    brief, c->stop, err, errlen) : -1;
	if (rc && (!brief || !t))
		snprintf(err, errlen, "out of memory");
	if (rc == 0 && c->stop && *c->stop)
		rc = (snprintf(err, errlen, "interrupted"), -1);
	for (size_t i = 0; rc == 0 && i < total; i++)
		metrics_of(&brief[i], &at[i * n + li]);
	table_free(t);
	free(brief);
	return rc;
}

/* The figures @at of @total points at every load (at[i * n + li]) into
 * @out, one per point, folded over the loads (robust.h). */
static void fold(const struct tune_ctx *c, const struct tune_metrics *at, size_t total,
		 struct tune_metrics *out)
{
	size_t n = c->n_loads ? c->n_loads : 1;

	for (size_t i = 0; i < total; i++) {
		if (c->n_loads)
			tune_fold_loads(c->req->goal, c->req->n_goals, c->req->max_loss_pct,
					&at[i * n], c->load, n, &out[i]);
		else
			out[i] = at[i];
	}
}

/* Every point of batch @b at every load, folded into @out (robust.h). */
static int eval_batch(void *vctx, const struct tune_batch *b, struct tune_metrics *out,
		      char *err, size_t errlen)
{
	struct tune_ctx *c = vctx;
	const struct rxl_scheme *pol = c->pol[b->pol];
	const char *sets[TUNE_MAX_SETS + RXL_SCHEME_MAX_SETS + SCN_MAX_TRAFFIC];
	struct vary vary[TUNE_MAX_AXES] = { 0 };
	char vals[TUNE_MAX_AXES][TUNE_MAX_LEVELS][48];
	size_t mark = c->n_buf, n_sets = policy_sets(c, pol, sets);
	size_t total = batch_vary(c, pol, b, vary, vals), n = c->n_loads ? c->n_loads : 1;
	struct tune_metrics *at = calloc(total * n, sizeof(*at));
	int rc = at ? 0 : (snprintf(err, errlen, "out of memory"), -1);

	for (size_t li = 0; rc == 0 && li < n; li++)
		rc = eval_load(c, sets, n_sets, vary, pol->n_axes, total, li, at, err, errlen);
	if (rc == 0)
		fold(c, at, total, out);
	free(at);
	c->n_buf = mark;
	return rc;
}

/* The room for the overrides of one point, its placement, its per-queue
 * lists (and a candidate's) and a load. */
#define POINT_SETS (TUNE_MAX_SETS + RXL_SCHEME_MAX_SETS + TUNE_MAX_AXES + TUNE_PLACE_SETS + \
		    TUNE_MAX_AXES + 1 + SCN_MAX_TRAFFIC)

/* The overrides of point @p (the shared ones, its policy's, its levels)
 * into @sets (room for POINT_SETS); the strings it makes live in @c
 * until the caller resets c->n_buf.  How many, or 0 (c->full) when a
 * level's override does not fit. */
static size_t point_sets(struct tune_ctx *c, const struct tune_state *st,
			 const struct tune_point *p, const char **sets)
{
	const struct rxl_scheme *pol = st->pol[p->pol];
	size_t n = policy_sets(c, pol, sets);

	for (size_t k = 0; k < pol->n_axes; k++) {
		const char *key = port_key(c, pol->axis[k].key);

		sets[n] = key ? ctx_add(c, "%s=%s", key, pol->axis[k].level[p->ix[k]]) : NULL;
		if (!sets[n++])
			return 0;
	}
	return n;
}

/* Load the scenario of point @p, with @extra (n_extra overrides) after
 * its own, into @scn. */
static int load_point(const struct tune_result *res, const struct tune_point *p,
		      const char *const *extra, size_t n_extra, struct scenario *scn, char *err,
		      size_t errlen)
{
	struct tune_ctx *c = res->ctx;
	const char *sets[POINT_SETS];
	size_t mark = c->n_buf, n = point_sets(c, &res->st, p, sets);
	char msg[1024];
	int rc = -1;

	for (size_t i = 0; n && i < n_extra; i++)
		sets[n++] = extra[i];
	if (n)
		rc = scenario_load(scn, c->scenario, sets, n, msg, sizeof(msg));
	else
		snprintf(msg, sizeof(msg), "tune: too many or too long overrides");
	c->n_buf = mark;
	c->full = false;
	if (rc)
		snprintf(err, errlen, "%s", msg);
	return rc;
}

/* The scenario of point @p, for the commands. */
int tune_point_scenario(const struct tune_result *res, const struct tune_point *p,
			struct scenario *scn, char *err, size_t errlen)
{
	return load_point(res, p, NULL, 0, scn, err, errlen);
}

/* The overrides of the chosen placement, when the placement stage ran,
 * into @out (room for TUNE_PLACE_SETS): how many. */
static size_t place_sets(const struct tune_result *res, const char **out)
{
	const struct tune_place_result *pl = &res->place;
	const struct tune_placement *ch = pl->n ? &pl->cand[pl->chosen] : NULL;

	for (size_t i = 0; ch && i < ch->n_sets; i++)
		out[i] = ch->set[i];
	return ch ? ch->n_sets : 0;
}

/* The per-queue lists of the stage's knobs but @skip (SIZE_MAX: none)
 * into @out (room for TUNE_MAX_AXES): how many. */
static size_t pq_lists(const struct tune_perqueue *pq, size_t skip, const char **out)
{
	size_t n = 0;

	for (size_t a = 0; a < pq->n_axes; a++)
		if (a != skip && pq->set[a][0])
			out[n++] = pq->set[a];
	return n;
}

int tune_chosen_scenario(const struct tune_result *res, struct scenario *scn, char *err,
			 size_t errlen)
{
	const char *extra[TUNE_PLACE_SETS + TUNE_MAX_AXES];
	size_t n = place_sets(res, extra);

	if (res->pq.ran)
		n += pq_lists(&res->pq, SIZE_MAX, extra + n);
	return load_point(res, tune_best(&res->st), extra, n, scn, err, errlen);
}

/* ---- the search ---- */

static enum tune_status search(struct tune_result *res, const struct tune_request *r,
			       char *err, size_t errlen)
{
	struct tune_state *st = &res->st;
	char msg[1024];

	*st = (struct tune_state){ .pol = res->pol, .enabled = res->enabled, .goals = r->goal,
				   .n_goals = r->n_goals, .objective = r->objective,
				   .maximize = r->maximize, .max_loss_pct = r->max_loss_pct,
				   .n_loads = res->ctx->n_loads };
	st->n_pol = tune_policy_list(res->pol, TUNE_MAX_POLICIES);
	if (quirk_driver_kept(res->ctx->driver))
		honoured_policies(res, res->ctx->driver);
	res->ctx->pol = res->pol;
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

/* ---- the placement stage (placement.h) ---- */

/* Run candidates @cand[0..k) of @pl with the best point @best, at every
 * load, their folded figures into pl->pt.  They differ in their
 * irq-affinity alone (the value a sweep varies); their other overrides
 * are cand[0]'s.  One with no irq-affinity (as-configured threaded) runs
 * alone. */
static int eval_places(struct tune_result *res, const struct tune_point *best,
		       struct tune_placement *cand, size_t k, struct tune_point *out, char *err,
		       size_t errlen)
{
	struct tune_ctx *c = res->ctx;
	const char *sets[POINT_SETS];
	char vals[TUNE_MAX_PLACEMENTS][48];
	struct vary vary = { .n = k, .val = vals, .hidden = true };
	size_t mark = c->n_buf, n_sets = point_sets(c, &res->st, best, sets);
	size_t n_vary = cand[0].affinity[0] ? 1 : 0, n = c->n_loads ? c->n_loads : 1;
	struct tune_metrics *at = calloc(k * n, sizeof(*at)), m[TUNE_MAX_PLACEMENTS];
	int rc = at && n_sets ? 0 : -1;

	if (rc)
		snprintf(err, errlen, "%s", at ? "too many or too long overrides" : "out of memory");
	snprintf(vary.key, sizeof(vary.key), "nic.%s.irq-affinity", c->nic);
	for (size_t i = 0; i < k; i++)
		snprintf(vals[i], sizeof(vals[i]), "%s", cand[i].affinity);
	for (size_t i = 0; i < cand[0].n_sets; i++)
		if (strncmp(cand[0].set[i], vary.key, strlen(vary.key)) || !n_vary)
			sets[n_sets++] = cand[0].set[i];
	for (size_t li = 0; rc == 0 && li < n; li++)
		rc = eval_load(c, sets, n_sets, &vary, n_vary, k, li, at, err, errlen);
	if (rc == 0)
		fold(c, at, k, m);
	for (size_t i = 0; rc == 0 && i < k; i++) {
		out[i] = *best;
		out[i].m = m[i];
	}
	res->place.runs += rc == 0 ? k * n : 0;
	free(at);
	c->n_buf = mark;
	c->full = false;
	return rc;
}

/* The best of pl->pt[0..pl->n) by the search's order (tune_best()). */
static size_t place_best(const struct tune_result *res)
{
	struct tune_state st = res->st;

	st.pts = (struct tune_point *)res->place.pt;
	st.n_pts = res->place.n;
	return (size_t)(tune_best(&st) - st.pts);
}

/* Does the request want the stage for a port of @combined queues? */
static bool placement_wanted(const struct tune_request *r, const char *port, uint32_t combined)
{
	if (r->placement == TUNE_PLACEMENT_OFF)
		return false;
	if (combined > 1)
		return true;
	if (r->placement == TUNE_PLACEMENT_ON)
		fprintf(stderr, "rxlab: tune: note: --placement on: port %s has one queue "
			"(combined = 1), so there is no IRQ placement to choose\n", port);
	return false;
}

/* The candidates of the best point's scenario, as-configured with the
 * best point's own figures; 0 when the stage does not run. */
static int place_candidates(struct tune_result *res, const struct tune_request *r,
			    struct scenario *scn, char *err, size_t errlen)
{
	struct tune_place_result *pl = &res->place;
	const struct tune_point *best = tune_best(&res->st);

	if (tune_point_scenario(res, best, scn, err, errlen))
		return -1;
	if (res->port_ix < 0 ||
	    !placement_wanted(r, res->port, scn->nic[res->port_ix].combined))
		return 0;
	pl->n = tune_placements(scn, res->port_ix, pl->cand, TUNE_MAX_PLACEMENTS - 1);
	if (pl->n)
		pl->pt[0] = *best;
	return 0;
}

static enum tune_status placement_stage(struct tune_result *res, const struct tune_request *r,
					char *err, size_t errlen)
{
	struct tune_place_result *pl = &res->place;
	struct scenario *scn = malloc(sizeof(*scn));
	const struct tune_point *best = tune_best(&res->st);
	char msg[1024];
	int rc = scn ? place_candidates(res, r, scn, msg, sizeof(msg))
		     : (snprintf(msg, sizeof(msg), "out of memory"), -1);

	if (rc == 0 && pl->n > 1)
		rc = eval_places(res, best, &pl->cand[1], pl->n - 1, &pl->pt[1], msg, sizeof(msg));
	if (rc == 0 && pl->n) {
		pl->chosen = place_best(res);
		if (tune_placement_threaded(scn, res->port_ix, &pl->cand[pl->chosen],
					    &pl->cand[pl->n])) {
			rc = eval_places(res, best, &pl->cand[pl->n], 1, &pl->pt[pl->n], msg,
					 sizeof(msg));
			pl->n += rc == 0;
			pl->chosen = place_best(res);
		}
	}
	free(scn);
	if (rc == 0)
		return TUNE_OK;
	pl->n = 0;
	snprintf(err, errlen, "tune: placement: %s", msg);
	return strstr(msg, "model error") ? TUNE_FAILED : TUNE_BAD_INPUT;
}

/* ---- the per-queue stage (perqueue.h) ---- */

/* The overrides of the stage's current setting: the best point, the
 * chosen placement, the per-queue lists but knob @skip's (SIZE_MAX:
 * all), into @sets (room for POINT_SETS); 0 when they do not fit. */
static size_t pq_sets(struct tune_result *res, size_t skip, const char **sets)
{
	size_t n = point_sets(res->ctx, &res->st, tune_best(&res->st), sets);

	if (!n)
		return 0;
	n += place_sets(res, sets + n);
	return n + pq_lists(&res->pq, skip, sets + n);
}

/* The axis of knob @a of the stage (the best policy's, as searched). */
static const struct rxl_scheme_axis *pq_axis(const struct tune_result *res, size_t a)
{
	return &res->st.pol[tune_best(&res->st)->pol]->axis[res->pq.axis[a]];
}

/* pq->set[a] from pq->ix[a]: "nic.PORT.KEY=V0 V1 ...".  0, or -1 when it
 * does not fit. */
static int pq_write_set(struct tune_result *res, size_t a)
{
	struct tune_perqueue *pq = &res->pq;
	char key[96], list[TUNE_PQ_SET_LEN];
	size_t need = tune_pq_list_text(pq_axis(res, a), pq->ix[a], pq->combined, list,
					sizeof(list));

	if (need >= sizeof(list) || rxl_scheme_key(key, sizeof(key), pq_axis(res, a)->key,
						     res->port))
		return -1;
	return snprintf(pq->set[a], sizeof(pq->set[a]), "%s=%s", key, list) <
	       (int)sizeof(pq->set[a]) ? 0 : -1;
}

/* Run the current setting once at the peak load (the scenario's own
 * without loads) and read each queue's share of the port's frames. */
static int pq_measure(struct tune_result *res, char *err, size_t errlen)
{
	struct tune_ctx *c = res->ctx;
	struct tune_perqueue *pq = &res->pq;
	const char *sets[POINT_SETS];
	uint64_t frames[SCN_MAX_QUEUES] = { 0 };
	size_t mark = c->n_buf, n = pq_sets(res, SIZE_MAX, sets);
	struct results r;
	int rc = n ? 0 : (snprintf(err, errlen, "too many or too long overrides"), -1);

	memset(&r, 0, sizeof(r));
	for (size_t k = 0; rc == 0 && c->n_loads && k < c->n_load_sets; k++)
		sets[n++] = c->load_set[c->n_loads - 1][k];
	if (rc == 0)
		rc = run_one(&r, c->scenario, sets, n, c->stop, err, errlen);
	if (rc == 0 && c->stop && *c->stop)
		rc = (snprintf(err, errlen, "interrupted"), -1);
	for (uint16_t i = 0; rc == 0 && i < r.n_queues; i++)
		if (r.queue[i].port == res->port_ix && r.queue[i].qid < pq->combined)
			frames[r.queue[i].qid] = r.queue[i].c.entered;
	if (rc == 0) {
		tune_pq_shares(frames, pq->combined, pq->share);
		pq->runs++;
	}
	results_free(&r);
	c->n_buf = mark;
	c->full = false;
	return rc;
}

/* Run queue @q's candidate levels @lv[0..k) of knob @a (every other value
 * as it is now) at every load, their folded figures into @out.  The lists
 * are one sweep's values when each fits a sweep value; else one run each. */
static int pq_eval(struct tune_result *res, size_t a, uint32_t q, const uint8_t *lv,
		   size_t k, struct tune_metrics *out, char *err, size_t errlen)
{
	struct tune_ctx *c = res->ctx;
	struct tune_perqueue *pq = &res->pq;
	const char *sets[POINT_SETS];
	char vals[2 * TUNE_PQ_WINDOW][48], list[2 * TUNE_PQ_WINDOW][TUNE_PQ_SET_LEN];
	struct vary vary = { .n = k, .val = vals, .hidden = true };
	uint8_t ix[SCN_MAX_QUEUES];
	size_t mark = c->n_buf, n_sets = pq_sets(res, a, sets), n = c->n_loads ? c->n_loads : 1;
	struct tune_metrics *at = calloc(k * n, sizeof(*at));
	bool fits = true;
	int rc = at && n_sets ? 0 : -1;

	if (rc)
		snprintf(err, errlen, "%s", at ? "too many or too long overrides" : "out of memory");
	if (rxl_scheme_key(vary.key, sizeof(vary.key), pq_axis(res, a)->key, res->port))
		rc = (snprintf(err, errlen, "the port's name is too long"), -1);
	memcpy(ix, pq->ix[a], sizeof(ix));
	for (size_t i = 0; i < k; i++) {
		size_t len;

		ix[q] = lv[i];
		fits &= tune_pq_list_text(pq_axis(res, a), ix, pq->combined, list[i],
					  sizeof(list[i])) < sizeof(vals[i]);
		len = strnlen(list[i], sizeof(vals[i]) - 1);	/* used only when it fits */
		memcpy(vals[i], list[i], len);
		vals[i][len] = '\0';
	}
	for (size_t li = 0; rc == 0 && fits && li < n; li++)
		rc = eval_load(c, sets, n_sets, &vary, 1, k, li, at, err, errlen);
	for (size_t i = 0; rc == 0 && !fits && i < k; i++) {
		sets[n_sets] = ctx_add(c, "%s=%s", vary.key, list[i]);
		for (size_t li = 0; rc == 0 && li < n; li++)
			rc = sets[n_sets] ? eval_load(c, sets, n_sets + 1, NULL, 0, 1, li, at + i * n,
						      err, errlen)
					  : (snprintf(err, errlen, "too many overrides"), -1);
	}
	if (rc == 0)
		fold(c, at, k, out);
	pq->runs += rc == 0 ? k * n : 0;
	free(at);
	c->n_buf = mark;
	c->full = false;
	return rc;
}

/* The best of the candidates @m[0..k) that tune_pq_better() keeps over
 * @cur, by the search's order (a tie keeps the earlier); k when none. */
static size_t pq_pick(const struct tune_result *res, const struct tune_point *cur,
		      const struct tune_metrics *m, size_t k)
{
	struct tune_point pts[2 * TUNE_PQ_WINDOW];
	size_t which[2 * TUNE_PQ_WINDOW], n = 0;
	struct tune_state st = res->st;

	for (size_t i = 0; i < k; i++)
		if (tune_pq_better(&res->st, &cur->m, &m[i], TUNE_PQ_MARGIN)) {
			pts[n] = *cur;
			pts[n].m = m[i];
			which[n++] = i;
		}
	if (!n)
		return k;
	st.pts = pts;
	st.n_pts = n;
	return which[tune_best(&st) - pts];
}

/* The known traps (tune_traps(), robust.h) of the stage's current
 * setting with knob @a of queue @q at level @lv; every bit when the
 * scenario does not load. */
static unsigned pq_traps(struct tune_result *res, size_t a, uint32_t q, uint8_t lv)
{
	struct tune_perqueue *pq = &res->pq;
	struct scenario *scn = malloc(sizeof(*scn));
	const char *extra[TUNE_PLACE_SETS + TUNE_MAX_AXES];
	uint8_t keep = pq->ix[a][q];
	char set[TUNE_PQ_SET_LEN], why[1024], msg[1024];
	unsigned traps = ~0u;
	size_t n;

	memcpy(set, pq->set[a], sizeof(set));
	pq->ix[a][q] = lv;
	n = place_sets(res, extra);
	if (scn && pq_write_set(res, a) == 0) {
		n += pq_lists(pq, SIZE_MAX, extra + n);
		if (load_point(res, tune_best(&res->st), extra, n, scn, msg, sizeof(msg)) == 0)
			traps = tune_traps(scn, res->port_ix, res->peak_pps, why, sizeof(why));
	}
	pq->ix[a][q] = keep;
	memcpy(pq->set[a], set, sizeof(set));
	free(scn);
	return traps;
}

/* The levels @lv[0..k) that add no known trap to the current setting
 * (pq->traps), in their order; how many (pq->trapped counts the others). */
static size_t pq_untrapped(struct tune_result *res, size_t a, uint32_t q, uint8_t *lv,
			   size_t k)
{
	struct tune_perqueue *pq = &res->pq;
	size_t n = 0;

	for (size_t i = 0; i < k; i++) {
		if (pq_traps(res, a, q, lv[i]) & ~pq->traps)
			pq->trapped++;
		else
			lv[n++] = lv[i];
	}
	return n;
}

/* One step: queue @q, knob @a, the levels around its current one that
 * add no known trap; the best that is worth it replaces it (and @cur's
 * figures). */
static int pq_step(struct tune_result *res, size_t a, uint32_t q, struct tune_point *cur,
		   char *err, size_t errlen)
{
	struct tune_perqueue *pq = &res->pq;
	uint8_t lv[2 * TUNE_PQ_WINDOW];
	struct tune_metrics m[2 * TUNE_PQ_WINDOW];
	size_t k = tune_pq_window(pq->ix[a][q], pq_axis(res, a)->n, lv), pick;

	k = pq_untrapped(res, a, q, lv, k);
	if (k == 0)
		return 0;
	if (pq_eval(res, a, q, lv, k, m, err, errlen))
		return -1;
	pick = pq_pick(res, cur, m, k);
	if (pick == k)
		return 0;
	if (!pq->changed[q])
		pq->before[q] = cur->m;
	pq->changed[q] = true;
	pq->after[q] = m[pick];
	cur->m = m[pick];
	pq->ix[a][q] = lv[pick];
	pq->traps = pq_traps(res, a, q, lv[pick]);
	pq->moves++;
	return pq_write_set(res, a) ? (snprintf(err, errlen, "a per-queue list is too long"), -1)
				    : 0;
}

/* The rounds of the descent (perqueue.h), from pq->start: the first over
 * every queue that takes frames, each later one over the queues whose
 * value changed in the round before it. */
static int pq_descend(struct tune_result *res, char *err, size_t errlen)
{
	struct tune_perqueue *pq = &res->pq;
	const uint8_t *ix0 = tune_best(&res->st)->ix;
	struct tune_point cur = pq->start;
	bool visit[SCN_MAX_QUEUES], moved[SCN_MAX_QUEUES];

	memset(visit, 1, sizeof(visit));
	for (size_t r = 0; r < TUNE_PQ_ROUNDS; r++) {
		size_t moves = pq->moves;

		pq->rounds++;
		memset(moved, 0, sizeof(moved));
		for (size_t i = 0; i < pq->n_order; i++) {
			uint32_t q = pq->order[i];

			for (size_t a = 0; visit[q] && a < pq->n_axes; a++) {
				size_t before = pq->moves;

				if (pq_step(res, a, q, &cur, err, errlen))
					return -1;
				moved[q] |= pq->moves != before;
			}
		}
		if (pq->moves == moves)
			break;
		memcpy(visit, moved, sizeof(visit));
	}
	pq->end = cur;
	for (uint32_t q = 0; q < pq->combined; q++) {
		bool differs = false;

		for (size_t a = 0; a < pq->n_axes; a++)
			differs |= pq->ix[a][q] != ix0[pq->axis[a]];
		pq->changed[q] = differs;	/* a queue moved away and back is unchanged */
	}
	return 0;
}

/* The setting entering the stage: the best point with the chosen placement. */
static struct tune_point pq_start(const struct tune_result *res)
{
	return res->place.n ? res->place.pt[res->place.chosen] : *tune_best(&res->st);
}

/* Can the stage run on a port of @combined queues with @n_axes per-queue
 * knobs?  With --per-queue on, a note when it cannot. */
static bool pq_possible(const struct tune_result *res, const struct tune_request *r,
			uint32_t combined, size_t n_axes)
{
	struct tune_point start = pq_start(res);
	const char *why = combined < 2 ? "has one queue (combined = 1)"
			: n_axes == 0 ? "is tuned with a policy that has no per-queue knob "
					"(napi_defer_hard_irqs, gro_flush_timeout, irq-suspend-timeout, "
					"or rx-usecs / rx-frames on a driver with ethtool --per-queue)"
			: !tune_meets(&res->st, &start) ? "has no setting that meets the goals to refine"
			: NULL;

	if (why && r->per_queue == TUNE_PER_QUEUE_ON)
		fprintf(stderr, "rxlab: tune: note: --per-queue on: port %s %s, so there are no "
			"per-queue values to choose\n", res->port, why);
	return why == NULL;
}

/* Set up pq for the best point: its knobs, their uniform lists, the start. */
static int pq_init(struct tune_result *res, uint32_t combined, char *err, size_t errlen)
{
	struct tune_perqueue *pq = &res->pq;
	const struct tune_point *best = tune_best(&res->st);

	pq->combined = combined;
	pq->start = pq_start(res);
	for (size_t a = 0; a < pq->n_axes; a++) {
		memset(pq->ix[a], best->ix[pq->axis[a]], sizeof(pq->ix[a]));
		if (pq_write_set(res, a))
			return snprintf(err, errlen, "a per-queue list is too long"), -1;
	}
	pq->traps = pq->n_axes ? pq_traps(res, 0, 0, pq->ix[0][0]) : 0;
	return 0;
}

/* The port's queues and per-queue knobs; 0 or -1 with a message. */
static int pq_port(struct tune_result *res, uint32_t *combined, char *err, size_t errlen)
{
	struct scenario *scn = malloc(sizeof(*scn));
	bool coal;
	int rc = scn ? tune_chosen_scenario(res, scn, err, errlen)
		     : (snprintf(err, errlen, "out of memory"), -1);

	if (rc == 0 && res->port_ix >= 0) {
		*combined = scn->nic[res->port_ix].combined;
		coal = quirk_driver(scn->nic[res->port_ix].driver)->per_queue;
		res->pq.n_axes = tune_pq_axes(res->st.pol[tune_best(&res->st)->pol], coal,
					      res->pq.axis);
	}
	free(scn);
	return rc;
}

static enum tune_status perqueue_stage(struct tune_result *res, const struct tune_request *r,
				       char *err, size_t errlen)
{
	struct tune_perqueue *pq = &res->pq;
	uint32_t combined = 1;
	char msg[1024];
	int rc;

	if (r->per_queue == TUNE_PER_QUEUE_OFF)
		return TUNE_OK;
	rc = pq_port(res, &combined, msg, sizeof(msg));
	if (rc == 0 && !pq_possible(res, r, combined, pq->n_axes))
		return memset(pq, 0, sizeof(*pq)), TUNE_OK;
	if (rc == 0)
		rc = pq_init(res, combined, msg, sizeof(msg));
	if (rc == 0)
		rc = pq_measure(res, msg, sizeof(msg));
	if (rc == 0 && r->per_queue == TUNE_PER_QUEUE_AUTO && !tune_pq_unequal(pq->share, combined))
		return memset(pq, 0, sizeof(*pq)), TUNE_OK;
	if (rc == 0) {
		pq->n_order = tune_pq_order(pq->share, combined, pq->order);
		rc = pq_descend(res, msg, sizeof(msg));
	}
	if (rc == 0)
		return pq->ran = true, TUNE_OK;
	memset(pq, 0, sizeof(*pq));
	snprintf(err, errlen, "tune: per-queue: %s", msg);
	return strstr(msg, "model error") ? TUNE_FAILED : TUNE_BAD_INPUT;
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
	if (s == TUNE_OK)
		s = search(res, req, err, errlen);
	if (s == TUNE_OK)
		s = placement_stage(res, req, err, errlen);
	return s == TUNE_OK ? perqueue_stage(res, req, err, errlen) : s;
}

void tune_result_free(struct tune_result *res)
{
	tune_state_free(&res->st);
	free(res->ctx);
	res->ctx = NULL;
	trace_cache_free();
}
