/* modes_baseline.c - receive loops that users pick today, run from their
 * documented rules (rxlab/poll_rules.h): DPDK l3fwd-power, ixy, Seastar. */
#define _GNU_SOURCE
#include "live/loop_impl.h"
#include "rxlab/poll_rules.h"

/* Apply a rule's answer; counts a switch between polling and sleeping. */
static void apply(struct rxl_loop *l, enum rule_action a, enum rule_action *prev,
		  int64_t pause_ns)
{
	if ((a == RULE_SLEEP) != (*prev == RULE_SLEEP))
		rxl_count_switch(l);
	*prev = a;
	if (a == RULE_PAUSE)
		rxl_pause(l, pause_ns);
	else if (a == RULE_SLEEP)
		rxl_wait_ready(l, -1);
}

int rxl_mode_dpdk_power(struct rxl_loop *l)
{
	struct dpdk_power d;
	dpdk_power_init(&d, l->cfg.dpdk_pause_polls, l->cfg.dpdk_sleep_polls);
	enum rule_action prev = RULE_POLL;
	while (!rxl_done(l)) {
		uint32_t n = rxl_poll(l, l->cfg.budget);
		apply(l, dpdk_power_after_poll(&d, n), &prev, (int64_t)l->cfg.dpdk_pause_ns);
	}
	return 0;
}

/* ixy rx_batch(): with interrupts enabled, wait for one before the batch. */
int rxl_mode_ixy(struct rxl_loop *l)
{
	struct ixy_rule x;
	ixy_rule_init(&x, l->cfg.ixy_samples, l->cfg.ixy_threshold_pps / 1000,
		      (int64_t)l->cfg.ixy_interval_ns, rxl_now());
	enum rule_action prev = RULE_SLEEP;
	while (!rxl_done(l)) {
		if (x.interrupt_enabled && rxl_wait_ready(l, -1) == RXL_WAKE_STOP)
			break;
		uint32_t n = rxl_poll(l, l->cfg.budget);
		enum rule_action a = ixy_rule_after_poll(&x, rxl_now(), n, l->cfg.budget);
		if (a != prev)
			rxl_count_switch(l);
		prev = a;
	}
	return 0;
}

int rxl_mode_seastar(struct rxl_loop *l)
{
	struct seastar_rule s;
	seastar_rule_init(&s, (int64_t)l->cfg.seastar_idle_poll_ns, rxl_now());
	enum rule_action prev = RULE_POLL;
	while (!rxl_done(l)) {
		uint32_t n = rxl_poll(l, l->cfg.budget);
		enum rule_action a = seastar_rule_after_poll(&s, rxl_now(), n);
		apply(l, a, &prev, 0);
		if (a == RULE_SLEEP)
			seastar_rule_woken(&s, rxl_now());
	}
	return 0;
}
