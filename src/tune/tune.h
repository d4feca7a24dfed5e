/* tune.h - the library of `rxlab tune`: the moderation setting that meets
 * latency, throughput, drop or interrupt goals at the least cost.
 *
 *   rxlab tune SCENARIO_OR_TRACE --goal 'p99<=50us' [--goal ...]
 *              [--minimize cpu|p50|p99|p999|drops|irqs | --maximize throughput]
 *              [--policies coalesce,dim,...] [--out DIR] [--iface NAME]
 *              [--set KEY=VALUE ...] [--seed N] [--speed X] [--base SCENARIO]
 *              [--jobs N] [--format table|csv|json]
 *              [--load A..B [--load-points N] | --load A,B,...] [--speeds X,Y,...]
 *              [--max-loss P] [--placement auto|on|off] [--per-queue auto|on|off]
 *
 * Robust goals (robust.h): with loads (or a trace's speeds) every point
 * of the search is run at each, its figures folded to its worst load; a
 * point that loses more than the request's max_loss_pct at any load
 * never meets the goals.  The load overrides come last: --load sets every
 * [traffic] section's rate, scaled so that they add up to the load and
 * keep their shares (a trace or closed-loop source is refused); --speeds
 * sets traffic.trace-speed.
 *
 * Placement (tune/placement.h, docs/tune.md "Placement"): after the
 * search, on a port with several queues (unless --placement off), the
 * best point is run again with each IRQ / NAPI-thread placement of the
 * scenario, at every load, folded as the search folds; the best of them
 * by the search's own order (tune_search.h) is the one the commands
 * apply.  "as-configured" is the best point itself (no run).
 *
 * Per-queue values (tune/perqueue.h, docs/tune.md "Per-queue values"):
 * then, on such a port whose queues carry unequal load (one run of the
 * best point with the chosen placement at the peak load measures each
 * queue's share of the frames), unless --per-queue off, the best policy's
 * per-queue knobs are refined queue by queue, hottest first, each change
 * kept only when every goal still holds at every load and the objective
 * improves by more than TUNE_PQ_MARGIN; the commands apply the lists.
 *
 * Who does what: src/cli/tune_args.c reads the command line into a struct
 * tune_request (tune_request.h) and refuses every wrong word; tune_run()
 * searches and returns the points (struct tune_result); tune_report.h
 * prints them and writes --out DIR; src/cli/cmd_tune.c prints the errors
 * ("rxlab: " and the message) and turns the status into the exit status.
 *
 * The target is a scenario (file or built-in name), or a trace (.pcap,
 * .pcapng, .cap or .csv; see trace_load.h) played into the request's base
 * scenario (default udp-sink) for its whole length (run.duration = the
 * trace's span at its speed, plus 1 ms, as model/trace_play.h plays any
 * trace given by --set; no warm-up).  The search (tune_search.h) runs the
 * points of each batch in parallel with sweep_run() (experiment/sweep.h),
 * in the request's jobs processes; the same request gives the same points
 * for any number of jobs.
 *
 * busy-poll and suspend act through the receiving socket: on a scenario
 * without one they are left out, and a search left with no policy is
 * refused before anything runs.  The scenario's port name, which the
 * commands name when the request has no iface, must pass
 * rxl_ifname_check() (include/rxlab/live.h).
 */
#ifndef RXLAB_TUNE_TUNE_H
#define RXLAB_TUNE_TUNE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "rxlab/scenario.h"
#include "tune/perqueue.h"
#include "tune/placement.h"
#include "tune/tune_request.h"
#include "tune/tune_search.h"

/* How tune_run() ended; each but TUNE_OK with a message. */
enum tune_status {
	TUNE_OK,
	TUNE_FAILED,      /* a simulation failed (a model error), or out of memory */
	TUNE_BAD_INPUT,   /* the target, the base, an override or the policies */
	TUNE_TOO_LARGE,   /* the overrides (user sets and the trace's path) do not fit */
};

struct tune_ctx;

/* What the placement stage found (n 0: it did not run). */
struct tune_place_result {
	size_t n;                        /* candidates evaluated, as-configured first */
	struct tune_placement cand[TUNE_MAX_PLACEMENTS];
	struct tune_point pt[TUNE_MAX_PLACEMENTS]; /* the best point's policy and levels,
					  * with candidate i's figures (folded over the loads) */
	size_t chosen;                   /* index of the best (tune_best()'s order) */
	size_t runs;                     /* simulations the stage ran */
};

/* What a search found.  Not to be copied: st points into it. */
struct tune_result {
	struct tune_state st;            /* every point, the best, the front (tune_search.h) */
	const struct rxl_scheme *pol[TUNE_MAX_POLICIES]; /* st.pol */
	struct rxl_scheme pol_own[TUNE_MAX_POLICIES]; /* private: with a port driver of the
					  * quirk tables, the policies with the
					  * levels it honours (pol[] points here) */
	bool enabled[TUNE_MAX_POLICIES]; /* st.enabled: the request's, less the socket
					  * policies on a scenario without a socket */
	char port[SCN_NAME_LEN];         /* the receiving port (the first traffic's) */
	int port_ix;                     /* its index among the scenario's NICs */
	double peak_pps;                 /* the highest rate offered at any load point,
					  * frames/s (a trace: its mean rate at the fastest
					  * speed; 0: unknown, a closed loop), for tune_traps() */
	struct tune_place_result place;  /* the placement stage */
	struct tune_perqueue pq;         /* the per-queue stage (pq.ran false: it did not run) */
	struct tune_ctx *ctx;            /* private: the scenario and its overrides */
};

/* Is @target a trace (by its name: .pcap, .pcapng, .cap, .csv)? */
bool tune_is_trace(const char *target);

/* Run the search @req asks for (as tune_request.h says it is filled) into
 * @res; *@stop non-zero (set by a signal handler; NULL: never) ends it
 * with a message ("tune: interrupted").  TUNE_OK with at least one point
 * in res->st, or another status with a one-line message in @err (without
 * "rxlab: "; at most the length of one of @req's strings plus 2 KiB).
 * The scenario's notes (a trace cut short or faster than its link,
 * model/trace_play.h) go to stderr, as `rxlab run` prints them.  Whatever it returns,
 * tune_result_free(@res) releases it. */
enum tune_status tune_run(const struct tune_request *req, struct tune_result *res,
			  const volatile sig_atomic_t *stop, char *err, size_t errlen);

/* The scenario of point @p of @res (the one its commands apply), into
 * @scn.  0, or -1 with a message in @err. */
int tune_point_scenario(const struct tune_result *res, const struct tune_point *p,
			struct scenario *scn, char *err, size_t errlen);

/* The scenario the commands apply: the best point (tune_best()) with the
 * chosen placement's overrides when the placement stage ran and the
 * per-queue lists (res->pq.set) when the per-queue stage ran, into @scn.
 * 0, or -1 with a message in @err. */
int tune_chosen_scenario(const struct tune_result *res, struct scenario *scn, char *err,
			 size_t errlen);

/* Free @res's points and overrides, and the trace cache its loads filled. */
void tune_result_free(struct tune_result *res);

#endif
