/* ping.h - ping -f over loopback (ping.c). */
#ifndef RXLAB_SIM_APPS_PING_H
#define RXLAB_SIM_APPS_PING_H

#include <stdbool.h>
#include <stdint.h>

struct sim;

/* ping -f 127.0.0.1 (apps.ping): one echo outstanding at a time. */
struct ping {
	int16_t thread;       /* the ping thread, -1 = none */
	uint8_t step;         /* enum ping_step in ping.c: what follows the running chunk */
	bool waiting;         /* asleep in recvmsg() until the reply is queued */
	bool done;            /* ping-count replies received */
	uint32_t ready;       /* replies queued on its raw socket, not yet read */
	uint32_t queued;      /* its frames in a backlog (not NIC frames: accounting) */
	int64_t t_send;       /* gettimeofday() before the outstanding sendmsg() */
	int64_t t_reply;      /* the queued reply's timestamp (netif_rx, SO_TIMESTAMP) */
	uint16_t stamp_cpu;   /* the CPU whose softirq took it (ping_irq_preempt) */
	int64_t t_first, t_last; /* first send, last reply read: iputils' "time" */
	uint64_t sent, echoed, received, lost;
	int64_t rtt_min, rtt_max; /* ns */
	double rtt_sum, rtt_sum2; /* ns, ns^2 */
	int64_t ewma8;        /* iputils' rtt estimate, x8, ns */
};

/* Create the ping thread when apps.ping is on and register its loopback
 * protocol.  0. */
int ping_init(struct sim *s);

/* A hard IRQ of @dur_ns began on @c at @t0 (kernel.c, every handler).  If
 * the outstanding reply's timestamp lies ahead of @t0 in the softirq chunk
 * of @c that computed it (a chunk's frames get their times when it begins,
 * so they do not know what will preempt it), the IRQ delays it: t_reply
 * moves by @dur_ns.  do_gettimeofday() in netif_rx() (2.6.12
 * net/core/dev.c net_timestamp) reads the clock after the handler ran. */
void ping_irq_preempt(struct sim *s, const struct cpu *c, int64_t t0, int64_t dur_ns);

#endif
