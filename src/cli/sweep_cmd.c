/* sweep_cmd.c - `rxlab sweep`: see sweep_cmd.h.
 *
 * Roadmap: the columns and one row per point; the points to run (the
 * shard's slice minus the rows --resume keeps); the run, with the progress
 * bar; the results file, assembled in point order from the kept rows and
 * the new ones (each row's text as printed, so the file is the one a
 * single uninterrupted run prints); the figures.
 */
#include "cli/sweep_cmd.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/estimate.h"
#include "cli/interrupt.h"
#include "cli/plot.h"
#include "cli/progress.h"
#include "report/rowfile.h"
#include "report/sim_report.h"
#include "sim/results.h"

/* A sweep keeps one byte per point of its product. */
#define SWEEP_MAX_POINTS 10000000u
#define MAX_SET_COLS 256

struct sweep_state {
	const struct sweep_cmd *c;
	size_t total;                  /* points of the product */
	const char *set_key[MAX_SET_COLS], *set_val[MAX_SET_COLS];
	size_t key_len[MAX_SET_COLS], n_setcols;
	struct table *wide;            /* the new rows, every column */
	struct table *text;            /* --format table: the narrow rows */
	struct rowfile fresh, old;     /* new rows; rows kept from --resume */
	size_t *fresh_point, *old_point;   /* point of each row (old: SIZE_MAX = dropped) */
	unsigned char *kept;           /* per point: 1 when --resume keeps its row */
	size_t *todo, n_todo;
	struct progress prog;
	double saved_s;                /* CLOCK_MONOTONIC of the last checkpoint */
	char id[24];
	char err[1024];
};

static int fail(struct sweep_state *s, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct sweep_state *s, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	return status;
}

/* ---- columns and rows ---------------------------------------------------- */

static bool is_varied(const struct sweep_cmd *c, const char *key, size_t len)
{
	for (size_t k = 0; k < c->n_vary; k++)
		if (strlen(c->vary[k].key) == len && !strncmp(c->vary[k].key, key, len))
			return true;
	return false;
}

/* The --set keys as columns: the last value of a key wins (as in
 * scenario_load()); a key that is also varied is the varied column. */
static void set_columns(struct sweep_state *s)
{
	const struct sweep_cmd *c = s->c;

	for (size_t i = 0; i < c->n_sets && s->n_setcols < MAX_SET_COLS; i++) {
		const char *eq = strchr(c->sets[i], '=');
		size_t len = eq ? (size_t)(eq - c->sets[i]) : 0, j;

		if (!eq || is_varied(c, c->sets[i], len))
			continue;
		for (j = 0; j < s->n_setcols; j++)
			if (s->key_len[j] == len && !strncmp(s->set_key[j], c->sets[i], len))
				break;
		s->set_key[j] = c->sets[i];
		s->key_len[j] = len;
		s->set_val[j] = eq + 1;
		s->n_setcols += j == s->n_setcols;
	}
}

static struct table *wide_table(struct sweep_state *s)
{
	const char *keys[SWEEP_MAX_VARY + 1 + MAX_SET_COLS];
	char *owned[MAX_SET_COLS];
	size_t n = 0;
	struct table *t;

	for (size_t k = 0; k < s->c->n_vary; k++)
		keys[n++] = s->c->vary[k].key;
	keys[n++] = "scenario";
	for (size_t j = 0; j < s->n_setcols; j++) {
		owned[j] = strndup(s->set_key[j], s->key_len[j]);
		keys[n++] = owned[j] ? owned[j] : "?";
	}
	t = summary_table_new("sweep", "Sweep", keys, n, true);
	metrics_extra_cols(t);
	for (size_t j = 0; j < s->n_setcols; j++)
		free(owned[j]);
	return t;
}

/* A stable name for the sweep: FNV-1a 64 of its definition and columns. */
static void sweep_id(struct sweep_state *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	const struct sweep_cmd *c = s->c;

#define MIX(str) for (const char *q_ = (str);; q_++) { h = (h ^ (unsigned char)*q_) * \
	0x100000001b3ull; if (!*q_) break; }
	MIX("rxlab sweep 1");
	MIX(c->scenario);
	for (size_t i = 0; i < c->n_sets; i++)
		MIX(c->sets[i]);
	for (size_t k = 0; k < c->n_vary; k++)
		for (size_t i = 0; i < c->vary[k].n; i++)
			MIX(c->vary[k].val[i]);
	for (size_t i = 0; i < table_ncols(s->wide); i++)
		MIX(table_col_key(s->wide, i));
#undef MIX
	snprintf(s->id, sizeof(s->id), "%016llx", (unsigned long long)h);
}

static void assemble(struct sweep_state *s, struct rowfile *out);

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Rewrite --out with the rows so far when a checkpoint is due.  A failed
 * write is not fatal here: the final write reports it. */
static void checkpoint(struct sweep_state *s)
{
	struct rowfile out;
	char err[512];
	double t;

	if (!s->c->out || s->c->checkpoint_s < 0 || rxlab_signal)
		return;
	t = now_s();
	if (t - s->saved_s < s->c->checkpoint_s)
		return;
	assemble(s, &out);
	rowfile_write(&out, s->c->out, err, sizeof(err));
	free(out.row);
	s->saved_s = t;
}

static void emit(void *ctx, size_t p, const struct results *r)
{
	struct sweep_state *s = ctx;
	const struct sweep_cmd *c = s->c;

	table_row(s->wide);
	for (size_t k = 0; k < c->n_vary; k++)
		table_str(s->wide, sweep_point_value(c->vary, c->n_vary, p, k));
	table_str(s->wide, c->scenario);
	for (size_t j = 0; j < s->n_setcols; j++)
		table_str(s->wide, s->set_val[j]);
	summary_row(s->wide, r, true);
	metrics_extra_row(s->wide, r);
	s->fresh_point[s->fresh.nrows] = p;
	rowfile_add_table_row(&s->fresh, s->wide, table_nrows(s->wide) - 1);
	if (s->text) {
		table_row(s->text);
		for (size_t k = 0; k < c->n_vary; k++)
			table_str(s->text, sweep_point_value(c->vary, c->n_vary, p, k));
		summary_row(s->text, r, false);
	}
	progress_step(&s->prog);
	checkpoint(s);
}

/* ---- the points to run ----------------------------------------------------- */

static bool in_slice(const struct sweep_cmd *c, size_t p)
{
	return c->shard_n == 0 || p % c->shard_n == c->shard_k - 1;
}

/* The point whose varied values are those of @row, or -1 with a message. */
static int row_point(struct sweep_state *s, const struct rowfile_row *row, size_t *point)
{
	const struct sweep_cmd *c = s->c;
	size_t p = 0;

	for (size_t k = 0; k < c->n_vary; k++) {
		const char *v = row->cell[k];
		size_t i = 0;

		while (i < c->vary[k].n && (!v || strcmp(v, c->vary[k].val[i])))
			i++;
		if (i == c->vary[k].n)
			return fail(s, -1, "%s:%u: %s = %s is not a value of this sweep's --vary %s",
				    c->resume, row->line, c->vary[k].key, v ? v : "(empty)",
				    c->vary[k].key);
		p = p * c->vary[k].n + i;
	}
	*point = p;
	return 0;
}

/* The inputs of @row other than the varied ones must be this sweep's. */
static int row_inputs(struct sweep_state *s, const struct rowfile_row *row)
{
	const struct sweep_cmd *c = s->c;

	for (size_t j = 0; j <= s->n_setcols; j++) {
		size_t col = c->n_vary + j;
		const char *want = j ? s->set_val[j - 1] : c->scenario;

		if (!row->cell[col] || strcmp(row->cell[col], want))
			return fail(s, -1, "%s:%u: %s = %s, but this sweep has %s: the file is "
				    "another sweep's", c->resume, row->line, s->old.key[col],
				    row->cell[col] ? row->cell[col] : "(empty)", want);
	}
	return 0;
}

static int resume_header(struct sweep_state *s)
{
	const struct sweep_cmd *c = s->c;
	const struct rowfile *o = &s->old;

	if (o->fmt != c->fmt)
		return fail(s, 2, "%s is %s, but this sweep writes %s: resume with the same --format",
			    c->resume, o->fmt == OUT_JSON ? "JSON" : "CSV",
			    c->fmt == OUT_JSON ? "JSON" : "CSV");
	if (o->shards != c->shard_n || o->shard != c->shard_k)
		return o->shards ? fail(s, 2, "%s is shard %u/%u: resume it with --shard %u/%u",
					c->resume, o->shard, o->shards, o->shard, o->shards)
				 : fail(s, 2, "%s is a whole sweep, not shard %u/%u: resume it "
					"without --shard", c->resume, c->shard_k, c->shard_n);
	if (o->shards && strcmp(o->sweep_id, s->id))
		return fail(s, 2, "%s is a shard of sweep %s, this is sweep %s: the scenario, "
			    "--set or --vary options differ", c->resume, o->sweep_id, s->id);
	if (o->ncols == 0 && o->nrows == 0)
		return 0;
	for (size_t i = 0; i < table_ncols(s->wide); i++)
		if (i >= o->ncols || strcmp(o->key[i], table_col_key(s->wide, i)))
			return fail(s, 2, "%s: column %zu is %s, this sweep's is %s: the file was "
				    "written by another sweep", c->resume, i + 1,
				    i < o->ncols ? o->key[i] : "missing", table_col_key(s->wide, i));
	if (o->ncols != table_ncols(s->wide))
		return fail(s, 2, "%s: %zu columns, this sweep has %zu", c->resume, o->ncols,
			    table_ncols(s->wide));
	return 0;
}

/* Keep the finished rows of c->resume; mark their points kept. */
static int resume_load(struct sweep_state *s)
{
	int partial, rc;
	size_t dropped = 0;

	if (rowfile_read(&s->old, s->c->resume, s->err, sizeof(s->err)))
		return 2;
	if ((rc = resume_header(s)))
		return rc;
	partial = rowfile_col(&s->old, "partial");
	s->old_point = calloc(s->old.nrows + 1, sizeof(*s->old_point));
	for (size_t i = 0; i < s->old.nrows; i++) {
		const struct rowfile_row *row = &s->old.row[i];
		size_t p = 0;

		if (row_point(s, row, &p) || row_inputs(s, row))
			return 2;
		if (!in_slice(s->c, p))
			return fail(s, 2, "%s:%u: point %zu belongs to shard %zu/%u, not %u/%u",
				    s->c->resume, row->line, p, p % s->c->shard_n + 1,
				    s->c->shard_n, s->c->shard_k, s->c->shard_n);
		if (s->kept[p])
			return fail(s, 2, "%s:%u: point %zu comes twice", s->c->resume, row->line, p);
		s->old_point[i] = SIZE_MAX;
		if (row->cell[partial] && !strcmp(row->cell[partial], "true")) {
			dropped++;
			continue;
		}
		s->kept[p] = 1;
		s->old_point[i] = p;
	}
	fprintf(stderr, "rxlab: resuming %s: %zu finished points kept", s->c->resume,
		s->old.nrows - dropped);
	if (dropped)
		fprintf(stderr, " (%zu partial dropped)", dropped);
	return 0;
}

static void make_todo(struct sweep_state *s)
{
	s->todo = calloc(s->total ? s->total : 1, sizeof(*s->todo));
	s->n_todo = 0;
	for (size_t p = 0; s->todo && p < s->total; p++)
		if (in_slice(s->c, p) && !s->kept[p])
			s->todo[s->n_todo++] = p;
}

/* ---- the results file ---------------------------------------------------- */

/* Kept and new rows in point order: @out borrows their text and cells. */
static void assemble(struct sweep_state *s, struct rowfile *out)
{
	size_t i = 0, j = 0;

	rowfile_init(out, s->fresh.fmt);
	out->ncols = s->fresh.ncols;
	out->key = s->fresh.key;
	out->row = calloc(s->old.nrows + s->fresh.nrows + 1, sizeof(*out->row));
	if (s->c->shard_n) {
		snprintf(out->sweep_id, sizeof(out->sweep_id), "%s", s->id);
		out->shard = s->c->shard_k;
		out->shards = s->c->shard_n;
		out->points = s->total;
	}
	for (;;) {
		while (i < s->old.nrows && s->old_point[i] == SIZE_MAX)
			i++;
		if (i == s->old.nrows && j == s->fresh.nrows)
			break;
		if (j == s->fresh.nrows || (i < s->old.nrows && s->old_point[i] < s->fresh_point[j]))
			out->row[out->nrows++] = s->old.row[i++];
		else
			out->row[out->nrows++] = s->fresh.row[j++];
	}
}

static int write_results(struct sweep_state *s, struct rowfile *out)
{
	if (s->text) {
		struct report *rep = report_new();

		report_add(rep, s->text);
		s->text = NULL;
		report_print(rep, stdout, OUT_TABLE);
		report_free(rep);
		return 0;
	}
	return rowfile_write(out, s->c->out ? s->c->out : "-", s->err, sizeof(s->err)) ? 2 : 0;
}

/* ---- the command --------------------------------------------------------- */

static int check_usage(struct sweep_state *s)
{
	const struct sweep_cmd *c = s->c;

	if ((c->shard_n || c->resume || c->out) && c->fmt == OUT_TABLE)
		return fail(s, 2, "--shard, --resume and --out write a results file: add "
			    "--format csv (or json)");
	s->total = sweep_points(c->vary, c->n_vary);
	if (s->total == 0 || s->total > SWEEP_MAX_POINTS)
		return fail(s, 2, "the --vary options make more than %u points", SWEEP_MAX_POINTS);
	if (c->shard_n > s->total)
		return fail(s, 2, "--shard %u/%u: the sweep has only %zu points", c->shard_k,
			    c->shard_n, s->total);
	return 0;
}

static int prepare(struct sweep_state *s)
{
	int rc = check_usage(s);
	const char **keys;

	if (rc)
		return rc;
	set_columns(s);
	s->wide = wide_table(s);
	sweep_id(s);
	rowfile_init(&s->fresh, s->c->fmt == OUT_TABLE ? OUT_CSV : s->c->fmt);
	rowfile_init(&s->old, s->fresh.fmt);
	keys = calloc(table_ncols(s->wide), sizeof(*keys));
	if (!keys)
		return fail(s, 1, "out of memory");
	for (size_t i = 0; i < table_ncols(s->wide); i++)
		keys[i] = table_col_key(s->wide, i);
	rowfile_set_keys(&s->fresh, keys, table_ncols(s->wide));
	free(keys);
	s->kept = calloc(s->total, 1);
	s->fresh_point = calloc(s->total, sizeof(*s->fresh_point));
	if (!s->kept || !s->fresh_point)
		return fail(s, 1, "out of memory for %zu points", s->total);
	if (s->c->fmt == OUT_TABLE) {
		const char *varied[SWEEP_MAX_VARY];

		for (size_t k = 0; k < s->c->n_vary; k++)
			varied[k] = s->c->vary[k].key;
		s->text = summary_table_new("sweep", "Sweep", varied, s->c->n_vary, false);
	}
	if (s->c->resume && (rc = resume_load(s)))
		return rc;
	make_todo(s);
	if (!s->todo)
		return fail(s, 1, "out of memory for %zu points", s->total);
	if (s->c->resume)
		fprintf(stderr, "; running %zu\n", s->n_todo);
	return 0;
}

static void finish(struct sweep_state *s)
{
	table_free(s->wide);
	table_free(s->text);
	rowfile_free(&s->fresh);
	rowfile_free(&s->old);
	free(s->fresh_point);
	free(s->old_point);
	free(s->kept);
	free(s->todo);
}

/* On a terminal, before a long sweep: how long it will take. */
static void say_estimate(const struct sweep_plan *pl)
{
	struct estimate e;
	double min_s;
	size_t jobs;

	if (estimate_wanted(&min_s) && sweep_estimate(pl, &e, &jobs) == 0)
		estimate_say_sweep(&e, pl->n_todo, jobs, min_s);
}

static int run_points(struct sweep_state *s)
{
	const struct sweep_cmd *c = s->c;
	struct sweep_plan pl = { .name = c->scenario, .sets = c->sets, .n_sets = c->n_sets,
				 .vary = c->vary, .n_vary = c->n_vary, .jobs = c->jobs,
				 .todo = s->todo, .n_todo = s->n_todo };
	int rc;

	say_estimate(&pl);
	progress_start(&s->prog, s->n_todo,
		       c->progress > 0 || (c->progress < 0 && isatty(1) && isatty(2)));
	s->saved_s = now_s();
	rc = sweep_exec(&pl, emit, s, s->err, sizeof(s->err));
	progress_end(&s->prog);
	if (rc)
		return strstr(s->err, "model error") || strstr(s->err, "accounting") ? 1 : 2;
	return 0;
}

static int plot(struct sweep_state *s, const struct rowfile *out)
{
	bool drawn = false;
	int rc = plot_rowfile(out, s->c->plot_dir, s->c->scenario, &drawn, s->err,
			      sizeof(s->err));

	if (rc == 0 && drawn)
		fprintf(stderr, "rxlab: figures in %s/\n", s->c->plot_dir);
	return rc;
}

int sweep_cmd_run(const struct sweep_cmd *c)
{
	struct sweep_state *s = calloc(1, sizeof(*s));
	struct rowfile out;
	int rc;

	if (!s)
		return fprintf(stderr, "rxlab: out of memory\n"), 1;
	s->c = c;
	rc = prepare(s);
	if (rc == 0)
		rc = run_points(s);
	if (rc == 0) {
		assemble(s, &out);
		rc = write_results(s, &out);
		if (rc == 0 && c->plot_dir && !rxlab_signal)
			rc = plot(s, &out);
		free(out.row);
	}
	if (rc)
		fprintf(stderr, "rxlab: %s\n", s->err);
	finish(s);
	free(s);
	return rc;
}

int shard_parse(const char *s, unsigned *k, unsigned *n)
{
	char *end;
	unsigned long a = strtoul(s, &end, 10), b;

	if (end == s || *end != '/' || !isdigit((unsigned char)end[1]))
		return -1;
	b = strtoul(end + 1, &end, 10);
	if (*end || a < 1 || a > b || b > 1000000)
		return -1;
	*k = (unsigned)a;
	*n = (unsigned)b;
	return 0;
}

size_t shard_points(size_t total, unsigned k, unsigned n)
{
	return total >= k ? (total - k) / n + 1 : 0;
}
