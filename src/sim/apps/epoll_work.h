/* epoll_work.h - an epoll server's service time per request (epoll_work.c). */
#ifndef RXLAB_SIM_APPS_EPOLL_WORK_H
#define RXLAB_SIM_APPS_EPOLL_WORK_H

#include <stdint.h>

#include "rxlab/rng.h"
#include "rxlab/scenario.h"

/* One request's server-work, ns, drawn from server-work-dist with mean
 * server-work: fixed returns server-work and draws nothing; exp and
 * lognormal:SIGMA draw from @r.  0 without server = epoll or with
 * server-work = 0. */
int64_t epoll_work_ns(const struct scn_apps *a, struct rng *r);

/* e^x for |x| <= 700 with basic IEEE arithmetic only (no libm), relative
 * error below 1e-15: draws stay identical on every build. */
double epoll_det_exp(double x);

#endif
