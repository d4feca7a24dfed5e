/* dim.c - Linux DIM, net_dim flavour (see include/rxlab/dim.h).
 *
 * Roadmap, in the order of lib/dim/net_dim.c:
 *   dim_calc_stats()     window -> rates (lib/dim/dim.c)
 *   dim_stats_compare()  the 10% rule, bytes > packets > events
 *   dim_step(), dim_exit_parking(), dim_turn(), dim_on_top(),
 *   dim_park_on_top(), dim_park_tired()   the tuning transitions
 *   dim_decision()       the tuning state machine (one switch)
 *   net_dim()            the measurement state machine (one switch)
 *
 * Pure: no libc beyond what the compiler emits.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rxlab/dim.h"

/* include/linux/time64.h USEC_PER_MSEC; rates are per millisecond. */
#define DIM_USEC_PER_MSEC 1000u

/* include/linux/kernel.h DIV_ROUND_UP, in 64 bits: npkts * 1000 does not
 * overflow (the kernel's 1000L is 64-bit on 64-bit hosts).  The result is
 * stored in a u32 field and truncated there, as in the kernel. */
static uint32_t dim_div_round_up(uint64_t n, uint32_t d)
{
	return (uint32_t)((n + d - 1) / d);
}

bool dim_calc_stats(const struct dim_sample *start, const struct dim_sample *end,
		    struct dim_stats *out)
{
	int64_t delta_ns = end->t_ns - start->t_ns;
	/* lib/dim/dim.c: "u32 holds up to 71 minutes, should be enough";
	 * ktime_us_delta() truncates to whole microseconds. */
	uint32_t delta_us = delta_ns > 0 ? (uint32_t)(delta_ns / 1000) : 0;
	/* BIT_GAP(32, end, start): unsigned subtraction wraps mod 2^32. */
	uint32_t npkts = end->pkt_ctr - start->pkt_ctr;
	uint32_t nbytes = end->byte_ctr - start->byte_ctr;

	/* dim.c: no stats for a zero-length window.  A negative one (time
	 * went back: a caller bug) is refused too instead of wrapping. */
	if (delta_us == 0)
		return false;
	out->ppms = dim_div_round_up((uint64_t)npkts * DIM_USEC_PER_MSEC, delta_us);
	out->bpms = dim_div_round_up((uint64_t)nbytes * DIM_USEC_PER_MSEC, delta_us);
	/* dim.c takes the window's event count as exactly DIM_NEVENTS, even
	 * when the sample that closed it reports more. */
	out->epms = dim_div_round_up((uint64_t)DIM_NEVENTS * DIM_USEC_PER_MSEC, delta_us);
	return true;
}

/* include/linux/dim.h IS_SIGNIFICANT_DIFF(val, ref): ref != 0 and
 * 100 * |val - ref| / ref > 10, integer division (so exactly 10% is not
 * significant).  The kernel takes abs() of the u32 difference cast to int;
 * the two differ only for differences >= 2^31 per ms. */
static bool dim_significant(uint32_t val, uint32_t ref)
{
	uint64_t diff = val > ref ? val - ref : ref - val;

	return ref != 0 && (100u * diff) / ref > 10;
}

enum dim_cmp dim_stats_compare(const struct dim_stats *curr, const struct dim_stats *prev)
{
	/* net_dim_stats_compare(): throughput first ("ascribes importance to
	 * increase bandwidth over reducing interrupt rate", net_dim.rst). */
	if (prev->bpms == 0)
		return curr->bpms ? DIM_BETTER : DIM_SAME;
	if (dim_significant(curr->bpms, prev->bpms))
		return curr->bpms > prev->bpms ? DIM_BETTER : DIM_WORSE;
	if (prev->ppms == 0)
		return curr->ppms ? DIM_BETTER : DIM_SAME;
	if (dim_significant(curr->ppms, prev->ppms))
		return curr->ppms > prev->ppms ? DIM_BETTER : DIM_WORSE;
	if (prev->epms == 0)
		return DIM_SAME;
	/* Fewer events per ms for the same traffic is the goal. */
	if (dim_significant(curr->epms, prev->epms))
		return curr->epms < prev->epms ? DIM_BETTER : DIM_WORSE;
	return DIM_SAME;
}

/* net_dim_step(): move one index in the walking direction.  A parking
 * state does not move but still counts towards tired (exit_parking() sets a
 * direction first, so this only matters for the -Wswitch coverage). */
static enum dim_step_result dim_step(struct dim *d)
{
	if (d->tired == DIM_TIRED_MAX)
		return DIM_TOO_TIRED;
	switch (d->tune_state) {
	case DIM_PARKING_ON_TOP:
	case DIM_PARKING_TIRED:
		break;
	case DIM_GOING_RIGHT:
		if (d->profile_ix == DIM_NUM_PROFILES - 1)
			return DIM_ON_EDGE;
		d->profile_ix++;
		d->steps_right++;
		break;
	case DIM_GOING_LEFT:
		if (d->profile_ix == 0)
			return DIM_ON_EDGE;
		d->profile_ix--;
		d->steps_left++;
		break;
	}
	d->tired++;
	return DIM_STEPPED;
}

/* net_dim_exit_parking(): leave toward the only open side at index 0, else
 * try less moderation first. */
static void dim_exit_parking(struct dim *d)
{
	d->tune_state = d->profile_ix ? DIM_GOING_LEFT : DIM_GOING_RIGHT;
	dim_step(d);
}

/* include/linux/dim.h dim_turn(): reverse; the new direction's run
 * starts at 0 steps. */
static void dim_turn(struct dim *d)
{
	if (d->tune_state == DIM_GOING_RIGHT) {
		d->tune_state = DIM_GOING_LEFT;
		d->steps_left = 0;
	} else if (d->tune_state == DIM_GOING_LEFT) {
		d->tune_state = DIM_GOING_RIGHT;
		d->steps_right = 0;
	}
}

/* include/linux/dim.h dim_on_top(): after a run of >= 2 steps one way and
 * exactly one step back, the index before that step back was the top. */
static bool dim_on_top(const struct dim *d)
{
	if (d->tune_state == DIM_GOING_RIGHT)
		return d->steps_left > 1 && d->steps_right == 1;
	if (d->tune_state == DIM_GOING_LEFT)
		return d->steps_right > 1 && d->steps_left == 1;
	return true; /* parking states */
}

/* include/linux/dim.h dim_park_on_top(): a fresh start, tired cleared. */
static void dim_park_on_top(struct dim *d)
{
	d->steps_right = 0;
	d->steps_left = 0;
	d->tired = 0;
	d->tune_state = DIM_PARKING_ON_TOP;
}

/* include/linux/dim.h dim_park_tired(): tired stays at DIM_TIRED_MAX and
 * counts down one per window. */
static void dim_park_tired(struct dim *d)
{
	d->steps_right = 0;
	d->steps_left = 0;
	d->tune_state = DIM_PARKING_TIRED;
}

/* The GOING_RIGHT/GOING_LEFT branch of net_dim_decision(). */
static void dim_walk(struct dim *d, enum dim_cmp cmp)
{
	if (cmp != DIM_BETTER)
		dim_turn(d);
	if (dim_on_top(d)) {
		dim_park_on_top(d);
		return;
	}
	switch (dim_step(d)) {
	case DIM_STEPPED:
		break;
	case DIM_ON_EDGE:
		dim_park_on_top(d);
		break;
	case DIM_TOO_TIRED:
		dim_park_tired(d);
		break;
	}
}

/* net_dim_decision(): the tuning state machine, one window at a time. */
static void dim_decision(struct dim *d, const struct dim_stats *curr, struct dim_result *r)
{
	enum dim_tune_state prev_state = d->tune_state;
	uint8_t prev_ix = d->profile_ix;

	switch (d->tune_state) {
	case DIM_PARKING_ON_TOP:
		r->compared = true;
		r->cmp = dim_stats_compare(curr, &d->prev_stats);
		if (r->cmp != DIM_SAME)
			dim_exit_parking(d);
		break;
	case DIM_PARKING_TIRED:
		if (--d->tired == 0)
			dim_exit_parking(d);
		break;
	case DIM_GOING_RIGHT:
	case DIM_GOING_LEFT:
		r->compared = true;
		r->cmp = dim_stats_compare(curr, &d->prev_stats);
		dim_walk(d, r->cmp);
		break;
	}
	/* A DIM parked on top before and after keeps comparing against the
	 * stats of the window in which it parked. */
	if (prev_state != DIM_PARKING_ON_TOP || d->tune_state != DIM_PARKING_ON_TOP)
		d->prev_stats = *curr;
	r->decided = true;
	r->changed = d->profile_ix != prev_ix;
	d->decisions++;
	d->profile_changes += r->changed;
}

/* MEASURE_IN_PROGRESS: decide once the window holds DIM_NEVENTS events.
 * Returns true when the window restarts at @s (no move). */
static bool dim_measure(struct dim *d, const struct dim_sample *s, struct dim_result *r)
{
	/* BIT_GAP(16, end, start): the event counter wraps mod 2^16. */
	uint16_t nevents = (uint16_t)(s->event_ctr - d->start_sample.event_ctr);
	struct dim_stats curr;

	if (nevents < DIM_NEVENTS)
		return false;
	/* net_dim(): no stats, no decision, and the window is kept. */
	if (!dim_calc_stats(&d->start_sample, s, &curr))
		return false;
	dim_decision(d, &curr, r);
	if (r->changed) {
		/* The kernel schedules dim->work here; the caller does. */
		d->state = DIM_APPLY_NEW_PROFILE;
		return false;
	}
	return true;
}

void dim_init(struct dim *d, uint8_t start_ix)
{
	memset(d, 0, sizeof(*d));
	d->profile_ix = start_ix < DIM_NUM_PROFILES ? start_ix : DIM_NUM_PROFILES - 1;
}

struct dim_result net_dim(struct dim *d, const struct dim_sample *s)
{
	struct dim_result r = { .cmp = DIM_SAME };
	bool restart = false;

	switch (d->state) {
	case DIM_START_MEASURE:
		restart = true;
		break;
	case DIM_MEASURE_IN_PROGRESS:
		restart = dim_measure(d, s, &r);
		break;
	case DIM_APPLY_NEW_PROFILE:
		break;
	}
	if (restart) {
		/* dim_update_sample(): the kernel stamps ktime_get() at this
		 * point, which in a pure model is the sample's own time. */
		d->start_sample = *s;
		d->state = DIM_MEASURE_IN_PROGRESS;
	}
	r.profile_ix = d->profile_ix;
	return r;
}

void dim_applied(struct dim *d)
{
	d->state = DIM_START_MEASURE;
}

/* lib/dim/net_dim.c rx_profile[] / tx_profile[] (NET_DIM_RX_EQE_PROFILES
 * etc.), {usec, pkts}; NET_DIM_DEFAULT_RX_CQ_PKTS_FROM_EQE = 256,
 * NET_DIM_DEFAULT_TX_CQ_PKTS_FROM_EQE = 128. */
static const struct dim_profile dim_profiles[4][DIM_NUM_PROFILES] = {
	[DIM_RX_EQE] = { { 1, 256 }, { 8, 256 }, { 64, 256 }, { 128, 256 }, { 256, 256 } },
	[DIM_RX_CQE] = { { 2, 256 }, { 8, 128 }, { 16, 64 }, { 32, 64 }, { 64, 64 } },
	[DIM_TX_EQE] = { { 1, 128 }, { 8, 128 }, { 32, 128 }, { 64, 128 }, { 128, 128 } },
	[DIM_TX_CQE] = { { 5, 128 }, { 8, 64 }, { 16, 32 }, { 32, 32 }, { 64, 32 } },
};

const struct dim_profile *dim_profile(enum dim_table t, uint8_t ix)
{
	if ((unsigned)t >= 4 || ix >= DIM_NUM_PROFILES)
		return NULL;
	return &dim_profiles[t][ix];
}
