/* sender.h - rxlab's paced UDP sender.
 *
 * Sends on a connected UDP socket with sendmmsg(), each payload starting
 * with the rxlab payload header (payload.h: sequence number from 0 and the
 * CLOCK_MONOTONIC time of the send call), so the receiver counts loss and
 * one-way latency exactly.
 *
 * Pacing: packet k has an intended send time t_k (ns after the start) set
 * by the pattern; the sender sends every packet whose t_k has passed, up to
 * `batch` per sendmmsg() call, then sleeps (gaps above 100 us, with 1 ns
 * timer slack) or spins (shorter gaps) until the next t_k.  A sender that
 * falls behind catches up in full batches, so the long-run rate is exact
 * and bursts stay bounded by `batch`.
 *
 * Several flows (more_fds): the batches go out on the sockets in turn, one
 * sequence of numbers across them, so a receiver of one flow sees gaps
 * that are the other flows' packets (lost counts come from totals).
 *
 * Losses at the sender are counted, not hidden: the socket gets IP_RECVERR,
 * so a packet the device refuses (veth ring full: NET_XMIT_DROP) comes back
 * as ENOBUFS and counts in `enobufs`; its sequence number is skipped, so the
 * receiver sees it as lost too.
 */
#ifndef RXLAB_LIVE_SENDER_H
#define RXLAB_LIVE_SENDER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum send_pattern {
	SEND_CONSTANT,	/* every 1e9/rate_pps ns (pktgen-like) */
	SEND_POISSON,	/* exponential gaps of mean 1e9/rate_pps ns, seeded */
	SEND_ONOFF,	/* rate_pps during on_ns, nothing during off_ns, repeated */
	SEND_TIMELINE,	/* at times_ns[k] (sorted, from 0), then stop */
	SEND_MAX,	/* as fast as sendmmsg() goes: no pacing */
};

struct sender_config {
	enum send_pattern pattern;
	double rate_pps;		/* CONSTANT, POISSON, ONOFF: > 0 */
	int64_t on_ns, off_ns;		/* ONOFF: > 0 and >= 0 */
	const int64_t *times_ns;	/* TIMELINE: send times */
	const uint32_t *lens;		/* TIMELINE: payload bytes per packet, or NULL */
	size_t n_times;
	uint32_t payload_bytes;		/* UDP payload, RXL_PAYLOAD_BYTES..1472 (default 32) */
	uint32_t batch;			/* messages per sendmmsg, 1..256 (default 32) */
	uint64_t seed;			/* POISSON */
	int64_t duration_ns;		/* stop after this long; > 0 */
	int cpu;			/* pin the sending thread, -1 = no */
	const int *more_fds;		/* further connected sockets (other source ports,
					 * other flows), or NULL: each sendmmsg() goes out on
					 * the next of fd, more_fds[0], ... in turn */
	size_t n_more_fds;
};

/* Counters, final once sender_run() has returned. */
struct sender_stats {
	uint64_t sent;		/* accepted by the kernel */
	uint64_t enobufs;	/* refused with ENOBUFS (device queue / veth ring full) */
	uint64_t errors;	/* refused with another error */
	uint64_t calls;		/* sendmmsg() calls */
	uint64_t seq_next;	/* sequence numbers used: sent + enobufs + errors */
	int64_t start_ns, end_ns;	/* CLOCK_MONOTONIC of the first and last send */
	int last_errno;		/* of the last refused packet */
};

/* Fill @c with the defaults above: CONSTANT at 10 kpps for 1 s. */
void sender_config_default(struct sender_config *c);

/* Check @c; 0, or -1 with a message naming the field and range. */
int sender_config_check(const struct sender_config *c, char *err, size_t errlen);

/* Send on connected UDP socket @fd until the pattern ends, duration_ns has
 * passed or *@stop becomes true.  Runs in the calling thread (pinned to
 * c->cpu if >= 0).  0, or a negative errno when the socket cannot be used
 * at all (counted failures are not errors). */
int sender_run(int fd, const struct sender_config *c, const atomic_bool *stop,
	       struct sender_stats *st);

/* The same in a new thread: sender_start() returns a handle (NULL with a
 * message), sender_join() waits for the end and frees it.  The arrays
 * @c points to (times_ns, lens) must stay valid until sender_join(). */
struct sender;
struct sender *sender_start(int fd, const struct sender_config *c, char *err, size_t errlen);
void sender_stop(struct sender *s);
/* Has the thread finished (sender_join() will not wait)? */
bool sender_done(const struct sender *s);
int sender_join(struct sender *s, struct sender_stats *st);

#endif
