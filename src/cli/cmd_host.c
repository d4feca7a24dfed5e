/* cmd_host.c - `rxlab host [IFACE] [--out FILE] [--format table|csv|json]`:
 * what this machine has (src/live/host_read.h), as a table of every field
 * with where it was read and, for those that could not be, why; with --out
 * a scenario of this host (cli/host_scenario.h) for run and tune.
 * docs/host.md. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/host_scenario.h"
#include "cli/opts.h"
#include "io/outfile.h"
#include "io/shell_quote.h"
#include "live/host_read.h"
#include "report/table.h"

const char host_usage[] =
	"usage: rxlab host [IFACE] [--out FILE] [--format table|csv|json]\n"
	"\n"
	"Reads this machine: CPUs (count, model, NUMA nodes, cpuidle governor and\n"
	"states), the net.core sysctls (netdev_budget, netdev_budget_usecs,\n"
	"dev_weight, netdev_max_backlog, busy_poll, busy_read,\n"
	"rps_sock_flow_entries) and, with IFACE, the interface: driver (ethtool -i),\n"
	"channels (-l), rings (-g), coalescing (-c), GRO (-k), RSS table (-x), link\n"
	"speed, MTU, per-NAPI settings (netlink napi-get), sysfs threaded,\n"
	"napi_defer_hard_irqs and gro_flush_timeout, its IRQs' affinity and the\n"
	"queues' rps_cpus.  Prints each field with its kernel source; a field that\n"
	"could not be read is listed with the reason (EOPNOTSUPP, ENOENT, ...).\n"
	"Without IFACE it lists the interfaces and describes the CPUs only.\n"
	"\n"
	"  --out FILE   also write a scenario of this host (needs IFACE): the\n"
	"               profile it chose and why, [nic IFACE] with what was read,\n"
	"               a placeholder traffic.rate to set; rxlab run / tune load it;\n"
	"               FILE - writes it on standard output, without the table\n"
	"  --format     table (default), csv or json\n"
	"Reads run in the caller's network namespace (ip netns exec NS rxlab host\n"
	"IFACE).  Nothing is changed.  See docs/host.md.\n";

struct host_args {
	const char *iface, *out;
	enum out_format fmt;
};

static int bad(const char *msg, const char *word)
{
	fprintf(stderr, "rxlab host: %s '%s'\ntry 'rxlab host --help'\n", msg, word);
	return 2;
}

static int on_opt(void *ctx, const char *name, const char *val)
{
	struct host_args *a = ctx;

	if (!strcmp(name, "--out")) {
		a->out = val;
		return 0;
	}
	return out_format_parse(val, &a->fmt) ? bad("--format takes table, csv or json, not", val)
					      : 0;
}

static int on_arg(void *ctx, const char *arg)
{
	struct host_args *a = ctx;

	if (a->iface)
		return bad("takes one interface; unexpected argument", arg);
	a->iface = arg;
	return 0;
}

static int on_error(void *ctx, enum cli_error e, const char *word)
{
	(void)ctx;
	return bad(e == CLI_MISSING ? "missing value of" : "unknown option", word);
}

/* ---- the table ---------------------------------------------------------- */

static void row(struct table *t, const char *field, const char *value, const char *source,
		int err)
{
	char r[128];

	table_row(t);
	table_str(t, field);
	table_str(t, err ? "" : value);
	table_str(t, source);
	table_str(t, err ? host_err_text(err, r, sizeof(r)) : "read");
}

static void row_val(struct table *t, const char *field, const struct host_val *v,
		    const char *unit, const char *source)
{
	char s[48];

	snprintf(s, sizeof(s), "%" PRIu64 "%s", v->v, unit);
	row(t, field, s, source, v->err);
}

static void row_text(struct table *t, const char *field, const struct host_text *v,
		     const char *source)
{
	row(t, field, v->s, source, v->err);
}

static void rows_cpu(struct table *t, const struct host_cpu *c)
{
	char f[64], s[64];

	row_val(t, "cpus", &c->online, "", "/sys/devices/system/cpu/online");
	row_text(t, "cpus.online", &c->online_list, "/sys/devices/system/cpu/online");
	row_text(t, "cpu.vendor", &c->vendor, "/proc/cpuinfo vendor_id");
	row_text(t, "cpu.model", &c->model, "/proc/cpuinfo model name");
	row_val(t, "numa.nodes", &c->numa_nodes, "", "/sys/devices/system/node/online");
	row_text(t, "cpuidle.driver", &c->idle_driver, "/sys/devices/system/cpu/cpuidle/current_driver");
	row_text(t, "cpuidle.governor", &c->idle_governor,
		 "/sys/devices/system/cpu/cpuidle/current_governor");
	if (c->n_cstates == 0)
		row(t, "cpuidle.states", "", "/sys/devices/system/cpu/cpu0/cpuidle/state*",
		    c->cstates_err);
	for (int i = 0; i < c->n_cstates; i++) {
		snprintf(f, sizeof(f), "cpuidle.state%d", i);
		snprintf(s, sizeof(s), "%s, exit latency %" PRIu64 " us", c->cstate[i].name,
			 c->cstate[i].latency_us);
		row(t, f, s, "cpu0/cpuidle/stateN/name, latency", 0);
	}
}

static void rows_sysctl(struct table *t, const struct host_val *v)
{
	char src[80];

	for (int s = 0; s < HOST_SYSCTL_COUNT; s++) {
		snprintf(src, sizeof(src), "/proc/sys/net/core/%s", host_sysctl_name(s) + 9);
		row_val(t, host_sysctl_name(s), &v[s], "", src);
	}
}

static void rows_nic_ethtool(struct table *t, const struct host_nic *n)
{
	row_text(t, "driver", &n->driver, "ETHTOOL_GDRVINFO (ethtool -i)");
	row_text(t, "driver.version", &n->version, "ETHTOOL_GDRVINFO");
	row_text(t, "firmware", &n->firmware, "ETHTOOL_GDRVINFO");
	row_text(t, "bus", &n->bus, "ETHTOOL_GDRVINFO");
	row_val(t, "mtu", &n->mtu, "", "/sys/class/net/IF/mtu");
	row_val(t, "speed", &n->speed_mbps, "Mbit", "ETHTOOL_GLINKSETTINGS");
	row_val(t, "channels.combined", &n->combined, "", "ETHTOOL_GCHANNELS (ethtool -l)");
	row_val(t, "channels.rx", &n->rx_channels, "", "ETHTOOL_GCHANNELS");
	row_val(t, "channels.tx", &n->tx_channels, "", "ETHTOOL_GCHANNELS");
	row_val(t, "channels.max-combined", &n->max_combined, "", "ETHTOOL_GCHANNELS");
	row_val(t, "channels.max-rx", &n->max_rx, "", "ETHTOOL_GCHANNELS");
	row_val(t, "rx-ring", &n->rx_ring, "", "ETHTOOL_GRINGPARAM (ethtool -g)");
	row_val(t, "tx-ring", &n->tx_ring, "", "ETHTOOL_GRINGPARAM");
	row_val(t, "rx-ring.max", &n->rx_ring_max, "", "ETHTOOL_GRINGPARAM");
	row_val(t, "rx-usecs", &n->rx_usecs, "us", "ETHTOOL_GCOALESCE (ethtool -c)");
	row_val(t, "rx-frames", &n->rx_frames, "", "ETHTOOL_GCOALESCE");
	row_val(t, "tx-usecs", &n->tx_usecs, "us", "ETHTOOL_GCOALESCE");
	row_val(t, "tx-frames", &n->tx_frames, "", "ETHTOOL_GCOALESCE");
	row_val(t, "adaptive-rx", &n->adaptive_rx, "", "ETHTOOL_GCOALESCE");
	row_val(t, "adaptive-tx", &n->adaptive_tx, "", "ETHTOOL_GCOALESCE");
	row_val(t, "gro", &n->gro, "", "ETHTOOL_GGRO (ethtool -k)");
	row_val(t, "rss.indir-size", &n->indir_size, "", "ETHTOOL_GRSSH (ethtool -x)");
	row_val(t, "rss.key-size", &n->key_size, " bytes", "ETHTOOL_GRSSH");
}

static void rows_indir(struct table *t, const struct host_nic *n)
{
	char s[HOST_INDIR_MAX * 4 + 1];
	size_t at = 0;

	if (n->indir_size.err)
		return;
	for (uint64_t i = 0; i < n->indir_size.v && at + 12 < sizeof(s); i++)
		at += (size_t)snprintf(s + at, sizeof(s) - at, "%s%u", i ? " " : "", n->indir[i]);
	s[at] = '\0';
	row(t, "rss.indir", s, "ETHTOOL_GRSSH", 0);
}

static void rows_napi(struct table *t, const struct host_nic *n)
{
	static const char *const names[] = { "irq", "pid", "defer-hard-irqs",
					     "gro-flush-timeout", "irq-suspend-timeout",
					     "threaded" };
	char f[64];

	if (n->n_napi == 0 && n->napi_err == ENODATA)
		row(t, "napi", "none", "netdev netlink napi-get: the device has no NAPI instance", 0);
	else if (n->n_napi == 0)
		row(t, "napi", "", "netdev netlink napi-get", n->napi_err);
	for (int i = 0; i < n->n_napi; i++) {
		const struct host_napi *p = &n->napi[i];
		const struct host_val *v[] = { &p->irq, &p->pid, &p->defer_hard_irqs,
					       &p->gro_flush_timeout, &p->irq_suspend_timeout,
					       &p->threaded };

		for (size_t k = 0; k < 6; k++) {
			snprintf(f, sizeof(f), "napi.%u.%s", p->id, names[k]);
			row_val(t, f, v[k], k == 3 || k == 4 ? "ns" : "", "netdev netlink napi-get");
		}
		if (!p->irq.err) {
			snprintf(f, sizeof(f), "napi.%u.irq-affinity", p->id);
			row_text(t, f, &p->affinity, "/proc/irq/N/smp_affinity_list");
		}
	}
}

static void rows_sysfs(struct table *t, const struct host_nic *n)
{
	char f[64], src[96];

	row_val(t, "threaded", &n->sys_threaded, "", "/sys/class/net/IF/threaded");
	row_val(t, "napi_defer_hard_irqs", &n->sys_defer_hard_irqs, "",
		"/sys/class/net/IF/napi_defer_hard_irqs");
	row_val(t, "gro_flush_timeout", &n->sys_gro_flush_timeout, "ns",
		"/sys/class/net/IF/gro_flush_timeout");
	if (n->n_irq == 0)
		row(t, "irqs", "", "/sys/class/net/IF/device/msi_irqs", n->irq_err);
	for (int i = 0; i < n->n_irq; i++) {
		snprintf(f, sizeof(f), "irq.%u.affinity", n->irq[i].irq);
		snprintf(src, sizeof(src), "/proc/irq/%u/smp_affinity_list", n->irq[i].irq);
		row_text(t, f, &n->irq[i].affinity, src);
	}
	if (n->n_rxq == 0)
		row(t, "rps_cpus", "", "/sys/class/net/IF/queues/rx-N/rps_cpus", n->rxq_err);
	for (int q = 0; q < n->n_rxq; q++) {
		snprintf(f, sizeof(f), "rx-%d.rps_cpus", q);
		row(t, f, n->rps[q].s[0] ? n->rps[q].s : "off", "queues/rx-N/rps_cpus",
		    n->rps[q].err);
	}
}

static struct table *host_table(const struct host_seen *h, char (*ifs)[16], int n_ifs)
{
	static const char *const cols[] = { "field", "value", "source", "status" };
	struct table *t = table_new("host", "This host (rxlab host; docs/host.md)");
	char why[384];
	const char *profile = host_profile_choose(h, why, sizeof(why));

	for (size_t c = 0; c < 4; c++)
		table_add_col(t, cols[c], cols[c], -1);
	rows_cpu(t, h->cpu);
	rows_sysctl(t, h->sysctl);
	if (h->nic) {
		rows_nic_ethtool(t, h->nic);
		rows_indir(t, h->nic);
		rows_napi(t, h->nic);
		rows_sysfs(t, h->nic);
	}
	for (int i = 0; i < n_ifs; i++)
		row(t, "interface", ifs[i], "/sys/class/net (rxlab host NAME reads one)", 0);
	row(t, "profile", profile, why, 0);
	return t;
}

/* ---- the command -------------------------------------------------------- */

static int write_scenario(const char *path, const struct host_seen *h)
{
	struct outfile *of;
	char err[512], cmd[64];
	int wrc;

	snprintf(cmd, sizeof(cmd), "rxlab host %s", h->nic->ifname);
	if (outfile_open(&of, path, err, sizeof(err)))
		return fprintf(stderr, "rxlab host: %s\n", err), 2;
	/* a failed write leaves the stream's error set: outfile_close() reports
	 * it with its reason and leaves the target as it was */
	wrc = host_scenario_write(outfile_fp(of), h, cmd);
	if (outfile_close(of, err, sizeof(err)))
		return fprintf(stderr, "rxlab host: %s\n", err), 2;
	if (wrc)	/* not seen by the close: said anyway */
		return fprintf(stderr, "rxlab host: cannot write %s\n", path), 2;
	return 0;
}

/* "rxlab host: wrote FILE; set traffic.rate in it, then: rxlab run FILE", the
 * path quoted for the shell. */
static void wrote(const char *path)
{
	fputs("rxlab host: wrote ", stderr);
	sh_quote(stderr, path);
	fputs("; set traffic.rate in it, then: rxlab run ", stderr);
	sh_quote(stderr, path);
	fputc('\n', stderr);
}

static int no_such(const char *iface, int rc)
{
	char ifs[64][16], list[1100] = "";
	int n = host_list_ifaces(ifs, 64);
	size_t at = 0;

	if (rc == -EINVAL)
		return bad("not an interface name:", iface);
	for (int i = 0; i < n && at < sizeof(list); i++)
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", i ? ", " : "", ifs[i]);
	fprintf(stderr, "rxlab host: no interface '%s' in this network namespace; its interfaces: "
		"%s\n", iface, n > 0 ? list : "(none readable)");
	return 2;
}

int cmd_host(int argc, char **argv)
{
	static const struct cli_opt opts[] = { { "--out", true }, { "--format", true },
					       { NULL, false } };
	const struct cli_spec spec = { .opts = opts, .usage = host_usage, .on_opt = on_opt,
				       .on_arg = on_arg, .on_error = on_error };
	struct host_args a = { .fmt = OUT_TABLE };
	static struct host_cpu cpu;
	static struct host_nic nic;
	struct host_val sysctl[HOST_SYSCTL_COUNT];
	struct host_seen h = { .cpu = &cpu, .sysctl = sysctl };
	char ifs[64][16];
	int rc = cli_parse(&spec, &a, argc, argv), n_ifs = 0;
	struct report *rep;

	if (rc)
		return cli_status(rc);
	if (a.out && !a.iface)
		return fprintf(stderr, "rxlab host: --out writes the scenario of an interface: name "
			       "one (rxlab host IFACE --out FILE)\n"), 2;
	if (a.iface && (rc = host_read_nic(a.iface, &nic)) != 0)
		return no_such(a.iface, rc);
	h.nic = a.iface ? &nic : NULL;
	if (!a.iface)
		n_ifs = host_list_ifaces(ifs, 64);
	host_read_cpu(&cpu);
	host_read_sysctls(sysctl);
	if (a.out && (rc = write_scenario(a.out, &h)) != 0)
		return rc;
	if (a.out && !strcmp(a.out, "-"))
		return 0;	/* the scenario is standard output: no table after it */
	rep = report_new();
	report_add(rep, host_table(&h, ifs, n_ifs < 0 ? 0 : n_ifs));
	report_print(rep, stdout, a.fmt);
	report_free(rep);
	if (a.out)
		wrote(a.out);
	return 0;
}
