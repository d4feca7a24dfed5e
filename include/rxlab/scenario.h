/* scenario.h - the complete, validated description of one simulation run.
 *
 * A scenario is plain data: the loader fills it from an INI file plus
 * "SECTION.KEY=VALUE" overrides (rxl_scenario_load() in rxlab/sim.h;
 * src/model/scenario_load.c holds the schema: each key's unit, range and
 * default), the simulator reads it and never changes it.  All times are
 * int64_t nanoseconds, rates are packets per second, sizes are bytes,
 * except where a field says otherwise (speed_bps, the e1000 delays in
 * units of 1.024 us).  Key names in comments are the INI keys; they follow
 * ethtool / sysfs / sysctl spelling where one exists.
 */
#ifndef RXLAB_RXLAB_SCENARIO_H
#define RXLAB_RXLAB_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "rxlab/poll_rules.h"
#include "rxlab/profile.h"

#define SCN_MAX_NICS 16     /* ports ([nic NAME] sections) */
#define SCN_MAX_QUEUES 64   /* queue pairs per port (combined) */
#define SCN_MAX_TRAFFIC 16
#define SCN_MAX_CPUS 256
#define SCN_MAX_FLOWS 1000000 /* flows (connections) of one traffic source */
#define SCN_NAME_LEN 32
#define SCN_VMSTAT_LINES 100000  /* vmstat lines one run may print */

/* Kernel receive path, [host] rxpath. */
enum rxpath {
	RXPATH_CLASSIC,  /* ISR moves packets to the backlog (netif_rx), softirq forwards */
	RXPATH_ISR_LOOP, /* isr-while + one more read after work (the seed 000 patch) */
	RXPATH_NAPI,     /* ISR masks and schedules NAPI; net_rx_action polls */
	RXPATH_BSD_POLL, /* FreeBSD DEVICE_POLLING: no RX interrupts, polls each tick */
	RXPATH_ISR_WHILE,/* classic, ISR loops while the cause register shows work (stock dc) */
};

/* Whose net_rx_action() and softirq loop, [host] rxcore. */
enum rxcore {
	RXCORE_CURRENT, /* Linux 6.x: netdev_budget(_usecs), local + repoll lists, a
	                 * repoll ends the pass, handle_softirqs() 10 passes / 2 ms /
	                 * need_resched() */
	RXCORE_26,      /* Linux 2.6.12: one poll list, a device that stays moves to
	                 * its tail within the pass, budget netdev_max_backlog and
	                 * 2 jiffies, __do_softirq() 10 passes only */
};

/* Traffic pattern, [traffic] pattern. */
enum traffic_pattern {
	TRAFFIC_CONSTANT, /* pktgen: one frame every 1/rate */
	TRAFFIC_POISSON,  /* exponential gaps with mean 1/rate */
	TRAFFIC_ONOFF,    /* constant rate during on, silence during off */
	TRAFFIC_TRACE,    /* arrival times and frame lengths of a capture (trace = FILE) */
	TRAFFIC_CLOSED,   /* closed loop: depth requests outstanding per flow, the next one
	                   * client-delay after a reply left (netperf TCP_RR, mutilate) */
	TRAFFIC_STREAM,   /* TCP bulk sender: full-sized segments at rate, stream-burst
	                   * segments of one flow at a time, flows round robin */
};

/* Arrivals of a trace (pcap, pcapng or CSV timeline), in memory.  Loaded
 * and owned by the loader's trace cache (src/model/trace_load.c),
 * immutable, shared by every run that names the same file; the simulator
 * only reads it.
 * Invariants: n >= 1, t_ns[0] == 0, t_ns is non-decreasing, every
 * len[i] is a frame length including FCS in 64..9216 bytes. */
struct scn_trace {
	uint64_t n;                  /* packets */
	const int64_t *t_ns;         /* arrival of packet i, ns after the first */
	const uint32_t *len;         /* frame bytes incl. FCS */
	uint64_t bytes;              /* sum of len[] */
};

/* Which clock starts the rx-usecs timer, [nic] cqe-mode-rx (ethtool name). */
enum coal_timer_mode_cfg {
	TIMER_ABSOLUTE = 0, /* EQE: from the first completion (tg3, e1000 RADV); cqe-mode-rx=off */
	TIMER_RESTART = 1,  /* CQE: restarted by every completion (e1000 RDTR); cqe-mode-rx=on */
};

/* TX completion handling, [nic] tx-clean. */
enum tx_clean_mode {
	TX_CLEAN_IRQ,  /* TX completion interrupts, moderated by tx-usecs/tx-frames */
	TX_CLEAN_XMIT, /* no TX interrupts; the ring is cleaned when the driver transmits */
	TX_CLEAN_HARDIRQ, /* TX completion interrupts cleaned in the hard IRQ handler; under
	                   * NAPI the poll disables only the RX cause and does not clean TX
	                   * (Olsson's e1000 NAPI driver before its 011114 change) */
};

/* Adaptive RX moderation run by the driver, [nic] adaptive-rx. */
enum adaptive_rx {
	ADAPTIVE_OFF,      /* static rx-usecs / rx-frames */
	ADAPTIVE_DIM,      /* Linux DIM (lib/dim/net_dim.c) picks rx-usecs/rx-frames */
	ADAPTIVE_PKT_RATE, /* ethtool pkt-rate-low/-high switching between three sets */
	ADAPTIVE_POLICY,   /* policy:NAME, a policy the program registered (rxlab/policy.h) */
};

/* How the driver reads ethtool's rx-usecs, [nic] driver. */
enum nic_driver {
	DRIVER_GENERIC,    /* rx-usecs / rx-frames drive the coalescing engine */
	DRIVER_E1000,      /* e1000_set_coalesce(): rx-usecs 0/1/3/4 select ITR modes,
	                    * 10..10000 a fixed rate of 1e6/rx-usecs interrupts/s */
	/* drivers whose ethtool -C values model/quirks.c turns into what the
	 * driver programs (docs/quirks.md), before anything simulates them */
	DRIVER_ENA,        /* Amazon ENA: device pins rx-usecs to 8..50 us */
	DRIVER_IXGBEVF,    /* Intel 82599/X540 VF: rx-usecs 1 = dynamic ITR, 2 us steps */
	DRIVER_MLX5,       /* NVIDIA mlx5_core: CQ period 0..4095 us, count 0..65535 */
	DRIVER_VIRTIO_NET, /* virtio_net without VIRTIO_NET_F_NOTF_COAL: no coalescing */
	DRIVER_ICE,        /* Intel E800 ice: rx-usecs 0..8160, even values */
};

/* Popularity of a source's flows, [traffic] flow-popularity. */
enum flow_popularity {
	FLOWPOP_UNIFORM, /* every flow equally likely */
	FLOWPOP_ZIPF,    /* zipf:S: flow i (from 0) has weight 1 / (i + 1)^S */
};

/* Per-NAPI settings of one queue, as netdev netlink napi-set gives them
 * (the sysfs keys of [nic NAME] set every queue; a list of values sets
 * them queue by queue). */
struct scn_napi {
	uint32_t defer_hard_irqs;       /* napi_defer_hard_irqs (napi-set defer-hard-irqs) */
	int64_t gro_flush_timeout_ns;   /* gro_flush_timeout (napi-set gro-flush-timeout) */
	int64_t irq_suspend_timeout_ns; /* irq-suspend-timeout (napi-set irq-suspend-timeout) */
	uint32_t threaded;              /* threaded (napi-set threaded): 0 disabled, 1
	                                 * enabled, 2 busy-poll (enum napi_threaded) */
};

/* threaded-cpus: the CPU affinity of a port's NAPI kthreads. */
enum threaded_cpus {
	THREADED_CPUS_IRQ,  /* pinned to the CPU of the queue's IRQ (napi.rst's advice) */
	THREADED_CPUS_ALL,  /* no affinity, as kthread_run() leaves it: the scheduler's
	                     * balancing moves them */
	THREADED_CPUS_LIST, /* queue i's kthread pinned to threaded_cpu[i] (taskset -pc) */
};

/* Coalescing values of one queue, as ethtool --per-queue queue_mask M
 * --coalesce sets them (plain ethtool -C sets every queue). */
struct scn_qcoal {
	int64_t rx_usecs_ns;         /* rx-usecs */
	uint32_t rx_frames;          /* rx-frames */
	int64_t tx_usecs_ns;         /* tx-usecs */
	uint32_t tx_frames;          /* tx-frames */
};

/* [host]: the machine and its kernel. */
/* [host] scheduler: the CFS-like fair scheduler of today's kernels, or
 * the O(1) scheduler of Linux 2.6.0-2.6.22 (kernel/sched.c of 2.6.12). */
enum scn_scheduler { SCHEDULER_CFS = 0, SCHEDULER_O1 = 1 };

struct scn_host {
	char profile[64];            /* profile = NAME (built-in) or path to an INI */
	uint32_t cpus;               /* cpus = 1..64 */
	uint32_t hz;                 /* hz = 100..10000, CONFIG_HZ */
	enum rxpath rxpath;          /* rxpath = classic | isr-loop | napi */
	enum rxcore rxcore;          /* rxcore = current | 2.6 */
	uint32_t netdev_budget;      /* net.core.netdev_budget, default 300 */
	int64_t netdev_budget_usecs_ns; /* net.core.netdev_budget_usecs, default 2000 us */
	uint32_t netdev_max_backlog; /* net.core.netdev_max_backlog, default 1000 */
	uint32_t dev_weight;         /* net.core.dev_weight, default 64 */
	uint32_t napi_weight;        /* driver NAPI weight, default 64 (NAPI_POLL_WEIGHT) */
	uint32_t gro_normal_batch;   /* net.core.gro_normal_batch, segments, default 8 */
	/* FreeBSD kern.polling.* sysctls, rxpath = bsd-poll */
	uint32_t bsd_burst_max;      /* kern.polling.burst_max, 10..1000, default 150 */
	uint32_t bsd_each_burst;     /* kern.polling.each_burst, default 5 */
	uint32_t bsd_user_frac;      /* kern.polling.user_frac, 0..99 %, default 50 */
	uint32_t bsd_reg_frac;       /* kern.polling.reg_frac, 1..hz, default 20 */
	uint32_t bsd_idle_poll;      /* kern.polling.idle_poll, 0/1: also poll from the idle loop */
	/* sk_buff recycling (Olsson's private skb recycling patch, seed 002):
	 * a freed sk_buff goes to a per-CPU pool that the RX refill of the
	 * same CPU takes from before it asks the slab allocator */
	uint32_t skb_recycle;        /* skb-recycle = on | off */
	uint32_t skb_recycle_max;    /* skb-recycle-max = pool size per CPU, sk_buffs */
	int64_t sched_migration_cost_ns; /* sched_migration_cost: a thread that ran more
	                              * recently is cache-hot and not moved by idle
	                              * balancing (kernel.sched_migration_cost_ns) */
	uint32_t sched_wake_idle;    /* sched_wake_idle = on | off: a woken thread without
	                              * affinity goes to a CPU with no thread when its own
	                              * is busy (select_idle_sibling()) */
	uint32_t idle_gov;           /* idle = menu | teo | poll (enum cpuidle_gov): the
	                              * cpuidle governor, or idle=poll */
	uint32_t max_cstate;         /* max-cstate = N: states deeper than stateN of the
	                              * profile's table are disabled (intel_idle.max_cstate,
	                              * processor.max_cstate); 9 = no limit */
	enum scn_scheduler scheduler; /* scheduler = cfs | o1: the fair class of the
	                              * threads (src/sim/cpu.c, src/sim/o1rq.c) */
};

/* [nic NAME]: one port.  Coalescing keys are ethtool -C names. */
struct scn_nic {
	char name[SCN_NAME_LEN];
	uint64_t speed_bps;          /* speed = 100Mbit | 1Gbit | 10Gbit ... */
	uint32_t rx_ring;            /* rx-ring = 1..65536 descriptors (ethtool -G rx) */
	uint32_t tx_ring;            /* tx-ring = 1..65536 descriptors (ethtool -G tx) */
	uint32_t rx_fifo_bytes;      /* rx-fifo = on-chip packet buffer, e.g. 48KiB */
	uint32_t txqueuelen;         /* txqueuelen = qdisc length in packets */
	int64_t rx_usecs_ns;         /* rx-usecs */
	uint32_t rx_frames;          /* rx-frames */
	int64_t rx_usecs_irq_ns;     /* rx-usecs-irq */
	uint32_t rx_frames_irq;      /* rx-frames-irq */
	int64_t tx_usecs_ns;         /* tx-usecs */
	uint32_t tx_frames;          /* tx-frames */
	int64_t tx_usecs_irq_ns;     /* tx-usecs-irq */
	uint32_t tx_frames_irq;      /* tx-frames-irq */
	enum coal_timer_mode_cfg rx_timer; /* cqe-mode-rx = on | off */
	enum coal_timer_mode_cfg tx_timer; /* cqe-mode-tx = on | off */
	int64_t min_irq_gap_ns;      /* min-irq-interval: ITR-style minimum gap, 0 = none */
	enum tx_clean_mode tx_clean; /* tx-clean = irq | xmit | hardirq */
	uint32_t irq_cpu;            /* irq-cpu = CPU that services this NIC's IRQ */
	uint32_t irq_float;          /* irq-cpu = float: each interrupt goes to the CPU
	                              * running at the lowest level (idle first),
	                              * round robin among equals (IO-APIC lowest
	                              * priority delivery without irq affinity) */
	uint32_t tx_clean_thresh;    /* tx-clean-thresh: tx-clean = xmit cleans only when
	                              * fewer descriptors than this are free; 0 = always */
	int64_t link_queue_ns;       /* link-queue: how long the sender side of the
	                              * link may hold a frame before dropping it */
	/* NAPI instance of the port (sysfs /sys/class/net/NAME/...) */
	uint32_t napi_defer_hard_irqs;  /* napi_defer_hard_irqs: empty polls before the
	                                 * IRQ is re-armed; 0 = off */
	int64_t gro_flush_timeout_ns;   /* gro_flush_timeout: deferral timer (ns) */
	uint32_t threaded;              /* threaded = 1: a kthread polls, not softirq; 2:
	                                 * it busy polls (queue 0's; see napi[]) */
	uint32_t threaded_prio;         /* threaded-prio: the kthreads' policy, 0 =
	                                 * SCHED_OTHER nice 0, 1..99 = SCHED_FIFO priority */
	/* queues (ethtool -L), RSS (ethtool -X / -N) and interrupt placement */
	uint32_t combined;              /* combined = 1..64 queue pairs, each with its RX and
	                                 * TX ring, coalescing engine, NAPI and vector */
	uint32_t indir_size;            /* indir-size = RSS indirection table entries */
	uint32_t indir_n;               /* indir = equal N: the first N queues (0: all) */
	uint32_t indir_weights;         /* indir = weight w0 w1 ...: how many weights (0:
	                                 * equal) */
	uint32_t indir_weight[SCN_MAX_QUEUES]; /* ... the weights, in queue order */
	uint32_t rss_l4;                /* rx-flow-hash = sdfn (addresses and ports) | sd */
	uint32_t gro;                   /* gro = on | off (ethtool -K NAME gro): GRO in the
	                                 * NAPI poll of every queue of the port */
	uint32_t irq_spread;            /* irq-affinity = spread: queue i on CPU i % cpus */
	uint32_t irq_affinity_n;        /* irq-affinity = CPU list: how many CPUs (0: none
	                                 * given, irq-cpu applies to every queue) */
	uint16_t irq_affinity[SCN_MAX_QUEUES]; /* ... queue i's CPU, i < irq_affinity_n */
	enum threaded_cpus threaded_cpus; /* threaded-cpus = irq | all | CPU list: where
	                                 * the NAPI kthreads may run */
	uint16_t threaded_cpu[SCN_MAX_QUEUES]; /* THREADED_CPUS_LIST: queue i's kthread's
	                                 * CPU, i < combined */
	struct scn_napi napi[SCN_MAX_QUEUES];  /* queue i's NAPI settings (the scalar keys
	                                 * above are queue 0's, and every queue's unless a
	                                 * list gave per-queue values) */
	struct scn_qcoal coal[SCN_MAX_QUEUES]; /* queue i's rx-usecs, rx-frames, tx-usecs,
	                                 * tx-frames, the same way */
	uint32_t rps_n;                 /* rps-cpus = CPU list: RPS map of every RX queue
	                                 * (/sys/class/net/NAME/queues/rx-N/rps_cpus); 0 = off */
	uint16_t rps_cpu[SCN_MAX_CPUS]; /* ... its CPUs, in increasing order */
	/* adaptive moderation */
	enum adaptive_rx adaptive_rx;   /* adaptive-rx = off | dim | pkt-rate | policy:NAME */
	char adaptive_policy[SCN_NAME_LEN]; /* NAME of policy:NAME (ADAPTIVE_POLICY only) */
	int64_t dim_work_delay_ns;      /* dim-work-delay: schedule_work() latency before
	                                 * a new DIM profile reaches the NIC */
	uint32_t dim_start_ix;          /* dim-start-profile = 0..4 */
	int64_t irq_suspend_timeout_ns; /* irq-suspend-timeout (netdev napi-set), 0 = off */
	/* ethtool adaptive-rx = pkt-rate (ethtool -C pkt-rate-low ...) */
	uint64_t pkt_rate_low, pkt_rate_high;   /* pkt-rate-low / -high, pps */
	int64_t rx_usecs_low_ns, rx_usecs_high_ns; /* rx-usecs-low / -high */
	uint32_t rx_frames_low, rx_frames_high; /* rx-frames-low / -high */
	int64_t sample_interval_ns;     /* sample-interval (ethtool rate-sample-interval) */
	/* e1000 module parameters (per port) */
	enum napi_exit_rule poll_exit;  /* poll-exit = budget | idle: when its NAPI poll completes */
	enum nic_driver driver;         /* driver = generic | e1000 | ena | ixgbevf | mlx5 |
	                                 * virtio-net | ice (model/quirks.h) */
	char driver_note[192];          /* what the driver made of the values asked
	                                 * ("driver ena honours rx-usecs 4 as 8"), "" if
	                                 * it honours them as given */
	uint32_t itr_param;             /* InterruptThrottleRate: 0 off, 1, 3, 4, 100..100000 */
	uint32_t rx_int_delay;          /* RxIntDelay (RDTR), units of 1.024 us; 0 = off */
	uint32_t rx_abs_int_delay;      /* RxAbsIntDelay (RADV), units of 1.024 us */
	uint32_t tx_int_delay;          /* TxIntDelay (TIDV), units of 1.024 us; 0 = off */
	uint32_t tx_abs_int_delay;      /* TxAbsIntDelay (TADV), units of 1.024 us */
	uint32_t tx_frames_marked;      /* tx-frames given next to TxIntDelay: the driver marks
	                                 * every tx-frames-th descriptor for an interrupt of its
	                                 * own (coal_params.every), beside TIDV; else 0 */
};

/* A TCP segment of pattern = stream on the wire: Ethernet header 14, IPv4
 * 20, TCP with the timestamp option 32, FCS 4; the rest of frame-size is
 * payload (the MSS: 1518 -> 1448). */
#define SCN_TCP_HDR 52       /* IPv4 + TCP header bytes (GRO's skb->len - payload) */
#define SCN_TCP_OVERHEAD 70  /* frame bytes that are not TCP payload */
#define SCN_STREAM_MIN_FRAME 128 /* smallest frame-size of a stream (MSS 58) */

/* [traffic NAME]: one source of frames into a port. */
struct scn_traffic {
	char name[SCN_NAME_LEN];
	char port[SCN_NAME_LEN];     /* port = NIC name */
	enum traffic_pattern pattern;/* pattern = constant | poisson | on-off */
	uint64_t rate_pps;           /* rate = 890kpps, 1.2Mpps (packet rates only) */
	uint32_t frame_bytes;        /* frame-size = 64..9216 bytes incl. FCS */
	int64_t start_ns;            /* start = time of the first frame */
	int64_t on_ns, off_ns;       /* on-off: burst and pause lengths */
	uint64_t count;              /* count = frames to offer, then stop; 0 = no end */
	/* pattern = trace: frames are offered at start + t_ns[i] * 1000 / speed_milli
	 * with length len[i], once (the sender stops after the last one) */
	char trace_path[256];        /* trace = FILE (.pcap, .pcapng, .cap or CSV) */
	char trace_speed[16];        /* trace-speed = 1 (2 = twice as fast), as written */
	uint32_t trace_speed_milli;  /* ... in thousandths, 1..1000000 */
	const struct scn_trace *trace; /* the arrivals (not owned) */
	/* flows: each frame belongs to one of @flows 5-tuples (RSS hashes it
	 * to a queue; a server's connection); drawn per frame by popularity */
	uint32_t flows;              /* flows = 1..1000000 */
	enum flow_popularity flow_pop; /* flow-popularity = uniform | zipf:S */
	uint32_t zipf_milli;         /* ... S in thousandths, 1..4000 */
	uint32_t dport;              /* dport = destination UDP/TCP port of every flow */
	/* pattern = stream: TCP segments, MSS = frame-size - SCN_TCP_OVERHEAD */
	uint32_t stream_burst;       /* stream-burst = segments a flow sends back to back
	                              * before the next flow's turn (a TSO burst), 1..65535 */
	/* pattern = closed (rate is not used: the server's answers set it) */
	uint32_t depth;              /* depth = requests outstanding per flow, 1..64 */
	int64_t client_delay_ns;     /* client-delay = from a reply's last bit out to the
	                              * next request offered (client host and wire) */
	int64_t client_rto_ns;       /* client-rto = a lost request is sent again after this */
};

/* [route]: IP forwarding between ports; from[i] forwards to to[i]. */
struct scn_route {
	uint32_t n;
	char from[SCN_MAX_NICS][SCN_NAME_LEN];
	char to[SCN_MAX_NICS][SCN_NAME_LEN];
};

/* [apps]: applications competing for CPU, and the receiver of frames
 * delivered locally (those that arrive on a port with no route). */
#define SCN_MAX_WORKERS 256
enum scn_server { SERVER_NONE, SERVER_EPOLL };
enum scn_spread { SPREAD_NAPI, SPREAD_RR };
enum scn_work_dist { WORK_FIXED, WORK_EXP, WORK_LOGNORMAL };

struct scn_apps {
	uint32_t cpu_hogs;           /* cpu-hogs = N always-runnable user threads */
	uint32_t hog_cpu;            /* hog-cpu = CPU they run on */
	uint32_t sink;               /* sink = on: a UDP socket read by a thread */
	uint32_t sink_cpu;           /* sink-cpu = CPU of the reading thread */
	int64_t sink_work_ns;        /* sink-work = user time per datagram */
	uint32_t sink_prio;          /* sink-prio = 0..99: the reading threads SCHED_FIFO
	                              * at this priority; 0 = SCHED_OTHER */
	uint32_t rcvbuf;             /* rcvbuf = SO_RCVBUF bytes (net.core.rmem_default) */
	uint32_t reply_bytes;        /* reply-size: > 0 makes the sink a request/response
	                              * server that answers each datagram with a frame
	                              * of this size out of the port it came from */
	int64_t busy_poll_ns;        /* busy_poll = SO_BUSY_POLL / epoll busy_poll_usecs */
	uint32_t prefer_busy_poll;   /* prefer_busy_poll = SO_PREFER_BUSY_POLL */
	uint32_t busy_poll_budget;   /* busy_poll_budget = SO_BUSY_POLL_BUDGET, 0 = 8 */
	uint32_t sink_batch;         /* sink-batch = datagrams one recvmsg returns (a TCP
	                              * reader copies several segments per call) */
	uint32_t ack_every;          /* ack-every = N: the stack sends an ACK frame back per
	                              * N delivered frames (TCP delayed ACK: 2); 0 = none */
	uint32_t ack_bytes;          /* ack-size = ACK frame size */
	/* ping -f 127.0.0.1: a thread that sends an ICMP echo over loopback,
	 * waits for the reply, and sends the next (seed 004) */
	uint32_t ping;               /* ping = on */
	uint32_t ping_cpu;           /* ping-cpu = CPU it runs on */
	uint64_t ping_count;         /* ping-count = echo requests to send (-c) */
	uint32_t ping_size;          /* ping-size = ICMP payload bytes (-s), 56 */
	int64_t ping_work_ns;        /* ping-work = ping's own time per echo: user
	                              * bookkeeping and the flood's '.' to the tty */
	/* netperf -t TCP_STREAM -H localhost: connections over loopback, each a
	 * netperf sender and a netserver receiver thread; connection i sends
	 * from CPU 2i mod cpus and receives on CPU 2i+1 mod cpus (seed 004) */
	uint32_t netperf;            /* netperf = connections, 0 = none */
	uint32_t netperf_send;       /* netperf-send-size = bytes per send() (-m) */
	uint32_t netperf_recv;       /* netperf-recv-size = bytes per recv() (-M) */
	uint32_t netperf_window;     /* netperf-window = bytes sent and not yet read
	                              * that the sender may have outstanding */
	int64_t netperf_work_ns;     /* netperf-work = user time per send() / recv() */
	uint32_t netperf_mss;        /* netperf-mss = loopback segment payload, bytes */
	/* server = epoll: worker threads, each with its own epoll set, reading
	 * the connections spread onto it (src/sim/apps/sink.c); implies the
	 * socket reader (sink = on).  busy_poll, busy_poll_budget and
	 * prefer_busy_poll are every worker's EPIOCSPARAMS. */
	uint32_t server;             /* server = none | epoll (enum scn_server) */
	uint32_t server_threads;     /* server-threads = workers, 1..SCN_MAX_WORKERS */
	char server_cpus[256];       /* server-cpus = CPU list in worker order ("0-7",
	                              * "0,2,4"); "" = worker i on CPU i */
	uint16_t server_cpu[SCN_MAX_WORKERS]; /* ... resolved by the loader */
	uint32_t server_spread;      /* server-spread = napi | rr (enum scn_spread) */
	char epoll_timeout[32];      /* epoll-timeout = epoll_wait timeout, -1 = infinite */
	int64_t epoll_timeout_ns;    /* ... resolved: -1 or ns */
	int64_t server_work_ns;      /* server-work = mean service time per request */
	char server_work_dist[32];   /* server-work-dist = fixed | exp | lognormal:SIGMA */
	uint32_t work_dist;          /* ... resolved (enum scn_work_dist) */
	double work_sigma;           /* ... lognormal's SIGMA (of ln), > 0 */
};

/* [run]: duration and measurement window. */
struct scn_run {
	int64_t duration_ns;         /* duration = simulated time */
	int64_t warmup_ns;           /* warmup = time excluded from rates */
	uint64_t seed;               /* seed = random seed (--seed overrides) */
	int64_t timeslice_ns;        /* timeslice = scheduler slice for threads */
	int64_t vmstat_ns;           /* vmstat-interval = sample every this long (vmstat N),
	                              * 0 = off; at most SCN_VMSTAT_LINES per run */
};

struct scenario {
	char name[64];               /* file basename without ".ini", or the built-in name */
	struct scn_host host;
	struct profile profile;      /* resolved from host.profile */
	uint32_t n_nics;
	struct scn_nic nic[SCN_MAX_NICS];
	uint32_t n_traffic;
	struct scn_traffic traffic[SCN_MAX_TRAFFIC];
	struct scn_route route;
	struct scn_apps apps;
	struct scn_run run;
};
/* A scenario holds no pointers except scn_traffic.trace, which points into
 * the loader's trace cache and stays valid until rxl_traces_free()
 * (rxlab/sim.h). */

#include "rxlab/adaptive.h"

/* The ethtool adaptive-rx = pkt-rate configuration of port @n. */
static inline struct adaptive_config scn_adaptive_config(const struct scn_nic *n)
{
	return (struct adaptive_config){
		.pkt_rate_low = n->pkt_rate_low, .pkt_rate_high = n->pkt_rate_high,
		.rx_usecs_low = (uint32_t)(n->rx_usecs_low_ns / 1000), .rx_frames_low = n->rx_frames_low,
		.rx_usecs = (uint32_t)(n->rx_usecs_ns / 1000), .rx_frames = n->rx_frames,
		.rx_usecs_high = (uint32_t)(n->rx_usecs_high_ns / 1000),
		.rx_frames_high = n->rx_frames_high,
		.rate_sample_interval_ns = n->sample_interval_ns,
	};
}

/* Index of the NIC named @name, or -1. */
int scenario_nic_index(const struct scenario *s, const char *name);

#endif
