/* compare.c - the moderation schemes side by side.
 *
 * Each row is a preset of the scheme registry (include/rxlab/scheme.h): the
 * scheme's scenario overrides plus its axes at the preset's levels, written
 * with the same keys a user would type; all rows run on the same arrivals
 * (the seed is the scenario's), so differences come from the moderation
 * alone.
 */
#include "experiment/compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rxlab/scheme.h"
#include "rxlab/sim.h"

/* compare's scenario, moderation-compare, receives on eth0: the port the
 * registry's '*' stands for here (a scenario without an eth0 fails at the
 * first row that sets a key of it, as it always has). */
#define COMPARE_PORT "eth0"
#define SET_LEN 160

/* With --vary, the varied key is the second column: without it the rows of
 * one scheme would not say which value they ran. */
static struct table *compare_table(const struct vary *vary)
{
	struct table *t = table_new("compare", "Moderation schemes on a request/response server");

	table_add_col(t, "scheme", "scheme", -1);
	if (vary)
		table_add_col(t, vary->key, vary->key, -1);
	table_add_col(t, "offered_pps", "offered/s", 0);
	table_add_col(t, "served_pps", "served/s", 0);
	table_add_col(t, "lat_p50_us", "p50us", 1);
	table_add_col(t, "lat_p99_us", "p99us", 1);
	table_add_col(t, "server_cpu_pct", "cpu%", 1);
	table_add_col(t, "irqs_per_s", "irq/s", 0);
	table_add_col(t, "drops_total", "drops", -1);
	return t;
}

static void compare_row(struct table *t, const char *scheme, const char *label,
			const struct results *r)
{
	table_row(t);
	table_str(t, scheme);
	if (label)
		table_str(t, label);
	table_dbl(t, r->offered_pps);
	table_dbl(t, r->replied_pps);
	table_dbl(t, r->lat_p50_us);
	table_dbl(t, r->lat_p99_us);
	table_dbl(t, 100.0 - r->cpu_pct[ACCT_IDLE]);
	table_dbl(t, r->irqs_per_s);
	table_u64(t, r->drops_total);
}

/* "a+b=v" as the overrides "a=v" and "b=v" into @out (SWEEP_MAX_LINKED
 * entries); returns how many. */
static size_t vary_sets(const struct vary *vary, size_t i, char out[][SET_LEN])
{
	const char *key = vary->key;
	size_t n = 0;

	while (*key && n < SWEEP_MAX_LINKED) {
		size_t len = strcspn(key, "+");

		snprintf(out[n++], SET_LEN, "%.*s=%s", (int)len, key, vary->val[i]);
		key += len + (key[len] == '+');
	}
	return n;
}

/* The overrides of preset @p into @out (RXL_SCHEME_MAX_SETS +
 * RXL_SCHEME_MAX_AXES entries): its scheme's, then each axis at the
 * preset's level.  Returns how many. */
static size_t preset_sets(const struct rxl_scheme_preset *p, char out[][SET_LEN])
{
	const struct rxl_scheme *sc = rxl_scheme_find(p->scheme);
	size_t n = 0;

	for (size_t i = 0; sc->sets[i]; i++)
		rxl_scheme_key(out[n++], SET_LEN, sc->sets[i], COMPARE_PORT);
	for (size_t k = 0; k < sc->n_axes; k++) {
		char key[64];

		rxl_scheme_key(key, sizeof(key), sc->axis[k].key, COMPARE_PORT);
		snprintf(out[n++], SET_LEN, "%s=%s", key, p->level[k]);
	}
	return n;
}

/* One (preset, value) point: @var_sets[0..n_var) set the value, @label
 * names it in the row (NULL: no label column). */
static int compare_point(struct table *t, const char *name, const struct rxl_scheme_preset *p,
			 const char *label, char var_sets[][SET_LEN], size_t n_var,
			 const char *const *sets, size_t n_sets,
			 const volatile sig_atomic_t *stop)
{
	char own[RXL_SCHEME_MAX_SETS + RXL_SCHEME_MAX_AXES][SET_LEN];
	size_t n_own = preset_sets(p, own), n = 0;
	const char *all[64];
	char err[1024];
	struct results r;

	for (size_t i = 0; i < n_sets && n < 48; i++)
		all[n++] = sets[i];
	for (size_t i = 0; i < n_own; i++)
		all[n++] = own[i];
	for (size_t i = 0; i < n_var; i++)
		all[n++] = var_sets[i];
	if (run_one(&r, name, all, n, stop, err, sizeof(err))) {
		fprintf(stderr, "rxlab: compare %s %s: %s\n", p->name, var_sets[0], err);
		return -1;
	}
	compare_row(t, p->name, label, &r);
	results_free(&r);
	return 0;
}

int compare_run(const char *name, const struct vary *rates, const char *const *sets,
		size_t n_sets, enum out_format fmt, const volatile sig_atomic_t *stop)
{
	static const char *const dflt[] = { "traffic.rate=10kpps", "traffic.rate=60kpps",
					    "traffic.rate=150kpps" };
	struct table *t = compare_table(rates);
	struct report *rep = report_new();
	size_t n_rates = rates ? rates->n : 3, n_var = 1;
	char set[SWEEP_MAX_LINKED][SET_LEN];
	int rc = 0;

	for (size_t k = 0; k < rxl_preset_count() && rc == 0; k++) {
		for (size_t i = 0; i < n_rates && rc == 0; i++) {
			if (rates)
				n_var = vary_sets(rates, i, set);
			else
				snprintf(set[0], sizeof(set[0]), "%s", dflt[i]);
			rc = compare_point(t, name, rxl_preset_at(k), rates ? rates->val[i] : NULL,
					   set, n_var, sets, n_sets, stop);
		}
	}
	report_add(rep, t);
	if (rc == 0)
		report_print(rep, stdout, fmt);
	if (rc == 0 && fmt == OUT_TABLE) {
		printf("\nschemes:\n");
		for (size_t k = 0; k < rxl_preset_count(); k++)
			printf("  %-16s %s\n", rxl_preset_at(k)->name, rxl_preset_at(k)->what);
	}
	report_free(rep);
	return rc ? 1 : 0;
}
