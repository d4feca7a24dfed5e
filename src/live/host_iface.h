/* host_iface.h - is an interface this host's own connection?
 *
 * `rxlab live --iface NAME` changes the settings of NAME (--set dev.*)
 * and may attach an XDP program to it.  Done to the interface that carries
 * the host's default route, or one with a global address, that can cut
 * the machine off its network: the CLI refuses such an interface unless
 * told otherwise (--allow-host-iface).
 *
 * The decision is a pure function of the tables (host_iface_use()), so
 * that tests give it copies of /proc text; host_iface_check() reads this
 * host's tables and calls it.
 *
 * Internal to src/live (the CLI includes it, as it does knobs.h).
 */
#ifndef RXLAB_LIVE_HOST_IFACE_H
#define RXLAB_LIVE_HOST_IFACE_H

#include <stddef.h>
#include <stdint.h>

/* One address of an interface as rtnetlink gives it (RTM_NEWADDR). */
struct host_addr {
	int ifindex;            /* ifa_index */
	uint8_t family;         /* AF_INET or AF_INET6 */
	uint8_t prefix;         /* ifa_prefixlen */
	uint8_t scope;          /* ifa_scope: RT_SCOPE_UNIVERSE 0 (global), SITE 200,
	                         * LINK 253, HOST 254 (include/uapi/linux/rtnetlink.h) */
	uint8_t addr[16];       /* network order; 4 bytes used for AF_INET */
};

/* Does interface @ifname (index @ifindex) carry a default route or an
 * address of global (or site) scope?
 *   @route4  the text of /proc/net/route (NULL: no IPv4 routes): a line
 *            whose Destination and Mask are 0 and whose Flags have RTF_UP;
 *   @route6  the text of /proc/net/ipv6_route (NULL: none): destination
 *            ::/0 with RTF_UP and without RTF_REJECT (the kernel lists an
 *            unreachable ::/0 on lo in every namespace; it routes nothing);
 *   @a[0..n) the addresses, those of @ifindex looked at.
 * /proc/net/route shows the main table only: policy-routing tables are not
 * seen.  Returns 0 when none is found, else 1 with @why saying which:
 * "the IPv4 default route (0.0.0.0/0 via 192.0.2.1)", "the global address
 * 192.0.2.2/24". */
int host_iface_use(const char *ifname, int ifindex, const char *route4, const char *route6,
		   const struct host_addr *a, size_t n, char *why, size_t whylen);

/* host_iface_use() on the tables of the caller's network namespace:
 * /proc/net/route, /proc/net/ipv6_route (absent without IPv6: no routes)
 * and an RTM_GETADDR dump.  0, 1 with @why, or a negative errno with
 * @why naming the table that could not be read. */
int host_iface_check(const char *ifname, char *why, size_t whylen);

#endif
