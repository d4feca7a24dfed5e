/* epoll_work.c - service time draws of the epoll server.
 *
 * Each worker has its own stream (sock.work_rng), so adding a worker or
 * changing another's load does not change a worker's draws.  lognormal:
 * SIGMA has mean server-work: ln W ~ N(mu, SIGMA^2) with mu = ln(mean) -
 * SIGMA^2/2, so W = mean * e^(SIGMA Z - SIGMA^2/2).  Z comes from
 * Marsaglia's polar method (needs only log and sqrt; IEEE sqrt is exact
 * rounded, det_log is rxlab's own).
 */
#include "sim/apps/epoll_work.h"
#include <math.h>

#define LN2 0.69314718055994530942

double epoll_det_exp(double x)
{
	/* x = k ln2 + r with |r| <= ln2/2; e^r by its series (25 terms
	 * reach 1e-17 at |r| = 0.35), then scale by 2^k exactly. */
	double kf = x / LN2, r, term = 1, sum = 1;
	int k = (int)(kf < 0 ? kf - 0.5 : kf + 0.5);

	r = x - k * LN2;
	for (int i = 1; i < 25; i++) {
		term *= r / i;
		sum += term;
	}
	for (; k > 0; k--)
		sum *= 2;
	for (; k < 0; k++)
		sum *= 0.5;
	return sum;
}

/* A standard normal draw (Marsaglia's polar method). */
static double normal(struct rng *r)
{
	double u, v, q;

	do {
		u = 2 * rng_unit(r) - 1;
		v = 2 * rng_unit(r) - 1;
		q = u * u + v * v;
	} while (q >= 1 || q == 0);
	return u * sqrt(-2 * det_log(q) / q);
}

int64_t epoll_work_ns(const struct scn_apps *a, struct rng *r)
{
	double mean = (double)a->server_work_ns, sg = a->work_sigma, w;

	if (a->server != SERVER_EPOLL || a->server_work_ns == 0)
		return 0;
	switch ((enum scn_work_dist)a->work_dist) {
	case WORK_FIXED:
		return a->server_work_ns;
	case WORK_EXP:
		return rng_exp_ns(r, mean);
	case WORK_LOGNORMAL:
		w = mean * epoll_det_exp(sg * normal(r) - sg * sg / 2);
		return w > 3.6e12 ? (int64_t)3.6e12 : (int64_t)(w + 0.5);
	}
	return a->server_work_ns;
}
