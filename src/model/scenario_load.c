/* scenario_load.c - the scenario schema, --set overrides and validation.
 *
 * Roadmap:
 *   1. ini_parse() reads the text (syntax errors stop here);
 *   2. apply_set() writes each --set into the document, creating sections
 *      as needed, so an override is validated exactly like a file line and
 *      its messages name the override instead of a line;
 *   3. read_section() walks the document in order: the section must be
 *      known and named as its kind requires, every key must be in
 *      schema[] and its value must parse within the table's range;
 *   4. finish() fills what depends on other sections (traffic port,
 *      required keys), runs the cross-checks and resolves the profile.
 *
 * Adding a key is one line in schema[]: the accepted range in messages,
 * the default and the "did you mean" candidates all come from the table.
 */
#include "model/scenario_load.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/builtin.h"
#include "io/infile.h"
#include "model/ini.h"
#include "model/policy_key.h"
#include "model/profile_load.h"
#include "model/queue_keys.h"
#include "model/quirks.h"
#include "model/server_keys.h"
#include "model/trace_load.h"
#include "model/trace_play.h"
#include "model/units.h"
#include "rxlab/adaptive.h"
#include "rxlab/bsd_poll.h"
#include "rxlab/coalesce.h"
#include "rxlab/cpuidle.h"
#include "rxlab/itr.h"

enum sect_id { SEC_HOST, SEC_NIC, SEC_TRAFFIC, SEC_ROUTE, SEC_APPS, SEC_RUN, N_SECT };

enum naming {
	NAME_NONE,     /* [host] */
	NAME_REQUIRED, /* [nic eth0] */
	NAME_OPTIONAL, /* [traffic] or [traffic flood] */
};

static const char *const sect_kinds[] = { "host", "nic", "traffic", "route", "apps", "run", NULL };
static const enum naming sect_naming[N_SECT] = {
	NAME_NONE, NAME_REQUIRED, NAME_OPTIONAL, NAME_NONE, NAME_NONE, NAME_NONE,
};

enum key_type {
	KT_UNIT, /* a number of enum unit_kind, checked against min..max */
	KT_BOOL, /* on/off...; stored 0/1 (also into enum coal_timer_mode_cfg) */
	KT_ENUM, /* one of names[], stored as its index */
	KT_STR,  /* a string that must fit the char array */
	KT_LATER,/* read in finish(), which knows the other keys (irq-affinity, indir) */
	KT_THREADED, /* threaded: 0/1/2, disabled/enabled/busy-poll, on/off */
};

struct key_spec {
	enum sect_id sect;
	const char *key;
	enum key_type type;
	enum unit_kind unit;      /* KT_UNIT */
	uint64_t min, max;        /* KT_UNIT, in the unit's base */
	uint64_t def;             /* default (KT_UNIT, KT_BOOL, KT_ENUM) */
	const char *sdef;         /* default (KT_STR); example value (required keys) */
	const char *const *names; /* KT_ENUM, index = enum value */
	const char *noun;         /* after the range in messages */
	bool required;            /* no default: the key must be given */
	size_t off, size;         /* field in the section's struct */
	const char *word;         /* KT_UNIT: a word accepted instead of a number, which
	                           * stores 0 and sets the uint32_t flag at woff */
	size_t woff;
	bool per_queue;           /* [nic] KT_UNIT / KT_BOOL: also a list of one value per
	                           * queue (napi-set per NAPI), read in finish() */
};

#define FLD(st, m) offsetof(st, m), sizeof(((st *)0)->m)
#define NUM_(sec, st, key, m, unit, lo, hi, d, noun) \
	{ sec, key, KT_UNIT, unit, lo, hi, d, NULL, NULL, noun, false, FLD(st, m), NULL, 0, false }
#define REQ_(sec, st, key, m, unit, lo, hi, example) \
	{ sec, key, KT_UNIT, unit, lo, hi, 0, example, NULL, NULL, true, FLD(st, m), NULL, 0, false }
#define WORD_(sec, st, key, m, unit, lo, hi, d, noun, w, flag) \
	{ sec, key, KT_UNIT, unit, lo, hi, d, NULL, NULL, noun, false, FLD(st, m), w, \
	  offsetof(st, flag), false }
#define BOOL_(sec, st, key, m, d) \
	{ sec, key, KT_BOOL, UNIT_COUNT, 0, 1, d, NULL, NULL, NULL, false, FLD(st, m), NULL, 0, false }
#define ENUM_(sec, st, key, m, names, d) \
	{ sec, key, KT_ENUM, UNIT_COUNT, 0, 0, d, NULL, names, NULL, false, FLD(st, m), NULL, 0, false }
#define STR_(sec, st, key, m, d) \
	{ sec, key, KT_STR, UNIT_COUNT, 0, 0, 0, d, NULL, NULL, false, FLD(st, m), NULL, 0, false }
#define LATER_(sec, st, key, example) \
	{ sec, key, KT_LATER, UNIT_COUNT, 0, 0, 0, example, NULL, NULL, false, 0, 0, NULL, 0, false }
#define PQNUM_(sec, st, key, m, unit, lo, hi, d, noun) \
	{ sec, key, KT_UNIT, unit, lo, hi, d, NULL, NULL, noun, false, FLD(st, m), NULL, 0, true }
#define PQBOOL_(sec, st, key, m, d) \
	{ sec, key, KT_BOOL, UNIT_COUNT, 0, 1, d, NULL, NULL, NULL, false, FLD(st, m), NULL, 0, \
	  true }
#define PQTHR_(sec, st, key, m, d) \
	{ sec, key, KT_THREADED, UNIT_COUNT, 0, 2, d, NULL, NULL, NULL, false, FLD(st, m), NULL, 0, \
	  true }
/* One level of indirection so that "H" (section id, struct) splits into two
 * arguments before the macros above count them. */
#define NUM(...) NUM_(__VA_ARGS__)
#define REQ(...) REQ_(__VA_ARGS__)
#define WORD(...) WORD_(__VA_ARGS__)
#define BOOL(...) BOOL_(__VA_ARGS__)
#define ENUM(...) ENUM_(__VA_ARGS__)
#define STR(...) STR_(__VA_ARGS__)
#define LATER(...) LATER_(__VA_ARGS__)
#define PQNUM(...) PQNUM_(__VA_ARGS__)
#define PQBOOL(...) PQBOOL_(__VA_ARGS__)
#define PQTHR(...) PQTHR_(__VA_ARGS__)

#define US 1000ULL
#define MS 1000000ULL
#define SEC 1000000000ULL
#define KIB 1024ULL
#define MIB (1024ULL * 1024)
#define MBIT 1000000ULL
#define GBIT 1000000000ULL

/* Enum spellings; the index is the enum value (checked below). */
static const char *const rxpath_names[] = { "classic", "isr-loop", "napi", "bsd-poll", "isr-while",
					     NULL };
static const char *const pattern_names[] = { "constant", "poisson", "on-off", "trace", "closed",
					      "stream", NULL };
static const char *const tx_clean_names[] = { "irq", "xmit", "hardirq", NULL };
/* adaptive-rx also takes policy:NAME (model/policy_key.c); src/core/policy.c
 * keeps user policies off these names. */
static const char *const adaptive_names[] = { "off", "dim", "pkt-rate", NULL };
/* driver: the rows of model/quirks.c, in enum nic_driver order */
static const char *const driver_names[] = { "generic", "e1000", "ena", "ixgbevf", "mlx5",
					     "virtio-net", "ice", NULL };
static const char *const rxcore_names[] = { "current", "2.6", NULL };
static const char *const poll_exit_names[] = { "budget", "idle", NULL };
_Static_assert(RXCORE_CURRENT == 0 && RXCORE_26 == 1 && NAPI_EXIT_BUDGET == 0 &&
               NAPI_EXIT_IDLE == 1, "rxcore_names, poll_exit_names");
static const char *const server_names[] = { "none", "epoll", NULL };
static const char *const spread_names[] = { "napi", "rr", NULL };
static const char *const idle_names[] = { "menu", "teo", "poll", NULL };
static const char *const scheduler_names[] = { "cfs", "o1", NULL };
_Static_assert(SCHEDULER_CFS == 0 && SCHEDULER_O1 == 1 && sizeof(enum scn_scheduler) == 4,
               "scheduler_names");
_Static_assert(CPUIDLE_MENU == 0 && CPUIDLE_TEO == 1 && CPUIDLE_POLL == 2, "idle_names");
_Static_assert(SERVER_NONE == 0 && SERVER_EPOLL == 1 && SPREAD_NAPI == 0 && SPREAD_RR == 1,
               "server_names, spread_names");
/* rx-flow-hash: ethtool -N DEV rx-flow-hash udp4|tcp4 sd | sdfn */
static const char *const flow_hash_names[] = { "sd", "sdfn", NULL };
_Static_assert(DRIVER_GENERIC == 0 && DRIVER_E1000 == 1 && DRIVER_ENA == 2 &&
               DRIVER_IXGBEVF == 3 && DRIVER_MLX5 == 4 && DRIVER_VIRTIO_NET == 5 &&
               DRIVER_ICE == 6, "driver_names");
_Static_assert(ADAPTIVE_OFF == 0 && ADAPTIVE_DIM == 1 && ADAPTIVE_PKT_RATE == 2,
               "adaptive_names");
_Static_assert(RXPATH_CLASSIC == 0 && RXPATH_ISR_LOOP == 1 && RXPATH_NAPI == 2 &&
               RXPATH_BSD_POLL == 3 && RXPATH_ISR_WHILE == 4, "rxpath_names");
_Static_assert(TRAFFIC_CONSTANT == 0 && TRAFFIC_POISSON == 1 && TRAFFIC_ONOFF == 2 &&
               TRAFFIC_TRACE == 3 && TRAFFIC_CLOSED == 4 && TRAFFIC_STREAM == 5,
               "pattern_names");
_Static_assert(TX_CLEAN_IRQ == 0 && TX_CLEAN_XMIT == 1 && TX_CLEAN_HARDIRQ == 2, "tx_clean_names");
_Static_assert(TIMER_ABSOLUTE == 0 && TIMER_RESTART == 1, "cqe-mode-* stores a bool");
_Static_assert(sizeof(enum rxcore) == 4 && sizeof(enum napi_exit_rule) == 4, "enum size");
_Static_assert(sizeof(enum rxpath) == 4 && sizeof(enum traffic_pattern) == 4 &&
               sizeof(enum tx_clean_mode) == 4 && sizeof(enum coal_timer_mode_cfg) == 4,
               "enums are stored as 32-bit values");

#define H SEC_HOST, struct scn_host
#define N SEC_NIC, struct scn_nic
#define T SEC_TRAFFIC, struct scn_traffic
#define A SEC_APPS, struct scn_apps
#define R SEC_RUN, struct scn_run

/* Defaults are Linux's where Linux has the knob (net/core/dev.c,
 * Documentation/admin-guide/sysctl/net.rst) and a plain gigabit port
 * otherwise.  irq-cpu and hog-cpu are checked against cpus in finish(). */
static const struct key_spec schema[] = {
	STR(H, "profile", profile, "piii-933-e1000"),
	NUM(H, "cpus", cpus, UNIT_COUNT, 1, SCN_MAX_CPUS, 1, "CPUs"),
	NUM(H, "hz", hz, UNIT_COUNT, 100, 10000, 1000, "Hz"),
	ENUM(H, "rxpath", rxpath, rxpath_names, RXPATH_NAPI),
	ENUM(H, "rxcore", rxcore, rxcore_names, RXCORE_CURRENT),
	NUM(H, "netdev_budget", netdev_budget, UNIT_COUNT, 1, 1000000, 300, "packets"),
	NUM(H, "netdev_budget_usecs", netdev_budget_usecs_ns, UNIT_TIME_US, 1 * US, 10 * SEC,
	    2000 * US, NULL),
	NUM(H, "netdev_max_backlog", netdev_max_backlog, UNIT_COUNT, 1, 10000000, 1000, "packets"),
	NUM(H, "dev_weight", dev_weight, UNIT_COUNT, 1, 65536, 64, "packets"),
	NUM(H, "napi_weight", napi_weight, UNIT_COUNT, 1, 64, 64, "packets"),
	NUM(H, "gro_normal_batch", gro_normal_batch, UNIT_COUNT, 1, 4096, 8, "segments"),
	NUM(H, "kern.polling.burst_max", bsd_burst_max, UNIT_COUNT, 10, 1000, 150, "packets"),
	NUM(H, "kern.polling.each_burst", bsd_each_burst, UNIT_COUNT, 1, 1000, 5, "packets"),
	NUM(H, "kern.polling.user_frac", bsd_user_frac, UNIT_COUNT, 0, 99, 50, "%"),
	NUM(H, "kern.polling.reg_frac", bsd_reg_frac, UNIT_COUNT, 1, 10000, 20, "ticks"),
	BOOL(H, "kern.polling.idle_poll", bsd_idle_poll, 0), /* FreeBSD's 0/1, and on/off */
	BOOL(H, "skb-recycle", skb_recycle, 0),
	NUM(H, "skb-recycle-max", skb_recycle_max, UNIT_COUNT, 1, 1000000, 1024, "sk_buffs"),
	NUM(H, "sched_migration_cost", sched_migration_cost_ns, UNIT_TIME_NS, 0, 10 * SEC,
	    500 * US, NULL),
	BOOL(H, "sched_wake_idle", sched_wake_idle, 0),
	ENUM(H, "idle", idle_gov, idle_names, CPUIDLE_MENU),
	ENUM(H, "scheduler", scheduler, scheduler_names, SCHEDULER_CFS),
	NUM(H, "max-cstate", max_cstate, UNIT_COUNT, 0, PROFILE_MAX_CSTATES - 1,
	    PROFILE_MAX_CSTATES - 1, NULL),

	NUM(N, "speed", speed_bps, UNIT_BPS, 1 * MBIT, 800 * GBIT, 1 * GBIT, NULL),
	NUM(N, "rx-ring", rx_ring, UNIT_COUNT, 1, 65536, 256, "descriptors"),
	NUM(N, "tx-ring", tx_ring, UNIT_COUNT, 1, 65536, 256, "descriptors"),
	NUM(N, "rx-fifo", rx_fifo_bytes, UNIT_BYTES, 2 * KIB, 64 * MIB, 48 * KIB, NULL),
	NUM(N, "txqueuelen", txqueuelen, UNIT_COUNT, 0, 10000000, 1000, "packets"),
	PQNUM(N, "rx-usecs", rx_usecs_ns, UNIT_TIME_US, 0, 10 * SEC, 0, NULL),
	PQNUM(N, "rx-frames", rx_frames, UNIT_COUNT, 0, 65535, 1, "frames"),
	NUM(N, "rx-usecs-irq", rx_usecs_irq_ns, UNIT_TIME_US, 0, 10 * SEC, 0, NULL),
	NUM(N, "rx-frames-irq", rx_frames_irq, UNIT_COUNT, 0, 65535, 0, "frames"),
	PQNUM(N, "tx-usecs", tx_usecs_ns, UNIT_TIME_US, 0, 10 * SEC, 8 * US, NULL),
	PQNUM(N, "tx-frames", tx_frames, UNIT_COUNT, 0, 65535, 32, "frames"),
	NUM(N, "tx-usecs-irq", tx_usecs_irq_ns, UNIT_TIME_US, 0, 10 * SEC, 0, NULL),
	NUM(N, "tx-frames-irq", tx_frames_irq, UNIT_COUNT, 0, 65535, 0, "frames"),
	BOOL(N, "cqe-mode-rx", rx_timer, TIMER_ABSOLUTE),
	BOOL(N, "cqe-mode-tx", tx_timer, TIMER_ABSOLUTE),
	NUM(N, "min-irq-interval", min_irq_gap_ns, UNIT_TIME_NS, 0, 100 * MS, 0, NULL),
	ENUM(N, "tx-clean", tx_clean, tx_clean_names, TX_CLEAN_IRQ),
	NUM(N, "tx-clean-thresh", tx_clean_thresh, UNIT_COUNT, 0, 65536, 0, "descriptors"),
	WORD(N, "irq-cpu", irq_cpu, UNIT_COUNT, 0, SCN_MAX_CPUS - 1, 0, "(a CPU, or float)",
	     "float", irq_float),
	NUM(N, "link-queue", link_queue_ns, UNIT_TIME_NS, 0, 10 * SEC, 1 * MS, NULL),
	PQNUM(N, "napi_defer_hard_irqs", napi_defer_hard_irqs, UNIT_COUNT, 0, INT32_MAX, 0, NULL),
	PQNUM(N, "gro_flush_timeout", gro_flush_timeout_ns, UNIT_TIME_NS, 0, 10 * SEC, 0, NULL),
	PQTHR(N, "threaded", threaded, 0),
	NUM(N, "threaded-prio", threaded_prio, UNIT_COUNT, 0, 99, 0,
	    "(0 = SCHED_OTHER, 1..99 = SCHED_FIFO priority)"),
	NUM(N, "combined", combined, UNIT_COUNT, 1, SCN_MAX_QUEUES, 1, "queues"),
	NUM(N, "indir-size", indir_size, UNIT_COUNT, 1, 512, 128, "entries"),
	LATER(N, "indir", "equal 4"),
	ENUM(N, "rx-flow-hash", rss_l4, flow_hash_names, 1),
	BOOL(N, "gro", gro, 0),
	LATER(N, "irq-affinity", "spread"),
	LATER(N, "rps-cpus", "1-3"),
	LATER(N, "threaded-cpus", "all"),
	ENUM(N, "adaptive-rx", adaptive_rx, adaptive_names, ADAPTIVE_OFF),
	NUM(N, "dim-work-delay", dim_work_delay_ns, UNIT_TIME_NS, 0, 1 * SEC, 20 * US, NULL),
	NUM(N, "dim-start-profile", dim_start_ix, UNIT_COUNT, 0, 4, 1, NULL),
	PQNUM(N, "irq-suspend-timeout", irq_suspend_timeout_ns, UNIT_TIME_NS, 0, 10 * SEC, 0,
	      NULL),
	NUM(N, "pkt-rate-low", pkt_rate_low, UNIT_PPS, 0, 1000000000ULL, 0, NULL),
	NUM(N, "pkt-rate-high", pkt_rate_high, UNIT_PPS, 0, 1000000000ULL, 0, NULL),
	NUM(N, "rx-usecs-low", rx_usecs_low_ns, UNIT_TIME_US, 0, 10 * SEC, 0, NULL),
	NUM(N, "rx-frames-low", rx_frames_low, UNIT_COUNT, 0, 65535, 1, "frames"),
	NUM(N, "rx-usecs-high", rx_usecs_high_ns, UNIT_TIME_US, 0, 10 * SEC, 0, NULL),
	NUM(N, "rx-frames-high", rx_frames_high, UNIT_COUNT, 0, 65535, 1, "frames"),
	NUM(N, "sample-interval", sample_interval_ns, UNIT_TIME_NS, 1 * MS, 3600 * SEC, 1 * SEC,
	    NULL),
	ENUM(N, "driver", driver, driver_names, DRIVER_GENERIC),
	ENUM(N, "poll-exit", poll_exit, poll_exit_names, NAPI_EXIT_BUDGET),
	NUM(N, "InterruptThrottleRate", itr_param, UNIT_COUNT, 0, 100000, 0, "interrupts/s"),
	NUM(N, "RxIntDelay", rx_int_delay, UNIT_COUNT, 0, 65535, 0, "x 1.024 us"),
	NUM(N, "RxAbsIntDelay", rx_abs_int_delay, UNIT_COUNT, 0, 65535, 0, "x 1.024 us"),
	NUM(N, "TxIntDelay", tx_int_delay, UNIT_COUNT, 0, 65535, 0, "x 1.024 us"),
	NUM(N, "TxAbsIntDelay", tx_abs_int_delay, UNIT_COUNT, 0, 65535, 0, "x 1.024 us"),

	STR(T, "port", port, ""), /* "" = the first NIC, set in finish() */
	ENUM(T, "pattern", pattern, pattern_names, TRAFFIC_CONSTANT),
	REQ(T, "rate", rate_pps, UNIT_PPS, 1, 1000000000ULL, "100kpps"),
	NUM(T, "frame-size", frame_bytes, UNIT_BYTES, 64, 9216, 64, NULL),
	NUM(T, "start", start_ns, UNIT_TIME_NS, 0, 3600 * SEC, 0, NULL),
	NUM(T, "on", on_ns, UNIT_TIME_NS, 1, 3600 * SEC, 1 * MS, NULL),
	NUM(T, "off", off_ns, UNIT_TIME_NS, 0, 3600 * SEC, 1 * MS, NULL),
	NUM(T, "count", count, UNIT_COUNT, 0, UINT64_MAX, 0, "frames"),
	STR(T, "trace", trace_path, ""),       /* read in check_trace() */
	STR(T, "trace-speed", trace_speed, "1"),
	NUM(T, "flows", flows, UNIT_COUNT, 1, SCN_MAX_FLOWS, 1, "flows"),
	LATER(T, "flow-popularity", "zipf:1"),
	NUM(T, "dport", dport, UNIT_COUNT, 1, 65535, 9, NULL),
	NUM(T, "stream-burst", stream_burst, UNIT_COUNT, 1, 65535, 44, "segments"),
	NUM(T, "depth", depth, UNIT_COUNT, 1, 64, 1, "requests per flow"),
	NUM(T, "client-delay", client_delay_ns, UNIT_TIME_NS, 0, 1 * SEC, 10 * US, NULL),
	NUM(T, "client-rto", client_rto_ns, UNIT_TIME_NS, 1 * US, 60 * SEC, 200 * MS, NULL),

	NUM(A, "cpu-hogs", cpu_hogs, UNIT_COUNT, 0, 1024, 0, "threads"),
	NUM(A, "hog-cpu", hog_cpu, UNIT_COUNT, 0, SCN_MAX_CPUS - 1, 0, NULL),
	BOOL(A, "sink", sink, 0),
	NUM(A, "sink-cpu", sink_cpu, UNIT_COUNT, 0, SCN_MAX_CPUS - 1, 0, NULL),
	NUM(A, "sink-work", sink_work_ns, UNIT_TIME_NS, 0, 1 * SEC, 0, NULL),
	NUM(A, "sink-prio", sink_prio, UNIT_COUNT, 0, 99, 0, "(SCHED_FIFO priority; 0 = SCHED_OTHER)"),
	NUM(A, "rcvbuf", rcvbuf, UNIT_BYTES, 2 * KIB, 2047 * MIB, 212992, NULL),
	NUM(A, "reply-size", reply_bytes, UNIT_BYTES, 0, 9216, 0, NULL),
	NUM(A, "busy_poll", busy_poll_ns, UNIT_TIME_US, 0, 1 * SEC, 0, NULL),
	BOOL(A, "prefer_busy_poll", prefer_busy_poll, 0),
	NUM(A, "busy_poll_budget", busy_poll_budget, UNIT_COUNT, 0, 65535, 0, "packets"),
	NUM(A, "sink-batch", sink_batch, UNIT_COUNT, 1, 64, 1, "datagrams"),
	NUM(A, "ack-every", ack_every, UNIT_COUNT, 0, 1000, 0, "frames"),
	NUM(A, "ack-size", ack_bytes, UNIT_BYTES, 64, 9216, 66, NULL),
	BOOL(A, "ping", ping, 0),
	NUM(A, "ping-cpu", ping_cpu, UNIT_COUNT, 0, SCN_MAX_CPUS - 1, 0, NULL),
	NUM(A, "ping-count", ping_count, UNIT_COUNT, 1, 100000000, 100000, "echo requests"),
	NUM(A, "ping-size", ping_size, UNIT_BYTES, 0, 65507, 56, NULL),
	NUM(A, "ping-work", ping_work_ns, UNIT_TIME_NS, 0, 1 * SEC, 10 * US, NULL),
	NUM(A, "netperf", netperf, UNIT_COUNT, 0, 256, 0, "TCP_STREAM connections"),
	NUM(A, "netperf-send-size", netperf_send, UNIT_BYTES, 1, 1048576, 16384, NULL),
	NUM(A, "netperf-recv-size", netperf_recv, UNIT_BYTES, 1, 1048576, 87380, NULL),
	NUM(A, "netperf-window", netperf_window, UNIT_BYTES, 1, 16777216, 65536, NULL),
	NUM(A, "netperf-work", netperf_work_ns, UNIT_TIME_NS, 0, 1 * SEC, 1 * US, NULL),
	NUM(A, "netperf-mss", netperf_mss, UNIT_BYTES, 1, 65483, 16384, NULL),
	ENUM(A, "server", server, server_names, SERVER_NONE),
	NUM(A, "server-threads", server_threads, UNIT_COUNT, 1, SCN_MAX_WORKERS, 1, "threads"),
	STR(A, "server-cpus", server_cpus, ""),
	ENUM(A, "server-spread", server_spread, spread_names, SPREAD_NAPI),
	STR(A, "epoll-timeout", epoll_timeout, "-1"),
	NUM(A, "server-work", server_work_ns, UNIT_TIME_NS, 0, 1 * SEC, 0, NULL),
	STR(A, "server-work-dist", server_work_dist, "fixed"),

	NUM(R, "duration", duration_ns, UNIT_TIME_NS, 1 * US, 3600 * SEC, 1 * SEC, NULL),
	NUM(R, "warmup", warmup_ns, UNIT_TIME_NS, 0, 3600 * SEC, 0, NULL),
	NUM(R, "seed", seed, UNIT_COUNT, 0, UINT64_MAX, 1, NULL),
	NUM(R, "timeslice", timeslice_ns, UNIT_TIME_NS, 100 * US, 1 * SEC, 4 * MS, NULL),
	NUM(R, "vmstat-interval", vmstat_ns, UNIT_TIME_NS, 0, 3600 * SEC, 0, NULL),
};
#define N_SCHEMA (sizeof(schema) / sizeof(schema[0]))

#undef H
#undef N
#undef T
#undef A
#undef R

/* One load in progress. */
struct sload {
	struct scenario *s;
	struct ini_doc d;
	const struct ini_section *sec_of[N_SECT];      /* singletons, NULL if absent */
	const struct ini_section *nic[SCN_MAX_NICS];
	const struct ini_section *traffic[SCN_MAX_TRAFFIC];
	char *err;
	size_t errlen;
};

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int bad(struct sload *l, int line, const char *src, const char *fmt, ...)
{
	char where[320], msg[768];
	va_list ap;

	ini_where(&l->d, line, src, where, sizeof(where));
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(l->err, l->errlen, "%s: %s", where, msg);
	return -EINVAL;
}

static int oom(struct sload *l)
{
	snprintf(l->err, l->errlen, "%s: out of memory", l->d.origin);
	return -ENOMEM;
}

/* Index in @list (NULL-terminated) or -1. */
static int index_of(const char *const *list, const char *word)
{
	for (int i = 0; list[i]; i++)
		if (strcmp(list[i], word) == 0)
			return i;
	return -1;
}

/* "a, b, c" into @buf. */
static void join(const char *const *list, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; list[i]; i++) {
		if (i)
			strncat(buf, ", ", len - strlen(buf) - 1);
		strncat(buf, list[i], len - strlen(buf) - 1);
	}
}

static void *field(void *base, const struct key_spec *k)
{
	return (char *)base + k->off;
}

/* Store an integer into a 4- or 8-byte field; the table's max fits it. */
static void store_num(void *base, const struct key_spec *k, uint64_t v)
{
	assert(k->size == 4 || k->size == 8);
	assert(k->size == 8 || v <= UINT32_MAX);
	if (k->size == 4) {
		uint32_t x = (uint32_t)v;

		memcpy(field(base, k), &x, sizeof(x));
	} else {
		memcpy(field(base, k), &v, sizeof(v)); /* int64_t fields: v <= INT64_MAX */
	}
}

static void fill_defaults(enum sect_id id, void *base)
{
	for (size_t i = 0; i < N_SCHEMA; i++) {
		const struct key_spec *k = &schema[i];

		if (k->sect != id || k->type == KT_LATER)
			continue;
		if (k->type == KT_STR)
			snprintf(field(base, k), k->size, "%s", k->sdef);
		else
			store_num(base, k, k->def);
	}
}

static const struct key_spec *find_spec(enum sect_id id, const char *key)
{
	for (size_t i = 0; i < N_SCHEMA; i++)
		if (schema[i].sect == id && strcmp(schema[i].key, key) == 0)
			return &schema[i];
	return NULL;
}

/* Keys of section @id, NULL-terminated, for suggestions and lists. */
static void keys_of(enum sect_id id, const char **out, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < N_SCHEMA && n + 1 < cap; i++)
		if (schema[i].sect == id)
			out[n++] = schema[i].key;
	out[n] = NULL;
}

static int unknown_key(struct sload *l, enum sect_id id, const struct ini_section *s,
                       const struct ini_entry *e)
{
	const char *keys[N_SCHEMA + 1], *near;
	char label[64], list[512];

	keys_of(id, keys, N_SCHEMA + 1);
	near = ini_suggest(e->key, keys);
	ini_section_label(s, label, sizeof(label));
	if (near)
		return bad(l, e->line, e->src, "unknown key '%s' in %s; did you mean '%s'?", e->key,
		           label, near);
	join(keys, list, sizeof(list));
	return bad(l, e->line, e->src, "unknown key '%s' in %s; keys: %s", e->key, label, list);
}

static int parse_enum(struct sload *l, const struct ini_entry *e, const struct key_spec *k,
                      void *base)
{
	const char *near;
	char list[128], msg[768];
	int i;

	if (k->names == adaptive_names) {
		i = policy_key_parse(e->value, base, msg, sizeof(msg));
		if (i <= 0)
			return i ? bad(l, e->line, e->src, "%s", msg) : 0;
	}
	i = index_of(k->names, e->value);
	/* ethtool's spelling: `ethtool -C DEV adaptive-rx on` turns on the
	 * driver's DIM (net_dim(), lib/dim/net_dim.c) on every modern driver
	 * that has adaptive moderation (mlx5, ice, bnxt), so on means dim */
	if (i < 0 && k->names == adaptive_names && !strcmp(e->value, "on"))
		i = ADAPTIVE_DIM;
	if (i >= 0) {
		store_num(base, k, (uint64_t)i);
		return 0;
	}
	join(k->names, list, sizeof(list));
	near = ini_suggest(e->value, k->names);
	if (near)
		return bad(l, e->line, e->src, "%s = %s: accepted %s; did you mean '%s'?", k->key,
		           e->value, list, near);
	return bad(l, e->line, e->src, "%s = %s: accepted %s", k->key, e->value, list);
}

static int parse_value(struct sload *l, const struct ini_entry *e, const struct key_spec *k,
                       void *base)
{
	char msg[512];
	uint64_t v;
	bool b;

	if (k->per_queue && strpbrk(e->value, " \t"))
		return 0; /* one value per queue: read_napi_lists() */
	switch (k->type) {
	case KT_LATER:
		return 0;
	case KT_UNIT:
		if (k->word) {
			uint32_t *flag = (uint32_t *)((char *)base + k->woff);

			*flag = strcmp(e->value, k->word) == 0;
			if (*flag) {
				store_num(base, k, 0);
				return 0;
			}
		}
		if (unit_parse_key(k->unit, k->key, e->value, k->min, k->max, k->noun, &v, msg,
		                   sizeof(msg)))
			return bad(l, e->line, e->src, "%s", msg);
		store_num(base, k, v);
		return 0;
	case KT_BOOL:
		if (unit_parse_bool(e->value, &b))
			return bad(l, e->line, e->src,
			           "%s = %s: accepted on/off, yes/no, true/false, 1/0", k->key,
			           e->value);
		store_num(base, k, b);
		return 0;
	case KT_ENUM:
		return parse_enum(l, e, k, base);
	case KT_THREADED:
		if (queue_keys_threaded(k->key, e->value, &v, msg, sizeof(msg)))
			return bad(l, e->line, e->src, "%s", msg);
		store_num(base, k, v);
		return 0;
	case KT_STR:
		if (strlen(e->value) >= k->size)
			return bad(l, e->line, e->src, "%s = %s: too long (at most %zu characters)",
			           k->key, e->value, k->size - 1);
		memcpy(field(base, k), e->value, strlen(e->value) + 1);
		return 0;
	}
	return 0;
}

static int read_entries(struct sload *l, enum sect_id id, const struct ini_section *s,
                        void *base)
{
	for (size_t i = 0; i < s->n_ent; i++) {
		const struct ini_entry *e = s->ent[i];
		const struct key_spec *k = find_spec(id, e->key);
		int rc = k ? parse_value(l, e, k, base) : unknown_key(l, id, s, e);

		if (rc)
			return rc;
	}
	return 0;
}

/* NIC and traffic names: 1..31 characters from [A-Za-z0-9_.-]. */
static bool valid_name(const char *n)
{
	size_t len = strlen(n);

	if (len == 0 || len >= SCN_NAME_LEN)
		return false;
	for (; *n; n++) {
		char c = *n;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '-'))
			return false;
	}
	return true;
}

/* [route] from = to: stored now, checked against the NICs in finish(). */
static int read_route(struct sload *l, const struct ini_section *s)
{
	struct scn_route *r = &l->s->route;

	for (size_t i = 0; i < s->n_ent; i++) {
		const struct ini_entry *e = s->ent[i];

		if (r->n == SCN_MAX_NICS)
			return bad(l, e->line, e->src, "too many routes: at most %d", SCN_MAX_NICS);
		if (strlen(e->key) >= SCN_NAME_LEN || strlen(e->value) >= SCN_NAME_LEN)
			return bad(l, e->line, e->src, "route %s -> %s: a NIC name has at most %d "
			           "characters", e->key, e->value, SCN_NAME_LEN - 1);
		memcpy(r->from[r->n], e->key, strlen(e->key) + 1);
		memcpy(r->to[r->n], e->value, strlen(e->value) + 1);
		r->n++;
	}
	return 0;
}

static int check_naming(struct sload *l, enum sect_id id, const struct ini_section *s)
{
	if (sect_naming[id] == NAME_NONE && s->name[0])
		return bad(l, s->line, s->src, "section [%s] takes no name (found '%s')", s->kind,
		           s->name);
	if (sect_naming[id] == NAME_REQUIRED && !s->name[0])
		return bad(l, s->line, s->src, "[%s] needs a name, e.g. [%s eth0]", s->kind, s->kind);
	if (s->name[0] && !valid_name(s->name))
		return bad(l, s->line, s->src, "bad name '%s' for [%s]: use 1..%d characters from "
		           "A-Z a-z 0-9 _ . -", s->name, s->kind, SCN_NAME_LEN - 1);
	return 0;
}

static int unknown_section(struct sload *l, const struct ini_section *s)
{
	const char *near = ini_suggest(s->kind, sect_kinds);
	char list[128];

	if (near)
		return bad(l, s->line, s->src, "unknown section [%s]; did you mean [%s]?", s->kind,
		           near);
	join(sect_kinds, list, sizeof(list));
	return bad(l, s->line, s->src, "unknown section [%s]; sections: %s", s->kind, list);
}

static int read_nic(struct sload *l, const struct ini_section *s)
{
	struct scenario *sc = l->s;
	struct scn_nic *n;

	if (sc->n_nics == SCN_MAX_NICS)
		return bad(l, s->line, s->src, "too many [nic] sections: at most %d", SCN_MAX_NICS);
	l->nic[sc->n_nics] = s;
	n = &sc->nic[sc->n_nics++];
	fill_defaults(SEC_NIC, n);
	memcpy(n->name, s->name, strlen(s->name) + 1);
	return read_entries(l, SEC_NIC, s, n);
}

static int read_traffic(struct sload *l, const struct ini_section *s)
{
	struct scenario *sc = l->s;
	const char *name = s->name[0] ? s->name : "traffic";
	struct scn_traffic *t;

	if (sc->n_traffic == SCN_MAX_TRAFFIC)
		return bad(l, s->line, s->src, "too many [traffic] sections: at most %d",
		           SCN_MAX_TRAFFIC);
	for (uint32_t i = 0; i < sc->n_traffic; i++)
		if (strcmp(sc->traffic[i].name, name) == 0)
			return bad(l, s->line, s->src, "two traffic sources are called '%s' ([traffic] "
			           "is short for [traffic traffic])", name);
	l->traffic[sc->n_traffic] = s;
	t = &sc->traffic[sc->n_traffic++];
	fill_defaults(SEC_TRAFFIC, t);
	memcpy(t->name, name, strlen(name) + 1);
	return read_entries(l, SEC_TRAFFIC, s, t);
}

static int read_section(struct sload *l, const struct ini_section *s)
{
	int id = index_of(sect_kinds, s->kind);
	int rc;

	if (id < 0)
		return unknown_section(l, s);
	rc = check_naming(l, (enum sect_id)id, s);
	if (rc)
		return rc;
	switch ((enum sect_id)id) {
	case SEC_NIC:
		return read_nic(l, s);
	case SEC_TRAFFIC:
		return read_traffic(l, s);
	case SEC_ROUTE:
		l->sec_of[id] = s;
		return read_route(l, s);
	case SEC_HOST:
		l->sec_of[id] = s;
		return read_entries(l, SEC_HOST, s, &l->s->host);
	case SEC_APPS:
		l->sec_of[id] = s;
		return read_entries(l, SEC_APPS, s, &l->s->apps);
	case SEC_RUN:
		l->sec_of[id] = s;
		return read_entries(l, SEC_RUN, s, &l->s->run);
	case N_SECT:
		break;
	}
	return 0;
}

/* --set ------------------------------------------------------------------ */

/* "a, b" of the sections of @kind, unnamed ones as "(unnamed)". */
static size_t list_sections(const struct ini_doc *d, const char *kind, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < d->n_sec; i++) {
		if (strcmp(d->sec[i]->kind, kind) != 0)
			continue;
		if (n++)
			strncat(buf, ", ", len - strlen(buf) - 1);
		strncat(buf, d->sec[i]->name[0] ? d->sec[i]->name : "(unnamed)",
		        len - strlen(buf) - 1);
	}
	return n;
}

/* The section an override without a name means: the only one of @kind. */
static struct ini_section *only_section(struct sload *l, enum sect_id id, const char *set,
                                        const char *key, const char *value, int *rc)
{
	const char *kind = sect_kinds[id];
	char names[256];
	size_t n = list_sections(&l->d, kind, names, sizeof(names));

	*rc = 0;
	if (n == 1) {
		for (size_t i = 0; i < l->d.n_sec; i++)
			if (strcmp(l->d.sec[i]->kind, kind) == 0)
				return l->d.sec[i];
	}
	if (n == 0 && sect_naming[id] != NAME_REQUIRED)
		return ini_section_add(&l->d, kind, "", 0, set);
	if (n == 0)
		*rc = bad(l, 0, set, "there is no [%s] section; name one: %s.NAME.%s=%s", kind, kind,
		          key, value);
	else
		*rc = bad(l, 0, set, "there are %zu [%s] sections (%s); name one, e.g. %s.NAME.%s=%s",
		          n, kind, names, kind, key, value);
	return NULL;
}

/* Copy s[0..n) with blanks trimmed into @buf (size @len); false if too long. */
static bool trimmed(const char *s, size_t n, char *buf, size_t len)
{
	while (n > 0 && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n >= len)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

/* Apply "SECTION[.NAME].KEY=VALUE" to the document. */
static int apply_set(struct sload *l, const char *set)
{
	const char *eq = strchr(set, '=');
	char path[256], value[1024], *dot, *key, *name = NULL;
	struct ini_section *s;
	int id, rc = 0;

	if (strlen(set) >= sizeof(value))
		return bad(l, 0, "...", "an override of %zu characters is too long", strlen(set));
	if (!eq || !trimmed(set, (size_t)(eq - set), path, sizeof(path)) ||
	    !trimmed(eq + 1, strlen(eq + 1), value, sizeof(value)) || !(dot = strchr(path, '.')) ||
	    dot == path)
		return bad(l, 0, set, "expected SECTION.KEY=VALUE or SECTION.NAME.KEY=VALUE, "
		           "e.g. host.rxpath=napi or nic.eth0.rx-usecs=8");
	*dot = '\0';
	key = dot + 1;
	id = index_of(sect_kinds, path);
	if (id < 0) {
		char none[1] = "";
		struct ini_section fake = { .kind = path, .name = none, .src = set };

		return unknown_section(l, &fake);
	}
	if (sect_naming[id] != NAME_NONE && strrchr(key, '.')) {
		name = key;
		key = strrchr(key, '.');
		*key++ = '\0';
	}
	if (!*key || !*value)
		return bad(l, 0, set, "%s", !*key ? "missing key" : "missing value after '='");
	if (name)
		s = ini_find_section(&l->d, path, name);
	else if (sect_naming[id] == NAME_NONE)
		s = ini_find_section(&l->d, path, "");
	else
		s = only_section(l, (enum sect_id)id, set, key, value, &rc);
	if (rc)
		return rc;
	if (!s)
		s = ini_section_add(&l->d, path, name ? name : "", 0, set);
	if (!s || !ini_set(s, key, value, 0, set))
		return oom(l);
	return 0;
}

/* finish(): what needs the whole scenario ---------------------------------- */

/* Where @key of @s was set; the section if it was not; the file if there
 * is no section. */
static void where_key(const struct ini_section *s, const char *key, int *line,
                      const char **src)
{
	const struct ini_entry *e = s ? ini_find(s, key) : NULL;

	*line = e ? e->line : s ? s->line : 0;
	*src = e ? e->src : s ? s->src : NULL;
}

/* For a check that involves several keys of @s: the first of @keys that
 * an override set (the user's latest change is the likely cause), else the
 * first of @keys written in the file (so that the message points at a
 * line holding a key it names), else the section itself. */
static void where_keys(const struct ini_section *s, const char *const *keys, int *line,
                       const char **src)
{
	const struct ini_entry *first = NULL;

	*line = s ? s->line : 0;
	*src = s ? s->src : NULL;
	for (; s && *keys; keys++) {
		const struct ini_entry *e = ini_find(s, *keys);

		if (e && e->src) {
			*line = e->line;
			*src = e->src;
			return;
		}
		if (e && !first)
			first = e;
	}
	if (first)
		*line = first->line;
}

static int check_required(struct sload *l, enum sect_id id, const struct ini_section *s)
{
	char label[64];

	for (size_t i = 0; i < N_SCHEMA; i++) {
		const struct key_spec *k = &schema[i];

		if (k->sect != id || !k->required || ini_find(s, k->key))
			continue;
		return bad(l, s->line, s->src, "%s needs '%s', e.g. %s = %s",
		           ini_section_label(s, label, sizeof(label)), k->key, k->key, k->sdef);
	}
	return 0;
}

/* "no [nic eth9] section" and the NICs there are.  No near-miss guess:
 * NIC names differ by one character (eth0, eth1), so edit distance would
 * suggest the wrong one as often as the right one. */
static int no_such_nic(struct sload *l, int line, const char *src, const char *what,
                       const char *name)
{
	const char *names[SCN_MAX_NICS + 1];
	char list[320];
	uint32_t i;

	for (i = 0; i < l->s->n_nics; i++)
		names[i] = l->s->nic[i].name;
	names[i] = NULL;
	join(names, list, sizeof(list));
	return bad(l, line, src, "%s: no [nic %s] section; NICs: %s", what, name, list);
}

/* trace-speed = a decimal number 0.001..1000, read exactly: "2.5" is
 * parsed as 2.5 us, whose nanoseconds are the thousandths. */
static int trace_speed(struct sload *l, uint32_t i)
{
	struct scn_traffic *t = &l->s->traffic[i];
	char buf[32];
	uint64_t milli;
	int line;
	const char *src;

	snprintf(buf, sizeof(buf), "%sus", t->trace_speed);
	if (!strchr(t->trace_speed, ' ') && unit_parse(UNIT_TIME_NS, buf, &milli, NULL, 0) == 0 &&
	    milli >= 1 && milli <= 1000000) {
		t->trace_speed_milli = (uint32_t)milli;
		return 0;
	}
	where_key(l->traffic[i], "trace-speed", &line, &src);
	return bad(l, line, src, "trace-speed = %s is out of range: accepted a number "
	           "0.001..1000 (2 plays the trace twice as fast)", t->trace_speed);
}

/* Mean offered rate of a trace played at @milli thousandths of its speed. */
static uint64_t trace_rate_pps(const struct scn_trace *tr, uint32_t milli)
{
	int64_t span = tr->t_ns[tr->n - 1];
	double r;

	if (tr->n < 2 || span <= 0)
		return 1;
	r = (double)(tr->n - 1) * 1e9 * ((double)milli / 1000.0) / (double)span;
	return r < 1.0 ? 1 : (uint64_t)(r + 0.5);
}

/* pattern = trace: the file is read (once per process) and its mean rate
 * stands in for 'rate'.  A 'trace' key makes the section a trace source
 * whatever its pattern, rate and frame-size say, so that
 * --set traffic.trace=FILE replays a capture into any scenario. */
static int check_trace(struct sload *l, uint32_t i)
{
	struct scn_traffic *t = &l->s->traffic[i];
	const struct ini_section *s = l->traffic[i];
	char msg[640];
	int line, rc;
	const char *src;

	if (!t->trace_path[0]) {
		where_key(s, "pattern", &line, &src);
		return bad(l, line, src, "pattern = trace needs 'trace', e.g. trace = capture.pcap "
		           "(a pcap, pcapng or time_us,length CSV file)");
	}
	where_key(s, "trace", &line, &src);
	t->pattern = TRAFFIC_TRACE;
	rc = trace_speed(l, i);
	if (rc)
		return rc;
	rc = trace_load(&t->trace, t->trace_path, msg, sizeof(msg));
	if (rc == -EINVAL) { /* inside the trace: its own file and line or packet say it */
		snprintf(l->err, l->errlen, "%s", msg);
		return rc;
	}
	if (rc)
		return bad(l, line, src, "trace = %s: cannot open: %s", t->trace_path, strerror(-rc)),
		       rc;
	t->rate_pps = trace_rate_pps(t->trace, t->trace_speed_milli);
	return 0;
}

/* trace-speed without a trace would do nothing: say so. */
static int speed_without_trace(struct sload *l, uint32_t i)
{
	int line;
	const char *src;

	where_key(l->traffic[i], "trace-speed", &line, &src);
	return bad(l, line, src, "trace-speed = %s: applies to a trace only; give trace = FILE "
	           "(a pcap, pcapng or time_us,length CSV file)", l->s->traffic[i].trace_speed);
}

static int check_traffic(struct sload *l)
{
	struct scenario *sc = l->s;
	char what[96];
	int line, rc;
	const char *src;

	for (uint32_t i = 0; i < sc->n_traffic; i++) {
		struct scn_traffic *t = &sc->traffic[i];

		if (t->pattern == TRAFFIC_TRACE || t->trace_path[0])
			rc = check_trace(l, i);
		else if (ini_find(l->traffic[i], "trace-speed"))
			rc = speed_without_trace(l, i);
		else if (t->pattern == TRAFFIC_CLOSED)
			t->rate_pps = 0, rc = 0; /* the server's answers set the rate */
		else
			rc = check_required(l, SEC_TRAFFIC, l->traffic[i]);
		if (rc)
			return rc;
		if (!t->port[0])
			memcpy(t->port, sc->nic[0].name, sizeof(t->port));
		if (scenario_nic_index(sc, t->port) >= 0)
			continue;
		where_key(l->traffic[i], "port", &line, &src);
		snprintf(what, sizeof(what), "port = %s", t->port);
		return no_such_nic(l, line, src, what, t->port);
	}
	return 0;
}

/* A trace given on the command line is played whole unless the command
 * line says how long to run (the rule of trace_play.h): run.duration
 * becomes trace_run_ns() of the longest trace and run.warmup 0 unless an
 * override sets it.  Only when every source is a trace. */
static int trace_run_default(struct sload *l)
{
	const struct ini_section *run = l->sec_of[SEC_RUN];
	const struct ini_entry *d = run ? ini_find(run, "duration") : NULL;
	const struct ini_entry *w = run ? ini_find(run, "warmup") : NULL;
	bool from_set = false;
	int64_t dur = 0;
	char a[32];

	for (uint32_t i = 0; i < l->s->n_traffic; i++) {
		const struct scn_traffic *t = &l->s->traffic[i];
		const struct ini_entry *e = ini_find(l->traffic[i], "trace");
		int64_t n;

		if (t->pattern != TRAFFIC_TRACE)
			return 0;
		from_set |= e && e->src;
		n = trace_run_ns(t->trace, t->trace_speed_milli, t->start_ns);
		dur = n > dur ? n : dur;
	}
	if (l->s->n_traffic == 0 || (d && (d->src || !from_set)))
		return 0;
	if ((uint64_t)dur > 3600 * SEC)
		return bad(l, 0, NULL, "the trace lasts %s at its trace-speed, longer than a run "
			   "can (run.duration at most 1h): --set run.duration=1h plays its first hour",
			   unit_format(UNIT_TIME_NS, (uint64_t)dur, a, sizeof(a)));
	l->s->run.duration_ns = dur;
	if (!w || !w->src)
		l->s->run.warmup_ns = 0;
	return 0;
}

static int check_routes(struct sload *l)
{
	const struct scn_route *r = &l->s->route;
	char what[96];
	int line;
	const char *src;

	for (uint32_t i = 0; i < r->n; i++) {
		const char *missing = scenario_nic_index(l->s, r->from[i]) < 0 ? r->from[i]
		                    : scenario_nic_index(l->s, r->to[i]) < 0   ? r->to[i]
		                                                                : NULL;

		if (!missing)
			continue;
		where_key(l->sec_of[SEC_ROUTE], r->from[i], &line, &src);
		snprintf(what, sizeof(what), "route %s -> %s", r->from[i], r->to[i]);
		return no_such_nic(l, line, src, what, missing);
	}
	return 0;
}

/* An *-cpu key must name a CPU the host has. */
static int check_cpu(struct sload *l, const struct ini_section *s, const char *key,
                     uint32_t cpu)
{
	const struct ini_entry *e = s ? ini_find(s, key) : NULL;
	uint32_t cpus = l->s->host.cpus;
	int line;
	const char *src;

	if (cpu < cpus)
		return 0;
	where_key(s, key, &line, &src);
	return bad(l, line, src, "%s = %s is out of range: accepted 0..%u ([host] cpus = %u)", key,
	           e ? e->value : "?", cpus - 1, cpus);
}

/* [apps] server = epoll: resolve server-cpus, epoll-timeout and
 * server-work-dist (model/server_keys.c), and turn the socket reader on. */
static int check_server(struct sload *l)
{
	struct scn_apps *a = &l->s->apps;
	const struct ini_section *s = l->sec_of[SEC_APPS];
	const char *key = NULL;
	char why[256];
	int line;
	const char *src;

	if (server_keys_resolve(a, l->s->host.cpus, &key, why, sizeof(why)) == 0)
		return 0;
	where_key(s, key, &line, &src);
	return bad(l, line, src, "%s", why);
}

/* "rx-..." in a coal_params_check() message becomes "tx-..." for TX. */
static void rx_to_tx(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (; *in && o + 1 < len; in++, o++) {
		out[o] = *in;
		if (strncmp(in, "rx-", 3) == 0)
			out[o] = 't';
	}
	out[o] = '\0';
}

/* adaptive.c names fields ("pkt_rate_low"); the scenario keys are
 * "pkt-rate-low". */
static void underscores_to_dashes(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (; *in && o + 1 < len; in++, o++)
		out[o] = *in == '_' ? '-' : *in;
	out[o] = '\0';
}

/* ethtool -C values of queue @q of port @i, checked as the driver would;
 * a message names the queue when the port's queues have their own. */
static int check_queue_coalescing(struct sload *l, uint32_t i, uint32_t q, bool per_queue)
{
	static const char *const rx_keys[] = { "rx-usecs", "rx-frames", "rx-usecs-irq",
		                               "rx-frames-irq", "cqe-mode-rx", "min-irq-interval",
		                               NULL };
	static const char *const tx_keys[] = { "tx-usecs", "tx-frames", "tx-usecs-irq",
		                               "tx-frames-irq", "cqe-mode-tx", "min-irq-interval",
		                               NULL };
	const struct scn_nic *n = &l->s->nic[i];
	const struct scn_qcoal *c = &n->coal[q];
	const struct coal_params rx = {
		c->rx_usecs_ns, c->rx_frames, n->rx_usecs_irq_ns, n->rx_frames_irq,
		(enum coal_timer_mode)n->rx_timer, 0, n->min_irq_gap_ns, 0,
	};
	const struct coal_params tx = {
		c->tx_usecs_ns, c->tx_frames, n->tx_usecs_irq_ns, n->tx_frames_irq,
		(enum coal_timer_mode)n->tx_timer, 0, n->min_irq_gap_ns, 0,
	};
	const char *why, *src;
	char txwhy[256], queue[32] = "";
	int line;

	if (per_queue)
		snprintf(queue, sizeof(queue), " queue %u:", q);
	if (coal_params_check(&rx, &why)) {
		where_keys(l->nic[i], rx_keys, &line, &src);
		return bad(l, line, src, "[nic %s]%s %s", n->name, queue, why);
	}
	if (coal_params_check(&tx, &why)) {
		where_keys(l->nic[i], tx_keys, &line, &src);
		rx_to_tx(why, txwhy, sizeof(txwhy));
		return bad(l, line, src, "[nic %s]%s %s", n->name, queue, txwhy);
	}
	return 0;
}

static int check_coalescing(struct sload *l, uint32_t i)
{
	const struct scn_nic *n = &l->s->nic[i];
	bool per_queue = false;

	for (uint32_t q = 1; q < n->combined; q++)
		per_queue |= memcmp(&n->coal[q], &n->coal[0], sizeof(n->coal[0])) != 0;
	for (uint32_t q = 0; q < n->combined; q++) {
		int rc = check_queue_coalescing(l, i, q, per_queue);

		if (rc)
			return rc;
	}
	return 0;
}

/* Driver quirks (model/quirks.c) --------------------------------------------- */

static const char *const usecs_keys[] = { "rx-usecs", "driver", NULL };

/* rx-usecs = @ns of port @i (@queue: "" or " queue N:") refused by its
 * driver, or (@why) read as a mode rxlab does not simulate. */
static int bad_usecs(struct sload *l, uint32_t i, const char *queue, int64_t ns, const char *why)
{
	const struct scn_nic *n = &l->s->nic[i];
	const struct quirk_driver *q = quirk_driver(n->driver);
	const char *src;
	int line;

	where_keys(l->nic[i], usecs_keys, &line, &src);
	if (ns % 1000)
		return bad(l, line, src, "[nic %s]%s rx-usecs = %lld ns with driver = %s: ethtool -C "
		           "takes whole microseconds; accepted %s", n->name, queue, (long long)ns,
		           q->name, q->usecs_rule);
	return bad(l, line, src, "[nic %s]%s rx-usecs = %lld us with driver = %s: %s%saccepted %s",
	           n->name, queue, (long long)(ns / 1000), q->name, why ? why : "",
	           why ? "; " : "", q->usecs_rule);
}

/* Queue @q's rx-usecs and rx-frames as driver @n->driver honours them,
 * with the first change said in n->driver_note. */
static int driver_queue(struct sload *l, uint32_t i, uint32_t q, bool per_queue)
{
	static const char *const frames_keys[] = { "rx-frames", "driver", NULL };
	struct scn_nic *n = &l->s->nic[i];
	struct scn_qcoal *c = &n->coal[q];
	const struct quirk_driver *d = quirk_driver(n->driver);
	char queue[32] = "";
	const char *why, *src;
	int64_t ns;
	uint32_t fr;
	int line;

	if (per_queue)
		snprintf(queue, sizeof(queue), " queue %u:", q);
	switch (quirk_rx_usecs(n->driver, c->rx_usecs_ns, &ns, &why)) {
	case QUIRK_REFUSED:
	case QUIRK_MODE:
		return bad_usecs(l, i, queue, c->rx_usecs_ns, why);
	case QUIRK_ROUNDED:
		if (per_queue)
			snprintf(queue, sizeof(queue), " on queue %u", q);
		if (!n->driver_note[0])
			snprintf(n->driver_note, sizeof(n->driver_note), "driver %s honours rx-usecs "
			         "%lld as %lld us%s (%s)", d->name, (long long)(c->rx_usecs_ns / 1000),
			         (long long)(ns / 1000), queue, why);
		c->rx_usecs_ns = ns;
		break;
	case QUIRK_AS_ASKED:
		break;
	}
	if (quirk_rx_frames(n->driver, c->rx_frames, c->rx_usecs_ns, &fr, &why) == QUIRK_REFUSED) {
		where_keys(l->nic[i], frames_keys, &line, &src);
		return bad(l, line, src, "[nic %s]%s rx-frames = %u with driver = %s: %s", n->name,
		           queue, c->rx_frames, d->name, why);
	}
	c->rx_frames = fr;
	return 0;
}

/* adaptive-rx and cqe-mode-rx the driver of port @i has no knob for. */
static int driver_flags(struct sload *l, uint32_t i)
{
	const struct scn_nic *n = &l->s->nic[i];
	const struct quirk_driver *d = quirk_driver(n->driver);
	const struct ini_entry *cqe = ini_find(l->nic[i], "cqe-mode-rx");
	const char *src;
	int line;

	if (n->adaptive_rx != ADAPTIVE_OFF && !d->adaptive) {
		where_key(l->nic[i], "adaptive-rx", &line, &src);
		return bad(l, line, src, "[nic %s] adaptive-rx = %s with driver = %s: the driver has "
		           "no adaptive-rx (ethtool -C returns -EOPNOTSUPP); accepted off", n->name,
		           n->adaptive_rx == ADAPTIVE_POLICY ? "policy" : adaptive_names[n->adaptive_rx],
		           d->name);
	}
	if (cqe && !d->cqe_mode)
		return bad(l, cqe->line, cqe->src, "[nic %s] cqe-mode-rx with driver = %s: only mlx5 "
		           "has CQE-based moderation (ETHTOOL_COALESCE_USE_CQE); accepted: no "
		           "cqe-mode-rx key", n->name, d->name);
	return 0;
}

/* The port's values as its driver honours them (docs/quirks.md); generic
 * and e1000 keep theirs (e1000's rx-usecs is its ITR: check_adaptive()). */
static int check_driver(struct sload *l, uint32_t i)
{
	struct scn_nic *n = &l->s->nic[i];
	bool per_queue = false;
	int rc;

	if (n->driver == DRIVER_GENERIC || n->driver == DRIVER_E1000)
		return 0;
	rc = driver_flags(l, i);
	for (uint32_t q = 1; q < n->combined; q++)
		per_queue |= memcmp(&n->coal[q], &n->coal[0], sizeof(n->coal[0])) != 0;
	if (!rc && per_queue && !quirk_driver(n->driver)->per_queue) {
		static const char *const coal_keys[] = { "rx-usecs", "rx-frames", "tx-usecs",
							 "tx-frames", "driver", NULL };
		const char *src;
		int line;

		where_keys(l->nic[i], coal_keys, &line, &src);
		return bad(l, line, src, "[nic %s] coalescing values per queue with driver = %s: the "
		           "driver has no per-queue coalescing (no set_per_queue_coalesce for ethtool "
		           "--per-queue); accepted one value for every queue", n->name,
		           quirk_driver(n->driver)->name);
	}
	for (uint32_t q = 0; !rc && q < n->combined; q++)
		rc = driver_queue(l, i, q, per_queue);
	n->rx_usecs_ns = n->coal[0].rx_usecs_ns;
	n->rx_frames = n->coal[0].rx_frames;
	return rc;
}

void scenario_driver_notes(FILE *f, const struct scenario *s)
{
	for (uint32_t i = 0; i < s->n_nics; i++)
		if (s->nic[i].driver_note[0])
			fprintf(f, "rxlab: note: nic %s: %s\n", s->nic[i].name, s->nic[i].driver_note);
}

/* e1000 InterruptThrottleRate and ethtool adaptive-rx = pkt-rate. */
static int check_adaptive(struct sload *l, uint32_t i)
{
	static const char *const itr_keys[] = { "InterruptThrottleRate", NULL };
	static const char *const rate_keys[] = { "pkt-rate-low", "pkt-rate-high", "sample-interval",
						 "adaptive-rx", NULL };
	const struct scn_nic *n = &l->s->nic[i];
	struct adaptive_config ac;
	struct itr_config ic;
	const char *why, *src;
	int line;

	if (itr_from_param(n->itr_param, &ic, &why)) {
		/* itr.c's message names no value; say it as the schema range errors do */
		where_keys(l->nic[i], itr_keys, &line, &src);
		return bad(l, line, src, "[nic %s] InterruptThrottleRate = %u is out of range: "
		           "accepted 0 (off), 1 (dynamic), 3 (dynamic conservative), "
		           "4 (simplified) or 100..100000 interrupts/s", n->name, n->itr_param);
	}
	if (n->driver == DRIVER_E1000 && n->rx_usecs_ns) {
		/* e1000 keeps its rx-usecs: the simulator reads it as ITR (src/sim/adaptive.c) */
		int64_t itr_gap_ns;

		if (quirk_rx_usecs(DRIVER_E1000, n->rx_usecs_ns, &itr_gap_ns, &why) == QUIRK_REFUSED)
			return bad_usecs(l, i, "", n->rx_usecs_ns, NULL);
	}
	if (n->adaptive_rx != ADAPTIVE_PKT_RATE)
		return 0;
	ac = scn_adaptive_config(n);
	if (adaptive_config_check(&ac, &why)) {
		char keywhy[256];

		where_keys(l->nic[i], rate_keys, &line, &src);
		underscores_to_dashes(why, keywhy, sizeof(keywhy));
		return bad(l, line, src, "[nic %s] adaptive-rx = pkt-rate: %s", n->name, keywhy);
	}
	return 0;
}

/* Queues ------------------------------------------------------------------ */

/* The per-queue field each per-queue key of [nic] fills: in scn_napi
 * (NAPI settings) or scn_qcoal (coalescing). */
static const struct {
	const char *key;
	bool coal;
	size_t off, size;
} queue_fields[] = {
	{ "napi_defer_hard_irqs", false, FLD(struct scn_napi, defer_hard_irqs) },
	{ "gro_flush_timeout", false, FLD(struct scn_napi, gro_flush_timeout_ns) },
	{ "irq-suspend-timeout", false, FLD(struct scn_napi, irq_suspend_timeout_ns) },
	{ "threaded", false, FLD(struct scn_napi, threaded) },
	{ "rx-usecs", true, FLD(struct scn_qcoal, rx_usecs_ns) },
	{ "rx-frames", true, FLD(struct scn_qcoal, rx_frames) },
	{ "tx-usecs", true, FLD(struct scn_qcoal, tx_usecs_ns) },
	{ "tx-frames", true, FLD(struct scn_qcoal, tx_frames) },
};

static uint64_t load_num(const void *base, size_t off, size_t size)
{
	uint32_t x;
	uint64_t v;

	if (size == 4) {
		memcpy(&x, (const char *)base + off, 4);
		return x;
	}
	memcpy(&v, (const char *)base + off, 8);
	return v;
}

static void put_num(void *base, size_t off, size_t size, uint64_t v)
{
	uint32_t x = (uint32_t)v;

	if (size == 4)
		memcpy((char *)base + off, &x, 4);
	else
		memcpy((char *)base + off, &v, 8);
}

/* One per-queue key of port @i: a list, or the scalar for every queue. */
static int queue_list(struct sload *l, uint32_t i, const struct key_spec *k, bool coal,
                      size_t off, size_t size)
{
	struct scn_nic *n = &l->s->nic[i];
	const struct ini_entry *e = ini_find(l->nic[i], k->key);
	uint64_t v[SCN_MAX_QUEUES];
	char msg[512];

	v[0] = load_num(n, k->off, k->size);
	for (uint32_t q = 1; q < n->combined; q++)
		v[q] = v[0];
	if (e && strpbrk(e->value, " \t") &&
	    queue_keys_list(k->key, e->value, n->combined, k->unit, k->min, k->max, k->noun,
	                    k->type == KT_BOOL ? QVAL_BOOL
	                    : k->type == KT_THREADED ? QVAL_THREADED : QVAL_UNIT, v, msg, sizeof(msg)))
		return bad(l, e->line, e->src, "[nic %s] %s", n->name, msg);
	put_num(n, k->off, k->size, v[0]);
	for (uint32_t q = 0; q < n->combined; q++)
		put_num(coal ? (void *)&n->coal[q] : (void *)&n->napi[q], off, size, v[q]);
	return 0;
}

static int queue_lists(struct sload *l, uint32_t i)
{
	for (size_t f = 0; f < sizeof(queue_fields) / sizeof(queue_fields[0]); f++) {
		int rc = queue_list(l, i, find_spec(SEC_NIC, queue_fields[f].key), queue_fields[f].coal,
		                    queue_fields[f].off, queue_fields[f].size);

		if (rc)
			return rc;
	}
	return 0;
}

/* indir and irq-affinity of port @i (after cpus and combined are known).
 * Without irq-affinity a multi-queue port spreads its vectors over the
 * CPUs (the drivers' affinity hints) unless irq-cpu names one for all. */
static int check_queues(struct sload *l, uint32_t i)
{
	struct scn_nic *n = &l->s->nic[i];
	const struct ini_entry *ind = ini_find(l->nic[i], "indir");
	const struct ini_entry *aff = ini_find(l->nic[i], "irq-affinity");
	const struct ini_entry *rps = ini_find(l->nic[i], "rps-cpus");
	const struct ini_entry *thr = ini_find(l->nic[i], "threaded-cpus");
	char msg[512];

	if (ind && queue_keys_indir(ind->value, n, msg, sizeof(msg)))
		return bad(l, ind->line, ind->src, "[nic %s] %s", n->name, msg);
	if (aff && queue_keys_irq_affinity(aff->value, l->s->host.cpus, n, msg, sizeof(msg)))
		return bad(l, aff->line, aff->src, "[nic %s] %s", n->name, msg);
	if (!aff && n->combined > 1 && !ini_find(l->nic[i], "irq-cpu"))
		n->irq_spread = 1;
	if (rps && queue_keys_rps(rps->value, l->s->host.cpus, n, msg, sizeof(msg)))
		return bad(l, rps->line, rps->src, "[nic %s] %s", n->name, msg);
	if (thr && queue_keys_threaded_cpus(thr->value, l->s->host.cpus, n, msg, sizeof(msg)))
		return bad(l, thr->line, thr->src, "[nic %s] %s", n->name, msg);
	return queue_lists(l, i);
}

/* pattern = closed: a server must answer on the port, which has no other
 * source (replies find their client by the port). */
static int check_closed(struct sload *l, uint32_t i)
{
	const struct scenario *sc = l->s;
	const struct scn_traffic *t = &sc->traffic[i];
	int line, port = scenario_nic_index(sc, t->port);
	const char *src;

	where_key(l->traffic[i], "pattern", &line, &src);
	if (!sc->apps.sink || !sc->apps.reply_bytes)
		return bad(l, line, src, "pattern = closed needs a server that answers: [apps] "
		           "reply-size > 0 (and sink = on or server = epoll)");
	for (uint32_t r = 0; r < sc->route.n; r++)
		if (strcmp(sc->route.from[r], t->port) == 0)
			return bad(l, line, src, "pattern = closed: port %s is routed (route %s -> %s); "
			           "its requests must reach the server", t->port, sc->route.from[r],
			           sc->route.to[r]);
	for (uint32_t j = 0; j < sc->n_traffic; j++)
		if (j != i && scenario_nic_index(sc, sc->traffic[j].port) == port)
			return bad(l, line, src, "pattern = closed: [traffic %s] is the only source "
			           "of port %s, but [traffic %s] sends there too", t->name, t->port,
			           sc->traffic[j].name);
	if ((uint64_t)t->flows * t->depth > SCN_MAX_FLOWS)
		return bad(l, line, src, "pattern = closed: flows x depth = %llu requests "
		           "outstanding, at most %u", (unsigned long long)t->flows * t->depth,
		           SCN_MAX_FLOWS);
	return 0;
}

/* pattern = stream: segments need room for the headers (SCN_TCP_OVERHEAD)
 * and some payload; stream-burst means nothing to another pattern. */
static int check_stream(struct sload *l, uint32_t i)
{
	const struct scn_traffic *t = &l->s->traffic[i];
	const struct ini_entry *e = ini_find(l->traffic[i], "stream-burst");
	int line;
	const char *src;

	if (t->pattern != TRAFFIC_STREAM) {
		if (e)
			return bad(l, e->line, e->src, "stream-burst applies to pattern = stream "
			           "(this source is %s)", pattern_names[t->pattern]);
		return 0;
	}
	if (t->frame_bytes >= SCN_STREAM_MIN_FRAME)
		return 0;
	where_key(l->traffic[i], "frame-size", &line, &src);
	return bad(l, line, src, "pattern = stream: frame-size = %u is too small for a TCP "
	           "segment; accepted %u..9216 bytes (MSS = frame-size - %u: Ethernet 14, IPv4 20, "
	           "TCP with timestamps 32, FCS 4)", t->frame_bytes, SCN_STREAM_MIN_FRAME,
	           SCN_TCP_OVERHEAD);
}

static int check_flows(struct sload *l)
{
	for (uint32_t i = 0; i < l->s->n_traffic; i++) {
		struct scn_traffic *t = &l->s->traffic[i];
		const struct ini_entry *e = ini_find(l->traffic[i], "flow-popularity");
		char msg[512];

		if (e && t->pattern == TRAFFIC_CLOSED)
			return bad(l, e->line, e->src, "flow-popularity applies to open-loop patterns; "
			           "a closed-loop flow sends when its last reply is back");
		if (e && queue_keys_flow_pop(e->value, &t->flow_pop, &t->zipf_milli, msg,
		                             sizeof(msg)))
			return bad(l, e->line, e->src, "%s", msg);
		if (t->pattern == TRAFFIC_CLOSED && check_closed(l, i))
			return -EINVAL;
		if (check_stream(l, i))
			return -EINVAL;
	}
	return 0;
}

/* gro = on: GRO runs in NAPI polls (napi_gro_receive from the driver's
 * poll); the other receive paths never call it. */
static int check_gro(struct sload *l, uint32_t i)
{
	const struct ini_entry *e = ini_find(l->nic[i], "gro");

	if (!l->s->nic[i].gro || l->s->host.rxpath == RXPATH_NAPI)
		return 0;
	return bad(l, e ? e->line : 0, e ? e->src : NULL, "[nic %s] gro = on needs [host] rxpath "
	           "= napi (GRO runs in the driver's NAPI poll; rxpath is %s)", l->s->nic[i].name,
	           rxpath_names[l->s->host.rxpath]);
}

/* tx-frames next to TxIntDelay: the e1000 has no TX frame count (TIDV
 * replaces tx-usecs/tx-frames), so a tx-frames given with it is the
 * driver's own count: every tx-frames-th descriptor interrupts at once
 * (Olsson's NAPI e1000, changelog 010610 "Added TX interrupt for a given
 * no of packets. (Currently 60)").  Not given, there is none; with
 * tx-clean = xmit there are no TX interrupts to count. */
static void mark_tx_frames(struct sload *l, uint32_t i)
{
	struct scn_nic *n = &l->s->nic[i];

	n->tx_frames_marked = ini_find(l->nic[i], "tx-frames") && n->tx_int_delay > 0 &&
			      n->tx_frames > 0;
}

static int check_nics(struct sload *l)
{
	for (uint32_t i = 0; i < l->s->n_nics; i++) {
		int rc = check_cpu(l, l->nic[i], "irq-cpu", l->s->nic[i].irq_cpu);

		mark_tx_frames(l, i);
		if (!rc)
			rc = check_gro(l, i);

		if (!rc)
			rc = check_queues(l, i);
		if (!rc)
			rc = check_driver(l, i);
		if (!rc)
			rc = check_coalescing(l, i);
		if (!rc)
			rc = check_adaptive(l, i);
		if (rc)
			return rc;
	}
	return 0;
}

/* kern.polling.* against each other and kern.hz. */
static int check_polling(struct sload *l)
{
	static const char *const keys[] = { "kern.polling.each_burst", "kern.polling.reg_frac",
					    "kern.polling.burst_max", NULL };
	const struct scn_host *h = &l->s->host;
	struct bsd_poll_config c = { .hz = h->hz, .burst_max = h->bsd_burst_max,
				     .each_burst = h->bsd_each_burst,
				     .user_frac = h->bsd_user_frac, .reg_frac = h->bsd_reg_frac };
	const char *why, *src;
	int line;

	if (bsd_poll_config_check(&c, &why) == 0)
		return 0;
	where_keys(l->sec_of[SEC_HOST], keys, &line, &src);
	return bad(l, line, src, "[host] %s", why);
}

/* vmstat-interval: at most SCN_VMSTAT_LINES lines over the run. */
static int check_vmstat(struct sload *l)
{
	const struct scn_run *r = &l->s->run;
	const struct ini_section *s = l->sec_of[SEC_RUN];
	const struct ini_entry *v = s ? ini_find(s, "vmstat-interval") : NULL;
	char a[32], b[32];
	int line;
	const char *src;

	if (r->vmstat_ns == 0 || r->duration_ns / r->vmstat_ns <= SCN_VMSTAT_LINES)
		return 0;
	where_key(s, "vmstat-interval", &line, &src);
	return bad(l, line, src, "vmstat-interval = %s is out of range: %s of run gives more than "
		   "%d lines; use at least %s or 0 (off)",
		   v ? v->value : unit_format(UNIT_TIME_NS, (uint64_t)r->vmstat_ns, a, sizeof(a)),
		   unit_format(UNIT_TIME_NS, (uint64_t)r->duration_ns, b, sizeof(b)),
		   SCN_VMSTAT_LINES,
		   unit_format(UNIT_TIME_NS, (uint64_t)((r->duration_ns + SCN_VMSTAT_LINES - 1) /
							SCN_VMSTAT_LINES), a, sizeof(a)));
}

static int check_run(struct sload *l)
{
	const struct scn_run *r = &l->s->run;
	const struct ini_section *s = l->sec_of[SEC_RUN];
	const struct ini_entry *w = s ? ini_find(s, "warmup") : NULL;
	const struct ini_entry *d = s ? ini_find(s, "duration") : NULL;
	char a[32], b[32];
	int line;
	const char *src;

	if (r->warmup_ns < r->duration_ns)
		return check_vmstat(l);
	where_key(s, "warmup", &line, &src);
	if (!src && d && d->src) { /* an override shortened the run */
		line = d->line;
		src = d->src;
	}
	return bad(l, line, src, "warmup = %s is out of range: must be less than duration (%s)",
	           w ? w->value : unit_format(UNIT_TIME_NS, (uint64_t)r->warmup_ns, a, sizeof(a)),
	           unit_format(UNIT_TIME_NS, (uint64_t)r->duration_ns, b, sizeof(b)));
}

static int resolve_profile(struct sload *l)
{
	char perr[512];
	int line, rc;
	const char *src;

	rc = profile_load(&l->s->profile, l->s->host.profile, perr, sizeof(perr));
	if (rc == 0)
		return 0;
	if (rc == -EINVAL) { /* inside the profile file: its own file:line says it */
		snprintf(l->err, l->errlen, "%s", perr);
		return rc;
	}
	where_key(l->sec_of[SEC_HOST], "profile", &line, &src);
	bad(l, line, src, "profile = %s: %s", l->s->host.profile, perr);
	return rc;
}

static int finish(struct sload *l)
{
	int rc;

	if (l->s->n_nics == 0)
		return bad(l, 0, NULL, "no [nic NAME] section; a scenario needs at least one NIC, "
		           "e.g. [nic eth0]");
	rc = check_traffic(l);
	if (!rc)
		rc = trace_run_default(l);
	if (!rc)
		rc = check_routes(l);
	if (!rc)
		rc = check_nics(l);
	if (!rc)
		rc = check_cpu(l, l->sec_of[SEC_APPS], "hog-cpu", l->s->apps.hog_cpu);
	if (!rc)
		rc = check_cpu(l, l->sec_of[SEC_APPS], "sink-cpu", l->s->apps.sink_cpu);
	if (!rc)
		rc = check_cpu(l, l->sec_of[SEC_APPS], "ping-cpu", l->s->apps.ping_cpu);
	if (!rc)
		rc = check_server(l);
	if (!rc)
		rc = check_flows(l); /* after check_server: closed loops need the server */
	if (!rc)
		rc = check_polling(l);
	if (!rc)
		rc = check_run(l);
	if (!rc)
		rc = resolve_profile(l);
	return rc;
}

/* Entry points ------------------------------------------------------------ */

int scenario_nic_index(const struct scenario *s, const char *name)
{
	for (uint32_t i = 0; i < s->n_nics; i++)
		if (strcmp(s->nic[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Basename of @path without ".ini" into @buf. */
static void base_name(const char *path, char *buf, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > 4 && strcmp(b + n - 4, ".ini") == 0)
		n -= 4;
	snprintf(buf, len, "%.*s", (int)n, b);
}

static int load(struct scenario *s, const char *text, const char *origin, const char *name,
                const char *const *sets, size_t n_sets, char *err, size_t errlen)
{
	struct sload l = { .s = s, .err = err, .errlen = errlen };
	int rc;

	assert(s && text && origin && name && err && errlen > 0);
	assert(sets || n_sets == 0);
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	fill_defaults(SEC_HOST, &s->host);
	fill_defaults(SEC_APPS, &s->apps);
	fill_defaults(SEC_RUN, &s->run);
	rc = ini_parse(&l.d, text, origin, err, errlen);
	for (size_t i = 0; rc == 0 && i < n_sets; i++)
		rc = apply_set(&l, sets[i]);
	for (size_t i = 0; rc == 0 && i < l.d.n_sec; i++)
		rc = read_section(&l, l.d.sec[i]);
	if (rc == 0)
		rc = finish(&l);
	ini_free(&l.d);
	return rc;
}

int scenario_load_text(struct scenario *s, const char *text, const char *origin,
                       const char *const *sets, size_t n_sets, char *err, size_t errlen)
{
	char name[64];

	base_name(origin, name, sizeof(name));
	return load(s, text, origin, name, sets, n_sets, err, errlen);
}

/* Built-in scenario names (not profiles), for a near-miss suggestion. */
static const char *near_builtin(const char *name)
{
	const char *names[256];
	size_t n = 0;

	for (const struct builtin_file *f = builtin_files; f->name && n + 1 < 256; f++)
		if (strncmp(f->name, "profiles/", 9) != 0)
			names[n++] = f->name;
	names[n] = NULL;
	return ini_suggest(name, names);
}

static const struct builtin_file *find_scenario(const char *name)
{
	const struct builtin_file *bf = NULL;
	char seed[256];

	if (strncmp(name, "profiles/", 9) != 0)
		bf = builtin_find(name);
	if (!bf && snprintf(seed, sizeof(seed), "seeds/%s", name) < (int)sizeof(seed))
		bf = builtin_find(seed);
	return bf;
}

/* A scenario on standard input ("-"): read once per process, whatever the
 * outcome, so that every run of a sweep, of compare or of tune (and their
 * forked workers, when the parent loaded it first) loads the same text;
 * s->name is "stdin", messages name "<stdin>". */
static struct {
	bool read;
	int rc;
	char *text;
	char err[1024];
} stdin_scn;

static int load_stdin(struct scenario *s, const char *const *sets, size_t n_sets, char *err,
		      size_t errlen)
{
	if (!stdin_scn.read) {
		stdin_scn.read = true;
		stdin_scn.rc = ini_read_file("-", &stdin_scn.text, stdin_scn.err,
					     sizeof(stdin_scn.err));
	}
	if (stdin_scn.rc) {
		snprintf(err, errlen, "%s", stdin_scn.err);
		return stdin_scn.rc;
	}
	return load(s, stdin_scn.text, INFILE_STDIN_NAME, "stdin", sets, n_sets, err, errlen);
}

int scenario_load(struct scenario *s, const char *name_or_path, const char *const *sets,
                  size_t n_sets, char *err, size_t errlen)
{
	const struct builtin_file *bf;
	const char *near;
	struct stat st;
	char name[64], *text;
	int rc;

	if (infile_is_stdin(name_or_path))
		return load_stdin(s, sets, n_sets, err, errlen);
	if (stat(name_or_path, &st) == 0) {
		rc = ini_read_file(name_or_path, &text, err, errlen);
		if (rc)
			return rc;
		base_name(name_or_path, name, sizeof(name));
		rc = load(s, text, name_or_path, name, sets, n_sets, err, errlen);
		free(text);
		return rc;
	}
	if (errno != ENOENT && errno != ENOTDIR) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot read: %s", name_or_path, strerror(errno));
		return rc;
	}
	bf = find_scenario(name_or_path);
	if (bf)
		return load(s, bf->text, bf->path, bf->name, sets, n_sets, err, errlen);
	near = near_builtin(name_or_path);
	if (near)
		snprintf(err, errlen, "no such file or built-in scenario '%s'; did you mean '%s'? "
		         "(try 'rxlab scenarios')", name_or_path, near);
	else
		snprintf(err, errlen, "no such file or built-in scenario '%s'; try 'rxlab scenarios'",
		         name_or_path);
	return -ENOENT;
}

/* ---- the schema, listed (rxlab scenarios --keys, rxlab-scenario(5)) ------- */

size_t scenario_key_count(void)
{
	return N_SCHEMA;
}

static void key_accepted(const struct key_spec *k, char *buf, size_t len)
{
	char a[32], b[32];

	switch (k->type) {
	case KT_UNIT:
		snprintf(buf, len, "%s..%s%s%s%s%s", unit_format(k->unit, k->min, a, sizeof(a)),
		         unit_format(k->unit, k->max, b, sizeof(b)), k->noun ? " " : "",
		         k->noun ? k->noun : "", k->word && !k->noun ? ", or " : "",
		         k->word && !k->noun ? k->word : "");
		return;
	case KT_BOOL:
		snprintf(buf, len, "on/off (yes/no, true/false, 1/0)");
		return;
	case KT_ENUM:
		join(k->names, buf, len);
		if (k->names == adaptive_names)
			strncat(buf, ", on (= dim), policy:NAME", len - strlen(buf) - 1);
		return;
	case KT_THREADED:
		snprintf(buf, len, "0, 1, 2, disabled, enabled, busy-poll, off/on");
		return;
	case KT_STR:
		snprintf(buf, len, "text");
		return;
	case KT_LATER:
		snprintf(buf, len, "e.g. %s", k->sdef);
		return;
	}
}

static void key_default(const struct key_spec *k, char *buf, size_t len)
{
	if (k->required)
		snprintf(buf, len, "(required)");
	else if (k->type == KT_UNIT)
		unit_format(k->unit, k->def, buf, len);
	else if (k->type == KT_BOOL)
		snprintf(buf, len, "%s", k->def ? "on" : "off");
	else if (k->type == KT_ENUM)
		snprintf(buf, len, "%s", k->names[k->def]);
	else if (k->type == KT_THREADED)
		snprintf(buf, len, "%s", k->def ? "on" : "off");
	else if (k->type == KT_STR)
		snprintf(buf, len, "%s", k->sdef);
	else
		buf[0] = '\0';	/* KT_LATER: depends on other keys */
}

void scenario_key_get(size_t i, struct scenario_key *out)
{
	const struct key_spec *k = &schema[i];

	assert(i < N_SCHEMA && out);
	out->section = sect_kinds[k->sect];
	out->named = sect_naming[k->sect] == NAME_REQUIRED;
	out->key = k->key;
	key_default(k, out->def, sizeof(out->def));
	key_accepted(k, out->accepted, sizeof(out->accepted));
}
