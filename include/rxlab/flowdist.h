/* flowdist.h - which flow (connection) of a traffic source a frame belongs
 * to: uniform or Zipf popularity over n flows (pure; see docs/rss.md).
 *
 * Zipf is drawn by rejection-inversion (Hoermann and Derflinger, "Rejection-
 * inversion to generate variates from monotone discrete distributions",
 * ACM TOMACS 6(3), 1996): invert the integral of x^-s, round to the nearest
 * flow, accept or retry.  It needs no table, so the struct is a few numbers
 * whatever n is -- the core allocates nothing, and a CDF or alias table for
 * 1,000,000 flows would be 4 to 12 MB per traffic source.  A draw takes at most
 * 1.02 iterations on average (measured for s in 0.01..4, n in 2..10^6);
 * each iteration is one rng_unit() and one det_exp/det_log1p/det_log
 * evaluation, deterministic on every build (rxlab/rng.h).
 */
#ifndef RXLAB_RXLAB_FLOWDIST_H
#define RXLAB_RXLAB_FLOWDIST_H

#include <stdint.h>

#include "rxlab/rng.h"

#define FLOWDIST_MAX_FLOWS 1000000u
#define FLOWDIST_MAX_S 4.0

enum flow_pop {
	FLOW_UNIFORM, /* every flow equally likely */
	FLOW_ZIPF,    /* flow k (0-based) with probability (k+1)^-s / H(n,s) */
};

/* Private: set by flowdist_init(), read by flowdist_draw(). */
struct flowdist {
	uint32_t n;         /* flows */
	enum flow_pop pop;
	double s;           /* Zipf exponent */
	double h_first;     /* Zipf: H(1.5) - 1, the left end of the inversion range */
	double h_last;      /* Zipf: H(n + 0.5), its right end */
	double squeeze;     /* Zipf: 2 - Hinv(H(2.5) - 2^-s), the quick-accept bound */
};

/*
 * @n flows (1..FLOWDIST_MAX_FLOWS), popularity @pop; @s the Zipf exponent
 * (0 < s <= FLOWDIST_MAX_S, ignored for FLOW_UNIFORM).  0, or -1 when an
 * argument is out of range (never ENOMEM: nothing is allocated).
 */
int flowdist_init(struct flowdist *d, uint32_t n, enum flow_pop pop, double s);

/*
 * A flow 0..n-1 drawn with @r: uniform takes one rng_below(r, n); Zipf one
 * or more rng_unit(r).  n == 1 returns 0 without drawing, so a single-flow
 * source leaves the random stream as it was.  Inline (a draw per offered
 * frame of a multi-flow source); flowdist_zipf_draw() is the Zipf draw,
 * for a @d of FLOW_ZIPF with n > 1.
 */
uint32_t flowdist_zipf_draw(const struct flowdist *d, struct rng *r);
static inline uint32_t flowdist_draw(const struct flowdist *d, struct rng *r)
{
	if (d->n <= 1)
		return 0;
	if (d->pop == FLOW_ZIPF)
		return flowdist_zipf_draw(d, r);
	return (uint32_t)rng_below(r, d->n);
}

/* Ends @d's use (nothing is held today; kept so callers need not change
 * if a table-based distribution is added). */
void flowdist_free(struct flowdist *d);

#endif
