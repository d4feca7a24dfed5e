/* verify.h - `rxlab tune ... --verify`: the best setting of a search and
 * the runner-up applied on real packets, measured with the live engine
 * (live/live_run.h) at each load point and printed beside what the
 * simulator predicted.
 *
 * Where: the test bed (two network namespaces joined by a veth pair, as
 * `rxlab live` builds it: testbed.h) or, with an interface, that interface
 * (the caller refuses the host's own connection: live/host_iface.h).  The
 * target should be a scenario that describes the test bed: the built-in
 * live-veth, with --set host.profile=FILE for a profile calibrated on this
 * machine (`rxlab live calibrate`).
 *
 * Which settings: verify_pick() ranks the points with the search's own
 * order (tune_best(), tune_meets(), tune_miss(): tune_search.h) and takes
 * the first two.  How each tune policy runs live (verify_map()):
 *   coalesce     live mode coalesce, loop rx-usecs / rx-frames
 *   dim          live mode dim
 *   itr, itr-dynamic   live mode itr, loop itr (InterruptThrottleRate)
 *   defer        live mode napi with device knobs napi_defer_hard_irqs and
 *                gro_flush_timeout (ns)
 *   busy-poll    live mode so-busy-poll, loop busy-poll-usecs
 *   suspend      live mode irq-suspend, its device knobs with
 *                gro_flush_timeout and irq-suspend-timeout (ns) the point's
 * Any other policy is "not verifiable here" with the reason.
 *
 * Loads: the request's loads (frames/s), or with none the scenario's own
 * rate.  The live sender sends at a constant rate.  Predicted figures:
 * the point's own when the load is the scenario's rate, else the point's
 * scenario simulated at that rate (traffic.rate).
 *
 * Judged on the measurement: "meets" when every goal holds on the measured
 * figures (goal_met(), goal.h) and the measured loss is at most
 * req->max_loss_pct; else "misses".  A ratio measured/predicted "agrees"
 * when it lies in [1/tolerance, tolerance]; the tolerance is printed.
 */
#ifndef RXLAB_TUNE_VERIFY_H
#define RXLAB_TUNE_VERIFY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "live/live_run.h"
#include "report/table.h"
#include "rxlab/scheme.h"
#include "tune/tune.h"

#define VERIFY_MAX_SETTINGS 2        /* the best and the runner-up */
#define VERIFY_DEFAULT_DURATION_NS 2000000000LL
#define VERIFY_MIN_DURATION_NS 10000000LL    /* 10 ms, as `rxlab live --duration` */
#define VERIFY_MAX_DURATION_NS 600000000000LL /* 600 s */
#define VERIFY_DEFAULT_TOLERANCE 2.0 /* measured/predicted in [0.5, 2] agrees */
#define VERIFY_MAX_LOOP_SETS 4

struct verify_opts {
	int64_t duration_ns;             /* sending time per setting and load, ns */
	double tolerance;                /* > 1: agrees when 1/tol <= ratio <= tol */
	const char *iface;               /* NULL: the test bed; else an interface the caller
	                                  * has checked (host_iface_check()) */
	enum out_format fmt;             /* the table's format */
	const volatile sig_atomic_t *stop; /* set by a signal handler (NULL: never) */
};

/* How one tune point runs on the live engine. */
struct verify_live {
	enum rxl_mode mode;
	char set[VERIFY_MAX_LOOP_SETS][48]; /* loop parameters, "rx-usecs=8" (rxl_config_set()) */
	size_t n_sets;
	struct live_knob knob[4];        /* device knobs, values in the kernel's units */
	size_t n_knobs;
};

/* Defaults: 2 s, tolerance 2, the test bed, a table. */
void verify_opts_init(struct verify_opts *o);

/* The best point of @st and the runner-up (the best of the others, in the
 * search's order), into @out (at most @cap, at most VERIFY_MAX_SETTINGS).
 * Returns how many: 0 without points, 1 with a single point. */
size_t verify_pick(const struct tune_state *st, const struct tune_point **out, size_t cap);

/* Map point @p of policy @sc to the live engine in @out.  0; or -1 with
 * the reason it is not verifiable here in @why (a policy without a live
 * mode, a level that does not parse). */
int verify_map(const struct rxl_scheme *sc, const struct tune_point *p, struct verify_live *out,
	       char *why, size_t whylen);

/* Whether the live run of @mode measures the CPU the simulated setting
 * predicts: false for coalesce, dim and itr, which the engine moderates
 * in userspace after the kernel received every packet (its CPU is the
 * emulation's, not the device's); true for the kernel's own mechanisms
 * (NAPI deferral, IRQ suspension, busy polling). */
bool verify_cpu_compared(enum rxl_mode mode);

/* measured / predicted; NaN when either is NaN or predicted is not > 0
 * (with both 0: 1, they agree). */
double verify_ratio(double measured, double predicted);

/* Does @ratio lie within [1/@tol, @tol]?  False for NaN. */
bool verify_agrees(double ratio, double tol);

/* Do measured figures @m meet every goal of @st and lose at most
 * @max_loss_pct % of the frames? */
bool verify_meets(const struct tune_state *st, const struct tune_metrics *m, double max_loss_pct);

/* Can --verify run here: root (it builds namespaces and changes device
 * settings), a scenario target (not a trace: the live sender plays a
 * constant rate).  Called before the search.  0, or -1 with a message. */
int verify_preflight(const struct tune_request *req, char *err, size_t errlen);

/* Verify the best setting of @res and the runner-up at each load of @req
 * and print the table, the tolerance and a verdict line per setting on
 * @f.  0; 1 when a live run failed for a reason that is not the setting's
 * (message in @err); 2 for a bad scenario; early with what was measured
 * when *@o->stop becomes non-zero. */
int verify_run(FILE *f, const struct tune_result *res, const struct tune_request *req,
	       const struct verify_opts *o, char *err, size_t errlen);

#endif
