/* validate.c - the seed experiments' reported figures beside simulated ones.
 *
 * The runs and figures are in validate_figs.c.  Runs are done once however
 * many figures read them; each figure is judged, printed in the table of
 * its kind (the posts' figures, or the model's claims) and counted in the
 * score of its class.
 */
#include "experiment/validate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "experiment/run_many.h"
#include "experiment/validate_figs.h"
#include "model/builtin.h"
#include "rxlab/sim.h"

#define USES(run) (UINT64_C(1) << (run))

const char *fig_class_name(enum fig_class c)
{
	static const char *const names[FIG_N_CLASSES] = {
		[FIG_FITTED] = "fitted", [FIG_PREDICTED] = "predicted", [FIG_DERIVED] = "derived",
		[FIG_QUALITATIVE] = "qualitative", [FIG_CLAIM] = "claim",
	};

	return (unsigned)c < FIG_N_CLASSES ? names[c] : "?";
}

const struct figure *validate_figures(size_t *n)
{
	*n = n_seed_figures;
	return seed_figures;
}

struct figure_result figure_judge(const struct figure *fig, double simulated)
{
	struct figure_result o = { .fig = fig, .simulated = simulated };

	o.ratio = fig->reported != 0 ? simulated / fig->reported : NAN;
	switch (fig->check) {
	case CHECK_RATIO:
		o.ok = o.ratio >= 0.75 && o.ratio <= 1.25;
		break;
	case CHECK_AT_MOST:
		o.ok = simulated <= fig->bound;
		break;
	case CHECK_AT_LEAST:
		o.ok = simulated >= fig->bound;
		break;
	}
	if (isnan(simulated))
		o.ok = false;
	return o;
}

/* ---- classes against the fitted: comments ---- */

/* The figure called @id (@len bytes), or NULL. */
static const struct figure *figure_by_id(const struct figure *figs, size_t n, const char *id,
					 size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(figs[i].id) == len && !strncmp(figs[i].id, id, len))
			return &figs[i];
	return NULL;
}

/* @file's name as fitted parameters name it: profiles without "profiles/". */
static const char *file_short(const struct builtin_file *f)
{
	return strncmp(f->name, "profiles/", 9) ? f->name : f->name + 9;
}

/* One "fitted: KEYS to IDS" line (@line, to its end) of @file: each ID
 * must be a fitted figure whose param is "FILE: KEYS"; @named counts the
 * lines naming each figure. */
static int check_line(const struct figure *figs, size_t n, const struct builtin_file *file,
		      const char *line, unsigned *named, char *err, size_t len)
{
	size_t eol = strcspn(line, "\n");
	const char *to = strstr(line, " to ");
	char want[256];

	if (!to || (size_t)(to - line) > eol) {
		snprintf(err, len, "%s: \"fitted: %.*s\": expected KEYS to FIGURE-ID[, ...]",
			 file->path, (int)eol, line);
		return -1;
	}
	snprintf(want, sizeof(want), "%s: %.*s", file_short(file), (int)(to - line), line);
	for (const char *p = to + 4; p < line + eol;) {
		size_t idl = strcspn(p, ", \n");
		const struct figure *f = figure_by_id(figs, n, p, idl);

		if (!f) {
			snprintf(err, len, "%s: \"fitted: ... to %.*s\": no figure has that id",
				 file->path, (int)idl, p);
			return -1;
		}
		if (f->cls != FIG_FITTED || !f->param || strcmp(f->param, want)) {
			snprintf(err, len, "figure %s is %s%s%s, but %s says %s were fitted to it",
				 f->id, fig_class_name(f->cls), f->param ? " from " : "",
				 f->param ? f->param : "", file->path, want);
			return -1;
		}
		named[f - figs]++;
		p += idl;
		p += strspn(p, ", ");
	}
	return 0;
}

/* The "fitted:" lines of @file: comment lines whose text starts so. */
static int check_file(const struct figure *figs, size_t n, const struct builtin_file *file,
		      unsigned *named, char *err, size_t len)
{
	for (const char *l = file->text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0)) {
		const char *t = l;

		if (*t != '#')
			continue;
		t += 1 + strspn(t + 1, " ");
		if (!strncmp(t, "fitted: ", 8) &&
		    check_line(figs, n, file, t + 8, named, err, len))
			return -1;
	}
	return 0;
}

int validate_classes_check(const struct figure *figs, size_t n, const struct builtin_file *files,
			   char *err, size_t len)
{
	unsigned named[256] = { 0 };

	if (n > sizeof(named) / sizeof(named[0])) {
		snprintf(err, len, "%zu figures: at most 256", n);
		return -1;
	}
	for (const struct builtin_file *f = files; f->name; f++)
		if (check_file(figs, n, f, named, err, len))
			return -1;
	for (size_t i = 0; i < n; i++)
		if (figs[i].cls == FIG_FITTED && named[i] != 1) {
			snprintf(err, len, "figure %s is fitted (%s), but %u comment lines say "
				 "\"fitted: ... to %s\" (want 1)", figs[i].id,
				 figs[i].param ? figs[i].param : "no parameter", named[i], figs[i].id);
			return -1;
		}
	return 0;
}

/* ---- judging and printing ---- */

static bool wanted(const struct figure *f, const char *seed)
{
	return !seed || !strncmp(f->seed, seed, strlen(seed));
}

static struct table *figure_table(const char *name, const char *title)
{
	struct table *t = table_new(name, title);

	table_add_col(t, "seed", "seed", -1);
	table_add_col(t, "id", "id", -1);
	table_add_col(t, "class", "class", -1);
	table_add_col(t, "figure", "figure", -1);
	table_add_col(t, "reported", "reported", 2);
	table_add_col(t, "simulated", "simulated", 2);
	table_add_col(t, "ratio", "ratio", 3);
	table_add_col(t, "ok", "ok", -1);
	table_add_col(t, "fitted_param", "fitted (FILE: KEYS)", -1);
	table_add_col(t, "derived_from", "derived from", -1);
	return t;
}

static void figure_row(struct table *t, const struct figure_result *o)
{
	const struct figure *f = o->fig;

	table_row(t);
	table_str(t, f->seed);
	table_str(t, f->id);
	table_str(t, fig_class_name(f->cls));
	table_str(t, f->name);
	table_dbl(t, f->reported);
	table_dbl(t, o->simulated);
	table_dbl(t, o->ratio);
	table_bool(t, o->ok);
	table_str(t, f->cls == FIG_FITTED ? f->param : NULL);
	table_str(t, f->cls == FIG_DERIVED ? f->param : NULL);
}

/* Job @job: run @run with its own sets, then the extra @sets; @all holds
 * the strings (MAX_RUN_SETS + 32 of them). */
static void job_of(struct run_job *job, size_t run, const char *const *sets, size_t n_sets,
		   const char **all)
{
	size_t k = 0;

	for (size_t i = 0; seed_runs[run].sets[i]; i++)
		all[k++] = seed_runs[run].sets[i];
	for (size_t i = 0; i < n_sets && k < MAX_RUN_SETS + 32; i++)
		all[k++] = sets[i];
	job->scenario = seed_runs[run].scenario;
	job->sets = all;
	job->n_sets = k;
}

/* The runs the wanted figures read. */
static uint64_t runs_needed(const char *seed)
{
	uint64_t need = 0;

	for (size_t f = 0; f < n_seed_figures; f++)
		if (wanted(&seed_figures[f], seed))
			need |= seed_figures[f].uses;
	return need;
}

/* Figures and agreements per class. */
struct score {
	size_t n[FIG_N_CLASSES], ok[FIG_N_CLASSES];
};

static bool scored(enum fig_class c)
{
	return c == FIG_FITTED || c == FIG_PREDICTED || c == FIG_QUALITATIVE;
}

/* Judge the wanted figures into @out (*@n of them), print each in @figs or
 * @claims, count them in @sc. */
static void judge_all(const char *seed, const struct results *const *res, struct table *figs,
		      struct table *claims, struct score *sc, struct figure_result *out, size_t *n)
{
	for (size_t i = 0; i < n_seed_figures; i++) {
		const struct figure *fig = &seed_figures[i];
		struct figure_result o;

		if (!wanted(fig, seed))
			continue;
		o = figure_judge(fig, fig->measure(res));
		figure_row(fig->cls == FIG_CLAIM ? claims : figs, &o);
		sc->n[fig->cls]++;
		sc->ok[fig->cls] += o.ok;
		out[(*n)++] = o;
	}
}

static struct table *score_table(const struct score *sc)
{
	struct table *t = table_new("score", "Score per class (fitted, predicted and qualitative "
				    "figures are scored; derived ones and claims are not)");

	table_add_col(t, "class", "class", -1);
	table_add_col(t, "scored", "scored", -1);
	table_add_col(t, "figures", "figures", -1);
	table_add_col(t, "within", "within tolerance", -1);
	for (int c = 0; c < FIG_N_CLASSES; c++) {
		table_row(t);
		table_str(t, fig_class_name((enum fig_class)c));
		table_bool(t, scored((enum fig_class)c));
		table_dbl(t, (double)sc->n[c]);
		table_dbl(t, (double)sc->ok[c]);
	}
	return t;
}

/* ---- per seed: how many parameters were fitted to how many figures ---- */

#define MAX_SEEDS 16
#define MAX_KEYS 64

struct seed_score {
	const char *seed;
	struct score sc;
	char keys[MAX_KEYS][64]; /* distinct "FILE: KEY" of its fitted figures */
	size_t n_keys;
};

/* Add each "FILE: KEY" of @param ("FILE: K1, K2") to @s once. */
static void add_keys(struct seed_score *s, const char *param)
{
	const char *colon = strstr(param, ": ");
	int flen = colon ? (int)(colon - param) : 0;

	for (const char *k = colon ? colon + 2 : param; *k && s->n_keys < MAX_KEYS;) {
		int klen = (int)strcspn(k, ",");
		char key[64];
		size_t i;

		snprintf(key, sizeof(key), "%.*s: %.*s", flen, param, klen, k);
		for (i = 0; i < s->n_keys && strcmp(s->keys[i], key); i++)
			;
		if (i == s->n_keys)
			snprintf(s->keys[s->n_keys++], sizeof(s->keys[0]), "%s", key);
		k += klen;
		k += strspn(k, ", ");
	}
}

/* The row of @seed in @all (@n of them so far), added when new. */
static struct seed_score *seed_row(struct seed_score *all, size_t *n, const char *seed)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(all[i].seed, seed))
			return &all[i];
	if (*n == MAX_SEEDS)
		return NULL;
	memset(&all[*n], 0, sizeof(all[*n]));
	all[*n].seed = seed;
	return &all[(*n)++];
}

static void seed_cols(struct table *t)
{
	table_add_col(t, "seed", "seed", -1);
	table_add_col(t, "fitted_params", "params fitted", -1);
	table_add_col(t, "fitted", "fitted figures", -1);
	table_add_col(t, "predicted", "predicted", -1);
	table_add_col(t, "predicted_ok", "agree", -1);
	table_add_col(t, "qualitative", "qualitative", -1);
	table_add_col(t, "qualitative_ok", "agree", -1);
	table_add_col(t, "derived", "derived", -1);
	table_add_col(t, "claims", "claims", -1);
}

/* Per seed: parameters fitted, figures per class, and the agreements of
 * the predicted and qualitative ones. */
static struct table *seed_table(const struct figure_result *res, size_t n)
{
	static struct seed_score all[MAX_SEEDS];
	struct table *t = table_new("by_seed", "Per seed: parameters fitted to figures, and the "
				    "predictions");
	size_t n_seeds = 0;

	seed_cols(t);
	for (size_t i = 0; i < n; i++) {
		const struct figure *f = res[i].fig;
		struct seed_score *s = seed_row(all, &n_seeds, f->seed);

		if (!s)
			continue;
		s->sc.n[f->cls]++;
		s->sc.ok[f->cls] += res[i].ok;
		if (f->cls == FIG_FITTED)
			add_keys(s, f->param);
	}
	for (size_t i = 0; i < n_seeds; i++) {
		const struct score *c = &all[i].sc;

		table_row(t);
		table_str(t, all[i].seed);
		table_dbl(t, (double)all[i].n_keys);
		table_dbl(t, (double)c->n[FIG_FITTED]);
		table_dbl(t, (double)c->n[FIG_PREDICTED]);
		table_dbl(t, (double)c->ok[FIG_PREDICTED]);
		table_dbl(t, (double)c->n[FIG_QUALITATIVE]);
		table_dbl(t, (double)c->ok[FIG_QUALITATIVE]);
		table_dbl(t, (double)c->n[FIG_DERIVED]);
		table_dbl(t, (double)c->n[FIG_CLAIM]);
	}
	return t;
}

/* "predicted: 9 of 16 within tolerance; fitted: ...". */
static void score_line(const struct score *sc)
{
	static const enum fig_class order[] = { FIG_PREDICTED, FIG_FITTED, FIG_QUALITATIVE,
						FIG_DERIVED, FIG_CLAIM };

	printf("\n");
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		enum fig_class c = order[i];

		printf("%s%s: %zu of %zu %s%s", i ? "; " : "", fig_class_name(c), sc->ok[c], sc->n[c],
		       c == FIG_CLAIM ? "hold" : i ? "agree" : "within tolerance",
		       scored(c) ? "" : " (not scored)");
	}
	printf("\n");
}

static int print_all(const char *seed, const struct results *const *ptr, enum out_format fmt)
{
	struct report *rep = report_new();
	struct table *figs = figure_table("validate", "Seed experiments: reported vs simulated");
	struct table *claims = figure_table("claims", "The model's answers (not in the posts; "
					    "not scored)");
	struct score sc = { { 0 }, { 0 } };
	static struct figure_result out[256];
	size_t n = 0;
	bool all_ok = true;

	judge_all(seed, ptr, figs, claims, &sc, out, &n);
	report_add(rep, figs);
	report_add(rep, claims);
	report_add(rep, score_table(&sc));
	report_add(rep, seed_table(out, n));
	report_print(rep, stdout, fmt);
	if (fmt == OUT_TABLE)
		score_line(&sc);
	report_free(rep);
	for (int c = 0; c < FIG_N_CLASSES; c++)
		all_ok &= !scored((enum fig_class)c) || sc.ok[c] == sc.n[c];
	return all_ok ? 0 : 1;
}

int validate_run(const char *seed, const char *const *sets, size_t n_sets, enum out_format fmt,
		 size_t jobs, const volatile sig_atomic_t *stop)
{
	static struct run_job job[RUN_MANY_MAX];
	static const char *all[RUN_MANY_MAX][MAX_RUN_SETS + 32];
	const struct results *ptr[RUN_MANY_MAX] = { 0 };
	size_t run_of[RUN_MANY_MAX], n = 0, bad;
	uint64_t need = runs_needed(seed);
	char err[512];
	int rc;

	if (validate_classes_check(seed_figures, n_seed_figures, builtin_files, err, sizeof(err))) {
		fprintf(stderr, "rxlab: validate: %s\n", err);
		return 2;
	}
	if (!need) {
		fprintf(stderr, "rxlab: validate: no figures for seed '%s'; try 'rxlab seeds'\n", seed);
		return 2;
	}
	for (size_t run = 0; run < n_seed_runs; run++)
		if (need & USES(run)) {
			job_of(&job[n], run, sets, n_sets, all[n]);
			run_of[n++] = run;
		}
	bad = run_many(job, n, jobs, stop);
	for (size_t i = 0; i < n; i++)
		ptr[run_of[i]] = job[i].rc ? NULL : &job[i].r;
	if (bad < n) {
		fprintf(stderr, "rxlab: validate: %s\n", job[bad].err);
		rc = 2;
	} else {
		rc = print_all(seed, ptr, fmt);
	}
	for (size_t i = 0; i < n; i++)
		if (!job[i].rc)
			results_free(&job[i].r);
	return rc;
}

int seeds_list(void)
{
	for (const struct builtin_file *f = builtin_files; f->name; f++) {
		const char *d = f->text;
		size_t len;

		if (strncmp(f->name, "seeds/", 6))
			continue;
		if (*d == '#')
			d += 1 + strspn(d + 1, " ");
		len = strcspn(d, "\n");
		printf("%-28s %.*s\n", f->name, (int)len, d);
	}
	return 0;
}
