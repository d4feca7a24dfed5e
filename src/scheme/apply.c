/* apply.c - ethtool, sysfs, netlink and socket calls for a setting.
 *
 * Sources: ethtool(8) -C; e1000_set_coalesce() for how e1000 reads
 * rx-usecs (0 off, 1/3 dynamic modes, 4 simplified, 10..10000 us a fixed
 * rate of 1e6/rx-usecs); Documentation/networking/napi.rst and
 * net-sysfs.c for napi_defer_hard_irqs / gro_flush_timeout (ns);
 * Documentation/netlink/specs/netdev.yaml for napi-get / napi-set;
 * include/uapi/asm-generic/socket.h and eventpoll.h for the socket and
 * epoll options (see shared/reference/kernel-mechanisms.md sections 2-3).
 *
 * Every word that is not a fixed literal of this file (the interface
 * name, the values, the sysfs paths) is printed by word(), which quotes it
 * for the shell (io/shell_quote.h), even though the name was checked
 * with rxl_ifname_check() before: root runs these lines.
 */
#include "scheme/apply.h"

#include <inttypes.h>
#include <stdarg.h>

#include "io/shell_quote.h"
#include "rxlab/live.h"

/* " WORD": the word formatted from @fmt, quoted for the shell. */
__attribute__((format(printf, 2, 3)))
static void word(FILE *f, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fputc(' ', f);
	sh_quote(f, buf);
}

static void ethtool_lines(FILE *f, const struct scn_nic *n, const char *iface)
{
	uint32_t itr = n->itr_param;

	/* e1000: InterruptThrottleRate 1/3/4 are modes, N >= 100 a fixed rate */
	if (itr != 0 && n->adaptive_rx != ADAPTIVE_DIM)
		fprintf(f, "# e1000 InterruptThrottleRate=%u, set through ethtool as "
			"e1000_set_coalesce() reads rx-usecs\n", itr);
	fputs("ethtool -C", f);
	word(f, "%s", iface);
	if (n->adaptive_rx == ADAPTIVE_DIM) {
		fputs(" adaptive-rx on\n", f);
	} else if (itr == 0) {
		fputs(" adaptive-rx off rx-usecs", f);
		word(f, "%" PRId64, n->rx_usecs_ns / 1000);
		fputs(" rx-frames", f);
		word(f, "%u", n->rx_frames);
		fputc('\n', f);
	} else {
		fputs(" rx-usecs", f);
		word(f, "%u", itr <= 4 ? itr : 1000000 / itr);
		fputs("\n# or when the driver loads: modprobe e1000", f);
		word(f, "InterruptThrottleRate=%u", itr);
		fputc('\n', f);
	}
}

/* "echo VALUE > /sys/class/net/IFACE/FILE" */
static void sysfs_line(FILE *f, const char *iface, const char *file, uint64_t v)
{
	fputs("echo", f);
	word(f, "%" PRIu64, v);
	fputs(" >", f);
	word(f, "/sys/class/net/%s/%s", iface, file);
	fputc('\n', f);
}

static void napi_lines(FILE *f, const struct scn_nic *n, const char *iface)
{
	static const char ynl[] = "#   tools/net/ynl/pyynl/cli.py --spec "
				  "Documentation/netlink/specs/netdev.yaml";

	sysfs_line(f, iface, "napi_defer_hard_irqs", n->napi_defer_hard_irqs);
	sysfs_line(f, iface, "gro_flush_timeout", (uint64_t)n->gro_flush_timeout_ns);
	fprintf(f, "# the same per NAPI instance over netlink (Linux 6.13+; irq-suspend-timeout "
		"exists only there):\n");
	fprintf(f, "%s --dump napi-get --json '{\"ifindex\": '$(cat", ynl);
	word(f, "/sys/class/net/%s/ifindex", iface);
	fprintf(f, ")'}'\n#   then for each NAPI id in that list:\n%s --do napi-set --json", ynl);
	word(f, "{\"id\": NAPI_ID, \"defer-hard-irqs\": %u, \"gro-flush-timeout\": %" PRId64
	     ", \"irq-suspend-timeout\": %" PRId64 "}", n->napi_defer_hard_irqs,
	     n->gro_flush_timeout_ns, n->irq_suspend_timeout_ns);
	fputc('\n', f);
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

int tune_apply_print(FILE *f, const struct scenario *scn, int nic, const char *iface)
{
	const struct scn_nic *n = &scn->nic[nic];
	char err[256];

	if (rxl_ifname_check(iface, err, sizeof(err)))
		return -1;	/* the callers checked it: never print a name that fails */
	fputs("# as root on the receiving host;", f);
	word(f, "%s", iface);
	fputs(" is the port the traffic arrives on\n", f);
	ethtool_lines(f, n, iface);
	napi_lines(f, n, iface);
	socket_lines(f, &scn->apps, n);
	return 0;
}

/* @s in a comment line: bytes that could end the comment or drive a
 * terminal (control bytes, DEL) as '?'. */
static void comment_text(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

void tune_apply_script_head(FILE *f, const char *target)
{
	fputs("#!/bin/sh\n# rxlab tune ", f);
	comment_text(f, target);
	fputs(": the recommended setting\nset -e\n", f);
}
