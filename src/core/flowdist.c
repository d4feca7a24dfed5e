/* flowdist.c - uniform and Zipf flow popularity (see include/rxlab/flowdist.h).
 *
 * Notation of Hoermann and Derflinger (1996), as also used by Apache
 * Commons RNG's RejectionInversionZipfSampler:
 *   h(x)  = x^-s                               the unnormalised weight
 *   H(x)  = integral_1^x t^-s dt = (x^(1-s) - 1) / (1 - s)   (log x at s = 1)
 *   Hinv  its inverse
 * A uniform u in [H(1.5) - h(1), H(n + 0.5)) is inverted to x and rounded
 * to k; k is accepted when u >= H(k + 0.5) - h(k), which makes each k's
 * accepted measure exactly h(k).  The squeeze accepts most draws without
 * evaluating that bound.  H and Hinv are written through expm1(y)/y and
 * log1p(t)/t so that they stay accurate as s approaches 1, where the
 * closed forms divide 0 by 0.
 */
#include <stdint.h>

#include "rxlab/flowdist.h"
#include "rxlab/rng.h"

/* expm1(y) / y, 1 at y = 0. */
static double expm1_ratio(double y)
{
	return y == 0.0 ? 1.0 : det_expm1(y) / y;
}

/* log1p(t) / t, 1 at t = 0. */
static double log1p_ratio(double t)
{
	return t == 0.0 ? 1.0 : det_log1p(t) / t;
}

static double zipf_h(double s, double x)
{
	return det_exp(-s * det_log(x));
}

static double zipf_hint(double s, double x)
{
	double lx = det_log(x);

	return lx * expm1_ratio((1.0 - s) * lx);
}

/* t >= -1 always holds mathematically (u > H(0)); the clamp absorbs
 * rounding, and t = -1 gives x = 0, which rounds to flow 1. */
static double zipf_hint_inv(double s, double u)
{
	double t = u * (1.0 - s);

	if (t < -1.0)
		t = -1.0;
	return det_exp(u * log1p_ratio(t));
}

static void zipf_init(struct flowdist *d)
{
	double s = d->s;

	d->h_first = zipf_hint(s, 1.5) - 1.0;
	d->h_last = zipf_hint(s, (double)d->n + 0.5);
	d->squeeze = 2.0 - zipf_hint_inv(s, zipf_hint(s, 2.5) - zipf_h(s, 2.0));
}

int flowdist_init(struct flowdist *d, uint32_t n, enum flow_pop pop, double s)
{
	if (n < 1 || n > FLOWDIST_MAX_FLOWS)
		return -1;
	if (pop != FLOW_UNIFORM && pop != FLOW_ZIPF)
		return -1;
	if (pop == FLOW_ZIPF && !(s > 0.0 && s <= FLOWDIST_MAX_S))
		return -1;	/* also NaN */
	*d = (struct flowdist){ .n = n, .pop = pop, .s = s };
	if (pop == FLOW_ZIPF)
		zipf_init(d);
	return 0;
}

/* k = x rounded to the nearest integer in 1..n (NaN -> 1). */
static uint32_t zipf_round(double x, uint32_t n)
{
	double k = x + 0.5;

	if (!(k >= 1.0))
		return 1;
	if (k >= (double)n)
		return n;
	return (uint32_t)k;
}

uint32_t flowdist_zipf_draw(const struct flowdist *d, struct rng *r)
{
	for (;;) {
		double u = d->h_last + rng_unit(r) * (d->h_first - d->h_last);
		double x = zipf_hint_inv(d->s, u);
		uint32_t k = zipf_round(x, d->n);

		if ((double)k - x <= d->squeeze ||
		    u >= zipf_hint(d->s, (double)k + 0.5) - zipf_h(d->s, (double)k))
			return k - 1;
	}
}

void flowdist_free(struct flowdist *d)
{
	d->n = 0;
}
