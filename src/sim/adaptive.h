/* adaptive.h - the driver-side moderation controllers (adaptive.c).
 *
 * Part of the host that sim/sim.h describes: include "sim/sim.h", which
 * includes this header after the counters and forward declarations it
 * uses. */
#ifndef RXLAB_SIM_ADAPTIVE_H
#define RXLAB_SIM_ADAPTIVE_H

#ifndef RXLAB_SIM_SIM_H
#error "include sim/sim.h, not this header"
#endif

void adapt_init(struct sim *s, struct nic *n);
/* The driver is about to re-enable @n's interrupt: controllers sample. */
void adapt_on_rearm(struct sim *s, struct nic *n);
/* EV_DIM_APPLY */
void adapt_dim_apply(struct sim *s, struct nic *n);
/* EV_WATCHDOG */
void adapt_watchdog(struct sim *s, struct nic *n);

#endif
