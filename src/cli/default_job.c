/* default_job.c - receive livelock, three kernels, one command. */
#include "cli/default_job.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/sweep.h"
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

static int run_kernel(struct table *t, const char *kernel, const char *const *sets,
		      size_t n_sets, struct vary *rates, size_t jobs, bool wide,
		      struct point_brief *brief)
{
	struct vary v[1] = { *rates };
	const char *all[64];
	char set[64], err[1024];
	size_t n = 0;

	for (size_t i = 0; i < n_sets && n < 62; i++)
		all[n++] = sets[i];
	snprintf(set, sizeof(set), "host.rxpath=%s", kernel);
	all[n++] = set;
	if (sweep_run(t, "livelock", all, n, v, 1, jobs, wide, brief, err, sizeof(err))) {
		fprintf(stderr, "rxlab: %s\n", err);
		return -1;
	}
	return 0;
}

int default_job(enum out_format fmt, const char *const *sets, size_t n_sets, size_t jobs)
{
	struct vary rates;
	struct report *rep = report_new();
	struct table *all = NULL;
	struct point_brief brief[3][SWEEP_MAX_VALUES / 64];
	char err[512], title[128];
	int rc = 0;

	if (vary_parse(&rates, livelock_rates, err, sizeof(err)) || rates.n > SWEEP_MAX_VALUES / 64)
		return fprintf(stderr, "rxlab: %s\n", err), 1;
	rates.hidden = true; /* offered_pps already shows the rate */
	if (fmt != OUT_TABLE)
		all = summary_table_new("livelock", "Receive livelock", NULL, 0, true);
	for (size_t k = 0; k < 3 && rc == 0; k++) {
		struct table *t = all;

		if (!t) {
			snprintf(title, sizeof(title), "Receive livelock: %s kernel "
				 "(PIII 933 + e1000, IP forwarding of 64 B frames)", kernels[k]);
			t = summary_table_new(kernels[k], title, NULL, 0, false);
		}
		rc = run_kernel(t, kernels[k], sets, n_sets, &rates, jobs, fmt != OUT_TABLE, brief[k]);
		if (t != all)
			report_add(rep, t);
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
	report_free(rep);
	vary_free(&rates);
	return rc ? 1 : 0;
}
