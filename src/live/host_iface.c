/* host_iface.c - default routes and global addresses (see host_iface.h).
 *
 * Formats: /proc/net/route is written by fib_route_seq_show()
 * (net/ipv4/fib_trie.c): "Iface Destination Gateway Flags RefCnt Use
 * Metric Mask MTU Window IRTT", addresses as the hex of the __be32 as
 * stored (so the parsed number is s_addr itself).  /proc/net/ipv6_route
 * by ipv6_route_native_seq_show() (net/ipv6/route.c): destination (32
 * hex), prefix length, source, its length, next hop, metric, refcount,
 * use, flags, device.  RTF_UP 0x1, RTF_REJECT 0x200 (include/uapi/linux/
 * route.h, ipv6_route.h).
 */
#include "live/host_iface.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/rtnetlink.h>

#include "live/nl.h"

#define ROUTE_UP 0x1u
#define ROUTE_REJECT 0x200u

/* Each line of @text after the header, NUL-terminated in @line. */
static const char *next_line(const char *p, char *line, size_t len)
{
	size_t n;

	if (!p || !*p)
		return NULL;
	n = strcspn(p, "\n");
	snprintf(line, len, "%.*s", (int)(n < len ? n : len - 1), p);
	return p + n + (p[n] == '\n');
}

static int default4(const char *ifname, const char *text, char *why, size_t whylen)
{
	char line[512], dev[IF_NAMESIZE + 1], gw[INET_ADDRSTRLEN];
	unsigned dst, gateway, flags, mask;
	const char *p = next_line(text, line, sizeof(line)); /* the header */

	while ((p = next_line(p, line, sizeof(line))) != NULL) {
		if (sscanf(line, "%16s %x %x %x %*d %*d %*d %x", dev, &dst, &gateway, &flags,
			   &mask) != 5 || strcmp(dev, ifname) || dst || mask || !(flags & ROUTE_UP))
			continue;
		inet_ntop(AF_INET, &(struct in_addr){ .s_addr = gateway }, gw, sizeof(gw));
		snprintf(why, whylen, "the IPv4 default route (0.0.0.0/0%s%s)",
			 gateway ? " via " : "", gateway ? gw : "");
		return 1;
	}
	return 0;
}

static int hex_bytes(const char *hex, uint8_t *out)
{
	for (size_t i = 0; i < 16; i++) {
		unsigned b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (uint8_t)b;
	}
	return 0;
}

static int default6(const char *ifname, const char *text, char *why, size_t whylen)
{
	char line[512], dev[IF_NAMESIZE + 1], dst[33], hop[33], gw[INET6_ADDRSTRLEN];
	unsigned plen, flags;
	uint8_t d[16], h[16], zero[16] = { 0 };

	for (const char *p = text; (p = next_line(p, line, sizeof(line))) != NULL;) {
		if (sscanf(line, "%32s %x %*32s %*x %32s %*x %*x %*x %x %16s", dst, &plen, hop,
			   &flags, dev) != 5 || strcmp(dev, ifname) || plen != 0 ||
		    !(flags & ROUTE_UP) || (flags & ROUTE_REJECT) || hex_bytes(dst, d) ||
		    hex_bytes(hop, h) || memcmp(d, zero, 16))
			continue;
		inet_ntop(AF_INET6, h, gw, sizeof(gw));
		snprintf(why, whylen, "the IPv6 default route (::/0%s%s)",
			 memcmp(h, zero, 16) ? " via " : "", memcmp(h, zero, 16) ? gw : "");
		return 1;
	}
	return 0;
}

static int global_addr(int ifindex, const struct host_addr *a, size_t n, char *why,
		       size_t whylen)
{
	char text[INET6_ADDRSTRLEN];

	for (size_t i = 0; i < n; i++) {
		if (a[i].ifindex != ifindex || a[i].scope >= RT_SCOPE_LINK)
			continue;
		inet_ntop(a[i].family, a[i].addr, text, sizeof(text));
		snprintf(why, whylen, "the %s address %s/%u",
			 a[i].scope == RT_SCOPE_UNIVERSE ? "global" : "site-scope", text, a[i].prefix);
		return 1;
	}
	return 0;
}

int host_iface_use(const char *ifname, int ifindex, const char *route4, const char *route6,
		   const struct host_addr *a, size_t n, char *why, size_t whylen)
{
	if (route4 && default4(ifname, route4, why, whylen))
		return 1;
	if (route6 && default6(ifname, route6, why, whylen))
		return 1;
	return global_addr(ifindex, a, n, why, whylen);
}

/* ---- this host's tables ---- */

#define TABLE_MAX (4u << 20)	/* a routing table's text, bytes */
#define ADDRS_MAX 4096

/* The whole of /proc file @path, malloc'ed; NULL with errno (ENOENT for a
 * table the kernel does not have). */
static char *read_table(const char *path)
{
	FILE *f = fopen(path, "re");
	size_t cap = 65536, n = 0;
	char *buf = f ? malloc(cap + 1) : NULL;

	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap || cap >= TABLE_MAX)
			break;
		char *bigger = realloc(buf, cap * 2 + 1);

		if (!bigger) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = bigger;
		cap *= 2;
	}
	if (buf)
		buf[n] = '\0';
	if (f)
		fclose(f);
	return buf;
}

struct addr_list {
	struct host_addr *a;
	size_t n;
};

static int on_addr(const struct nlmsghdr *m, void *arg)
{
	struct addr_list *l = arg;
	const struct ifaddrmsg *ifa = NLMSG_DATA(m);
	const struct nlattr *tb[IFA_MAX + 1];
	const struct nlattr *at;
	struct host_addr *h;

	if (m->nlmsg_type != RTM_NEWADDR || l->n == ADDRS_MAX ||
	    m->nlmsg_len < NLMSG_LENGTH(sizeof(*ifa)))
		return 0;
	nl_parse((const char *)ifa + NLMSG_ALIGN(sizeof(*ifa)),
		 m->nlmsg_len - NLMSG_LENGTH(NLMSG_ALIGN(sizeof(*ifa))), tb, IFA_MAX);
	at = tb[IFA_LOCAL] ? tb[IFA_LOCAL] : tb[IFA_ADDRESS];
	if (!at || (ifa->ifa_family != AF_INET && ifa->ifa_family != AF_INET6))
		return 0;
	h = &l->a[l->n++];
	*h = (struct host_addr){ .ifindex = (int)ifa->ifa_index, .family = ifa->ifa_family,
				 .prefix = ifa->ifa_prefixlen, .scope = ifa->ifa_scope };
	memcpy(h->addr, nl_data(at), ifa->ifa_family == AF_INET ? 4 : 16);
	return 0;
}

static int dump_addrs(struct addr_list *l)
{
	struct nlb b;
	int fd = nl_open(NETLINK_ROUTE), rc;

	if (fd < 0)
		return -errno;
	nlb_init(&b, RTM_GETADDR, NLM_F_DUMP);
	nlb_put(&b, sizeof(struct ifaddrmsg));
	rc = nl_talk(fd, &b, on_addr, l);
	close(fd);
	return rc;
}

int host_iface_check(const char *ifname, char *why, size_t whylen)
{
	struct addr_list l = { .a = calloc(ADDRS_MAX, sizeof(struct host_addr)) };
	char *r4 = read_table("/proc/net/route");
	int e4 = errno;
	char *r6 = read_table("/proc/net/ipv6_route");
	int e6 = errno, rc;

	if (!l.a)
		rc = -ENOMEM, snprintf(why, whylen, "out of memory");
	else if (!r4)
		rc = -e4, snprintf(why, whylen, "/proc/net/route: %s", strerror(e4));
	else if (!r6 && e6 != ENOENT)
		rc = -e6, snprintf(why, whylen, "/proc/net/ipv6_route: %s", strerror(e6));
	else if ((rc = dump_addrs(&l)) < 0)
		snprintf(why, whylen, "the address list (rtnetlink RTM_GETADDR): %s", strerror(-rc));
	else
		rc = host_iface_use(ifname, (int)if_nametoindex(ifname), r4, r6, l.a, l.n, why,
				    whylen);
	free(l.a);
	free(r4);
	free(r6);
	return rc;
}
