/* server_keys.c - the [apps] keys of the epoll server that a schema line
 * cannot check alone (see server_keys.h).
 *
 * server-cpus is a CPU list as /sys and taskset -c write them; it must name
 * one CPU per worker, in worker order.  Without it worker i runs on CPU i,
 * so more workers than CPUs need the list.  server-cpus = all leaves the
 * workers unpinned (no sched_setaffinity, as neper and most servers run):
 * worker i starts on CPU i mod cpus and the scheduler moves it (idle
 * balancing, sched_wake_idle), as it moves netperf's threads.  epoll-timeout is epoll_wait()'s
 * timeout: -1 blocks forever, else a time.  server-work-dist is fixed, exp
 * (exponential with mean server-work) or lognormal:SIGMA (mean server-work,
 * SIGMA the standard deviation of its logarithm).
 */
#include "model/server_keys.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"

#define MAX_SIGMA 10.0 /* e^(10^2) would overflow any time */

static int resolve_cpus(struct scn_apps *a, uint32_t cpus, char *why, size_t len)
{
	char m[160];
	int n;

	if (server_keys_roam(a)) {
		for (uint32_t i = 0; i < a->server_threads; i++)
			a->server_cpu[i] = (uint16_t)(i % cpus);
		return 0;
	}
	if (isalpha((unsigned char)a->server_cpus[0])) {
		snprintf(why, len, "server-cpus = %s: accepted a CPU list (e.g. 0-7 or 0,2,4) or all "
			 "(no CPU affinity)", a->server_cpus);
		return -1;
	}
	if (a->server_cpus[0] == '\0') {
		if (a->server_threads > cpus) {
			snprintf(why, len, "server-threads = %u needs server-cpus: worker i runs on "
				 "CPU i by default and [host] cpus = %u", a->server_threads, cpus);
			return -1;
		}
		for (uint32_t i = 0; i < a->server_threads; i++)
			a->server_cpu[i] = (uint16_t)i;
		return 0;
	}
	n = unit_cpu_list(a->server_cpus, cpus, a->server_cpu, SCN_MAX_WORKERS, m, sizeof(m));
	if (n >= 0 && (uint32_t)n != a->server_threads)
		snprintf(m, sizeof(m), "names %d CPU%s, server-threads = %u: give one per worker, "
			 "in worker order", n, n == 1 ? "" : "s", a->server_threads);
	if (n >= 0 && (uint32_t)n == a->server_threads)
		return 0;
	snprintf(why, len, "server-cpus = %s: %s", a->server_cpus, m);
	return -1;
}

bool server_keys_roam(const struct scn_apps *a)
{
	return strcmp(a->server_cpus, "all") == 0;
}

static int resolve_timeout(struct scn_apps *a, char *why, size_t len)
{
	char m[200];
	uint64_t v;

	if (strcmp(a->epoll_timeout, "-1") == 0) {
		a->epoll_timeout_ns = -1;
		return 0;
	}
	if (unit_parse_key(UNIT_TIME_NS, "epoll-timeout", a->epoll_timeout, 0,
			   3600ULL * 1000000000ULL, NULL, &v, m, sizeof(m))) {
		snprintf(why, len, "%s (or -1: block until an event)", m);
		return -1;
	}
	a->epoll_timeout_ns = (int64_t)v;
	return 0;
}

static int resolve_dist(struct scn_apps *a, char *why, size_t len)
{
	const char *d = a->server_work_dist;
	char *end;

	a->work_sigma = 0;
	if (strcmp(d, "fixed") == 0) {
		a->work_dist = WORK_FIXED;
		return 0;
	}
	if (strcmp(d, "exp") == 0) {
		a->work_dist = WORK_EXP;
		return 0;
	}
	if (strncmp(d, "lognormal:", 10) == 0) {
		a->work_sigma = strtod(d + 10, &end);
		if (end != d + 10 && *end == '\0' && a->work_sigma > 0 && a->work_sigma <= MAX_SIGMA) {
			a->work_dist = WORK_LOGNORMAL;
			return 0;
		}
	}
	snprintf(why, len, "server-work-dist = %s: accepted fixed, exp or lognormal:SIGMA "
		 "with 0 < SIGMA <= %g (e.g. lognormal:0.5)", d, MAX_SIGMA);
	return -1;
}

/* The server keys without server = epoll would be ignored: say so. */
static const char *stray_key(const struct scn_apps *a)
{
	if (a->server_threads != 1)
		return "server-threads";
	if (a->server_cpus[0])
		return "server-cpus";
	if (a->server_work_ns)
		return "server-work";
	if (strcmp(a->server_work_dist, "fixed"))
		return "server-work-dist";
	if (strcmp(a->epoll_timeout, "-1"))
		return "epoll-timeout";
	return NULL;
}

int server_keys_resolve(struct scn_apps *a, uint32_t cpus, const char **key, char *why,
			size_t len)
{
	a->epoll_timeout_ns = -1;
	if (a->server != SERVER_EPOLL) {
		*key = stray_key(a);
		if (*key)
			snprintf(why, len, "%s needs server = epoll in [apps]", *key);
		return *key ? -1 : 0;
	}
	*key = "server-cpus";
	if (resolve_cpus(a, cpus, why, len))
		return -1;
	*key = "epoll-timeout";
	if (resolve_timeout(a, why, len))
		return -1;
	*key = "server-work-dist";
	if (resolve_dist(a, why, len))
		return -1;
	a->sink = 1;
	return 0;
}
