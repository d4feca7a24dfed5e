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

/* Next 64 random bits. */
uint64_t rng_next(struct rng *r);

/* Uniform double in (0, 1] with 53 random bits (never 0, so log() is safe). */
double rng_unit(struct rng *r);

/* Uniform integer in [0, bound) without modulo bias; bound > 0. */
uint64_t rng_below(struct rng *r, uint64_t bound);

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
