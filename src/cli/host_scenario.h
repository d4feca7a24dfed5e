/* host_scenario.h - a scenario that describes this host, from what
 * src/live/host_read.h read (`rxlab host IFACE --out FILE`, docs/host.md).
 *
 * Pure: functions of the structs the readers filled, so that tests give
 * them copies of what a kernel answered.  Only keys the scenario loader
 * accepts are written (rxlab scenarios --keys); a value outside a key's
 * range is clamped with a comment saying so, and a value that was not read
 * or has no key is a comment with the reason, never a silent default.
 */
#ifndef RXLAB_CLI_HOST_SCENARIO_H
#define RXLAB_CLI_HOST_SCENARIO_H

#include <stddef.h>
#include <stdio.h>

#include "live/host_read.h"

/* What was read: @nic NULL when no interface was named. */
struct host_seen {
	const struct host_cpu *cpu;
	const struct host_val *sysctl;	/* [HOST_SYSCTL_COUNT] */
	const struct host_nic *nic;
};

/* The scenario word (nic.NAME.driver) for kernel driver @kdriver (ethtool
 * -i's "driver": "mlx5_core", "e1000", "veth"): "e1000" or "generic"
 * (what the loader accepts).  *@kernel_note (may be NULL) gets the
 * one-line note written beside it ("mlx5_core: its quirks are the
 * planned driver word mlx5"), NULL when there is nothing to say. */
const char *host_driver_word(const char *kdriver, const char **kernel_note);

/* The built-in profile (rxlab scenarios) nearest to this host, and why in
 * @why.  The rule (docs/host.md): a virtual interface (veth, lo, no driver
 * or none named) is veth-host, the profile `rxlab live calibrate` measures
 * on veth; else by the CPU's vendor and generation: AMD is epyc-7742-ice;
 * an Intel Xeon Scalable of the first generation (model number x1xx:
 * Skylake-SP) skx-56t-100g; any other CPU xeon-6338-mlx5, the fallback. */
const char *host_profile_choose(const struct host_seen *h, char *why, size_t whylen);

/* "EOPNOTSUPP (the driver does not implement it)", "ENOENT (no such file
 * or attribute)", ... for a positive errno. */
const char *host_err_text(int err, char *buf, size_t len);

/* Write the scenario to @f; @cmdline is the command that read it (for the
 * header comment).  0, or -1 when a write to @f failed. */
int host_scenario_write(FILE *f, const struct host_seen *h, const char *cmdline);

#endif
