/* apply.h - the Linux commands that apply a simulated setting. */
#ifndef RXLAB_SCHEME_APPLY_H
#define RXLAB_SCHEME_APPLY_H

#include <stdio.h>

#include "rxlab/scenario.h"

/* Print to @f, as a shell script, the commands that give interface @iface
 * the moderation of port @nic of @scn: ethtool -C (rx-usecs, rx-frames,
 * adaptive-rx; e1000's InterruptThrottleRate as its rx-usecs), the sysfs
 * napi_defer_hard_irqs and gro_flush_timeout, the per-NAPI netlink
 * napi-set equivalent (with irq-suspend-timeout, which has no sysfs file),
 * and, as comments, the setsockopt() / epoll ioctl calls the receiving
 * application makes (SO_BUSY_POLL, SO_PREFER_BUSY_POLL,
 * SO_BUSY_POLL_BUDGET, EPIOCSPARAMS).  Every knob is written, including
 * those left at their defaults, so the result does not depend on what the
 * interface had before.  Every word that is not a fixed literal is quoted
 * for a POSIX shell (sh_quote(), io/shell_quote.h).  @iface must pass
 * rxl_ifname_check() (include/rxlab/live.h): 0, or -1 and nothing written
 * when it does not. */
int tune_apply_print(FILE *f, const struct scenario *scn, int nic, const char *iface);

/* The first lines of apply.sh: "#!/bin/sh", a comment naming @target (its
 * control bytes as '?', so that no byte of it leaves the comment) and
 * "set -e". */
void tune_apply_script_head(FILE *f, const char *target);

#endif
