/* wake_lat.c - cross-CPU wake-up latency by eventfd ping-pong (see
 * wake_lat.h). */
#define _GNU_SOURCE
#include "live/wake_lat.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#define SLEEPER_PRIO 10

struct pingpong {
	int efd, cpu;
	size_t n;
	int64_t gap_ns;			/* the caller's, 0 = log-uniform spread */
	double *lat_ns;			/* one per wake-up */
	_Atomic int64_t t0_ns;		/* the waker's clock just before its write */
	atomic_size_t done;		/* wake-ups the sleeper has seen */
};

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *sleeper(void *arg)
{
	struct pingpong *pp = arg;
	struct sched_param sp = { .sched_priority = SLEEPER_PRIO };
	uint64_t v;

	pin(pp->cpu);
	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	for (size_t i = 0; i < pp->n; i++) {
		if (read(pp->efd, &v, sizeof(v)) != (ssize_t)sizeof(v))
			break;
		pp->lat_ns[i] = (double)(mono_ns() - atomic_load(&pp->t0_ns));
		atomic_store(&pp->done, i + 1);
	}
	return NULL;
}

/* Spin until @until_ns (the waker keeps its own CPU awake). */
static void spin_until(int64_t until_ns)
{
	while (mono_ns() < until_ns)
		;
}

/* The wait before a wake-up, from the pseudo-random @x: @gap_ns to twice
 * that, or for @gap_ns 0 log-uniform over WAKE_LAT_SPREAD_MIN_NS ..
 * WAKE_LAT_SPREAD_MAX_NS. */
static int64_t gap(int64_t gap_ns, uint64_t x)
{
	double u = (double)(x >> 11) / 9007199254740992.0;	/* [0, 1) */

	if (gap_ns > 0)
		return gap_ns + (int64_t)(u * (double)gap_ns);
	return (int64_t)(WAKE_LAT_SPREAD_MIN_NS *
			 pow((double)WAKE_LAT_SPREAD_MAX_NS / WAKE_LAT_SPREAD_MIN_NS, u));
}

static void waker(struct pingpong *pp)
{
	uint64_t one = 1, x = 88172645463325252ull;

	spin_until(mono_ns() + 10 * WAKE_LAT_SPREAD_MAX_NS);	/* the sleeper is blocked by now */
	for (size_t i = 0; i < pp->n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;	/* xorshift64 */
		spin_until(mono_ns() + gap(pp->gap_ns, x));
		atomic_store(&pp->t0_ns, mono_ns());
		if (write(pp->efd, &one, sizeof(one)) != (ssize_t)sizeof(one))
			break;
		while (atomic_load(&pp->done) < i + 1)
			;
	}
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double wake_lat_quantile(double *v, size_t n, double q)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_dbl);
	return v[(size_t)fmin((double)(n - 1), floor(q * (double)n))];
}

/* PM QoS: while the fd is open, no idle state with an exit latency > 0. */
static int qos_hold(char *err, size_t errlen)
{
	int32_t zero = 0;
	int fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, &zero, sizeof(zero)) != (ssize_t)sizeof(zero)) {
		snprintf(err, errlen, "/dev/cpu_dma_latency: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static int run(struct pingpong *pp, int waker_cpu, char *err, size_t errlen)
{
	cpu_set_t old;
	pthread_t t;

	sched_getaffinity(0, sizeof(old), &old);
	if (pthread_create(&t, NULL, sleeper, pp) != 0) {
		snprintf(err, errlen, "cannot start the sleeper thread");
		return -1;
	}
	pin(waker_cpu);
	waker(pp);
	pthread_join(t, NULL);
	sched_setaffinity(0, sizeof(old), &old);
	return 0;
}

int wake_lat_measure(int waker_cpu, int sleeper_cpu, bool poll_idle, size_t n, int64_t gap_ns,
		     struct wake_lat *out, char *err, size_t errlen)
{
	struct pingpong pp = { .cpu = sleeper_cpu, .n = n, .gap_ns = gap_ns > 0 ? gap_ns : 0 };
	int qos = -1, rc = -1;

	memset(out, 0, sizeof(*out));
	pp.lat_ns = calloc(n ? n : 1, sizeof(double));
	pp.efd = eventfd(0, EFD_CLOEXEC);
	if (!pp.lat_ns || pp.efd < 0) {
		snprintf(err, errlen, "eventfd: %s", strerror(errno));
		goto out;
	}
	if (poll_idle && (qos = qos_hold(err, errlen)) < 0)
		goto out;
	if (run(&pp, waker_cpu, err, errlen) == 0 && atomic_load(&pp.done) == n) {
		out->n = n;
		out->p10_ns = wake_lat_quantile(pp.lat_ns, n, 0.10);
		out->p50_ns = wake_lat_quantile(pp.lat_ns, n, 0.50);
		out->p90_ns = wake_lat_quantile(pp.lat_ns, n, 0.90);
		rc = 0;
	} else if (atomic_load(&pp.done) != n) {
		snprintf(err, errlen, "the sleeper stopped after %zu of %zu wake-ups",
			 atomic_load(&pp.done), n);
	}
out:
	if (qos >= 0)
		close(qos);
	if (pp.efd >= 0)
		close(pp.efd);
	free(pp.lat_ns);
	return rc;
}
