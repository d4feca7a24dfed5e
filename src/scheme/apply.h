/* apply.h - the Linux commands that apply a simulated setting. */
#ifndef RXLAB_SCHEME_APPLY_H
#define RXLAB_SCHEME_APPLY_H

#include <stddef.h>
#include <stdio.h>

#include "rxlab/scenario.h"
#include "rxlab/scheme.h"

/* Print to @f, as a shell script, the commands that give interface @iface
 * the moderation of port @nic of @scn: ethtool -C (rx-usecs, rx-frames,
 * adaptive-rx; e1000's InterruptThrottleRate as its rx-usecs), the sysfs
 * napi_defer_hard_irqs and gro_flush_timeout, the per-NAPI netlink
 * napi-set equivalent (with irq-suspend-timeout, which has no sysfs file),
 * for a port with several queues each queue's napi-set, ethtool
 * --per-queue (when the queues' coalescing differs) and IRQ affinity
 * (/proc/irq/N/smp_affinity_list, N from netdev napi-get), for a port whose
 * driver is not generic only the ethtool -C words it takes and what it
 * makes of them (model/quirks.h),
 * and, as comments, the setsockopt() / epoll ioctl calls the receiving
 * application makes (SO_BUSY_POLL, SO_PREFER_BUSY_POLL,
 * SO_BUSY_POLL_BUDGET, EPIOCSPARAMS).  Every knob is written, including
 * those left at their defaults, so the result does not depend on what the
 * interface had before.  Every word that is not a fixed literal is quoted
 * for a POSIX shell (sh_quote(), io/shell_quote.h).  @iface must pass
 * rxl_ifname_check() (include/rxlab/live.h): 0, or -1 and nothing written
 * when it does not. */
int tune_apply_print(FILE *f, const struct scenario *scn, int nic, const char *iface);

/* The levels of @axis (a scheme's knob, include/rxlab/scheme.h) that
 * driver @d programs as asked: quirk_honours() (model/quirks.h) with the
 * axis's label as the knob, in their order, into @out (room for axis->n
 * pointers to the registry's strings): how many.  tune searches these and
 * skips the others, which the driver would round, clamp or refuse. */
size_t quirk_levels_filter(enum nic_driver d, const struct rxl_scheme_axis *axis,
                           const char **out);

/* The first lines of apply.sh: "#!/bin/sh", a comment naming @target (its
 * control bytes as '?', so that no byte of it leaves the comment) and
 * "set -e". */
void tune_apply_script_head(FILE *f, const char *target);

#endif
