/* queues.c - steering and flows for several receive queues (see queues.h). */
#define _GNU_SOURCE
#include "live/queues.h"

#include <errno.h>
#include <linux/filter.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "live/nl.h"

#ifndef SO_INCOMING_NAPI_ID
#define SO_INCOMING_NAPI_ID 56
#endif
#ifndef SO_ATTACH_REUSEPORT_CBPF
#define SO_ATTACH_REUSEPORT_CBPF 51
#endif

#define PROBE_WAIT_MS 200

int queues_steer(int fd, const int *cpu, int nq)
{
	struct sock_filter code[2 + 2 * 8];
	struct sock_fprog prog = { .filter = code };
	int n = 0;

	if (nq < 1 || nq > 8)
		return errno = EINVAL, -1;
	code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_CPU);
	for (int q = 0; q < nq; q++) {
		code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)cpu[q], 0, 1);
		code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, (uint32_t)q);
	}
	code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0);
	prog.len = (unsigned short)n;
	return setsockopt(fd, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &prog, sizeof(prog));
}

uint32_t queues_napi_id(int fd)
{
	uint32_t id = 0;
	socklen_t len = sizeof(id);

	return getsockopt(fd, SOL_SOCKET, SO_INCOMING_NAPI_ID, &id, &len) == 0 ? id : 0;
}

/* Which of @rx got a datagram within PROBE_WAIT_MS (all read off); -1: none. */
static int probe_landed(const int *rx, int nq)
{
	struct pollfd p[8];
	char buf[64];
	int got = -1;

	for (int q = 0; q < nq; q++)
		p[q] = (struct pollfd){ .fd = rx[q], .events = POLLIN };
	if (poll(p, (nfds_t)nq, PROBE_WAIT_MS) <= 0)
		return -1;
	for (int q = 0; q < nq; q++)
		while (recv(rx[q], buf, sizeof(buf), MSG_DONTWAIT) > 0)
			got = q;
	return got;
}

static bool all_set(const int *tx, int nq)
{
	for (int q = 0; q < nq; q++)
		if (tx[q] < 0)
			return false;
	return true;
}

int queues_probe(int ns, const struct sockaddr_in *dst, const int *rx, int nq, int *tx,
		 uint32_t *napi_id, char *err, size_t errlen)
{
	static const char probe[] = "rxlab-queue-probe";

	for (int q = 0; q < nq; q++)
		tx[q] = -1, napi_id[q] = 0;
	for (int i = 0; i < QUEUES_PROBE_TRIES && !all_set(tx, nq); i++) {
		int fd = socket_in(ns, AF_INET, SOCK_DGRAM, 0), q;

		if (fd < 0 || connect(fd, (const struct sockaddr *)dst, sizeof(*dst)) != 0 ||
		    send(fd, probe, sizeof(probe), 0) < 0) {
			snprintf(err, errlen, "queue probe socket: %s", strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		q = probe_landed(rx, nq);
		if (q >= 0 && tx[q] < 0) {
			tx[q] = fd;
			napi_id[q] = queues_napi_id(rx[q]);
		} else {
			close(fd);
		}
	}
	if (all_set(tx, nq))
		return 0;
	snprintf(err, errlen, "after %d sender sockets some of the %d queues received nothing "
		 "(veth picks the queue from the socket's hash)", QUEUES_PROBE_TRIES, nq);
	for (int q = 0; q < nq; q++)
		if (tx[q] >= 0)
			close(tx[q]), tx[q] = -1;
	return -1;
}
