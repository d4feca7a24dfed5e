/* trap.h - settings the field knows to be traps, flagged by `rxlab tune`
 * with the reason even when they meet the goals (issue #21).
 *
 *   no timer   rx-frames > 1 with rx-usecs 0 and adaptive-rx off: the
 *              interrupt waits for a frame count only, so a lone frame
 *              waits for rx-frames - 1 more (milliseconds at a low rate);
 *   deferral   napi_defer_hard_irqs x gro_flush_timeout, or
 *              irq-suspend-timeout, longer than the RX ring holds at the
 *              peak rate: rx-ring descriptors / (peak frames/s / queues),
 *              RSS assumed to spread the frames evenly over the queues.
 */
#ifndef RXLAB_TUNE_TRAP_H
#define RXLAB_TUNE_TRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rxlab/scenario.h"

/* The knobs of one port that the traps look at. */
struct tune_trap_knobs {
	bool adaptive;                   /* adaptive-rx is not off */
	int64_t rx_usecs_ns;             /* rx-usecs */
	uint32_t rx_frames;              /* rx-frames */
	uint32_t defer_hard_irqs;        /* napi_defer_hard_irqs */
	int64_t gro_flush_timeout_ns;    /* gro_flush_timeout */
	int64_t irq_suspend_timeout_ns;  /* irq-suspend-timeout, 0 = off */
	uint32_t rx_ring;                /* rx-ring descriptors per queue */
	uint32_t queues;                 /* RX queues the frames spread over (>= 1) */
};

/* The knobs of port @port_ix of @scn (queue 0's where they are per queue;
 * queues: indir = equal N, else combined). */
struct tune_trap_knobs tune_trap_knobs_of(const struct scenario *scn, int port_ix);

/* The traps of @k at a peak offered rate of @peak_pps frames/s (NaN or
 * <= 0: unknown, the deferral trap is not judged), as "; "-separated
 * reasons into @buf (at most @len bytes, always terminated; "" when none).
 * Returns how many traps it found (0, 1 or 2). */
size_t tune_traps(const struct tune_trap_knobs *k, double peak_pps, char *buf, size_t len);

#endif
