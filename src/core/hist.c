/* hist.c - fixed-size log-linear histogram (see include/rxlab/hist.h).
 *
 * Bucket layout.  Let k = floor(log2(v)) and shift = max(k - HIST_SUB_BITS, 0).
 * Then
 *
 *	bucket(v) = (shift << HIST_SUB_BITS) + (v >> shift)
 *
 * For v < 2^(HIST_SUB_BITS+1) (shift 0) this is v itself, so buckets
 * 0..255 hold one value each.  For larger v, v >> shift lies in
 * [HIST_SUB, 2*HIST_SUB), so each power of two [2^k, 2^(k+1)) gets HIST_SUB
 * buckets of width 2^shift, and a bucket's width is at most 1/HIST_SUB of its
 * lower edge.  OR-ing HIST_SUB into v before counting leading zeros gives
 * k >= HIST_SUB_BITS without a branch and keeps clzll's argument non-zero.
 *
 * INT64_MAX (k = 62) lands in bucket HIST_MAX_BUCKET; the buckets above it in
 * count[] are never used (the header sizes the array for 64-bit values).
 *
 * Pure: no libc beyond memset, no allocation.  The empty histogram has
 * min = INT64_MAX and max = 0 (every value is >= 0 after clamping, so 0 is
 * a neutral element for max and prints sensibly).
 */
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "rxlab/hist.h"

/* The bucket of INT64_MAX: shift 55, (v >> 55) = 255. */
#define HIST_MAX_BUCKET ((uint32_t)((55u << HIST_SUB_BITS) + 255u))

void hist_reset(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = INT64_MAX;
	h->max = 0;
}

/* hist_bucket(), inline for hist_add() (once per packet sent). */
static inline uint32_t bucket_of(int64_t v)
{
	uint64_t u = v < 0 ? 0 : (uint64_t)v;
	uint32_t k = 63u - (uint32_t)__builtin_clzll(u | HIST_SUB);
	uint32_t shift = k - HIST_SUB_BITS;

	return (shift << HIST_SUB_BITS) + (uint32_t)(u >> shift);
}

uint32_t hist_bucket(int64_t v)
{
	return bucket_of(v);
}

int64_t hist_bucket_upper(uint32_t i)
{
	uint32_t shift, sub;

	if (i < 2 * HIST_SUB)
		return (int64_t)i;
	if (i >= HIST_MAX_BUCKET)
		return INT64_MAX;
	shift = (i >> HIST_SUB_BITS) - 1;
	sub = i - (shift << HIST_SUB_BITS);	/* in [HIST_SUB, 2*HIST_SUB) */
	return (int64_t)((((uint64_t)sub + 1) << shift) - 1);
}

void hist_add_n(struct hist *h, int64_t v, uint64_t times)
{
	if (times == 0)
		return;
	if (v < 0)
		v = 0;
	h->count[bucket_of(v)] += times;
	h->n += times;
	h->sum += (double)v * (double)times;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void hist_add(struct hist *h, int64_t v)
{
	if (v < 0)
		v = 0;
	h->count[bucket_of(v)]++;
	h->n++;
	h->sum += (double)v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* ceil(q * n) for q in (0, 1), at least 1; no libm. */
static uint64_t quantile_rank(double q, uint64_t n)
{
	double x = q * (double)n;
	uint64_t r = (uint64_t)x;

	if ((double)r < x)
		r++;
	if (r < 1)
		r = 1;
	return r > n ? n : r;
}

int64_t hist_quantile(const struct hist *h, double q)
{
	uint64_t rank, seen = 0;
	uint32_t i;

	if (h->n == 0)
		return 0;
	if (!(q > 0.0))		/* also catches NaN */
		return h->min;
	if (q >= 1.0)
		return h->max;
	rank = quantile_rank(q, h->n);
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->count[i];
		if (seen >= rank)
			break;
	}
	{
		int64_t v = hist_bucket_upper(i);

		if (v < h->min)
			return h->min;
		return v > h->max ? h->max : v;
	}
}

double hist_mean(const struct hist *h)
{
	return h->n ? h->sum / (double)h->n : 0.0;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	uint32_t i;

	if (src->n == 0)
		return;
	for (i = 0; i < HIST_BUCKETS; i++)
		dst->count[i] += src->count[i];
	dst->n += src->n;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}
