/* rng.c - deterministic random streams (see include/rxlab/rng.h).
 *
 * Generator: xoshiro256** 1.0 by Blackman and Vigna
 * (https://prng.di.unimi.it/xoshiro256starstar.c), seeded with splitmix64
 * as its authors recommend.  det_log() follows the argument reduction of
 * fdlibm's e_log.c but sums the atanh series to convergence instead of using
 * a fitted minimax polynomial, so every constant below is either exact or
 * traceable to fdlibm.
 *
 * Pure: no libc and no libm.  The build uses -ffp-contract=off, so no
 * expression here is fused into an FMA and results are bit-identical on
 * x86-64 and arm64.
 */
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "rxlab/rng.h"

/* splitmix64 (Vigna, https://prng.di.unimi.it/splitmix64.c). */
#define SPLITMIX_GAMMA 0x9e3779b97f4a7c15ull

static uint64_t splitmix_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t splitmix_next(uint64_t *x)
{
	*x += SPLITMIX_GAMMA;
	return splitmix_mix(*x);
}

/*
 * The splitmix state is seed ^ mix(stream + gamma).  mix() is a bijection,
 * so for one seed distinct streams start from distinct states; the
 * alternative seed + stream * gamma was turned down because (seed, s + 1)
 * would then equal (seed + gamma, s) shifted by one draw.  The four
 * splitmix outputs are distinct, so the xoshiro state is never all zero.
 */
void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ splitmix_mix(stream + SPLITMIX_GAMMA);
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix_next(&x);
}

/* (k + 1) * 2^-53 for k uniform in [0, 2^53): exact, in (0, 1]. */
double rng_unit(struct rng *r)
{
	return (double)((rng_next(r) >> 11) + 1) * 0x1.0p-53;
}

/* rng_exp_ns() of the uniform @u, as it has always been computed. */
static int64_t exp_ns_exact(double u, double mean_ns)
{
	double x = -det_log(u) * mean_ns;

	if (!(x > 0.0))		/* -0.0 from log(1), bad mean, NaN */
		return 0;
	if (x >= 9223372036854775807.0)
		return INT64_MAX;
	return (int64_t)(x + 0.5);
}

static double log_fast(double x);

/*
 * The same integer as exp_ns_exact(), at a third of the cost: log_fast()
 * is within 5e-13 (absolute) of det_log(), so x below is within 5e-13 mean
 * + a few ulps of det_log()'s x, and where x + 0.5 is farther than
 * 1e-11 (mean + x) from an integer, twenty times that, both round to the
 * same one.  The rest (about 3e-9 of the draws at a 67 ns mean, and x < 1
 * or huge) takes the exact path with the same u: one draw either way.
 */
int64_t rng_exp_ns(struct rng *r, double mean_ns)
{
	double u = rng_unit(r), x = -log_fast(u) * mean_ns, y = x + 0.5;
	double margin = (mean_ns + x) * 1e-11, frac;

	if (x >= 1.0 && x < 1e15) {	/* false for a NaN */
		frac = y - (double)(int64_t)y;
		if (frac > margin && frac < 1.0 - margin)
			return (int64_t)y;
	}
	return exp_ns_exact(u, mean_ns);
}

/* ---- det_log -------------------------------------------------------- */

/* ln 2 split so that e * LN2_HI is exact for |e| < 2^11 (fdlibm e_log.c):
 * LN2_HI is 0x3fe62e42fee00000, LN2_LO 0x3dea39ef35793c76. */
static const double LN2_HI = 6.93147180369123816490e-01;
static const double LN2_LO = 1.90821492927058770002e-10;

#define DBL_EXP_MASK	0x7ff0000000000000ull
#define DBL_MANT_MASK	0x000fffffffffffffull
#define DBL_EXP_BIAS	1023
#define SQRT2_MANT	0x0006a09e667f3bcdull	/* mantissa bits of sqrt(2) */

static uint64_t dbl_bits(double x)
{
	uint64_t b;

	memcpy(&b, &x, sizeof(b));
	return b;
}

static double bits_dbl(uint64_t b)
{
	double x;

	memcpy(&x, &b, sizeof(x));
	return x;
}

/*
 * R(z) = sum_{k>=1} 2 z^k / (2k + 1), summed until a term no longer changes
 * the total.  With |s| <= 3 - 2*sqrt(2), z = s^2 <= 0.0295, so this stops
 * after at most ~11 terms; the cap only guards against a logic error.
 */
static double atanh_tail(double z)
{
	double zk = z, sum = 0.0;
	int k;

	for (k = 1; k < 64; k++) {
		double t = 2.0 * zk / (double)(2 * k + 1);

		if (sum + t == sum)
			break;
		sum += t;
		zk *= z;
	}
	return sum;
}

/*
 * x = 2^e * m with m in [sqrt(1/2), sqrt(2)), f = m - 1 (exact by
 * Sterbenz), s = f / (2 + f).  Then log(m) = 2 atanh(s) = f - s*(f - R),
 * rearranged as in fdlibm to f - (hfsq - s*(hfsq + R)) with hfsq = f^2/2 so
 * that the large term f is added last.  log_parts() is the reduction of a
 * normal x's bits @b (@e0 added to its exponent: -54 for a subnormal scaled
 * by 2^54), log_join() the sum with the series tail R of z = s*s; det_log()
 * and log_fast() differ only in how many terms of R they take.
 */
struct log_parts {
	double f, s, z, hfsq, de;
};

static inline struct log_parts log_parts(uint64_t b, int e0)
{
	struct log_parts p;
	int e = e0 + (int)((b & DBL_EXP_MASK) >> 52) - DBL_EXP_BIAS;

	b &= DBL_MANT_MASK;
	if (b > SQRT2_MANT) {			/* m in (sqrt(2), 2): use m / 2 */
		b |= (uint64_t)(DBL_EXP_BIAS - 1) << 52;
		e++;
	} else {
		b |= (uint64_t)DBL_EXP_BIAS << 52;
	}
	p.f = bits_dbl(b) - 1.0;
	p.s = p.f / (2.0 + p.f);
	p.z = p.s * p.s;
	p.hfsq = 0.5 * p.f * p.f;
	p.de = (double)e;
	return p;
}

static inline double log_join(const struct log_parts *p, double r)
{
	return p->de * LN2_HI - ((p->hfsq - (p->s * (p->hfsq + r) + p->de * LN2_LO)) - p->f);
}

double det_log(double x)
{
	uint64_t b = dbl_bits(x);
	int e = 0;
	struct log_parts p;

	if (x != x || x < 0.0)
		return (x - x) / (x - x);		/* NaN */
	if (x == 0.0)
		return -1.0 / 0.0;			/* -inf */
	if ((b & DBL_EXP_MASK) == DBL_EXP_MASK)
		return x;				/* +inf */
	if ((b & DBL_EXP_MASK) == 0) {			/* subnormal */
		b = dbl_bits(x * 0x1.0p54);
		e = -54;
	}
	p = log_parts(b, e);
	return log_join(&p, atanh_tail(p.z));
}

/*
 * det_log() of a normal x > 0 to within 5e-13: the same reduction and six
 * terms of the series, the tail after them below (2/15) z^7 / (1 - z) =
 * 2.6e-12 at z <= 0.0295, times |s| <= 0.172 in the result; the other
 * roundings differ by ulps (under 1e-14 for |log| < 40).  Only
 * rng_exp_ns() uses it, where the margin around each rounding absorbs it.
 */
static double log_fast(double x)
{
	struct log_parts p = log_parts(dbl_bits(x), 0);
	double z = p.z;

	return log_join(&p, z * (2.0 / 3 + z * (2.0 / 5 + z * (2.0 / 7 + z * (2.0 / 9 +
							z * (2.0 / 11 + z * (2.0 / 13)))))));
}

/* ---- det_exp, det_expm1, det_log1p ---------------------------------- */

#define INV_LN2		1.44269504088896338700e+00	/* 1 / ln 2 */
#define EXP_SERIES_MAX	0.34657359027997264		/* ln(2) / 2 */
#define EXP_OVERFLOW	7.09782712893383973096e+02	/* fdlibm o_threshold */
#define EXP_UNDERFLOW	-7.45133219101941108420e+02	/* fdlibm u_threshold */

/*
 * expm1(r) = sum_{k>=1} r^k / k! for |r| <= ln(2)/2, summed until a term no
 * longer changes the total (at most ~18 terms); no cancellation, because
 * the leading term is r itself.
 */
static double expm1_series(double r)
{
	double t = r, sum = 0.0;
	int k;

	for (k = 2; k < 64; k++) {
		if (sum + t == sum)
			break;
		sum += t;
		t = t * r / (double)k;
	}
	return sum;
}

/* 2^e for -1022 <= e <= 1023, exactly, from the exponent bits. */
static double pow2i(int e)
{
	return bits_dbl((uint64_t)(e + DBL_EXP_BIAS) << 52);
}

/*
 * x = e ln2 + r with e the integer nearest x / ln2, so |r| <= ln(2)/2;
 * r = (x - e LN2_HI) - e LN2_LO is exact to ~2^-60 because e * LN2_HI is
 * exact for |e| < 2^11 (fdlibm e_exp.c).  e^x = 2^e (1 + expm1(r)), the
 * power of two applied in two halves so that 2^e may be subnormal.
 */
double det_exp(double x)
{
	double de, r;
	int e;

	if (x != x)
		return x;
	if (x > EXP_OVERFLOW)
		return 1.0 / 0.0;
	if (x < EXP_UNDERFLOW)
		return 0.0;
	de = x * INV_LN2;
	e = (int)(de < 0.0 ? de - 0.5 : de + 0.5);
	de = (double)e;
	r = (x - de * LN2_HI) - de * LN2_LO;
	return (1.0 + expm1_series(r)) * pow2i(e / 2) * pow2i(e - e / 2);
}

double det_expm1(double x)
{
	if (x >= -EXP_SERIES_MAX && x <= EXP_SERIES_MAX)
		return expm1_series(x);
	return det_exp(x) - 1.0;	/* |e^x - 1| >= 0.29: no big cancellation */
}

/*
 * u = 1 + x rounds; log(u) * x / (u - 1) corrects for that rounding
 * (Goldberg, "What every computer scientist should know about
 * floating-point arithmetic", Theorem 4): u - 1 is exact, and log(u) / (u -
 * 1) varies slowly, so the ratio carries over to the true 1 + x.
 */
double det_log1p(double x)
{
	double u = 1.0 + x;

	if (u == 1.0)
		return x;
	return det_log(u) * (x / (u - 1.0));
}
