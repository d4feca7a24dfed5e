/* rps.h - Receive Packet Steering (rps.c): the driver's poll hands each
 * frame to the backlog of the CPU that the port's rps_cpus map picks for
 * its hash, and that CPU learns of it by an IPI. */
#ifndef RXLAB_SIM_RPS_H
#define RXLAB_SIM_RPS_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/pkt.h"

struct sim;
struct cpu;
struct nic;

/* Frames steered to a CPU, not yet on its backlog: each reaches it when
 * the poll that steered it got to it (t_evt), never earlier, even when the
 * target CPU's own events come first.  Kept in time order. */
struct rps_inbox {
	struct pktq q;
	int64_t armed;        /* time of the pending EV_RPS of this CPU, or INT64_MAX */
};

/* Does port of queue @n steer (rps-cpus set)? */
bool rps_on(const struct sim *s, const struct nic *n);
/* The poll on @c at @t hands NIC frame @p to the backlog of its RPS CPU
 * (get_rps_cpu(), enqueue_to_backlog()); returns the time after. */
int64_t rps_steer(struct sim *s, struct cpu *c, struct pkt *p, int64_t t);
/* EV_RPS on CPU @c: frames due move to its backlog, and the backlog NAPI
 * newly scheduled raises the IPI (the hard IRQ IRQ_IPI). */
void rps_event(struct sim *s, struct cpu *c);
/* Allocate the inboxes (when any port steers).  0 or -1. */
int rps_init(struct sim *s);
void rps_free(struct sim *s);
/* Frames in all inboxes (the accounting check). */
uint64_t rps_in_flight(const struct sim *s);

#endif
