/* sender.c - paced sendmmsg() with the rxlab payload header (see sender.h).
 *
 * Roadmap: the schedule (intended time of packet k per pattern), the send
 * step (one sendmmsg and its accounting), the loop, the thread wrapper.
 */
#define _GNU_SOURCE
#include "live/sender.h"

#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>

#include "live/payload.h"
#include "rxlab/rng.h"

#define MAX_BATCH 256
#define MAX_PAYLOAD 1472	/* 1500-byte MTU - IPv4 - UDP */
#define SLEEP_ABOVE_NS 100000	/* sleep for gaps longer than this, spin below */
#define NO_MORE INT64_MAX

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void sender_config_default(struct sender_config *c)
{
	memset(c, 0, sizeof(*c));
	c->pattern = SEND_CONSTANT;
	c->rate_pps = 10000;
	c->payload_bytes = 32;
	c->batch = 32;
	c->seed = 1;
	c->duration_ns = 1000000000;
	c->cpu = -1;
}

int sender_config_check(const struct sender_config *c, char *err, size_t errlen)
{
	bool paced = c->pattern == SEND_CONSTANT || c->pattern == SEND_POISSON ||
		     c->pattern == SEND_ONOFF;

	if (paced && !(c->rate_pps > 0 && c->rate_pps <= 100e6))
		snprintf(err, errlen, "sender rate %.0f pps out of range (accepted: 1 pps..100 Mpps)",
			 c->rate_pps);
	else if (c->pattern == SEND_ONOFF && (c->on_ns <= 0 || c->off_ns < 0))
		snprintf(err, errlen, "on/off sender needs on > 0 and off >= 0");
	else if (c->pattern == SEND_TIMELINE && (!c->times_ns || c->n_times == 0))
		snprintf(err, errlen, "timeline sender needs at least one send time");
	else if (c->payload_bytes < RXL_PAYLOAD_BYTES || c->payload_bytes > MAX_PAYLOAD)
		snprintf(err, errlen, "payload %u bytes out of range (accepted: %u..%u)",
			 c->payload_bytes, RXL_PAYLOAD_BYTES, MAX_PAYLOAD);
	else if (c->batch < 1 || c->batch > MAX_BATCH)
		snprintf(err, errlen, "sender batch %u out of range (accepted: 1..%d)", c->batch,
			 MAX_BATCH);
	else if (c->duration_ns <= 0)
		snprintf(err, errlen, "sender duration must be > 0");
	else
		return 0;
	return -1;
}

/* ---- schedule ----------------------------------------------------------- */

struct schedule {
	const struct sender_config *c;
	struct rng rng;
	int64_t poisson_t;	/* time of the next Poisson packet */
	uint64_t per_on;	/* ONOFF: packets per on period */
};

static void schedule_init(struct schedule *s, const struct sender_config *c)
{
	memset(s, 0, sizeof(*s));
	s->c = c;
	rng_seed(&s->rng, c->seed, 0x73656e64 /* "send" */);
	if (c->pattern == SEND_ONOFF) {
		s->per_on = (uint64_t)((double)c->on_ns * c->rate_pps / 1e9);
		if (s->per_on == 0)
			s->per_on = 1;
	}
}

/* Intended time of packet @k (ns after the start); packets are asked for
 * in order, k = 0, 1, 2 ...  NO_MORE when the pattern has ended. */
static int64_t schedule_at(struct schedule *s, uint64_t k)
{
	const struct sender_config *c = s->c;
	double gap = c->rate_pps > 0 ? 1e9 / c->rate_pps : 0;

	switch (c->pattern) {
	case SEND_CONSTANT:
		return (int64_t)((double)k * gap);
	case SEND_POISSON:
		return s->poisson_t;
	case SEND_ONOFF:
		return (int64_t)(k / s->per_on) * (c->on_ns + c->off_ns) +
		       (int64_t)((double)(k % s->per_on) * gap);
	case SEND_TIMELINE:
		return k < c->n_times ? c->times_ns[k] : NO_MORE;
	case SEND_MAX:
		return 0;
	}
	return NO_MORE;
}

/* Packet @k was used: advance streams that depend on history. */
static void schedule_next(struct schedule *s)
{
	if (s->c->pattern == SEND_POISSON)
		s->poisson_t += rng_exp_ns(&s->rng, 1e9 / s->c->rate_pps);
}

/* ---- one sendmmsg ------------------------------------------------------- */

struct batch {
	struct mmsghdr msg[MAX_BATCH];
	struct iovec iov[MAX_BATCH];
	uint8_t buf[MAX_BATCH][MAX_PAYLOAD];
};

static void batch_fill(struct batch *b, const struct sender_config *c, uint64_t seq, unsigned n)
{
	struct rxl_payload p = { .send_ns = (uint64_t)mono_ns() };

	for (unsigned i = 0; i < n; i++) {
		uint32_t len = c->lens ? c->lens[seq + i] : c->payload_bytes;

		if (len < RXL_PAYLOAD_BYTES)
			len = RXL_PAYLOAD_BYTES;
		if (len > MAX_PAYLOAD)
			len = MAX_PAYLOAD;
		p.seq = seq + i;
		rxl_payload_write(b->buf[i], &p);
		b->iov[i].iov_base = b->buf[i];
		b->iov[i].iov_len = len;
		memset(&b->msg[i], 0, sizeof(b->msg[i]));
		b->msg[i].msg_hdr.msg_iov = &b->iov[i];
		b->msg[i].msg_hdr.msg_iovlen = 1;
	}
}

/* Send packets [seq, seq+n); returns how many sequence numbers were used
 * (sent or counted as refused), or a negative errno for an unusable socket. */
static int batch_send(int fd, struct batch *b, unsigned n, struct sender_stats *st)
{
	int r = sendmmsg(fd, b->msg, n, 0), e;
	socklen_t len = sizeof(e);

	st->calls++;
	if (r >= 0 && (unsigned)r == n) {
		st->sent += (unsigned)r;
		return r;
	}
	if (r > 0) {
		/* The message after the last sent one failed; its error was
		 * parked in sk_err (net/socket.c __sys_sendmmsg): take it. */
		st->sent += (unsigned)r;
		e = 0;
		getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &len);
		errno = e ? e : ENOBUFS;
	}
	if (errno == EBADF || errno == ENOTSOCK || errno == EDESTADDRREQ || errno == ENOTCONN)
		return -errno;
	if (errno == ENOBUFS)
		st->enobufs++;
	else
		st->errors++;
	st->last_errno = errno;
	return (r > 0 ? r : 0) + 1;
}

/* ---- the loop ----------------------------------------------------------- */

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Wait for @t_ns, at most 10 ms at a time so that a stop is seen. */
static void wait_until(int64_t t_ns)
{
	int64_t now = mono_ns();

	if (t_ns - now > 10000000)
		t_ns = now + 10000000;

	if (t_ns - now > SLEEP_ABOVE_NS) {
		struct timespec ts = { .tv_sec = t_ns / 1000000000, .tv_nsec = t_ns % 1000000000 };

		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		return;
	}
	while (mono_ns() < t_ns)
		__builtin_ia32_pause();
}

/* Take from the schedule the packets due by @now, so that k..k+*due-1 are
 * due, up to one batch.  Returns the time of the first packet not taken
 * (NO_MORE after the pattern's or the run's end). */
static int64_t take_due(struct schedule *s, uint64_t k, unsigned *due, unsigned batch,
			int64_t start, int64_t end, int64_t now)
{
	int64_t t = NO_MORE;

	while (*due < batch) {
		t = schedule_at(s, k + *due);
		if (t == NO_MORE || start + t >= end)
			return NO_MORE;
		if (start + t > now)
			return start + t;
		schedule_next(s);
		(*due)++;
	}
	return t;
}

/* The socket of the @call-th sendmmsg(): the flows in turn. */
static int flow_fd(int fd, const struct sender_config *c, uint64_t call)
{
	size_t i = c->more_fds ? (size_t)(call % (c->n_more_fds + 1)) : 0;

	return i == 0 ? fd : c->more_fds[i - 1];
}

static int sender_loop(int fd, const struct sender_config *c, const atomic_bool *stop,
		       struct sender_stats *st, struct batch *b)
{
	struct schedule s;
	int64_t start = mono_ns(), end = start + c->duration_ns;
	uint64_t k = 0, calls = 0;
	unsigned due = 0;	/* packets k.. taken from the schedule, not yet sent */

	schedule_init(&s, c);
	st->start_ns = start;
	while (!(stop && atomic_load_explicit(stop, memory_order_relaxed))) {
		int64_t now = mono_ns(), next;
		int used;

		if (now >= end)
			break;	/* SEND_MAX is always due: the clock ends it */
		next = take_due(&s, k, &due, c->batch, start, end, now);

		if (due == 0) {
			if (next == NO_MORE)
				break;
			wait_until(next);
			continue;
		}
		batch_fill(b, c, k, due);
		used = batch_send(flow_fd(fd, c, calls++), b, due, st);
		if (used < 0)
			return used;
		st->end_ns = mono_ns();
		k += (unsigned)used;
		due -= (unsigned)used;	/* an unsent tail stays due */
	}
	st->seq_next = k;
	return 0;
}

int sender_run(int fd, const struct sender_config *c, const atomic_bool *stop,
	       struct sender_stats *st)
{
	struct batch *b = malloc(sizeof(*b));
	int one = 1, rc;

	memset(st, 0, sizeof(*st));
	if (!b)
		return -ENOMEM;
	pin(c->cpu);
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	setsockopt(fd, IPPROTO_IP, IP_RECVERR, &one, sizeof(one));
	for (size_t i = 0; c->more_fds && i < c->n_more_fds; i++)
		setsockopt(c->more_fds[i], IPPROTO_IP, IP_RECVERR, &one, sizeof(one));
	rc = sender_loop(fd, c, stop, st, b);
	free(b);
	return rc;
}

/* ---- thread wrapper ----------------------------------------------------- */

struct sender {
	pthread_t thread;
	int fd, rc;
	struct sender_config c;
	atomic_bool stop, done;
	struct sender_stats st;
};

static void *sender_thread(void *arg)
{
	struct sender *s = arg;

	s->rc = sender_run(s->fd, &s->c, &s->stop, &s->st);
	atomic_store(&s->done, true);
	return NULL;
}

struct sender *sender_start(int fd, const struct sender_config *c, char *err, size_t errlen)
{
	struct sender *s;

	if (sender_config_check(c, err, errlen))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->fd = fd;
	s->c = *c;
	atomic_init(&s->stop, false);
	atomic_init(&s->done, false);
	if (pthread_create(&s->thread, NULL, sender_thread, s) != 0) {
		snprintf(err, errlen, "cannot start the sender thread");
		free(s);
		return NULL;
	}
	return s;
}

void sender_stop(struct sender *s)
{
	atomic_store(&s->stop, true);
}

bool sender_done(const struct sender *s)
{
	return atomic_load(&((struct sender *)s)->done);
}

int sender_join(struct sender *s, struct sender_stats *st)
{
	int rc;

	pthread_join(s->thread, NULL);
	*st = s->st;
	rc = s->rc;
	free(s);
	return rc;
}
