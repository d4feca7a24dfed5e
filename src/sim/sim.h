/* sim.h - the simulated host: NICs, CPUs, kernel receive paths, threads.
 *
 * Roadmap.  sim.c builds a struct sim from a scenario, owns the event loop
 * and turns counters into results.  nic.c models the ports: link, RX FIFO,
 * RX ring with DMA, TX ring, qdisc and the interrupt line with its two
 * coalescing engines (src/core/coalesce.c).  cpu.c runs the three execution
 * levels of a CPU (thread < softirq < hardirq) with preemption and time
 * accounting, and a CFS-like scheduler for threads.  kernel.c is the Linux
 * receive path: ISRs for classic / isr-loop / NAPI, net_rx_action and the
 * softirq restart rule (src/core/softirq.c), NAPI (src/core/napi.c),
 * the per-CPU backlog, forwarding, ksoftirqd.
 *
 * Packets are not events.  Arrivals are drawn lazily when a NIC is brought
 * up to date (nic_rx_advance); a poll or an ISR is one CPU "chunk" whose
 * per-packet work is an arithmetic loop that stamps every packet with its
 * exact processing time.  A chunk's effects are applied when it starts;
 * if a higher level preempts it, its end moves later by the time stolen
 * (docs/model.md discusses what that approximation costs).
 *
 * Invariants (sim_check_invariants, run at warm-up and at the end): every
 * queue is within its capacity; each CPU's accounted time adds up to the
 * elapsed time; every frame that entered is in exactly one terminal counter
 * or still in a queue (checked at the end).  The engine refuses events in
 * the past, so time never goes back.
 */
#ifndef RXLAB_SIM_SIM_H
#define RXLAB_SIM_SIM_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "rxlab/coalesce.h"
#include "rxlab/adaptive.h"
#include "rxlab/bsd_poll.h"
#include "rxlab/dim.h"
#include "rxlab/itr.h"
#include "rxlab/hist.h"
#include "rxlab/napi.h"
#include "rxlab/rng.h"
#include "rxlab/softirq.h"
#include "sim/engine.h"
#include "rxlab/scenario.h"

enum sim_event_kind {
	EV_NIC_WAKE = 1, /* obj = nic: re-evaluate the interrupt line */
	EV_CPU_DONE,     /* obj = cpu: the running chunk finished */
	EV_WARMUP,       /* end of warm-up: snapshot counters */
	EV_NAPI_TIMER,   /* obj = nic: the NAPI hrtimer (deferral) expired */
	EV_DIM_APPLY,    /* obj = nic: DIM's work item writes the new profile */
	EV_TICK,         /* obj = cpu: the clock interrupt (rxpath = bsd-poll) */
	EV_WATCHDOG,     /* obj = nic: e1000_watchdog, every 2 s (ITR mode 4) */
	EV_SAMPLE,       /* run.vmstat-interval: take a vmstat sample */
	EV_BALANCE,      /* obj = cpu: an idle CPU's periodic load balancing */
};

/* Hard-IRQ sources other than NIC lines: the NAPI hrtimer of NIC k is
 * IRQ_TIMER | k in irq queues and in chunk.what. */
#define IRQ_TIMER 0x80
#define IRQ_TICK 0x40  /* the clock interrupt (hardclock) */

/* One frame in a queue.  t_evt is the time of the next thing that happens to
 * it in that queue: DMA completion in the RX ring, departure in a TX ring. */
struct pkt {
	int64_t t_arr;   /* last bit received on the ingress port */
	int64_t t_evt;
	uint32_t len;    /* frame bytes incl. FCS */
	uint16_t in_nic;
	uint8_t reply;   /* enum pkt_kind */
	uint8_t cpu;     /* CPU that allocated its sk_buff (remote-free cost) */
};

/* What a frame on a TX ring is. */
enum pkt_kind {
	PKT_DATA = 0,    /* a received frame being forwarded */
	PKT_REPLY = 1,   /* a server's reply to the request that arrived at t_arr */
	PKT_ACK = 2,     /* an ACK the host's TCP generated (ack-every) */
	PKT_PING_REQ = 3,   /* loopback ICMP echo request (ping thread), not a NIC frame */
	PKT_PING_REPLY = 4, /* loopback ICMP echo reply */
	PKT_NP_DATA = 5,    /* loopback TCP segment of a netperf stream: in_nic is the
	                     * connection, len the payload bytes it carries */
	PKT_NP_ACK = 6,     /* loopback TCP ACK of a netperf stream: in_nic is the
	                     * connection, len the bytes it acknowledges */
	PKT_KIND_N
};

/* Is @p a loopback frame of the netperf streams (not a NIC frame)? */
static inline bool pkt_is_netperf(const struct pkt *p)
{
	return p->reply == PKT_NP_DATA || p->reply == PKT_NP_ACK;
}

/* Bounded FIFO ring of packets. */
struct pktq {
	struct pkt *buf;
	uint32_t cap, head, count;
};

/* A traffic source feeding one port. */
struct source {
	const struct scn_traffic *cfg;
	uint16_t nic;
	struct rng rng;
	int64_t next_offer;   /* when the sender offers its next frame */
	uint64_t k;           /* frames offered so far (constant / on-off phase math) */
	int64_t period_ns;    /* nominal gap, for constant and on-off */
	int64_t wire_ps;      /* wire time of its next frame on its port */
	uint32_t len;         /* bytes of its next frame (a trace's change per frame) */
	uint64_t speed_bps;   /* its port's speed */
	/* constant rate: offer k is at start + floor(k * 1e9 / rate), kept as
	 * quotient and remainder and stepped by 1e9 / rate without dividing */
	int64_t off_q;
	uint64_t off_r;
};

/* Counters of one port (netstat -i and where drops happen). */
struct nic_counters {
	uint64_t entered;     /* frames resolved by the link: arrived or link-dropped */
	uint64_t link_drop;   /* sender could not get the frame on the wire */
	uint64_t rx_ok;       /* frames DMA'd into the ring (RX-OK) */
	uint64_t rx_ovr;      /* FIFO overruns: no descriptor, no FIFO room (RX-OVR) */
	uint64_t rx_drp;      /* dropped by the kernel after receipt (backlog) (RX-DRP) */
	uint64_t rx_taken;    /* frames taken from the ring by the driver */
	uint64_t rx_bytes;    /* bytes of those frames */
	uint64_t tx_ok;       /* frames transmitted (TX-OK) */
	uint64_t tx_drp;      /* qdisc drops (TX-DRP) */
	uint64_t delivered;   /* handed to the local stack / read by the sink (no route) */
	uint64_t sock_drop;   /* dropped at a full socket buffer (UDP RcvbufErrors) */
	uint64_t tx_replies;  /* of tx_ok: server replies (their request entered here) */
	uint64_t tx_bytes;    /* bytes of tx_ok frames */
	uint64_t tx_acks;     /* of tx_ok: ACKs generated by the host */
	uint64_t acks_gen;    /* ACKs generated (they enter here, not on the wire) */
	uint64_t irqs;        /* interrupts asserted */
	uint64_t rx_irqs;     /* ... with the RX cause */
	uint64_t tx_irqs;     /* ... with the TX cause */
	uint64_t tx_cleaned;  /* TX descriptors cleaned */
	uint64_t polls;       /* NAPI poll calls */
	uint64_t poll_pkts;   /* RX frames handled in those polls */
};

/* The driver's transmit lock of a port (dev->xmit_lock, netif_tx_lock) on
 * a machine with several CPUs: the intervals during which chunks already
 * computed hold it.  A CPU that wants it spins until a gap long enough for
 * its own hold (see xlock_acquire in kernel.c). */
#define XLOCK_MAX 4096
struct xlock {
	uint32_t n;
	int64_t start[XLOCK_MAX], end[XLOCK_MAX];
	uint8_t cpu[XLOCK_MAX];
};

struct nic {
	const struct scn_nic *cfg;
	uint16_t id;
	int16_t out;          /* egress NIC for forwarding, -1 = deliver locally */
	uint16_t n_src, src[SCN_MAX_TRAFFIC];
	int64_t wire_free;    /* ingress link busy until */
	/* RX */
	struct pktq ring;     /* accepted frames, not yet taken by the driver */
	uint32_t ring_used;   /* descriptors owned by hardware or holding frames */
	uint32_t notified;    /* ring entries (from head) already seen by rx_coal */
	struct pktq fifo;     /* frames waiting for a descriptor */
	uint32_t fifo_bytes;
	int64_t dma_free;     /* DMA engine busy until */
	struct coal rx_coal;
	/* TX */
	struct pktq txr;      /* descriptors not yet cleaned, in departure order */
	uint32_t departed;    /* txr entries (from head) already on the wire */
	struct pktq qdisc;
	int64_t tx_free;      /* egress link busy until */
	struct coal tx_coal;
	struct xlock *xlock;  /* dev->xmit_lock holds, NULL = not modelled */
	/* interrupt line */
	bool masked;          /* asserted and not yet re-enabled by the driver */
	uint32_t wake_gen;
	uint32_t ack_count;   /* frames delivered since the last ACK sent */
	int64_t wake_t;       /* time of the pending valid EV_NIC_WAKE, or COAL_NEVER */
	uint16_t irq_cpu;     /* CPU of the next interrupt (irq-cpu; float picks per IRQ) */
	bool isr_more;        /* an isr-loop ISR continues in its next slice */
	struct napi napi;     /* its counters are the core's: napi_watchdog() counts fires */
	uint32_t timer_gen;   /* generation of the pending EV_NAPI_TIMER */
	bool timer_armed;     /* the EV_NAPI_TIMER of timer_gen has not expired yet */
	/* the NAPI hrtimer, as the caller owns it: armed = expired + cancelled
	 * + (timer_armed), and every expiry calls napi_watchdog() once, when
	 * the timer IRQ is serviced (sim_check_invariants) */
	uint64_t timers_armed;     /* hrtimer_start() calls */
	uint64_t timers_cancelled; /* ... that restarted a timer still armed */
	uint64_t timers_expired;   /* ... that expired (a timer IRQ raised) */
	int16_t napi_thread;  /* threaded NAPI: its kthread, else -1 */
	struct dim dim;       /* adaptive-rx = dim */
	struct adaptive rate; /* adaptive-rx = pkt-rate */
	struct itr itr;       /* InterruptThrottleRate != 0 */
	/* per interrupt cycle, zeroed by the ISR (e1000 total_{rx,tx}_*) */
	uint32_t cyc_rx_pkts, cyc_rx_bytes, cyc_tx_pkts, cyc_tx_bytes;
	uint64_t wd_rx_bytes, wd_tx_bytes; /* byte counters at the last watchdog run */
	struct nic_counters c;
};

enum level { LVL_THREAD = 0, LVL_SOFTIRQ = 1, LVL_HARDIRQ = 2, LVL_N };

enum acct { ACCT_USER, ACCT_SYSTEM, ACCT_HARDIRQ, ACCT_SOFTIRQ, ACCT_IDLE, ACCT_N };

/* What a thread-level chunk is doing. */
enum thread_chunk { TCH_NONE, TCH_RUN, TCH_SWITCH, TCH_POLL, TCH_SYS };

/* What a softirq-level chunk is doing. */
enum si_step { SI_NONE, SI_ENTRY, SI_POLL, SI_BSD };

struct chunk {
	bool active;
	bool running;         /* executing since started (else paused, remaining current) */
	int64_t remaining;    /* ns left when not running */
	int64_t started;      /* when it last started running */
	uint8_t what;         /* enum thread_chunk / enum si_step / nic id for hardirq */
};

/* What a thread is, for reports (results.c singles out ksoftirqd).  The
 * scheduler never looks at it: what a thread does is its thread_ops. */
enum thread_kind { THR_HOG, THR_KSOFTIRQD, THR_NAPI, THR_SINK, THR_IDLEPOLL, THR_PING,
		   THR_NETPERF, THR_NETSERVER };

struct sim;
struct cpu;

/* What a thread does on its CPU, one const table per kind of thread: the
 * kernel's (ksoftirqd, NAPI kthreads, the idle poller: kernel.c) and the
 * applications' (src/sim/apps/).  The scheduler (cpu.c) calls these and
 * knows nothing else about a thread.
 *
 * Contract of start and chunk_done: called with the thread current on @c
 * (c->cur) and the thread level not running.  Before returning the op
 * either starts a thread-level chunk (thread_chunk() or cpu_run() at
 * LVL_THREAD, so that exactly one EV_CPU_DONE is pending for @c) or gives
 * the CPU up through the scheduler (sched_sleep(), sched_pick(), or
 * sched_thread_continue() returning false).  An op may also run softirqs
 * inline after arming its chunk (kern_local_bh_enable()). */
struct thread_ops {
	/* The thread got the CPU and has no preempted chunk to finish: it was
	 * just switched to, or picked again after its timeslice. */
	void (*start)(struct sim *s, struct cpu *c);
	/* Its chunk (c->lvl[LVL_THREAD].what) ended. */
	void (*chunk_done)(struct sim *s, struct cpu *c);
	/* Bucket of its TCH_RUN chunks: ACCT_USER for application code,
	 * ACCT_SYSTEM for kernel threads.  Every other chunk (syscall, poll,
	 * context switch) is system time whoever runs it. */
	enum acct run_acct;
	/* Idle priority (FreeBSD's idle poller): picked only when no other
	 * thread of its CPU is runnable, not load for idle balancing, and any
	 * wake-up on its CPU preempts it. */
	bool idle_prio;
	/* A chunk the scheduler preempted is finished later for the time it
	 * had left (its effects were applied when it started).  False for a
	 * thread whose chunks are interchangeable (a cpu-hog's timeslices):
	 * it starts afresh. */
	bool resume_left;
};

struct thread {
	const struct thread_ops *ops;
	enum thread_kind kind;
	uint16_t cpu;
	bool runnable;
	int64_t vruntime;     /* ns of CPU received (nice 0 weight) */
	int64_t cpu_ns;       /* total CPU time (top's TIME) */
	uint16_t nic;         /* THR_NAPI: the port whose NAPI it polls;
	                       * THR_NETPERF / THR_NETSERVER: its connection */
	int64_t user_ns;      /* THR_SINK: user work owed for the batch just received */
	bool roam;            /* no CPU affinity: an idle CPU may take it (idle_pull) */
	int64_t t_off;        /* when it last left its CPU */
	int64_t left;         /* a chunk preempted by the scheduler: ns still to run */
	uint8_t left_what;    /* ... and its enum thread_chunk */
	char name[48];
};

#define POLL_LIST_MAX (SCN_MAX_NICS + 1)

/* A small FIFO of NAPI ids: 0..n_nics-1 are NIC NAPIs, NAPI_BACKLOG the
 * per-CPU backlog pseudo-NAPI. */
#define NAPI_BACKLOG 0xff
struct napi_list {
	uint8_t id[POLL_LIST_MAX];
	uint8_t n;
};

struct softnet_counters {
	uint64_t processed;   /* softnet_stat column 1 */
	uint64_t dropped;     /* column 2: backlog overflow */
	uint64_t time_squeeze;/* column 3 */
	uint64_t ksoftirqd_wakes;
	uint64_t softirq_runs;
	/* sk_buff life cycle on this CPU */
	uint64_t skb_hit;     /* RX refills served from the recycle pool */
	uint64_t skb_miss;    /* ... that went to the slab (skb-recycle = on) */
	uint64_t remote_free; /* sk_buffs freed here that another CPU allocated */
	uint64_t xmit_spin_ns;/* time spent waiting for a device's xmit lock */
	uint64_t migrations;  /* threads this CPU took from another (idle balancing) */
};

struct cpu {
	uint16_t id;
	struct chunk lvl[LVL_N];
	uint32_t gen;
	int64_t acct_t;
	uint64_t acct[ACCT_N];
	uint64_t cs;          /* context switches */
	/* hard IRQs waiting while one is serviced, at most one per source (a
	 * controller has one pending bit per line): NIC lines, NAPI timers, the tick */
	uint16_t irq_q[2 * SCN_MAX_NICS + 1];
	uint8_t n_irq_q;
	/* softirq */
	bool net_rx_pending;  /* NET_RX_SOFTIRQ raised */
	bool bsd_pending;     /* FreeBSD: the POLL netisr is scheduled */
	bool in_bsd;          /* the softirq level is running the POLL netisr */
	uint8_t bsd_cmd;      /* enum bsd_poll_cmd of the burst being polled */
	bool si_in_thread;    /* current softirq run belongs to ksoftirqd */
	struct softirq_run sr;
	struct netrx_budget nb;
	struct napi_list poll_list, local, repoll;
	uint8_t cur_napi;
	uint32_t cur_work;
	uint32_t thr_work;    /* frames of the threaded-NAPI poll running */
	uint32_t bp_work;     /* frames of the busy poll running */
	/* backlog (netif_rx) */
	struct pktq backlog;
	struct napi backlog_napi;
	uint32_t skb_pool;    /* recycled sk_buffs ready for RX refill (skb-recycle) */
	/* scheduling */
	int16_t cur;          /* running thread, -1 = idle */
	int16_t next;         /* thread being switched to */
	int16_t ksoftirqd;
	int64_t slice_start;
	bool resched;         /* a woken thread should preempt the current one */
	int64_t balance_t;    /* pending EV_BALANCE, or 0 */
	int64_t exit_ns;      /* idle-exit owed by the hard IRQ or switch that ends an
	                       * idle period (taken by kern_isr / sched_pick) */
	struct softnet_counters sn;
};

/* Threads a host can have: ksoftirqd per CPU, cpu-hogs (<= 1024), a NAPI
 * kthread per port, idle poller, ping, UDP sink, two per netperf (<= 256). */
#define SIM_MAX_THREADS (SCN_MAX_CPUS + 1024 + SCN_MAX_NICS + 3 + 2 * 256)

/* Counters that a warm-up snapshot subtracts. */
struct sim_snapshot {
	struct nic_counters nic[SCN_MAX_NICS];
	uint64_t acct[SCN_MAX_CPUS][ACCT_N];
	uint64_t cs[SCN_MAX_CPUS];
	struct softnet_counters sn[SCN_MAX_CPUS];
	uint64_t irq_cpu[SCN_MAX_NICS][SCN_MAX_CPUS];
	int64_t thread_ns[SIM_MAX_THREADS];
	uint64_t np_bytes;    /* bytes read by all netservers */
	int64_t t;
};


/* The UDP socket that locally delivered frames queue on.  Memory is
 * charged per datagram as frame bytes + SOCK_SKB_OVERHEAD, an estimate of
 * sk_buff truesize overhead, against rcvbuf. */
#define SOCK_SKB_OVERHEAD 256
#define SINK_BATCH 64      /* datagrams received per chunk before user work runs */
struct sock {
	struct pktq q;
	uint64_t bytes;       /* charged to rcvbuf */
	int16_t reader;       /* the sink thread, -1 = none */
	bool waiting;         /* reader sleeps in recvmsg */
	uint16_t napi;        /* NIC whose NAPI the socket's frames came from (busy poll) */
	struct pktq held;     /* requests received, reply not yet sent */
	/* busy poll (napi_busy_loop) */
	bool bp_active;       /* inside the busy loop */
	bool bp_owned;        /* the loop owns the NAPI (SCHED | IN_BUSY_POLL) */
	uint8_t next;         /* enum sink_next: what follows the running chunk */
	int64_t bp_start;
	uint64_t bp_polls, bp_pkts, suspends, resumes;
};

/* What a datagram is charged against rcvbuf. */
static inline uint32_t sock_truesize(const struct pkt *p)
{
	return p->len + SOCK_SKB_OVERHEAD;
}

/* ping -f 127.0.0.1 (apps.ping): one echo outstanding at a time. */
struct ping {
	int16_t thread;       /* the ping thread, -1 = none */
	uint8_t step;         /* enum ping_step in ping.c: what follows the running chunk */
	bool waiting;         /* asleep in recvmsg() until the reply is queued */
	bool done;            /* ping-count replies received */
	uint32_t ready;       /* replies queued on its raw socket, not yet read */
	uint32_t queued;      /* its frames in a backlog (not NIC frames: accounting) */
	int64_t t_send;       /* gettimeofday() before the outstanding sendmsg() */
	int64_t t_reply;      /* the queued reply's timestamp (netif_rx, SO_TIMESTAMP) */
	int64_t t_first, t_last; /* first send, last reply read: iputils' "time" */
	uint64_t sent, echoed, received, lost;
	int64_t rtt_min, rtt_max; /* ns */
	double rtt_sum, rtt_sum2; /* ns, ns^2 */
	int64_t ewma8;        /* iputils' rtt estimate, x8, ns */
};

/* What to do when the running chunk of the sender ends. */
enum np_snd_step {
	NS_BEGIN = 0, /* netperf's user work before send() */
	NS_ENTER,     /* user work done: syscall entry */
	NS_SEGMENT,   /* send the next segment, or wait for the window */
	NS_XMIT,      /* segment built: queue it on the backlog */
	NS_AFTER,     /* segment queued: next segment, or return */
};

/* ... and of the receiver. */
enum np_rcv_step {
	NR_BEGIN = 0, /* recv() entry */
	NR_CHECK,     /* read what is queued, or sleep */
	NR_READ,      /* bytes copied: build the window update */
	NR_ACK,       /* queue the ACK, return from recv() */
	NR_USER,      /* netserver's user work */
};

/* One netperf TCP_STREAM connection over loopback (apps.netperf): the
 * netperf process sends, its netserver child receives. */
struct np_conn {
	int16_t snd, rcv;     /* the two threads */
	uint8_t snd_step, rcv_step; /* enum np_snd_step / np_rcv_step */
	bool snd_wait;        /* netperf sleeps in send(): the window is full */
	bool rcv_wait;        /* netserver sleeps in recv(): nothing to read */
	uint32_t unacked;     /* bytes sent and not yet acknowledged */
	uint32_t unread;      /* bytes in netserver's receive queue */
	uint32_t snd_left;    /* bytes of the send() in progress not yet segmented */
	uint32_t snd_seg;     /* bytes of the segment being built */
	uint32_t reading;     /* bytes the recv() in progress takes */
	uint64_t bytes;       /* bytes netserver has read */
	uint64_t sent;        /* bytes queued as segments */
	uint64_t acked;       /* bytes whose ACK the sender has processed */
};

/* All netperf connections, and their loopback frames in backlogs. */
struct netperf {
	uint32_t n;
	struct np_conn *c;
	uint64_t queued;      /* their frames in backlogs (not NIC frames: accounting) */
	uint64_t drops;       /* their frames dropped at a full backlog */
};

/* One change of a NIC's moderation made by an adaptive controller. */
enum mod_kind { MOD_DIM, MOD_ITR, MOD_PKT_RATE };
struct mod_point {
	int64_t t;            /* ns */
	uint16_t nic;
	uint8_t kind;         /* enum mod_kind */
	uint8_t ix;           /* DIM profile index / pkt-rate set */
	int64_t usecs_ns;     /* resulting rx-usecs (DIM, pkt-rate) or ITR gap */
	uint32_t frames;      /* resulting rx-frames; ITR: interrupts/s */
};

/* Cumulative counters at one vmstat sample (vmstat-interval). */
struct vm_sample {
	int64_t t;
	uint32_t r;           /* runnable threads, the running ones included */
	uint64_t in, cs;      /* interrupts (all ports), context switches */
	uint64_t acct[ACCT_N];/* CPU time by bucket, summed over CPUs, ns */
};

#define VM_SAMPLES_MAX (SCN_VMSTAT_LINES + 1) /* one more: the sample at 0 */
struct vm_series {
	uint32_t n, cap;
	struct vm_sample *p;
};

/* Bounded time series of moderation changes (memory fixed at start). */
#define MOD_SERIES_MAX 65536
struct mod_series {
	uint32_t n;
	uint64_t lost;        /* changes after the buffer filled */
	struct mod_point *p;
};

/* The handlers of the CPU's two interrupt levels (kernel.c provides
 * kern_level_ops): cpu.c runs chunks for them and calls back when one
 * ends.  Every handler leaves its level with a chunk armed, or ends it
 * (cpu_end) and continues the CPU (cpu_resume or kern_irq_exit). */
struct level_ops {
	/* Hard IRQ handler of source @irq starts now on @c: returns its
	 * duration in ns (see kern_isr). */
	int64_t (*isr)(struct sim *s, struct cpu *c, uint16_t irq);
	/* The hard IRQ chunk of source @irq ended. */
	void (*isr_done)(struct sim *s, struct cpu *c, uint16_t irq);
	/* The softirq-level chunk ended. */
	void (*softirq_step)(struct sim *s, struct cpu *c);
};

/* A local protocol that loopback frames of one enum pkt_kind belong to (as
 * the kernel's inet_protos): the application that sends them registers it
 * in s->proto[kind] when it is built, and kernel.c hands it the frames.
 * An application counts its frames in backlogs itself: before it calls
 * kern_netif_rx(), and down again in input and drop. */
struct proto_ops {
	/* The stack handles @p on @c at @t (process_backlog): returns the
	 * time after. */
	int64_t (*input)(struct sim *s, struct cpu *c, struct pkt *p, int64_t t);
	/* @p was dropped at a full backlog. */
	void (*drop)(struct sim *s, const struct pkt *p);
};

struct sim {
	const struct scenario *scn;
	const struct level_ops *lvl_ops; /* the CPUs' interrupt levels: the kernel's */
	const struct proto_ops *proto[PKT_KIND_N]; /* NULL: a NIC frame */
	const struct profile *prof;
	struct engine eng;
	uint16_t n_nics, n_cpus, n_src, n_threads;
	uint16_t n_roam;      /* threads with thread.roam set */
	struct nic nic[SCN_MAX_NICS];
	struct cpu *cpu;
	struct source src[SCN_MAX_TRAFFIC];
	struct thread *thr;
	uint64_t irq_cpu[SCN_MAX_NICS][SCN_MAX_CPUS]; /* /proc/interrupts */
	struct hist lat;      /* forwarding latency, ns, after warm-up */
	struct mod_series series;
	struct vm_series vm;  /* vmstat samples, allocated when vmstat-interval > 0 */
	struct sock sock;
	struct ping ping;
	struct netperf np;    /* apps.netperf streams */
	struct bsd_poll bsd;  /* FreeBSD DEVICE_POLLING state (rxpath = bsd-poll) */
	struct sim_snapshot snap;
	bool warm;            /* warm-up is over */
	const volatile sig_atomic_t *stop; /* caller's flag: non-zero stops the run early */
	bool partial;         /* the run was stopped before its duration */
	char fatal[256];      /* set when the model hit an impossible state */
};

/* ---- sim.c ---- */
/* Build the host of @scn (which must outlive @s).  0, or -1 with s->fatal. */
int sim_init(struct sim *s, const struct scenario *scn);
void sim_free(struct sim *s);
/* Run to the scenario's duration, or until *s->stop (if set) becomes
 * non-zero: then the run ends at the time reached and s->partial is set.
 * 0, or -1 with s->fatal set. */
int sim_run(struct sim *s);
/* 0, or -1 with s->fatal describing the first broken invariant. */
int sim_check_invariants(struct sim *s);
/* ---- event.c ---- */
/* Schedule an event; a failure is a model bug recorded in s->fatal. */
void sim_at(struct sim *s, int64_t t, uint16_t kind, uint16_t obj, uint32_t gen);
void sim_fail(struct sim *s, const char *what, int64_t a, int64_t b);

/* ---- queues (nic.c) ---- */
static inline struct pkt *pktq_at(const struct pktq *q, uint32_t i)
{
	uint32_t j = q->head + i;

	return &q->buf[j >= q->cap ? j - q->cap : j];
}
static inline void pktq_push(struct pktq *q, const struct pkt *p)
{
	*pktq_at(q, q->count++) = *p;
}
static inline struct pkt pktq_pop(struct pktq *q)
{
	struct pkt p = q->buf[q->head];

	q->head = q->head + 1 == q->cap ? 0 : q->head + 1;
	q->count--;
	return p;
}
int pktq_init(struct pktq *q, uint32_t cap);
void pktq_free(struct pktq *q);

/* ---- nic.c ---- */
int nic_init(struct sim *s, struct nic *n, const struct scn_nic *cfg, uint16_t id);
void nic_free(struct nic *n);
/* Enable the interrupt line at the start of the run. */
void nic_start(struct sim *s, struct nic *n);
/* Bring RX up to @t: draw arrivals, fill FIFO/ring, tell the coalescer about
 * DMA completions.  Calls with an earlier @t than before are no-ops. */
void nic_rx_advance(struct sim *s, struct nic *n, int64_t t);
/* Is the ring's head frame in host memory at @t? (after nic_rx_advance(t)) */
static inline bool nic_rx_ready(const struct nic *n, int64_t t)
{
	return n->ring.count && pktq_at(&n->ring, 0)->t_evt <= t;
}
struct pkt nic_rx_take(struct nic *n);
/* Earliest time a frame can be ready in host memory (ring head, else a
 * lower bound from the link). */
int64_t nic_rx_next_ready(struct sim *s, struct nic *n);
/* The driver gives @k descriptors back at @t; waiting FIFO frames move in. */
void nic_rx_refill(struct sim *s, struct nic *n, int64_t t, uint32_t k);
/* Transmit @p at @t (from forwarding): ring, else qdisc, else drop. */
void nic_xmit(struct sim *s, struct nic *n, const struct pkt *p, int64_t t);
/* Count frames on the wire by @t (TX-OK, latency, TX completions). */
void nic_tx_advance(struct sim *s, struct nic *n, int64_t t);
/* CPU @c cleans transmitted descriptors at @t and frees their sk_buffs;
 * returns how many, and in *remote how many of those sk_buffs another CPU
 * allocated (the costs are the caller's). */
uint32_t nic_tx_clean(struct sim *s, struct cpu *c, struct nic *n, int64_t t, uint32_t *remote);
/* Driver read the cause register at @t. */
void nic_ack(struct sim *s, struct nic *n, int64_t t);
/* Driver re-enabled the interrupt at @t. */
void nic_unmask(struct sim *s, struct nic *n, int64_t t);
/* EV_NIC_WAKE */
void nic_wake(struct sim *s, struct nic *n, uint32_t gen);
/* Frames held in this port's queues (for the accounting check). */
uint64_t nic_in_flight(const struct nic *n);

/* ---- cpu.c ---- */
void cpu_init(struct sim *s, struct cpu *c, uint16_t id);
/* Charge time since the last call to whatever ran. */
void cpu_account(struct sim *s, struct cpu *c);
/* Start a chunk of @dur ns at @lvl (which must be the top level). */
void cpu_run(struct sim *s, struct cpu *c, enum level lvl, uint8_t what, int64_t dur);
/* Activate @lvl above the running chunk, which is paused. */
void cpu_push(struct sim *s, struct cpu *c, enum level lvl);
/* The top level @lvl is finished; nothing runs until cpu_resume(). */
void cpu_end(struct sim *s, struct cpu *c, enum level lvl);
/* Continue the highest active level, or let the scheduler pick a thread. */
void cpu_resume(struct sim *s, struct cpu *c);
/* Highest active level, or -1 when the CPU is idle. */
int cpu_top(const struct cpu *c);
/* A hard IRQ from source @irq (see kern_isr) arrives. */
void cpu_irq(struct sim *s, struct cpu *c, uint16_t irq);
/* EV_CPU_DONE */
void cpu_done(struct sim *s, struct cpu *c, uint32_t gen);
/* Add thread @name on @cpu (not runnable) doing @ops; returns its index.
 * Only while the host is built (sim_init). */
int sched_add_thread(struct sim *s, const struct thread_ops *ops, enum thread_kind kind,
		     uint16_t cpu, const char *name);
/* Thread @t becomes runnable. */
void sched_wake(struct sim *s, struct thread *t);
bool sched_need_resched(struct sim *s, struct cpu *c);
/* A kernel thread on @c is about to run its next step: without @has_work
 * it sleeps, and if another thread should run it yields; either way the
 * scheduler picks and false is returned.  True: go on. */
bool sched_thread_continue(struct sim *s, struct cpu *c, bool has_work);
/* The running thread of @c blocks (no longer runnable); the scheduler picks. */
void sched_sleep(struct sim *s, struct cpu *c);
/* The running thread of @c starts a chunk of @dur ns (at least 1) doing @what. */
void thread_chunk(struct sim *s, struct cpu *c, enum thread_chunk what, int64_t dur);
/* Thread level has nothing running: pick the next thread (or go idle). */
void sched_pick(struct sim *s, struct cpu *c);
/* EV_BALANCE: @c's periodic balancing while idle. */
void sched_balance_tick(struct sim *s, struct cpu *c);

/* ---- kernel.c ---- */
/* The CPU's interrupt levels: the hard IRQ handler of a source (a NIC
 * index, IRQ_TIMER | NIC index, or IRQ_TICK) returns a duration that begins
 * with the profile's idle-exit when the IRQ ended an idle period
 * (c->exit_ns); the softirq level runs handle_softirqs(). */
extern const struct level_ops kern_level_ops;
/* ksoftirqd/N, the threaded-NAPI kthread of a port (thread.nic), and the
 * FreeBSD idle poller (kern.polling.idle_poll). */
extern const struct thread_ops kern_ksoftirqd_ops, kern_napi_thread_ops, kern_idle_poll_ops;
/* irq_exit(): run softirqs inline if pending and not already in one. */
void kern_irq_exit(struct sim *s, struct cpu *c);
/* Begin a handle_softirqs() run at the softirq level (already pushed). */
void kern_softirq_begin(struct sim *s, struct cpu *c);
/* EV_NAPI_TIMER */
void kern_napi_timer(struct sim *s, struct nic *n, uint32_t gen);
/* EV_TICK: the clock interrupt of @c; schedules the next one. */
void kern_tick(struct sim *s, struct cpu *c);

/* ---- skb.c: sk_buff allocation, recycling, and the xmit lock ---- */
/* CPU @c allocates the sk_buff of RX frame @p (driver refill): stamps
 * p->cpu, serves it from c's recycle pool when skb-recycle = on and the
 * pool has one.  Returns the CPU time it costs (skb-alloc, or 0 on a hit). */
int64_t skb_alloc(struct sim *s, struct cpu *c, struct pkt *p);
/* CPU @c frees the sk_buff of @p (into its pool when recycling and not
 * full).  Returns true when another CPU allocated it (remote-free). */
bool skb_free(struct sim *s, struct cpu *c, const struct pkt *p);
/* CPU @c wants port @n's xmit lock at @t for about @hold ns: returns when
 * it gets it, after spinning (counted in xmit_spin_ns) through the holds of
 * chunks on other CPUs; @t when the lock is not modelled (one CPU or
 * xmit-locked = 0).  xlock_release() then records the hold [at, end). */
int64_t xlock_acquire(struct sim *s, struct cpu *c, struct nic *n, int64_t t, int64_t hold);
void xlock_release(struct sim *s, struct cpu *c, struct nic *n, int64_t at, int64_t end);
/* Allocate port locks where they are modelled.  0 or -1 (s->fatal). */
int xlock_init(struct sim *s);
void xlock_free(struct sim *s);

/* netif_rx(): queue @p on @c's backlog (or drop it) and raise NET_RX. */
void kern_netif_rx(struct sim *s, struct cpu *c, struct pkt *p);

/* ---- apps/ping.c: ping -f over loopback ---- */
/* Create the ping thread when apps.ping is on and register its loopback
 * protocol.  0. */
int ping_init(struct sim *s);

/* ---- apps/hog.c: cpu-hogs ---- */
/* Create the apps.cpu-hogs threads, runnable.  0. */
int hog_init(struct sim *s);

/* ---- apps/netperf.c: netperf TCP_STREAM over loopback ---- */
/* Create the connections' threads (after the kernel threads) and register
 * their loopback protocol.  0 or -1. */
int netperf_init(struct sim *s);
void netperf_free(struct sim *s);
/* Bytes read by all netservers so far. */
uint64_t netperf_bytes(const struct sim *s);

/* ---- sock.c: the UDP socket ---- */
/* Allocate its queues when apps.sink is on.  0 or -1. */
int sock_init(struct sim *s);
/* Queue frame @p on the socket at @t, or drop it (rcvbuf full). */
void sock_enqueue(struct sim *s, struct pkt *p, int64_t t);

/* ---- apps/sink.c: the socket's reader ---- */
/* Create the reader thread when apps.sink is on, asleep in recvmsg().  0. */
int sink_init(struct sim *s);

/* ---- kernel.c, for busy polling ---- */
/* A driver ->poll() of at most @limit RX frames starting at @t; returns
 * the time after it and the frames in *work. */
int64_t kern_nic_poll(struct sim *s, struct cpu *c, struct nic *n, int64_t t, uint32_t limit,
		      uint32_t *work);
/* The driver is done with a poll of @work < budget frames: complete, and
 * re-arm / arm the timer / reschedule (onto @c) as napi_complete_done() says. */
void kern_napi_settle(struct sim *s, struct cpu *c, struct nic *n, uint32_t work);
/* napi_schedule() from process context on @c (napi_resume_irqs). */
void kern_napi_schedule(struct sim *s, struct cpu *c, struct nic *n);
/* local_bh_enable() in a thread on @c: run a raised NET_RX inline now.
 * Call after the thread's next chunk is armed. */
void kern_local_bh_enable(struct sim *s, struct cpu *c);
/* hrtimer_start(napi->timer, @rel_ns) (napi_suspend_irqs). */
void kern_napi_timer_start(struct sim *s, struct nic *n, int64_t rel_ns);

/* ---- adaptive.c (driver-side moderation controllers) ---- */
void adapt_init(struct sim *s, struct nic *n);
/* The driver is about to re-enable @n's interrupt: controllers sample. */
void adapt_on_rearm(struct sim *s, struct nic *n);
/* EV_DIM_APPLY */
void adapt_dim_apply(struct sim *s, struct nic *n);
/* EV_WATCHDOG */
void adapt_watchdog(struct sim *s, struct nic *n);

#endif
