/* tune_apply.c - ethtool, sysfs, netlink and socket calls for a setting.
 *
 * Sources: ethtool(8) -C; e1000_set_coalesce() for how e1000 reads
 * rx-usecs (0 off, 1/3 dynamic modes, 4 simplified, 10..10000 us a fixed
 * rate of 1e6/rx-usecs); Documentation/networking/napi.rst and
 * net-sysfs.c for napi_defer_hard_irqs / gro_flush_timeout (ns);
 * Documentation/netlink/specs/netdev.yaml for napi-get / napi-set;
 * include/uapi/asm-generic/socket.h and eventpoll.h for the socket and
 * epoll options (see shared/reference/kernel-mechanisms.md sections 2-3).
 */
#include "cli/tune_apply.h"

#include <inttypes.h>

static void ethtool_lines(FILE *f, const struct scn_nic *n, const char *iface)
{
	uint32_t itr = n->itr_param;

	if (n->adaptive_rx == ADAPTIVE_DIM) {
		fprintf(f, "ethtool -C %s adaptive-rx on\n", iface);
		return;
	}
	if (itr == 0) {
		fprintf(f, "ethtool -C %s adaptive-rx off rx-usecs %" PRId64 " rx-frames %u\n", iface,
			n->rx_usecs_ns / 1000, n->rx_frames);
		return;
	}
	/* e1000: InterruptThrottleRate 1/3/4 are modes, N >= 100 a fixed rate */
	fprintf(f, "# e1000 InterruptThrottleRate=%u, set through ethtool as e1000_set_coalesce()"
		" reads rx-usecs\n", itr);
	fprintf(f, "ethtool -C %s rx-usecs %u\n", iface, itr <= 4 ? itr : 1000000 / itr);
	fprintf(f, "# or when the driver loads: modprobe e1000 InterruptThrottleRate=%u\n", itr);
}

static void napi_lines(FILE *f, const struct scn_nic *n, const char *iface)
{
	fprintf(f, "echo %u > /sys/class/net/%s/napi_defer_hard_irqs\n", n->napi_defer_hard_irqs,
		iface);
	fprintf(f, "echo %" PRId64 " > /sys/class/net/%s/gro_flush_timeout\n",
		n->gro_flush_timeout_ns, iface);
	fprintf(f, "# the same per NAPI instance over netlink (Linux 6.13+; irq-suspend-timeout "
		"exists only there):\n");
	fprintf(f, "#   tools/net/ynl/pyynl/cli.py --spec Documentation/netlink/specs/netdev.yaml "
		"--dump napi-get --json '{\"ifindex\": '$(cat /sys/class/net/%s/ifindex)'}'\n", iface);
	fprintf(f, "#   then for each NAPI id in that list:\n");
	fprintf(f, "#   tools/net/ynl/pyynl/cli.py --spec Documentation/netlink/specs/netdev.yaml "
		"--do napi-set --json '{\"id\": NAPI_ID, \"defer-hard-irqs\": %u, "
		"\"gro-flush-timeout\": %" PRId64 ", \"irq-suspend-timeout\": %" PRId64 "}'\n",
		n->napi_defer_hard_irqs, n->gro_flush_timeout_ns, n->irq_suspend_timeout_ns);
}

static void socket_lines(FILE *f, const struct scn_apps *a, const struct scn_nic *n)
{
	uint32_t usecs = (uint32_t)(a->busy_poll_ns / 1000);

	if (!a->sink)
		return;
	if (usecs == 0 && !a->prefer_busy_poll) {
		fprintf(f, "# the receiving application does not busy-poll (SO_BUSY_POLL 0, "
			"net.core.busy_read 0)\n");
		return;
	}
	fprintf(f, "# in the receiving application, on its socket fd (SO_PREFER_BUSY_POLL and a "
		"budget above the current one need CAP_NET_ADMIN):\n");
	fprintf(f, "#   int usecs = %u;  setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &usecs, "
		"sizeof(usecs));\n", usecs);
	fprintf(f, "#   int prefer = %u;  setsockopt(fd, SOL_SOCKET, SO_PREFER_BUSY_POLL, &prefer, "
		"sizeof(prefer));\n", a->prefer_busy_poll);
	fprintf(f, "#   int budget = %u;  setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL_BUDGET, &budget, "
		"sizeof(budget));\n", a->busy_poll_budget ? a->busy_poll_budget : 8);
	if (n->irq_suspend_timeout_ns == 0)
		return;
	fprintf(f, "# IRQ suspension is driven by epoll: on the epoll fd (Linux 6.9+),\n");
	fprintf(f, "#   struct epoll_params p = { .busy_poll_usecs = %u, .busy_poll_budget = %u, "
		".prefer_busy_poll = %u };  ioctl(epfd, EPIOCSPARAMS, &p);\n", usecs,
		a->busy_poll_budget ? a->busy_poll_budget : 8, a->prefer_busy_poll);
}

void tune_apply_print(FILE *f, const struct scenario *scn, int nic, const char *iface)
{
	const struct scn_nic *n = &scn->nic[nic];

	fprintf(f, "# as root on the receiving host; %s is the port the traffic arrives on\n", iface);
	ethtool_lines(f, n, iface);
	napi_lines(f, n, iface);
	socket_lines(f, &scn->apps, n);
}
