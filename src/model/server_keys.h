/* server_keys.h - the [apps] server = epoll keys that need more than one
 * schema line: server-cpus, epoll-timeout, server-work-dist (server_keys.c). */
#ifndef RXLAB_MODEL_SERVER_KEYS_H
#define RXLAB_MODEL_SERVER_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rxlab/scenario.h"

/* Resolve @a's string keys into server_cpu[], epoll_timeout_ns, work_dist
 * and work_sigma, and set a->sink when server = epoll.  Host of @cpus
 * CPUs.  Returns 0, or -1 with *@key the offending key and @why the whole
 * message ("server-cpus = 0-9: ..."). */
int server_keys_resolve(struct scn_apps *a, uint32_t cpus, const char **key, char *why,
			size_t len);

/* server-cpus = all: the workers have no CPU affinity (thread.roam); each
 * starts on CPU (worker index mod cpus) and the scheduler moves it. */
bool server_keys_roam(const struct scn_apps *a);

#endif
