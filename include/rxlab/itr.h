/* itr.h - Intel e1000 InterruptThrottleRate, static and dynamic ITR
 * (pure; no OS, no clock).
 *
 * A re-implementation of the ITR logic of
 * drivers/net/ethernet/intel/e1000/e1000_main.c (e1000_update_itr(),
 * e1000_set_itr(), the simplified branch of e1000_watchdog()),
 * e1000_param.c (InterruptThrottleRate) and e1000_ethtool.c
 * (e1000_set_coalesce()), Linux v6.18.
 *
 * The ITR register holds the minimum interval between two interrupts in
 * 256 ns units (8254x SDM p.291, INTERVAL bits 15:0, 0 = no throttling); the
 * driver thinks in interrupts per second and writes 1e9 / (itr * 256).  In
 * rxlab the register becomes coalesce.h's min_gap_ns = register * 256.
 *
 * Calling convention (e1000_intr() zeroes total_{rx,tx}_{packets,bytes}
 * when it schedules NAPI; e1000_clean() calls e1000_set_itr() when a poll
 * completes under budget):
 *
 *   itr_init(&t, &cfg, 1000);
 *   ...per interrupt, once its NAPI cycle completes, with the packets and
 *      bytes cleaned in that whole cycle:
 *   d = itr_on_irq_done(&t, rx_pkts, rx_bytes, tx_pkts, tx_bytes);
 *   if (d.changed) ...set min_gap_ns = d.gap_ns...
 *   ...every watchdog run (2 s), mode ITR_SIMPLIFIED only:
 *   d = itr_on_watchdog(&t, gotcl_delta, gorcl_delta);
 *
 * One state enum: enum itr_class, the latency class of each direction.
 */
#ifndef RXLAB_RXLAB_ITR_H
#define RXLAB_RXLAB_ITR_H

#include <stdbool.h>
#include <stdint.h>

/* e1000_param.c MIN_ITR / MAX_ITR: fixed rates, ints/s. */
#define ITR_MIN_RATE 100u
#define ITR_MAX_RATE 100000u
/* e1000.h E1000_MIN_ITR_USECS / E1000_MAX_ITR_USECS: ethtool rx-usecs. */
#define ITR_MIN_USECS 10u
#define ITR_MAX_USECS 10000u
/* e1000_set_itr(): targets per class, ints/s. */
#define ITR_RATE_LOWEST 70000u
#define ITR_RATE_LOW 20000u   /* "50 usec aka 20000 ints/s"; also the initial rate */
#define ITR_RATE_BULK 4000u   /* "250 usec aka 4000 ints/s"; also the non-gigabit rate */
/* e1000_watchdog(): simplified mode bounds, ints/s. */
#define ITR_SIMPLE_MIN 2000u
#define ITR_SIMPLE_MAX 8000u
/* 8254x SDM p.291: the register counts 256 ns units. */
#define ITR_UNIT_NS 256

/* e1000.h enum latency_range: the state of one direction.  Ordered so that
 * max() picks the more moderated class. */
enum itr_class {
	ITR_LOWEST_LATENCY = 0, /* target 70000 ints/s */
	ITR_LOW_LATENCY = 1,    /* target 20000 ints/s */
	ITR_BULK_LATENCY = 2,   /* target 4000 ints/s */
};

/* adapter->itr_setting, by meaning.  The numbers are the module parameter
 * values that select the mode (ITR_FIXED stands for 100..100000). */
enum itr_mode {
	ITR_OFF = 0,                  /* register 0: no throttling */
	ITR_DYNAMIC = 1,              /* classes, up to 70000 ints/s */
	ITR_DYNAMIC_CONSERVATIVE = 3, /* classes, lowest promoted to low (default) */
	ITR_SIMPLIFIED = 4,           /* 2000..8000 ints/s from the TX/RX byte ratio */
	ITR_FIXED = 5,                /* a fixed rate (not a kernel value) */
};

/* The module default, e1000_param.c DEFAULT_ITR. */
#define ITR_DEFAULT_MODE ITR_DYNAMIC_CONSERVATIVE

/* A parsed InterruptThrottleRate or ethtool rx-usecs. */
struct itr_config {
	enum itr_mode mode;
	uint32_t fixed_rate;   /* ints/s, ITR_FIXED only (100..100000), else 0 */
};

/* How the last itr_on_irq_done() went (e1000_set_itr()'s early exits). */
enum itr_outcome {
	ITR_NOT_DYNAMIC = 0,   /* mode is not 1 or 3: e1000_clean() skips e1000_set_itr() */
	ITR_OLD_MAC,           /* 82542/3/4: no ITR register, nothing changes */
	ITR_LINK_NOT_1000,     /* link speed != 1000 Mb/s: target 4000, classes untouched */
	ITR_CLASSIFIED,        /* classes updated, target from max(rx_class, tx_class) */
};

/* Invariants: itr == 0 exactly when mode == ITR_OFF; in the dynamic modes
 * itr is in [ITR_RATE_BULK, ITR_RATE_LOWEST] (ITR_RATE_LOW at most in mode 3,
 * and at most ITR_RATE_BULK once a non-gigabit link was seen, until the
 * link is back at 1000); in ITR_FIXED itr == fixed_rate; in ITR_SIMPLIFIED
 * itr is in [ITR_SIMPLE_MIN, ITR_SIMPLE_MAX].  rx_class and tx_class move
 * only in the dynamic modes and never hold ITR_LOWEST_LATENCY in mode 3.
 *
 * The caller may change link_mbps (link change, 0 = down) and
 * mac_is_82540_or_later between calls. */
struct itr {
	enum itr_mode mode;
	uint32_t fixed_rate;        /* ints/s, ITR_FIXED only */
	uint32_t itr;               /* current rate, ints/s (adapter->itr); 0 = off */
	enum itr_class rx_class;    /* adapter->rx_itr */
	enum itr_class tx_class;    /* adapter->tx_itr */
	uint32_t link_mbps;         /* adapter->link_speed, Mb/s */
	bool mac_is_82540_or_later; /* hw->mac_type >= e1000_82540; itr_init() sets true */
	/* counters */
	uint64_t updates;           /* itr_on_irq_done() calls that reached e1000_set_itr() */
	uint64_t changes;           /* calls that moved itr (ITR register written) */
	uint64_t ramp_steps;        /* of those, rising moves that stopped short of the target */
	uint64_t by_class[3];       /* ITR_CLASSIFIED updates per max(rx_class, tx_class) */
};

/* What itr_on_irq_done() / itr_on_watchdog() decided. */
struct itr_decision {
	enum itr_outcome outcome;
	bool changed;               /* itr moved: write reg / set the gap */
	uint32_t itr;               /* rate after the call, ints/s; 0 = off */
	uint32_t reg;               /* ITR register value, 256 ns units; 0 = no throttling
	                               (always 0 when !mac_is_82540_or_later) */
	int64_t gap_ns;             /* minimum inter-interrupt gap, reg * 256 ns */
};

/* e1000_param.c InterruptThrottleRate: 0 off, 1 dynamic, 3 dynamic
 * conservative, 4 simplified, 100..100000 a fixed rate of value & ~3 (the low
 * two bits are the driver's control bits).  Returns 0, or -1 with *why set to
 * a static message naming the accepted values and @out untouched.  The
 * kernel instead logs "using default of 3" for 2, 5..99 and > 100000 (and,
 * through `3 & ~3`, actually ends up with moderation off); rxlab refuses. */
int itr_from_param(uint32_t InterruptThrottleRate, struct itr_config *out, const char **why);

/* e1000_ethtool.c e1000_set_coalesce() rx-usecs: 0 off, 1 / 3 dynamic, 4
 * simplified, 10..10000 us a fixed rate of 1000000 / rx_usecs ints/s
 * (truncated).  2, 5..9 and > 10000 return -1 (-EINVAL in the kernel) with
 * *why set.  The kernel requires an 82545 or later here (-EOPNOTSUPP). */
int itr_from_ethtool_rx_usecs(uint32_t rx_usecs, struct itr_config *out, const char **why);

/* State after e1000_check_options() / e1000_configure_rx(): itr = 20000
 * in modes 1 and 3, fixed_rate in ITR_FIXED, 0 when off, ITR_SIMPLE_MAX in
 * ITR_SIMPLIFIED (see itr_on_watchdog()); both classes ITR_LOWEST_LATENCY
 * (0: the adapter is zero-allocated and nothing sets rx_itr / tx_itr);
 * mac_is_82540_or_later true; counters zero. */
void itr_init(struct itr *t, const struct itr_config *cfg, uint32_t link_mbps);

/* e1000_update_itr(): the next class of one direction from the packets and
 * bytes of one interrupt cycle.  packets == 0 keeps @cur. */
enum itr_class itr_update_class(enum itr_class cur, uint32_t packets, uint32_t bytes);

/* e1000_set_itr() after a completed NAPI cycle (see struct itr_decision and
 * enum itr_outcome).  Rising rates move by at most target/4 per call;
 * falling rates apply at once. */
struct itr_decision itr_on_irq_done(struct itr *t, uint32_t rx_packets, uint32_t rx_bytes,
				    uint32_t tx_packets, uint32_t tx_bytes);

/* e1000_watchdog() simplified mode: @gotcl / @gorcl are the good octets
 * transmitted / received since the previous watchdog run.  In
 * ITR_SIMPLIFIED on an 82540+ sets itr = itr_simplified() and reports it
 * (outcome ITR_CLASSIFIED); otherwise changes nothing (ITR_NOT_DYNAMIC or
 * ITR_OLD_MAC). */
struct itr_decision itr_on_watchdog(struct itr *t, uint64_t gotcl, uint64_t gorcl);

/* The interrupt rate e1000_set_itr() aims at for latency class @c:
 * 70000, 20000 or 4000 ints/s (ITR_RATE_*). */
uint32_t itr_class_rate(enum itr_class c);

/* The simplified-mode formula: goc = (gotcl + gorcl) / 10000,
 * dif = |gotcl - gorcl| / 10000, rate = goc ? dif * 6000 / goc + 2000 : 8000
 * ints/s.  Symmetric traffic gives 2000, one-way traffic 8000. */
uint32_t itr_simplified(uint64_t gotcl, uint64_t gorcl);

/* The register value the driver writes: 1000000000 / (ints_per_s * 256),
 * truncated; 0 for 0 (off).  Rates below 60 give values above 0xffff that
 * do not fit the 16-bit field; no valid configuration produces them. */
uint32_t itr_reg_from_rate(uint32_t ints_per_s);

/* Minimum gap of register value @reg: reg * 256 ns (0 = none). */
int64_t itr_gap_ns(uint32_t reg);

#endif
