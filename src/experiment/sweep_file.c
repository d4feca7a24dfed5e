/* sweep_file.c - `rxlab sweep`: see sweep_file.h.
 *
 * Roadmap: the columns and one row per point; the results file, streamed
 * in point order (report/rowfile_stream.h) as the points finish, the rows
 * --resume keeps merged in by point (each row's text as printed, so the file
 * is the one a single uninterrupted run prints); the points to run (the
 * shard's slice minus the kept rows); the run, with the progress bar; the
 * figures.
 *
 * Memory: a finished row is printed and forgotten, so a sweep's memory does
 * not grow with its points (issue #14: it kept ~17 KB per point).  What does
 * grow: --resume keeps the text of the rows it keeps and one bit per point;
 * --format table keeps its narrow rows (the column widths need them all);
 * --plot keeps every row for the figures.
 */
#include "experiment/sweep_file.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "experiment/estimate.h"
#include "report/plot.h"
#include "report/progress.h"
#include "io/infile.h"
#include "io/outfile.h"
#include "report/rowfile.h"
#include "report/rowfile_stream.h"
#include "report/sim_report.h"
#include "rxlab/sim.h"

/* The --resume file in messages: "<stdin>" for "-" (io/infile.h). */
#define RESUME(c) infile_name((c)->resume)

/* A sweep walks its points; --resume keeps one bit per point. */
#define SWEEP_MAX_POINTS 10000000u
#define MAX_SET_COLS 256

/* The rows --resume keeps, sorted by point: their text as read (the file
 * is rewritten from it byte for byte), nothing else unless --plot needs the
 * cells.  next: the first not yet written. */
struct kept_rows {
	size_t n, next;
	size_t *point;
	char **text;
	char ***cell;               /* with --plot: cells borrowed from the resume file */
};

struct sweep_state {
	const struct sweep_cmd *c;
	size_t total;                  /* points of the product */
	const char *set_key[MAX_SET_COLS], *set_val[MAX_SET_COLS];
	size_t key_len[MAX_SET_COLS], n_setcols;
	struct rowfile frame;          /* keys and shard framing of the results file, no rows */
	struct table *text;            /* --format table: the narrow rows (printed at the end:
					* the widths need every row) */
	struct rowfile old;            /* --resume file as read; freed once loaded, unless --plot */
	struct kept_rows kept;
	unsigned char *skip;           /* bit per point: --resume keeps its row (NULL: none) */
	struct rowfile plotrows;       /* --plot: every row of the file, for the figures */
	size_t n_todo;
	struct outfile *of;            /* the results file (CSV/JSON): --out or stdout */
	struct rowstream rs;
	bool flush_rows;               /* a pipe, FIFO or terminal: each row flushed */
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

static bool stopped(const struct sweep_cmd *c)
{
	return c->stop && *c->stop;
}

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

/* An empty table with every column of the results file.  A row is made in
 * one of these and printed, then the table is freed: rows are not kept. */
static struct table *wide_table(const struct sweep_state *s)
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
	for (size_t i = 0; i < s->frame.ncols; i++)
		MIX(s->frame.key[i]);
#undef MIX
	snprintf(s->id, sizeof(s->id), "%016llx", (unsigned long long)h);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the results file, streamed ------------------------------------------ */

/* One row of the file, in point order: to the stream, and to the figures'
 * rows with --plot. */
static void put_row(struct sweep_state *s, const char *text, const struct table *t,
		    char *const *cell)
{
	if (!s->text)
		rowstream_row(&s->rs, text);
	if (!s->c->plot_dir)
		return;
	if (t)
		rowfile_add_table_row(&s->plotrows, t, 0);
	else
		rowfile_add(&s->plotrows, NULL, (const char *const *)cell);
}

/* Write the kept rows of the points before @p. */
static void put_kept_before(struct sweep_state *s, size_t p)
{
	struct kept_rows *k = &s->kept;

	for (; k->next < k->n && k->point[k->next] < p; k->next++)
		put_row(s, k->text[k->next], NULL, k->cell ? k->cell[k->next] : NULL);
}

/* Make --out, when a checkpoint is due, the rows so far followed by the
 * kept rows still to come and the file's tail: a valid results file, in
 * point order, that --resume takes up after a crash.  On a FIFO, a device
 * or stdout the rows are flushed as they come.  A failed checkpoint is not
 * fatal here: outfile_close() reports the stream's error. */
static void checkpoint(struct sweep_state *s)
{
	char err[512], *tail;
	double t;

	if (!s->of)
		return;
	if (!outfile_atomic(s->of)) {
		if (s->flush_rows)
			fflush(outfile_fp(s->of));
		return;
	}
	if (!s->c->out || s->c->checkpoint_s < 0 || stopped(s->c))
		return;
	t = now_s();
	if (t - s->saved_s < s->c->checkpoint_s)
		return;
	tail = rowstream_tail(&s->rs, (const char *const *)s->kept.text + s->kept.next,
			      s->kept.n - s->kept.next);
	if (tail)
		outfile_checkpoint(s->of, tail, err, sizeof(err));
	free(tail);
	s->saved_s = t;
}

/* The row of point @p in the results file. */
static void wide_row(struct sweep_state *s, size_t p, const struct results *r)
{
	const struct sweep_cmd *c = s->c;
	struct table *t = wide_table(s);
	char *text;

	table_row(t);
	for (size_t k = 0; k < c->n_vary; k++)
		table_str(t, sweep_point_value(c->vary, c->n_vary, p, k));
	table_str(t, c->scenario);
	for (size_t j = 0; j < s->n_setcols; j++)
		table_str(t, s->set_val[j]);
	summary_row(t, r, true);
	metrics_extra_row(t, r);
	text = s->text ? NULL : rowstream_table_row(t, 0, s->frame.fmt);
	put_row(s, text, t, NULL);
	free(text);
	table_free(t);
}

static void emit(void *ctx, size_t p, const struct results *r)
{
	struct sweep_state *s = ctx;
	const struct sweep_cmd *c = s->c;

	put_kept_before(s, p);
	if (!s->text || c->plot_dir)
		wide_row(s, p, r);
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
				    RESUME(c), row->line, c->vary[k].key, v ? v : "(empty)",
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
				    "another sweep's", RESUME(c), row->line, s->old.key[col],
				    row->cell[col] ? row->cell[col] : "(empty)", want);
	}
	return 0;
}

static int resume_header(struct sweep_state *s)
{
	const struct sweep_cmd *c = s->c;
	const struct rowfile *o = &s->old, *f = &s->frame;

	if (o->fmt != c->fmt)
		return fail(s, 2, "%s is %s, but this sweep writes %s: resume with the same --format",
			    RESUME(c), o->fmt == OUT_JSON ? "JSON" : "CSV",
			    c->fmt == OUT_JSON ? "JSON" : "CSV");
	if (o->shards != c->shard_n || o->shard != c->shard_k)
		return o->shards ? fail(s, 2, "%s is shard %u/%u: resume it with --shard %u/%u",
					RESUME(c), o->shard, o->shards, o->shard, o->shards)
				 : fail(s, 2, "%s is a whole sweep, not shard %u/%u: resume it "
					"without --shard", RESUME(c), c->shard_k, c->shard_n);
	if (o->shards && strcmp(o->sweep_id, s->id))
		return fail(s, 2, "%s is a shard of sweep %s, this is sweep %s: the scenario, "
			    "--set or --vary options differ", RESUME(c), o->sweep_id, s->id);
	if (o->ncols == 0 && o->nrows == 0)
		return 0;
	for (size_t i = 0; i < f->ncols; i++)
		if (i >= o->ncols || strcmp(o->key[i], f->key[i]))
			return fail(s, 2, "%s: column %zu is %s, this sweep's is %s: the file was "
				    "written by another sweep", RESUME(c), i + 1,
				    i < o->ncols ? o->key[i] : "missing", f->key[i]);
	if (o->ncols != f->ncols)
		return fail(s, 2, "%s: %zu columns, this sweep has %zu", RESUME(c), o->ncols,
			    f->ncols);
	return 0;
}

/* The kept rows of s->old by point: their text copied (the cells borrowed
 * with --plot), sorted. */
static const size_t *sort_points;

static int by_point(const void *a, const void *b)
{
	size_t pa = sort_points[*(const size_t *)a], pb = sort_points[*(const size_t *)b];

	return pa < pb ? -1 : pa > pb;
}

static int keep_rows(struct sweep_state *s, const size_t *row_point_of, size_t n)
{
	struct kept_rows *k = &s->kept;
	size_t *idx = calloc(n + 1, sizeof(*idx));

	k->point = calloc(n + 1, sizeof(*k->point));
	k->text = calloc(n + 1, sizeof(*k->text));
	k->cell = s->c->plot_dir ? calloc(n + 1, sizeof(*k->cell)) : NULL;
	if (!idx || !k->point || !k->text || (s->c->plot_dir && !k->cell)) {
		free(idx);
		return fail(s, 1, "out of memory for the %zu rows of %s", n, RESUME(s->c));
	}
	for (size_t i = 0; i < s->old.nrows; i++)
		if (row_point_of[i] != SIZE_MAX)
			idx[k->n++] = i;
	sort_points = row_point_of;
	qsort(idx, k->n, sizeof(*idx), by_point);
	for (size_t i = 0; i < k->n; i++) {
		k->point[i] = row_point_of[idx[i]];
		k->text[i] = strdup(s->old.row[idx[i]].text);
		if (k->cell)
			k->cell[i] = s->old.row[idx[i]].cell;
		if (!k->text[i]) {
			free(idx);
			return fail(s, 1, "out of memory for the rows of %s", RESUME(s->c));
		}
	}
	free(idx);
	return 0;
}

/* Check the rows of s->old; the point of each (SIZE_MAX: dropped) into
 * @row_point_of; mark the kept ones in s->skip. */
static int resume_rows(struct sweep_state *s, size_t *row_point_of, size_t *dropped)
{
	int partial = rowfile_col(&s->old, "partial");

	for (size_t i = 0; i < s->old.nrows; i++) {
		const struct rowfile_row *row = &s->old.row[i];
		size_t p = 0;

		if (row_point(s, row, &p) || row_inputs(s, row))
			return 2;
		if (!in_slice(s->c, p))
			return fail(s, 2, "%s:%u: point %zu belongs to shard %zu/%u, not %u/%u",
				    RESUME(s->c), row->line, p, p % s->c->shard_n + 1,
				    s->c->shard_n, s->c->shard_k, s->c->shard_n);
		if (sweep_bit(s->skip, p))
			return fail(s, 2, "%s:%u: point %zu comes twice", RESUME(s->c), row->line, p);
		row_point_of[i] = SIZE_MAX;
		if (row->cell[partial] && !strcmp(row->cell[partial], "true")) {
			(*dropped)++;
			continue;
		}
		s->skip[p / 8] |= (unsigned char)(1u << (p % 8));
		row_point_of[i] = p;
	}
	return 0;
}

/* Keep the finished rows of c->resume; mark their points kept. */
static int resume_load(struct sweep_state *s)
{
	size_t dropped = 0, *row_point_of;
	int rc;

	if (rowfile_read(&s->old, s->c->resume, s->err, sizeof(s->err)))
		return 2;
	if ((rc = resume_header(s)))
		return rc;
	s->skip = calloc(s->total / 8 + 1, 1);
	row_point_of = calloc(s->old.nrows + 1, sizeof(*row_point_of));
	if (!s->skip || !row_point_of) {
		free(row_point_of);
		return fail(s, 1, "out of memory for %zu points", s->total);
	}
	rc = resume_rows(s, row_point_of, &dropped);
	if (rc == 0)
		rc = keep_rows(s, row_point_of, s->old.nrows);
	free(row_point_of);
	if (rc)
		return rc;
	fprintf(stderr, "rxlab: resuming %s: %zu finished points kept", RESUME(s->c),
		s->old.nrows - dropped);
	if (dropped)
		fprintf(stderr, " (%zu partial dropped)", dropped);
	if (!s->c->plot_dir)
		rowfile_free(&s->old);
	return 0;
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
	/* a figures folder that cannot be written fails now, not after the sweep */
	if (c->plot_dir) {
		char why[sizeof(s->err) - 64];

		if (plot_check_dir(c->plot_dir, why, sizeof(why)))
			return fail(s, 2, "--plot: %s; choose another DIR", why);
	}
	return 0;
}

/* The keys and framing of the results file. */
static void make_frame(struct sweep_state *s)
{
	struct table *wide = wide_table(s);
	const char **keys = calloc(table_ncols(wide), sizeof(*keys));

	rowfile_init(&s->frame, s->c->fmt == OUT_TABLE ? OUT_CSV : s->c->fmt);
	if (keys) {
		for (size_t i = 0; i < table_ncols(wide); i++)
			keys[i] = table_col_key(wide, i);
		rowfile_set_keys(&s->frame, keys, table_ncols(wide));
	}
	free(keys);
	table_free(wide);
	rowfile_init(&s->plotrows, s->frame.fmt);
	rowfile_set_keys(&s->plotrows, (const char *const *)s->frame.key, s->frame.ncols);
}

static int prepare(struct sweep_state *s)
{
	int rc = check_usage(s);

	if (rc)
		return rc;
	set_columns(s);
	make_frame(s);
	if (s->frame.ncols == 0)
		return fail(s, 1, "out of memory");
	sweep_id(s);
	if (s->c->shard_n) {
		snprintf(s->frame.sweep_id, sizeof(s->frame.sweep_id), "%s", s->id);
		s->frame.shard = s->c->shard_k;
		s->frame.shards = s->c->shard_n;
		s->frame.points = s->total;
	}
	rowfile_init(&s->old, s->frame.fmt);
	if (s->c->fmt == OUT_TABLE) {
		const char *varied[SWEEP_MAX_VARY];

		for (size_t k = 0; k < s->c->n_vary; k++)
			varied[k] = s->c->vary[k].key;
		s->text = summary_table_new("sweep", "Sweep", varied, s->c->n_vary, false);
	}
	if (s->c->resume && (rc = resume_load(s)))
		return rc;
	return 0;
}

/* The points to run: the shard's slice without the kept ones. */
static struct sweep_plan plan_of(const struct sweep_state *s)
{
	const struct sweep_cmd *c = s->c;

	return (struct sweep_plan){ .name = c->scenario, .sets = c->sets, .n_sets = c->n_sets,
				    .vary = c->vary, .n_vary = c->n_vary, .jobs = c->jobs,
				    .first = c->shard_n ? c->shard_k - 1 : 0,
				    .stride = c->shard_n ? c->shard_n : 1, .skip = s->skip,
				    .stop = c->stop };
}

/* Open the results file (CSV/JSON), before any point runs: a second
 * writer of the same --out, a directory, a missing one fail now. */
static int open_output(struct sweep_state *s)
{
	struct stat st;

	if (s->text)
		return 0;
	if (outfile_open(&s->of, s->c->out ? s->c->out : "-", s->err, sizeof(s->err)))
		return 2;
	rowstream_begin(&s->rs, outfile_fp(s->of), &s->frame);
	s->flush_rows = !outfile_atomic(s->of) &&
			!(fstat(fileno(outfile_fp(s->of)), &st) == 0 && S_ISREG(st.st_mode));
	return 0;
}

/* After the points: every kept row still to come, the tail, and the file
 * into place; or, when a point failed (@ok false), the target untouched
 * (atomic) or what was written so far (in place).  0, or -1 with s->err
 * (only when @ok). */
static int close_output(struct sweep_state *s, bool ok)
{
	struct outfile *of = s->of;

	s->of = NULL;
	if (ok)
		put_kept_before(s, SIZE_MAX);
	if (s->text && ok) {
		struct report *rep = report_new();

		report_add(rep, s->text);
		s->text = NULL;
		report_print(rep, stdout, OUT_TABLE);
		report_free(rep);
		return 0;
	}
	if (!of)
		return 0;
	if (!ok && outfile_atomic(of)) {
		outfile_abort(of);
		return 0;
	}
	if (ok)
		rowstream_end(&s->rs);
	return ok ? outfile_close(of, s->err, sizeof(s->err)) : outfile_close(of, NULL, 0);
}

static void finish(struct sweep_state *s)
{
	if (s->of)
		outfile_abort(s->of);
	table_free(s->text);
	rowfile_free(&s->frame);
	rowfile_free(&s->plotrows);
	rowfile_free(&s->old);
	for (size_t i = 0; i < s->kept.n; i++)
		free(s->kept.text[i]);
	free(s->kept.point);
	free(s->kept.text);
	free(s->kept.cell);
	free(s->skip);
}

/* On a terminal, before a long sweep: how long it will take. */
static void say_estimate(const struct sweep_plan *pl, size_t n_todo)
{
	struct estimate e;
	double min_s;
	size_t jobs;

	if (estimate_wanted(&min_s) && sweep_estimate(pl, &e, &jobs) == 0)
		estimate_say_sweep(&e, n_todo, jobs, min_s);
}

static int run_points(struct sweep_state *s)
{
	const struct sweep_cmd *c = s->c;
	struct sweep_plan pl = plan_of(s);
	int rc;

	s->n_todo = sweep_todo_count(&pl);
	if (c->resume)
		fprintf(stderr, "; running %zu\n", s->n_todo);
	say_estimate(&pl, s->n_todo);
	progress_start(&s->prog, s->n_todo,
		       c->progress > 0 || (c->progress < 0 && isatty(1) && isatty(2)));
	s->saved_s = now_s();
	rc = sweep_exec(&pl, emit, s, s->err, sizeof(s->err));
	progress_end(&s->prog);
	if (rc)
		return strstr(s->err, "model error") || strstr(s->err, "accounting") ? 1 : 2;
	return 0;
}

static int plot(struct sweep_state *s)
{
	bool drawn = false;
	int rc = plot_rowfile(&s->plotrows, s->c->plot_dir, s->c->scenario, &drawn, s->err,
			      sizeof(s->err));

	if (rc == 0 && drawn)
		fprintf(stderr, "rxlab: figures in %s/\n", s->c->plot_dir);
	return rc;
}

int sweep_cmd_run(const struct sweep_cmd *c)
{
	struct sweep_state *s = calloc(1, sizeof(*s));
	int rc;

	if (!s)
		return fprintf(stderr, "rxlab: out of memory\n"), 1;
	s->c = c;
	rc = prepare(s);
	if (rc == 0)
		rc = open_output(s);
	if (rc == 0) {
		rc = run_points(s);
		if (close_output(s, rc == 0) && rc == 0)	/* after a failure: s->err kept */
			rc = 2;
	}
	if (rc == 0 && c->plot_dir && !stopped(c))
		rc = plot(s);
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
