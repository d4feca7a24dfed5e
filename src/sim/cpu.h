/* cpu.h - a CPU's three execution levels, its per-CPU kernel state, the
 * threads and their ops, and the scheduler (cpu.c). */
#ifndef RXLAB_SIM_CPU_H
#define RXLAB_SIM_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rxlab/cpuidle.h"
#include "rxlab/napi.h"
#include "rxlab/o1sched.h"
#include "rxlab/profile.h"
#include "rxlab/sim.h"
#include "rxlab/softirq.h"
#include "sim/pkt.h"
#include "sim/o1rq.h"
#include "sim/runq.h"

struct sim;
struct cpu;

enum level { LVL_THREAD = 0, LVL_SOFTIRQ = 1, LVL_HARDIRQ = 2, LVL_N };

/* What a thread-level chunk is doing. */
enum thread_chunk { TCH_NONE, TCH_RUN, TCH_SWITCH, TCH_POLL, TCH_SYS };

/* What a softirq-level chunk is doing. */
enum si_step { SI_NONE, SI_ENTRY, SI_POLL, SI_BSD };

struct chunk {
	bool active;
	bool running;         /* executing since started (else paused, remaining current) */
	int64_t remaining;    /* ns left when not running */
	int64_t started;      /* when it last started running */
	uint16_t what;        /* enum thread_chunk / enum si_step / IRQ source for hardirq */
};

/* What a thread is, for reports (results.c singles out ksoftirqd).  The
 * scheduler never looks at it: what a thread does is its thread_ops. */
enum thread_kind { THR_HOG, THR_KSOFTIRQD, THR_NAPI, THR_SINK, THR_IDLEPOLL, THR_PING,
		   THR_NETPERF, THR_NETSERVER };

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
	int64_t spin_ns;      /* busy-polling THR_NAPI: CPU ns of its polls that found
	                       * nothing, those ended (kern_spin_ns() adds the current one) */
	int64_t spin_from;    /* ... its cpu_ns when the current one began, if spinning */
	bool spinning;
	bool waking;          /* a wake-up from another CPU is on its way (sched-wake):
	                       * EV_WAKE makes it runnable */
	uint8_t rt_prio;      /* 0: SCHED_OTHER (the CFS-like fair class); 1..99: SCHED_FIFO
	                       * at that priority (chrt -f): picked before every fair
	                       * thread, preempts a fair one at once on wake-up, never
	                       * preempted by a fair thread or its timeslice, only by a
	                       * higher priority; equal priorities by thread index.
	                       * Set while the host is built (before sched_init).  No
	                       * RT throttling (sched_rt_runtime_us) is modelled. */
	bool roam;            /* no CPU affinity: an idle CPU may take it (idle_pull), and
	                       * with host.sched_wake_idle a wake-up may place it */
	int64_t t_off;        /* when it last left its CPU */
	int64_t left;         /* a chunk preempted by the scheduler: ns still to run */
	uint8_t left_what;    /* ... and its enum thread_chunk */
	/* host.scheduler = o1 (cpu.c, o1rq.h): its priority numbers, its key in
	 * its CPU's fair queue while it waits there (a running thread keeps
	 * the key it will go back with), and whether the wake-up on its way
	 * (thread.waking) came from interrupt context (activated = 2).  Nice
	 * is 19 for ksoftirqd (2.6.12 kernel/softirq.c ksoftirqd(): set_user_nice
	 * 19), 0 for every other thread. */
	struct o1_task o1;
	int64_t o1_key;
	bool o1_irq_wake;
	char name[48];
};

/* A FIFO of NAPI ids: 0..n_nics-1 are the queues' NAPIs, NAPI_BACKLOG the
 * per-CPU backlog pseudo-NAPI.  Room for every NAPI of the host (each is
 * on at most one list), allocated with the CPU. */
#define NAPI_BACKLOG 0xffff
struct napi_list {
	uint16_t *id;
	uint16_t n;
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
	uint16_t *irq_q;      /* room for 2 * n_nics + 2: vectors, NAPI timers, tick, IPI */
	uint16_t n_irq_q;
	/* softirq */
	bool net_rx_pending;  /* NET_RX_SOFTIRQ raised */
	bool bsd_pending;     /* FreeBSD: the POLL netisr is scheduled */
	bool in_bsd;          /* the softirq level is running the POLL netisr */
	uint8_t bsd_cmd;      /* enum bsd_poll_cmd of the burst being polled */
	bool si_in_thread;    /* current softirq run belongs to ksoftirqd */
	struct softirq_run sr;
	struct netrx_budget nb;
	struct napi_list poll_list, local, repoll;
	uint16_t cur_napi;
	uint32_t cur_work;
	bool cur_stay;        /* ... and the poll keeps it listed (full, or its driver's
	                       * poll-exit rule; kernel.c poll_start) */
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
	int64_t slice_start;  /* when the running thread last got the CPU (o1: since when
	                       * its timeslice is charged) */
	int64_t o1_due;       /* o1: when the running fair thread's slice ends or its
	                       * round robin (TIMESLICE_GRANULARITY) is due */
	struct o1rq o1;       /* o1: the arrays' generations and starvation state */
	bool resched;         /* a woken thread should preempt the current one */
	int64_t balance_t;    /* pending EV_BALANCE, or 0 */
	int64_t exit_ns;      /* exit latency owed by the hard IRQ or switch that ends an
	                       * idle period (taken by the hard IRQ handler / sched_pick) */
	/* idle states (idle.c) */
	int8_t busy;          /* busy level for irq-cpu = float (cpu_busy_rank()), while
	                       * sched.float_on: its bit in sched.busy[busy] is set */
	int8_t cstate;        /* state the CPU is idle in (profile.cstate[]), -1: not idle */
	int64_t idle_begin;   /* when the idle period began (the governor's measure) */
	int64_t idle_acct_t;  /* residency counted up to here */
	int64_t wake_until;   /* [cstates]: the exit latency of the last wake-up runs
	                       * until here, counted as idle (cpuidle counts it in the
	                       * state's time); without the table idle-exit is CPU time */
	struct cpuidle gov;   /* the idle governor's state */
	uint64_t cstate_ns[PROFILE_MAX_CSTATES];    /* residency per state, ns */
	uint64_t cstate_usage[PROFILE_MAX_CSTATES]; /* entries per state */
	/* The run queue (cpu.c keeps these in step with thread.runnable and
	 * thread.cpu).  The running thread (cur) is in neither queue: its
	 * vruntime grows while it runs, and CFS too keeps curr out of its tree. */
	struct runq rt;       /* runnable SCHED_FIFO threads of this CPU but cur, keyed by
	                       * -rt_prio (highest priority first) */
	struct runq fair;     /* runnable threads of this CPU but cur, not idle-priority */
	struct runq idle;     /* runnable idle-priority threads but cur */
	uint16_t nr_running;  /* runnable threads, cur included (SCHED_FIFO ones too),
	                       * idle-priority not: the
	                       * load idle balancing compares */
	struct rq_list roam;  /* runnable threads with thread.roam: what idle_pull may take */
	struct rq_list members; /* every thread whose thread.cpu is this CPU */
	struct softnet_counters sn;
};

/* The host's scheduler state besides the per-CPU queues: the arrays that
 * thread the queues and lists through the threads table (indexed by
 * thread), and two CPU bitmaps that let a decision find another CPU
 * without looking at its threads.  Bit c of a bitmap is word c / 64, bit
 * c % 64; there are words = ceil(cpus / 64) words. */
struct sched {
	int32_t *pos;              /* slot in its CPU's fair or idle queue, -1: not queued */
	struct rq_link *roam_link; /* cpu.roam lists */
	struct rq_link *member_link; /* cpu.members lists */
	struct rq_ent *pool;       /* the queues' slots */
	uint64_t *pullable;        /* nr_running >= 2 and a runnable roaming thread */
	uint64_t *idle;            /* no thread running, switched to or runnable */
	uint64_t *busy[4];         /* irq-cpu = float: the CPUs of each busy level
	                            * (cpu_busy_rank()), kept while float_on */
	uint16_t words;
	bool float_on;             /* a port has irq-cpu = float */
	bool float_scan;           /* tests only: cpu_float_pick() answers with
	                            * cpu_float_scan(), the slow path */
	bool wake_idle;            /* host.sched_wake_idle */
	bool o1;                   /* host.scheduler = o1 */
	uint32_t hz;               /* host.hz: the O(1) scheduler's jiffy */
	uint64_t visits;           /* threads examined one by one (list walks): what
	                            * tests count to show a decision's cost */
};

/* The handlers of the CPU's two interrupt levels (kernel.c provides
 * kern_level_ops): cpu.c runs chunks for them and calls back when one
 * ends.  Every handler leaves its level with a chunk armed, or ends it
 * (cpu_end) and continues the CPU (cpu_resume or kern_irq_exit). */
struct level_ops {
	/* Hard IRQ handler of source @irq starts now on @c: returns its
	 * duration in ns, which begins with the idle-exit the CPU owes when
	 * the IRQ ended an idle period (c->exit_ns, which it takes). */
	int64_t (*isr)(struct sim *s, struct cpu *c, uint16_t irq);
	/* The hard IRQ chunk of source @irq ended. */
	void (*isr_done)(struct sim *s, struct cpu *c, uint16_t irq);
	/* The softirq-level chunk ended. */
	void (*softirq_step)(struct sim *s, struct cpu *c);
};

/* ---- idle states (idle.c) ---- */

/* Set up @c's governor from the profile and host.idle / host.max-cstate. */
void idle_init(struct sim *s, struct cpu *c);
/* @c has nothing to run at any level: it enters the state its governor
 * picks (nothing when it is idle already).  cpu.c calls it through a
 * static inline wrapper that handles the one-state table itself. */
void idle_enter(struct sim *s, struct cpu *c);
/* @c is woken (an interrupt, an IPI, a thread made runnable): ends its idle
 * period and returns the exit latency it owes before any work, ns, plus
 * the profile's cold-wake (CPU time) when the period lasted cold-after or
 * more; 0 when it was not idle.  Exactly once per wake-up (a wrapper in
 * cpu.c too). */
int64_t idle_leave(struct sim *s, struct cpu *c);
/* Count the residency of an idle period still open up to now (snapshots
 * and the end of the run). */
void idle_settle(struct sim *s, struct cpu *c);

/* Set up CPU @id with room for the IRQ sources and NAPIs of the host's
 * s->n_nics queues.  0, or -1 out of memory (cpu_free() releases it). */
int cpu_init(struct sim *s, struct cpu *c, uint16_t id);
void cpu_free(struct cpu *c);
/* Charge time since the last call to whatever ran. */
void cpu_account(struct sim *s, struct cpu *c);
/* Start a chunk of @dur ns at @lvl (which must be the top level). */
void cpu_run(struct sim *s, struct cpu *c, enum level lvl, uint16_t what, int64_t dur);
/* Activate @lvl above the running chunk, which is paused. */
void cpu_push(struct sim *s, struct cpu *c, enum level lvl);
/* The top level @lvl is finished; nothing runs until cpu_resume(). */
void cpu_end(struct sim *s, struct cpu *c, enum level lvl);
/* Continue the highest active level, or let the scheduler pick a thread. */
void cpu_resume(struct sim *s, struct cpu *c);
/* Highest active level, or -1 when the CPU is idle.  Inline: asked at
 * every chunk's start and end. */
static inline int cpu_top(const struct cpu *c)
{
	if (c->lvl[LVL_HARDIRQ].active)
		return LVL_HARDIRQ;
	if (c->lvl[LVL_SOFTIRQ].active)
		return LVL_SOFTIRQ;
	return c->lvl[LVL_THREAD].active ? LVL_THREAD : -1;
}
/* A hard IRQ from source @irq (a NIC index, IRQ_TIMER | NIC index, or
 * IRQ_TICK) arrives.  True when it merged into the same IRQ already
 * pending on @c (one pending bit per source, as an interrupt controller
 * has): the caller decides what the repeat means. */
bool cpu_irq(struct sim *s, struct cpu *c, uint16_t irq);
/* How busy @c is for interrupt delivery: idle 0, a thread 1, softirq 2,
 * hardirq 3 (a thread level active with no thread, a context switch's
 * start, counts as idle). */
int cpu_busy_rank(const struct cpu *c);
/* irq-cpu = float: the least busy CPU, round robin among equals from the
 * one after @last (lowest-priority delivery with equal task priorities);
 * from the bitmaps of sched.busy, O(levels x words).  @last < n_cpus. */
uint16_t cpu_float_pick(const struct sim *s, uint16_t last);
/* The same by a scan of every CPU's cpu_busy_rank(): the reference that
 * tests compare cpu_float_pick() with. */
uint16_t cpu_float_scan(const struct sim *s, uint16_t last);
/* EV_CPU_DONE */
void cpu_done(struct sim *s, struct cpu *c, uint32_t gen);
/* Add thread @name on @cpu (not runnable) doing @ops; returns its index.
 * Only while the host is built (sim_init). */
int sched_add_thread(struct sim *s, const struct thread_ops *ops, enum thread_kind kind,
		     uint16_t cpu, const char *name);
/* Build the run queues from the threads as sim_init left them (each on
 * its thread.cpu, runnable or not), after the last sched_add_thread().
 * 0, or -1 when out of memory. */
int sched_init(struct sim *s);
void sched_free(struct sim *s);
/* 0 when every CPU's queues, counts and bitmaps agree with the threads
 * table (a full scan, for invariant checks); else -1 and a description
 * in @why. */
int sched_check(const struct sim *s, char *why, size_t len);
/* Thread @t becomes runnable: on its CPU, or (host.sched_wake_idle, a
 * thread without affinity whose CPU is busy) on an idle CPU. */
void sched_wake(struct sim *s, struct thread *t);
/* EV_WAKE: the wake-up of @t from another CPU reaches its CPU. */
void sched_wake_arrive(struct sim *s, struct thread *t);
bool sched_need_resched(struct sim *s, struct cpu *c);
/* A kernel thread on @c is about to run its next step: without @has_work
 * it sleeps, and if another thread should run it yields; either way the
 * scheduler picks and false is returned.  True: go on. */
bool sched_thread_continue(struct sim *s, struct cpu *c, bool has_work);
/* The running thread of @c blocks (no longer runnable); the scheduler picks. */
void sched_sleep(struct sim *s, struct cpu *c);
/* The running thread of @c starts a chunk of @dur ns (at least 1) doing @what. */
static inline void thread_chunk(struct sim *s, struct cpu *c, enum thread_chunk what, int64_t dur)
{
	cpu_run(s, c, LVL_THREAD, (uint8_t)what, dur > 0 ? dur : 1);
}
/* Thread level has nothing running: pick the next thread (or go idle). */
void sched_pick(struct sim *s, struct cpu *c);
/* EV_BALANCE: @c's periodic balancing while idle. */
void sched_balance_tick(struct sim *s, struct cpu *c);

#endif
