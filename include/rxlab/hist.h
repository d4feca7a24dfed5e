/* hist.h - fixed-size log-linear histogram of non-negative int64 values
 * (nanoseconds of latency).  Pure: no allocation, O(1) insert, memory does
 * not grow with the number of samples.
 *
 * Layout (HdrHistogram-like): values below 2^HIST_SUB_BITS are counted
 * exactly; above, each power-of-two range [2^k, 2^(k+1)) is split into
 * 2^HIST_SUB_BITS equal sub-buckets, so the relative bucket width is at most
 * 2^-HIST_SUB_BITS (0.8% with 7 bits).  Values up to INT64_MAX fit.
 */
#ifndef RXLAB_RXLAB_HIST_H
#define RXLAB_RXLAB_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_BUCKETS ((64 - HIST_SUB_BITS) * HIST_SUB + HIST_SUB)

struct hist {
	uint64_t n;                   /* samples */
	int64_t min, max;             /* exact extremes; min = INT64_MAX when empty */
	double sum;                   /* for the mean */
	uint64_t count[HIST_BUCKETS];
};

void hist_reset(struct hist *h);

/* Add @v (negative values are clamped to 0) once / @times times. */
void hist_add(struct hist *h, int64_t v);
void hist_add_n(struct hist *h, int64_t v, uint64_t times);

/* Value at quantile @q in [0,1]: the upper edge of the bucket holding the
 * ceil(q*n)-th smallest sample, clamped to [min, max]; q=0 gives min, q=1
 * gives max.  0 when empty. */
int64_t hist_quantile(const struct hist *h, double q);

/* Mean of the samples; 0 when empty. */
double hist_mean(const struct hist *h);

/* dst += src */
void hist_merge(struct hist *dst, const struct hist *src);

/* Bucket index of @v and the inclusive upper edge of bucket @i (exposed for tests). */
uint32_t hist_bucket(int64_t v);
int64_t hist_bucket_upper(uint32_t i);

#endif
