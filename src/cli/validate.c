/* validate.c - the seed experiments' reported figures beside simulated ones.
 *
 * Each run is a built-in scenario in scenarios/seeds/; each figure names
 * the run it comes from and how to read it off the results.  Runs are done
 * once however many figures read them.
 */
#include "cli/validate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/builtin.h"
#include "cli/sweep.h"
#include "sim/results.h"

#define MAX_RUN_SETS 8

struct seed_run {
	const char *scenario;
	const char *sets[MAX_RUN_SETS];
};

/* ---- seed 001: Olsson's NAPI router (PIII 933, 2 x e1000) ---- */

static const struct nic_result *nic_named(const struct results *r, const char *name)
{
	for (uint16_t i = 0; i < r->n_nics; i++)
		if (!strcmp(r->nic[i].name, name))
			return &r->nic[i];
	return NULL;
}

static double thread_s(const struct results *r, const char *name)
{
	for (uint16_t i = 0; i < r->n_threads; i++)
		if (!strcmp(r->thr[i].name, name))
			return (double)r->thr[i].cpu_ns / 1e9;
	return NAN;
}

#define NIC(r, name, field) (nic_named((r), (name)) ? (double)nic_named((r), (name))->c.field : NAN)

static double s001_rx_ok(const struct results *r) { return NIC(r, "eth0", rx_ok); }
static double s001_tx_ok(const struct results *r) { return NIC(r, "eth1", tx_ok); }
static double s001_rx_ovr(const struct results *r) { return NIC(r, "eth0", rx_ovr); }
static double s001_rx_irqs(const struct results *r) { return NIC(r, "eth0", rx_irqs); }
static double s001_tx_irqs(const struct results *r) { return NIC(r, "eth1", irqs); }
static double s001_ksoftirqd(const struct results *r) { return thread_s(r, "ksoftirqd/0"); }

/* Forwarding rate while the 10 M frames at 890 kpps last (11.24 s). */
static double s001_fwd_pps(const struct results *r)
{
	return NIC(r, "eth1", tx_ok) / (10e6 / 890e3);
}

static const struct seed_run runs[] = {
	{ "seeds/001-napi-router", { NULL } },
};

static const struct figure figures[] = {
	{ "001", "eth0 RX-OK of 10 M frames offered at 890 kpps", 4031309, CHECK_RATIO, 0, 0,
	  s001_rx_ok },
	{ "001", "eth1 TX-OK (frames routed)", 4031305, CHECK_RATIO, 0, 0, s001_tx_ok },
	{ "001", "eth0 RX-OVR (overruns at the NIC)", 5968699, CHECK_RATIO, 0, 0, s001_rx_ovr },
	{ "001", "forwarding rate during the flood, pps (\"about 350.000 p/s\")", 350000,
	  CHECK_RATIO, 0, 0, s001_fwd_pps },
	{ "001", "RX interrupts over the run (\"only 24\"): at most 100", 24, CHECK_AT_MOST, 100, 0,
	  s001_rx_irqs },
	{ "001", "interrupts of the TX port over the run (mitigated)", 80652, CHECK_RATIO, 0, 0,
	  s001_tx_irqs },
	{ "001", "ksoftirqd CPU time over the run, s (ps TIME 0:11)", 11, CHECK_RATIO, 0, 0,
	  s001_ksoftirqd },
};

#define N_RUNS (sizeof(runs) / sizeof(runs[0]))
#define N_FIGURES (sizeof(figures) / sizeof(figures[0]))

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

static bool wanted(const struct figure *f, const char *seed)
{
	return !seed || !strncmp(f->seed, seed, strlen(seed));
}

static struct table *figure_table(void)
{
	struct table *t = table_new("validate", "Seed experiments: reported vs simulated");

	table_add_col(t, "seed", "seed", -1);
	table_add_col(t, "figure", "figure", -1);
	table_add_col(t, "reported", "reported", 2);
	table_add_col(t, "simulated", "simulated", 2);
	table_add_col(t, "ratio", "ratio", 3);
	table_add_col(t, "ok", "ok", -1);
	return t;
}

static void figure_row(struct table *t, const struct figure_result *o)
{
	table_row(t);
	table_str(t, o->fig->seed);
	table_str(t, o->fig->name);
	table_dbl(t, o->fig->reported);
	table_dbl(t, o->simulated);
	table_dbl(t, o->ratio);
	table_bool(t, o->ok);
}

/* Run @run with @sets and judge every wanted figure that reads it. */
static int run_figures(size_t run, const char *seed, const char *const *sets, size_t n_sets,
		       struct table *t, size_t *n, size_t *n_ok)
{
	const char *all[MAX_RUN_SETS + 32];
	size_t k = 0;
	struct results r;
	char err[1024];

	for (size_t i = 0; runs[run].sets[i]; i++)
		all[k++] = runs[run].sets[i];
	for (size_t i = 0; i < n_sets && k < MAX_RUN_SETS + 32; i++)
		all[k++] = sets[i];
	if (run_one(&r, runs[run].scenario, all, k, err, sizeof(err))) {
		fprintf(stderr, "rxlab: validate: %s\n", err);
		return -1;
	}
	for (size_t f = 0; f < N_FIGURES; f++) {
		struct figure_result o;

		if ((size_t)figures[f].run != run || !wanted(&figures[f], seed))
			continue;
		o = figure_judge(&figures[f], figures[f].measure(&r));
		figure_row(t, &o);
		(*n)++;
		*n_ok += o.ok;
	}
	results_free(&r);
	return 0;
}

static bool run_wanted(size_t run, const char *seed)
{
	for (size_t f = 0; f < N_FIGURES; f++)
		if ((size_t)figures[f].run == run && wanted(&figures[f], seed))
			return true;
	return false;
}

int validate_run(const char *seed, const char *const *sets, size_t n_sets, enum out_format fmt)
{
	struct report *rep = report_new();
	struct table *t = figure_table();
	size_t n = 0, n_ok = 0;
	int rc = 0;

	for (size_t run = 0; run < N_RUNS && rc == 0; run++)
		if (run_wanted(run, seed))
			rc = run_figures(run, seed, sets, n_sets, t, &n, &n_ok);
	report_add(rep, t);
	if (rc == 0 && n == 0) {
		fprintf(stderr, "rxlab: validate: no figures for seed '%s'; try 'rxlab seeds'\n", seed);
		rc = -1;
	}
	if (rc == 0) {
		report_print(rep, stdout, fmt);
		if (fmt == OUT_TABLE)
			printf("\n%zu of %zu figures within tolerance\n", n_ok, n);
	}
	report_free(rep);
	return rc ? 2 : n_ok == n ? 0 : 1;
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
