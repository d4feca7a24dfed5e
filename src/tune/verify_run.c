/* verify_run.c - `rxlab tune --verify`: the live runs of the best setting
 * and the runner-up, the predictions at each load, the table (verify.h).
 */
#include "tune/verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/sweep.h"
#include "rxlab/sim.h"

#define MAX_SIM_SETS (TUNE_MAX_USER_SETS + 24)

/* "rx-usecs=8 rx-frames=32" of @p, into @buf. */
static void setting_text(const struct rxl_scheme *sc, const struct tune_point *p, char *buf,
			 size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t a = 0; a < sc->n_axes && at < len; a++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s=%s", a ? " " : "",
				       sc->axis[a].label, sc->axis[a].level[p->ix[a]]);
	if (sc->n_axes == 0)
		snprintf(buf, len, "-");
}

static void metrics_of_results(const struct results *r, struct tune_metrics *m)
{
	double frames = r->wire_pps * r->window_s;

	m->v[TM_P50] = r->lat_p50_us;
	m->v[TM_P99] = r->lat_p99_us;
	m->v[TM_P999] = r->lat_p999_us;
	m->v[TM_CPU] = 100.0 - r->cpu_pct[ACCT_IDLE];
	m->v[TM_THROUGHPUT] = r->forwarded_pps + r->delivered_pps + r->replied_pps;
	m->v[TM_DROPS] = (double)r->drops_total;
	m->v[TM_DROP_PCT] = frames > 0 ? 100.0 * (double)r->drops_total / frames : 0.0;
	m->v[TM_IRQS] = r->irqs_per_s;
}

/* A key with '*' replaced by @port, stored in @buf. */
static const char *port_key(char *buf, size_t len, const char *key, const char *port)
{
	return rxl_scheme_key(buf, len, key, port) ? key : buf;
}

/* Point @p of @res simulated at @load frames/s: the request's overrides,
 * every scheme off (as tune.c does), the policy's, its levels, the rate. */
static int predict(const struct tune_result *res, const struct tune_request *req,
		   const struct tune_point *p, bool sink, double load, struct tune_metrics *m,
		   const volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	static const char *sets[MAX_SIM_SETS];
	static char buf[24][128];
	const struct rxl_scheme *sc = res->st.pol[p->pol];
	size_t n = 0, b = 0;
	struct results r;

	for (size_t i = 0; i < req->n_user_sets; i++)
		sets[n++] = req->user_sets[i];
	for (size_t i = 0; rxl_scheme_off[i]; i++, b++)
		sets[n++] = port_key(buf[b], sizeof(buf[b]), rxl_scheme_off[i], res->port);
	for (size_t i = 0; sink && rxl_scheme_off_sink[i]; i++)
		sets[n++] = rxl_scheme_off_sink[i];
	for (size_t i = 0; sc->sets[i]; i++, b++)
		sets[n++] = port_key(buf[b], sizeof(buf[b]), sc->sets[i], res->port);
	for (size_t a = 0; a < sc->n_axes; a++, b++) {
		char key[96];

		snprintf(buf[b], sizeof(buf[b]), "%s=%s",
			 port_key(key, sizeof(key), sc->axis[a].key, res->port),
			 sc->axis[a].level[p->ix[a]]);
		sets[n++] = buf[b];
	}
	snprintf(buf[b], sizeof(buf[b]), "traffic.rate=%.0fpps", load);
	sets[n++] = buf[b];
	if (run_one(&r, req->target, sets, n, stop, err, errlen))
		return -1;
	metrics_of_results(&r, m);
	results_free(&r);
	return 0;
}

/* The live figures of @r as tune metrics (CPU: the receiver core's busy
 * share while the sender ran; irqs: the loop's wake-ups, the test bed's
 * interrupt). */
static void metrics_of_live(const struct live_result *r, struct tune_metrics *m)
{
	double sent = (double)r->tx.seq_next;
	double lost = r->tx.seq_next > r->rx.payload_packets
			      ? (double)(r->tx.seq_next - r->rx.payload_packets) : 0;

	m->v[TM_P50] = live_lat_us(r, 0.5);
	m->v[TM_P99] = live_lat_us(r, 0.99);
	m->v[TM_P999] = live_lat_us(r, 0.999);
	m->v[TM_CPU] = counters_cpu_busy_pct(&r->d_sent, r->rx_cpu);
	m->v[TM_THROUGHPUT] = live_rx_pps(r);
	m->v[TM_DROPS] = lost;
	m->v[TM_DROP_PCT] = sent > 0 ? 100.0 * lost / sent : 0.0;
	m->v[TM_IRQS] = r->dur_s > 0 ? (double)r->rx.wakeups / r->dur_s : NAN;
}

/* One live run of @l at @load; 0, or the live_run() status. */
static int measure(const struct verify_live *l, const struct verify_opts *o, double load,
		   struct tune_metrics *m, char *err, size_t errlen)
{
	static struct live_job j;
	static struct live_result r;
	const char *sets[VERIFY_MAX_LOOP_SETS];
	int rc;

	live_job_default(&j, l->mode);
	j.snd.pattern = SEND_CONSTANT;
	j.snd.rate_pps = load;
	j.snd.duration_ns = o->duration_ns;
	j.iface = o->iface;
	j.stop = o->stop;
	for (size_t i = 0; i < l->n_sets; i++)
		sets[i] = l->set[i];
	j.sets = sets;
	j.n_sets = l->n_sets;
	memcpy(j.knobs, l->knob, l->n_knobs * sizeof(l->knob[0]));
	j.n_knobs = l->n_knobs;
	memset(&r, 0, sizeof(r));
	rc = live_run(&j, &r, err, errlen);
	if (rc == 0)
		metrics_of_live(&r, m);
	return rc;
}

static const enum tune_metric shown[] = { TM_P50, TM_P99, TM_CPU, TM_THROUGHPUT, TM_DROP_PCT };
#define N_SHOWN (sizeof(shown) / sizeof(shown[0]))

static struct table *verify_table_new(void)
{
	static const char *const key[N_SHOWN] = { "p50_us", "p99_us", "cpu_pct",
						  "throughput_pps", "drop_pct" };
	static const char *const head[N_SHOWN] = { "p50us", "p99us", "cpu%", "thru/s", "drop%" };
	struct table *t = table_new("verify", "Verified on real packets (predicted = simulated, "
				    "measured = live engine; ratio = measured/predicted)");

	table_add_col(t, "rank", "rank", -1);
	table_add_col(t, "policy", "policy", -1);
	table_add_col(t, "setting", "setting", -1);
	table_add_col(t, "load_pps", "load/s", 0);
	table_add_col(t, "row", "row", -1);
	for (size_t i = 0; i < N_SHOWN; i++)
		table_add_col(t, key[i], head[i], 2);	/* the ratio row's precision */
	table_add_col(t, "verdict", "verdict", -1);
	table_add_col(t, "tolerance", "tol", 2);
	return t;
}

/* The first columns of a row. */
static void row_head(struct table *t, size_t rank, const char *pol, const char *setting,
		     double load, const char *row)
{
	table_row(t);
	table_str(t, rank == 0 ? "best" : "runner-up");
	table_str(t, pol);
	table_str(t, setting);
	table_dbl(t, load);
	table_str(t, row);
}

static void row_metrics(struct table *t, const struct tune_metrics *m, const char *verdict,
			double tol)
{
	for (size_t i = 0; i < N_SHOWN; i++)
		table_dbl(t, m->v[shown[i]]);
	table_str(t, verdict);
	table_dbl(t, tol);
}

/* The ratio row: "agrees" when p99 and CPU both agree, else which differ;
 * for a mode whose CPU is not the kernel's (@cpu_compared false: the
 * engine moderates in userspace), p99 alone: "p99 agrees" or "p99
 * differs". */
static void row_ratio(struct table *t, const struct tune_metrics *pred,
		      const struct tune_metrics *meas, double tol, bool cpu_compared)
{
	double r99 = verify_ratio(meas->v[TM_P99], pred->v[TM_P99]);
	double rcpu = verify_ratio(meas->v[TM_CPU], pred->v[TM_CPU]);
	bool a99 = verify_agrees(r99, tol), acpu = verify_agrees(rcpu, tol);

	for (size_t i = 0; i < N_SHOWN; i++)
		table_dbl(t, verify_ratio(meas->v[shown[i]], pred->v[shown[i]]));
	if (!cpu_compared)
		table_str(t, a99 ? "p99 agrees" : "p99 differs");
	else
		table_str(t, a99 && acpu ? "agrees" : a99 ? "cpu differs" : acpu ? "p99 differs"
				     : "p99, cpu differ");
	table_dbl(t, tol);
}

/* The loads to verify at: the request's, or the scenario's own rate. */
static size_t loads_of(const struct tune_request *req, const struct scenario *scn, double *out)
{
	if (req->n_loads == 0) {
		out[0] = scn->n_traffic ? (double)scn->traffic[0].rate_pps : 0;
		return 1;
	}
	memcpy(out, req->loads, req->n_loads * sizeof(*out));
	return req->n_loads;
}

struct vctx {
	const struct tune_result *res;
	const struct tune_request *req;
	const struct verify_opts *o;
	struct table *t;
	double own_rate;     /* the scenario's rate: the point's own figures */
	bool sink;
	bool all_meet[VERIFY_MAX_SETTINGS], verifiable[VERIFY_MAX_SETTINGS];
	bool emulated;       /* a verified mode moderates in userspace */
};

/* Setting @rank (@p) at @load: predicted, measured, ratio rows.  0, or
 * the live_run() status (the run failed: message in @err). */
static int verify_load(struct vctx *c, size_t rank, const struct tune_point *p,
		       const struct verify_live *l, const char *setting, double load, char *err,
		       size_t errlen)
{
	const char *pol = c->res->st.pol[p->pol]->name;
	struct tune_metrics pred = p->m, meas;
	char msg[1400];
	int rc;

	if (load != c->own_rate &&
	    predict(c->res, c->req, p, c->sink, load, &pred, c->o->stop, err, errlen))
		return 2;
	row_head(c->t, rank, pol, setting, load, "predicted");
	row_metrics(c->t, &pred, tune_meets(&c->res->st, &(struct tune_point){ .m = pred })
					   ? "meets" : "misses", c->o->tolerance);
	rc = measure(l, c->o, load, &meas, msg, sizeof(msg));
	if (rc) {
		snprintf(err, errlen, "tune: --verify: %s %s at %.0f/s: %s", pol, setting, load, msg);
		return rc;
	}
	row_head(c->t, rank, pol, setting, load, "measured");
	c->all_meet[rank] &= verify_meets(&c->res->st, &meas, c->req->max_loss_pct);
	row_metrics(c->t, &meas, verify_meets(&c->res->st, &meas, c->req->max_loss_pct)
					 ? "meets" : "misses", c->o->tolerance);
	row_head(c->t, rank, pol, setting, load, "ratio");
	row_ratio(c->t, &pred, &meas, c->o->tolerance, verify_cpu_compared(l->mode));
	c->emulated |= !verify_cpu_compared(l->mode);
	return 0;
}

/* Setting @rank at every load; a policy the engine cannot run gets a row
 * saying why. */
static int verify_setting(struct vctx *c, size_t rank, const struct tune_point *p,
			  const double *loads, size_t n_loads, char *err, size_t errlen)
{
	const struct rxl_scheme *sc = c->res->st.pol[p->pol];
	struct verify_live l;
	char setting[160], why[256];
	struct tune_metrics none;

	setting_text(sc, p, setting, sizeof(setting));
	c->all_meet[rank] = true;
	if (verify_map(sc, p, &l, why, sizeof(why))) {
		for (size_t i = 0; i < TM_N; i++)
			none.v[i] = NAN;
		row_head(c->t, rank, sc->name, setting, NAN, "not verifiable here");
		row_metrics(c->t, &none, why, c->o->tolerance);
		return 0;
	}
	c->verifiable[rank] = true;
	for (size_t i = 0; i < n_loads && !(c->o->stop && *c->o->stop); i++) {
		int rc = verify_load(c, rank, p, &l, setting, loads[i], err, errlen);

		if (rc)
			return rc;
	}
	return 0;
}

static void print_verdicts(FILE *f, const struct vctx *c, const struct tune_point *const *pick,
			   size_t n)
{
	fprintf(f, "\nagrees: measured/predicted of p99 and cpu within [%.2f, %.2f] "
		"(--verify-tolerance %.2f)\n", 1.0 / c->o->tolerance, c->o->tolerance,
		c->o->tolerance);
	if (c->emulated)
		fprintf(f, "p99 agrees: coalesce, dim and itr are compared on p99 alone: the live "
			"engine\nmoderates them in userspace, after the kernel took each packet (the "
			"test bed's veth\nhas no interrupt moderation), so its CPU is not the "
			"device's (docs/live.md)\n");
	for (size_t i = 0; i < n; i++) {
		const struct rxl_scheme *sc = c->res->st.pol[pick[i]->pol];
		char setting[160];

		setting_text(sc, pick[i], setting, sizeof(setting));
		fprintf(f, "%s: %s %s %s\n", i == 0 ? "best" : "runner-up", sc->name, setting,
			!c->verifiable[i] ? "is not verifiable here"
			: c->all_meet[i] ? "meets the goals on real packets at every load"
			: "misses the goals on real packets (measured)");
	}
}

/* After the search's report: in a table a blank line first; in CSV the
 * table named as a report of several names them ("# verify"); in JSON an
 * object of its own, {"verify": [...]}, after the search's. */
static void print_table(FILE *f, const struct table *t, enum out_format fmt)
{
	fputs(fmt == OUT_CSV ? "\n# verify\n" : fmt == OUT_JSON ? "{\n\"verify\": " : "\n", f);
	table_print(t, f, fmt);
	if (fmt == OUT_JSON)
		fputs("}\n", f);
}

int verify_run(FILE *f, const struct tune_result *res, const struct tune_request *req,
	       const struct verify_opts *o, char *err, size_t errlen)
{
	static struct scenario scn;
	const struct tune_point *pick[VERIFY_MAX_SETTINGS];
	size_t n = verify_pick(&res->st, pick, VERIFY_MAX_SETTINGS), n_loads;
	struct vctx c = { .res = res, .req = req, .o = o };
	double loads[TUNE_MAX_LOADS];
	int rc = 0;

	if (n == 0)
		return snprintf(err, errlen, "tune: --verify: no setting to verify"), 2;
	if (tune_point_scenario(res, pick[0], &scn, err, errlen))
		return 2;
	c.sink = scn.apps.sink;
	c.own_rate = scn.n_traffic ? (double)scn.traffic[0].rate_pps : NAN;
	n_loads = loads_of(req, &scn, loads);
	c.t = verify_table_new();
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = verify_setting(&c, i, pick[i], loads, n_loads, err, errlen);
	print_table(f, c.t, o->fmt);
	table_free(c.t);
	if (o->fmt == OUT_TABLE && rc == 0)
		print_verdicts(f, &c, pick, n);
	return rc;
}
