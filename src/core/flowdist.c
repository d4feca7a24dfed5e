/* flowdist.c - lead's placeholder. */
#include "rxlab/flowdist.h"

#include <math.h>
#include <stdlib.h>

int flowdist_init(struct flowdist *d, uint32_t n, enum flow_pop pop, double s)
{
	double sum = 0, acc = 0;

	d->n = n;
	d->cdf = NULL;
	if (n <= 1 || pop == FLOW_UNIFORM)
		return 0;
	d->cdf = malloc(n * sizeof(*d->cdf));
	if (!d->cdf)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		sum += 1.0 / pow(i + 1.0, s);
	for (uint32_t i = 0; i < n; i++) {
		acc += 1.0 / pow(i + 1.0, s);
		d->cdf[i] = (uint64_t)(acc / sum * 9007199254740992.0);
	}
	d->cdf[n - 1] = 9007199254740992ull;
	return 0;
}

uint32_t flowdist_draw(const struct flowdist *d, struct rng *r)
{
	uint64_t u;
	uint32_t lo = 0, hi;

	if (d->n <= 1)
		return 0;
	if (!d->cdf)
		return (uint32_t)rng_below(r, d->n);
	u = rng_next(r) >> 11;
	hi = d->n - 1;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (d->cdf[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

void flowdist_free(struct flowdist *d)
{
	free(d->cdf);
	d->cdf = NULL;
}
