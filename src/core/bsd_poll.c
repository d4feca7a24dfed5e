/* bsd_poll.c - FreeBSD DEVICE_POLLING burst controller (see
 * include/rxlab/bsd_poll.h).
 *
 * Roadmap, in the order of sys/kern/kern_poll.c:
 *   bsd_poll_config_check()    the sysctl handlers' ranges
 *   bsd_poll_tick()            hardclock_device_poll(): short ticks, stall
 *                              reset, the phase switch, lost polls
 *   bsd_poll_begin/_chunk()    netisr_poll(), split at the handler calls
 *   bsd_poll_more()            netisr_pollmore(): kern_load, +1/-1, 1/8 cut
 *
 * Pure: no libc beyond what the compiler emits.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rxlab/bsd_poll.h"

/* kern_poll.c defaults of the kern.polling.* sysctls. */
#define BSD_POLL_DEF_BURST_MAX 150u
#define BSD_POLL_DEF_EACH_BURST 5u
#define BSD_POLL_DEF_USER_FRAC 50u
#define BSD_POLL_DEF_REG_FRAC 20u
/* user_frac_sysctl() refuses val > 99: at least 1% is left to the kernel. */
#define BSD_POLL_MAX_USER_FRAC 99u

/* kern_load = us * hz / 10000 is the percentage of one tick (1e6/hz us). */
#define BSD_POLL_US_PER_S_OVER_100 10000

void bsd_poll_config_default(struct bsd_poll_config *cfg, uint32_t hz)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->hz = hz;
	cfg->burst_max = BSD_POLL_DEF_BURST_MAX;
	cfg->each_burst = BSD_POLL_DEF_EACH_BURST;
	cfg->user_frac = BSD_POLL_DEF_USER_FRAC;
	/* reg_frac_sysctl() accepts 1..hz; the kernel never checks its own
	 * default against a small hz. */
	cfg->reg_frac = hz < BSD_POLL_DEF_REG_FRAC && hz > 0 ? hz : BSD_POLL_DEF_REG_FRAC;
}

int bsd_poll_config_check(const struct bsd_poll_config *cfg, const char **why)
{
	const char *msg = NULL;

	if (cfg->hz < 1 || cfg->hz > BSD_POLL_MAX_HZ)
		msg = "kern.hz out of range (accepted: 1..100000)";
	else if (cfg->burst_max < BSD_POLL_MIN_BURST_MAX || cfg->burst_max > BSD_POLL_MAX_BURST_MAX)
		msg = "kern.polling.burst_max out of range (accepted: 10..1000)";
	else if (cfg->each_burst < 1 || cfg->each_burst > cfg->burst_max)
		msg = "kern.polling.each_burst out of range (accepted: 1..burst_max)";
	else if (cfg->user_frac > BSD_POLL_MAX_USER_FRAC)
		msg = "kern.polling.user_frac out of range (accepted: 0..99)";
	else if (cfg->reg_frac < 1 || cfg->reg_frac > cfg->hz)
		msg = "kern.polling.reg_frac out of range (accepted: 1..kern.hz)";
	else if (cfg->idle_poll > 1)
		msg = "kern.polling.idle_poll out of range (accepted: 0 or 1)";
	if (why)
		*why = msg;
	return msg ? -1 : 0;
}

void bsd_poll_init(struct bsd_poll *p, const struct bsd_poll_config *cfg)
{
	memset(p, 0, sizeof(*p));
	p->cfg = *cfg;
	p->phase = BSD_POLL_PHASE_IDLE;
	p->burst = BSD_POLL_BURST_INIT;
	/* The kernel's prev_t is 0 (boot), and the first tick it sees comes
	 * long after boot; "no previous tick" keeps that first tick from
	 * counting as short when a simulation starts at t = 0. */
	p->prev_tick_ns = INT64_MIN;
}

void bsd_poll_set_config(struct bsd_poll *p, const struct bsd_poll_config *cfg)
{
	p->cfg = *cfg;
	/* poll_burst_max_sysctl(): burst follows a lower cap at once. */
	if (p->burst > cfg->burst_max)
		p->burst = cfg->burst_max;
	/* reg_frac_sysctl(): a count past the new period restarts. */
	if (p->reg_frac_count >= cfg->reg_frac)
		p->reg_frac_count = 0;
}

/* microuptime() granularity: whole microseconds. */
static int64_t bsd_poll_us(int64_t t_ns)
{
	return t_ns / 1000;
}

/* The debugging head of hardclock_device_poll(): a tick less than half a
 * period after the last normal one is short and does not become the new
 * reference (delta_us * hz < 500000). */
static void bsd_poll_count_short(struct bsd_poll *p, int64_t now_ns)
{
	int64_t delta_us;

	if (p->prev_tick_ns != INT64_MIN) {
		delta_us = bsd_poll_us(now_ns) - bsd_poll_us(p->prev_tick_ns);
		if (delta_us * (int64_t)p->cfg.hz < 500000) {
			p->short_ticks++;
			return;
		}
	}
	p->prev_tick_ns = now_ns;
}

/* hardclock_device_poll(): "Too much, assume it has stalled". */
static void bsd_poll_stall_reset(struct bsd_poll *p)
{
	p->stalled++;
	p->pending_polls = 0;
	p->phase = BSD_POLL_PHASE_IDLE;
}

/* The kernel passes through phase 1 while it sets both netisr flags and
 * calls netisr_sched_poll(), then leaves phase 2. */
static bool bsd_poll_schedule(struct bsd_poll *p)
{
	p->phase = BSD_POLL_PHASE_SCHEDULED;
	return true;
}

bool bsd_poll_tick(struct bsd_poll *p, int64_t now_ns)
{
	bool sched = false;

	p->ticks++;
	bsd_poll_count_short(p, now_ns);
	if (p->pending_polls > BSD_POLL_STALL_PENDING)
		bsd_poll_stall_reset(p);
	switch (p->phase) {
	case BSD_POLL_PHASE_IDLE:
		sched = bsd_poll_schedule(p);
		break;
	case BSD_POLL_PHASE_SCHEDULING:
	case BSD_POLL_PHASE_SCHEDULED:
		/* The previous tick's netisr has not run yet. */
		p->suspect++;
		sched = bsd_poll_schedule(p);
		break;
	case BSD_POLL_PHASE_POLLING:
	case BSD_POLL_PHASE_POLLED:
	case BSD_POLL_PHASE_MORE:
	case BSD_POLL_PHASE_RESTARTED:
		/* A poll is running; bsd_poll_more() will see this tick. */
		break;
	}
	if (p->pending_polls++ > 0)
		p->lost_polls++;
	return sched;
}

enum bsd_poll_cmd bsd_poll_begin(struct bsd_poll *p, int64_t now_ns)
{
	enum bsd_poll_cmd cmd = BSD_POLL_ONLY;

	p->phase = BSD_POLL_PHASE_POLLING;
	if (p->residual_burst != 0)
		return cmd; /* a later chunk of the same burst */
	p->poll_start_ns = now_ns;
	/* Counted per burst, so a restart after missed ticks counts too. */
	if (++p->reg_frac_count == p->cfg.reg_frac) {
		cmd = BSD_POLL_AND_CHECK_STATUS;
		p->reg_frac_count = 0;
	}
	p->residual_burst = p->burst;
	p->bursts++;
	return cmd;
}

uint32_t bsd_poll_chunk(struct bsd_poll *p)
{
	uint32_t cycles = p->residual_burst < p->cfg.each_burst ?
		p->residual_burst : p->cfg.each_burst;

	p->residual_burst -= cycles;
	/* The kernel sets phase 4 after the handlers return; here they run
	 * after this call, and a tick treats phases 3 and 4 alike. */
	p->phase = BSD_POLL_PHASE_POLLED;
	p->chunks++;
	return cycles;
}

/* netisr_pollmore(): kern_load is the share of one tick, in percent, spent
 * since poll_start (the netisrs of this tick).  A clock that went back
 * (a caller bug) measures 0 rather than a negative load. */
static int64_t bsd_poll_kern_load(const struct bsd_poll *p, int64_t now_ns)
{
	int64_t elapsed_us = bsd_poll_us(now_ns) - bsd_poll_us(p->poll_start_ns);

	if (elapsed_us < 0)
		elapsed_us = 0;
	return elapsed_us * (int64_t)p->cfg.hz / BSD_POLL_US_PER_S_OVER_100;
}

/* Additive step: leave user_frac percent of the tick to userland. */
static void bsd_poll_adapt(struct bsd_poll *p, int64_t now_ns)
{
	p->kern_load_pct = bsd_poll_kern_load(p, now_ns);
	if (p->kern_load_pct > 100 - (int64_t)p->cfg.user_frac) {
		if (p->burst > 1)
			p->burst--;
	} else if (p->burst < p->cfg.burst_max) {
		p->burst++;
	}
}

/* "Last cycle was long and caused us to miss one or more hardclock ticks":
 * poll again at once with a burst cut by 1/8 (nothing for burst < 8). */
static void bsd_poll_overrun_cut(struct bsd_poll *p)
{
	p->burst -= p->burst / 8;
	if (p->burst < 1)
		p->burst = 1;
	p->phase = BSD_POLL_PHASE_RESTARTED;
	p->restarts++;
}

enum bsd_poll_next bsd_poll_more(struct bsd_poll *p, int64_t now_ns)
{
	p->phase = BSD_POLL_PHASE_MORE;
	if (p->residual_burst > 0)
		return BSD_POLL_NEXT_CHUNK;
	bsd_poll_adapt(p, now_ns);
	/* The kernel's u32 would wrap on a call without a tick; refuse. */
	if (p->pending_polls > 0)
		p->pending_polls--;
	if (p->pending_polls == 0) {
		p->phase = BSD_POLL_PHASE_IDLE;
		return BSD_POLL_DONE;
	}
	bsd_poll_overrun_cut(p);
	return BSD_POLL_AGAIN;
}

uint32_t bsd_poll_idle_count(const struct bsd_poll *p)
{
	/* ether_poll() clamps its count to each_burst and passes POLL_ONLY. */
	return p->cfg.idle_poll ? p->cfg.each_burst : 0;
}

const char *bsd_poll_check(const struct bsd_poll *p)
{
	if (p->burst < 1 || p->burst > p->cfg.burst_max)
		return "burst outside 1..burst_max";
	if (p->cfg.each_burst < 1 || p->cfg.each_burst > p->cfg.burst_max)
		return "each_burst outside 1..burst_max";
	if (p->reg_frac_count >= p->cfg.reg_frac)
		return "reg_frac_count >= reg_frac";
	if (p->pending_polls > BSD_POLL_STALL_PENDING + 1)
		return "pending_polls > 101 (the stall reset did not run)";
	if ((p->phase == BSD_POLL_PHASE_IDLE) != (p->pending_polls == 0))
		return "phase idle without pending_polls == 0, or the reverse";
	if (p->phase == BSD_POLL_PHASE_IDLE && p->residual_burst != 0)
		return "phase idle with residual_burst > 0";
	return NULL;
}
