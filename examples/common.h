/* common.h - argument handling shared by the two live examples: a UDP socket
 * bound to ADDR:PORT and a receive loop configured from -m MODE and
 * -s KEY=VALUE (include/rxlab/live.h).  Errors exit with status 2. */
#ifndef RXLAB_EXAMPLES_COMMON_H
#define RXLAB_EXAMPLES_COMMON_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rxlab/live.h"

struct ex_args {
	const char *addr;
	int port;
	double seconds;        /* 0 = until SIGINT / SIGTERM */
	unsigned long long count; /* -n: stop after this many packets; 0 = no limit */
	struct rxl_config cfg;
};

static struct rxl_loop *ex_loop; /* for the signal handler */

static void ex_on_signal(int sig)
{
	(void)sig;
	if (ex_loop)
		rxl_stop(ex_loop); /* async-signal-safe */
}

static void ex_usage(const char *prog, const char *what)
{
	fprintf(stderr,
		"usage: %s [-b ADDR] [-p PORT] [-m MODE] [-d SECONDS] [-n PACKETS] [-s KEY=VALUE]...\n"
		"  %s\n"
		"  -b  address to bind (default 127.0.0.1); -p port (default 9000, 0 = any)\n"
		"  -m  receive mode (default hybrid): interrupt coalesce napi dim itr bsd-poll\n"
		"      busy hybrid dpdk-power ixy seastar epoll so-busy-poll prefer-busy\n"
		"      irq-suspend threaded\n"
		"  -s  a loop parameter, e.g. -s budget=32 -s rx-usecs=50 (see rxlab/live.h)\n"
		"  -d  run this long (default: until SIGINT or SIGTERM)\n"
		"  -n  stop after this many packets\n",
		prog, what);
	exit(2);
}

static void ex_parse(int argc, char **argv, struct ex_args *a, const char *what)
{
	enum rxl_mode mode = RXL_MODE_HYBRID;
	char *sets[64];
	int nsets = 0, opt;
	char err[512];
	a->addr = "127.0.0.1";
	a->port = 9000;
	a->seconds = 0;
	a->count = 0;
	while ((opt = getopt(argc, argv, "b:p:m:d:n:s:h")) != -1) {
		switch (opt) {
		case 'b': a->addr = optarg; break;
		case 'p': a->port = atoi(optarg); break;
		case 'd': a->seconds = atof(optarg); break;
		case 'n': a->count = strtoull(optarg, NULL, 10); break;
		case 'm':
			if (rxl_mode_parse(optarg, &mode) != 0) {
				fprintf(stderr, "%s: unknown mode '%s'\n", argv[0], optarg);
				exit(2);
			}
			break;
		case 's':
			if (nsets < 64)
				sets[nsets++] = optarg;
			break;
		default: ex_usage(argv[0], what);
		}
	}
	rxl_config_default(&a->cfg, mode);
	for (int i = 0; i < nsets; i++) {
		char *eq = strchr(sets[i], '=');
		if (!eq)
			ex_usage(argv[0], what);
		*eq = 0;
		if (rxl_config_set(&a->cfg, sets[i], eq + 1, err, sizeof err) != 0) {
			fprintf(stderr, "%s: -s %s\n", argv[0], err);
			exit(2);
		}
	}
}

/* The bound socket. */
static int ex_socket(const struct ex_args *a)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons((uint16_t)a->port) };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || inet_pton(AF_INET, a->addr, &sin.sin_addr) != 1 ||
	    bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0) {
		perror("socket/bind");
		exit(2);
	}
	return fd;
}

/* Print "listening on ADDR:PORT" (the real port), once the signal handlers
 * are in place: a script may send SIGINT as soon as it reads the line. */
static void ex_announce(const struct ex_args *a, int fd)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof sin;
	getsockname(fd, (struct sockaddr *)&sin, &len);
	printf("listening on %s:%d\n", a->addr, ntohs(sin.sin_port));
	fflush(stdout);
}

static void ex_signals(struct rxl_loop *l)
{
	ex_loop = l;
	struct sigaction sa = { .sa_handler = ex_on_signal };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

#endif
