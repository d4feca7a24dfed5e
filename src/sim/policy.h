/* policy.h - a registered moderation policy (rxlab/policy.h) as a
 * simulated port's driver runs it, adaptive-rx = policy:NAME. */
#ifndef RXLAB_SIM_POLICY_H
#define RXLAB_SIM_POLICY_H

#include "sim/sim.h"

/* Port @n is brought up (adapt_init()): look the policy up and start it
 * with the port's rx-usecs (whole us) / rx-frames at the counters' origin.
 * A policy no longer registered (the registry was cleared after the load)
 * is a failed run, s->fatal naming it. */
void policy_start(struct sim *s, struct nic *n);

/* The ISR of @n runs (kern_isr); nothing unless @n runs a policy. */
void policy_on_irq(struct sim *s, struct nic *n);

/* @n's interrupt is about to be re-enabled after a completed poll, where
 * the driver would call net_dim() (adapt_on_rearm()). */
void policy_on_poll_done(struct sim *s, struct nic *n);

#endif
