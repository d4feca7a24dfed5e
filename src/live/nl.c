/* nl.c - minimal netlink requests (see nl.h). */
#define _GNU_SOURCE
#include "live/nl.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <linux/genetlink.h>

#define NLA_ALIGNED(len) (((len) + NLA_ALIGNTO - 1) & ~(NLA_ALIGNTO - 1))

void nlb_init(struct nlb *b, uint16_t type, uint16_t flags)
{
	memset(b, 0, sizeof(*b));
	b->u.hdr.nlmsg_len = NLMSG_HDRLEN;
	b->u.hdr.nlmsg_type = type;
	b->u.hdr.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
}

void *nlb_put(struct nlb *b, size_t len)
{
	char *p = b->u.buf + NLMSG_ALIGN(b->u.hdr.nlmsg_len);

	/* Requests are a few hundred bytes; overflowing 4 KiB is a bug. */
	if (NLMSG_ALIGN(b->u.hdr.nlmsg_len) + NLMSG_ALIGN(len) > NLB_SIZE)
		__builtin_trap();
	memset(p, 0, NLMSG_ALIGN(len));
	b->u.hdr.nlmsg_len = NLMSG_ALIGN(b->u.hdr.nlmsg_len) + NLMSG_ALIGN(len);
	return p;
}

void nlb_attr(struct nlb *b, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a = nlb_put(b, NLA_HDRLEN + len);

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
}

void nlb_u32(struct nlb *b, uint16_t type, uint32_t v)
{
	nlb_attr(b, type, &v, sizeof(v));
}

void nlb_u64(struct nlb *b, uint16_t type, uint64_t v)
{
	nlb_attr(b, type, &v, sizeof(v));
}

void nlb_str(struct nlb *b, uint16_t type, const char *s)
{
	nlb_attr(b, type, s, strlen(s) + 1);
}

struct nlattr *nlb_nest_start(struct nlb *b, uint16_t type)
{
	struct nlattr *a = nlb_put(b, NLA_HDRLEN);

	a->nla_type = type | NLA_F_NESTED;
	return a;
}

void nlb_nest_end(struct nlb *b, struct nlattr *nest)
{
	nest->nla_len = (uint16_t)(b->u.buf + b->u.hdr.nlmsg_len - (char *)nest);
}

int nl_open(int proto)
{
	return nl_open_in(-1, proto);
}

int socket_in(int ns_fd, int domain, int type, int proto)
{
	int self, fd, saved;

	if (ns_fd < 0)
		return socket(domain, type | SOCK_CLOEXEC, proto);
	self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self < 0)
		return -1;
	if (setns(ns_fd, CLONE_NEWNET) != 0) {
		saved = errno;
		close(self);
		errno = saved;
		return -1;
	}
	fd = socket(domain, type | SOCK_CLOEXEC, proto);
	saved = errno;
	if (setns(self, CLONE_NEWNET) != 0)
		__builtin_trap();	/* cannot go home: nothing after this is safe */
	close(self);
	errno = saved;
	return fd;
}

int nl_open_in(int ns_fd, int proto)
{
	int fd = socket_in(ns_fd, AF_NETLINK, SOCK_RAW, proto);
	struct timeval tv = { .tv_sec = 5 };

	/* A kernel that never answers must not hang a run. */
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

/* One reply datagram: 0 to read more, 1 when the request is complete,
 * or a negative errno. */
static int nl_walk(char *buf, ssize_t n, uint32_t seq, nl_reply_fn fn, void *arg)
{
	for (struct nlmsghdr *m = (struct nlmsghdr *)buf; NLMSG_OK(m, (size_t)n);
	     m = NLMSG_NEXT(m, n)) {
		if (m->nlmsg_seq != seq)
			continue;
		if (m->nlmsg_type == NLMSG_DONE)
			return 1;
		if (m->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(m);

			return e->error ? e->error : 1;
		}
		if (fn && fn(m, arg))
			return -ECANCELED;
	}
	return 0;
}

int nl_talk(int fd, struct nlb *b, nl_reply_fn fn, void *arg)
{
	static uint32_t seq_next = 1;
	char buf[32768];
	ssize_t n;
	int rc;

	b->u.hdr.nlmsg_seq = __atomic_fetch_add(&seq_next, 1, __ATOMIC_RELAXED);
	if (send(fd, b->u.buf, b->u.hdr.nlmsg_len, 0) < 0)
		return -errno;
	do {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0)
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		rc = nl_walk(buf, n, b->u.hdr.nlmsg_seq, fn, arg);
	} while (rc == 0);
	return rc == 1 ? 0 : rc;
}

void nl_parse(const void *start, size_t len, const struct nlattr **tb, int max)
{
	const char *p = start, *end = p + len;

	memset(tb, 0, sizeof(*tb) * (size_t)(max + 1));
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const struct nlattr *)p;
		int type = a->nla_type & NLA_TYPE_MASK;

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			break;
		if (type <= max)
			tb[type] = a;
		p += NLA_ALIGNED(a->nla_len);
	}
}

const void *nl_data(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

uint32_t nl_get_u32(const struct nlattr *a)
{
	uint32_t v;

	memcpy(&v, nl_data(a), sizeof(v));
	return v;
}

uint64_t nl_get_uint(const struct nlattr *a)
{
	uint64_t v;

	if (a->nla_len - NLA_HDRLEN < (int)sizeof(v))
		return nl_get_u32(a);
	memcpy(&v, nl_data(a), sizeof(v));
	return v;
}

static int family_reply(const struct nlmsghdr *m, void *arg)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1];
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN;

	nl_parse((const char *)m + off, m->nlmsg_len - off, tb, CTRL_ATTR_MAX);
	if (tb[CTRL_ATTR_FAMILY_ID])
		*(int *)arg = *(const uint16_t *)nl_data(tb[CTRL_ATTR_FAMILY_ID]);
	return 0;
}

int genl_family(int fd, const char *name)
{
	struct nlb b;
	struct genlmsghdr *g;
	int id = 0, rc;

	nlb_init(&b, GENL_ID_CTRL, 0);
	g = nlb_put(&b, GENL_HDRLEN);
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	nlb_str(&b, CTRL_ATTR_FAMILY_NAME, name);
	rc = nl_talk(fd, &b, family_reply, &id);
	if (rc)
		return rc;
	return id > 0 ? id : -ENOENT;
}
