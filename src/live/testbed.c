/* testbed.c - two anonymous network namespaces and a veth pair (see
 * testbed.h for the picture and why the namespaces are anonymous). */
#define _GNU_SOURCE
#include "live/testbed.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "live/knobs.h"
#include "live/nl.h"

static const uint8_t mac_tx[6] = { 0x02, 0x72, 0x78, 0x6c, 0x00, 0x01 };
static const uint8_t mac_rx[6] = { 0x02, 0x72, 0x78, 0x6c, 0x00, 0x02 };
#define ADDR_TX "169.254.77.1"
#define ADDR_RX "169.254.77.2"

/* Write @val to /proc/sys/@key of the calling thread's namespace. */
static void sysctl_put(const char *key, const char *val)
{
	char p[128];
	int fd;

	snprintf(p, sizeof(p), "/proc/sys/%s", key);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;	/* no IPv6 in this kernel */
	/* A kernel without IPv6 has no such file: nothing to silence then. */
	ssize_t n = write(fd, val, strlen(val));
	(void)n;
	close(fd);
}

/* A new anonymous network namespace: enter it, keep an fd, come back.
 * IPv6 is off inside, so no router or neighbour solicitation frames mix
 * with the measured traffic. */
static int ns_new(int home)
{
	int fd;

	if (unshare(CLONE_NEWNET) != 0)
		return -1;
	sysctl_put("net/ipv6/conf/all/disable_ipv6", "1");
	sysctl_put("net/ipv6/conf/default/disable_ipv6", "1");
	fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (setns(home, CLONE_NEWNET) != 0)
		__builtin_trap();	/* stranded in the new namespace */
	return fd;
}

/* RTM_NEWLINK in ns tx: veth tx_if, its peer rx_if created in ns rx. */
static int veth_add(const struct testbed *tb)
{
	struct nlb b;
	struct ifinfomsg *peer;
	struct nlattr *li, *data, *p;
	int fd = nl_open_in(tb->ns_tx, NETLINK_ROUTE), rc;
	uint32_t nq = tb->opts.queues > 1 ? (uint32_t)tb->opts.queues : 1;

	if (fd < 0)
		return -errno;
	nlb_init(&b, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	nlb_put(&b, sizeof(struct ifinfomsg));
	nlb_str(&b, IFLA_IFNAME, tb->tx_if);
	nlb_attr(&b, IFLA_ADDRESS, mac_tx, 6);
	nlb_u32(&b, IFLA_NUM_TX_QUEUES, nq);
	nlb_u32(&b, IFLA_NUM_RX_QUEUES, nq);
	li = nlb_nest_start(&b, IFLA_LINKINFO);
	nlb_str(&b, IFLA_INFO_KIND, "veth");
	data = nlb_nest_start(&b, IFLA_INFO_DATA);
	p = nlb_nest_start(&b, VETH_INFO_PEER);
	peer = nlb_put(&b, sizeof(*peer));
	peer->ifi_family = AF_UNSPEC;
	nlb_str(&b, IFLA_IFNAME, tb->rx_if);
	nlb_attr(&b, IFLA_ADDRESS, mac_rx, 6);
	nlb_u32(&b, IFLA_NUM_TX_QUEUES, nq);
	nlb_u32(&b, IFLA_NUM_RX_QUEUES, nq);
	nlb_u32(&b, IFLA_NET_NS_FD, (uint32_t)tb->ns_rx);
	nlb_nest_end(&b, p);
	nlb_nest_end(&b, data);
	nlb_nest_end(&b, li);
	rc = nl_talk(fd, &b, NULL, NULL);
	close(fd);
	return rc;
}

/* Address, permanent neighbour for the peer, link up: one side. */
static int side_setup(int ns, int ifindex, const char *addr, const char *peer_addr,
		      const uint8_t *peer_mac)
{
	struct nlb b;
	struct ifaddrmsg *ifa;
	struct ndmsg *nd;
	struct ifinfomsg *ifi;
	struct in_addr a, pa;
	int fd = nl_open_in(ns, NETLINK_ROUTE), rc;

	if (fd < 0)
		return -errno;
	inet_pton(AF_INET, addr, &a);
	inet_pton(AF_INET, peer_addr, &pa);
	nlb_init(&b, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL);
	ifa = nlb_put(&b, sizeof(*ifa));
	*ifa = (struct ifaddrmsg){ .ifa_family = AF_INET, .ifa_prefixlen = 24,
				   .ifa_scope = RT_SCOPE_LINK, .ifa_index = (uint32_t)ifindex };
	nlb_attr(&b, IFA_LOCAL, &a, 4);
	nlb_attr(&b, IFA_ADDRESS, &a, 4);
	rc = nl_talk(fd, &b, NULL, NULL);
	if (rc == 0) {
		nlb_init(&b, RTM_NEWLINK, 0);
		ifi = nlb_put(&b, sizeof(*ifi));
		*ifi = (struct ifinfomsg){ .ifi_index = ifindex, .ifi_flags = IFF_UP,
					   .ifi_change = IFF_UP };
		rc = nl_talk(fd, &b, NULL, NULL);
	}
	if (rc == 0) {
		nlb_init(&b, RTM_NEWNEIGH, NLM_F_CREATE | NLM_F_REPLACE);
		nd = nlb_put(&b, sizeof(*nd));
		*nd = (struct ndmsg){ .ndm_family = AF_INET, .ndm_ifindex = ifindex,
				      .ndm_state = NUD_PERMANENT };
		nlb_attr(&b, NDA_DST, &pa, 4);
		nlb_attr(&b, NDA_LLADDR, peer_mac, 6);
		rc = nl_talk(fd, &b, NULL, NULL);
	}
	close(fd);
	return rc;
}

static int ifindex_in(int ns, const char *name)
{
	struct ifreq ifr;
	int fd = socket_in(ns, AF_INET, SOCK_DGRAM, 0), rc;

	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	rc = ioctl(fd, SIOCGIFINDEX, &ifr) == 0 ? ifr.ifr_ifindex : -errno;
	close(fd);
	return rc;
}

static int fail(char *err, size_t errlen, const char *what, int rc)
{
	snprintf(err, errlen, "test bed: %s: %s", what, strerror(rc < 0 ? -rc : rc));
	return -1;
}

/* The receiver's NAPI ids and kthreads, ids ascending (queue order). */
static void napi_read(struct testbed *tb, const struct knob_dev *rx)
{
	int n = knob_napi_list(rx, tb->napi_ids, tb->napi_pids, TESTBED_MAX_QUEUES);

	tb->n_napi = n > 0 ? n : 0;
	for (int i = 1; i < tb->n_napi; i++)	/* insertion sort by id, pids along */
		for (int k = i; k > 0 && tb->napi_ids[k - 1] > tb->napi_ids[k]; k--) {
			uint32_t id = tb->napi_ids[k];
			pid_t pid = tb->napi_pids[k];

			tb->napi_ids[k] = tb->napi_ids[k - 1], tb->napi_pids[k] = tb->napi_pids[k - 1];
			tb->napi_ids[k - 1] = id, tb->napi_pids[k - 1] = pid;
		}
	tb->napi_id = tb->n_napi ? tb->napi_ids[0] : 0;
	tb->napi_pid = tb->n_napi ? tb->napi_pids[0] : 0;
}

/* GRO on at the receiver, TSO off at the sender: veth NAPI (see .h). */
static int napi_mode(struct testbed *tb, char *err, size_t errlen)
{
	struct knob_dev rx = { .ns_fd = tb->ns_rx, .ifindex = tb->rx_ifindex };
	struct knob_dev tx = { .ns_fd = tb->ns_tx, .ifindex = tb->tx_ifindex };
	snprintf(rx.ifname, sizeof(rx.ifname), "%s", tb->rx_if);
	snprintf(tx.ifname, sizeof(tx.ifname), "%s", tb->tx_if);
	if (knob_put(&tx, KNOB_TSO, 0, err, errlen) || knob_put(&rx, KNOB_GRO, 1, err, errlen))
		return -1;
	napi_read(tb, &rx);
	return 0;
}

/* Pin kthread @pid to @cpu (-1: leave it) and make it SCHED_FIFO @prio (> 0). */
static int kthread_place(pid_t pid, int cpu, int prio, char *err, size_t errlen)
{
	cpu_set_t set;

	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(pid, sizeof(set), &set) != 0)
			return fail(err, errlen, "pinning the NAPI kthread", errno);
	}
	if (prio > 0) {
		struct sched_param sp = { .sched_priority = prio };

		if (sched_setscheduler(pid, SCHED_FIFO, &sp) != 0)
			return fail(err, errlen, "SCHED_FIFO for the NAPI kthread", errno);
	}
	return 0;
}

/* Threaded NAPI at the receiver, queue q's kthread pinned to its CPU. */
static int threaded_mode(struct testbed *tb, char *err, size_t errlen)
{
	struct knob_dev rx = { .ns_fd = tb->ns_rx, .ifindex = tb->rx_ifindex };

	snprintf(rx.ifname, sizeof(rx.ifname), "%s", tb->rx_if);
	if (knob_put(&rx, KNOB_THREADED, 1, err, errlen))
		return -1;
	napi_read(tb, &rx);
	if (tb->n_napi < (tb->opts.queues > 1 ? tb->opts.queues : 1))
		return fail(err, errlen, "threaded NAPI has fewer kthreads than queues", ESRCH);
	for (int q = 0; q < tb->n_napi; q++) {
		int cpu = q == 0 || tb->opts.queues <= 1 ? tb->opts.rx_cpu : tb->opts.queue_cpu[q];

		if (tb->napi_pids[q] <= 0)
			return fail(err, errlen, "threaded NAPI has no kthread", ESRCH);
		if (kthread_place(tb->napi_pids[q], cpu, tb->opts.napi_prio, err, errlen))
			return -1;
	}
	return 0;
}

static int build(struct testbed *tb, char *err, size_t errlen)
{
	int rc;

	if ((rc = veth_add(tb)) != 0)
		return fail(err, errlen, "creating the veth pair", rc);
	tb->tx_ifindex = ifindex_in(tb->ns_tx, tb->tx_if);
	tb->rx_ifindex = ifindex_in(tb->ns_rx, tb->rx_if);
	if (tb->tx_ifindex < 0 || tb->rx_ifindex < 0)
		return fail(err, errlen, "finding the veth pair", ENODEV);
	if ((rc = side_setup(tb->ns_tx, tb->tx_ifindex, ADDR_TX, ADDR_RX, mac_rx)) != 0 ||
	    (rc = side_setup(tb->ns_rx, tb->rx_ifindex, ADDR_RX, ADDR_TX, mac_tx)) != 0)
		return fail(err, errlen, "addresses and links", rc);
	if (tb->opts.napi && napi_mode(tb, err, errlen))
		return -1;
	if (tb->opts.napi && tb->opts.threaded && threaded_mode(tb, err, errlen))
		return -1;
	return 0;
}

int testbed_create(struct testbed *tb, const struct testbed_opts *o, char *err, size_t errlen)
{
	memset(tb, 0, sizeof(*tb));
	tb->ns_home = tb->ns_rx = tb->ns_tx = -1;
	tb->opts = *o;
	snprintf(tb->rx_if, sizeof(tb->rx_if), TESTBED_PREFIX "%dr", (int)getpid());
	snprintf(tb->tx_if, sizeof(tb->tx_if), TESTBED_PREFIX "%ds", (int)getpid());
	inet_pton(AF_INET, ADDR_RX, &tb->rx_addr);
	inet_pton(AF_INET, ADDR_TX, &tb->tx_addr);
	tb->ns_home = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (tb->ns_home < 0)
		return fail(err, errlen, "/proc/thread-self/ns/net", errno);
	tb->ns_rx = ns_new(tb->ns_home);
	tb->ns_tx = tb->ns_rx >= 0 ? ns_new(tb->ns_home) : -1;
	if (tb->ns_rx < 0 || tb->ns_tx < 0) {
		snprintf(err, errlen, "cannot create a network namespace (%s); "
			 "rxlab live needs root or CAP_SYS_ADMIN, or use --iface", strerror(errno));
		testbed_destroy(tb);
		return -1;
	}
	if (build(tb, err, errlen)) {
		testbed_destroy(tb);
		return -1;
	}
	return 0;
}

int testbed_ns(const struct testbed *tb, enum testbed_side side)
{
	switch (side) {
	case TESTBED_HOME:
		return tb->ns_home;
	case TESTBED_RX:
		return tb->ns_rx;
	case TESTBED_TX:
		return tb->ns_tx;
	}
	return -1;
}

int testbed_enter(const struct testbed *tb, enum testbed_side side)
{
	return setns(testbed_ns(tb, side), CLONE_NEWNET);
}

void testbed_destroy(struct testbed *tb)
{
	int *fds[] = { &tb->ns_rx, &tb->ns_tx, &tb->ns_home };

	for (size_t i = 0; i < 3; i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
	tb->napi_pid = 0;
	tb->napi_id = 0;
	tb->n_napi = 0;
}
