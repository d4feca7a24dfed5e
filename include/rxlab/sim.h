/* sim.h - rxlab's simulator as a C library: load a scenario, run it, read
 * what it measured.
 *
 *   char err[256];
 *   const char *sets[] = { "host.rxpath=napi", "traffic.rate=400kpps" };
 *   struct rxl_scenario *scn = rxl_scenario_load("livelock", sets, 2, err, sizeof err);
 *   struct results r;
 *   if (scn && rxl_sim_run(scn, NULL, &r, err, sizeof err) == 0) {
 *           printf("%.0f pps forwarded\n", r.forwarded_pps);
 *           results_free(&r);
 *   }
 *   rxl_scenario_free(scn);
 *
 * A scenario is the INI format of docs/scenarios.md (include/rxlab/
 * scenario.h documents its fields) plus "SECTION.KEY=VALUE" overrides, the
 * strings `rxlab run --set` takes.  A run is deterministic: the same
 * scenario gives the same results, bit for bit, on every run, in any
 * thread, on every x86-64 and arm64 machine (the build uses
 * -ffp-contract=off).  Link with rxlab_sim (CMake target; a static library
 * with the model and core libraries it uses).
 *
 * Units.  Times are nanoseconds (int64_t) inside a scenario and in time
 * stamps; rates in results are per second of the measurement window,
 * latencies microseconds (double), CPU shares percent of one CPU.  The
 * measurement window is run.warmup .. the end of the run: counters marked
 * "window" count only what happened in it, "whole run" ones from time 0.
 * A ratio with no denominator (packets per interrupt with no interrupt), a
 * latency with no sample, is NaN: not measured, not zero.
 *
 * Errors.  A function that can fail returns NULL or a negative errno value
 * and writes one line into err[errlen] (always terminated; err may be NULL
 * when errlen is 0); the load errors are the messages `rxlab run` prints,
 * "--set traffic.rat=1Mpps: unknown key 'rat' in [traffic]; did you mean
 * 'rate'?".  Nothing is printed.  Contract violations (a NULL scenario)
 * are asserts.
 *
 * Threads.  The library has no state of its own: a loaded scenario is
 * read-only, so any number of threads may run the same or different
 * scenarios at once, each with its own struct results.  One exception:
 * the traces of pattern = trace sources are read once per process into a
 * shared cache, so loading scenarios that name a trace file is not
 * thread-safe (load them from one thread, then run them anywhere).  The
 * registry of user policies (rxlab/policy.h) is the other process-wide
 * table: register them before the first load.
 *
 * Names.  The entry points are rxl_*; the result structs keep the names
 * the simulator and its reports use (struct results, as struct scenario
 * in scenario.h).
 */
#ifndef RXLAB_RXLAB_SIM_H
#define RXLAB_RXLAB_SIM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rxlab/scenario.h"
#include "rxlab/server.h"

/* ---- scenarios ---- */

/* A scenario the loader has validated (ranges, cross-checks, its profile
 * resolved): the only kind rxl_sim_run() accepts.  Opaque; read its fields
 * with rxl_scenario_get(). */
struct rxl_scenario;

/* Load a scenario by name or path and apply @sets.
 * @name_or_path: an existing file, else a built-in scenario ("livelock",
 *   "rr-server", "seeds/NAME"; "NAME" also finds "seeds/NAME"; `rxlab
 *   scenarios` lists them).
 * @sets, @n_sets: overrides "SECTION.KEY=VALUE" or
 *   "SECTION.NAME.KEY=VALUE", applied in order after the file (a later one
 *   wins), with units as in the file ("traffic.rate=1.2Mpps",
 *   "nic.eth0.rx-usecs=8", "run.duration=500ms"); NULL when @n_sets is 0.
 *   The strings are only read during the call.
 * Returns a scenario the caller owns (free with rxl_scenario_free()), or
 * NULL with a message: an unknown file or built-in name, a bad key or
 * value (the message names it, with the file line or the --set string),
 * out of memory. */
struct rxl_scenario *rxl_scenario_load(const char *name_or_path, const char *const *sets,
				       size_t n_sets, char *err, size_t errlen);

/* As rxl_scenario_load() for scenario @text (NUL-terminated INI).  @origin
 * names it in messages ("<string>", or the path it came from) and gives its
 * name: @origin's basename without ".ini".  @text is only read during the
 * call. */
struct rxl_scenario *rxl_scenario_load_text(const char *text, const char *origin,
					    const char *const *sets, size_t n_sets, char *err,
					    size_t errlen);

/* The validated contents of @scn (rxlab/scenario.h; every field filled,
 * defaults included), valid until rxl_scenario_free(@scn). */
const struct scenario *rxl_scenario_get(const struct rxl_scenario *scn);

/* Free @scn (NULL: nothing).  No run of it may still be in progress. */
void rxl_scenario_free(struct rxl_scenario *scn);

/* Free the traces that loaded scenarios share (pattern = trace: each file
 * is read once per process, at most 16 files).  Only when no scenario
 * that names a trace is left; a later load reads the file again. */
void rxl_traces_free(void);

/* ---- results ---- */

/* Counters of one port (netstat -i, and where frames were dropped). */
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
	/* GRO (gro = on; 0 otherwise) */
	uint64_t gro_segs;    /* frames into napi_gro_receive() */
	uint64_t gro_skbs;    /* skbs out of GRO to the stack (merged or GRO_NORMAL) */
	uint64_t gro_skb_segs;/* frames in those skbs */
};

/* Where a CPU's time went (top's buckets). */
enum acct { ACCT_USER, ACCT_SYSTEM, ACCT_HARDIRQ, ACCT_SOFTIRQ, ACCT_IDLE, ACCT_N };

/* Per-CPU network counters (/proc/net/softnet_stat and sk_buff costs). */
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

/* One change of a NIC's moderation made by an adaptive controller;
 * MOD_POLICY: a registered policy (adaptive-rx = policy:NAME, rxlab/policy.h). */
enum mod_kind { MOD_DIM, MOD_ITR, MOD_PKT_RATE, MOD_POLICY };
struct mod_point {
	int64_t t;            /* ns */
	uint16_t nic;         /* the queue whose moderation changed: r.queue[] index */
	uint8_t kind;         /* enum mod_kind */
	uint8_t ix;           /* DIM profile index / pkt-rate set; policy: 0 */
	int64_t usecs_ns;     /* resulting rx-usecs (DIM, pkt-rate, policy) or ITR gap */
	uint32_t frames;      /* resulting rx-frames; ITR: interrupts/s */
};
/* Moderation changes a run records; later ones are only counted. */
#define MOD_SERIES_MAX 65536

/* Cumulative counters at one vmstat sample (vmstat-interval). */
struct vm_sample {
	int64_t t;            /* ns */
	uint32_t r;           /* runnable threads, the running ones included */
	uint64_t in, cs;      /* interrupts (all ports), context switches */
	uint64_t acct[ACCT_N];/* CPU time by bucket, summed over CPUs, ns */
};

struct nic_result {
	char name[SCN_NAME_LEN];        /* [nic NAME] */
	struct nic_counters c;          /* window */
	uint64_t irq_cpu[SCN_MAX_CPUS]; /* interrupts per CPU, whole run (/proc/interrupts) */
};

/* One queue pair of a port: its vector, NAPI and rings. */
struct queue_result {
	char name[SCN_NAME_LEN + 16];   /* its vector in /proc/interrupts: the port's name
	                                 * for a one-queue port, else "eth0-TxRx-3" */
	uint16_t port, qid;             /* r.nic[] index of its port, its queue number */
	uint16_t irq_cpu;               /* CPU its vector is affine to (the last one used
	                                 * with irq-cpu = float) */
	struct nic_counters c;          /* window */
};

struct cpu_result {
	double pct[ACCT_N];             /* % of the window in each bucket; they add up to 100 */
	double cstate_pct[PROFILE_MAX_CSTATES]; /* % of the window in each idle state
	                                 * (results.cstate_name[]), exit latency included */
	uint64_t cstate_usage[PROFILE_MAX_CSTATES]; /* entries into each state, window */
	struct softnet_counters sn;     /* window, except migrations: 0 here (see netperf) */
	uint64_t cs;                    /* context switches, window */
};

struct thread_result {
	char name[48];                  /* "ksoftirqd/0", "cpu-hog/1", "sink", ... */
	double pct;                     /* % of one CPU over the window (top) */
	int64_t cpu_ns;                 /* CPU time, whole run (top's TIME) */
	uint16_t cpu;                   /* the CPU it is on at the end (ps's PSR) */
	bool busy_poll;                 /* a NAPI kthread with threaded = busy-poll: all
	                                 * of its CPU is busy polling (system time) */
	double spin_pct;                /* busy_poll: % of one CPU over the window in
	                                 * polls that found nothing; NaN otherwise */
};

/* ping -f over loopback (apps.ping), whole run, iputils' summary. */
struct ping_result {
	bool on;                        /* apps.ping = on; else the rest is 0 */
	bool finished;                  /* all ping-count replies came back */
	uint64_t transmitted, received;
	double time_ms;                 /* first request to last reply read */
	double rtt_min_ms, rtt_avg_ms, rtt_max_ms, rtt_mdev_ms; /* NaN: no reply */
	double ipg_ms, ewma_ms;         /* time / (transmitted - 1), rtt estimate */
};

/* netperf TCP_STREAM over loopback (apps.netperf), measurement window. */
struct netperf_result {
	uint32_t conns;                 /* 0: none, and the rest is 0 */
	double mbit_s;                  /* all connections, 10^6 bits/s read by netserver */
	uint64_t drops;                 /* loopback segments and ACKs dropped at a backlog,
	                                 * whole run */
	uint64_t migrations;            /* threads moved by idle balancing (all CPUs),
	                                 * whole run */
};

/* The latency distribution is exported as its value at these quantiles
 * (min, p1, p5, p10 .. p90 by 10, p95, p99, p99.9, p99.99, max): enough to
 * draw a CDF of each run without keeping its histogram.  Each value is the
 * upper edge of the histogram bucket (within 0.8%), as hist_quantile(). */
#define RESULTS_CDF_N 17
extern const double results_cdf_q[RESULTS_CDF_N];

/* What one run measured.  Traffic figures add up over all ports.  Latency
 * is per frame, window: from its last bit arriving on the ingress port to
 * its last bit leaving the egress port (forwarded frames, server replies)
 * or to its read by the sink thread (delivered frames). */
struct results {
	char scenario[64];              /* the scenario's name */
	const char *rxpath;             /* rxpath_name() of host.rxpath: static, not owned */
	double window_s;                /* measurement window, simulated seconds */
	bool partial;                   /* stopped early: the window ends at t_end (and
	                                 * starts at 0 when the stop came in warm-up) */
	int64_t t_end;                  /* simulated time reached, ns */
	double offered_pps;             /* configured offered load, all sources */
	double wire_pps;                /* frames that reached the ports */
	double forwarded_pps;           /* frames routed out of a port (replies, ACKs excluded) */
	double delivered_pps;           /* frames read by the local sink (no route) */
	double replied_pps;             /* server replies sent (requests served) */
	double irqs_per_s;              /* NIC interrupts, any cause */
	double rx_irqs_per_s, tx_irqs_per_s; /* ... with the RX / the TX cause */
	double pkts_per_irq;            /* RX frames taken / RX interrupts */
	double polls_per_s;             /* NAPI poll calls */
	double pkts_per_poll;           /* RX frames per poll call */
	double cpu_pct[ACCT_N];         /* cpu[i].pct averaged over CPUs */
	double ksoftirqd_pct;           /* % of one CPU, summed over ksoftirqd threads */
	double busy_poll_pct;           /* % of one CPU, summed over busy-polling NAPI
	                                 * kthreads (threaded = busy-poll); 0 without */
	bool busy_poll;                 /* some NAPI has threaded = busy-poll */
	uint64_t migrations;            /* threads moved between CPUs by the scheduler
	                                 * (idle balancing, wake-up placement), all CPUs,
	                                 * whole run */
	double cs_per_s;                /* context switches, all CPUs */
	double lat_p50_us, lat_p99_us, lat_p999_us, lat_max_us, lat_mean_us; /* NaN: none */
	uint64_t lat_samples;           /* frames with a latency */
	double lat_cdf_us[RESULTS_CDF_N]; /* latency at results_cdf_q[i], us (NaN: no sample) */
	/* frames lost, window: at the link (sender), in the RX FIFO, at the
	 * backlog, at the qdisc, at the socket; their sum */
	uint64_t drop_link, drop_fifo, drop_backlog, drop_qdisc, drop_socket, drops_total;
	uint64_t time_squeeze;          /* net_rx_action out of budget or time, window */
	bool skb_table;                 /* any sk_buff recycling, remote frees or lock spins */
	bool gro;                       /* a port has gro = on: the GRO table is reported */
	uint64_t in_flight;             /* frames still queued at the end */
	uint64_t events;                /* engine events handled, whole run */
	uint16_t n_nics, n_cpus, n_threads;
	struct nic_result nic[SCN_MAX_NICS]; /* n_nics entries, scenario order: the sums
	                                 * of their queues */
	uint16_t n_queues;              /* queues of all ports */
	/* Idle states (the profile's [cstates], or POLL with host.idle = poll):
	 * cstates_table says whether the report shows them. */
	bool cstates_table;
	uint8_t n_cstates;              /* states usable (max-cstate applied) */
	char cstate_name[PROFILE_MAX_CSTATES][16];
	struct queue_result *queue;     /* n_queues entries, port by port, owned */
	uint64_t *queue_irq_cpu;        /* interrupts of queue q on CPU c, whole run, at
	                                 * [q * n_cpus + c], owned */
	struct cpu_result *cpu;         /* n_cpus entries, owned */
	struct thread_result *thr;      /* n_threads entries, owned */
	struct mod_point *series;       /* n_series moderation changes in time order,
	                                 * owned; NULL when none */
	uint32_t n_series;              /* at most MOD_SERIES_MAX */
	uint64_t series_lost;           /* changes beyond MOD_SERIES_MAX */
	struct ping_result ping;
	struct netperf_result netperf;
	struct server_result server;    /* the socket readers (sink, epoll workers) */
	struct vm_sample *vm;           /* n_vm vmstat samples from time 0, owned; NULL
	                                 * when run.vmstat-interval = 0 */
	uint32_t n_vm;                  /* at most SCN_VMSTAT_LINES + 1 */
};

/* "classic", "isr-loop", "napi", "bsd-poll", "isr-while" (the [host]
 * rxpath values); "?" for a value out of range.  Static strings. */
const char *rxpath_name(enum rxpath p);

/* Free what @r owns (cpu, thr, queue, queue_irq_cpu, series, vm) and set those pointers to NULL
 * and their counts to 0, so a second call is harmless. */
void results_free(struct results *r);

/* ---- running ---- */

/* Simulate @scn from time 0 to run.duration and fill *@out.
 * @stop: when *@stop becomes non-zero (a signal handler, another thread)
 *   the run ends after the event being handled, out->partial is set and
 *   the figures cover the time reached; NULL: never.  It is read once per
 *   simulated event, so the run ends within microseconds of wall time.
 * Returns 0 with *@out filled (the caller owns it: results_free()), or a
 * negative errno with a message naming the scenario and *@out holding no
 * memory: -ENOMEM when memory ran out building the host or collecting the
 * results, -ENOTRECOVERABLE when the run could not go on (the model
 * reached an impossible state or broke one of its invariants, a bug in
 * rxlab; a registered policy decided outside rxlab/policy.h's limits; or
 * its event queue could not grow: the message says which),
 * -ENODATA when it was stopped before any simulated time passed in the
 * window. */
int rxl_sim_run(const struct rxl_scenario *scn, const volatile sig_atomic_t *stop,
		struct results *out, char *err, size_t errlen);

/* ---- tracepoints ---- */

/* The kernel tracepoints a run can emit, as `perf record -e` names them
 * (docs/replay.md "Simulated tracepoints").  Their fields are those of the
 * kernel's TP_printk formats (include/trace/events/irq.h, napi.h, net.h;
 * /sys/kernel/tracing/events/GROUP/NAME/format):
 *   irq:irq_handler_entry    "irq=%d name=%s"        a queue vector's handler starts
 *   irq:irq_handler_exit     "irq=%d ret=%s"         ... and returns (always handled)
 *   napi:napi_poll           "napi poll on napi struct %p for device %s work %d budget %d"
 *                            after a ->poll() call: net_rx_action, a NAPI
 *                            kthread or a busy poller
 *   net:netif_receive_skb    "dev=%s skbaddr=%p len=%u"  an skb goes up the stack
 * The NAPI hrtimer, the tick and IPIs are system vectors, which have no
 * irq_handler_* events on Linux either; rxpath = bsd-poll has no NAPI (no
 * napi_poll events). */
enum rxl_tp_kind {
	RXL_TP_IRQ_ENTRY,
	RXL_TP_IRQ_EXIT,
	RXL_TP_NAPI_POLL,
	RXL_TP_NETIF_RECEIVE_SKB,
};

/* One event.  The strings point into the running simulator: valid during
 * the callback only. */
struct rxl_tp_event {
	int64_t t_ns;         /* simulated time since the start of the run, ns */
	enum rxl_tp_kind kind;
	uint16_t cpu;         /* the CPU it happened on */
	int32_t pid;          /* the thread running there: 0 when idle (the
	                       * kernel's swapper), else 1000 + its index in the
	                       * results' thread table */
	const char *comm;     /* ... its name: "swapper", "ksoftirqd/3", "udp-sink",
	                       * "napi/eth0-1" (not cut to the kernel's 15 bytes) */
	int32_t irq;          /* IRQ events: the vector's number in the simulated
	                       * /proc/interrupts (24 + queue index) */
	const char *name;     /* IRQ events: the vector's name ("eth0-TxRx-3");
	                       * napi_poll, netif_receive_skb: the device
	                       * ("eth0", "lo"; "(no_device)" for a CPU's backlog) */
	uint64_t addr;        /* napi_poll: the napi struct; netif_receive_skb: the
	                       * skb (made-up kernel addresses, fixed per NAPI and
	                       * per skb slot, the same on every run) */
	uint32_t work, budget;/* napi_poll: frames the poll returned, its budget */
	uint32_t len;         /* netif_receive_skb: skb->len (the frame without
	                       * its Ethernet header and FCS) */
};

/* Where a run sends its events, in time order (ties in the order the
 * simulator produced them).  @emit returns 0 to go on; anything else stops
 * the events (the run goes on, as it does after the limit).  Events past
 * @limit (0: no limit) are not emitted. */
struct rxl_trace {
	int (*emit)(void *ctx, const struct rxl_tp_event *e);
	void *ctx;
	uint64_t limit;
	uint64_t emitted;     /* out: events handed to @emit */
	int64_t last_ns;      /* out: the time of the last one */
	bool truncated;       /* out: there were more than @limit */
	bool stopped;         /* out: @emit returned non-zero */
	bool nomem;           /* out: the time-order buffer could not grow (it
	                       * holds the events of the chunks in progress, a few
	                       * hundred per CPU): the events stopped there */
};

/* rxl_sim_run() with the run's tracepoint events handed to @tr (NULL:
 * exactly rxl_sim_run()).  The events do not change the run: its results
 * are the same bytes with and without. */
int rxl_sim_run_traced(const struct rxl_scenario *scn, const volatile sig_atomic_t *stop,
		       struct rxl_trace *tr, struct results *out, char *err, size_t errlen);

#endif
