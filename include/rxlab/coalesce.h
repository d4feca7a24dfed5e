/* coalesce.h - the NIC interrupt coalescing engine (pure; no OS, no clock).
 *
 * One engine models the moderation logic of one interrupt cause (RX or TX
 * completions of one queue).  It covers the real variants:
 *
 *   frames      rx-frames / tx-frames: fire when this many completions are
 *               pending (ethtool rx_max_coalesced_frames).
 *   usecs       rx-usecs / tx-usecs: a timer.  In COAL_TIMER_ABSOLUTE mode it
 *               starts at the first pending completion and is not restarted
 *               (EQE mode, e1000 RADV, tg3 HOSTCC_RXCOL_TICKS); in
 *               COAL_TIMER_RESTART mode every completion restarts it, so it
 *               fires only when the queue has been quiet for usecs (CQE mode,
 *               e1000 RDTR).
 *   abs_ns      an extra absolute timer used with RESTART mode (e1000 RADV
 *               next to RDTR); 0 = none.
 *   min_gap_ns  a minimum interval between two interrupts (e1000 ITR, in the
 *               hardware 256 ns units times the register value); an interrupt
 *               whose condition is met earlier is held until
 *               last_irq + min_gap_ns.
 *   *_irq       rx-usecs-irq / rx-frames-irq: the thresholds that apply to
 *               completions that arrive while the host is servicing the
 *               previous interrupt (between fire and unmask).  0 = same as
 *               the normal value.
 *   every       a count of descriptors, not of pending completions: the
 *               driver marks every Nth descriptor it queues for an interrupt
 *               of its own (Olsson's e1000 NAPI driver, changelog 010610:
 *               "Added TX interrupt for a given no of packets. (Currently
 *               60)").  The count runs over all completions and neither an
 *               interrupt nor an acknowledgement restarts it; a marked
 *               completion latches the cause until the next fire or ack, so
 *               several marks while the line is masked make one interrupt.
 *
 * Firing rule (include/uapi/linux/ethtool.h): fire when
 *   (usecs > 0 && timer expired) || (frames > 0 && pending >= frames)
 *   || (every > 0 && a marked completion is pending),
 * and never before last_irq + min_gap_ns.  With usecs == 0, frames <= 1 and
 * every == 0 every completion fires at once (no coalescing).  usecs, frames
 * and every all zero is rejected by coal_params_check().
 *
 * The engine counts completions since the last interrupt *or* the last
 * acknowledgement (a driver reading the interrupt cause register clears the
 * pending cause).  Masking is the caller's business: the engine says when
 * the condition holds; the caller delivers the interrupt only when unmasked,
 * so a condition that became true while masked fires at unmask time.
 *
 * Times are int64_t nanoseconds of one clock chosen by the caller.
 */
#ifndef RXLAB_RXLAB_COALESCE_H
#define RXLAB_RXLAB_COALESCE_H

#include <stdbool.h>
#include <stdint.h>

#define COAL_NEVER INT64_MAX

enum coal_timer_mode {
	COAL_TIMER_ABSOLUTE = 0, /* EQE: timer from the first pending completion */
	COAL_TIMER_RESTART = 1,  /* CQE: timer restarted by every completion */
};

struct coal_params {
	int64_t usecs_ns;      /* rx-usecs in ns; 0 = no timer */
	uint32_t frames;       /* rx-frames; 0 = no frame threshold */
	int64_t usecs_irq_ns;  /* rx-usecs-irq in ns; 0 = use usecs_ns */
	uint32_t frames_irq;   /* rx-frames-irq; 0 = use frames */
	enum coal_timer_mode mode;
	int64_t abs_ns;        /* absolute timer next to a RESTART timer (RADV); 0 = none */
	int64_t min_gap_ns;    /* minimum interval between interrupts; 0 = none */
	uint32_t every;        /* every Nth completion raises the cause at once; 0 = none */
};

/* Why an interrupt fired; reported per interrupt. */
enum coal_cause {
	COAL_CAUSE_NONE = 0,
	COAL_CAUSE_FRAMES,     /* frame threshold reached */
	COAL_CAUSE_TIMER,      /* usecs timer (or abs timer) expired */
	COAL_CAUSE_GAP,        /* condition met earlier, released by min_gap_ns */
};

/* Invariants: pending == 0 implies t_first/t_last are meaningless;
 * t_first <= t_last when pending > 0; servicing is true between
 * coal_fire() and coal_unmask(); marked implies pending > 0 and
 * t_first <= t_mark <= t_last. */
struct coal {
	struct coal_params p;
	uint32_t pending;      /* completions since last fire/ack */
	uint32_t pending_svc;  /* of those, completions that arrived while servicing */
	int64_t t_first;       /* time of the first pending completion */
	int64_t t_last;        /* time of the last pending completion */
	int64_t t_last_irq;    /* time of the last fire; INT64_MIN before the first */
	bool servicing;        /* host is servicing (between fire and unmask) */
	bool timer_only;       /* coal_timer_only(&p), kept by coal_init() and
	                        * coal_set_params() (the only writers of p) */
	uint32_t since_mark;   /* every: completions since the last marked one, < every */
	bool marked;           /* every: a marked completion is pending (t_mark) */
	int64_t t_mark;        /* ... the time of the first such since the last fire/ack */
	uint64_t epoch;        /* bumped by every change other than coal_complete(): a
	                        * fire, an ack that cleared something, an unmask that
	                        * ended servicing, new parameters (struct coal_ahead) */
	/* counters */
	uint64_t fired;        /* interrupts fired */
	uint64_t fired_by[4];  /* per enum coal_cause */
	uint64_t completions;  /* completions seen */
};

/* e1000 RxIntDelay / RxAbsIntDelay (or TxIntDelay / TxAbsIntDelay), in
 * units of 1.024 us, as coalescing parameters (8254x SDM p.29, p.305):
 * RDTR is a packet timer restarted by every frame, RADV an absolute timer
 * from the first; RDTR = 0 means an interrupt per frame and disables RADV,
 * so then @p is left as it is.  Otherwise p->mode, usecs_ns, frames and
 * abs_ns are set; p->every stays (the hardware has no frame count, but a
 * driver may mark every Nth descriptor beside TIDV). */
void coal_params_e1000(uint32_t rdtr, uint32_t radv, struct coal_params *p);

/* Returns 0 if @p is legal, else -1 with *why set to a static message naming
 * the offending field (e.g. "rx-usecs and rx-frames are both 0"). */
int coal_params_check(const struct coal_params *p, const char **why);

/* Start with nothing pending.  @p must pass coal_params_check(). */
void coal_init(struct coal *c, const struct coal_params *p);

/* Replace the parameters (ethtool -C at run time, DIM).  Pending state is kept. */
void coal_set_params(struct coal *c, const struct coal_params *p);

/* One completion (descriptor written back) at @t_ns; calls must come in
 * non-decreasing time order. */
void coal_complete(struct coal *c, int64_t t_ns);

/* Earliest time >= @now_ns at which the interrupt condition holds if no
 * further completion arrives, or COAL_NEVER if nothing is pending.
 * Pure: does not change @c.  If @cause is not NULL it receives the reason. */
int64_t coal_fire_time(const struct coal *c, int64_t now_ns, enum coal_cause *cause);

/* Is the only threshold of @p an absolute timer: COAL_TIMER_ABSOLUTE with
 * usecs_ns > 0, and frames, every, usecs_irq_ns and frames_irq all 0
 * (abs_ns may be set)?  Then coal_fire_time() depends on the first pending
 * completion alone: once one is pending, no further completion moves it
 * (a look-ahead walk, below, may stop there).  struct coal keeps the answer
 * for its parameters in timer_only. */
bool coal_timer_only(const struct coal_params *p);

/* The interrupt was asserted at @t_ns: pending state clears, the minimum-gap
 * clock restarts, servicing becomes true. */
void coal_fire(struct coal *c, int64_t t_ns, enum coal_cause cause);

/* The driver read and cleared the cause register at @t_ns: completions so
 * far no longer count towards the next interrupt. */
void coal_ack(struct coal *c, int64_t t_ns);

/* The host re-enabled the interrupt at @t_ns (servicing ends).
 * Threshold rule: while every pending completion arrived during servicing
 * (pending_svc == pending > 0) coal_fire_time() uses the *_irq thresholds
 * (frames_irq counted on pending, usecs_irq timed from t_first); as soon as a
 * completion arrives after unmask, the normal thresholds apply to all of
 * pending.  The timer mode and min_gap_ns apply in both cases. */
void coal_unmask(struct coal *c, int64_t t_ns);

/* ---- look-ahead: the next fire time over known future completions ----
 *
 * A caller that knows the times of completions still to come (DMA
 * completions already scheduled, departures of frames already on a TX
 * ring) predicts the next interrupt by walking them on a copy of the
 * engine: complete the next one while it comes before the fire time, then
 * ask again.  The walk's answer is
 *
 *     x = *c; ft = coal_fire_time(&x, now, NULL);
 *     for each future completion te, in order:
 *         if (te >= ft) break;
 *         coal_complete(&x, te); ft = coal_fire_time(&x, now, NULL);
 *
 * (with coal_timer_only() parameters the walk may stop as soon as x has a
 * completion pending: the rest leave ft as it is)
 * and redoing it on every question costs the whole walk each time
 * (src/sim/nic.c asks on every transmit).  A struct coal_ahead keeps the
 * walked copy between questions, so a question walks only completions it
 * has not walked yet: the copy stays good while @c changes only by
 * coal_complete() of the same completions (then @c is the copy at an
 * earlier step of the same walk) and now does not go back (fire times only
 * grow with now, so a walk done at an earlier now is a prefix of the walk
 * at this one).  Anything else (fire, ack, unmask, set_params: c->epoch;
 * @c past the copy) starts it again from @c.
 *
 * Use: n = coal_ahead_sync(a, c, now); then walk as above on &a->x, from
 * the n-th future completion after the last one @c has seen.
 * Invariants while live: x.epoch == c->epoch for the @c it follows and
 * x.completions >= c->completions. */
struct coal_ahead {
	struct coal x;         /* @c with the walked future completions applied */
	int64_t now_ns;        /* now of the last question */
	bool live;             /* false: nothing kept (zeroed, or coal_ahead_reset()) */
	/* the walker may keep coal_fire_time(&x, now_ns, NULL) here (ft_ok)
	 * after its walk; coal_ahead_sync() clears ft_ok whenever x or now_ns
	 * changes, and the walker when it completes on x */
	bool ft_ok;
	int64_t ft;
};

/* Forget the walked copy; the next coal_ahead_sync() starts from @c. */
void coal_ahead_reset(struct coal_ahead *a);

/* Make @a a walk of @c at @now_ns (>= now of the last question, else it
 * starts again) and return how many future completions it has already
 * applied beyond those @c has seen: the walk resumes at that one. */
uint32_t coal_ahead_sync(struct coal_ahead *a, const struct coal *c, int64_t now_ns);

#endif
