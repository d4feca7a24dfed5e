/* coalesce.c - NIC interrupt coalescing engine (see include/rxlab/coalesce.h).
 *
 * Roadmap: coal_params_check() validates; coal_complete(), coal_fire(),
 * coal_ack() and coal_unmask() move the pending counters; coal_fire_time()
 * is the whole decision and never changes state.  It works in three steps:
 *
 *   1. pick the thresholds that apply (normal or *_irq, coal_thresholds());
 *   2. the earliest time the condition holds: the timer deadline
 *      (coal_timer_deadline()) or the completion that met the frame count;
 *   3. not before @now_ns, and not before last_irq + min_gap_ns.
 *
 * Every other change than a completion bumps c->epoch, so that
 * coal_ahead_sync() can keep a look-ahead walk between questions.
 *
 * Pure: no libc beyond what the compiler emits.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rxlab/coalesce.h"

/* Thresholds in force for the current pending set. */
struct coal_thresh {
	int64_t usecs_ns;
	uint32_t frames;
};

/* a + b for b >= 0, saturating at COAL_NEVER (a user may set huge usecs). */
static int64_t coal_add(int64_t a, int64_t b)
{
	if (b > 0 && a > COAL_NEVER - b)
		return COAL_NEVER;
	return a + b;
}

static int64_t coal_max(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static int64_t coal_min(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

int coal_params_check(const struct coal_params *p, const char **why)
{
	const char *msg = NULL;

	/* include/uapi/linux/ethtool.h, struct ethtool_coalesce: "It is
	 * illegal to set both usecs and max_frames to zero"; the documented
	 * way to turn coalescing off is usecs 0 and max_frames 1. */
	if (p->usecs_ns == 0 && p->frames == 0 && p->every == 0)
		msg = "rx-usecs and rx-frames are both 0; to disable coalescing set rx-usecs 0 rx-frames 1";
	else if (p->usecs_ns < 0)
		msg = "rx-usecs is negative (accepted: >= 0)";
	else if (p->usecs_irq_ns < 0)
		msg = "rx-usecs-irq is negative (accepted: >= 0, 0 = same as rx-usecs)";
	else if (p->abs_ns < 0)
		msg = "abs timer is negative (accepted: >= 0, 0 = none)";
	else if (p->min_gap_ns < 0)
		msg = "min gap is negative (accepted: >= 0, 0 = none)";
	else if (p->mode != COAL_TIMER_ABSOLUTE && p->mode != COAL_TIMER_RESTART)
		msg = "timer mode is neither ABSOLUTE (EQE) nor RESTART (CQE)";
	if (why)
		*why = msg;
	return msg ? -1 : 0;
}

void coal_params_e1000(uint32_t rdtr, uint32_t radv, struct coal_params *p)
{
	if (rdtr == 0)
		return;
	p->mode = COAL_TIMER_RESTART;
	p->usecs_ns = (int64_t)rdtr * 1024;
	p->frames = 0;
	p->abs_ns = (int64_t)radv * 1024;
}

void coal_init(struct coal *c, const struct coal_params *p)
{
	memset(c, 0, sizeof(*c));
	c->p = *p;
	c->timer_only = coal_timer_only(p);
	c->t_last_irq = INT64_MIN;
}

static bool coal_params_equal(const struct coal_params *a, const struct coal_params *b)
{
	return a->usecs_ns == b->usecs_ns && a->frames == b->frames &&
	       a->usecs_irq_ns == b->usecs_irq_ns && a->frames_irq == b->frames_irq &&
	       a->mode == b->mode && a->abs_ns == b->abs_ns && a->min_gap_ns == b->min_gap_ns &&
	       a->every == b->every;
}

void coal_set_params(struct coal *c, const struct coal_params *p)
{
	/* ethtool -C rewrites the moderation registers; completions already
	 * written back stay pending and are judged by the new values.  DIM and
	 * ITR write the same values again and again: that changes nothing a
	 * look-ahead walked. */
	if (!coal_params_equal(&c->p, p))
		c->epoch++;
	c->p = *p;
	c->timer_only = coal_timer_only(p);
}

/* every: the driver marked each every-th descriptor; the count runs over
 * all completions (a property of the descriptor, not of the interrupt),
 * and the first marked one since the last fire or ack latches the cause.
 * ">=" keeps the count in range after coal_set_params() lowers every. */
static void coal_count_mark(struct coal *c, int64_t t_ns)
{
	if (c->p.every == 0)
		return;
	if (++c->since_mark < c->p.every)
		return;
	c->since_mark = 0;
	if (!c->marked) {
		c->marked = true;
		c->t_mark = t_ns;
	}
}

void coal_complete(struct coal *c, int64_t t_ns)
{
	c->completions++;
	if (c->pending == 0)
		c->t_first = t_ns;
	c->t_last = t_ns;
	if (c->pending < UINT32_MAX)
		c->pending++;
	/* ethtool.h: the *_irq values apply "while an IRQ is being serviced
	 * by the host", i.e. between fire and unmask. */
	if (c->servicing && c->pending_svc < UINT32_MAX)
		c->pending_svc++;
	coal_count_mark(c, t_ns);
}

/* The coal_unmask() rule: the *_irq thresholds apply while every pending
 * completion arrived during servicing; 0 means "same as the normal value"
 * (tg3 programs HOSTCC_RXCOAL_TICK_INT / RXCOAL_MAXF_INT the same way). */
static struct coal_thresh coal_thresholds(const struct coal *c)
{
	struct coal_thresh t = { c->p.usecs_ns, c->p.frames };

	if (c->pending > 0 && c->pending_svc == c->pending) {
		if (c->p.usecs_irq_ns > 0)
			t.usecs_ns = c->p.usecs_irq_ns;
		if (c->p.frames_irq > 0)
			t.frames = c->p.frames_irq;
	}
	return t;
}

/* Expiry of the usecs timer (and of the extra absolute timer), or
 * COAL_NEVER.  ABSOLUTE: started by the first pending completion, never
 * restarted (ethtool-netlink.rst EQE mode, e1000 RADV, SDM p.29).
 * RESTART: every completion restarts it (CQE mode, e1000 RDTR "packet
 * timer", SDM p.305).  abs_ns: RADV next to RDTR; whichever expires first
 * fires ("an RADV expiry cancels a pending RDTR interrupt"). */
static int64_t coal_timer_deadline(const struct coal *c, int64_t usecs_ns)
{
	int64_t t = COAL_NEVER;

	if (usecs_ns > 0) {
		switch (c->p.mode) {
		case COAL_TIMER_ABSOLUTE:
			t = coal_add(c->t_first, usecs_ns);
			break;
		case COAL_TIMER_RESTART:
			t = coal_add(c->t_last, usecs_ns);
			break;
		}
	}
	if (c->p.abs_ns > 0)
		t = coal_min(t, coal_add(c->t_first, c->p.abs_ns));
	return t;
}

/* Earliest time the condition holds, ignoring now and the minimum gap. */
static int64_t coal_condition_time(const struct coal *c, enum coal_cause *cause)
{
	struct coal_thresh th = coal_thresholds(c);
	int64_t t_timer = coal_timer_deadline(c, th.usecs_ns);
	int64_t t_count = COAL_NEVER;

	/* ethtool.h: "usecs 0, max_frames 1" disables coalescing; usecs 0
	 * alone counts as max_frames 1 too (every completion fires), unless
	 * marked descriptors are the trigger. */
	if (th.usecs_ns == 0 && th.frames <= 1 && c->p.every == 0)
		th.frames = 1;
	/* The frame count was met no later than the last completion; a
	 * marked descriptor raised the cause when it completed. */
	if (th.frames > 0 && c->pending >= th.frames)
		t_count = c->t_last;
	if (c->marked)
		t_count = coal_min(t_count, c->t_mark);
	/* A tie with the timer is reported as FRAMES. */
	if (t_count != COAL_NEVER && t_count <= t_timer) {
		*cause = COAL_CAUSE_FRAMES;
		return t_count;
	}
	*cause = t_timer == COAL_NEVER ? COAL_CAUSE_NONE : COAL_CAUSE_TIMER;
	return t_timer;
}

int64_t coal_fire_time(const struct coal *c, int64_t now_ns, enum coal_cause *cause)
{
	enum coal_cause why = COAL_CAUSE_NONE;
	int64_t t = COAL_NEVER;

	if (c->pending > 0)
		t = coal_condition_time(c, &why);
	if (t != COAL_NEVER) {
		int64_t release = COAL_NEVER;

		t = coal_max(t, now_ns);
		/* e1000 ITR: interrupts are at least ITR*256 ns apart; one
		 * that is due earlier is held until the interval ends. */
		if (c->p.min_gap_ns > 0 && c->t_last_irq != INT64_MIN)
			release = coal_add(c->t_last_irq, c->p.min_gap_ns);
		if (release != COAL_NEVER && release > t) {
			t = release;
			why = COAL_CAUSE_GAP;
		}
	}
	if (cause)
		*cause = why;
	return t;
}

bool coal_timer_only(const struct coal_params *p)
{
	/* coal_condition_time(): no frame count and no mark, so the count
	 * never fires; the *_irq values never switch in; the deadline (and
	 * abs_ns) counts from t_first, which the first pending completion sets */
	return p->mode == COAL_TIMER_ABSOLUTE && p->usecs_ns > 0 && p->frames == 0 &&
	       p->every == 0 && p->usecs_irq_ns == 0 && p->frames_irq == 0;
}

void coal_fire(struct coal *c, int64_t t_ns, enum coal_cause cause)
{
	c->pending = 0;
	c->pending_svc = 0;
	c->marked = false;
	c->t_last_irq = t_ns;
	c->servicing = true;
	c->epoch++;
	c->fired++;
	if ((unsigned)cause < sizeof(c->fired_by) / sizeof(c->fired_by[0]))
		c->fired_by[cause]++;
}

void coal_ack(struct coal *c, int64_t t_ns)
{
	/* Reading ICR clears the pending cause (e1000 SDM, "Interrupt Cause
	 * Read"); the timers re-initialize with it.  The minimum-gap clock
	 * counts interrupts, not reads, so t_last_irq stays. */
	(void)t_ns;
	if (c->pending == 0 && !c->marked)
		return; /* nothing to clear (pending_svc <= pending) */
	c->pending = 0;
	c->pending_svc = 0;
	c->marked = false;
	c->epoch++;
}

void coal_unmask(struct coal *c, int64_t t_ns)
{
	/* Servicing ends; completions from now on use the normal thresholds
	 * (coal_thresholds()).  A condition that already holds fires now. */
	(void)t_ns;
	if (!c->servicing)
		return;
	c->servicing = false;
	c->epoch++;
}

void coal_ahead_reset(struct coal_ahead *a)
{
	a->live = false;
}

/* The walked copy is good while @c moved only by coal_complete() along it
 * (same epoch, not past it) and now did not go back: see coalesce.h. */
uint32_t coal_ahead_sync(struct coal_ahead *a, const struct coal *c, int64_t now_ns)
{
	if (!a->live || a->x.epoch != c->epoch || a->x.completions < c->completions ||
	    now_ns < a->now_ns) {
		a->x = *c;
		a->live = true;
		a->ft_ok = false;
	}
	if (now_ns != a->now_ns)
		a->ft_ok = false;
	a->now_ns = now_ns;
	return (uint32_t)(a->x.completions - c->completions);
}
