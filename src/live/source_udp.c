/* source_udp.c - a bound UDP socket as a packet source: recvmmsg() into
 * one preallocated buffer per slot (see loop_impl.h for the ops contract).
 * The caller owns the socket: close() leaves it open. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sock_diag.h>
#include <sys/socket.h>

#include "live/loop_impl.h"

struct udp_source {
	struct rxl_source base;
	bool blocking;              /* SO_BUSY_POLL mode: recvmmsg() may block */
	int old_flags;              /* fcntl flags to restore */
	uint32_t drops0;            /* SK_MEMINFO_DROPS at open */
	uint32_t pkt_bytes;
	uint8_t *bufs;              /* slots * pkt_bytes */
	struct mmsghdr *msgs;
	struct iovec *iov;
	struct sockaddr_storage *addrs;
};

static int udp_poll(struct rxl_source *s, struct rxl_pkt *pkts, uint32_t max)
{
	struct udp_source *u = (struct udp_source *)s;
	/* Slot i of pkts[] is pkts - l->pkts + i of the loop; the buffers are
	 * indexed the same way, so hand recvmmsg the matching part. */
	for (uint32_t i = 0; i < max; i++) {
		u->msgs[i].msg_hdr.msg_namelen = sizeof(u->addrs[0]);
		u->msgs[i].msg_len = 0;
	}
	int flags = u->blocking ? MSG_WAITFORONE : MSG_DONTWAIT;
	int n = recvmmsg(s->fd, u->msgs, max, flags, NULL);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -errno;
	int64_t now = rxl_now();
	for (int i = 0; i < n; i++) {
		pkts[i].data = u->iov[i].iov_base;
		pkts[i].len = u->msgs[i].msg_len;
		pkts[i].rx_ns = (uint64_t)now;
		pkts[i].src = (const struct sockaddr *)&u->addrs[i];
		pkts[i].src_len = u->msgs[i].msg_hdr.msg_namelen;
	}
	/* The next poll before a release (coalescing) must not overwrite
	 * these: rotate the message array past them. */
	u->msgs += n;
	u->iov += n;
	u->addrs += n;
	return n;
}

static void udp_release(struct rxl_source *s)
{
	struct udp_source *u = (struct udp_source *)s;
	size_t used = (size_t)(u->iov - (struct iovec *)(u + 1));
	u->msgs -= used;
	u->iov -= used;
	u->addrs -= used;
}

/* sk_drops of the socket (u32 in the kernel, so the difference is taken
 * modulo 2^32). */
static uint32_t sk_drops(int fd)
{
	uint32_t mi[SK_MEMINFO_VARS] = { 0 };
	socklen_t len = sizeof mi;
	if (getsockopt(fd, SOL_SOCKET, SO_MEMINFO, mi, &len) != 0 || len <= SK_MEMINFO_DROPS * sizeof(mi[0]))
		return 0;
	return mi[SK_MEMINFO_DROPS];
}

static uint64_t udp_drops(struct rxl_source *s)
{
	struct udp_source *u = (struct udp_source *)s;
	return (uint32_t)(sk_drops(s->fd) - u->drops0);
}

static void udp_close(struct rxl_source *s)
{
	struct udp_source *u = (struct udp_source *)s;
	fcntl(s->fd, F_SETFL, u->old_flags);
	free(u->bufs);
	free(u);
}

static const struct rxl_source_ops udp_ops = {
	.name = "udp", .poll = udp_poll, .release = udp_release, .drops = udp_drops, .close = udp_close,
};

struct rxl_source *rxl_source_udp(int fd, const struct rxl_config *c, char *err, size_t errlen)
{
	uint32_t slots = rxl_source_slots(c);
	/* One allocation: header, then iov, msgs and addrs arrays. */
	size_t sz = sizeof(struct udp_source) + slots * (sizeof(struct iovec) +
		sizeof(struct mmsghdr) + sizeof(struct sockaddr_storage));
	struct udp_source *u = calloc(1, sz);
	uint8_t *bufs = calloc(slots, c->max_pkt_bytes);
	int fl = fcntl(fd, F_GETFL);
	if (!u || !bufs || fl < 0) {
		snprintf(err, errlen, "udp source: %s", fl < 0 ? strerror(errno) : "out of memory");
		free(u);
		free(bufs);
		return NULL;
	}
	u->base = (struct rxl_source){ .ops = &udp_ops, .fd = fd, .slots = slots };
	u->blocking = c->mode == RXL_MODE_SO_BUSY_POLL;
	u->old_flags = fl;
	u->drops0 = sk_drops(fd);
	u->bufs = bufs;
	u->pkt_bytes = c->max_pkt_bytes;
	u->iov = (struct iovec *)(u + 1);
	u->msgs = (struct mmsghdr *)(u->iov + slots);
	u->addrs = (struct sockaddr_storage *)(u->msgs + slots);
	for (uint32_t i = 0; i < slots; i++) {
		u->iov[i] = (struct iovec){ .iov_base = bufs + (size_t)i * c->max_pkt_bytes,
					    .iov_len = c->max_pkt_bytes };
		u->msgs[i].msg_hdr = (struct msghdr){ .msg_name = &u->addrs[i],
						      .msg_iov = &u->iov[i], .msg_iovlen = 1 };
	}
	int want = u->blocking ? (fl & ~O_NONBLOCK) : (fl | O_NONBLOCK);
	if (fcntl(fd, F_SETFL, want) != 0) {
		snprintf(err, errlen, "udp source: fcntl: %s", strerror(errno));
		free(bufs);
		free(u);
		return NULL;
	}
	return &u->base;
}
