/* live.h - rxlab's live receive loop: NAPI-style moderation of real packet
 * reception on Linux, as a C library.
 *
 * A program hands the library a packet source (a bound UDP socket, a
 * TPACKET_V3 ring on an interface, or an AF_XDP socket on one queue of an
 * interface), picks a receive mode and its parameters, and gets one
 * callback per batch of packets.  rxl_run() runs the loop in the calling
 * thread; rxl_stop() ends it from anywhere (another thread, a signal
 * handler); rxl_stats_get() reads consistent statistics at any time.
 *
 *   int fd = socket(AF_INET, SOCK_DGRAM, 0); bind(fd, ...);
 *   struct rxl_config cfg;
 *   rxl_config_default(&cfg, RXL_MODE_HYBRID);
 *   rxl_config_set(&cfg, "budget", "32", err, sizeof err);
 *   struct rxl_loop *l = rxl_open_udp(fd, &cfg, on_batch, &app, err, sizeof err);
 *   rxl_run(l, 0);                 returns after rxl_stop(l)
 *   rxl_stats_get(l, &st);
 *   rxl_close(l);                  the caller still owns and closes fd
 *
 * The moderation decisions are made by src/core, the same code the
 * simulator runs (coalesce.h, napi.h, dim.h, itr.h, bsd_poll.h, hybrid.h,
 * poll_rules.h): the loop translates real time and packet counts into their
 * inputs and applies their decisions.  In these terms an "interrupt" is a
 * wake-up of the receive thread by the kernel (epoll readiness), masking it
 * is not waiting for it, and a poll is one non-blocking batch receive of at
 * most `budget` packets.
 *
 * Time is CLOCK_MONOTONIC in nanoseconds everywhere (rx_ns, the payload's
 * send time, statistics).  Errors: functions that can fail because of the
 * environment or user input return NULL or a negative errno value and write
 * a one-line message into err[errlen] (if err is not NULL); contract
 * violations (NULL loop, ...) are asserts.
 */
#ifndef RXLAB_RXLAB_LIVE_H
#define RXLAB_RXLAB_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "rxlab/hist.h"

struct rxl_policy_ops;

/* Receive modes.  Names (rxl_mode_name()) are the CLI's: "interrupt",
 * "coalesce", ... "af-xdp".
 *
 * Userspace moderation (any source; decisions from src/core):
 *   INTERRUPT   sleep until readiness, one poll per wake-up.
 *   COALESCE    after a wake-up, deliver when rx-frames packets were seen or
 *               rx-usecs passed since the first (coalesce.h, EQE timer).
 *               With rx-usecs > 0 the thread sleeps on that timer and counts
 *               frames when it wakes (a thread cannot count packets it has
 *               not read); with rx-usecs 0 it fires on rx-frames alone.
 *   NAPI        wake on readiness, poll batches of `budget` until one comes
 *               back short, then re-arm (napi.h, napi_complete_done()).  With
 *               napi-defer-hard-irqs D and napi-gro-flush-timeout T > 0 the
 *               loop re-polls after T instead of re-arming, until D
 *               consecutive empty polls, as Linux does in the kernel.
 *   DIM         COALESCE whose rx-usecs / rx-frames follow net_dim()
 *               (dim.h, one sample per delivery, CQE table).  With
 *               [policy] set: COALESCE (from rx-usecs / rx-frames) whose
 *               settings follow that registered policy (policy.h) instead.
 *   ITR         COALESCE with a minimum gap between deliveries set by e1000
 *               dynamic ITR (itr.h, `itr` = InterruptThrottleRate mode).
 *   BSD_POLL    no readiness at all: a timer at `hz` polls with the adaptive
 *               burst of FreeBSD DEVICE_POLLING keeping `user-frac` percent of
 *               each tick for the application (bsd_poll.h).
 *   BUSY        spin on non-blocking polls; never sleeps.
 *   HYBRID      poll while the measured load says a packet will come sooner
 *               than a wake-up would take, sleep on readiness otherwise
 *               (hybrid.h).
 * Baselines from the documented rules of other receive loops (poll_rules.h):
 *   DPDK_POWER  DPDK l3fwd-power: pause 1 us after 10 consecutive empty polls,
 *               sleep until readiness after 300.
 *   IXY         ixy: sleep on readiness unless the rate averaged over the last
 *               5 samples is above 1.2 Mpps or the last poll was full.
 *   SEASTAR     Seastar reactor: poll for 200 us after the last packet, then
 *               sleep.
 * Kernel-driven (UDP sockets; the kernel moderates, the loop drains):
 *   EPOLL         epoll_wait, then drain.
 *   SO_BUSY_POLL  SO_BUSY_POLL = busy-poll-usecs on the socket; blocking
 *                 recvmmsg, so the kernel busy-polls the NAPI in recvmsg.
 *   PREFER_BUSY   SO_PREFER_BUSY_POLL + SO_BUSY_POLL_BUDGET, and epoll
 *                 busy-poll parameters (EPIOCSPARAMS) on the loop's epoll.
 *   IRQ_SUSPEND   PREFER_BUSY's settings with busy-poll-usecs 0 (epoll
 *                 polls once per call through prefer_busy_poll, napi.rst
 *                 "IRQ suspension"); irq-suspend-timeout itself is a
 *                 per-NAPI netdev netlink setting applied by the caller (the
 *                 CLI's test bed), the loop only records it.
 *   THREADED      plain EPOLL; threaded NAPI is a device setting applied by
 *                 the caller.
 *   TPACKET       TPACKET_V3 ring, sleep until a block is retired (full, or
 *                 tp-block-timeout ms), then walk it (rxl_open_tpacket()).
 *   AF_XDP        AF_XDP socket with need_wakeup: poll() only when the kernel
 *                 asks for a wake-up (rxl_open_xdp()).
 */
enum rxl_mode {
	RXL_MODE_INTERRUPT = 0,
	RXL_MODE_COALESCE,
	RXL_MODE_NAPI,
	RXL_MODE_DIM,
	RXL_MODE_ITR,
	RXL_MODE_BSD_POLL,
	RXL_MODE_BUSY,
	RXL_MODE_HYBRID,
	RXL_MODE_DPDK_POWER,
	RXL_MODE_IXY,
	RXL_MODE_SEASTAR,
	RXL_MODE_EPOLL,
	RXL_MODE_SO_BUSY_POLL,
	RXL_MODE_PREFER_BUSY,
	RXL_MODE_IRQ_SUSPEND,
	RXL_MODE_THREADED,
	RXL_MODE_TPACKET,
	RXL_MODE_AF_XDP,
	RXL_MODE_COUNT
};

/* "interrupt", "coalesce", "napi", "dim", "itr", "bsd-poll", "busy",
 * "hybrid", "dpdk-power", "ixy", "seastar", "epoll", "so-busy-poll",
 * "prefer-busy", "irq-suspend", "threaded", "tpacket", "af-xdp";
 * "?" for an out-of-range value. */
const char *rxl_mode_name(enum rxl_mode m);

/* Parse a mode name.  0 on success, -1 (and *out untouched) otherwise. */
int rxl_mode_parse(const char *name, enum rxl_mode *out);

/* true for the modes that moderate in userspace (INTERRUPT..SEASTAR), which
 * run on any source; the kernel-driven ones need their own source. */
bool rxl_mode_is_userspace(enum rxl_mode m);

/* The scheduling class mode @m is designed for, for a caller that pins the
 * receive thread next to a kernel thread doing the receive work (threaded
 * NAPI on the same CPU, as the `rxlab live` test bed does):
 *   true   SCHED_FIFO: the modes that sleep (a FIFO thread is woken at once)
 *          and HYBRID, which sleeps or naps between polls and, when it
 *          spins (naps off or not paying), sched_yield()s (spin-yield), so
 *          a NAPI kthread of the same FIFO priority runs between its polls;
 *   false  SCHED_OTHER: the modes that spin without yielding (BUSY, the
 *          DPDK / ixy / Seastar baselines) and the kernel busy-polling
 *          modes; a FIFO spinner would starve that kthread.
 * Measured on the veth test bed (docs/live-library.md): hybrid at the
 * sender's maximum received about 20 kpps under SCHED_OTHER on a loaded
 * machine and 375-530 kpps under SCHED_FIFO.  Caveat: a FIFO hybrid that
 * spins for most of a second (with nap-max 0, 80 kpps and the default
 * wake-cost) runs into RT throttling (sched_rt_runtime_us) and stalls for
 * about 50 ms per second; naps (the default) or a smaller wake-cost keep it
 * off the CPU at such rates. */
bool rxl_mode_sched_fifo(enum rxl_mode m);

/* Every parameter of a loop.  rxl_config_default() gives the documented
 * defaults; rxl_config_set() sets one by its key (given in brackets; values
 * take the unit in the key's name, plain integers unless said otherwise).
 * Fields a mode does not use are ignored. */
struct rxl_config {
	enum rxl_mode mode;
	uint32_t budget;              /* [budget] packets per poll, 1..1024, default 64 (NAPI_POLL_WEIGHT) */
	uint32_t max_pkt_bytes;       /* [max-pkt-bytes] receive buffer per packet, 64..65536, default 2048 */
	uint32_t rcvbuf_bytes;        /* [rcvbuf] SO_RCVBUF for UDP, 0 = leave as is (default) */
	/* coalesce / dim / itr: ethtool -C names */
	uint32_t rx_usecs;            /* [rx-usecs] 0..1000000, default 50 */
	uint32_t rx_frames;           /* [rx-frames] 0..1024, default 32; rx-usecs and rx-frames not both 0 */
	uint32_t itr;                 /* [itr] e1000 InterruptThrottleRate: 0,1,3,4 or 100..100000, default 3 */
	const struct rxl_policy_ops *policy; /* [policy] NAME of a registered policy (policy.h):
	                              * dim runs it in place of net_dim(), each engine firing
	                              * its on_irq, each delivery its on_poll_done; rx-frames
	                              * above the staging slots (rxl_source_slots()) are capped
	                              * there, a decision outside policy.h's limits ends
	                              * rxl_run() with -EINVAL; default NULL (net_dim) */
	/* napi: the userspace loop's own copies of the sysfs deferral knobs */
	uint32_t napi_defer_hard_irqs;    /* [napi-defer-hard-irqs] 0..1000, default 0 */
	uint64_t napi_gro_flush_timeout_ns; /* [napi-gro-flush-timeout] ns, 0..100000000, default 0 */
	/* bsd-poll: kern.hz and kern.polling.* */
	uint32_t hz;                  /* [hz] 100..100000, default 1000 */
	uint32_t burst_max;           /* [burst-max] 10..1000, default 150 */
	uint32_t each_burst;          /* [each-burst] 1..burst-max, default 5 */
	uint32_t user_frac;           /* [user-frac] percent, 0..99, default 50 */
	/* hybrid (hybrid.h) */
	uint64_t wake_cost_ns;        /* [wake-cost] ns a sleep + wake-up costs (CPU and the wake-up
	                               * latency spinning avoids), 1000..10000000, default 20000 */
	uint64_t spin_max_ns;         /* [spin-max] ns, longest spin after the last packet,
	                               * 0..100000000, default 200000 */
	bool spin_yield;              /* [spin-yield] 0/1, default 1: sched_yield() after each empty
	                               * poll while spinning, so that a kernel thread doing the
	                               * receive work on the same CPU (threaded NAPI) runs */
	uint64_t nap_max_ns;          /* [nap-max] ns, longest nap on a timer while packets come
	                               * faster than wake-cost, i.e. the latency a nap may add;
	                               * 0..100000000, default 50000 (as coalesce's rx-usecs);
	                               * 0 = no naps: spin there instead */
	/* baselines (poll_rules.h) */
	uint32_t dpdk_pause_polls;    /* [dpdk-pause-polls] empty polls before pausing, default 10 */
	uint32_t dpdk_sleep_polls;    /* [dpdk-sleep-polls] empty polls before sleeping, default 300 */
	uint64_t dpdk_pause_ns;       /* [dpdk-pause] ns per pause, default 1000 */
	uint64_t ixy_threshold_pps;   /* [ixy-threshold-pps] default 1200000 */
	uint32_t ixy_samples;         /* [ixy-samples] moving-average length 1..64, default 5 */
	uint64_t ixy_interval_ns;     /* [ixy-interval] ns between rate samples, default 100000000 */
	uint64_t seastar_idle_poll_ns; /* [seastar-idle-poll] ns, default 200000 */
	/* kernel-driven socket modes */
	uint32_t busy_poll_usecs;     /* [busy-poll-usecs] SO_BUSY_POLL and epoll busy_poll_usecs,
	                               * 0..1000000, default 50 (0 in IRQ_SUSPEND) */
	uint32_t busy_poll_budget;    /* [busy-poll-budget] SO_BUSY_POLL_BUDGET and epoll
	                               * busy_poll_budget, 1..65535, default 64 */
	bool prefer_busy_poll;        /* [prefer-busy-poll] 0/1; default 1 in PREFER_BUSY and
	                               * IRQ_SUSPEND, else 0 */
	uint64_t irq_suspend_timeout_ns; /* [irq-suspend-timeout] ns, recorded for the caller, default 0 */
	/* TPACKET_V3 */
	uint32_t tp_block_bytes;      /* [tp-block-bytes] power of two, 4096..4194304, default 1048576 */
	uint32_t tp_blocks;           /* [tp-blocks] 2..1024, default 8 */
	uint32_t tp_block_timeout_ms; /* [tp-block-timeout] ms (retire_blk_tov), 1..1000, default 1 */
	/* AF_XDP */
	uint32_t xdp_frames;          /* [xdp-frames] UMEM frames, power of two, 64..65536, default 4096 */
	bool xdp_need_wakeup;         /* [xdp-need-wakeup] 0/1, default 1 */
	bool xdp_skb_mode;            /* [xdp-skb-mode] 0/1: generic XDP, default 1 (veth, any NIC) */
};

/* Defaults of every field (above) for mode @m. */
void rxl_config_default(struct rxl_config *c, enum rxl_mode m);

/* Set the field named @key (see struct rxl_config) from the text @value.
 * Integers are decimal; nanosecond fields also take a unit suffix "ns",
 * "us", "ms", "s" ("50us"); booleans take 0/1/true/false/on/off.  Returns 0,
 * or -EINVAL with "unknown key 'x' (accepted: budget, rx-usecs, ...)" or
 * "rx-usecs: '5000000' out of range (accepted: 0..1000000)" in @err. */
int rxl_config_set(struct rxl_config *c, const char *key, const char *value, char *err,
		   size_t errlen);

/* Cross-field checks (rx-usecs and rx-frames both 0, each-burst above
 * burst-max, a kernel mode on a source it cannot use is checked at open).
 * 0, or -EINVAL with a message. */
int rxl_config_check(const struct rxl_config *c, char *err, size_t errlen);

/* One received packet, valid only during the callback. */
struct rxl_pkt {
	const uint8_t *data;          /* UDP payload (UDP source) or frame from the Ethernet header */
	uint32_t len;                 /* bytes at data */
	uint64_t rx_ns;               /* CLOCK_MONOTONIC when the poll that got it returned */
	const struct sockaddr *src;   /* sender address (UDP source), else NULL */
	socklen_t src_len;
};

/* Called by the loop thread with @n >= 1 packets of one delivery.  It may
 * call rxl_stop() and rxl_stats_get(), not rxl_run() or rxl_close(). */
typedef void (*rxl_batch_fn)(void *arg, const struct rxl_pkt *pkts, size_t n);

struct rxl_loop;

/* Is @name an interface name rxlab accepts?  The kernel's rule
 * (dev_valid_name(), net/core/dev.c): 1..15 bytes (IFNAMSIZ is 16 with the
 * NUL), not "." or "..", no '/', ':' or white space.  rxlab refuses as well
 * the bytes a POSIX shell treats specially (| & ; < > ( ) $ ` \ " ' * ? [ ]
 * # ~ ! { } ^ =), a leading '-' (it would read as an option of ethtool or
 * ip) and bytes outside printable ASCII, so that a name can be shown in a
 * message and pasted into a command.  0, or -1 with one line in @err that
 * shows the name (unprintable bytes as \xNN) and says which byte is refused
 * and why.  rxl_open_xdp() checks its @ifname with it. */
int rxl_ifname_check(const char *name, char *err, size_t errlen);

/* A loop on the bound UDP socket @fd (the caller keeps ownership and closes
 * it after rxl_close()).  The socket is made non-blocking (except in
 * SO_BUSY_POLL mode) and given the socket options of the mode (SO_RCVBUF,
 * SO_BUSY_POLL, SO_PREFER_BUSY_POLL, SO_BUSY_POLL_BUDGET, SO_RCVTIMEO);
 * rxl_close() puts back the file flags and every option it changed.  Any mode
 * but TPACKET and AF_XDP.  NULL with a message on failure. */
struct rxl_loop *rxl_open_udp(int fd, const struct rxl_config *c, rxl_batch_fn fn, void *arg,
			      char *err, size_t errlen);

/* A loop on a TPACKET_V3 receive ring bound to interface @ifindex (all
 * protocols; needs CAP_NET_RAW).  Mode TPACKET or any userspace mode. */
struct rxl_loop *rxl_open_tpacket(int ifindex, const struct rxl_config *c, rxl_batch_fn fn,
				  void *arg, char *err, size_t errlen);

/* A loop on an AF_XDP socket on @queue of @ifname, with libxdp's default
 * program that redirects every packet of that queue to it (needs
 * CAP_NET_ADMIN and CAP_BPF, or root).  rxl_close() detaches that program
 * explicitly when the interface had no XDP program before (libxdp cannot
 * record it without a bpffs mount).  Mode AF_XDP or any userspace mode.
 * NULL with a message when the build has no libxdp or the kernel refuses. */
struct rxl_loop *rxl_open_xdp(const char *ifname, uint32_t queue, const struct rxl_config *c,
			      rxl_batch_fn fn, void *arg, char *err, size_t errlen);

/* Run the loop in the calling thread for @duration_ns (0 = until
 * rxl_stop()).  May be called again after it returns (never twice at the
 * same time: that is a contract violation); statistics keep accumulating.
 * A stop requested before the call makes it return at once (and is
 * consumed).  Packets staged by a coalescing mode are delivered before it
 * returns.  Returns 0, or a negative errno when a system call failed or a
 * receive error cannot go away (the loop stops at the first). */
int rxl_run(struct rxl_loop *l, uint64_t duration_ns);

/* Ask rxl_run() to return as soon as possible (within one wait, i.e. at
 * most one timer period of the mode).  Async-signal-safe, any thread. */
void rxl_stop(struct rxl_loop *l);

/* Statistics of a loop since rxl_open_*().  Counters only grow.
 *
 * Loss and latency come from the rxlab payload header (payload.h) that the
 * rxlab sender writes: packets without a valid header count in packets and
 * bytes only.  Sequence numbers start at 0 for one sender: a packet whose
 * sequence number is above seq_next counts the gap as lost; one below
 * seq_next counts as reordered and takes one back from seq_lost.
 * Packets sent after the last one received are not visible here: the loss
 * of a run is sent - seq_next + seq_lost.
 *
 * The two histograms make the struct about 120 KB: keep it off small
 * thread stacks. */
struct rxl_stats {
	uint64_t run_ns;              /* time spent inside rxl_run() */
	uint64_t packets;             /* packets delivered to the callback */
	uint64_t bytes;               /* their bytes (pkt len) */
	uint64_t deliveries;          /* callback invocations */
	uint64_t polls;               /* non-blocking receive attempts */
	uint64_t empty_polls;         /* ... that returned nothing */
	uint64_t full_polls;          /* ... that returned `budget` packets */
	uint64_t sleeps;              /* blocking waits entered (readiness or timer) */
	uint64_t wakeups;             /* ... that ended because packets were ready */
	uint64_t timer_wakeups;       /* ... that ended on their timeout */
	uint64_t pauses;              /* short pauses without sleeping (dpdk-power) */
	uint64_t sleep_ns;            /* time inside blocking waits */
	uint64_t mode_switches;       /* hybrid / ixy / dpdk-power / seastar: changes between
	                               * polling (hybrid: naps included) and waiting for readiness */
	uint64_t moderation_changes;  /* dim: profile (policy: settings) changes; itr: interrupt rate changes */
	uint64_t errors;              /* failed receive calls other than EAGAIN (EBADF, ENOTSOCK,
	                               * EFAULT, EINVAL, ENOMEM also end rxl_run()) */
	uint64_t source_drops;        /* packets the source dropped before the loop saw
	                               * them: UDP socket drops (SO_MEMINFO
	                               * SK_MEMINFO_DROPS, since open), TPACKET_V3 ring
	                               * full (PACKET_STATISTICS tp_drops), AF_XDP
	                               * rx_dropped + rx_ring_full (XDP_STATISTICS) */
	/* rxlab payload */
	uint64_t payload_packets;     /* packets that carried a valid rxlab payload header */
	uint64_t seq_next;            /* highest sequence number seen + 1 */
	uint64_t seq_lost;            /* packets missing from the sequence */
	uint64_t seq_reordered;       /* packets that arrived below seq_next */
	/* getrusage(RUSAGE_THREAD) of the loop thread inside rxl_run() */
	uint64_t cpu_user_ns;
	uint64_t cpu_sys_ns;
	uint64_t vol_ctxsw;           /* voluntary context switches (real sleeps) */
	uint64_t invol_ctxsw;         /* involuntary (preempted) */
	/* one-way latency of payload packets, ns: the time the loop handed the
	 * packet to the callback - send_ns (the same as rx_ns - send_ns but
	 * for the time a mode holds a packet before delivering it) */
	struct hist latency;
	/* packets per delivery */
	struct hist batch;
};

/* Copy a consistent snapshot of the statistics into @out: every field from
 * the same moment of the loop (payload_packets <= packets, a histogram's n
 * equals its counter and the sum of its buckets).  Any thread, any time,
 * also during rxl_run(); it never blocks the loop thread (a seqlock: the
 * reader retries when the loop published meanwhile).  From the loop's own
 * thread (the callback) the snapshot is the newest state; from another
 * thread while rxl_run() runs it is the state the loop last published:
 * before each wait (so it is exact while the loop sleeps), at least every
 * 1 ms while it polls (checked after every delivery and every 1024 polls)
 * and when rxl_run() returns.  CPU figures are refreshed by the loop
 * thread at least every 10 ms while it runs and when rxl_run() returns. */
void rxl_stats_get(const struct rxl_loop *l, struct rxl_stats *out);

/* The configuration the loop runs with. */
const struct rxl_config *rxl_loop_config(const struct rxl_loop *l);

/* Undo the loop's changes (socket options, XDP program) and free it.
 * Must not be called while rxl_run() runs.  NULL is a no-op. */
void rxl_close(struct rxl_loop *l);

#endif
