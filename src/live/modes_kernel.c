/* modes_kernel.c - the kernel-driven socket modes (include/rxlab/live.h):
 * the kernel moderates (busy polling, preferred busy polling with IRQ
 * deferral or suspension, threaded NAPI), the loop sets the socket and
 * epoll options and drains.  Device-level knobs (napi_defer_hard_irqs,
 * gro_flush_timeout, irq-suspend-timeout, threaded) belong to the caller.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "live/loop_impl.h"

#ifndef SO_BUSY_POLL
#define SO_BUSY_POLL 46
#endif
#ifndef SO_PREFER_BUSY_POLL
#define SO_PREFER_BUSY_POLL 69
#endif
#ifndef SO_BUSY_POLL_BUDGET
#define SO_BUSY_POLL_BUDGET 70
#endif

/* include/uapi/linux/eventpoll.h (Linux 6.9+); Debian 12's headers lack it. */
struct rxl_epoll_params {
	uint32_t busy_poll_usecs;
	uint16_t busy_poll_budget;
	uint8_t prefer_busy_poll;
	uint8_t pad; /* must be zero */
};
#ifndef EPOLL_IOC_TYPE
#define EPOLL_IOC_TYPE 0x8A
#endif
#define RXL_EPIOCSPARAMS _IOW(EPOLL_IOC_TYPE, 0x01, struct rxl_epoll_params)

/* How long a blocking receive waits before it looks at rxl_stop(). */
#define BLOCKING_RCVTIMEO_US 10000

/* Remember @opt's current value (once) so that rxl_close() can put it back. */
static void save_opt(struct rxl_loop *l, int fd, int opt)
{
	for (uint32_t i = 0; i < l->nsaved; i++)
		if (l->saved[i].opt == opt)
			return;
	if (l->nsaved == RXL_MAX_SAVED_OPTS)
		return;
	struct rxl_saved_opt *s = &l->saved[l->nsaved];
	s->opt = opt;
	s->len = sizeof s->val;
	if (getsockopt(fd, SOL_SOCKET, opt, s->val, &s->len) != 0)
		return;
	if (opt == SO_RCVBUF) {
		/* getsockopt reports the doubled value the kernel keeps;
		 * setting it doubles again */
		int v;
		memcpy(&v, s->val, sizeof v);
		v /= 2;
		memcpy(s->val, &v, sizeof v);
	}
	l->sockfd = fd;
	l->nsaved++;
}

void rxl_kernel_restore(struct rxl_loop *l)
{
	for (uint32_t i = l->nsaved; i-- > 0;) {
		struct rxl_saved_opt *s = &l->saved[i];
		if (s->opt == SO_RCVBUF &&
		    setsockopt(l->sockfd, SOL_SOCKET, SO_RCVBUFFORCE, s->val, s->len) == 0)
			continue;
		setsockopt(l->sockfd, SOL_SOCKET, s->opt, s->val, s->len);
	}
	l->nsaved = 0;
}

static int sockopt(struct rxl_loop *l, int fd, int opt, int val, const char *name, char *err,
		   size_t errlen)
{
	save_opt(l, fd, opt);
	if (setsockopt(fd, SOL_SOCKET, opt, &val, sizeof val) == 0)
		return 0;
	int e = errno;
	snprintf(err, errlen, "setsockopt %s=%d: %s%s", name, val, strerror(e),
		 e == EPERM ? " (needs CAP_NET_ADMIN)" : "");
	return -e;
}

static int busy_poll_setup(struct rxl_loop *l, int fd, char *err, size_t errlen)
{
	const struct rxl_config *c = &l->cfg;
	int rc = sockopt(l, fd, SO_BUSY_POLL, (int)c->busy_poll_usecs, "SO_BUSY_POLL", err, errlen);
	if (rc || c->mode == RXL_MODE_SO_BUSY_POLL)
		return rc;
	rc = sockopt(l, fd, SO_PREFER_BUSY_POLL, c->prefer_busy_poll, "SO_PREFER_BUSY_POLL", err,
		     errlen);
	if (!rc)
		rc = sockopt(l, fd, SO_BUSY_POLL_BUDGET, (int)c->busy_poll_budget,
			     "SO_BUSY_POLL_BUDGET", err, errlen);
	if (rc)
		return rc;
	struct rxl_epoll_params ep = { .busy_poll_usecs = c->busy_poll_usecs,
				       .busy_poll_budget = (uint16_t)c->busy_poll_budget,
				       .prefer_busy_poll = c->prefer_busy_poll };
	if (ioctl(l->epfd, RXL_EPIOCSPARAMS, &ep) != 0) {
		int e = errno;
		snprintf(err, errlen, "epoll ioctl EPIOCSPARAMS: %s (needs Linux 6.9 or later)", strerror(e));
		return -e;
	}
	return 0;
}

int rxl_kernel_setup(struct rxl_loop *l, int fd, char *err, size_t errlen)
{
	const struct rxl_config *c = &l->cfg;
	if (c->rcvbuf_bytes) {
		int v = (int)c->rcvbuf_bytes;
		save_opt(l, fd, SO_RCVBUF);
		if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof v) != 0) {
			int rc = sockopt(l, fd, SO_RCVBUF, v, "SO_RCVBUF", err, errlen);
			if (rc)
				return rc;
		}
	}
	switch (c->mode) {
	case RXL_MODE_SO_BUSY_POLL: {
		struct timeval tv = { .tv_sec = 0, .tv_usec = BLOCKING_RCVTIMEO_US };
		save_opt(l, fd, SO_RCVTIMEO);
		if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0) {
			int e = errno;
			snprintf(err, errlen, "setsockopt SO_RCVTIMEO: %s", strerror(e));
			return -e;
		}
		return busy_poll_setup(l, fd, err, errlen);
	}
	case RXL_MODE_PREFER_BUSY:
	case RXL_MODE_IRQ_SUSPEND:
		return busy_poll_setup(l, fd, err, errlen);
	default:
		return 0;
	}
}

/* epoll and its kernel-moderated relatives: sleep until readiness, then
 * poll until a poll comes back short. */
int rxl_mode_epoll(struct rxl_loop *l)
{
	while (!rxl_done(l)) {
		if (rxl_wait_ready(l, -1) != RXL_WAKE_READY)
			continue;
		while (rxl_poll(l, l->cfg.budget) == l->cfg.budget && !rxl_done(l))
			;
	}
	return 0;
}

/* SO_BUSY_POLL: blocking recvmmsg(MSG_WAITFORONE), in which the kernel
 * busy-polls the device queue for busy-poll-usecs before it sleeps.  Each
 * call counts as one sleep; it ends as a wake-up when it brought packets,
 * else as a timer wake-up (SO_RCVTIMEO). */
int rxl_mode_blocking(struct rxl_loop *l)
{
	while (!rxl_done(l)) {
		rxl_stats_publish(l); /* the kernel may sleep in the poll */
		int64_t t0 = rxl_now();
		uint32_t n = rxl_poll(l, l->cfg.budget);
		int64_t t1 = rxl_now();
		l->st.sleeps++;
		l->st.sleep_ns += (uint64_t)(t1 - t0);
		if (n)
			l->st.wakeups++;
		else
			l->st.timer_wakeups++;
	}
	return 0;
}
