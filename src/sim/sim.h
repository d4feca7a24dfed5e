/* sim.h - the simulated host: NICs, CPUs, kernel receive paths, threads.
 *
 * Roadmap.  sim.c builds a struct sim from a scenario, owns the event
 * loop and checks the invariants; results.c turns counters into results.
 * nic.c models the ports: link, RX FIFO, RX ring with DMA, TX ring, qdisc
 * and the interrupt line with its two coalescing engines
 * (src/core/coalesce.c).  cpu.c runs the three execution levels of a CPU
 * (thread < softirq < hardirq) with preemption and time accounting, and a
 * CFS-like scheduler for threads.  kernel.c is the Linux receive path:
 * ISRs for classic / isr-loop / NAPI, net_rx_action and the softirq
 * restart rule (src/core/softirq.c), NAPI (src/core/napi.c), the per-CPU
 * backlog, forwarding, ksoftirqd.  The applications (src/sim/apps/: ping,
 * netperf, the UDP sink / rr server, cpu-hogs) run above the scheduler as
 * threads with their own thread_ops.  Each model declares its state and
 * functions in its own header (nic.h, cpu.h, kernel.h, skb.h, sock.h,
 * adaptive.h, apps/ping.h ...), which this one includes; this header keeps
 * struct sim and what every model uses.  The counters that results are
 * made of are public (include/rxlab/sim.h).
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
 * elapsed time; a NAPI that holds SCHED has an owner that will poll it (a
 * CPU's poll lists or poll, the busy poller, its runnable kthread); every
 * frame that entered is in exactly one terminal counter or still in a
 * queue (checked at the end).  The engine refuses events in
 * the past, so time never goes back.
 */
#ifndef RXLAB_SIM_SIM_H
#define RXLAB_SIM_SIM_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "rxlab/bsd_poll.h"
#include "rxlab/hist.h"
#include "rxlab/scenario.h"
#include "rxlab/sim.h"
#include "sim/engine.h"
#include "sim/pkt.h"

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
	EV_EPOLL_TIMEOUT, /* obj = epoll worker, gen = its wait: epoll_wait timed out */
	EV_RPS,          /* obj = cpu: RPS frames steered to it are due (rps.c) */
	EV_WAKE,         /* obj = thread: a wake-up from another CPU arrives (sched-wake) */
};

/* Queues a host can have: every port with every queue. */
#define SIM_MAX_QUEUES (SCN_MAX_NICS * SCN_MAX_QUEUES)

/* Hard-IRQ sources other than queue vectors: the NAPI hrtimer of queue k
 * is IRQ_TIMER | k in irq queues and in chunk.what. */
#define IRQ_TIMER 0x8000
#define IRQ_TICK 0x4000  /* the clock interrupt (hardclock) */
#define IRQ_IPI 0x2000   /* the RPS IPI that raises NET_RX (rps.c) */
#define IRQ_FLAGS (IRQ_TIMER | IRQ_TICK | IRQ_IPI)
_Static_assert(SIM_MAX_QUEUES <= IRQ_IPI, "queue ids fit below the IRQ source flags");

/* Threads a host can have: ksoftirqd per CPU, cpu-hogs (<= 1024), a NAPI
 * kthread per queue, idle poller, ping, UDP sink or epoll workers (<= 256),
 * two per netperf (<= 256). */
#define SIM_MAX_THREADS (SCN_MAX_CPUS + 1024 + SIM_MAX_QUEUES + 2 + SCN_MAX_WORKERS + 2 * 256)

/* Counters that a warm-up snapshot subtracts. */
struct sim_snapshot {
	struct nic_counters *nic; /* n_nics entries */
	uint64_t acct[SCN_MAX_CPUS][ACCT_N];
	uint64_t cs[SCN_MAX_CPUS];
	uint64_t cstate_ns[SCN_MAX_CPUS][PROFILE_MAX_CSTATES];
	uint64_t cstate_usage[SCN_MAX_CPUS][PROFILE_MAX_CSTATES];
	struct softnet_counters sn[SCN_MAX_CPUS];
	int64_t thread_ns[SIM_MAX_THREADS];
	int64_t spin_ns[SIM_MAX_THREADS]; /* thread.spin_ns */
	uint64_t np_bytes;    /* bytes read by all netservers */
	int64_t t;
};

#define VM_SAMPLES_MAX (SCN_VMSTAT_LINES + 1) /* one more: the sample at 0 */
struct vm_series {
	uint32_t n, cap;
	struct vm_sample *p;
};

/* Bounded time series of moderation changes (memory fixed at start). */
struct mod_series {
	uint32_t n;
	uint64_t lost;        /* changes after the buffer filled */
	struct mod_point *p;
};

/* Append @p to @ms; when the buffer is full (or was never allocated) the
 * change is only counted.  Inline so that the controllers of adaptive.c
 * and policy.c record alike without one calling into the other. */
static inline void mod_series_add(struct mod_series *ms, const struct mod_point *p)
{
	if (!ms->p || ms->n == MOD_SERIES_MAX) {
		ms->lost++;
		return;
	}
	ms->p[ms->n++] = *p;
}

/* Each model's state and functions, in the header of its owner. */
#include "sim/nic.h"
#include "sim/cpu.h"
#include "sim/kernel.h"
#include "sim/skb.h"
#include "sim/sock.h"
#include "sim/adaptive.h"
#include "sim/apps/ping.h"
#include "sim/apps/netperf.h"
#include "sim/apps/sink.h"
#include "sim/apps/hog.h"
#include "sim/rps.h"

struct sim {
	int16_t ctx_cpu;      /* the CPU whose work the event being handled is (its chunk
	                       * ended, it took an IRQ), -1 none: who wakes a thread */
	struct cpuidle_state idle_tab[PROFILE_MAX_CSTATES]; /* the profile's idle states */
	bool idle_simple;     /* one state, no table, no governor, not idle=poll: cpu.c's
	                       * inline fast path of idle_enter() / idle_leave() */
	const struct scenario *scn;
	const struct level_ops *lvl_ops; /* the CPUs' interrupt levels: the kernel's */
	const struct proto_ops *proto[PKT_KIND_N]; /* NULL: a NIC frame */
	const struct profile *prof;
	struct engine eng;
	uint16_t n_nics;      /* queues, all ports: s->nic[] */
	uint16_t n_ports, n_cpus, n_src, n_threads;
	uint16_t n_roam;      /* threads with thread.roam set */
	struct nic *nic;      /* the queues, port by port (struct port.first) */
	struct port port[SCN_MAX_NICS];
	struct cpu *cpu;
	struct source src[SCN_MAX_TRAFFIC];
	struct thread *thr;
	struct sched sched;   /* the scheduler's host-wide state (cpu.c) */
	uint64_t *irq_cpu;    /* /proc/interrupts: queue q on CPU c at [q * n_cpus + c] */
	struct hist lat;      /* forwarding latency, ns, after warm-up */
	struct mod_series series;
	struct vm_series vm;  /* vmstat samples, allocated when vmstat-interval > 0 */
	struct sock_set sock; /* the socket readers' sockets (sink, epoll workers) */
	struct ping ping;
	struct netperf np;    /* apps.netperf streams */
	struct bsd_poll bsd;  /* FreeBSD DEVICE_POLLING state (rxpath = bsd-poll) */
	struct rps_inbox *rps; /* per CPU, when a port has rps-cpus; else NULL */
	struct sim_snapshot snap;
	bool warm;            /* warm-up is over */
	const volatile sig_atomic_t *stop; /* caller's flag: non-zero stops the run early */
	bool partial;         /* the run was stopped before its duration */
	struct tracepoints *tp; /* the run's tracepoint events (tracepoint.h), NULL: off */
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
void sim_fail(struct sim *s, const char *what, int64_t a, int64_t b);

/* The engine key of an event of @kind for object @obj, 0: unkeyed.  Which
 * kinds are keyed and why: event.c.  Key ranges: 1 + [cpus | queues (wake)
 * | queues (NAPI timer) | workers]. */
#define SIM_KEY_CPU 1u
#define SIM_KEY_WAKE (SIM_KEY_CPU + SCN_MAX_CPUS)
#define SIM_KEY_TIMER (SIM_KEY_WAKE + SIM_MAX_QUEUES)
#define SIM_KEY_EPOLL (SIM_KEY_TIMER + SIM_MAX_QUEUES)
#define SIM_KEY_N (SIM_KEY_EPOLL + SCN_MAX_WORKERS)
_Static_assert(SIM_KEY_N <= ENGINE_KEYS, "the engine has a slot for every key");

static inline uint32_t sim_event_key(uint16_t kind, uint16_t obj)
{
	switch (kind) {
	case EV_CPU_DONE:
		return obj < SCN_MAX_CPUS ? SIM_KEY_CPU + obj : 0;
	case EV_NIC_WAKE:
		return obj < SIM_MAX_QUEUES ? SIM_KEY_WAKE + obj : 0;
	case EV_NAPI_TIMER:
		return obj < SIM_MAX_QUEUES ? SIM_KEY_TIMER + obj : 0;
	case EV_EPOLL_TIMEOUT:
		return obj < SCN_MAX_WORKERS ? SIM_KEY_EPOLL + obj : 0;
	default:
		return 0;
	}
}

/* Schedule an event at @t (ns, >= now); a failure is a model bug recorded
 * in s->fatal.  Inline: a thread-heavy run schedules one per chunk, and
 * with a constant @kind the key is computed at compile time. */
static inline void sim_at(struct sim *s, int64_t t, uint16_t kind, uint16_t obj, uint32_t gen)
{
	if (engine_push_key(&s->eng, t, kind, obj, gen, sim_event_key(kind, obj)))
		sim_fail(s, "cannot schedule event (time in the past or queue full)", t, kind);
}

#endif
