/* compare.c - the moderation catalogue side by side.
 *
 * Each scheme is a list of scenario overrides, written with the same keys a
 * user would type; all schemes run on the same arrivals (the seed is the
 * scenario's), so differences come from the moderation alone.
 */
#include "experiment/compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/results.h"

#define MAX_SCHEME_SETS 8

struct scheme {
	const char *name, *what;
	const char *sets[MAX_SCHEME_SETS];
};

static const struct scheme schemes[] = {
	{ "per-packet-irq", "classic kernel, an interrupt per frame",
	  { "host.rxpath=classic", NULL } },
	{ "static-coalesce", "NAPI + rx-usecs 50, rx-frames 32",
	  { "nic.eth0.rx-usecs=50", "nic.eth0.rx-frames=32", NULL } },
	{ "dim", "NAPI + adaptive-rx (Linux DIM)", { "nic.eth0.adaptive-rx=dim", NULL } },
	{ "e1000-itr3", "NAPI + InterruptThrottleRate=3", { "nic.eth0.InterruptThrottleRate=3", NULL } },
	{ "napi", "NAPI, no moderation", { NULL } },
	{ "napi-defer", "NAPI + napi_defer_hard_irqs 2, gro_flush_timeout 20us",
	  { "nic.eth0.napi_defer_hard_irqs=2", "nic.eth0.gro_flush_timeout=20us", NULL } },
	{ "busy-poll", "NAPI + SO_BUSY_POLL 50us", { "apps.busy_poll=50us", NULL } },
	{ "suspend", "prefer busy poll + defer 100/20us + irq-suspend-timeout 20ms",
	  { "apps.prefer_busy_poll=on", "apps.busy_poll=50us", "nic.eth0.napi_defer_hard_irqs=100",
	    "nic.eth0.gro_flush_timeout=20us", "nic.eth0.irq-suspend-timeout=20ms", NULL } },
	{ "bsd-poll", "FreeBSD DEVICE_POLLING, HZ 1000, user_frac 50",
	  { "host.rxpath=bsd-poll", NULL } },
};

#define N_SCHEMES (sizeof(schemes) / sizeof(schemes[0]))

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
static size_t vary_sets(const struct vary *vary, size_t i, char out[][160])
{
	const char *key = vary->key;
	size_t n = 0;

	while (*key && n < SWEEP_MAX_LINKED) {
		size_t len = strcspn(key, "+");

		snprintf(out[n++], 160, "%.*s=%s", (int)len, key, vary->val[i]);
		key += len + (key[len] == '+');
	}
	return n;
}

/* One (scheme, value) point: @var_sets[0..n_var) set the value, @label
 * names it in the row (NULL: no label column). */
static int compare_point(struct table *t, const char *name, const struct scheme *sc,
			 const char *label, char var_sets[][160], size_t n_var,
			 const char *const *sets, size_t n_sets,
			 const volatile sig_atomic_t *stop)
{
	const char *all[64];
	char err[1024];
	struct results r;
	size_t n = 0;

	for (size_t i = 0; i < n_sets && n < 48; i++)
		all[n++] = sets[i];
	for (size_t i = 0; sc->sets[i]; i++)
		all[n++] = sc->sets[i];
	for (size_t i = 0; i < n_var; i++)
		all[n++] = var_sets[i];
	if (run_one(&r, name, all, n, stop, err, sizeof(err))) {
		fprintf(stderr, "rxlab: compare %s %s: %s\n", sc->name, var_sets[0], err);
		return -1;
	}
	compare_row(t, sc->name, label, &r);
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
	char set[SWEEP_MAX_LINKED][160];
	int rc = 0;

	for (size_t k = 0; k < N_SCHEMES && rc == 0; k++) {
		for (size_t i = 0; i < n_rates && rc == 0; i++) {
			if (rates)
				n_var = vary_sets(rates, i, set);
			else
				snprintf(set[0], sizeof(set[0]), "%s", dflt[i]);
			rc = compare_point(t, name, &schemes[k], rates ? rates->val[i] : NULL, set,
					   n_var, sets, n_sets, stop);
		}
	}
	report_add(rep, t);
	if (rc == 0)
		report_print(rep, stdout, fmt);
	if (rc == 0 && fmt == OUT_TABLE) {
		printf("\nschemes:\n");
		for (size_t k = 0; k < N_SCHEMES; k++)
			printf("  %-16s %s\n", schemes[k].name, schemes[k].what);
	}
	report_free(rep);
	return rc ? 1 : 0;
}
