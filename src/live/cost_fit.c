/* cost_fit.c - per-wake-up and per-packet costs by least squares (see
 * cost_fit.h). */
#include "live/cost_fit.h"

#include <math.h>

/* The normal equations of min sum (w * wakes + p * pkts - cpu)^2; false
 * when they are (nearly) singular: the runs do not tell the costs apart. */
static bool solve(const double *cpu, const double *wakes, const double *pkts, int n, double *w,
		  double *p)
{
	double sww = 0, swp = 0, spp = 0, swc = 0, spc = 0, det;

	for (int i = 0; i < n; i++) {
		sww += wakes[i] * wakes[i];
		swp += wakes[i] * pkts[i];
		spp += pkts[i] * pkts[i];
		swc += wakes[i] * cpu[i];
		spc += pkts[i] * cpu[i];
	}
	det = sww * spp - swp * swp;
	if (!(det > 1e-9 * sww * spp))
		return false;
	*w = (swc * spp - spc * swp) / det;
	*p = (sww * spc - swp * swc) / det;
	return true;
}

struct cost_fit cost_fit(const double *cpu, const double *wakes, const double *pkts, int n,
			 int fast, int slow)
{
	struct cost_fit f = { 0, 0, false };

	if (solve(cpu, wakes, pkts, n, &f.wake_ns, &f.pkt_ns) && f.wake_ns >= 0 && f.pkt_ns >= 0)
		return f;
	f.fallback = true;
	f.pkt_ns = pkts[fast] > 0 ? cpu[fast] / pkts[fast] : 0;
	f.wake_ns = wakes[slow] > 0 ? (cpu[slow] - pkts[slow] * f.pkt_ns) / wakes[slow] : 0;
	if (!(f.wake_ns > 0))
		f.wake_ns = 0;
	return f;
}

/* The median of @v[0..n), 1 <= n <= COST_SPREAD_MAX (insertion sort of
 * a copy). */
static double median(const double *v, int n)
{
	double w[COST_SPREAD_MAX];

	for (int i = 0; i < n; i++) {
		int j = i;

		for (; j > 0 && w[j - 1] > v[i]; j--)
			w[j] = w[j - 1];
		w[j] = v[i];
	}
	return n % 2 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
}

struct cost_spread cost_spread(const double *v, int n)
{
	struct cost_spread s = { 0, 0, v[0], v[0], 0, n };
	double ss = 0;

	if (n > COST_SPREAD_MAX)
		n = s.n = COST_SPREAD_MAX;
	s.median = median(v, n);

	for (int i = 0; i < n; i++) {
		s.mean += v[i] / n;
		s.min = fmin(s.min, v[i]);
		s.max = fmax(s.max, v[i]);
	}
	for (int i = 0; i < n; i++)
		ss += (v[i] - s.mean) * (v[i] - s.mean);
	if (n > 1 && s.mean > 0)
		s.rsd_pct = 100.0 * sqrt(ss / (n - 1)) / s.mean;
	return s;
}
