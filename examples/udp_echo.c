/* udp_echo.c - a UDP echo server on the rxlab live library.
 *
 * Every packet is sent back to its sender; the replies of one batch go out
 * in one sendmmsg() call, so a moderated receive loop also batches the
 * transmit side.  Runs until SIGINT / SIGTERM or -d SECONDS, then prints
 * the number of packets echoed.
 *
 *   udp_echo -p 7 -m napi
 */
/* sendmmsg() and struct mmsghdr are GNU extensions (<sys/socket.h>); the
 * examples' CMakeLists.txt defines this too, a build on `pkg-config
 * --cflags --libs rxlab` alone does not */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <inttypes.h>

#include "common.h"

struct echo {
	int fd;
	uint64_t echoed, failed;
};

#define MAX_BATCH 1024

static void on_batch(void *arg, const struct rxl_pkt *pkts, size_t n)
{
	struct echo *e = arg;
	static struct mmsghdr msgs[MAX_BATCH];
	static struct iovec iov[MAX_BATCH];
	for (size_t i = 0; i < n && i < MAX_BATCH; i++) {
		iov[i] = (struct iovec){ .iov_base = (void *)pkts[i].data, .iov_len = pkts[i].len };
		msgs[i].msg_hdr = (struct msghdr){ .msg_name = (void *)pkts[i].src,
			.msg_namelen = pkts[i].src_len, .msg_iov = &iov[i], .msg_iovlen = 1 };
	}
	size_t done = 0;
	while (done < n) {
		int r = sendmmsg(e->fd, msgs + done, (unsigned)(n - done), MSG_DONTWAIT);
		if (r <= 0) {
			e->failed += n - done; /* full socket buffer: drop, as a router would */
			break;
		}
		done += (size_t)r;
	}
	e->echoed += done;
}

int main(int argc, char **argv)
{
	struct ex_args a;
	char err[512];
	ex_parse(argc, argv, &a, "echo every UDP packet back to its sender");
	int fd = ex_socket(&a);
	struct echo e = { .fd = fd };
	struct rxl_loop *l = rxl_open_udp(fd, &a.cfg, on_batch, &e, err, sizeof err);
	if (!l) {
		fprintf(stderr, "%s: %s\n", argv[0], err);
		return 2;
	}
	ex_signals(l);
	ex_announce(&a, fd);
	int rc = rxl_run(l, (uint64_t)(a.seconds * 1e9));
	printf("echoed %" PRIu64 "\n", e.echoed);
	printf("failed %" PRIu64 "\n", e.failed);
	rxl_close(l);
	close(fd);
	return rc < 0 ? 1 : 0;
}
