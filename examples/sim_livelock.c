/* sim_livelock.c - the receive-livelock figure, from a program that embeds
 * the simulator (include/rxlab/sim.h, linked with rxlab_sim only).
 *
 * For each receive path and each offered rate it loads the built-in
 * "livelock" scenario (a PIII 933 router forwarding 64 B frames between two
 * e1000 ports) with two overrides, runs it, and prints one row with a bar
 * of the forwarded rate; then each path's peak and what is left of it at
 * the highest rate: the classic kernel's forwarding collapses under
 * overload, NAPI's does not (Mogul & Ramakrishnan, USENIX 1996).
 *
 * Usage: sim_livelock [-S SCENARIO] [-p RXPATH,...] [-r RATE,...] [-s KEY=VALUE]...
 *   -S  scenario file or built-in name (default livelock)
 *   -p  receive paths (default classic,napi; also isr-loop, isr-while, bsd-poll)
 *   -r  offered rates with units (default 20kpps,...,1488kpps)
 *   -s  any other override, applied before the path and the rate
 * SIGINT stops the run in progress (it is reported, marked partial) and
 * the rest.  Exit status 0, 1 when a run failed, 2 on bad arguments.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rxlab/sim.h"

#define MAX_LIST 32
#define MAX_SETS 64
#define BAR_WIDTH 40

static volatile sig_atomic_t stop;

static void on_sigint(int sig)
{
	(void)sig;
	stop = 1;
}

struct args {
	const char *scenario;
	char path_buf[256], rate_buf[512]; /* -p and -r, split in place */
	char *paths[MAX_LIST], *rates[MAX_LIST];
	size_t n_paths, n_rates;
	const char *sets[MAX_SETS];
	size_t n_sets;                  /* the user's; two more slots per run */
};

/* What one receive path did over the rates. */
struct curve {
	double fwd[MAX_LIST], offered[MAX_LIST], rx_irqs[MAX_LIST];
	bool partial[MAX_LIST];
	size_t n;
};

static int usage(void)
{
	fprintf(stderr, "usage: sim_livelock [-S SCENARIO] [-p RXPATH,...] [-r RATE,...]"
		" [-s KEY=VALUE]...\n");
	return 2;
}

/* Split @s (modified) at commas into @out.  The count, or 0 if too many. */
static size_t split(char *s, char **out)
{
	size_t n = 0;

	for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
		if (n == MAX_LIST)
			return 0;
		out[n++] = tok;
	}
	return n;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	const char *paths = "classic,napi";
	const char *rates = "20kpps,50kpps,100kpps,150kpps,200kpps,300kpps,400kpps,600kpps,"
			    "1Mpps,1488kpps";
	int c;

	a->scenario = "livelock";
	while ((c = getopt(argc, argv, "S:p:r:s:")) != -1) {
		if (c == 'S')
			a->scenario = optarg;
		else if (c == 'p')
			paths = optarg;
		else if (c == 'r')
			rates = optarg;
		else if (c == 's' && a->n_sets + 2 < MAX_SETS)
			a->sets[a->n_sets++] = optarg;
		else
			return -1;
	}
	snprintf(a->path_buf, sizeof(a->path_buf), "%s", paths);
	snprintf(a->rate_buf, sizeof(a->rate_buf), "%s", rates);
	a->n_paths = split(a->path_buf, a->paths);
	a->n_rates = split(a->rate_buf, a->rates);
	return optind == argc && a->n_paths && a->n_rates ? 0 : -1;
}

/* The scenario with the user's overrides, then @path and @rate.  The
 * caller frees it; NULL with the loader's message printed. */
static struct rxl_scenario *load_point(struct args *a, const char *path, const char *rate)
{
	char p[64], r[64], err[512];
	struct rxl_scenario *scn;

	snprintf(p, sizeof(p), "host.rxpath=%s", path);
	snprintf(r, sizeof(r), "traffic.rate=%s", rate);
	a->sets[a->n_sets] = p;
	a->sets[a->n_sets + 1] = r;
	scn = rxl_scenario_load(a->scenario, a->sets, a->n_sets + 2, err, sizeof(err));
	if (!scn)
		fprintf(stderr, "sim_livelock: %s\n", err);
	return scn;
}

static void print_title(const struct rxl_scenario *scn)
{
	const struct scenario *s = rxl_scenario_get(scn);

	printf("Forwarded packets/s vs offered: %s, %u B frames, %s\n", s->name,
	       s->traffic[0].frame_bytes,
	       s->profile.description[0] ? s->profile.description : s->profile.name);
	printf("%-9s %10s %10s %10s\n", "rxpath", "offered/s", "fwd/s", "rx-irq/s");
}

/* Run every rate of @path into @cv.  0, 1 (a run failed) or 2 (bad input). */
static int run_path(struct args *a, const char *path, struct curve *cv, bool title)
{
	char err[512];

	for (cv->n = 0; cv->n < a->n_rates && !stop; cv->n++) {
		struct rxl_scenario *scn = load_point(a, path, a->rates[cv->n]);
		struct results r;
		int rc;

		if (!scn)
			return 2;
		if (title && cv->n == 0)
			print_title(scn);
		rc = rxl_sim_run(scn, &stop, &r, err, sizeof(err));
		rxl_scenario_free(scn);
		if (rc) {
			fprintf(stderr, "sim_livelock: %s\n", err);
			return 1;
		}
		cv->offered[cv->n] = r.offered_pps;
		cv->fwd[cv->n] = r.forwarded_pps;
		cv->rx_irqs[cv->n] = r.rx_irqs_per_s;
		cv->partial[cv->n] = r.partial;
		results_free(&r);
	}
	return 0;
}

static void print_rows(const char *path, const struct curve *cv, double scale)
{
	char bar[BAR_WIDTH + 1];

	for (size_t i = 0; i < cv->n; i++) {
		size_t n = scale > 0 ? (size_t)(cv->fwd[i] / scale * BAR_WIDTH + 0.5) : 0;

		memset(bar, '#', n);
		bar[n] = '\0';
		printf("%-9s %10.0f %10.0f %10.0f  |%s%s\n", path, cv->offered[i], cv->fwd[i],
		       cv->rx_irqs[i], bar, cv->partial[i] ? " (partial)" : "");
	}
}

/* "classic  peak 150006 pps forwarded at 150000 pps offered; at 1488000
 * pps offered it forwards 0 pps (0% of its peak)", as `rxlab` says it. */
static void print_summary(const char *path, const struct curve *cv)
{
	size_t top = 0, last = cv->n - 1;

	for (size_t i = 1; i < cv->n; i++)
		if (cv->fwd[i] > cv->fwd[top])
			top = i;
	printf("%-8s peak %.0f pps forwarded at %.0f pps offered; at %.0f pps offered it"
	       " forwards %.0f pps (%.0f%% of its peak)\n", path, cv->fwd[top], cv->offered[top],
	       cv->offered[last], cv->fwd[last],
	       cv->fwd[top] > 0 ? 100 * cv->fwd[last] / cv->fwd[top] : 0);
}

int main(int argc, char **argv)
{
	struct curve cv[MAX_LIST];
	struct args a = { 0 };
	double scale = 0;
	int rc = 0;

	if (parse_args(argc, argv, &a))
		return usage();
	signal(SIGINT, on_sigint);
	for (size_t p = 0; p < a.n_paths && rc == 0; p++)
		rc = run_path(&a, a.paths[p], &cv[p], p == 0);
	if (rc)
		return rc;
	for (size_t p = 0; p < a.n_paths; p++)
		for (size_t i = 0; i < cv[p].n; i++)
			scale = cv[p].fwd[i] > scale ? cv[p].fwd[i] : scale;
	for (size_t p = 0; p < a.n_paths; p++)
		print_rows(a.paths[p], &cv[p], scale);
	printf("\n");
	for (size_t p = 0; p < a.n_paths; p++)
		if (cv[p].n)
			print_summary(a.paths[p], &cv[p]);
	return 0;
}
