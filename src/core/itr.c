/* itr.c - Intel e1000 InterruptThrottleRate (see include/rxlab/itr.h).
 *
 * Roadmap:
 *   itr_from_param(), itr_from_ethtool_rx_usecs()   user input -> mode
 *   itr_init()                                      e1000_check_options()
 *   itr_update_class() + itr_from_*() helpers       e1000_update_itr() (one switch)
 *   itr_target(), itr_smooth(), itr_on_irq_done()   e1000_set_itr()
 *   itr_simplified(), itr_on_watchdog()             e1000_watchdog() mode 4
 *   itr_reg_from_rate(), itr_gap_ns()               the register
 *
 * Pure: no libc beyond what the compiler emits.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rxlab/itr.h"

/* ---- configuration --------------------------------------------------- */

/* e1000_param.c: the switch on InterruptThrottleRate[bd]. */
int itr_from_param(uint32_t v, struct itr_config *out, const char **why)
{
	struct itr_config c = { .mode = ITR_OFF, .fixed_rate = 0 };

	if (v == 0 || v == 1 || v == 3 || v == 4) {
		c.mode = (enum itr_mode)v;
	} else if (v >= ITR_MIN_RATE && v <= ITR_MAX_RATE) {
		/* "clear the lower two bits because they are used as control" */
		c.mode = ITR_FIXED;
		c.fixed_rate = v & ~3u;
	} else {
		*why = "InterruptThrottleRate must be 0 (off), 1 (dynamic), 3 (dynamic "
		       "conservative), 4 (simplified) or 100..100000 ints/s";
		return -1;
	}
	*out = c;
	return 0;
}

/* e1000_ethtool.c e1000_set_coalesce(): the range check, then 4 before
 * <= 3 before the fixed rate. */
int itr_from_ethtool_rx_usecs(uint32_t us, struct itr_config *out, const char **why)
{
	struct itr_config c = { .mode = ITR_OFF, .fixed_rate = 0 };

	if (us > ITR_MAX_USECS || (us > 4 && us < ITR_MIN_USECS) || us == 2) {
		*why = "rx-usecs must be 0 (off), 1 (dynamic), 3 (dynamic conservative), "
		       "4 (simplified) or 10..10000 us";
		return -1;
	}
	if (us <= 4) {
		c.mode = (enum itr_mode)us;
	} else {
		/* adapter->itr = 1000000 / rx_usecs; the register is written
		 * from this value, not from itr_setting = itr & ~3. */
		c.mode = ITR_FIXED;
		c.fixed_rate = 1000000u / us;
	}
	*out = c;
	return 0;
}

/* The rate a mode starts with.  Mode 4: the kernel leaves adapter->itr at 4
 * and e1000_configure_rx() writes 1e9 / (4 * 256), which overflows the
 * 16-bit field, until the first watchdog run; that run follows link-up
 * (e1000_intr() schedules it on LSC) before traffic, where the formula gives
 * 8000.  rxlab starts at 8000 instead of modelling the overflow. */
static uint32_t itr_initial_rate(const struct itr_config *cfg)
{
	switch (cfg->mode) {
	case ITR_OFF:
		return 0;
	case ITR_DYNAMIC:
	case ITR_DYNAMIC_CONSERVATIVE:
		return ITR_RATE_LOW;
	case ITR_SIMPLIFIED:
		return ITR_SIMPLE_MAX;
	case ITR_FIXED:
		return cfg->fixed_rate;
	}
	return 0;
}

void itr_init(struct itr *t, const struct itr_config *cfg, uint32_t link_mbps)
{
	memset(t, 0, sizeof(*t));
	t->mode = cfg->mode;
	t->fixed_rate = cfg->mode == ITR_FIXED ? cfg->fixed_rate : 0;
	t->itr = itr_initial_rate(cfg);
	t->rx_class = ITR_LOWEST_LATENCY;
	t->tx_class = ITR_LOWEST_LATENCY;
	t->link_mbps = link_mbps;
	t->mac_is_82540_or_later = true;
}

/* ---- e1000_update_itr() ---------------------------------------------- */

/* From lowest_latency. */
static enum itr_class itr_from_lowest(uint32_t packets, uint32_t bytes)
{
	/* "jumbo frames get bulk treatment" */
	if (bytes / packets > 8000)
		return ITR_BULK_LATENCY;
	if (packets < 5 && bytes > 512)
		return ITR_LOW_LATENCY;
	return ITR_LOWEST_LATENCY;
}

/* From low_latency, "50 usec aka 20000 ints/s". */
static enum itr_class itr_from_low(uint32_t packets, uint32_t bytes)
{
	if (bytes > 10000) {
		/* "jumbo frames need bulk latency setting" */
		if (bytes / packets > 8000)
			return ITR_BULK_LATENCY;
		if (packets < 10 || bytes / packets > 1200)
			return ITR_BULK_LATENCY;
		if (packets > 35)
			return ITR_LOWEST_LATENCY;
		return ITR_LOW_LATENCY;
	}
	if (bytes / packets > 2000)
		return ITR_BULK_LATENCY;
	if (packets <= 2 && bytes < 512)
		return ITR_LOWEST_LATENCY;
	return ITR_LOW_LATENCY;
}

/* From bulk_latency, "250 usec aka 4000 ints/s". */
static enum itr_class itr_from_bulk(uint32_t packets, uint32_t bytes)
{
	if (bytes > 25000)
		return packets > 35 ? ITR_LOW_LATENCY : ITR_BULK_LATENCY;
	if (bytes < 6000)
		return ITR_LOW_LATENCY;
	return ITR_BULK_LATENCY;
}

/* The kernel takes int packets, int bytes; rxlab's u32 agree below 2^31. */
enum itr_class itr_update_class(enum itr_class cur, uint32_t packets, uint32_t bytes)
{
	if (packets == 0)
		return cur;
	switch (cur) {
	case ITR_LOWEST_LATENCY:
		return itr_from_lowest(packets, bytes);
	case ITR_LOW_LATENCY:
		return itr_from_low(packets, bytes);
	case ITR_BULK_LATENCY:
		return itr_from_bulk(packets, bytes);
	}
	return cur;
}

/* ---- e1000_set_itr() ------------------------------------------------- */

/* "conservative mode (itr 3) eliminates the lowest_latency setting" */
static enum itr_class itr_conservative(const struct itr *t, enum itr_class c)
{
	if (t->mode == ITR_DYNAMIC_CONSERVATIVE && c == ITR_LOWEST_LATENCY)
		return ITR_LOW_LATENCY;
	return c;
}

uint32_t itr_class_rate(enum itr_class c)
{
	switch (c) {
	case ITR_LOWEST_LATENCY:
		return ITR_RATE_LOWEST;
	case ITR_LOW_LATENCY:
		return ITR_RATE_LOW;
	case ITR_BULK_LATENCY:
		return ITR_RATE_BULK;
	}
	return ITR_RATE_BULK;
}

/* Both directions, TX first as in the kernel (the order does not matter:
 * each direction only sees its own counters). */
static uint32_t itr_classify(struct itr *t, uint32_t rx_packets, uint32_t rx_bytes,
			     uint32_t tx_packets, uint32_t tx_bytes)
{
	enum itr_class cur;

	t->tx_class = itr_conservative(t, itr_update_class(t->tx_class, tx_packets, tx_bytes));
	t->rx_class = itr_conservative(t, itr_update_class(t->rx_class, rx_packets, rx_bytes));
	/* max(): the more moderated class wins. */
	cur = t->rx_class > t->tx_class ? t->rx_class : t->tx_class;
	t->by_class[cur]++;
	return itr_class_rate(cur);
}

/* "bias the interrupt rate towards Bulk by adding intermediate steps when
 * interrupt rate is increasing": up by target/4 (target >> 2) at most,
 * down at once. */
static uint32_t itr_smooth(uint32_t itr, uint32_t target)
{
	uint32_t step;

	if (target <= itr)
		return target;
	step = itr + (target >> 2);
	return step < target ? step : target;
}

static struct itr_decision itr_decision_of(const struct itr *t, enum itr_outcome o, bool changed)
{
	struct itr_decision d;

	d.outcome = o;
	d.changed = changed;
	d.itr = t->itr;
	/* 82542/3/4 have no ITR register (e1000_configure_rx() writes it
	 * only on 82540+): no throttling, whatever itr says. */
	d.reg = t->mac_is_82540_or_later ? itr_reg_from_rate(t->itr) : 0;
	d.gap_ns = itr_gap_ns(d.reg);
	return d;
}

/* Move itr toward @target; returns whether it moved. */
static bool itr_apply(struct itr *t, uint32_t target)
{
	uint32_t next;

	if (target == t->itr)
		return false;
	next = itr_smooth(t->itr, target);
	t->ramp_steps += next < target;
	t->itr = next;
	t->changes++;
	return true;
}

struct itr_decision itr_on_irq_done(struct itr *t, uint32_t rx_packets, uint32_t rx_bytes,
				    uint32_t tx_packets, uint32_t tx_bytes)
{
	uint32_t target;

	/* e1000_clean(): "if (likely(adapter->itr_setting & 3))".  Fixed
	 * rates have those bits cleared, so only modes 1 and 3 get here. */
	if (t->mode != ITR_DYNAMIC && t->mode != ITR_DYNAMIC_CONSERVATIVE)
		return itr_decision_of(t, ITR_NOT_DYNAMIC, false);
	if (!t->mac_is_82540_or_later)
		return itr_decision_of(t, ITR_OLD_MAC, false);
	t->updates++;
	/* "for non-gigabit speeds, just fix the interrupt rate at 4000";
	 * it still goes through the smoothing (set_itr_now). */
	if (t->link_mbps != 1000) {
		bool moved = itr_apply(t, ITR_RATE_BULK);

		return itr_decision_of(t, ITR_LINK_NOT_1000, moved);
	}
	target = itr_classify(t, rx_packets, rx_bytes, tx_packets, tx_bytes);
	return itr_decision_of(t, ITR_CLASSIFIED, itr_apply(t, target));
}

/* ---- simplified mode (e1000_watchdog()) ------------------------------ */

/* The kernel computes goc, dif and dif * 6000 in u32; rxlab uses 64 bits,
 * which agrees while dif * 6000 < 2^32 (about 7 GB per watchdog run, far
 * above a gigabit link's 500 MB per 2 s). */
uint32_t itr_simplified(uint64_t gotcl, uint64_t gorcl)
{
	uint64_t goc = (gotcl + gorcl) / 10000;
	uint64_t dif = (gotcl > gorcl ? gotcl - gorcl : gorcl - gotcl) / 10000;

	if (goc == 0)
		return ITR_SIMPLE_MAX;
	return (uint32_t)(dif * 6000 / goc + ITR_SIMPLE_MIN);
}

/* The kernel writes the register every run without updating
 * adapter->itr; rxlab keeps the rate in itr so that decisions report it. */
struct itr_decision itr_on_watchdog(struct itr *t, uint64_t gotcl, uint64_t gorcl)
{
	uint32_t rate;
	bool moved;

	if (t->mode != ITR_SIMPLIFIED)
		return itr_decision_of(t, ITR_NOT_DYNAMIC, false);
	if (!t->mac_is_82540_or_later)
		return itr_decision_of(t, ITR_OLD_MAC, false);
	t->updates++;
	rate = itr_simplified(gotcl, gorcl);
	moved = rate != t->itr;
	t->changes += moved;
	t->itr = rate;
	return itr_decision_of(t, ITR_CLASSIFIED, moved);
}

/* ---- the register ---------------------------------------------------- */

/* ew32(ITR, 1000000000 / (new_itr * 256)); in 64 bits so that no rate
 * overflows the product. */
uint32_t itr_reg_from_rate(uint32_t ints_per_s)
{
	if (ints_per_s == 0)
		return 0;
	return (uint32_t)(1000000000ull / ((uint64_t)ints_per_s * ITR_UNIT_NS));
}

int64_t itr_gap_ns(uint32_t reg)
{
	return (int64_t)reg * ITR_UNIT_NS;
}
