/* loop.c - the live receive loop: open/run/stop/close, the primitives the
 * modes are built from (poll, deliver, wait, sleep, pause) and the
 * statistics they keep (see loop_impl.h and include/rxlab/live.h).
 *
 * Waits use epoll_pwait2() for nanosecond timeouts.  rxl_stop() sets a flag
 * and writes an eventfd that is in both epoll sets, so every sleep ends at
 * once; spinning modes test the flag on every poll. */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "live/loop_impl.h"
#include "live/payload.h"

#define CPU_REFRESH_NS 10000000 /* 10 ms */
#define CPU_REFRESH_POLLS 1024    /* polls between clock checks for a refresh */
#define PUBLISH_NS 1000000        /* 1 ms: publication while the loop is busy */

int64_t rxl_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int errmsg(char *err, size_t errlen, int e, const char *what)
{
	snprintf(err, errlen, "%s: %s", what, strerror(e));
	return -e;
}

/* The sources write messages with snprintf(err, errlen, ...): a caller that
 * passes no buffer gets a one-byte spare one, so nothing below checks. */
#define ERR_BUF(err, errlen, spare)              \
	do {                                     \
		if (!(err) || !(errlen)) {       \
			(err) = (spare);         \
			(errlen) = sizeof(spare);\
		}                                \
	} while (0)

/* ---- statistics ---- */

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

static void rusage_now(uint64_t out[4])
{
	struct rusage ru;
	if (getrusage(RUSAGE_THREAD, &ru) != 0) {
		memset(out, 0, 4 * sizeof(out[0]));
		return;
	}
	out[0] = tv_ns(ru.ru_utime);
	out[1] = tv_ns(ru.ru_stime);
	out[2] = (uint64_t)ru.ru_nvcsw;
	out[3] = (uint64_t)ru.ru_nivcsw;
}

/* Loop thread only: CPU figures = base + this thread's usage since the
 * run started; the source's drop counter. */
static void cpu_refresh(struct rxl_loop *l, int64_t now)
{
	uint64_t ru[4];
	rusage_now(ru);
	l->st.cpu_user_ns = l->st_base[0] + (ru[0] - l->ru_base[0]);
	l->st.cpu_sys_ns = l->st_base[1] + (ru[1] - l->ru_base[1]);
	l->st.vol_ctxsw = l->st_base[2] + (ru[2] - l->ru_base[2]);
	l->st.invol_ctxsw = l->st_base[3] + (ru[3] - l->ru_base[3]);
	if (l->src->ops->drops)
		l->st.source_drops = l->src->ops->drops(l->src);
	l->cpu_last_ns = now;
}

/* ---- publication ----
 *
 * The loop thread updates its own struct rxl_stats (l->st) with plain
 * stores: a poll costs no lock and no atomic read-modify-write.  Other
 * threads read a published copy (l->pub), written by the loop thread only
 * as a seqlock (Boehm, "Can seqlocks get along with programming language
 * memory models?", MSPC 2012): pub_seq goes odd, every word that changed
 * is stored, pub_seq goes even; a reader that saw the same even pub_seq
 * before and after its copy has one consistent state, else it retries.
 * Every word of pub is a C11 atomic accessed relaxed, ordered by the
 * fences, so there is no data race (ThreadSanitizer agrees).
 *
 * Turned down: the mutex on every counter update (an atomic RMW per poll,
 * a futex when a reader holds it through its 120 KB copy); per-field
 * relaxed atomics on the live counters (no snapshot: payload_packets could
 * be read newer than packets, a histogram's n newer than its buckets);
 * a seqlock around every update of the live counters (a busy loop bumps
 * it every poll, about every microsecond, while a reader copies 120 KB:
 * the reader could starve).
 *
 * Publication copies the scalars and the histograms' headers (about 40
 * words) and only the buckets changed since the last one (struct
 * rxl_dirty), so it is cheap enough to do before every wait; a reader
 * copies only the buckets between a histogram's min and max, so its
 * window is short. */

#define WORD(field) (offsetof(struct rxl_stats, field) / sizeof(uint64_t))
#define N_WORDS (sizeof(struct rxl_stats) / sizeof(uint64_t))

/* The layout rxl_stats_publish() and rxl_stats_get() rely on: whole words, and the
 * two histograms last, each a header followed by its buckets. */
_Static_assert(sizeof(struct rxl_stats) % sizeof(uint64_t) == 0, "stats are whole words");
_Static_assert(offsetof(struct rxl_stats, latency) % sizeof(uint64_t) == 0, "aligned");
_Static_assert(WORD(batch) == WORD(latency.count) + HIST_BUCKETS, "batch follows latency");
_Static_assert(N_WORDS == WORD(batch.count) + HIST_BUCKETS, "batch is last");

static uint64_t st_word(const struct rxl_stats *st, size_t i)
{
	uint64_t w;
	memcpy(&w, (const char *)st + i * sizeof(w), sizeof(w));
	return w;
}

static void dirty_clear(struct rxl_dirty *d)
{
	d->lo = (uint32_t)(sizeof(d->bits) / sizeof(d->bits[0]));
	d->hi = 0;
}

/* hist_add() into the loop thread's copy, remembering the bucket. */
static void hist_add_dirty(struct hist *h, struct rxl_dirty *d, int64_t v)
{
	uint32_t b = hist_bucket(v), w = b / 64;
	hist_add(h, v);
	d->bits[w] |= 1ull << (b % 64);
	if (w < d->lo)
		d->lo = w;
	if (w > d->hi)
		d->hi = w;
}

static void pub_words(struct rxl_loop *l, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		atomic_store_explicit(&l->pub[i], st_word(&l->st, i), memory_order_relaxed);
}

/* The changed buckets of the histogram whose count[0] is word @base. */
static void pub_dirty(struct rxl_loop *l, struct rxl_dirty *d, size_t base)
{
	for (uint32_t w = d->lo; w <= d->hi; w++) {
		while (d->bits[w]) {
			size_t b = (size_t)w * 64 + (size_t)__builtin_ctzll(d->bits[w]);
			d->bits[w] &= d->bits[w] - 1;
			pub_words(l, base + b, base + b + 1);
		}
	}
	dirty_clear(d);
}

void rxl_stats_publish(struct rxl_loop *l)
{
	uint64_t seq = atomic_load_explicit(&l->pub_seq, memory_order_relaxed);
	atomic_store_explicit(&l->pub_seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	pub_words(l, 0, WORD(latency.count));
	pub_dirty(l, &l->dirty_latency, WORD(latency.count));
	pub_words(l, WORD(batch), WORD(batch.count));
	pub_dirty(l, &l->dirty_batch, WORD(batch.count));
	atomic_store_explicit(&l->pub_seq, seq + 2, memory_order_release);
}

/* Before any thread can read: every word, once. */
static void publish_init(struct rxl_loop *l)
{
	atomic_init(&l->pub_seq, 0);
	for (size_t i = 0; i < N_WORDS; i++)
		atomic_init(&l->pub[i], st_word(&l->st, i));
	dirty_clear(&l->dirty_latency);
	dirty_clear(&l->dirty_batch);
}

/* The loop's periodic work while it runs: the CPU figures every 10 ms, a
 * publication every millisecond. */
static void maybe_refresh(struct rxl_loop *l, int64_t now)
{
	if (now - l->cpu_last_ns >= CPU_REFRESH_NS)
		cpu_refresh(l, now);
	if (now - l->pub_last_ns >= PUBLISH_NS) {
		rxl_stats_publish(l);
		l->pub_last_ns = now;
	}
}

/* Sequence accounting of one payload (see struct rxl_stats). */
static void account_seq(struct rxl_stats *st, uint64_t seq)
{
	if (seq >= st->seq_next) {
		st->seq_lost += seq - st->seq_next;
		st->seq_next = seq + 1;
	} else {
		st->seq_reordered++;
		if (st->seq_lost > 0)
			st->seq_lost--;
	}
}

/* Count a delivery of @n packets at @now (CLOCK_MONOTONIC ns): latency is
 * the time the callback gets a packet, so a mode that holds packets
 * (coalesce's frame count and timer, itr's gap) shows what holding costs. */
static void account(struct rxl_loop *l, const struct rxl_pkt *p, size_t n, int64_t now)
{
	struct rxl_stats *st = &l->st;
	st->deliveries++;
	st->packets += n;
	hist_add_dirty(&st->batch, &l->dirty_batch, (int64_t)n);
	for (size_t i = 0; i < n; i++) {
		struct rxl_payload pl;
		const uint8_t *data = p[i].data;
		size_t len = p[i].len;
		st->bytes += p[i].len;
		if (l->src->frames && !rxl_frame_udp_payload(p[i].data, p[i].len, &data, &len))
			continue;
		if (!rxl_payload_read(data, len, &pl))
			continue;
		st->payload_packets++;
		account_seq(st, pl.seq);
		hist_add_dirty(&st->latency, &l->dirty_latency, now - (int64_t)pl.send_ns);
	}
}

/* The loop whose rxl_run() this thread is in (its callback may read the
 * statistics), or NULL. */
static _Thread_local const struct rxl_loop *loop_of_thread;

static void get_words(struct rxl_loop *l, struct rxl_stats *out, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		uint64_t w = atomic_load_explicit(&l->pub[i], memory_order_relaxed);
		memcpy((char *)out + i * sizeof(w), &w, sizeof(w));
	}
}

/* Buckets that can be non-zero, [*lo, *hi), from the header just read
 * (perhaps torn: then only the retry's bounds matter). */
static void hist_span(const struct hist *h, uint32_t *lo, uint32_t *hi)
{
	*lo = *hi = 0;
	if (h->n > 0 && h->min <= h->max) {
		*lo = hist_bucket(h->min);
		*hi = hist_bucket(h->max) + 1;
	}
}

/* One copy of pub; the bucket spans it copied in @span. */
static void get_once(struct rxl_loop *l, struct rxl_stats *out, uint32_t span[4])
{
	get_words(l, out, 0, WORD(latency.count));
	get_words(l, out, WORD(batch), WORD(batch.count));
	hist_span(&out->latency, &span[0], &span[1]);
	hist_span(&out->batch, &span[2], &span[3]);
	get_words(l, out, WORD(latency.count) + span[0], WORD(latency.count) + span[1]);
	get_words(l, out, WORD(batch.count) + span[2], WORD(batch.count) + span[3]);
}

static void zero_outside(struct hist *h, uint32_t lo, uint32_t hi)
{
	memset(h->count, 0, lo * sizeof(h->count[0]));
	memset(h->count + hi, 0, (HIST_BUCKETS - hi) * sizeof(h->count[0]));
}

void rxl_stats_get(const struct rxl_loop *l, struct rxl_stats *out)
{
	struct rxl_loop *m = (struct rxl_loop *)l; /* atomic loads take non-const */
	uint32_t span[4];
	uint64_t seq;
	assert(l && out);
	if (loop_of_thread == l) {
		*out = l->st; /* the loop's own thread: its copy is the newest */
		return;
	}
	for (unsigned tries = 0;; tries++) {
		seq = atomic_load_explicit(&m->pub_seq, memory_order_acquire);
		if (!(seq & 1)) {
			get_once(m, out, span);
			atomic_thread_fence(memory_order_acquire);
			if (atomic_load_explicit(&m->pub_seq, memory_order_relaxed) == seq)
				break;
		}
		if (tries >= 16)
			sched_yield(); /* the loop thread may be off the CPU mid-publication */
	}
	zero_outside(&out->latency, span[0], span[1]);
	zero_outside(&out->batch, span[2], span[3]);
}

/* Counter updates of the loop thread that need no histogram. */
#define STAT_ADD(l, field, v) ((l)->st.field += (v))

uint32_t rxl_source_slots(const struct rxl_config *c)
{
	uint32_t n = c->budget;
	if (c->rx_frames > n)
		n = c->rx_frames;
	if (c->each_burst > n)
		n = c->each_burst;
	return n;
}

/* A receive error that will not go away (a closed or wrong descriptor, a
 * bad buffer) ends the run; others (ECONNREFUSED from an ICMP error on a
 * connected socket, ENOBUFS, ...) are counted and the loop goes on. */
static bool poll_error_is_fatal(int e)
{
	return e == EBADF || e == ENOTSOCK || e == EFAULT || e == EINVAL || e == ENOMEM;
}

/* ---- primitives ---- */

bool rxl_done(struct rxl_loop *l)
{
	if (atomic_load_explicit(&l->stop, memory_order_relaxed) || l->err)
		return true;
	return l->deadline_ns != INT64_MAX && rxl_now() >= l->deadline_ns;
}

uint32_t rxl_poll_stage(struct rxl_loop *l, uint32_t max)
{
	uint32_t room = l->src->slots - l->staged;
	if (max > room)
		max = room;
	if (max == 0)
		return 0;
	int n = l->src->ops->poll(l->src, l->pkts + l->staged, max);
	l->st.polls++;
	if (n < 0) {
		l->st.errors++;
		if (poll_error_is_fatal(-n))
			l->err = n;
		n = 0;
	}
	if (n == 0)
		l->st.empty_polls++;
	else if ((uint32_t)n == max)
		l->st.full_polls++;
	l->staged += (uint32_t)n;
	/* Spinning modes may never sleep or deliver: refresh from here too. */
	if (++l->polls_since_refresh >= CPU_REFRESH_POLLS) {
		l->polls_since_refresh = 0;
		maybe_refresh(l, rxl_now());
	}
	return (uint32_t)n;
}

void rxl_deliver(struct rxl_loop *l)
{
	if (l->staged == 0)
		return;
	account(l, l->pkts, l->staged, rxl_now());
	l->fn(l->arg, l->pkts, l->staged);
	l->staged = 0;
	l->src->ops->release(l->src);
	maybe_refresh(l, l->pkts[0].rx_ns);
}

uint32_t rxl_poll(struct rxl_loop *l, uint32_t max)
{
	uint32_t n = rxl_poll_stage(l, max);
	rxl_deliver(l);
	return n;
}

/* Time left until the deadline, capped by @timeout_ns (-1 = none). */
static int64_t wait_limit(struct rxl_loop *l, int64_t timeout_ns, int64_t now)
{
	if (l->deadline_ns == INT64_MAX)
		return timeout_ns;
	int64_t left = l->deadline_ns - now;
	if (left < 0)
		left = 0;
	return timeout_ns < 0 || left < timeout_ns ? left : timeout_ns;
}

/* One epoll_pwait2() on @epfd; returns what ended it. */
static enum rxl_wake wait_on(struct rxl_loop *l, int epfd, int64_t timeout_ns, bool timer)
{
	int64_t t0 = rxl_now();
	int64_t lim = wait_limit(l, timeout_ns, t0);
	struct timespec ts = { .tv_sec = lim / 1000000000, .tv_nsec = lim % 1000000000 };
	struct epoll_event ev[2];
	rxl_stats_publish(l); /* readers see everything while the loop sleeps */
	l->pub_last_ns = t0;
	int n = epoll_pwait2(epfd, ev, 2, lim < 0 ? NULL : &ts, NULL);
	int64_t t1 = rxl_now();
	if (n < 0 && errno != EINTR)
		l->err = -errno;
	bool ready = false, stop = false;
	for (int i = 0; i < n; i++) {
		if (ev[i].data.fd == l->stopfd)
			stop = true;
		else
			ready = true;
	}
	l->st.sleeps++;
	l->st.sleep_ns += (uint64_t)(t1 - t0);
	if (ready && !timer)
		l->st.wakeups++;
	else if (!stop)
		l->st.timer_wakeups++;
	maybe_refresh(l, t1);
	if (stop || rxl_done(l))
		return RXL_WAKE_STOP;
	return ready ? RXL_WAKE_READY : RXL_WAKE_TIMEOUT;
}

enum rxl_wake rxl_wait_ready(struct rxl_loop *l, int64_t timeout_ns)
{
	return wait_on(l, l->epfd, timeout_ns, false);
}

enum rxl_wake rxl_sleep_until(struct rxl_loop *l, int64_t t_ns)
{
	int64_t d = t_ns - rxl_now();
	return wait_on(l, l->timer_epfd, d > 0 ? d : 0, true);
}

void rxl_pause(struct rxl_loop *l, int64_t ns)
{
	int64_t end = rxl_now() + ns;
	while (rxl_now() < end)
		;
	STAT_ADD(l, pauses, 1);
}

void rxl_count_switch(struct rxl_loop *l)
{
	STAT_ADD(l, mode_switches, 1);
}

void rxl_count_moderation(struct rxl_loop *l)
{
	STAT_ADD(l, moderation_changes, 1);
}

/* ---- open / run / stop / close ---- */

static int epoll_add(int epfd, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };
	return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

static int loop_fds(struct rxl_loop *l, char *err, size_t errlen)
{
	l->stopfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	l->epfd = epoll_create1(EPOLL_CLOEXEC);
	l->timer_epfd = epoll_create1(EPOLL_CLOEXEC);
	if (l->stopfd < 0 || l->epfd < 0 || l->timer_epfd < 0)
		return errmsg(err, errlen, errno, "eventfd/epoll_create1");
	if (epoll_add(l->epfd, l->stopfd) || epoll_add(l->timer_epfd, l->stopfd) ||
	    epoll_add(l->epfd, l->src->fd))
		return errmsg(err, errlen, errno, "epoll_ctl");
	return 0;
}

static struct rxl_loop *loop_new(const struct rxl_config *c, rxl_batch_fn fn, void *arg,
				 char *err, size_t errlen)
{
	assert(c && fn);
	if (rxl_config_check(c, err, errlen) != 0)
		return NULL;
	struct rxl_loop *l = calloc(1, sizeof(*l));
	if (!l) {
		errmsg(err, errlen, ENOMEM, "rxl_open");
		return NULL;
	}
	l->cfg = *c;
	l->fn = fn;
	l->arg = arg;
	l->stopfd = l->epfd = l->timer_epfd = l->sockfd = -1;
	hist_reset(&l->st.latency);
	hist_reset(&l->st.batch);
	publish_init(l);
	return l;
}

/* Second half of every rxl_open_*(): the source is there. */
static struct rxl_loop *loop_finish(struct rxl_loop *l, struct rxl_source *s, char *err,
				    size_t errlen)
{
	if (!s)
		goto fail;
	l->src = s;
	l->pkts = calloc(s->slots, sizeof(*l->pkts));
	if (!l->pkts) {
		errmsg(err, errlen, ENOMEM, "rxl_open");
		goto fail;
	}
	if (loop_fds(l, err, errlen) != 0)
		goto fail;
	return l;
fail:
	rxl_close(l);
	return NULL;
}

struct rxl_loop *rxl_open_udp(int fd, const struct rxl_config *c, rxl_batch_fn fn, void *arg,
			      char *err, size_t errlen)
{
	char spare[1];
	ERR_BUF(err, errlen, spare);
	if (c->mode == RXL_MODE_TPACKET || c->mode == RXL_MODE_AF_XDP) {
		snprintf(err, errlen, "mode %s needs its own source (rxl_open_%s)",
			 rxl_mode_name(c->mode), c->mode == RXL_MODE_TPACKET ? "tpacket" : "xdp");
		return NULL;
	}
	struct rxl_loop *l = loop_new(c, fn, arg, err, errlen);
	if (!l)
		return NULL;
	l = loop_finish(l, rxl_source_udp(fd, c, err, errlen), err, errlen);
	if (l && rxl_kernel_setup(l, fd, err, errlen) != 0) {
		rxl_close(l);
		return NULL;
	}
	return l;
}

struct rxl_loop *rxl_open_tpacket(int ifindex, const struct rxl_config *c, rxl_batch_fn fn,
				  void *arg, char *err, size_t errlen)
{
	char spare[1];
	ERR_BUF(err, errlen, spare);
	if (c->mode != RXL_MODE_TPACKET && !rxl_mode_is_userspace(c->mode)) {
		snprintf(err, errlen, "mode %s cannot run on a TPACKET_V3 ring (accepted: tpacket or a userspace mode)",
			 rxl_mode_name(c->mode));
		return NULL;
	}
	struct rxl_loop *l = loop_new(c, fn, arg, err, errlen);
	if (!l)
		return NULL;
	return loop_finish(l, rxl_source_tpacket(ifindex, c, err, errlen), err, errlen);
}

struct rxl_loop *rxl_open_xdp(const char *ifname, uint32_t queue, const struct rxl_config *c,
			      rxl_batch_fn fn, void *arg, char *err, size_t errlen)
{
	char spare[1];
	ERR_BUF(err, errlen, spare);
	if (c->mode != RXL_MODE_AF_XDP && !rxl_mode_is_userspace(c->mode)) {
		snprintf(err, errlen, "mode %s cannot run on an AF_XDP socket (accepted: af-xdp or a userspace mode)",
			 rxl_mode_name(c->mode));
		return NULL;
	}
	if (rxl_ifname_check(ifname, err, errlen))
		return NULL;
	struct rxl_loop *l = loop_new(c, fn, arg, err, errlen);
	if (!l)
		return NULL;
	return loop_finish(l, rxl_source_xdp(ifname, queue, c, err, errlen), err, errlen);
}

static int run_mode(struct rxl_loop *l)
{
	switch (l->cfg.mode) {
	case RXL_MODE_INTERRUPT: return rxl_mode_interrupt(l);
	case RXL_MODE_COALESCE:
	case RXL_MODE_DIM:
	case RXL_MODE_ITR: return rxl_mode_coalesce(l);
	case RXL_MODE_NAPI: return rxl_mode_napi(l);
	case RXL_MODE_BSD_POLL: return rxl_mode_bsd_poll(l);
	case RXL_MODE_BUSY: return rxl_mode_busy(l);
	case RXL_MODE_HYBRID: return rxl_mode_hybrid(l);
	case RXL_MODE_DPDK_POWER: return rxl_mode_dpdk_power(l);
	case RXL_MODE_IXY: return rxl_mode_ixy(l);
	case RXL_MODE_SEASTAR: return rxl_mode_seastar(l);
	case RXL_MODE_SO_BUSY_POLL: return rxl_mode_blocking(l);
	case RXL_MODE_EPOLL:
	case RXL_MODE_PREFER_BUSY:
	case RXL_MODE_IRQ_SUSPEND:
	case RXL_MODE_THREADED:
	case RXL_MODE_TPACKET:
	case RXL_MODE_AF_XDP: return rxl_mode_epoll(l);
	case RXL_MODE_COUNT: break;
	}
	return -EINVAL;
}

/* Consume a stop request: the flag and the eventfd. */
static bool take_stop(struct rxl_loop *l)
{
	uint64_t v;
	bool stop = atomic_exchange(&l->stop, 0) != 0;
	while (read(l->stopfd, &v, sizeof v) == (ssize_t)sizeof v)
		;
	return stop;
}

static int run_once(struct rxl_loop *l, uint64_t duration_ns);

int rxl_run(struct rxl_loop *l, uint64_t duration_ns)
{
	assert(l);
	int was_running = atomic_exchange(&l->running, 1);
	assert(!was_running && "rxl_run() called while the loop runs");
	(void)was_running;
	const struct rxl_loop *outer = loop_of_thread;
	loop_of_thread = l;
	int rc = run_once(l, duration_ns);
	loop_of_thread = outer;
	atomic_store(&l->running, 0);
	return rc;
}

static int run_once(struct rxl_loop *l, uint64_t duration_ns)
{
	if (take_stop(l))
		return 0;
	int64_t t0 = rxl_now();
	l->deadline_ns = duration_ns ? t0 + (int64_t)duration_ns : INT64_MAX;
	l->err = 0;
	rusage_now(l->ru_base);
	l->st_base[0] = l->st.cpu_user_ns;
	l->st_base[1] = l->st.cpu_sys_ns;
	l->st_base[2] = l->st.vol_ctxsw;
	l->st_base[3] = l->st.invol_ctxsw;
	l->cpu_last_ns = l->pub_last_ns = t0;
	int rc = run_mode(l);
	rxl_deliver(l);
	int64_t t1 = rxl_now();
	cpu_refresh(l, t1);
	l->st.run_ns += (uint64_t)(t1 - t0);
	rxl_stats_publish(l);
	take_stop(l);
	if (rc == 0)
		rc = l->err;
	return rc;
}

void rxl_stop(struct rxl_loop *l)
{
	uint64_t one = 1;
	atomic_store(&l->stop, 1);
	ssize_t r = write(l->stopfd, &one, sizeof one);
	(void)r; /* EAGAIN: the counter is already non-zero */
}

const struct rxl_config *rxl_loop_config(const struct rxl_loop *l)
{
	return &l->cfg;
}

void rxl_close(struct rxl_loop *l)
{
	if (!l)
		return;
	rxl_kernel_restore(l);
	if (l->src)
		l->src->ops->close(l->src);
	if (l->stopfd >= 0)
		close(l->stopfd);
	if (l->epfd >= 0)
		close(l->epfd);
	if (l->timer_epfd >= 0)
		close(l->timer_epfd);
	free(l->pkts);
	free(l);
}
