/* tune_load_args.c - the robust-goal options of `rxlab tune` (see
 * tune_load_args.h): --load, --load-points, --speeds, --max-loss.
 */
#include "cli/tune_load_args.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"

#define LOAD_ACCEPTED "accepted A..B (log-spaced points, e.g. 1kpps..200kpps), a list " \
		      "A,B,... of 2..16 rates, or diurnal:PEAK; each rate 1pps..1000Mpps " \
		      "(pps, kpps, Mpps)"

/* diurnal:PEAK: a day's load as shares of its peak (night trough, early
 * morning, morning, midday, evening, peak). */
static const double diurnal_share[] = { 0.05, 0.15, 0.35, 0.6, 0.85, 1.0 };
#define N_DIURNAL (sizeof(diurnal_share) / sizeof(diurnal_share[0]))

static int load_error(const char *what, const char *v)
{
	fprintf(stderr, "rxlab: tune: --load %s: %s; " LOAD_ACCEPTED "\n", v, what);
	return 2;
}

/* One rate of --load: "200kpps" into frames/s; @why is "" or the reason. */
static int one_rate(const char *text, size_t len, double *out, char *why, size_t whylen)
{
	char word[48];
	uint64_t pps;

	why[0] = '\0';
	if (len == 0 || len >= sizeof(word))
		return snprintf(why, whylen, len ? "a rate too long" : "an empty rate"), -1;
	snprintf(word, sizeof(word), "%.*s", (int)len, text);
	if (unit_parse(UNIT_PPS, word, &pps, why, whylen) != UNIT_OK)
		return -1;
	if (pps < 1 || pps > 1000000000ULL)
		return snprintf(why, whylen, "'%s' is out of range", word), -1;
	*out = (double)pps;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A..B in @n log-spaced points, both ends included, rounded to 1 pps. */
static int load_range(struct tune_request *r, const char *v, const char *dots, size_t n)
{
	double a, b;
	char why[160];

	if (one_rate(v, (size_t)(dots - v), &a, why, sizeof(why)) ||
	    one_rate(dots + 2, strlen(dots + 2), &b, why, sizeof(why)))
		return load_error(why, v);
	if (!(a < b))
		return load_error("the first rate must be below the second", v);
	for (size_t i = 0; i < n; i++) {
		r->loads[i] = i + 1 == n ? b : round(a * pow(b / a, (double)i / (double)(n - 1)));
		if (i && r->loads[i] <= r->loads[i - 1])
			return load_error("two points round to the same rate (fewer --load-points, "
					  "or a wider range)", v);
	}
	r->n_loads = n;
	return 0;
}

/* A,B,...: 2..16 distinct rates, sorted. */
static int load_list(struct tune_request *r, const char *v)
{
	char why[160];
	size_t n = 0;

	for (const char *p = v;; p++) {
		size_t len = strcspn(p, ",");

		if (n == TUNE_MAX_LOADS)
			return load_error("more than 16 rates", v);
		if (one_rate(p, len, &r->loads[n++], why, sizeof(why)))
			return load_error(why, v);
		p += len;
		if (!*p)
			break;
	}
	if (n < 2)
		return load_error("one rate is the scenario's own load: give --set traffic.rate=X, "
				  "or at least two rates", v);
	qsort(r->loads, n, sizeof(r->loads[0]), cmp_double);
	for (size_t i = 1; i < n; i++)
		if (r->loads[i] == r->loads[i - 1])
			return load_error("a rate is named twice", v);
	r->n_loads = n;
	return 0;
}

/* diurnal:PEAK: the shares of diurnal_share[] of PEAK, rounded to 1 pps. */
static int load_diurnal(struct tune_request *r, const char *v)
{
	const char *peak = v + strlen("diurnal:");
	double p;
	char why[160];

	if (one_rate(peak, strlen(peak), &p, why, sizeof(why)))
		return load_error(why, v);
	for (size_t i = 0; i < N_DIURNAL; i++) {
		r->loads[i] = i + 1 == N_DIURNAL ? p : round(p * diurnal_share[i]);
		if (r->loads[i] < 1 || (i && r->loads[i] <= r->loads[i - 1]))
			return load_error("below 10pps the lowest share rounds to 0pps (diurnal:PEAK "
					  "needs a PEAK of at least 10pps)", v);
	}
	r->n_loads = N_DIURNAL;
	return 0;
}

/* --load-points N: 2..16. */
static int points_of(const char *text, size_t *n)
{
	char *end;
	long v = strtol(text, &end, 10);

	if (!*text || *end || v < 2 || v > TUNE_MAX_LOADS) {
		fprintf(stderr, "rxlab: tune: --load-points takes a number of load points in "
			"2..16, not %s\n", text);
		return 2;
	}
	*n = (size_t)v;
	return 0;
}

/* "0.5": a trace-speed as --speed takes it, 0.001..1000, read as a time
 * in us so that it takes the units' grammar (1 ns grain: 0.001). */
static bool speed_value(const char *text, size_t len, uint64_t *milli)
{
	char speed[48];

	if (len == 0 || len > 16)
		return false;
	snprintf(speed, sizeof(speed), "%.*sus", (int)len, text);
	return unit_parse(UNIT_TIME_NS, speed, milli, NULL, 0) == UNIT_OK && *milli >= 1 &&
	       *milli <= 1000000;
}

/* --speeds 0.5,1,2: 2..16 distinct speeds, ascending as given. */
static int set_speeds(struct tune_load_opts *lo, struct tune_request *r, const char *v)
{
	uint64_t milli, prev = 0;
	size_t n = 0;

	for (const char *p = v;; p++) {
		size_t len = strcspn(p, ",");

		if (n == TUNE_MAX_LOADS || !speed_value(p, len, &milli) || milli <= prev) {
			fprintf(stderr, "rxlab: tune: --speeds %s: accepted 2..16 trace-speeds in "
				"increasing order, each a number 0.001..1000 (2 plays the trace "
				"twice as fast), e.g. 0.5,1,2\n", v);
			return 2;
		}
		snprintf(lo->speed[n], sizeof(lo->speed[n]), "%.*s", (int)len, p);
		r->speeds[n] = lo->speed[n];
		n++;
		prev = milli;
		p += len;
		if (!*p)
			break;
	}
	if (n < 2) {
		fprintf(stderr, "rxlab: tune: --speeds %s: one speed is --speed %s; give at least "
			"two, e.g. 0.5,1,2\n", v, v);
		return 2;
	}
	r->n_speeds = n;
	return 0;
}

/* --max-loss 0.1%, 0.5, 0: a share of the frames in 0..100 %. */
static int set_max_loss(struct tune_request *r, const char *v)
{
	char *end;
	double x = strtod(v, &end);

	if (end != v && *end == '%')
		end++;
	if (!*v || end == v || *end || !isfinite(x) || x < 0.0 || x > 100.0 || *v == '-' ||
	    *v == '+' || *v == ' ') {
		fprintf(stderr, "rxlab: tune: --max-loss takes a share of the frames in "
			"0..100%% (e.g. 0.1%%, 0.5, 0), not %s\n", v);
		return 2;
	}
	r->max_loss_pct = x;
	return 0;
}

int tune_load_opt(struct tune_load_opts *lo, struct tune_request *r, const char *name,
		  const char *v)
{
	if (!strcmp(name, "--load")) {
		lo->load = v;
		return 0;
	}
	if (!strcmp(name, "--load-points")) {
		lo->points = v;
		return 0;
	}
	if (!strcmp(name, "--speeds"))
		return set_speeds(lo, r, v);
	if (!strcmp(name, "--max-loss"))
		return set_max_loss(r, v);
	return 1;
}

int tune_load_finish(struct tune_load_opts *lo, struct tune_request *r, bool trace)
{
	size_t n = 5;
	const char *dots;

	if (lo->load && trace) {
		fprintf(stderr, "rxlab: tune: --load sets a scenario's offered rate; a trace plays at "
			"its own rate: give --speeds (e.g. 0.5,1,2)\n");
		return 2;
	}
	if (r->n_speeds && !trace) {
		fprintf(stderr, "rxlab: tune: --speeds applies to a trace (.pcap, .pcapng, .cap or "
			".csv) only; a scenario takes --load A..B\n");
		return 2;
	}
	if (r->n_speeds && r->speed) {
		fprintf(stderr, "rxlab: tune: give --speed or --speeds, not both\n");
		return 2;
	}
	if (lo->points && (!lo->load || !strstr(lo->load, ".."))) {
		fprintf(stderr, "rxlab: tune: --load-points applies to a range --load A..B only\n");
		return 2;
	}
	if (lo->points && points_of(lo->points, &n))
		return 2;
	if (!lo->load)
		return 0;
	if (!strncmp(lo->load, "diurnal:", strlen("diurnal:")))
		return load_diurnal(r, lo->load);
	dots = strstr(lo->load, "..");
	return dots ? load_range(r, lo->load, dots, n) : load_list(r, lo->load);
}
