/* nl.h - the little netlink rxlab needs: build one request, send it, walk
 * the replies.  rtnetlink (veth pairs, addresses, neighbours, link stats)
 * and generic netlink (the "netdev" family's napi-get / napi-set).
 *
 * Internal to src/live.  Written against the raw uapi headers on purpose:
 * libmnl/libnl would add a build dependency for ~200 lines, and the
 * installed headers (Debian 12, linux-libc-dev 6.1) lack linux/netdev.h,
 * whose constants nl.h therefore defines itself (values from the kernel's
 * include/uapi/linux/netdev.h, v6.18).
 *
 * A socket's network namespace is the one its creating thread was in, so a
 * request about a device in a test-bed namespace goes through a socket
 * opened by nl_open_in().
 */
#ifndef RXLAB_LIVE_NL_H
#define RXLAB_LIVE_NL_H

#include <stddef.h>
#include <stdint.h>

#include <linux/netlink.h>

/* Generic netlink "netdev" family (include/uapi/linux/netdev.h). */
#define RXL_NETDEV_FAMILY "netdev"
#define RXL_NETDEV_CMD_NAPI_GET 11
#define RXL_NETDEV_CMD_NAPI_SET 14
enum {
	RXL_NAPI_A_IFINDEX = 1,
	RXL_NAPI_A_ID,
	RXL_NAPI_A_IRQ,
	RXL_NAPI_A_PID,
	RXL_NAPI_A_DEFER_HARD_IRQS,	/* u32: napi_defer_hard_irqs */
	RXL_NAPI_A_GRO_FLUSH_TIMEOUT,	/* uint, ns */
	RXL_NAPI_A_IRQ_SUSPEND_TIMEOUT,	/* uint, ns */
	RXL_NAPI_A_THREADED,		/* u32: 0 disabled, 1 enabled, 2 busy-poll */
	RXL_NAPI_A_MAX = RXL_NAPI_A_THREADED,
};

#define NLB_SIZE 4096

/* One request being built: a netlink header, a fixed family header
 * (ifinfomsg, ifaddrmsg, genlmsghdr ...) and attributes. */
struct nlb {
	union {
		struct nlmsghdr hdr;
		char buf[NLB_SIZE];
	} u;
};

/* Start a request of @type with NLM_F_REQUEST|NLM_F_ACK|@flags. */
void nlb_init(struct nlb *b, uint16_t type, uint16_t flags);
/* Append @len zeroed bytes (a family header) and return them. */
void *nlb_put(struct nlb *b, size_t len);
void nlb_attr(struct nlb *b, uint16_t type, const void *data, size_t len);
void nlb_u32(struct nlb *b, uint16_t type, uint32_t v);
void nlb_u64(struct nlb *b, uint16_t type, uint64_t v);
void nlb_str(struct nlb *b, uint16_t type, const char *s);
/* Nested attribute: start returns a handle for nlb_nest_end. */
struct nlattr *nlb_nest_start(struct nlb *b, uint16_t type);
void nlb_nest_end(struct nlb *b, struct nlattr *nest);

/* A NETLINK_@proto socket in the calling thread's namespace (-1 and errno
 * on failure) or in namespace @ns_fd (-1 = current), entering it for the
 * socket() call only. */
int nl_open(int proto);
int nl_open_in(int ns_fd, int proto);

/* socket(@domain, @type | SOCK_CLOEXEC, @proto) created in network namespace
 * @ns_fd (-1 = the calling thread's); -1 and errno on failure.  The calling
 * thread is back in its own namespace on return. */
int socket_in(int ns_fd, int domain, int type, int proto);

/* Called for each reply message that is not an ACK/DONE; non-zero stops. */
typedef int (*nl_reply_fn)(const struct nlmsghdr *m, void *arg);

/* Send @b on @fd and read replies until the ACK (or DONE of a dump),
 * giving each data message to @fn (may be NULL).  0, or a negative errno
 * (the kernel's error for the request). */
int nl_talk(int fd, struct nlb *b, nl_reply_fn fn, void *arg);

/* Index the attributes in [@start, @start+@len) by type into @tb[0..@max]
 * (unknown types above @max are skipped; @tb zeroed first). */
void nl_parse(const void *start, size_t len, const struct nlattr **tb, int max);
uint32_t nl_get_u32(const struct nlattr *a);
/* A u32 or u64 attribute (the kernel's NLA_UINT) as u64. */
uint64_t nl_get_uint(const struct nlattr *a);
const void *nl_data(const struct nlattr *a);

/* Id of generic netlink family @name on generic netlink socket @fd:
 * > 0, or a negative errno (-ENOENT when the kernel lacks it). */
int genl_family(int fd, const char *name);

#endif
