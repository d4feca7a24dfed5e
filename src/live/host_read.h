/* host_read.h - what this machine has: its CPUs, the net.core sysctls and
 * one interface's driver, queues, rings, coalescing, RSS, NAPI settings
 * and IRQ placement, read through the kernel's own interfaces (sysfs,
 * procfs, SIOCETHTOOL, the netdev generic netlink family) for `rxlab host`
 * (src/cli/cmd_host.c, docs/host.md).
 *
 * Every value comes with the reason it could not be read: err is 0 when
 * the value holds what the kernel said, else a positive errno (ENOENT: no
 * such file or attribute, EOPNOTSUPP: the driver does not implement the
 * ethtool operation, EACCES / EPERM: permission, ENODATA: the kernel
 * answered "unknown", such as SPEED_UNKNOWN).  Nothing is defaulted here;
 * the caller decides what an unread value means.
 *
 * Roadmap: host_read.c (CPUs, sysctls, sysfs of the interface, the pure
 * parsers of their text), host_ethtool.c (the SIOCETHTOOL reads),
 * host_napi.c (napi-get).  The readers act in the calling thread's network
 * namespace (run under `ip netns exec NS`, which also mounts that
 * namespace's /sys).  Internal to src/live; the CLI includes it.
 */
#ifndef RXLAB_LIVE_HOST_READ_H
#define RXLAB_LIVE_HOST_READ_H

#include <stddef.h>
#include <stdint.h>

/* A number read from the kernel, or why not (err: positive errno). */
struct host_val {
	uint64_t v;
	int err;
};

#define HOST_TEXT_LEN 96
struct host_text {
	char s[HOST_TEXT_LEN];
	int err;
};

#define HOST_MAX_CSTATES 10
#define HOST_MAX_NAPI 64
#define HOST_MAX_QUEUES 64
#define HOST_INDIR_MAX 512

struct host_cstate {
	char name[32];		/* cpu0/cpuidle/stateN/name: "POLL", "C1E" */
	uint64_t latency_us;	/* stateN/latency: exit latency, us */
};

struct host_cpu {
	struct host_val online;		/* CPUs in /sys/devices/system/cpu/online */
	struct host_text online_list;	/* that file: "0-1" */
	struct host_text vendor;	/* /proc/cpuinfo vendor_id of the first CPU */
	struct host_text model;		/* /proc/cpuinfo "model name" of the first CPU */
	struct host_val numa_nodes;	/* nodes in /sys/devices/system/node/online */
	struct host_text idle_driver;	/* /sys/devices/system/cpu/cpuidle/current_driver */
	struct host_text idle_governor;	/* .../cpuidle/current_governor (or _ro) */
	int n_cstates;			/* states of cpu0/cpuidle, 0 with cstates_err */
	int cstates_err;
	struct host_cstate cstate[HOST_MAX_CSTATES];
};

/* The net.core sysctls rxlab reads (/proc/sys/net/core/NAME). */
enum host_sysctl {
	HOST_NETDEV_BUDGET,		/* packets per net_rx_action() */
	HOST_NETDEV_BUDGET_USECS,	/* us per net_rx_action() */
	HOST_DEV_WEIGHT,		/* packets: the backlog's NAPI weight */
	HOST_NETDEV_MAX_BACKLOG,	/* packets per CPU backlog */
	HOST_BUSY_POLL,			/* us: poll()/select() busy polling */
	HOST_BUSY_READ,			/* us: the default SO_BUSY_POLL of a socket */
	HOST_RPS_SOCK_FLOW_ENTRIES,	/* RFS table entries */
	HOST_SYSCTL_COUNT
};

/* "net.core.netdev_budget", ... */
const char *host_sysctl_name(enum host_sysctl s);

/* One NAPI instance as napi-get dumps it (include/uapi/linux/netdev.h). */
struct host_napi {
	uint32_t id;
	struct host_val irq;		/* absent (ENOENT) when the NAPI has no IRQ (veth) */
	struct host_val pid;		/* its threaded kthread; ENOENT when not threaded */
	struct host_val defer_hard_irqs;
	struct host_val gro_flush_timeout;	/* ns */
	struct host_val irq_suspend_timeout;	/* ns */
	struct host_val threaded;	/* 0, 1, 2 (busy-poll) */
	struct host_text affinity;	/* /proc/irq/IRQ/smp_affinity_list (irq read) */
};

/* One MSI/MSI-X vector of the device and its /proc/irq/N/smp_affinity_list. */
struct host_irq {
	unsigned irq;
	struct host_text affinity;
};

struct host_nic {
	char ifname[16];
	int ifindex;
	/* ETHTOOL_GDRVINFO (ethtool -i) */
	struct host_text driver, version, firmware, bus;
	struct host_val mtu;		/* /sys/class/net/IF/mtu, bytes */
	struct host_val speed_mbps;	/* ETHTOOL_GLINKSETTINGS speed, Mb/s */
	/* ETHTOOL_GCHANNELS (ethtool -l): current and maximum */
	struct host_val combined, rx_channels, tx_channels, max_combined, max_rx;
	/* ETHTOOL_GRINGPARAM (ethtool -g): descriptors */
	struct host_val rx_ring, tx_ring, rx_ring_max, tx_ring_max;
	/* ETHTOOL_GCOALESCE (ethtool -c) */
	struct host_val rx_usecs, rx_frames, tx_usecs, tx_frames, adaptive_rx, adaptive_tx;
	struct host_val gro;		/* ETHTOOL_GGRO: 0/1 */
	/* ETHTOOL_GRSSH (ethtool -x): table size, key bytes; the table */
	struct host_val indir_size, key_size;
	uint32_t indir[HOST_INDIR_MAX];	/* indir_size.v entries (at most HOST_INDIR_MAX) */
	/* sysfs /sys/class/net/IF/{threaded,napi_defer_hard_irqs,gro_flush_timeout} */
	struct host_val sys_threaded, sys_defer_hard_irqs, sys_gro_flush_timeout;
	/* napi-get dump, ascending id; n_napi 0 with napi_err when not read */
	int n_napi, napi_err;
	struct host_napi napi[HOST_MAX_NAPI];
	/* /sys/class/net/IF/device/msi_irqs/N, ascending; n_irq 0 with irq_err */
	int n_irq, irq_err;
	struct host_irq irq[HOST_MAX_QUEUES];
	/* /sys/class/net/IF/queues/rx-N/rps_cpus as a CPU list ("" = off) */
	int n_rxq, rxq_err;
	struct host_text rps[HOST_MAX_QUEUES];
};

/* ---- readers (this machine, the caller's namespace) ------------------- */

void host_read_cpu(struct host_cpu *c);
void host_read_sysctls(struct host_val out[HOST_SYSCTL_COUNT]);

/* Everything about interface @ifname.  0, or -ENODEV when there is no
 * such interface (nothing else is read then), -EINVAL for a name that is
 * not an interface name. */
int host_read_nic(const char *ifname, struct host_nic *n);

/* The names of /sys/class/net (the namespace's interfaces), sorted, into
 * @names (at most @max); count, or a negative errno. */
int host_list_ifaces(char (*names)[16], int max);

/* SIOCETHTOOL reads of @n->ifname into @n (host_ethtool.c). */
void host_read_ethtool(struct host_nic *n);

/* napi-get dump of @n->ifindex into @n (host_napi.c). */
void host_read_napi(struct host_nic *n);

/* ---- pure parsers (tests give them copies of kernel text) -------------- */

/* CPUs in a cpulist ("0-3,8,10-11\n", the format of
 * /sys/devices/system/cpu/online and smp_affinity_list): count, or -1 when
 * @s is not one.  An empty list is 0. */
int host_cpulist_count(const char *s);

/* The value of the first "KEY<tabs>: VALUE" line of /proc/cpuinfo text
 * into @out: 0, or -1 when no line has @key. */
int host_cpuinfo_field(const char *text, const char *key, char *out, size_t len);

/* A hex CPU mask as sysfs prints it ("00000000,0000000f", 32-bit words,
 * most significant first) as a cpulist ("0-3"; "" for no CPU) into @out.
 * 0, or -1 for text that is not a mask (or a list longer than @len). */
int host_mask_to_list(const char *mask, char *out, size_t len);

/* A decimal number alone on a line ("300\n"): 0 with *@v, or -1. */
int host_parse_u64(const char *s, uint64_t *v);

#endif
