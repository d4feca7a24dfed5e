/* tune.c - `rxlab tune` (see tune.h).
 *
 * Roadmap: the command line fills struct tune_opts (src/cli/tune_args.c); prepare()
 * turns a trace into scenario overrides, loads the base scenario once (the
 * port, whether a socket receives) and refuses a search with nothing to
 * search; eval_batch() hands one batch of the search to
 * sweep_run(); the print_* functions and write_out() report.
 */
#include "tune/tune.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tune/goal.h"
#include "model/scenario_load.h"
#include "report/plot_text.h"
#include "io/shell_quote.h"
#include "experiment/sweep.h"
#include "model/trace_load.h"
#include "model/trace_pcap.h"
#include "model/trace_play.h"
#include "scheme/apply.h"
#include "rxlab/scheme.h"
#include "tune/tune_opts.h"
#include "tune/tune_search.h"
#include "model/units.h"
#include "io/outfile.h"
#include "report/sim_report.h"
#include "report/table.h"
#include "rxlab/live.h"

#define TUNE_MAX_SETS 320

/* What the batches share. */
struct tune_ctx {
	const char *scenario;
	const char *sets[TUNE_MAX_SETS];
	size_t n_sets;                   /* user overrides + baseline */
	char buf[96][4200];              /* storage of generated overrides (a path fits) */
	size_t n_buf;
	char nic[SCN_NAME_LEN];
	int nic_ix;
	bool sink;
	size_t jobs;
	bool full;                       /* an override did not fit in sets[] or buf[] */
	const volatile sig_atomic_t *stop; /* stop flag (NULL: never) */
};

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "rxlab: tune: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
	fprintf(stderr, "try 'rxlab help'\n");
	return 2;
}

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

static bool is_trace_name(const char *name)
{
	size_t n = strlen(name);

	return pcap_trace_is_capture_name(name) || (n > 4 && !strcmp(name + n - 4, ".csv"));
}

/* A trace: overrides that play it into the base scenario, whole, as every
 * command plays a trace given by --set (trace_play.h): scenario_load()
 * gives the run the trace's length unless --set says; no warm-up. */
static int trace_sets(struct tune_ctx *c, const struct tune_opts *o)
{
	const struct scn_trace *tr;
	char err[640], speed[48];
	uint64_t milli = 1000;

	if (trace_load(&tr, o->target, err, sizeof(err))) {
		fprintf(stderr, "rxlab: %s\n", err);
		return 2;
	}
	if (o->speed) {
		if (strlen(o->speed) > 16)
			return usage_error("--speed takes a number 0.001..1000 (2 plays the trace "
					   "twice as fast), not", o->speed);
		snprintf(speed, sizeof(speed), "%sus", o->speed);
		if (unit_parse(UNIT_TIME_NS, speed, &milli, NULL, 0) || milli < 1 || milli > 1000000)
			return usage_error("--speed takes a number 0.001..1000 (2 plays the trace "
					   "twice as fast), not", o->speed);
	}
	ctx_set(c, ctx_add(c, "traffic.trace=%s%s", o->target, ""));
	ctx_set(c, ctx_add(c, "traffic.trace-speed=%s%s", o->speed ? o->speed : "1", ""));
	ctx_set(c, "run.warmup=0");	/* also when --set run.duration cuts the trace */
	c->scenario = o->base ? o->base : "udp-sink";
	return 0;
}

/* Load the base scenario once: its receiving port and socket. */
static int probe(struct tune_ctx *c)
{
	struct scenario *scn = malloc(sizeof(*scn));
	char err[1024];
	int rc;

	if (!scn)
		return fprintf(stderr, "rxlab: out of memory\n"), 1;
	rc = scenario_load(scn, c->scenario, c->sets, c->n_sets, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "rxlab: %s\n", err);
		free(scn);
		return 2;
	}
	snprintf(c->nic, sizeof(c->nic), "%s", scn->n_traffic ? scn->traffic[0].port
							      : scn->nic[0].name);
	c->nic_ix = scenario_nic_index(scn, c->nic);
	c->sink = scn->apps.sink;
	trace_notes(stderr, scn);
	free(scn);
	return 0;
}

/* The port's name is printed into the commands when --iface does not
 * name the real interface: it must be a name Linux accepts. */
static int check_port_name(const struct tune_ctx *c, const struct tune_opts *o)
{
	char err[400];

	if (o->iface || rxl_ifname_check(c->nic, err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "rxlab: tune: the scenario's receiving port: %s; give the interface "
		"the commands are for with --iface NAME\n", err);
	return 2;
}

/* busy-poll and suspend act through the receiving socket: without one
 * they are left out, and a search left with no policy is refused. */
static int drop_sink_policies(const struct tune_ctx *c, struct tune_opts *o)
{
	char sink[128], other[256];
	bool any = false;

	for (size_t p = 0; p < tune_n_policies(); p++) {
		if ((tune_policy(p)->flags & RXL_SCHEME_SINK) && !c->sink)
			o->enabled[p] = false;
		any |= o->enabled[p];
	}
	if (any)
		return 0;
	rxl_scheme_names(sink, sizeof(sink), RXL_SCHEME_TUNE | RXL_SCHEME_SINK, 0);
	rxl_scheme_names(other, sizeof(other), RXL_SCHEME_TUNE, RXL_SCHEME_SINK);
	fprintf(stderr, "rxlab: tune: --policies: %s act through the receiving socket and %s "
		"has no UDP sink (apps.sink = off); choose among %s, or --set apps.sink=on\n",
		sink, c->scenario, other);
	return 2;
}

static int prepare(struct tune_ctx *c, struct tune_opts *o)
{
	int rc = 0;

	c->scenario = o->target;
	c->jobs = o->jobs;
	if (is_trace_name(o->target))
		rc = trace_sets(c, o);
	else if (o->speed || o->base)
		return usage_error(o->speed ? "--speed" : "--base", "applies to a trace (.pcap, "
				   ".pcapng, .cap or .csv) only");
	for (size_t i = 0; rc == 0 && i < o->n_user_sets; i++)
		ctx_set(c, o->user_sets[i]);
	if (rc == 0)
		rc = probe(c);
	for (size_t i = 0; rc == 0 && rxl_scheme_off[i]; i++)
		ctx_set(c, port_key(c, rxl_scheme_off[i]));
	for (size_t i = 0; rc == 0 && c->sink && rxl_scheme_off_sink[i]; i++)
		ctx_set(c, rxl_scheme_off_sink[i]);
	if (rc == 0 && c->full)
		return usage_error("too many or too long overrides (--set and the trace's path "
				   "together)", NULL);
	if (rc == 0)
		rc = check_port_name(c, o);
	return rc ? rc : drop_sink_policies(c, o);
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

static int eval_batch(void *vctx, const struct tune_batch *b, struct tune_metrics *out,
		      char *err, size_t errlen)
{
	struct tune_ctx *c = vctx;
	const struct rxl_scheme *pol = tune_policy(b->pol);
	const char *sets[TUNE_MAX_SETS + RXL_SCHEME_MAX_SETS];
	struct vary vary[TUNE_MAX_AXES] = { 0 };
	char vals[TUNE_MAX_AXES][TUNE_MAX_LEVELS][48];
	size_t mark = c->n_buf, n_sets = policy_sets(c, pol, sets), total = 1;
	struct point_brief *brief;
	struct table *t;
	int rc;

	for (size_t k = 0; k < pol->n_axes; k++) {
		snprintf(vary[k].key, sizeof(vary[k].key), "%s", port_key(c, pol->axis[k].key));
		vary[k].n = b->n[k];
		vary[k].val = vals[k];
		vary[k].hidden = true;
		for (size_t i = 0; i < b->n[k]; i++)
			snprintf(vals[k][i], sizeof(vals[k][i]), "%s", pol->axis[k].level[b->ix[k][i]]);
		total *= b->n[k];
	}
	brief = calloc(total, sizeof(*brief));
	t = summary_table_new("tune", NULL, NULL, 0, true);
	rc = brief ? sweep_run(t, c->scenario, sets, n_sets, vary, pol->n_axes, c->jobs, true,
			       brief, c->stop, err, errlen) : -1;
	if (rc == 0 && c->stop && *c->stop)
		rc = (snprintf(err, errlen, "interrupted"), -1);
	for (size_t i = 0; rc == 0 && i < total; i++)
		metrics_of(&brief[i], &out[i]);
	table_free(t);
	free(brief);
	c->n_buf = mark;
	return rc;
}

/* ---- report ---- */

/* "rx-usecs=16 rx-frames=4", or "-" for a policy without knobs. */
static const char *setting_text(const struct tune_point *p, char *buf, size_t len)
{
	const struct rxl_scheme *pol = tune_policy(p->pol);
	size_t n = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < pol->n_axes && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", k ? " " : "",
				      pol->axis[k].label, pol->axis[k].level[p->ix[k]]);
	return buf[0] ? buf : "-";
}

static struct table *points_table(const char *name, const char *title, bool extra)
{
	struct table *t = table_new(name, title);

	table_add_col(t, "policy", "policy", -1);
	table_add_col(t, "setting", "setting", -1);
	table_add_col(t, "cpu_pct", "cpu%", 1);
	table_add_col(t, "lat_p50_us", "p50us", 1);
	table_add_col(t, "lat_p99_us", "p99us", 1);
	table_add_col(t, "lat_p999_us", "p99.9us", 1);
	table_add_col(t, "throughput_pps", "thru/s", 0);
	table_add_col(t, "drops", "drops", 0);
	table_add_col(t, "irqs_per_s", "irq/s", 0);
	table_add_col(t, "meets_goals", "meets", -1);
	if (extra) {
		table_add_col(t, "on_front", "front", -1);
		table_add_col(t, "round", "round", -1);
	}
	return t;
}

static void point_row(struct table *t, const struct tune_state *st, const struct tune_point *p)
{
	char set[160];

	table_row(t);
	table_str(t, tune_policy(p->pol)->name);
	table_str(t, setting_text(p, set, sizeof(set)));
	table_dbl(t, p->m.v[TM_CPU]);
	table_dbl(t, p->m.v[TM_P50]);
	table_dbl(t, p->m.v[TM_P99]);
	table_dbl(t, p->m.v[TM_P999]);
	table_dbl(t, p->m.v[TM_THROUGHPUT]);
	table_dbl(t, p->m.v[TM_DROPS]);
	table_dbl(t, p->m.v[TM_IRQS]);
	table_bool(t, tune_meets(st, p));
}

/* "p99<=50us, drops<=0" and, with @objective, "; minimize cpu". */
static void goals_text(const struct tune_opts *o, bool objective, char *buf, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < o->n_goals && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", o->goal[i].text);
	if (objective && n < len)
		snprintf(buf + n, len - n, "; %s %s", o->maximize ? "maximize" : "minimize",
			 tune_metric_name(o->objective));
}

static struct report *tune_report(const struct tune_state *st, const struct tune_opts *o)
{
	const struct tune_point *front[512], *best = tune_best(st);
	size_t n = tune_front(st, front, 512);
	struct report *rep = report_new();
	char title[320], goals[256];
	struct table *t;

	goals_text(o, true, goals, sizeof(goals));
	snprintf(title, sizeof(title), "Pareto front, CPU vs p99 latency (%zu of %zu settings "
		 "tried)", n, st->n_pts);
	t = points_table("front", title, false);
	for (size_t i = 0; i < n; i++)
		point_row(t, st, front[i]);
	report_add(rep, t);
	if (!best)
		snprintf(title, sizeof(title), "No setting was evaluated (%s)", goals);
	else
		snprintf(title, sizeof(title), "%s (%s)", tune_meets(st, best) ? "Best setting"
			 : "No setting meets the goals; the closest", goals);
	t = points_table("best", title, false);
	if (best)
		point_row(t, st, best);
	report_add(rep, t);
	return rep;
}

/* The scenario of point @p, for the commands. */
static int point_scenario(struct tune_ctx *c, const struct tune_point *p, struct scenario *scn)
{
	const struct rxl_scheme *pol = tune_policy(p->pol);
	const char *sets[TUNE_MAX_SETS + RXL_SCHEME_MAX_SETS + TUNE_MAX_AXES];
	size_t mark = c->n_buf, n = policy_sets(c, pol, sets);
	char err[1024];
	int rc;

	for (size_t k = 0; k < pol->n_axes; k++) {
		const char *key = port_key(c, pol->axis[k].key);

		sets[n++] = ctx_add(c, "%s=%s", key, pol->axis[k].level[p->ix[k]]);
	}
	rc = scenario_load(scn, c->scenario, sets, n, err, sizeof(err));
	c->n_buf = mark;
	if (rc)
		fprintf(stderr, "rxlab: %s\n", err);
	return rc;
}

static void verdict(FILE *f, const struct tune_state *st, const struct tune_opts *o)
{
	const struct tune_point *best = tune_best(st);
	char set[160], goals[256];

	goals_text(o, false, goals, sizeof(goals));
	fprintf(f, "\nsearched %zu settings (%zu simulations; the full grid has %zu) in %zu "
		"refinement round%s\n", st->n_pts, st->runs, st->grid, st->rounds,
		st->rounds == 1 ? "" : "s");
	if (!best)
		fprintf(f, "no setting was evaluated, so there is nothing to recommend\n");
	else if (tune_meets(st, best))
		fprintf(f, "best: %s %s meets %s with %s %.1f %s (%s)\n",
			tune_policy(best->pol)->name, setting_text(best, set, sizeof(set)), goals,
			tune_metric_name(o->objective), best->m.v[o->objective],
			tune_metric_unit(o->objective), o->maximize ? "maximized" : "minimized");
	else
		fprintf(f, "no setting meets %s; the closest is %s %s, missing the goals by %.0f%% "
			"(summed relative miss)\n", goals, tune_policy(best->pol)->name,
			setting_text(best, set, sizeof(set)), 100.0 * tune_miss(st, best));
}

/* The commands that apply the best point, as a script (after its first
 * lines, naming @target) when @target is not NULL. */
static int print_commands(FILE *f, struct tune_ctx *c, const struct tune_state *st,
			  const char *iface, const char *target)
{
	const struct tune_point *best = tune_best(st);
	struct scenario *scn = best ? malloc(sizeof(*scn)) : NULL;
	int rc = scn ? point_scenario(c, best, scn) : -1;

	if (rc == 0 && target)
		tune_apply_script_head(f, target);
	if (rc == 0)
		rc = tune_apply_print(f, scn, c->nic_ix, iface ? iface : c->nic);
	free(scn);
	return rc;
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

static int out_open_all(const char *dir, struct outfile **of)
{
	char path[4096], err[1024];

	for (size_t i = 0; i < OUT_FILES; i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, out_name[i]) >= sizeof(path))
			snprintf(err, sizeof(err), "--out %s: path too long", dir);
		else if (outfile_open(&of[i], path, err, sizeof(err)) == 0)
			continue;
		fprintf(stderr, "rxlab: %s\n", err);
		out_abort_all(of);
		return 2;
	}
	return 0;
}

/* Close every file: those written in place first (a FIFO or a device that
 * fails cannot be undone), then the regular ones; after a failure the files
 * not yet closed keep what they had. */
static int out_close_all(struct outfile **of)
{
	char err[1024];

	for (int atomic = 0; atomic < 2; atomic++)
		for (size_t i = 0; i < OUT_FILES; i++) {
			struct outfile *f = of[i];

			if (!f || outfile_atomic(f) != atomic)
				continue;
			of[i] = NULL;
			if (outfile_close(f, err, sizeof(err))) {
				fprintf(stderr, "rxlab: %s\n", err);
				out_abort_all(of);
				return 2;
			}
		}
	return 0;
}

static bool on_front(const struct tune_point *p, const struct tune_point *const *front, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (front[i] == p)
			return true;
	return false;
}

static void write_points(FILE *f, const struct tune_state *st)
{
	const struct tune_point *front[512];
	size_t n = tune_front(st, front, 512);
	struct report *rep = report_new();
	struct table *t = points_table("points", NULL, true);

	for (size_t i = 0; i < st->n_pts; i++) {
		point_row(t, st, &st->pts[i]);
		table_bool(t, on_front(&st->pts[i], front, n));
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
static void write_gp(FILE *f, const struct tune_opts *o, const char **names, size_t blocks)
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

static int write_out(const char *dir, struct tune_ctx *c, const struct tune_state *st,
		     const struct tune_opts *o)
{
	const char *names[TUNE_MAX_POLICIES];
	struct outfile *of[OUT_FILES] = { NULL };
	size_t blocks;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "rxlab: --out %s: cannot create: %s\n", dir, strerror(errno));
		return 2;
	}
	if (out_open_all(dir, of))
		return 2;
	write_points(outfile_fp(of[OUT_POINTS]), st);
	blocks = write_dat(outfile_fp(of[OUT_DAT]), st, names);
	write_gp(outfile_fp(of[OUT_GP]), o, names, blocks);
	if (print_commands(outfile_fp(of[OUT_APPLY]), c, st, o->iface, o->target)) {
		out_abort_all(of);
		return 2;
	}
	return out_close_all(of);
}

/* "wrote DIR/tune-points.csv, ... (cd DIR && gnuplot tune.gp) ...": the
 * command in it quotes DIR for the shell, as every printed command does. */
static void wrote_line(const char *dir)
{
	printf("\nwrote %s/tune-points.csv, tune.dat, tune.gp (cd ", dir);
	sh_quote(stdout, dir);
	printf(" && gnuplot tune.gp) and apply.sh\n");
}

/* ---- main ---- */

static int search_and_report(struct tune_opts *o, struct tune_ctx *c)
{
	const struct rxl_scheme *pol[TUNE_MAX_POLICIES];
	struct tune_state st = { .pol = pol, .n_pol = tune_policy_list(pol, TUNE_MAX_POLICIES),
				 .enabled = o->enabled, .goals = o->goal, .n_goals = o->n_goals,
				 .objective = o->objective, .maximize = o->maximize };
	char err[1024];
	struct report *rep;
	int rc;

	if (tune_search(&st, eval_batch, c, err, sizeof(err))) {
		fprintf(stderr, "rxlab: tune: %s\n", err);
		tune_state_free(&st);
		return c->stop && *c->stop ? 128 + *c->stop : strstr(err, "model error") ? 1 : 2;
	}
	if (st.n_pts == 0) { /* prepare() refuses an empty search: never a report without points */
		fprintf(stderr, "rxlab: tune: no setting was evaluated (no policy to search)\n");
		tune_state_free(&st);
		return 2;
	}
	rep = tune_report(&st, o);
	report_print(rep, stdout, o->fmt);
	report_free(rep);
	rc = 0;
	if (o->fmt == OUT_TABLE) {
		verdict(stdout, &st, o);
		printf("\nto apply it on Linux:\n");
		rc = print_commands(stdout, c, &st, o->iface, NULL) ? 2 : 0;
	}
	if (rc == 0 && o->out_dir)
		rc = write_out(o->out_dir, c, &st, o);
	if (rc == 0 && o->out_dir && o->fmt == OUT_TABLE)
		wrote_line(o->out_dir);
	tune_state_free(&st);
	return rc;
}

int tune_run(struct tune_opts *o, const volatile sig_atomic_t *stop)
{
	static struct tune_ctx c;
	int rc;

	memset(&c, 0, sizeof(c));
	c.stop = stop;
	rc = prepare(&c, o);
	if (rc == 0)
		rc = search_and_report(o, &c);
	trace_cache_free();
	if (stop && *stop)
		return 128 + *stop;
	return rc;
}
