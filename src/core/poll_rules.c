/* poll_rules.c - DPDK l3fwd-power, ixy and Seastar poll/sleep rules, and
 * the NAPI drivers' poll-exit rules (see poll_rules.h for the sources of
 * every constant and rule). */
#include "rxlab/poll_rules.h"

void dpdk_power_init(struct dpdk_power *d, uint32_t pause_polls, uint32_t sleep_polls)
{
	d->pause_polls = pause_polls;
	d->sleep_polls = sleep_polls;
	d->zero_polls = 0;
	d->pauses = 0;
	d->sleeps = 0;
}

enum rule_action dpdk_power_after_poll(struct dpdk_power *d, uint32_t n)
{
	if (n > 0) {
		d->zero_polls = 0;
		return RULE_POLL;
	}
	d->zero_polls++;
	if (d->zero_polls <= d->pause_polls)
		return RULE_POLL;
	if (d->zero_polls < d->sleep_polls) {
		d->pauses++;
		return RULE_PAUSE;
	}
	d->zero_polls = 0;
	d->sleeps++;
	return RULE_SLEEP;
}

void ixy_rule_init(struct ixy_rule *x, uint32_t samples, uint64_t threshold_ppms,
		   int64_t interval_ns, int64_t t0_ns)
{
	if (samples < 1)
		samples = 1;
	if (samples > IXY_MAX_SAMPLES)
		samples = IXY_MAX_SAMPLES;
	x->samples = samples;
	x->threshold_ppms = threshold_ppms;
	x->interval_ns = interval_ns > 0 ? interval_ns : IXY_INTERVAL_NS;
	x->interrupt_enabled = true;
	x->t_checked_ns = t0_ns;
	x->rx_pkts = 0;
	x->index = 0;
	x->length = 0;
	x->sum = 0;
	for (uint32_t i = 0; i < IXY_MAX_SAMPLES; i++)
		x->rates[i] = 0;
	x->checks = 0;
}

/* check_interrupt(): one rate sample into the moving average, then the decision. */
static void ixy_check(struct ixy_rule *x, int64_t diff_ns, bool batch_full)
{
	uint64_t ms = (uint64_t)diff_ns / 1000000u;
	uint64_t rate = ms ? x->rx_pkts / ms : 0;
	x->sum -= x->rates[x->index];
	x->rates[x->index] = rate;
	x->sum += rate;
	if (x->length < x->samples)
		x->length++;
	x->index = (x->index + 1) % x->samples;
	x->rx_pkts = 0;
	uint64_t mean = x->sum / x->length;
	x->interrupt_enabled = !(mean > x->threshold_ppms || batch_full);
	x->checks++;
}

enum rule_action ixy_rule_after_poll(struct ixy_rule *x, int64_t now_ns, uint32_t n,
				     uint32_t budget)
{
	x->rx_pkts += n;
	int64_t diff = now_ns - x->t_checked_ns;
	if (diff > x->interval_ns) {
		ixy_check(x, diff, n == budget);
		x->t_checked_ns = now_ns;
	}
	return x->interrupt_enabled ? RULE_SLEEP : RULE_POLL;
}

void seastar_rule_init(struct seastar_rule *s, int64_t idle_poll_ns, int64_t t0_ns)
{
	s->idle_poll_ns = idle_poll_ns;
	s->t_last_work_ns = t0_ns;
	s->sleeps = 0;
}

void seastar_rule_woken(struct seastar_rule *s, int64_t now_ns)
{
	s->t_last_work_ns = now_ns;
}

enum rule_action seastar_rule_after_poll(struct seastar_rule *s, int64_t now_ns, uint32_t n)
{
	if (n > 0)
		s->t_last_work_ns = now_ns;
	if (now_ns - s->t_last_work_ns < s->idle_poll_ns)
		return RULE_POLL;
	s->sleeps++;
	return RULE_SLEEP;
}

enum rule_action napi_exit_after_poll(enum napi_exit_rule r, uint32_t rx, uint32_t tx,
				      uint32_t limit)
{
	if (rx >= limit)
		return RULE_POLL;
	switch (r) {
	case NAPI_EXIT_BUDGET:
		break;
	case NAPI_EXIT_IDLE:
		/* e100_poll(): "if ((!tx_cleaned && (work_done == 0)) ||
		 * !netif_running(netdev)) { netif_rx_complete(netdev);
		 * e100_enable_irq(nic); return 0; } ... return 1;" */
		if (rx > 0 || tx > 0)
			return RULE_POLL;
		break;
	}
	return RULE_SLEEP;
}
