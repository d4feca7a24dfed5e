/* modes_user.c - the userspace moderation modes (include/rxlab/live.h):
 * interrupt, coalesce / dim / itr, napi, bsd-poll, busy and hybrid.  Each
 * translates real time and packet counts into the inputs of its src/core
 * mechanism and applies the decision with the loop primitives of
 * loop_impl.h.  Mechanism state lives for one rxl_run(). */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>

#include "live/loop_impl.h"
#include "live/policy.h"
#include "rxlab/bsd_poll.h"
#include "rxlab/coalesce.h"
#include "rxlab/dim.h"
#include "rxlab/hybrid.h"
#include "rxlab/itr.h"
#include "rxlab/napi.h"

/* interrupt: one wake-up, one poll. */
int rxl_mode_interrupt(struct rxl_loop *l)
{
	while (!rxl_done(l)) {
		if (rxl_wait_ready(l, -1) != RXL_WAKE_READY)
			continue;
		rxl_poll(l, l->cfg.budget);
	}
	return 0;
}

/* busy: spin on non-blocking polls. */
int rxl_mode_busy(struct rxl_loop *l)
{
	while (!rxl_done(l))
		rxl_poll(l, l->cfg.budget);
	return 0;
}

/* ---- coalesce, dim, itr: the coalescing engine decides when to deliver ---- */

struct coal_run {
	struct coal c;
	struct dim dim;
	struct live_policy policy;  /* dim with [policy] set */
	struct itr itr;
	uint64_t pkts, bytes;       /* cumulative, for DIM samples */
	uint16_t events;
};

static void coal_setup(struct rxl_loop *l, struct coal_run *r)
{
	struct coal_params p = {
		.usecs_ns = (int64_t)l->cfg.rx_usecs * 1000, .frames = l->cfg.rx_frames,
		.mode = COAL_TIMER_ABSOLUTE,
	};
	if (l->cfg.mode == RXL_MODE_DIM && l->cfg.policy) {
		live_policy_start(l, &r->policy, &p, rxl_now());
	} else if (l->cfg.mode == RXL_MODE_DIM) {
		dim_init(&r->dim, DIM_DEF_PROFILE_IX);
		const struct dim_profile *dp = dim_profile(DIM_RX_CQE, DIM_DEF_PROFILE_IX);
		p = (struct coal_params){ .usecs_ns = (int64_t)dp->usec * 1000, .frames = dp->pkts,
					  .mode = COAL_TIMER_RESTART };
	}
	if (l->cfg.mode == RXL_MODE_ITR) {
		struct itr_config ic;
		const char *why;
		if (itr_from_param(l->cfg.itr, &ic, &why) != 0)
			ic = (struct itr_config){ .mode = ITR_DEFAULT_MODE };
		itr_init(&r->itr, &ic, 1000);
		p = (struct coal_params){ .frames = 1,
			.min_gap_ns = r->itr.itr ? 1000000000 / r->itr.itr : 0 };
	}
	coal_init(&r->c, &p);
	r->pkts = r->bytes = 0;
	r->events = 0;
}

/* After a delivery of @n packets / @bytes: let DIM or ITR retune. */
static void coal_adapt(struct rxl_loop *l, struct coal_run *r, uint32_t n, uint64_t bytes,
		       int64_t now)
{
	r->pkts += n;
	r->bytes += bytes;
	r->events++;
	if (l->cfg.mode == RXL_MODE_DIM && l->cfg.policy) {
		live_policy_done(l, &r->policy, &r->c, n, bytes, now);
	} else if (l->cfg.mode == RXL_MODE_DIM) {
		struct dim_sample s = { .t_ns = now, .pkt_ctr = (uint32_t)r->pkts,
					.byte_ctr = (uint32_t)r->bytes, .event_ctr = r->events };
		struct dim_result res = net_dim(&r->dim, &s);
		if (res.changed) {
			const struct dim_profile *dp = dim_profile(DIM_RX_CQE, res.profile_ix);
			struct coal_params p = r->c.p;
			p.usecs_ns = (int64_t)dp->usec * 1000;
			p.frames = dp->pkts;
			coal_set_params(&r->c, &p);
			dim_applied(&r->dim);
			rxl_count_moderation(l);
		}
	} else if (l->cfg.mode == RXL_MODE_ITR) {
		struct itr_decision d = itr_on_irq_done(&r->itr, n, (uint32_t)bytes, 0, 0);
		if (d.changed) {
			struct coal_params p = r->c.p;
			p.min_gap_ns = d.gap_ns;
			coal_set_params(&r->c, &p);
			rxl_count_moderation(l);
		}
	}
}

/* Stage what is ready and tell the engine about each packet. */
static void coal_take(struct rxl_loop *l, struct coal_run *r)
{
	uint32_t before = l->staged;
	rxl_poll_stage(l, l->cfg.budget);
	for (uint32_t i = before; i < l->staged; i++)
		coal_complete(&r->c, (int64_t)l->pkts[i].rx_ns);
}

static void coal_deliver(struct rxl_loop *l, struct coal_run *r, int64_t now,
			 enum coal_cause cause)
{
	uint32_t n = l->staged;
	uint64_t bytes = 0;
	for (uint32_t i = 0; i < n; i++)
		bytes += l->pkts[i].len;
	coal_fire(&r->c, now, cause);
	if (l->cfg.mode == RXL_MODE_DIM && l->cfg.policy)
		live_policy_fired(l, &r->policy, &r->c, now);
	rxl_deliver(l);
	coal_unmask(&r->c, rxl_now());
	coal_adapt(l, r, n, bytes, now);
}

/* Wait for the first packet ("interrupt" edge), then until the engine
 * fires: on the timer when rx-usecs or a gap is set, else on readiness. */
int rxl_mode_coalesce(struct rxl_loop *l)
{
	struct coal_run r;
	coal_setup(l, &r);
	while (!rxl_done(l)) {
		if (l->staged == 0) {
			if (rxl_wait_ready(l, -1) != RXL_WAKE_READY)
				continue;
			coal_take(l, &r);
			continue;
		}
		int64_t now = rxl_now();
		enum coal_cause cause;
		int64_t fire = coal_fire_time(&r.c, now, &cause);
		/* No early delivery when the staging slots are full (there are
		 * at least rx-frames of them, so then only the timer or the
		 * ITR gap holds it back): later packets wait in the source, as
		 * they would in a NIC's ring. */
		if (fire <= now) {
			coal_deliver(l, &r, now, cause);
			continue;
		}
		if (fire != COAL_NEVER)
			rxl_sleep_until(l, fire);
		else if (rxl_wait_ready(l, -1) != RXL_WAKE_READY)
			continue;
		coal_take(l, &r);
	}
	return 0;
}

/* ---- napi ---- */

/* One NAPI poll round as __napi_poll() + the driver's poll: returns the
 * napi decision to apply when the round completed, or repolls. */
static struct napi_done napi_round(struct rxl_loop *l, struct napi *n)
{
	for (;;) {
		uint32_t work = rxl_poll(l, l->cfg.budget);
		if (work < n->weight) {
			struct napi_done d = napi_complete_done(n, work, false);
			napi_poll_finish(n, work);
			return d;
		}
		struct napi_poll_result pr = napi_poll_finish(n, work);
		if (pr.next != NAPI_NEXT_REPOLL || rxl_done(l))
			return pr.done;
	}
}

int rxl_mode_napi(struct rxl_loop *l)
{
	struct napi n;
	napi_init(&n, l->cfg.budget);
	napi_set_defer(&n, l->cfg.napi_defer_hard_irqs, (int64_t)l->cfg.napi_gro_flush_timeout_ns);
	bool scheduled = false;
	while (!rxl_done(l)) {
		if (!scheduled) {
			if (rxl_wait_ready(l, -1) != RXL_WAKE_READY)
				continue;
			scheduled = napi_schedule_prep(&n);
			if (!scheduled)
				continue;
		}
		struct napi_done d = napi_round(l, &n);
		if (d.reschedule)
			continue;
		scheduled = false;
		if (d.timer_ns > 0 && !d.rearm_irq) {
			/* Deferral: the IRQ stays masked; the hrtimer polls. */
			if (rxl_sleep_until(l, rxl_now() + d.timer_ns) == RXL_WAKE_STOP)
				break;
			scheduled = napi_watchdog(&n);
		}
	}
	return 0;
}

/* ---- bsd-poll: clock ticks at hz, bursts from the AIMD controller ---- */

static void bsd_tick(struct rxl_loop *l, struct bsd_poll *p)
{
	int64_t now = rxl_now();
	if (!bsd_poll_tick(p, now))
		return;
	bsd_poll_begin(p, now);
	for (;;) {
		uint32_t cycles = bsd_poll_chunk(p);
		if (cycles)
			rxl_poll(l, cycles);
		enum bsd_poll_next next = bsd_poll_more(p, rxl_now());
		if (next == BSD_POLL_DONE)
			return;
		if (next == BSD_POLL_AGAIN)
			bsd_poll_begin(p, rxl_now());
	}
}

int rxl_mode_bsd_poll(struct rxl_loop *l)
{
	struct bsd_poll_config cfg;
	bsd_poll_config_default(&cfg, l->cfg.hz);
	cfg.burst_max = l->cfg.burst_max;
	cfg.each_burst = l->cfg.each_burst;
	cfg.user_frac = l->cfg.user_frac;
	if (bsd_poll_config_check(&cfg, NULL) != 0)
		return -EINVAL; /* rxl_config_check() lets nothing else through */
	struct bsd_poll p;
	bsd_poll_init(&p, &cfg);
	int64_t period = 1000000000 / (int64_t)l->cfg.hz;
	int64_t next = rxl_now() + period;
	while (!rxl_done(l)) {
		if (rxl_sleep_until(l, next) == RXL_WAKE_STOP)
			break;
		bsd_tick(l, &p);
		next += period;
		int64_t now = rxl_now();
		if (next < now) /* ticks lost while polling: as hardclock, no catch-up burst */
			next = now;
	}
	return 0;
}

/* ---- hybrid ---- */

int rxl_mode_hybrid(struct rxl_loop *l)
{
	struct hybrid h;
	struct hybrid_config hc = { .wake_cost_ns = (int64_t)l->cfg.wake_cost_ns,
				    .spin_max_ns = (int64_t)l->cfg.spin_max_ns,
				    .nap_max_ns = (int64_t)l->cfg.nap_max_ns };
	if (hybrid_init(&h, &hc, rxl_now()) != 0)
		return -EINVAL; /* rxl_config_check() lets no such range through */
	enum hybrid_action a = HYBRID_SLEEP;
	while (!rxl_done(l)) {
		if (a == HYBRID_SLEEP && rxl_wait_ready(l, -1) != RXL_WAKE_READY)
			continue;
		/* A nap is a timer: packets that arrive meanwhile wait in the
		 * socket, and the poll after it takes them as one batch. */
		if (a == HYBRID_NAP && rxl_sleep_until(l, h.nap_until_ns) == RXL_WAKE_STOP)
			break;
		uint32_t n = rxl_poll(l, l->cfg.budget);
		enum hybrid_action next = hybrid_after_poll(&h, rxl_now(), n, l->cfg.budget);
		/* A switch: between waiting for readiness and polling (on a
		 * timer or back to back), as the baselines count theirs. */
		if ((next == HYBRID_SLEEP) != (a == HYBRID_SLEEP))
			rxl_count_switch(l);
		a = next;
		if (a == HYBRID_POLL && n == 0 && l->cfg.spin_yield)
			sched_yield();
	}
	return 0;
}
