/* host_scenario.c - the scenario of this host (see host_scenario.h).
 *
 * Roadmap: the driver table and the profile rule; the reasons; then one
 * writer per section.  The ranges below are the loader's (rxlab scenarios
 * --keys); a test loads what this writes (tests/unit/test_host_scenario.c). */
#include "cli/host_scenario.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- the driver table -------------------------------------------------- */

/* The kernel's driver name (ethtool -i) and the scenario's driver word:
 * the drivers of the quirk tables (model/quirks.h, docs/quirks.md).
 * e1000e is not e1000: its ITR differs, and rxlab has no table for it. */
static const struct {
	const char *kernel, *word;
} drivers[] = {
	{ "e1000", "e1000" },		/* the 82540-82547 family: ITR, RDTR/RADV */
	{ "e1000e", "generic" },	/* no quirk table yet */
	{ "ena", "ena" },
	{ "ixgbevf", "ixgbevf" },
	{ "mlx5_core", "mlx5" },
	{ "virtio_net", "virtio-net" },	/* without VIRTIO_NET_F_NOTF_COAL: see below */
	{ "ice", "ice" },
	{ "veth", "generic" },		/* no coalescing: ptr_ring + NAPI */
};

const char *host_driver_word(const char *kdriver, const char **note)
{
	if (note)
		*note = NULL;
	for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
		if (!strcmp(kdriver, drivers[i].kernel))
			return drivers[i].word;
	if (note)
		*note = "a driver rxlab has no quirks for: its settings are taken as ethtool "
			"states them";
	return "generic";
}

/* Does virtio-net device @n moderate (VIRTIO_NET_F_NOTF_COAL)?  Without the
 * feature the driver reports rx-usecs 0 and at most one frame, and refuses
 * anything else (docs/quirks.md); with it, the values are the device's. */
static bool virtio_has_coal(const struct host_nic *n)
{
	return (!n->rx_usecs.err && n->rx_usecs.v > 0) ||
	       (!n->rx_frames.err && n->rx_frames.v > 1);
}

/* ---- the profile rule --------------------------------------------------- */

static bool virtual_nic(const struct host_nic *n)
{
	return !n || n->driver.err || !strcmp(n->driver.s, "veth") || !strcmp(n->ifname, "lo");
}

/* "Xeon(R) Gold 6152", "Xeon(R) Platinum 8180": Scalable, model number
 * whose second digit is 1 (first generation, Skylake-SP). */
static bool xeon_skylake_sp(const char *model)
{
	static const char *const tiers[] = { "Platinum ", "Gold ", "Silver ", "Bronze " };

	if (!strstr(model, "Xeon"))
		return false;
	for (size_t i = 0; i < 4; i++) {
		const char *p = strstr(model, tiers[i]);

		if (p && strlen(p += strlen(tiers[i])) >= 4 && p[1] == '1' &&
		    p[0] >= '3' && p[0] <= '9')
			return true;
	}
	return false;
}

const char *host_profile_choose(const struct host_seen *h, char *why, size_t len)
{
	const struct host_cpu *c = h->cpu;
	const char *model = c->model.err ? "" : c->model.s, *vendor = c->vendor.err ? "" : c->vendor.s;

	if (virtual_nic(h->nic)) {
		snprintf(why, len, "%s: the veth receiver's costs, as `rxlab live calibrate` "
			 "measures them on this kind of path",
			 !h->nic ? "no interface named" : !strcmp(h->nic->ifname, "lo")
			 ? "lo is a virtual interface" : h->nic->driver.err ? "no driver information"
			 : "veth is a virtual interface");
		return "veth-host";
	}
	if (strstr(vendor, "AMD") || strstr(model, "AMD")) {
		snprintf(why, len, "the CPU is an AMD (\"%s\"): the nearest profile is the EPYC 7742 "
			 "(Zen 2)", model);
		return "epyc-7742-ice";
	}
	if (xeon_skylake_sp(model)) {
		snprintf(why, len, "\"%s\" is a first-generation Xeon Scalable (Skylake-SP)", model);
		return "skx-56t-100g";
	}
	snprintf(why, len, "no profile matches \"%s\" (vendor %s) by vendor and generation: the "
		 "fallback is the Ice Lake-SP Xeon Gold 6338", model[0] ? model : "(no model name)",
		 vendor[0] ? vendor : "unknown");
	return "xeon-6338-mlx5";
}

/* ---- reasons ------------------------------------------------------------ */

const char *host_err_text(int err, char *buf, size_t len)
{
	const char *name, *what;

	switch (err) {
	case EOPNOTSUPP: name = "EOPNOTSUPP"; what = "the driver does not implement it"; break;
	case ENOENT: name = "ENOENT"; what = "no such file or attribute"; break;
	case EACCES: name = "EACCES"; what = "permission denied"; break;
	case EPERM: name = "EPERM"; what = "operation not permitted"; break;
	case ENODATA: name = "ENODATA"; what = "the kernel has no value for it"; break;
	case ENODEV: name = "ENODEV"; what = "no such device"; break;
	case EINVAL: name = "EINVAL"; what = "not a value rxlab can read"; break;
	case E2BIG: name = "E2BIG"; what = "larger than rxlab reads"; break;
	default: name = "errno"; what = strerror(err); break;
	}
	if (!strcmp(name, "errno"))
		snprintf(buf, len, "errno %d (%s)", err, what);
	else
		snprintf(buf, len, "%s (%s)", name, what);
	return buf;
}

/* ---- writing ------------------------------------------------------------ */

struct w {
	FILE *f;
	const struct host_seen *h;
	uint64_t cpus;	/* what [host] cpus says */
	uint64_t queues;	/* what [nic] combined says (1 when not written) */
};

static void put(struct w *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(w->f, fmt, ap);
	va_end(ap);
}

/* "# KEY: not read (SOURCE: REASON); THEN" */
static void unread(struct w *w, const char *key, const char *source, int err, const char *then)
{
	char r[128];

	put(w, "# %s: not read (%s: %s); %s\n", key, source, host_err_text(err, r, sizeof(r)), then);
}

/* KEY = V UNIT, clamped into [lo, hi] with a comment. */
static void key_u64(struct w *w, const char *key, uint64_t v, uint64_t lo, uint64_t hi,
		    const char *unit)
{
	uint64_t c = v < lo ? lo : v > hi ? hi : v;

	if (c != v)
		put(w, "# %s: the host has %" PRIu64 "%s, outside rxlab's %" PRIu64 "..%" PRIu64
		    "%s: clamped\n", key, v, unit, lo, hi, unit);
	put(w, "%s = %" PRIu64 "%s\n", key, c, unit);
}

static const char *const DEFAULT_STANDS = "the model's default stands";

static void host_sysctl(struct w *w, enum host_sysctl s, const char *key, uint64_t lo,
			uint64_t hi, const char *unit)
{
	const struct host_val *v = &w->h->sysctl[s];

	if (v->err)
		unread(w, key, host_sysctl_name(s), v->err, DEFAULT_STANDS);
	else
		key_u64(w, key, v->v, lo, hi, unit);
}

static void host_idle(struct w *w)
{
	const struct host_cpu *c = w->h->cpu;
	const char *g = c->idle_governor.s;

	if (c->idle_governor.err)
		unread(w, "idle", "cpuidle/current_governor", c->idle_governor.err,
		       "the default menu stands");
	else if (!strcmp(g, "menu") || !strcmp(g, "teo"))
		put(w, "idle = %s\n", g);
	else
		put(w, "# idle: the host's governor is %s, which rxlab does not model (menu, teo, "
		    "poll); the default menu stands, and the profile's [cstates] are its states\n", g);
}

static void write_host(struct w *w, const char *cmdline)
{
	char why[384];
	const char *profile = host_profile_choose(w->h, why, sizeof(why));
	const struct host_cpu *c = w->h->cpu;

	put(w, "# This host, as `%s` read it (docs/host.md).  Set traffic.rate (below)\n"
	    "# to the load you want advice for before `rxlab tune`.\n\n[host]\n", cmdline);
	put(w, "# profile %s: %s\nprofile = %s\n", profile, why, profile);
	if (c->online.err) {
		unread(w, "cpus", "/sys/devices/system/cpu/online", c->online.err, "1 CPU is written");
		w->cpus = 1;
		put(w, "cpus = 1\n");
	} else {
		key_u64(w, "cpus", c->online.v, 1, 256, "");
		w->cpus = c->online.v < 1 ? 1 : c->online.v > 256 ? 256 : c->online.v;
	}
	put(w, "rxpath = napi\n");
	host_sysctl(w, HOST_NETDEV_BUDGET, "netdev_budget", 1, 1000000, "");
	host_sysctl(w, HOST_NETDEV_BUDGET_USECS, "netdev_budget_usecs", 1, 10000000, "us");
	host_sysctl(w, HOST_NETDEV_MAX_BACKLOG, "netdev_max_backlog", 1, 10000000, "");
	host_sysctl(w, HOST_DEV_WEIGHT, "dev_weight", 1, 65536, "");
	host_idle(w);
}

/* The RX queues: combined channels plus RX-only ones (ethtool -l). */
static bool rx_queues(const struct host_nic *n, uint64_t *q)
{
	if (n->combined.err)
		return false;
	*q = n->combined.v + (n->rx_channels.err ? 0 : n->rx_channels.v);
	return true;
}

static void nic_basic(struct w *w, const struct host_nic *n)
{
	const char *note, *word;
	uint64_t q;

	if (n->driver.err) {
		unread(w, "driver", "ETHTOOL_GDRVINFO", n->driver.err, "generic is written");
		put(w, "driver = generic\n");
	} else {
		word = host_driver_word(n->driver.s, &note);
		if (!strcmp(word, "virtio-net") && virtio_has_coal(n)) {
			word = "generic";
			note = "whose coalescing values show VIRTIO_NET_F_NOTF_COAL: generic (as asked)";
		}
		put(w, "# driver: the kernel's %s%s%s\ndriver = %s\n", n->driver.s, note ? ", " : "",
		    note ? note : "", word);
	}
	if (n->speed_mbps.err)
		unread(w, "speed", "ETHTOOL_GLINKSETTINGS", n->speed_mbps.err, DEFAULT_STANDS);
	else
		key_u64(w, "speed", n->speed_mbps.v, 1, 800000, "Mbit");
	if (!rx_queues(n, &q))
		unread(w, "combined", "ETHTOOL_GCHANNELS", n->combined.err, "1 queue stands");
	else {
		if (n->rx_channels.v && !n->rx_channels.err)
			put(w, "# combined: %" PRIu64 " combined + %" PRIu64 " RX-only channels = %" PRIu64
			    " RX queues\n", n->combined.v, n->rx_channels.v, q);
		key_u64(w, "combined", q, 1, 64, "");
		w->queues = q < 1 ? 1 : q > 64 ? 64 : q;
	}
}

static void nic_rings(struct w *w, const struct host_nic *n)
{
	if (n->rx_ring.err) {
		unread(w, "rx-ring, tx-ring", "ETHTOOL_GRINGPARAM", n->rx_ring.err, DEFAULT_STANDS);
		return;
	}
	key_u64(w, "rx-ring", n->rx_ring.v, 1, 65536, "");
	key_u64(w, "tx-ring", n->tx_ring.v, 1, 65536, "");
}

static void nic_coalesce(struct w *w, const struct host_nic *n)
{
	if (n->rx_usecs.err) {
		unread(w, "rx-usecs, rx-frames, tx-usecs, tx-frames, adaptive-rx", "ETHTOOL_GCOALESCE",
		       n->rx_usecs.err, "the defaults stand (rx-usecs 0, rx-frames 1: an interrupt per "
		       "frame)");
		return;
	}
	key_u64(w, "rx-usecs", n->rx_usecs.v, 0, 10000000, "us");
	if (n->rx_usecs.v == 0 && n->rx_frames.v == 0) {
		put(w, "# rx-frames: the driver reports rx-usecs 0 and rx-frames 0, which rxlab "
		    "rejects; both mean an interrupt per frame: rx-frames 1\nrx-frames = 1\n");
	} else {
		key_u64(w, "rx-frames", n->rx_frames.v, 0, 65535, "");
	}
	key_u64(w, "tx-usecs", n->tx_usecs.v, 0, 10000000, "us");
	key_u64(w, "tx-frames", n->tx_frames.v, 0, 65535, "");
	if (n->adaptive_rx.v)
		put(w, "# adaptive-rx: on (the driver's adaptive moderation; rxlab models it as "
		    "Linux DIM)\nadaptive-rx = dim\n");
	else
		put(w, "adaptive-rx = off\n");
}

#define NAPI_VAL(n, i, off) ((const struct host_val *)((const char *)&(n)->napi[i] + (off)))

/* KEY = V0 V1 ...: one value per NAPI in queue order (ascending id), as
 * `netdev napi-set` sets them; each clamped to @hi with a comment. */
static void key_list(struct w *w, const struct host_nic *n, size_t off, const char *key,
		     uint64_t hi, const char *unit)
{
	put(w, "# %s: napi-get, one value per NAPI (ids", key);
	for (int i = 0; i < n->n_napi; i++)
		put(w, " %u", n->napi[i].id);
	put(w, ") in queue order\n");
	for (int i = 0; i < n->n_napi; i++)
		if (NAPI_VAL(n, i, off)->v > hi)
			put(w, "# %s: NAPI %u's %" PRIu64 "%s is past rxlab's %" PRIu64 "%s: clamped\n",
			    key, n->napi[i].id, NAPI_VAL(n, i, off)->v, unit, hi, unit);
	put(w, "%s =", key);
	for (int i = 0; i < n->n_napi; i++) {
		uint64_t v = NAPI_VAL(n, i, off)->v;

		put(w, " %" PRIu64 "%s", v > hi ? hi : v, unit);
	}
	put(w, "\n");
}

/* A per-NAPI setting: every NAPI's attribute (one value when they agree,
 * a list in queue order when they differ and there is a NAPI per queue
 * written), or the device's sysfs file. */
static void napi_setting(struct w *w, const struct host_nic *n, size_t off, const char *key,
			 const struct host_val *sys, const char *sysfile, uint64_t hi,
			 const char *unit)
{
	const struct host_val *v0 = n->n_napi ? NAPI_VAL(n, 0, off) : NULL;
	bool all = v0 && !v0->err, same = all;

	for (int i = 1; all && i < n->n_napi; i++) {
		all = !NAPI_VAL(n, i, off)->err;
		same = same && all && NAPI_VAL(n, i, off)->v == v0->v;
	}
	if (all && !same && (uint64_t)n->n_napi == w->queues) {
		key_list(w, n, off, key, hi, unit);
	} else if (all) {
		if (!same)
			put(w, "# %s: the NAPIs differ and there are %d of them for %" PRIu64
			    " queues; NAPI %u's value is written (rxlab host's table lists each)\n",
			    key, n->n_napi, w->queues, n->napi[0].id);
		put(w, "# %s: napi-get\n", key);
		key_u64(w, key, v0->v, 0, hi, unit);
	} else if (sys && !sys->err) {
		put(w, "# %s: /sys/class/net/%s/%s\n", key, n->ifname, sysfile);
		key_u64(w, key, sys->v, 0, hi, unit);
	} else if (sys) {
		unread(w, key, sysfile, sys->err, DEFAULT_STANDS);
	} else {
		unread(w, key, "napi-get", v0 ? v0->err : n->napi_err ? n->napi_err : ENODATA,
		       DEFAULT_STANDS);
	}
}

static void nic_napi(struct w *w, const struct host_nic *n)
{
	napi_setting(w, n, offsetof(struct host_napi, defer_hard_irqs), "napi_defer_hard_irqs",
		     &n->sys_defer_hard_irqs, "napi_defer_hard_irqs", 2147483647, "");
	napi_setting(w, n, offsetof(struct host_napi, gro_flush_timeout), "gro_flush_timeout",
		     &n->sys_gro_flush_timeout, "gro_flush_timeout", 10000000000ull, "ns");
	napi_setting(w, n, offsetof(struct host_napi, threaded), "threaded", &n->sys_threaded,
		     "threaded", 2, "");
	napi_setting(w, n, offsetof(struct host_napi, irq_suspend_timeout), "irq-suspend-timeout",
		     NULL, NULL, 10000000000ull, "ns");
	if (n->gro.err)
		unread(w, "gro", "ETHTOOL_GGRO", n->gro.err, DEFAULT_STANDS);
	else
		put(w, "gro = %s\n", n->gro.v ? "on" : "off");
}

/* One CPU of each NAPI's IRQ, in NAPI order: irq-affinity, when each IRQ
 * has exactly one CPU below cpus. */
static void nic_irqs(struct w *w, const struct host_nic *n)
{
	char list[512] = "";
	size_t at = 0;

	if (n->n_napi == 0 || n->napi[0].irq.err) {
		unread(w, "irq-affinity", "napi-get irq", n->n_napi ? n->napi[0].irq.err :
		       n->napi_err ? n->napi_err : ENODATA, "the default placement stands (no IRQ "
		       "to place on a virtual device)");
		return;
	}
	for (int i = 0; i < n->n_napi; i++) {
		const struct host_napi *p = &n->napi[i];
		char *end;
		unsigned long cpu;

		if (p->affinity.err) {
			unread(w, "irq-affinity", "/proc/irq/N/smp_affinity_list", p->affinity.err,
			       DEFAULT_STANDS);
			return;
		}
		cpu = strtoul(p->affinity.s, &end, 10);
		if (*end || end == p->affinity.s || cpu >= w->cpus) {
			put(w, "# irq-affinity: IRQ %" PRIu64 " may run on CPUs %s; rxlab places a "
			    "vector on one CPU below %" PRIu64 ": left out\n", p->irq.v, p->affinity.s,
			    w->cpus);
			return;
		}
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%lu", i ? "," : "", cpu);
		if (at >= sizeof(list))
			return;
	}
	put(w, "# irq-affinity: the NAPIs' IRQs (napi-get irq, /proc/irq/N/smp_affinity_list)\n"
	    "irq-affinity = %s\n", list);
}

/* The CPUs of every queue's rps_cpus, when they agree and all lie below cpus. */
static void nic_rps(struct w *w, const struct host_nic *n)
{
	const char *first;

	if (n->n_rxq == 0 || n->rps[0].err) {
		unread(w, "rps-cpus", "queues/rx-0/rps_cpus", n->n_rxq ? n->rps[0].err : n->rxq_err,
		       "RPS off stands");
		return;
	}
	first = n->rps[0].s;
	for (int q = 1; q < n->n_rxq; q++) {
		if (n->rps[q].err || strcmp(n->rps[q].s, first)) {
			put(w, "# rps-cpus: the queues' rps_cpus differ (rx-0 %s, rx-%d %s); rxlab "
			    "takes one list for all: left out\n", first, q, n->rps[q].s);
			return;
		}
	}
	if (!first[0]) {
		put(w, "# rps-cpus: off on every queue (rps_cpus 0)\n");
		return;
	}
	for (const char *p = first; *p;) {
		char *end;
		unsigned long c = strtoul(p, &end, 10);

		if (c >= w->cpus) {
			put(w, "# rps-cpus: %s names a CPU past the %" PRIu64 " written: left out\n",
			    first, w->cpus);
			return;
		}
		p = *end ? end + 1 : end;
	}
	put(w, "rps-cpus = %s\n", first);
}

/* `equal N` when entry i is i % N (ethtool_rxfh_indir_default()), else
 * each queue's share as weights (rxlab lays them out contiguously). */
static void nic_indir(struct w *w, const struct host_nic *n)
{
	uint64_t q, size = n->indir_size.v, count[64] = { 0 };
	bool equal = true;

	if (n->indir_size.err) {
		unread(w, "indir, indir-size", "ETHTOOL_GRSSH", n->indir_size.err, DEFAULT_STANDS);
		return;
	}
	if (!rx_queues(n, &q) || q < 1 || q > 64)
		q = 1;
	key_u64(w, "indir-size", size, 1, 512, "");
	for (uint64_t i = 0; i < size; i++) {
		if (n->indir[i] >= q) {
			put(w, "# indir: entry %" PRIu64 " names queue %u, past the %" PRIu64
			    " written: left out\n", i, n->indir[i], q);
			return;
		}
		count[n->indir[i]]++;
		equal = equal && n->indir[i] == i % q;
	}
	if (equal) {
		put(w, "indir = equal %" PRIu64 "\n", q);
		return;
	}
	put(w, "# indir: the table's share of each queue (ethtool -x); rxlab lays the shares out "
	    "contiguously\nindir = weight");
	for (uint64_t i = 0; i < q; i++)
		put(w, " %" PRIu64, count[i]);
	put(w, "\n");
}

static void write_nic(struct w *w, const struct host_nic *n)
{
	put(w, "\n[nic %s]\n", n->ifname);
	nic_basic(w, n);
	if (!n->mtu.err)
		put(w, "# mtu %" PRIu64 " (no key: traffic.frame-size sets the frames)\n", n->mtu.v);
	nic_rings(w, n);
	nic_coalesce(w, n);
	nic_napi(w, n);
	nic_irqs(w, n);
	nic_rps(w, n);
	nic_indir(w, n);
}

static void write_rest(struct w *w, const struct host_nic *n)
{
	const struct host_val *br = &w->h->sysctl[HOST_BUSY_READ], *bp = &w->h->sysctl[HOST_BUSY_POLL];
	char r[128];

	put(w, "\n[traffic]\nport = %s\npattern = poisson\n"
	    "# rate: a placeholder, not read from the host: set the load you want advice for\n"
	    "# (--set traffic.rate=200kpps, or rxlab tune --load FROM..TO)\nrate = 10kpps\n",
	    n->ifname);
	put(w, "\n[apps]\n# sink: a UDP receiver reading every frame (the udp-sink workload); "
	    "describe your application here\nsink = on\n");
	if (br->err)
		put(w, "# busy_poll: net.core.busy_read not read: %s\n", host_err_text(br->err, r, sizeof(r)));
	else
		put(w, "# busy_poll: net.core.busy_read, every socket's default SO_BUSY_POLL\n"
		    "busy_poll = %" PRIu64 "us\n", br->v > 1000000 ? 1000000 : br->v);
	if (!bp->err)
		put(w, "# net.core.busy_poll = %" PRIu64 " us (poll/select): no key\n", bp->v);
	put(w, "\n[run]\nduration = 200ms\n");
}

int host_scenario_write(FILE *f, const struct host_seen *h, const char *cmdline)
{
	struct w w = { .f = f, .h = h, .cpus = 1, .queues = 1 };

	write_host(&w, cmdline);
	if (h->nic) {
		write_nic(&w, h->nic);
		write_rest(&w, h->nic);
	}
	fflush(f);
	return ferror(f) ? -1 : 0;
}
