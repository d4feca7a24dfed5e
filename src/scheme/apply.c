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
 * A port whose [nic] driver is not generic gets the ethtool -C words its
 * driver takes (model/quirks.h: ENA has no rx-frames, ixgbevf no
 * adaptive-rx, ...) and a comment saying what the driver does with them
 * (docs/quirks.md).  A port with several queues gets, after the port-wide
 * lines, one block per queue: its coalescing (ethtool --per-queue) when
 * the queues differ, its NAPI settings (netdev napi-set) and the CPU of its
 * IRQ (/proc/irq/N/smp_affinity_list), the NAPI id and IRQ found over
 * netlink (queue-get, napi-get).
 *
 * Every word that is not a fixed literal of this file (the interface
 * name, the values, the sysfs paths) is printed by word(), which quotes it
 * for the shell (io/shell_quote.h), even though the name was checked
 * with rxl_ifname_check() before: root runs these lines.
 */
#include "scheme/apply.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "io/shell_quote.h"
#include "model/quirks.h"
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

/* "# DRIVER: ..." lines: the driver's rule and what it made of the values. */
static void driver_comment(FILE *f, const struct scn_nic *n)
{
	const struct quirk_driver *d = quirk_driver(n->driver);

	fprintf(f, "# driver %s (ethtool -i: %s): rx-usecs %s%s; %s\n", d->name, d->ethtool,
		d->usecs_rule, d->verified ? "" : " [in part unverified: docs/quirks.md]",
		d->source);
	if (!d->frames)
		fprintf(f, "# %s has no rx-frames: the device interrupts on its timer alone (every "
			"frame at rx-usecs 0)\n", d->name);
	if (n->driver_note[0])
		fprintf(f, "# %s\n", n->driver_note);
}

/* ethtool -C with only the words driver @n->driver takes (not e1000's ITR). */
static void ethtool_driver_line(FILE *f, const struct scn_nic *n, const char *iface)
{
	const struct quirk_driver *d = quirk_driver(n->driver);

	driver_comment(f, n);
	fputs("ethtool -C", f);
	word(f, "%s", iface);
	if (d->adaptive)
		fputs(n->adaptive_rx == ADAPTIVE_DIM ? " adaptive-rx on" : " adaptive-rx off", f);
	if (n->adaptive_rx != ADAPTIVE_DIM) {
		fputs(" rx-usecs", f);
		word(f, "%" PRId64, n->rx_usecs_ns / 1000);
		if (d->frames) {
			fputs(" rx-frames", f);
			word(f, "%u", n->rx_frames);
		}
	}
	if (d->cqe_mode)
		fputs(n->rx_timer == TIMER_RESTART ? " cqe-mode-rx on" : " cqe-mode-rx off", f);
	fputc('\n', f);
}

static void ethtool_lines(FILE *f, const struct scn_nic *n, const char *iface)
{
	uint32_t itr = n->itr_param;

	if (n->driver != DRIVER_GENERIC && (n->driver != DRIVER_E1000 || itr == 0)) {
		ethtool_driver_line(f, n, iface);
		return;
	}

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

/* Do the queues' NAPI deferral settings differ (per-queue lists)? */
static bool napi_per_queue(const struct scn_nic *n)
{
	for (uint32_t q = 1; q < n->combined; q++)
		if (n->napi[q].defer_hard_irqs != n->napi[0].defer_hard_irqs ||
		    n->napi[q].gro_flush_timeout_ns != n->napi[0].gro_flush_timeout_ns ||
		    n->napi[q].irq_suspend_timeout_ns != n->napi[0].irq_suspend_timeout_ns)
			return true;
	return false;
}

static void napi_lines(FILE *f, const struct scn_nic *n, const char *iface)
{
	static const char ynl[] = "#   tools/net/ynl/pyynl/cli.py --spec "
				  "Documentation/netlink/specs/netdev.yaml";

	if (napi_per_queue(n))
		fputs("# queue 0's values for every queue; the per-queue blocks below give each "
		      "queue its own\n", f);
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

/* ---- per queue ---- */

/* The CPU of queue @q's vector, placed as src/sim/nic.c vector_cpu() does:
 * irq-affinity, else spread (queue i on CPU i % cpus), else irq-cpu. */
static uint32_t queue_irq_cpu(const struct scenario *scn, const struct scn_nic *n, uint32_t q)
{
	if (n->irq_affinity_n)
		return n->irq_affinity[q];
	if (n->irq_spread)
		return q % scn->host.cpus;
	return n->irq_cpu;
}

static bool coal_per_queue(const struct scn_nic *n)
{
	for (uint32_t q = 1; q < n->combined; q++)
		if (memcmp(&n->coal[q], &n->coal[0], sizeof(n->coal[0])) != 0)
			return true;
	return false;
}

static bool any_threaded(const struct scn_nic *n)
{
	for (uint32_t q = 0; q < n->combined; q++)
		if (n->napi[q].threaded)
			return true;
	return false;
}

/* The shell functions the queue blocks use, and the port's ifindex. */
static void queue_helpers(FILE *f, const struct scn_nic *n, const char *iface)
{
	fprintf(f, "# per queue (%u queue pairs): NAPI ids and IRQs over netlink with the kernel "
		"tree's tools/net/ynl/pyynl/cli.py\n# (napi-set: Linux 6.13+), its JSON read by "
		"python3; run from the top of a kernel source tree\n", n->combined);
	fputs("ynl() { tools/net/ynl/pyynl/cli.py --spec Documentation/netlink/specs/netdev.yaml "
	      "--output-json \"$@\"; }\n", f);
	fputs("field() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "
	      "\"$1\"; }\n", f);
	fputs("# a driver that does not name a NAPI's IRQ (no irq in napi-get, field fails): the "
	      "queue's vector is in", f);
	word(f, "/sys/class/net/%s/device/msi_irqs", iface);
	fputs(" and /proc/interrupts\n", f);
	fputs("ifindex=$(cat", f);
	word(f, "/sys/class/net/%s/ifindex", iface);
	fputs(")\n", f);
}

/* ethtool --per-queue: queue @q's own rx-usecs / rx-frames. */
static void queue_coal_line(FILE *f, const struct scn_nic *n, uint32_t q, const char *iface)
{
	const struct scn_qcoal *c = &n->coal[q];

	fputs("ethtool --per-queue", f);
	word(f, "%s", iface);
	fputs(" queue_mask", f);
	word(f, "0x%llx", 1ULL << q);
	fputs(" --coalesce rx-usecs", f);
	word(f, "%" PRId64, c->rx_usecs_ns / 1000);
	if (quirk_driver(n->driver)->frames) {
		fputs(" rx-frames", f);
		word(f, "%u", c->rx_frames);
	}
	fputc('\n', f);
}

/* napi-set of queue @q's NAPI (found by queue-get into $napi). */
static void queue_napi_lines(FILE *f, const struct scn_nic *n, uint32_t q)
{
	const struct scn_napi *p = &n->napi[q];
	bool thr = any_threaded(n);

	fputs("napi=$(ynl --do queue-get --json \"$(printf "
	      "'{\"ifindex\": %d, \"type\": \"rx\", \"id\": %d}' \"$ifindex\"", f);
	word(f, "%u", q);
	fputs(")\" | field napi-id)\n", f);
	fprintf(f, "ynl --do napi-set --json \"$(printf '{\"id\": %%d, \"defer-hard-irqs\": %%d, "
		"\"gro-flush-timeout\": %%d, \"irq-suspend-timeout\": %%d%s}' \"$napi\"",
		thr ? ", \"threaded\": %d" : "");
	word(f, "%u", p->defer_hard_irqs);
	word(f, "%" PRId64, p->gro_flush_timeout_ns);
	word(f, "%" PRId64, p->irq_suspend_timeout_ns);
	if (thr)
		word(f, "%u", p->threaded);
	fputs(")\"\n", f);
}

/* Queue @q's NAPI kthread pinned (threaded-cpus = irq or a list). */
static void queue_kthread_line(FILE *f, const struct scenario *scn, const struct scn_nic *n,
			       uint32_t q, const char *iface)
{
	uint32_t cpu = n->threaded_cpus == THREADED_CPUS_LIST ? n->threaded_cpu[q]
							       : queue_irq_cpu(scn, n, q);

	if (!n->napi[q].threaded || n->threaded_cpus == THREADED_CPUS_ALL)
		return;
	fputs("taskset -pc", f);
	word(f, "%u", cpu);
	fputs(" \"$(pgrep -x", f);	/* the kthread napi/IFACE-ID (napi_kthread_create()) */
	word(f, "napi/%s-", iface);
	fputs("\"$(printf '%d' \"$napi\")\")\"\n", f);
}

/* /proc/irq/N/smp_affinity_list of queue @q's vector (N from napi-get). */
static void queue_irq_lines(FILE *f, const struct scenario *scn, const struct scn_nic *n,
			    uint32_t q)
{
	if (n->irq_float) {
		fputs("# irq-cpu = float: no affinity is written for this vector\n", f);
		return;
	}
	fputs("irq=$(ynl --do napi-get --json \"$(printf '{\"id\": %d}' \"$napi\")\" | field irq)\n",
	      f);
	fputs("echo", f);
	word(f, "%u", queue_irq_cpu(scn, n, q));
	fputs(" > \"/proc/irq/$(printf '%d' \"$irq\")/smp_affinity_list\"\n", f);
}

static void queue_lines(FILE *f, const struct scenario *scn, const struct scn_nic *n,
			const char *iface)
{
	bool coal = coal_per_queue(n);

	if (n->combined < 2)
		return;
	queue_helpers(f, n, iface);
	for (uint32_t q = 0; q < n->combined; q++) {
		fprintf(f, "# queue %u: rx-usecs %" PRId64 ", NAPI defer-hard-irqs %u, "
			"gro-flush-timeout %" PRId64 " ns, IRQ on CPU %u\n", q,
			n->coal[q].rx_usecs_ns / 1000, n->napi[q].defer_hard_irqs,
			n->napi[q].gro_flush_timeout_ns, queue_irq_cpu(scn, n, q));
		if (coal && quirk_driver(n->driver)->per_queue)
			queue_coal_line(f, n, q, iface);
		queue_napi_lines(f, n, q);
		queue_kthread_line(f, scn, n, q, iface);
		queue_irq_lines(f, scn, n, q);
	}
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
	queue_lines(f, scn, n, iface);
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

size_t quirk_levels_filter(enum nic_driver d, const struct rxl_scheme_axis *axis,
                           const char **out)
{
	size_t n = 0;

	for (size_t i = 0; i < axis->n; i++)
		if (quirk_honours(d, axis->label, axis->level[i]))
			out[n++] = axis->level[i];
	return n;
}
