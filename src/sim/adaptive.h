/* adaptive.h - the driver-side moderation controllers (adaptive.c). */
#ifndef RXLAB_SIM_ADAPTIVE_H
#define RXLAB_SIM_ADAPTIVE_H

struct sim;
struct nic;

void adapt_init(struct sim *s, struct nic *n);
/* The driver is about to re-enable @n's interrupt: controllers sample. */
void adapt_on_rearm(struct sim *s, struct nic *n);
/* EV_DIM_APPLY */
void adapt_dim_apply(struct sim *s, struct nic *n);
/* EV_WATCHDOG */
void adapt_watchdog(struct sim *s, struct nic *n);

#endif
