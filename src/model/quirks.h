/* quirks.h - how each driver reads the ethtool -C values it is given:
 * rounded, clamped, reinterpreted or refused (the table of docs/quirks.md).
 *
 * The scenario loader runs a port's rx-usecs and rx-frames through these
 * functions when its [nic] driver is not generic, so the simulator, replay
 * and the live engine all see what the driver honours; scheme/apply.c
 * prints what the driver will do beside the commands; tune asks
 * quirk_honours() which of its levels a driver takes as given.
 *
 * Pure: no I/O, no allocation, no clock.
 */
#ifndef RXLAB_MODEL_QUIRKS_H
#define RXLAB_MODEL_QUIRKS_H

#include <stdbool.h>
#include <stdint.h>

#include "rxlab/scenario.h"

/* What a driver does with one requested value. */
enum quirk_outcome {
	QUIRK_AS_ASKED, /* it programs the value asked */
	QUIRK_ROUNDED,  /* it programs another value (rounded, clamped): *honoured */
	QUIRK_MODE,     /* the value selects a mode, not a time (e1000 rx-usecs 1/3/4 and
	                 * 10..10000, ixgbevf rx-usecs 1) */
	QUIRK_REFUSED,  /* ethtool -C fails (-EINVAL, -ERANGE or -EOPNOTSUPP) */
};

/* One row of the table: a driver as the scenario names it. */
struct quirk_driver {
	const char *name;       /* [nic] driver = NAME */
	const char *ethtool;    /* what `ethtool -i IFACE` prints after "driver:" */
	const char *usecs_rule; /* the accepted rx-usecs and what happens to them, in the
	                         * words of a load error ("0..8160 us, odd values ...") */
	const char *source;     /* where the rule is read: file and function, bug tracker */
	bool frames;            /* takes rx-frames (ETHTOOL_COALESCE_MAX_FRAMES) */
	bool adaptive;          /* takes adaptive-rx on (ETHTOOL_COALESCE_USE_ADAPTIVE_RX) */
	bool cqe_mode;          /* takes cqe-mode-rx (ETHTOOL_COALESCE_USE_CQE) */
	bool per_queue;         /* has set_per_queue_coalesce (ethtool --per-queue): its
	                         * queues can have coalescing values of their own */
	bool verified;          /* every rule read in the driver's source; false: part of it
	                         * comes from a report on real devices ([unverified]) */
};

/* The row of @d (every enum nic_driver has one). */
const struct quirk_driver *quirk_driver(enum nic_driver d);

/* The driver whose ethtool -i name is @ethtool_name ("mlx5_core",
 * "virtio_net", "ena", ...) into *@d: 0, or -1 and *@d = DRIVER_GENERIC for
 * a driver the table does not know (its values are then taken as given). */
int quirk_driver_by_ethtool(const char *ethtool_name, enum nic_driver *d);

/* What driver @d makes of ethtool -C rx-usecs = @asked_ns (ns, >= 0): the
 * outcome, the time it programs into *@honoured_ns (ns; for QUIRK_MODE the
 * mode's nominal gap or 0, for QUIRK_REFUSED @asked_ns), and into *@why a
 * static sentence saying why, with its source ("" for QUIRK_AS_ASKED).
 * A value that is not a whole number of microseconds is refused by every
 * driver but generic: ethtool -C takes microseconds. */
enum quirk_outcome quirk_rx_usecs(enum nic_driver d, int64_t asked_ns, int64_t *honoured_ns,
                                  const char **why);

/* What driver @d makes of rx-frames = @asked next to rx-usecs @rx_usecs_ns
 * (already honoured): a driver without a frame count refuses a count above
 * 1 and fires on its timer alone (*@honoured 0) when rx-usecs > 0, on
 * every frame (1) when it is 0; virtio-net takes only 1.  *@why as
 * quirk_rx_usecs(). */
enum quirk_outcome quirk_rx_frames(enum nic_driver d, uint32_t asked, int64_t rx_usecs_ns,
                                   uint32_t *honoured, const char **why);

/* Whether driver @d programs the scenario knob @knob ("rx-usecs",
 * "rx-frames", "adaptive-rx", "cqe-mode-rx"; a scheme axis's label) =
 * @value (as --set takes it: rx-usecs in whole us) exactly as asked.  A
 * knob the table has no rule for, or a value it cannot read, is honoured
 * (true).  rx-frames: whether the driver accepts it at all, judged next to
 * a non-zero rx-usecs (a driver without a frame count takes 0 and 1 as
 * "no count", nothing above). */
bool quirk_honours(enum nic_driver d, const char *knob, const char *value);

#endif
