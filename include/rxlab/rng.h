/* rng.h - deterministic random streams (pure; no libm).
 *
 * xoshiro256** seeded through splitmix64.  A stream is (seed, stream id):
 * each source of randomness (traffic of one port, jitter, each app) has its
 * own id, so changing one model does not change another's draws.  All
 * arithmetic is integer or IEEE-754 double without libm calls, so the same
 * seed gives the same numbers on every machine.
 */
#ifndef RXLAB_RXLAB_RNG_H
#define RXLAB_RXLAB_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

/* Seed stream @stream of seed @seed. */
void rng_seed(struct rng *r, uint64_t seed, uint64_t stream);

/* Next 64 random bits.  Inline, as rng_below(): a multi-flow traffic
 * source draws a flow per offered frame (10-150 M a simulated second). */
static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t x = s[1] * 5;
	uint64_t result = ((x << 7) | (x >> 57)) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = (s[3] << 45) | (s[3] >> 19);
	return result;
}

/* Uniform double in (0, 1] with 53 random bits (never 0, so log() is safe). */
double rng_unit(struct rng *r);

/* The full 128-bit product @a * @b: the high word returned, the low one in
 * *@lo.  One multiply where the compiler has unsigned __int128, else from
 * 32-bit halves (ISO C and 32-bit targets lack it); the same either way. */
static inline uint64_t rng_mul_64x64(uint64_t a, uint64_t b, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
	__extension__ unsigned __int128 p = (unsigned __int128)a * b;

	*lo = (uint64_t)p;
	return (uint64_t)(p >> 64);
#else
	uint64_t a_lo = (uint32_t)a, a_hi = a >> 32;
	uint64_t b_lo = (uint32_t)b, b_hi = b >> 32;
	uint64_t ll = a_lo * b_lo, lh = a_lo * b_hi;
	uint64_t hl = a_hi * b_lo, hh = a_hi * b_hi;
	uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;

	*lo = (mid << 32) | (uint32_t)ll;
	return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

/* Uniform integer in [0, bound) without modulo bias; bound > 0 (0 gives
 * 0).  Lemire, "Fast Random Integer Generation in an Interval" (2019):
 * the high word of x * bound is uniform once the low words below 2^64 mod
 * bound are rejected; the modulo runs only when a rejection is possible. */
static inline uint64_t rng_below(struct rng *r, uint64_t bound)
{
	uint64_t lo, hi;

	if (bound == 0)		/* contract violation; core cannot assert */
		return 0;
	hi = rng_mul_64x64(rng_next(r), bound, &lo);
	if (lo < bound) {
		uint64_t threshold = (0 - bound) % bound;

		while (lo < threshold)
			hi = rng_mul_64x64(rng_next(r), bound, &lo);
	}
	return hi;
}

/* Exponentially distributed interval with mean @mean_ns (> 0), rounded to
 * the nearest ns, at least 0. */
int64_t rng_exp_ns(struct rng *r, double mean_ns);

/* Natural logarithm for x > 0 computed with basic IEEE arithmetic only
 * (frexp-free bit manipulation + series); |error| < 1e-15 relative. */
double det_log(double x);

/* e^x with basic IEEE arithmetic only (the argument reduction of fdlibm's
 * e_exp.c, a Taylor series summed to convergence); |error| < 1e-15
 * relative for normal results (3.2e-16, 1.5 ulp, the largest seen against
 * glibc); subnormal ones (x < -708.39) are within one unit of their last
 * place.  0 below -745.13, +inf above 709.78, NaN for NaN. */
double det_exp(double x);

/* e^x - 1, |error| < 1e-15 relative also for |x| near 0, where
 * det_exp(x) - 1 would cancel. */
double det_expm1(double x);

/* log(1 + x) for x > -1, |error| < 1e-15 relative also for |x| near 0. */
double det_log1p(double x);

#endif
