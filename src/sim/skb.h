/* skb.h - sk_buff allocation and recycling, and the xmit lock (skb.c). */
#ifndef RXLAB_SIM_SKB_H
#define RXLAB_SIM_SKB_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/pkt.h"

struct sim;
struct cpu;
struct nic;

/* CPU @c allocates the sk_buff of RX frame @p (driver refill): stamps
 * p->cpu, serves it from c's recycle pool when skb-recycle = on and the
 * pool has one.  Returns the CPU time it costs (skb-alloc, or 0 on a hit). */
int64_t skb_alloc(struct sim *s, struct cpu *c, struct pkt *p);
/* CPU @c frees the sk_buff of @p (into its pool when recycling and not
 * full).  Returns true when another CPU allocated it (remote-free). */
bool skb_free(struct sim *s, struct cpu *c, const struct pkt *p);
/* CPU @c wants port @n's xmit lock at @t for about @hold ns: returns when
 * it gets it, after spinning (counted in xmit_spin_ns) through the holds of
 * chunks on other CPUs; @t when the lock is not modelled (one CPU or
 * xmit-locked = 0).  xlock_release() then records the hold [at, end). */
int64_t xlock_acquire(struct sim *s, struct cpu *c, struct nic *n, int64_t t, int64_t hold);
void xlock_release(struct sim *s, struct cpu *c, struct nic *n, int64_t at, int64_t end);
/* Allocate port locks where they are modelled.  0 or -1 (s->fatal). */
int xlock_init(struct sim *s);
void xlock_free(struct sim *s);

#endif
