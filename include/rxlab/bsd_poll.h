/* bsd_poll.h - FreeBSD DEVICE_POLLING, the per-tick burst controller
 * (pure; no OS, no clock).
 *
 * A re-implementation of sys/kern/kern_poll.c (FreeBSD, L. Rizzo 2001-2002;
 * checked against $FreeBSD: kern_poll.c,v 1.45.2.2.8.1 2012) and polling(4).
 * Drivers register a poll handler and turn their interrupts off; every
 * clock tick the kernel calls each handler with a packet budget ("count").
 * The budget of one tick, burst, adapts by additive increase/decrease:
 * +1 when the netisrs of the tick took at most (100 - user_frac)% of a tick,
 * -1 otherwise, and a cut of burst/8 when ticks were missed.  The burst is
 * handed out in chunks of each_burst so that other netisrs run in between.
 *
 * Calling convention, one clock tick (the kernel's three hooks):
 *
 *   if (bsd_poll_tick(&p, t_tick))          hardclock_device_poll()
 *       ...schedule the POLL netisr (idempotent if already scheduled)...
 *   when the netisr runs, at now:            netisr_poll()
 *       cmd = bsd_poll_begin(&p, now);
 *     again:
 *       n = bsd_poll_chunk(&p);
 *       ...every handler(cmd, n); then the other netisrs...
 *       switch (bsd_poll_more(&p, now)) {    netisr_pollmore()
 *       case BSD_POLL_NEXT_CHUNK: cmd = BSD_POLL_ONLY; goto again;
 *       case BSD_POLL_AGAIN: cmd = bsd_poll_begin(&p, now); goto again;
 *       case BSD_POLL_DONE: break;
 *       }
 *
 * A tick that arrives while the handlers run is fed to bsd_poll_tick() at
 * its own time: it returns false and counts a lost poll, and the next
 * bsd_poll_more() answers BSD_POLL_AGAIN.
 *
 * Left out: the handler list (POLL_LIST_LEN = 128, register/deregister;
 * the caller owns it, and calls bsd_poll_tick() only while at least one
 * handler is registered, as the kernel's early return does), the mutex,
 * shutdown, and the netisr_poll_scheduled / netisr_pollmore_scheduled flags,
 * which only make a spurious netisr run a no-op: here the caller runs
 * begin/chunk/more only when told to.
 *
 * Times are int64_t nanoseconds of one non-negative clock chosen by the
 * caller; the kernel reads microuptime(), so they are truncated to whole
 * microseconds before any difference is taken, as a timeval would be.
 */
#ifndef RXLAB_RXLAB_BSD_POLL_H
#define RXLAB_RXLAB_BSD_POLL_H

#include <stdbool.h>
#include <stdint.h>

/* kern_poll.c MIN_POLL_BURST_MAX / MAX_POLL_BURST_MAX: the range that the
 * kern.polling.burst_max sysctl accepts. */
#define BSD_POLL_MIN_BURST_MAX 10u
#define BSD_POLL_MAX_BURST_MAX 1000u
/* kern_poll.c: static poll_burst = 5, the burst before any adaptation. */
#define BSD_POLL_BURST_INIT 5u
/* kern_poll.c hardclock_device_poll(): more pending polls than this means
 * the netisr is assumed stalled and the count is reset. */
#define BSD_POLL_STALL_PENDING 100u
/* rxlab's bound on hz, not the kernel's (kern.hz is a boot tunable with no
 * checked range); it keeps hz * elapsed_us far from overflow. */
#define BSD_POLL_MAX_HZ 100000u

/* The kern.polling.* sysctls plus kern.hz.  Defaults are those of
 * kern_poll.c (burst_max 150 is "good for 100Mbit net and HZ=1000"). */
struct bsd_poll_config {
	uint32_t hz;           /* kern.hz: clock ticks per second, 1..BSD_POLL_MAX_HZ */
	uint32_t burst_max;    /* packets per handler per tick, cap of burst; 10..1000, default 150 */
	uint32_t each_burst;   /* packets per handler per chunk; 1..burst_max, default 5 */
	uint32_t user_frac;    /* percent of a tick reserved for userland; 0..99, default 50 */
	uint32_t reg_frac;     /* ticks between POLL_AND_CHECK_STATUS; 1..hz, default 20 */
	uint32_t idle_poll;    /* 1 = also poll from the idle loop; 0..1, default 0 */
};

/* kern_poll.c `phase` (sysctl kern.polling.phase), same numbers.  Only
 * "<= 2 or not" matters to the algorithm: a tick schedules the netisr in
 * phases 0..2 and leaves a running poll alone in phases 3..6. */
enum bsd_poll_phase {
	BSD_POLL_PHASE_IDLE = 0,       /* nothing scheduled, pending_polls == 0 */
	BSD_POLL_PHASE_SCHEDULING = 1, /* inside hardclock; never seen between calls */
	BSD_POLL_PHASE_SCHEDULED = 2,  /* netisr scheduled, not yet run */
	BSD_POLL_PHASE_POLLING = 3,    /* netisr_poll() entered (bsd_poll_begin()) */
	BSD_POLL_PHASE_POLLED = 4,     /* chunk handed out; handlers run until bsd_poll_more() */
	BSD_POLL_PHASE_MORE = 5,       /* netisr_pollmore() asked for the next chunk */
	BSD_POLL_PHASE_RESTARTED = 6,  /* ticks were missed; a new burst starts at once */
};

/* sys/net/if_var.h enum poll_cmd: what the handlers are asked to do. */
enum bsd_poll_cmd {
	BSD_POLL_ONLY = 0,             /* move up to count packets */
	BSD_POLL_AND_CHECK_STATUS,     /* the same plus the status registers (every reg_frac bursts) */
};

/* What bsd_poll_more() tells the caller to do next. */
enum bsd_poll_next {
	BSD_POLL_NEXT_CHUNK = 0,       /* residual_burst > 0: bsd_poll_chunk() again now, POLL_ONLY */
	BSD_POLL_AGAIN,                /* ticks were missed: bsd_poll_begin() + chunks again now */
	BSD_POLL_DONE,                 /* this tick is finished; wait for the next bsd_poll_tick() */
};

/* Invariants, after every entry point (checked by bsd_poll_check()):
 *   1 <= burst <= burst_max and 1 <= each_burst <= burst_max;
 *   reg_frac_count < reg_frac;
 *   pending_polls <= BSD_POLL_STALL_PENDING + 1;
 *   phase == IDLE  <=>  pending_polls == 0, and then residual_burst == 0.
 * The kernel comment claims 1 <= each_burst <= burst <= burst_max, but the
 * kernel does not keep each_burst <= burst: the -1 step and the 1/8 cut stop
 * at 1, not at each_burst, and the each_burst sysctl is checked against
 * burst_max only.  When burst < each_burst a tick is one chunk of burst.
 * residual_burst <= burst holds too, except after bsd_poll_set_config()
 * lowered burst_max in the middle of a burst (the kernel leaves
 * residual_burst alone there as well), so it is not checked. */
struct bsd_poll {
	struct bsd_poll_config cfg;
	enum bsd_poll_phase phase;
	uint32_t burst;            /* kern.polling.burst: packets per handler this tick */
	uint32_t residual_burst;   /* packets of this tick's burst not yet handed out */
	uint32_t pending_polls;    /* ticks not yet finished by bsd_poll_more() */
	uint32_t reg_frac_count;   /* bursts since the last POLL_AND_CHECK_STATUS */
	int64_t poll_start_ns;     /* start of the current burst (bsd_poll_begin()) */
	int64_t prev_tick_ns;      /* last tick that was not short; INT64_MIN before the first */
	int64_t kern_load_pct;     /* last measured load, % of a tick (may exceed 100) */
	/* counters: the kernel's debug sysctls (uint32 there) */
	uint64_t short_ticks;      /* ticks less than half a period after the previous one */
	uint64_t lost_polls;       /* ticks that found a previous tick still pending */
	uint64_t suspect;          /* ticks that found the netisr scheduled but not yet run */
	uint64_t stalled;          /* stall resets (pending_polls > BSD_POLL_STALL_PENDING) */
	/* counters: rxlab's */
	uint64_t ticks;            /* bsd_poll_tick() calls */
	uint64_t bursts;           /* bursts begun (first netisr_poll of a tick or a restart) */
	uint64_t chunks;           /* bsd_poll_chunk() calls */
	uint64_t restarts;         /* BSD_POLL_AGAIN answers (1/8 cuts) */
};

/* @cfg = the kern_poll.c defaults at @hz (burst_max 150, each_burst 5,
 * user_frac 50, reg_frac 20, idle_poll 0); reg_frac is lowered to @hz when
 * @hz < 20 so that the result passes bsd_poll_config_check(). */
void bsd_poll_config_default(struct bsd_poll_config *cfg, uint32_t hz);

/* Returns 0 if @cfg is legal, else -1 with *why (if @why is not NULL) set to
 * a static message naming the sysctl and its accepted range, e.g.
 * "kern.polling.user_frac out of range (accepted: 0..99)".  The ranges are
 * those of the kern_poll.c sysctl handlers, except that each_burst is
 * refused above burst_max here, where lowering burst_max in the kernel
 * silently sets each_burst to 10 (MIN_POLL_BURST_MAX). */
int bsd_poll_config_check(const struct bsd_poll_config *cfg, const char **why);

/* Idle, burst = BSD_POLL_BURST_INIT, all counters 0.  @cfg must pass
 * bsd_poll_config_check(). */
void bsd_poll_init(struct bsd_poll *p, const struct bsd_poll_config *cfg);

/* Replace the configuration at run time (the sysctl handlers).  @cfg must
 * pass bsd_poll_config_check().  As in the kernel, burst is lowered to
 * burst_max and reg_frac_count restarts at 0 when it is >= reg_frac. */
void bsd_poll_set_config(struct bsd_poll *p, const struct bsd_poll_config *cfg);

/* hardclock_device_poll(): one clock tick at @now_ns (non-decreasing).
 * Counts a short tick; resets a stall (pending_polls > 100: stalled++,
 * pending_polls = 0, phase idle); in phases 0..2 (suspect++ in 1..2) moves
 * to SCHEDULED; then pending_polls++, lost_polls++ if it was already > 0.
 * Returns true when the POLL netisr must be scheduled. */
bool bsd_poll_tick(struct bsd_poll *p, int64_t now_ns);

/* The first half of netisr_poll(), at @now_ns when the netisr runs.  On the
 * first call of a burst (residual_burst == 0) it records poll_start_ns,
 * counts reg_frac_count (POLL_AND_CHECK_STATUS and a restart at 0 when it
 * reaches reg_frac) and sets residual_burst = burst.  Otherwise it only
 * returns BSD_POLL_ONLY, so calling it before every chunk is also correct. */
enum bsd_poll_cmd bsd_poll_begin(struct bsd_poll *p, int64_t now_ns);

/* The second half of netisr_poll(): cycles = min(residual_burst,
 * each_burst), residual_burst -= cycles.  Returns cycles, the count to pass
 * to every registered handler now (0 if no burst was begun). */
uint32_t bsd_poll_chunk(struct bsd_poll *p);

/* netisr_pollmore(), at @now_ns after the handlers and the other netisrs.
 * residual_burst > 0: BSD_POLL_NEXT_CHUNK.  Otherwise kern_load_pct =
 * elapsed_us * hz / 10000 since poll_start; burst-- (not below 1) if it is
 * > 100 - user_frac, else burst++ (not above burst_max); pending_polls--;
 * BSD_POLL_DONE when that leaves 0, else burst -= burst / 8 (not below 1)
 * and BSD_POLL_AGAIN. */
enum bsd_poll_next bsd_poll_more(struct bsd_poll *p, int64_t now_ns);

/* kern_poll.c poll_idle() -> ether_poll(each_burst): the count for one
 * POLL_ONLY pass of every handler from the idle loop, or 0 when idle_poll
 * is off.  Changes nothing (idle polls do not touch burst or the counters). */
uint32_t bsd_poll_idle_count(const struct bsd_poll *p);

/* NULL if the invariants above hold, else a static message naming the
 * first one that does not. */
const char *bsd_poll_check(const struct bsd_poll *p);

#endif
