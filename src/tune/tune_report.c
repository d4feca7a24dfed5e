/* tune_report.c - the report of `rxlab tune` (see tune_report.h).
 *
 * Roadmap: points_table() and point_row() lay out a point as the tables
 * and tune-points.csv show it; tune_report_print() prints the front, the
 * best setting, the verdict and the commands; tune_report_write() writes
 * the four files of --out DIR.
 */
#include "tune/tune_report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/outfile.h"
#include "io/shell_quote.h"
#include "report/plot_text.h"
#include "rxlab/live.h"
#include "scheme/apply.h"
#include "tune/robust.h"

/* "rx-usecs=16 rx-frames=4", or "-" for a policy without knobs. */
static const char *setting_text(const struct tune_state *st, const struct tune_point *p,
				char *buf, size_t len)
{
	const struct rxl_scheme *pol = st->pol[p->pol]; /* the levels searched (tune.h) */
	size_t n = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < pol->n_axes && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", k ? " " : "",
				      pol->axis[k].label, pol->axis[k].level[p->ix[k]]);
	return buf[0] ? buf : "-";
}

static bool on_front_list(const struct tune_point *p, const struct tune_point *const *front,
			  size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (front[i] == p)
			return true;
	return false;
}

/* Is the request judged at several loads (or speeds)? */
static bool robust(const struct tune_request *o)
{
	return o->n_loads || o->n_speeds;
}

/* The figures' columns of a table of points, from cpu% to the worst load. */
static void metric_cols(struct table *t, const struct tune_request *o)
{
	table_add_col(t, "cpu_pct", "cpu%", 1);
	table_add_col(t, "lat_p50_us", "p50us", 1);
	table_add_col(t, "lat_p99_us", "p99us", 1);
	table_add_col(t, "lat_p999_us", "p99.9us", 1);
	table_add_col(t, "throughput_pps", "thru/s", 0);
	table_add_col(t, "drops", "drops", 0);
	table_add_col(t, "irqs_per_s", "irq/s", 0);
	table_add_col(t, "meets_goals", "meets", -1);
	if (o->n_loads) {
		table_add_col(t, "worst_load_pps", "worst@pps", 0);
		table_add_col(t, "max_loss_pct", "maxloss%", 3);
	} else if (o->n_speeds) {
		table_add_col(t, "worst_speed", "worst@speed", 3);
		table_add_col(t, "max_loss_pct", "maxloss%", 3);
	}
}

static struct table *points_table(const char *name, const char *title, bool extra,
				  const struct tune_request *o)
{
	struct table *t = table_new(name, title);

	table_add_col(t, "policy", "policy", -1);
	table_add_col(t, "setting", "setting", -1);
	metric_cols(t, o);
	if (extra) {
		table_add_col(t, "on_front", "front", -1);
		table_add_col(t, "round", "round", -1);
	}
	return t;
}

static void metric_vals(struct table *t, const struct tune_state *st, const struct tune_point *p,
			const struct tune_request *o);

static void point_row(struct table *t, const struct tune_state *st, const struct tune_point *p,
		      const struct tune_request *o)
{
	char set[160];

	table_row(t);
	table_str(t, tune_policy(p->pol)->name);
	table_str(t, setting_text(st, p, set, sizeof(set)));
	metric_vals(t, st, p, o);
}

/* The values of metric_cols() for point @p. */
static void metric_vals(struct table *t, const struct tune_state *st, const struct tune_point *p,
			const struct tune_request *o)
{
	table_dbl(t, p->m.v[TM_CPU]);
	table_dbl(t, p->m.v[TM_P50]);
	table_dbl(t, p->m.v[TM_P99]);
	table_dbl(t, p->m.v[TM_P999]);
	table_dbl(t, p->m.v[TM_THROUGHPUT]);
	table_dbl(t, p->m.v[TM_DROPS]);
	table_dbl(t, p->m.v[TM_IRQS]);
	table_bool(t, tune_meets(st, p));
	if (robust(o)) {
		table_dbl(t, p->m.load_pps);
		table_dbl(t, p->m.max_drop_pct);
	}
}

/* " at every load 1000..200000 frames/s (5 points)" or "" (one load). */
static void loads_text(const struct tune_request *o, char *buf, size_t len)
{
	buf[0] = '\0';
	if (o->n_loads)
		snprintf(buf, len, " at every load %.0f..%.0f frames/s (%zu points)", o->loads[0],
			 o->loads[o->n_loads - 1], o->n_loads);
	else if (o->n_speeds)
		snprintf(buf, len, " at every trace-speed %s..%s (%zu points)", o->speeds[0],
			 o->speeds[o->n_speeds - 1], o->n_speeds);
}

/* "p99<=50us, drops<=0" and, with @objective, "; minimize cpu". */
static void goals_text(const struct tune_request *o, bool objective, char *buf, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < o->n_goals && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", o->goal[i].text);
	if (n < len && robust(o)) {
		char at[128];

		loads_text(o, at, sizeof(at));
		n += (size_t)snprintf(buf + n, len - n, "%s", at);
	}
	if (objective && n < len)
		snprintf(buf + n, len - n, "; %s %s", o->maximize ? "maximize" : "minimize",
			 tune_metric_name(o->objective));
}

/* "IRQs on CPUs 8-15" and, threaded, "; NAPI kthreads pinned to them". */
static void place_text(const struct tune_placement *pl, char *buf, size_t len)
{
	snprintf(buf, len, "IRQs on CPUs %s%s", pl->cpus, pl->threaded ? "; NAPI kthreads "
		 "pinned to them" : "");
}

/* The placement stage's table (placement.h): one row per candidate. */
static struct table *place_table(const struct tune_result *res, const struct tune_request *o)
{
	const struct tune_place_result *pl = &res->place;
	const struct tune_point *best = tune_best(&res->st);
	char title[700], goals[400], set[160];
	struct table *t;

	goals_text(o, true, goals, sizeof(goals));
	snprintf(title, sizeof(title), "IRQ / NAPI-thread placement with %s %s (%s)",
		 tune_policy(best->pol)->name, setting_text(&res->st, best, set, sizeof(set)), goals);
	t = table_new("placement", title);
	table_add_col(t, "placement", "placement", -1);
	table_add_col(t, "irq_cpus", "irq-cpus", -1);
	table_add_col(t, "napi", "napi", -1);
	metric_cols(t, o);
	table_add_col(t, "chosen", "chosen", -1);
	table_add_col(t, "reason", "reason", -1);
	for (size_t i = 0; i < pl->n; i++) {
		table_row(t);
		table_str(t, pl->cand[i].name);
		table_str(t, pl->cand[i].cpus);
		table_str(t, pl->cand[i].threaded ? "threaded" : "softirq");
		metric_vals(t, &res->st, &pl->pt[i], o);
		table_bool(t, i == pl->chosen);
		table_str(t, pl->cand[i].reason);
	}
	return t;
}

/* Column key of a per-queue knob: its label with '-' as '_' ("rx_usecs"). */
static void pq_col_key(const char *label, char *buf, size_t len)
{
	size_t i = 0;

	for (; label[i] && i + 1 < len; i++)
		buf[i] = label[i] == '-' ? '_' : label[i];
	buf[i] = '\0';
}

/* "queue 0: gro_flush_timeout=100us" of queue @q's values into @buf. */
static void pq_values_text(const struct tune_result *res, uint32_t q, char *buf, size_t len)
{
	const struct tune_perqueue *pq = &res->pq;
	const struct rxl_scheme *pol = res->st.pol[tune_best(&res->st)->pol];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t a = 0; a < pq->n_axes && n < len; a++) {
		const struct rxl_scheme_axis *ax = &pol->axis[pq->axis[a]];

		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", a ? " " : "", ax->label,
				      ax->level[pq->ix[a][q]]);
	}
}

/* The per-queue stage's table (perqueue.h): one row per queue. */
static struct table *pq_table(const struct tune_result *res, const struct tune_request *o)
{
	const struct tune_perqueue *pq = &res->pq;
	const struct tune_point *best = tune_best(&res->st);
	const struct rxl_scheme *pol = res->st.pol[best->pol];
	char title[700], goals[400], set[160], key[64];
	struct table *t;

	goals_text(o, true, goals, sizeof(goals));
	snprintf(title, sizeof(title), "Per-queue values from %s %s (%s)", tune_policy(best->pol)->name,
		 setting_text(&res->st, best, set, sizeof(set)), goals);
	t = table_new("per_queue", title);
	table_add_col(t, "queue", "queue", 0);
	table_add_col(t, "share_pct", "share%", 1);
	for (size_t a = 0; a < pq->n_axes; a++) {
		pq_col_key(pol->axis[pq->axis[a]].label, key, sizeof(key));
		table_add_col(t, key, pol->axis[pq->axis[a]].label, -1);
	}
	table_add_col(t, "changed", "changed", -1);
	table_add_col(t, "before_cpu_pct", "cpu%-before", 1);
	table_add_col(t, "after_cpu_pct", "cpu%-after", 1);
	table_add_col(t, "before_lat_p99_us", "p99us-before", 1);
	table_add_col(t, "after_lat_p99_us", "p99us-after", 1);
	for (uint32_t q = 0; q < pq->combined; q++) {
		bool ch = pq->changed[q];

		table_row(t);
		table_u64(t, q);
		table_dbl(t, 100.0 * pq->share[q]);
		for (size_t a = 0; a < pq->n_axes; a++)
			table_str(t, pol->axis[pq->axis[a]].level[pq->ix[a][q]]);
		table_bool(t, ch);
		table_dbl(t, ch ? pq->before[q].v[TM_CPU] : NAN);
		table_dbl(t, ch ? pq->after[q].v[TM_CPU] : NAN);
		table_dbl(t, ch ? pq->before[q].v[TM_P99] : NAN);
		table_dbl(t, ch ? pq->after[q].v[TM_P99] : NAN);
	}
	return t;
}

static struct report *tables(const struct tune_result *res, const struct tune_request *o)
{
	const struct tune_state *st = &res->st;
	const struct tune_point *front[512], *best = tune_best(st);
	size_t n = tune_front(st, front, 512);
	struct report *rep = report_new();
	char title[512], goals[400];
	struct table *t;

	goals_text(o, true, goals, sizeof(goals));
	snprintf(title, sizeof(title), "Pareto front, CPU vs p99 latency (%zu of %zu settings "
		 "tried)", n, st->n_pts);
	t = points_table("front", title, false, o);
	for (size_t i = 0; i < n; i++)
		point_row(t, st, front[i], o);
	report_add(rep, t);
	if (!best)
		snprintf(title, sizeof(title), "No setting was evaluated (%s)", goals);
	else
		snprintf(title, sizeof(title), "%s (%s)", tune_meets(st, best) ? "Best setting"
			 : "No setting meets the goals; the closest", goals);
	t = points_table("best", title, false, o);
	if (best)
		point_row(t, st, best, o);
	report_add(rep, t);
	if (best && res->place.n)
		report_add(rep, place_table(res, o));
	if (best && res->pq.ran)
		report_add(rep, pq_table(res, o));
	return rep;
}

struct report *tune_report_tables(const struct tune_result *res, const struct tune_request *req)
{
	return tables(res, req);
}

/* " (worst at 200000 frames/s)" for a point judged at several loads. */
static void worst_text(const struct tune_request *o, const struct tune_point *p, char *buf,
		       size_t len)
{
	buf[0] = '\0';
	if (o->n_loads)
		snprintf(buf, len, " (its worst load: %.0f frames/s)", p->m.load_pps);
	else if (o->n_speeds)
		snprintf(buf, len, " (its worst trace-speed: %g)", p->m.load_pps);
}

/* The implied loss goal, said when it is in force: with several loads
 * always, with one when it refused a setting that meets the --goals. */
static void loss_lines(FILE *f, const struct tune_state *st, const struct tune_request *o)
{
	size_t refused = 0;

	for (size_t i = 0; i < st->n_pts; i++) {
		const struct tune_point *p = &st->pts[i];
		bool goals = true;

		for (size_t g = 0; g < st->n_goals; g++)
			goals &= goal_met(&st->goals[g], &p->m);
		refused += goals && !tune_loss_ok(st, p);
	}
	if (robust(o)) {
		fprintf(f, "a setting meets the goals only if it meets them and loses at most %g%% of "
			"the frames (--max-loss) at every load: ", st->max_loss_pct);
		for (size_t i = 0; i < (o->n_loads ? o->n_loads : o->n_speeds); i++) {
			if (o->n_loads)
				fprintf(f, "%s%.0f", i ? ", " : "", o->loads[i]);
			else
				fprintf(f, "%s%s", i ? ", " : "", o->speeds[i]);
		}
		fprintf(f, "%s; its figures are those of its worst load (the largest summed "
			"relative miss; among equals the highest)\n", o->n_loads ? " frames/s" :
			" (trace-speeds)");
	}
	if (refused)
		fprintf(f, "%zu setting%s that meet%s the goals lose%s more than %g%% of the frames "
			"(--max-loss) and %s not counted as meeting them\n", refused,
			refused == 1 ? "" : "s", refused == 1 ? "s" : "", refused == 1 ? "s" : "",
			st->max_loss_pct, refused == 1 ? "is" : "are");
}

static void verdict(FILE *f, const struct tune_state *st, const struct tune_request *o)
{
	const struct tune_point *best = tune_best(st);
	char set[160], goals[400], worst[96];

	goals_text(o, false, goals, sizeof(goals));
	fprintf(f, "\nsearched %zu settings (%zu simulations; the full grid has %zu) in %zu "
		"refinement round%s\n", st->n_pts, st->runs, st->grid, st->rounds,
		st->rounds == 1 ? "" : "s");
	loss_lines(f, st, o);
	if (best)
		worst_text(o, best, worst, sizeof(worst));
	if (!best)
		fprintf(f, "no setting was evaluated, so there is nothing to recommend\n");
	else if (tune_meets(st, best))
		fprintf(f, "best: %s %s meets %s with %s %.1f %s (%s)%s\n",
			tune_policy(best->pol)->name, setting_text(st, best, set, sizeof(set)), goals,
			tune_metric_name(o->objective), best->m.v[o->objective],
			tune_metric_unit(o->objective), o->maximize ? "maximized" : "minimized", worst);
	else
		fprintf(f, "no setting meets %s; the closest is %s %s, missing the goals by %.0f%% "
			"(summed relative miss)%s\n", goals, tune_policy(best->pol)->name,
			setting_text(st, best, set, sizeof(set)), 100.0 * tune_miss(st, best), worst);
	if (best && !tune_loss_ok(st, best))
		fprintf(f, "it loses %.3g%% of the frames%s, more than --max-loss %g%%\n",
			best->m.max_drop_pct, robust(o) ? " at its worst load" : "", st->max_loss_pct);
}

/* " --set OVERRIDE" on @f, the override shell-quoted. */
static void set_word(FILE *f, const char *override)
{
	fputs(" --set ", f);
	sh_quote(f, override);
}

/* The verdict of the placement stage, when it ran. */
static void place_verdict(FILE *f, const struct tune_result *res, const struct tune_request *o)
{
	const struct tune_place_result *pl = &res->place;
	const struct tune_point *p = &pl->pt[pl->chosen];
	const struct tune_placement *c = &pl->cand[pl->chosen];
	char goals[400], where[160], worst[96];

	if (!pl->n)
		return;
	goals_text(o, false, goals, sizeof(goals));
	place_text(c, where, sizeof(where));
	worst_text(o, p, worst, sizeof(worst));
	fprintf(f, "placement: tried %zu IRQ / NAPI-thread placement%s with that setting (%zu "
		"simulation%s; --placement off leaves it out)\n", pl->n, pl->n == 1 ? "" : "s",
		pl->runs, pl->runs == 1 ? "" : "s");
	if (tune_meets(&res->st, p))
		fprintf(f, "placement: %s (%s) meets %s with %s %.1f %s (%s)%s\n", c->name, where,
			goals, tune_metric_name(o->objective), p->m.v[o->objective],
			tune_metric_unit(o->objective), o->maximize ? "maximized" : "minimized", worst);
	else
		fprintf(f, "placement: none meets %s; the closest is %s (%s), missing the goals by "
			"%.0f%% (summed relative miss)%s\n", goals, c->name, where,
			100.0 * tune_miss(&res->st, p), worst);
	if (!c->n_sets)
		return;
	fputs("placement: the search ran with the scenario's own placement; to search again "
	      "with this one, add", f);
	for (size_t i = 0; i < c->n_sets; i++)
		set_word(f, c->set[i]);
	fputc('\n', f);
}

/* The verdict of the per-queue stage, when it ran. */
static void pq_verdict(FILE *f, const struct tune_result *res, const struct tune_request *o)
{
	const struct tune_perqueue *pq = &res->pq;
	const struct tune_metrics *a = &pq->start.m, *b = &pq->end.m;
	size_t changed = 0;
	char vals[300];

	if (!pq->ran)
		return;
	for (uint32_t q = 0; q < pq->combined; q++)
		changed += pq->changed[q];
	fprintf(f, "per-queue: tried each knob's neighbouring levels on the %zu of %u queues "
		"that take frames, hottest first, in %zu round%s (%zu simulations, one to measure "
		"the shares; --per-queue off leaves it out); a change is kept when every goal "
		"holds and %s improves by more than %g%%\n", pq->n_order, pq->combined, pq->rounds,
		pq->rounds == 1 ? "" : "s", pq->runs, tune_metric_name(o->objective),
		100.0 * TUNE_PQ_MARGIN);
	if (pq->trapped)
		fprintf(f, "per-queue: %zu candidate value%s left out as known traps (a frame "
			"threshold without a timer, a deferral the ring cannot hold)\n", pq->trapped,
			pq->trapped == 1 ? "" : "s");
	if (!changed) {
		fprintf(f, "per-queue: no per-queue value is worth it: every queue keeps the "
			"search's value\n");
		return;
	}
	fprintf(f, "per-queue: %zu queue%s take%s values of %s own: %s %.1f -> %.1f %s, p99 "
		"%.1f -> %.1f us\n", changed, changed == 1 ? "" : "s", changed == 1 ? "s" : "",
		changed == 1 ? "its" : "their", tune_metric_name(o->objective), a->v[o->objective],
		b->v[o->objective], tune_metric_unit(o->objective), a->v[TM_P99], b->v[TM_P99]);
	for (uint32_t q = 0; q < pq->combined; q++) {
		if (!pq->changed[q])
			continue;
		pq_values_text(res, q, vals, sizeof(vals));
		fprintf(f, "per-queue: queue %u (%.1f%% of the frames): %s\n", q,
			100.0 * pq->share[q], vals);
	}
	fputs("per-queue: the commands below apply them; to simulate them with rxlab run "
	      "(the best setting's overrides, then these), add", f);
	for (size_t a = 0; a < pq->n_axes; a++)
		set_word(f, pq->set[a]);
	fputc('\n', f);
}

/* The traps of point @p (tune_traps()) into @buf; 0 when it has none. */
static unsigned point_traps(const struct tune_result *res, const struct tune_point *p,
			    char *buf, size_t len)
{
	struct scenario *scn = malloc(sizeof(*scn));
	char msg[1024];
	unsigned traps = 0;

	buf[0] = '\0';
	if (scn && tune_point_scenario(res, p, scn, msg, sizeof(msg)) == 0)
		traps = tune_traps(scn, res->port_ix, res->peak_pps, buf, len);
	free(scn);
	return traps;
}

/* The settings of the front and the best that are known traps, with the
 * reason, and a warning when the best is one. */
static void trap_lines(FILE *f, const struct tune_result *res)
{
	const struct tune_point *front[512], *best = tune_best(&res->st);
	size_t n = tune_front(&res->st, front, 512);
	char why[1024], set[160];
	bool head = false;

	if (best && point_traps(res, best, why, sizeof(why)))
		fprintf(f, "warning: the %s setting is a known trap: %s\n",
			tune_meets(&res->st, best) ? "best" : "closest", why);
	for (size_t i = 0; i <= n; i++) {
		const struct tune_point *p = i < n ? front[i] : best;

		if (!p || (i == n && on_front_list(best, front, n)) || !point_traps(res, p, why,
										   sizeof(why)))
			continue;
		if (!head)
			fprintf(f, "traps among the settings shown (flagged even when they meet the "
				"goals; peak %.0f frames/s into %s):\n", res->peak_pps, res->port);
		head = true;
		fprintf(f, "  %s %s: %s\n", tune_policy(p->pol)->name, setting_text(&res->st, p,
										  set, sizeof(set)), why);
	}
}

/* The commands that apply the best point, with the chosen placement
 * when the placement stage ran (tune_chosen_scenario()), to @iface
 * (NULL: the port), as a script (after its first lines, naming @target)
 * when @target is not NULL. */
static int print_commands(FILE *f, const struct tune_result *res, const char *iface,
			  const char *target, char *err, size_t errlen)
{
	struct scenario *scn = malloc(sizeof(*scn));
	const char *name = iface ? iface : res->port;
	char msg[400];
	int rc;

	if (!scn)
		return snprintf(err, errlen, "out of memory"), -1;
	rc = tune_chosen_scenario(res, scn, err, errlen);
	if (rc == 0 && target)
		tune_apply_script_head(f, target);
	if (rc == 0 && tune_apply_print(f, scn, res->port_ix, name)) {
		rxl_ifname_check(name, msg, sizeof(msg));	/* what tune_apply_print() refused */
		snprintf(err, errlen, "tune: %s", msg);
		rc = -1;
	}
	free(scn);
	return rc;
}

int tune_report_print(FILE *f, const struct tune_result *res, const struct tune_request *req,
		      enum out_format fmt, char *err, size_t errlen)
{
	struct report *rep = tables(res, req);

	report_print(rep, f, fmt);
	report_free(rep);
	if (fmt != OUT_TABLE)
		return 0;
	verdict(f, &res->st, req);
	place_verdict(f, res, req);
	pq_verdict(f, res, req);
	trap_lines(f, res);
	fprintf(f, "\nto apply it on Linux:\n");
	return print_commands(f, res, req->iface, NULL, err, errlen);
}

/* ---- --out DIR ---- */

/* The files of --out DIR, written through io/outfile.h.  All four are
 * opened (and so locked) before any is written, so that a second `tune
 * --out DIR` fails at once instead of mixing its files with ours. */
enum { OUT_POINTS, OUT_DAT, OUT_GP, OUT_APPLY, OUT_FILES };
static const char *const out_name[OUT_FILES] = { "tune-points.csv", "tune.dat", "tune.gp",
						 "apply.sh" };

static void out_abort_all(struct outfile **of)
{
	for (size_t i = 0; i < OUT_FILES; i++)
		outfile_abort(of[i]);
}

static int out_open_all(const char *dir, struct outfile **of, char *err, size_t errlen)
{
	char path[4096], msg[1024];

	for (size_t i = 0; i < OUT_FILES; i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, out_name[i]) >= sizeof(path))
			snprintf(msg, sizeof(msg), "--out %s: path too long", dir);
		else if (outfile_open(&of[i], path, msg, sizeof(msg)) == 0)
			continue;
		snprintf(err, errlen, "%s", msg);
		out_abort_all(of);
		return -1;
	}
	return 0;
}

/* Close every file: those written in place first (a FIFO or a device that
 * fails cannot be undone), then the regular ones; after a failure the files
 * not yet closed keep what they had. */
static int out_close_all(struct outfile **of, char *err, size_t errlen)
{
	char msg[1024];

	for (int atomic = 0; atomic < 2; atomic++)
		for (size_t i = 0; i < OUT_FILES; i++) {
			struct outfile *f = of[i];

			if (!f || outfile_atomic(f) != atomic)
				continue;
			of[i] = NULL;
			if (outfile_close(f, msg, sizeof(msg))) {
				snprintf(err, errlen, "%s", msg);
				out_abort_all(of);
				return -1;
			}
		}
	return 0;
}

static void write_points(FILE *f, const struct tune_state *st, const struct tune_request *o)
{
	const struct tune_point *front[512];
	size_t n = tune_front(st, front, 512);
	struct report *rep = report_new();
	struct table *t = points_table("points", NULL, true, o);

	for (size_t i = 0; i < st->n_pts; i++) {
		point_row(t, st, &st->pts[i], o);
		table_bool(t, on_front_list(&st->pts[i], front, n));
		table_u64(t, st->pts[i].round);
	}
	report_add(rep, t);
	report_print(rep, f, OUT_CSV);
	report_free(rep);
}

/* tune.dat: one gnuplot data block (index) per policy tried, then the
 * front, then the best point; columns cpu% and p99 us. */
static size_t write_dat(FILE *f, const struct tune_state *st, const char **names)
{
	const struct tune_point *front[512];
	size_t n = tune_front(st, front, 512), blocks = 0;

	for (size_t p = 0; p < tune_n_policies(); p++) {
		bool any = false;

		for (size_t i = 0; i < st->n_pts; i++) {
			if (st->pts[i].pol != p || isnan(st->pts[i].m.v[TM_P99]))
				continue;
			if (!any)
				fprintf(f, "# %s: cpu_pct lat_p99_us\n", tune_policy(p)->name);
			any = true;
			fprintf(f, "%.3f %.3f\n", st->pts[i].m.v[TM_CPU], st->pts[i].m.v[TM_P99]);
		}
		if (any) {
			names[blocks++] = tune_policy(p)->name;
			fprintf(f, "\n\n");
		}
	}
	fprintf(f, "# Pareto front\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%.3f %.3f\n", front[i]->m.v[TM_CPU], front[i]->m.v[TM_P99]);
	fprintf(f, "\n\n# best\n%.3f %.3f\n", tune_best(st)->m.v[TM_CPU],
		tune_best(st)->m.v[TM_P99]);
	return blocks;
}

/* One `plot` command: the points of each policy, the front, the choice.
 * Written out twice (SVG, PNG) rather than through a macro: a script of
 * single-quoted literals only, as plot_text.h requires. */
static void gp_plot_cmd(FILE *f, const char **names, size_t blocks)
{
	fputs("plot ", f);
	for (size_t i = 0; i < blocks; i++) {
		fprintf(f, "'tune.dat' index %zu using 1:2 with points title ", i);
		plot_text_quote(f, names[i]);
		fputs(" noenhanced, \\\n     ", f);
	}
	fprintf(f, "'tune.dat' index %zu using 1:2 with lines lw 2 title 'Pareto front', \\\n"
		"     'tune.dat' index %zu using 1:2 with points pt 7 ps 2 title 'recommended'\n",
		blocks, blocks + 1);
}

/* tune.gp: every text that comes from the user (the target's name, a goal)
 * is a checked single-quoted literal (plot_text_quote()), so no byte of it
 * is ever expanded by gnuplot. */
static void write_gp(FILE *f, const struct tune_request *o, const char **names, size_t blocks)
{
	fprintf(f, "# tune.gp - every setting rxlab tune tried, CPU vs p99 latency, with the\n"
		"# Pareto front and the recommended point.  Run: gnuplot tune.gp\n"
		"set xlabel 'CPU busy (%% of the host)' noenhanced\n"
		"set ylabel 'p99 latency (us)' noenhanced\n"
		"set logscale y\nset key outside right noenhanced\nset grid\n");
	fputs("set title ", f);
	plot_text_quote(f, "rxlab tune ");
	fputs(" . ", f);
	plot_text_quote(f, o->target);
	fputs(" noenhanced\n", f);
	for (size_t i = 0; i < o->n_goals; i++) {
		if (o->goal[i].m != TM_P99)
			continue;
		fprintf(f, "set arrow from graph 0, first %g to graph 1, first %g nohead dt 2\n"
			"set label ", o->goal[i].limit, o->goal[i].limit);
		plot_text_quote(f, "goal ");
		fputs(" . ", f);
		plot_text_quote(f, o->goal[i].text);
		fprintf(f, " at graph 0.02, first %g offset 0,0.7 noenhanced\n", o->goal[i].limit);
	}
	fputs("set terminal svg size 900,600 noenhanced\nset output 'tune.svg'\n", f);
	gp_plot_cmd(f, names, blocks);
	fputs("set terminal png size 900,600 noenhanced\nset output 'tune.png'\n", f);
	gp_plot_cmd(f, names, blocks);
}

int tune_report_write(const char *dir, const struct tune_result *res,
		      const struct tune_request *req, char *err, size_t errlen)
{
	const char *names[TUNE_MAX_POLICIES];
	struct outfile *of[OUT_FILES] = { NULL };
	size_t blocks;

	if (mkdir(dir, 0777) && errno != EEXIST)
		return snprintf(err, errlen, "--out %s: cannot create: %s", dir, strerror(errno)), -1;
	if (out_open_all(dir, of, err, errlen))
		return -1;
	write_points(outfile_fp(of[OUT_POINTS]), &res->st, req);
	blocks = write_dat(outfile_fp(of[OUT_DAT]), &res->st, names);
	write_gp(outfile_fp(of[OUT_GP]), req, names, blocks);
	if (print_commands(outfile_fp(of[OUT_APPLY]), res, req->iface, req->target, err, errlen)) {
		out_abort_all(of);
		return -1;
	}
	return out_close_all(of, err, errlen);
}

void tune_report_wrote(FILE *f, const char *dir)
{
	fprintf(f, "\nwrote %s/tune-points.csv, tune.dat, tune.gp (cd ", dir);
	sh_quote(f, dir);
	fprintf(f, " && gnuplot tune.gp) and apply.sh\n");
}
