/* profile.h - per-machine cost table used by the simulator.
 *
 * A profile is named for the machine it models (profiles/NAME.ini).  Every
 * cost is CPU time in nanoseconds spent by the host for one occurrence of
 * the thing named; *_per_byte costs are in picoseconds per byte so that
 * frame-size dependent work (DMA, copies) is modelled apart from per-packet
 * work.  Each profile file says which published figures calibrated which
 * cost.
 */
#ifndef RXLAB_RXLAB_PROFILE_H
#define RXLAB_RXLAB_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

/* Idle states a profile may list (intel_idle's tables have at most 6 with
 * POLL; cpuidle allows CPUIDLE_STATE_MAX = 10). */
#define PROFILE_MAX_CSTATES 10

struct profile {
	char name[64];
	/* Interrupt delivery. */
	int64_t irq_entry_ns;     /* irq-entry: vector entry + exit, irq_exit bookkeeping */
	int64_t isr_ns;           /* isr: driver ISR fixed part (cause register read, mask/ack) */
	int64_t reg_read_ns;      /* reg-read: one device register read across the bus */
	/* Receive. */
	int64_t rx_pkt_ns;        /* rx-pkt: driver work per received frame (descriptor, skb) */
	int64_t netif_rx_ns;      /* netif-rx: enqueue to the per-CPU backlog (classic ISR) */
	int64_t backlog_pkt_ns;   /* backlog-pkt: dequeue from the backlog in process_backlog */
	int64_t napi_poll_ns;     /* napi-poll: fixed cost of one ->poll() call */
	int64_t softirq_entry_ns; /* softirq-entry: one __do_softirq pass overhead */
	int64_t dma_fixed_ns;     /* dma-fixed: NIC to host-memory latency, fixed part */
	int64_t dma_ps_per_byte;  /* dma-per-byte: bus time per byte (ps) */
	/* Forwarding and transmit. */
	int64_t fwd_pkt_ns;       /* fwd-pkt: IP forward decision + qdisc + xmit per frame */
	int64_t copy_ps_per_byte; /* copy-per-byte: CPU time per byte touched (ps) */
	int64_t tx_clean_pkt_ns;  /* tx-clean-pkt: free one transmitted descriptor + skb */
	int64_t skb_alloc_ns;     /* skb-alloc: slab allocation and later free of one RX
	                           * sk_buff, the work recycling saves (0: in rx-pkt) */
	int64_t remote_free_ns;   /* remote-free: extra cost of freeing an sk_buff that
	                           * another CPU allocated (cache lines it must pull) */
	int64_t xmit_locked_ns;   /* xmit-locked: the part of fwd-pkt done under the
	                           * device's xmit lock (serialised across CPUs) */
	/* Local delivery and applications. */
	int64_t local_deliver_ns; /* local-deliver: ip_rcv + udp_rcv + socket enqueue, per frame */
	int64_t syscall_ns;       /* syscall: one recvmsg/sendmsg entry, exit and bookkeeping */
	/* Scheduling. */
	int64_t ctx_switch_ns;    /* ctx-switch: one context switch */
	int64_t idle_exit_ns;     /* idle-exit: an idle CPU leaving its idle state for an
	                           * interrupt or a wake-up from another CPU (cpuidle exit,
	                           * on a virtual machine the halt exit), CPU time; with a
	                           * [cstates] table it is 0 and each state has its own */
	int64_t sched_wake_ns;    /* sched-wake (optional, default 0): a thread woken from
	                           * another CPU becomes runnable there this long after the
	                           * wake-up (the IPI of ttwu_queue_wakelist and the target's
	                           * scheduler getting to it); latency, not CPU time */
	/* The NAPI hrtimer (optional). */
	int64_t hrtimer_irq_ns;   /* hrtimer-irq: the interrupt of a NAPI hrtimer
	                           * (gro_flush_timeout, irq-suspend-timeout): its entry and
	                           * napi_watchdog(), on a virtual machine the timer's
	                           * programming and delivery too; when the file does not
	                           * give it, irq-entry (the loader copies it) */
	/* Cold wake-ups (optional, default 0: off). */
	int64_t cold_wake_ns;     /* cold-wake: CPU time the first work after a long idle
	                           * period costs beyond a warm one (caches and TLB refilled;
	                           * on a virtual machine the vCPU resumed after the host ran
	                           * something else on its core), charged once per idle period
	                           * of at least cold-after, after the state's exit latency */
	int64_t cold_after_ns;    /* cold-after: the idle period from which a wake-up is cold
	                           * (with cold-wake > 0; 0 = every idle period) */
	/* GRO (optional, default 0). */
	int64_t gro_pkt_ns;       /* gro-pkt: dev_gro_receive() per segment (hash bucket,
	                           * flow match, merge); the merged skb then pays the stack
	                           * (local-deliver) once */
	/* [cstates]: the CPU's idle states, shallowest first, as cpuidle's sysfs
	 * lists them (stateK/name, latency, residency).  Without the section the
	 * table is one state, "C1", with exit latency idle-exit and residency 0:
	 * every wake-up of an idle CPU pays idle-exit, as before the table. */
	struct profile_cstate {
		char name[16];
		int64_t exit_ns;      /* exit latency (sysfs latency, us there) */
		int64_t residency_ns; /* target residency (sysfs residency) */
		uint32_t power_mw;    /* power while in the state, mW; 0 = not known */
	} cstate[PROFILE_MAX_CSTATES];
	uint8_t n_cstates;        /* 1..PROFILE_MAX_CSTATES */
	bool cstates_given;       /* the table came from [cstates] (reports show residency) */
	/* Added by the loader (src/model/profile_load.c): [profile] description,
	 * one line saying which machine this is; "" if the file gives none. */
	char description[128];
	/* [profile] ghz: the nominal core clock (the base frequency the CPU is
	 * sold at, as /proc/cpuinfo's model name gives it), in MHz: "ghz = 2.1"
	 * is 2100.  0 = unknown (the file gives none).  The costs above are
	 * times, not cycles; this only converts them, e.g. to cycles per query
	 * (profile_cycles()). */
	uint32_t mhz;
};

/* @ns of CPU time (below 1.8e15, three weeks) in cycles of the nominal
 * clock, rounded down; 0 when the clock is unknown (mhz = 0), which a
 * report must print as unknown rather than as zero cycles. */
static inline uint64_t profile_cycles(const struct profile *p, uint64_t ns)
{
	return ns * p->mhz / 1000;
}

/* CPU time to copy (touch) @len bytes: copy-per-byte, ns. */
static inline int64_t profile_copy_ns(const struct profile *p, uint32_t len)
{
	return (int64_t)len * p->copy_ps_per_byte / 1000;
}

#endif
