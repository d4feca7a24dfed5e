/* default_job.c - receive livelock, three kernels, one command. */
#include "experiment/default_job.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/plot.h"
#include "experiment/sweep.h"
#include "report/rowfile.h"
#include "report/sim_report.h"

/* From well below the classic kernel's saturation (~150 kpps on the
 * PIII 933 profile) to line rate of 64-byte frames on 1 Gb/s. */
const char *const livelock_rates =
	"traffic.rate=20kpps,50kpps,100kpps,150kpps,200kpps,250kpps,300kpps,350kpps,"
	"400kpps,500kpps,600kpps,800kpps,1000kpps,1200kpps,1488kpps";

static const char *const kernels[] = { "classic", "isr-loop", "napi" };

/* Peak forwarding rate and the rate at the highest offered load, from the
 * table column "forwarded_pps" of rows [first, first+n). */
static void verdict(const char *kernel, const struct point_brief *b, size_t n)
{
	size_t peak = 0;

	for (size_t i = 1; i < n; i++)
		if (b[i].forwarded_pps > b[peak].forwarded_pps)
			peak = i;
	printf("%-8s peak %.0f pps forwarded at %.0f pps offered; at %.0f pps offered it "
	       "forwards %.0f pps (%.0f%% of its peak)\n", kernel, b[peak].forwarded_pps,
	       b[peak].offered_pps, b[n - 1].offered_pps, b[n - 1].forwarded_pps,
	       b[peak].forwarded_pps > 0 ? 100.0 * b[n - 1].forwarded_pps / b[peak].forwarded_pps : 0);
}

/* Where each point goes: the kernel's table, the verdict, the figures. */
struct job_sink {
	struct table *t, *fig;
	bool wide;
	struct point_brief *brief;
};

static void emit_point(void *ctx, size_t p, const struct results *r)
{
	struct job_sink *s = ctx;

	table_row(s->t);
	summary_row(s->t, r, s->wide);
	s->brief[p] = point_brief_of(r);
	table_row(s->fig);
	summary_row(s->fig, r, true);
	metrics_extra_row(s->fig, r);
}

static int run_kernel(struct job_sink *sink, const char *kernel, const char *const *sets,
		      size_t n_sets, struct vary *rates, size_t jobs,
		      const volatile sig_atomic_t *stop)
{
	const char *all[64];
	char set[64], err[1024];
	size_t n = 0;
	struct sweep_plan pl = { .name = "livelock", .sets = all, .vary = rates, .n_vary = 1,
				 .jobs = jobs, .stop = stop };

	for (size_t i = 0; i < n_sets && n < 62; i++)
		all[n++] = sets[i];
	snprintf(set, sizeof(set), "host.rxpath=%s", kernel);
	all[n++] = set;
	pl.n_sets = n;
	if (sweep_exec(&pl, emit_point, sink, err, sizeof(err))) {
		fprintf(stderr, "rxlab: %s\n", err);
		return -1;
	}
	return 0;
}

/* The figures of @fig into @dir; the folder is named last, on stdout with
 * the text tables, on stderr with CSV or JSON (stdout stays one document).
 * A failure comes after the tables, and is the job's exit status (1 gnuplot
 * failed, 2 the folder cannot be written): the user asked for figures. */
static int figures(const struct table *fig, const char *dir, enum out_format fmt)
{
	struct rowfile rf;
	const char *keys[128];
	char err[1024];
	FILE *say = fmt == OUT_TABLE ? stdout : stderr;
	bool drawn = false;
	int rc;

	for (size_t i = 0; i < table_ncols(fig) && i < 128; i++)
		keys[i] = table_col_key(fig, i);
	rowfile_init(&rf, OUT_CSV);
	rowfile_set_keys(&rf, keys, table_ncols(fig));
	for (size_t r = 0; r < table_nrows(fig); r++)
		rowfile_add_table_row(&rf, fig, r);
	fflush(stdout);
	rc = plot_rowfile(&rf, dir, "Receive livelock: PIII 933 + e1000, IP forwarding of 64 B "
			  "frames", &drawn, err, sizeof(err));
	if (rc)
		fprintf(stderr, "rxlab: no figures: %s\n", err);
	else if (drawn)
		fprintf(say, "%sfigures: %s/ (throughput, interrupts, pkts-per-irq, latency, cpu-*, "
			"latency-cdf-*: .png and .svg; data/ and .gp scripts to redraw them)\n",
			fmt == OUT_TABLE ? "\n" : "rxlab: ", dir);
	else
		fprintf(say, "%sfigures: %s/ (data/ and .gp scripts only: gnuplot is not "
			"installed)\n", fmt == OUT_TABLE ? "\n" : "rxlab: ", dir);
	rowfile_free(&rf);
	return rc;
}

int default_job(enum out_format fmt, const char *const *sets, size_t n_sets, size_t jobs,
		const char *plot_dir, const volatile sig_atomic_t *stop)
{
	struct vary rates;
	struct report *rep;
	struct table *all = NULL;
	struct point_brief brief[3][SWEEP_MAX_VALUES / 64];
	struct job_sink sink = { .wide = fmt != OUT_TABLE };
	char err[512], title[128];
	int rc = 0;

	if (vary_parse(&rates, livelock_rates, err, sizeof(err)) || rates.n > SWEEP_MAX_VALUES / 64)
		return fprintf(stderr, "rxlab: %s\n", err), 1;
	if (plot_dir && plot_check_dir(plot_dir, err, sizeof(err))) {
		fprintf(stderr, "rxlab: --plot: %s; choose another DIR, or --no-plot for no "
			"figures\n", err);
		vary_free(&rates);
		return 2;
	}
	rep = report_new();
	sink.fig = summary_table_new("livelock", NULL, NULL, 0, true);
	metrics_extra_cols(sink.fig);
	if (fmt != OUT_TABLE)
		all = summary_table_new("livelock", "Receive livelock", NULL, 0, true);
	for (size_t k = 0; k < 3 && rc == 0; k++) {
		sink.t = all;
		if (!sink.t) {
			snprintf(title, sizeof(title), "Receive livelock: %s kernel "
				 "(PIII 933 + e1000, IP forwarding of 64 B frames)", kernels[k]);
			sink.t = summary_table_new(kernels[k], title, NULL, 0, false);
		}
		sink.brief = brief[k];
		rc = run_kernel(&sink, kernels[k], sets, n_sets, &rates, jobs, stop);
		if (sink.t != all)
			report_add(rep, sink.t);
	}
	if (all)
		report_add(rep, all);
	if (rc == 0)
		report_print(rep, stdout, fmt);
	if (rc == 0 && fmt == OUT_TABLE) {
		printf("\n");
		for (size_t k = 0; k < 3; k++)
			verdict(kernels[k], brief[k], rates.n);
	}
	if (rc == 0 && plot_dir && !(stop && *stop))
		rc = figures(sink.fig, plot_dir, fmt);
	else if (rc)
		rc = 1;
	table_free(sink.fig);
	report_free(rep);
	vary_free(&rates);
	return rc;
}
