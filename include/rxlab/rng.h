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

#endif
