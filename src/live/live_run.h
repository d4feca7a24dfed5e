/* live_run.h - one live measurement: a receive mode of the library
 * (include/rxlab/live.h) on the test bed or a named interface, fed by the
 * built-in sender, with the kernel's counters read around it.
 *
 * Order of one run: watch the two cores idle for IDLE_CHECK_WINDOW_NS
 * (printed on stderr, with a warning when the receiver core was busy:
 * idle_check.h); reap knobs left by a killed run; build the test bed;
 * bind the UDP socket; set the mode's device knobs (saved); open the loop;
 * read counters; start the receive thread (pinned, SCHED_FIFO for modes
 * that sleep, SCHED_OTHER for those that spin), then the sender; wait for
 * the sender, let the receiver drain for DRAIN_NS, stop it; read counters;
 * undo everything in reverse.  Every exit path goes through the same
 * undo, and a SIGKILL leaves nothing because the test bed is anonymous
 * (testbed.h) and knobs of a real interface are journaled (knobs.h).
 */
#ifndef RXLAB_LIVE_LIVE_RUN_H
#define RXLAB_LIVE_LIVE_RUN_H

#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "live/counters.h"
#include "live/idle_check.h"
#include "live/knobs.h"
#include "live/sender.h"
#include "rxlab/live.h"

#define LIVE_MAX_SETS 64
#define LIVE_MAX_QUEUES COUNTERS_MAX_QUEUES
#define LIVE_FIFO_PRIO 10	/* SCHED_FIFO priority of the NAPI kthread and of a
				 * receive thread that sleeps */

/* A device knob requested for the run (--set dev.KNOB=V or a sysfs name). */
struct live_knob {
	enum knob k;
	uint64_t v;
};

/* Where the sender of an --iface run sends from (live calibrate --sender-ns). */
struct live_tx_ns {
	int ns_fd;			/* a network namespace (open /run/netns/NAME) */
	struct in_addr dst;		/* the receiving interface's IPv4 address */
};

struct live_job {
	enum rxl_mode mode;
	struct sender_config snd;	/* pattern, rate, duration, size; cpu set here */
	const char *iface;		/* NULL = the test bed */
	const struct live_tx_ns *tx_ns;	/* with @iface: the built-in sender sends from this
					 * namespace to this address (NULL: only for lo) */
	uint16_t port;			/* UDP port, default 9000 */
	int rx_cpu, tx_cpu;		/* default 1 and 0 */
	bool threaded;			/* test bed: threaded NAPI pinned to rx_cpu (default) */
	int queues;			/* test bed: veth queues, each with its NAPI kthread,
					 * receive socket (SO_REUSEPORT) and thread on a CPU of
					 * its own (queue 0 on rx_cpu, then the other CPUs,
					 * tx_cpu last); 0 or 1 = one queue as always */
	const char *const *sets;	/* KEY=VALUE for rxl_config_set() */
	size_t n_sets;
	struct live_knob knobs[KNOBS_MAX];	/* device knobs */
	size_t n_knobs;
	const volatile sig_atomic_t *stop;	/* set by a signal handler: end early (NULL: never) */
};

/* One receive queue of a run with several (queues.h). */
struct live_queue {
	int cpu;			/* its NAPI kthread and receive thread */
	bool fifo;			/* its thread ran SCHED_FIFO */
	uint32_t napi_id;		/* the NAPI its probe came through */
	uint32_t seen_napi_id;		/* SO_INCOMING_NAPI_ID at the end of the run */
	uint64_t packets, wakeups;	/* payload packets its loop received; wake-ups */
	double p50_us, p99_us;		/* their one-way latency; NaN without packets */
};

struct live_result {
	enum rxl_mode mode;
	double dur_s;			/* sender's run time */
	struct rxl_stats rx;		/* the loop */
	struct sender_stats tx;		/* zero when there is no sender */
	struct counters d;		/* kernel counters, after - before */
	struct counters d_sent;		/* the same from before to the sender's end (the drain
					 * after it excluded), with the receive thread's CPU:
					 * the window of every CPU figure */
	int rx_cpu;
	bool fifo;			/* receive thread ran SCHED_FIFO */
	bool napi_kthread;		/* d.napi_ns is a threaded NAPI kthread's CPU */
	bool sender;			/* traffic came from the built-in sender */
	bool sink_only;			/* the UDP socket only absorbs (TPACKET, AF_XDP) */
	char knobs[160];		/* device knobs in force, "napi_defer_hard_irqs=2 ..." */
	struct idle_check idle;		/* the two cores just before the run (idle_check.h) */
	int queues;			/* receive queues (1 as always; q[] holds them) */
	struct live_queue q[LIVE_MAX_QUEUES];
};

/* Fill @j with the defaults above for @mode. */
void live_job_default(struct live_job *j, enum rxl_mode mode);

/* Run @j.  0, 1 (the run failed: message in @err) or 2 (bad parameter:
 * message in @err), as exit statuses.  Stops early, with what was measured,
 * when *@j->stop becomes non-zero. */
int live_run(const struct live_job *j, struct live_result *r, char *err, size_t errlen);

/* Received packets per second, one-way latency quantile @q in us, CPU of
 * the receive thread in % of one CPU: NaN when not measurable
 * (live_result.c). */
double live_rx_pps(const struct live_result *r);
double live_lat_us(const struct live_result *r, double q);
double live_thread_cpu_pct(const struct live_result *r);
/* Receive thread + threaded NAPI kthread CPU in % of one CPU (NaN when
 * there is no kthread: softirq NAPI, --iface). */
double live_rx_path_cpu_pct(const struct live_result *r);

/* `rxlab live calibrate` (live_calibrate.c). */
#define LIVE_CALIB_MAX_REPEAT 20
#define LIVE_CALIB_NOISY_PCT 15.0	/* a cost whose runs spread more (RSD %) is flagged */

/* The simulated receiver core busy % of the test bed's napi run with the
 * profile @profile_text at @rate_pps, napi_defer_hard_irqs @defer and
 * gro_flush_timeout @gro_ns (ns); 0, or -1 with @err.  Calibrate fits
 * cold-wake and irq-entry through it (experiment/calib_sim.h gives one:
 * the simulator sits above this layer's library). */
typedef int (*live_calib_sim_fn)(const char *profile_text, double rate_pps, uint32_t defer,
				 int64_t gro_ns, double *busy_pct, char *err, size_t errlen);

struct live_calib_opts {
	int64_t dur_ns;			/* sending time of each run */
	int repeat;			/* calibrations, 1..LIVE_CALIB_MAX_REPEAT */
	const char *iface;		/* NULL: the test bed; else receive on this interface
					 * (threaded NAPI on it, the caller checked it is not
					 * the host's own connection) */
	const struct live_tx_ns *tx;	/* with @iface: where the sender sends from */
	const char *name;		/* the profile's [profile] name */
	live_calib_sim_fn sim;		/* NULL: cold-wake from the residual alone, irq-entry
					 * not measured */
};

/* @o->repeat calibrations, each five runs of @o->dur_ns, the fit of their
 * costs; the profile (the costs' means, each cost's spread, the runs and
 * the host as comments) written to @f, the spread and the warnings (a busy
 * core, a noisy cost, costs not measured) on stderr.  0, or the exit status
 * of the run that failed (message on stderr); ends early when *@stop
 * becomes non-zero (NULL: never). */
int live_calibrate(FILE *f, const struct live_calib_opts *o, const volatile sig_atomic_t *stop);

/* This host's name (uname's nodename) with every character but letters,
 * digits, '.', '_' and '-' as '-', at most @len - 1 of them ("host" when
 * empty): for a file name and the profile's name. */
void live_calib_host(char *buf, size_t len);

#endif
