/* knobs.h - device settings a live run changes, each saved before the
 * change and restored afterwards (also after a crash, see knobs_reap_stale).
 *
 * Names and units are the kernel's:
 *   napi_defer_hard_irqs   count of empty polls before the IRQ is re-armed
 *                          (sysfs /sys/class/net/DEV/napi_defer_hard_irqs,
 *                          netdev netlink napi-set defer-hard-irqs)
 *   gro_flush_timeout      ns (sysfs, or napi-set gro-flush-timeout)
 *   irq-suspend-timeout    ns (napi-set irq-suspend-timeout; no sysfs file)
 *   threaded               0 off, 1 a kthread per NAPI, 2 busy-polling
 *                          kthread (sysfs takes 0/1; napi-set threaded)
 *   gro, tso               ethtool -K features, 0/1 (SIOCETHTOOL
 *                          ETHTOOL_[GS]GRO / ETHTOOL_[GS]TSO)
 *   xdp                    1 when an XDP program is attached; only 0 can be
 *                          written: detach (rtnetlink IFLA_XDP, fd -1, in
 *                          generic and driver mode).  Recorded with
 *                          knobs_record() before an AF_XDP run on a real
 *                          interface, so that a killed run's program is
 *                          detached by the next run.
 *
 * Per-NAPI values go over the netdev generic netlink family to every NAPI
 * of the device (what a sysfs write does too); when the kernel lacks the
 * family or the device has no NAPI yet, the sysfs file is used, which only
 * exists for devices in the caller's own network namespace.
 */
#ifndef RXLAB_LIVE_KNOBS_H
#define RXLAB_LIVE_KNOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum knob {
	KNOB_NAPI_DEFER_HARD_IRQS,
	KNOB_GRO_FLUSH_TIMEOUT,
	KNOB_IRQ_SUSPEND_TIMEOUT,
	KNOB_THREADED,
	KNOB_GRO,
	KNOB_TSO,
	KNOB_XDP,
	KNOB_COUNT
};

/* "napi_defer_hard_irqs", "gro_flush_timeout", "irq-suspend-timeout",
 * "threaded", "gro", "tso", "xdp". */
const char *knob_name(enum knob k);
/* Accepts the names above (and '-' for '_'). 0, or -1 if unknown. */
int knob_parse(const char *name, enum knob *out);
/* Largest accepted value of @k (S32_MAX for the count, 2 for threaded,
 * 1 for features, 0 for xdp, ~1 hour for the timeouts). */
uint64_t knob_max(enum knob k);
/* Is @k a time in ns (parse it with a time unit)? */
bool knob_is_time(enum knob k);

/* A device: its namespace (-1 = the caller's), name and index there. */
struct knob_dev {
	int ns_fd;
	char ifname[16];
	int ifindex;
};

/* Read / write one knob of @d.  0, or -1 with a message naming the device,
 * the knob and the system error in @err. */
int knob_get(const struct knob_dev *d, enum knob k, uint64_t *v, char *err, size_t errlen);
int knob_put(const struct knob_dev *d, enum knob k, uint64_t v, char *err, size_t errlen);

/* The NAPI instances of @d: ids into @ids (up to @max), count returned, or
 * a negative errno (-ENOENT: no netdev netlink family).  When @pids is not
 * NULL it gets each NAPI's threaded kthread pid (0 when not threaded). */
int knob_napi_list(const struct knob_dev *d, uint32_t *ids, int *pids, int max);

#define KNOBS_MAX 16

/* The settings changed by one run, with their values before the run. */
struct knobs {
	struct knob_dev dev;
	size_t n;
	struct {
		enum knob k;
		uint64_t old;
	} saved[KNOBS_MAX];
	char journal[128];	/* "" = no journal (test-bed devices die with their namespace) */
};

/* Start an empty set for @d.  With @journal, each change is first appended
 * to /run/rxlab/knobs.PID so that a run killed with SIGKILL is undone by
 * the next knobs_reap_stale(). */
void knobs_init(struct knobs *ks, const struct knob_dev *d, bool journal);

/* Set @k to @v, saving the value it had the first time it is changed.
 * 0, or -1 with a message in @err (nothing changed then). */
int knobs_set(struct knobs *ks, enum knob k, uint64_t v, char *err, size_t errlen);

/* Save (and journal) @k's value @old as if knobs_set() had changed it, for
 * a change someone else is about to make (the library attaching an XDP
 * program).  0, or -1 with a message in @err. */
int knobs_record(struct knobs *ks, enum knob k, uint64_t old, char *err, size_t errlen);

/* Put every saved value back, last change first, and remove the journal.
 * Failures are reported in @err (may be NULL); returns how many failed. */
int knobs_restore(struct knobs *ks, char *err, size_t errlen);

/* Undo the journals of rxlab runs that died without restoring (their pid
 * is gone, or reused by another program).  Returns the number of settings
 * restored; a line per restored setting goes to @log when not NULL. */
int knobs_reap_stale(void (*log)(const char *line));

#endif
