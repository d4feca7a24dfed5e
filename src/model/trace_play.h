/* trace_play.h - how a trace (trace_load.h) is played: how long it lasts,
 * the run that plays it whole, and what to tell the user before a run
 * that plays it in part or faster than its port's link.
 *
 * One rule for every command: when the traffic is a trace given on the
 * command line (--set traffic.trace=FILE, as `rxlab tune TRACE` does) and
 * run.duration is not, the run lasts trace_run_ns() and run.warmup is 0
 * unless set (scenario_load.c applies it).  A duration written in the
 * scenario file next to its own trace is the author's choice and is kept.
 */
#ifndef RXLAB_MODEL_TRACE_PLAY_H
#define RXLAB_MODEL_TRACE_PLAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rxlab/scenario.h"

/* Time from the first packet of @tr to its last played at @milli
 * thousandths of its speed (trace-speed 1 = 1000): floor(t_last * 1000 /
 * milli) ns, computed without overflow, at most INT64_MAX. */
int64_t trace_play_ns(const struct scn_trace *tr, uint32_t milli);

/* The run.duration that plays @tr whole when its first packet comes at
 * @start_ns: start plus the played span rounded down to the microsecond,
 * plus 1.001 ms for the last packet's way through the host.  ns, at most
 * INT64_MAX (the scenario's range check then refuses it). */
int64_t trace_run_ns(const struct scn_trace *tr, uint32_t milli, int64_t start_ns);

/* The wire of a port fed by @tr at @milli: frames of len + 20 bytes
 * (preamble and IFG) at @speed_bps, each waiting for the one before, and
 * dropped when it would wait longer than @link_queue_ns (as sim/nic.c's
 * link does for one source). */
struct trace_link {
	uint64_t peak_bps;      /* most wire bits in any 1 ms window, per second */
	uint64_t drops;         /* frames dropped at the link */
	int64_t max_wait_ns;    /* longest wait of a frame that got on the wire */
};
void trace_link_check(const struct scn_trace *tr, uint32_t milli, uint64_t speed_bps,
		      int64_t link_queue_ns, struct trace_link *out);

/* Notes on @f ("rxlab: note: ...") about each trace source of @s: played
 * in part (run.duration ends before its last packet) or faster than the
 * link of its port (trace_link_check() finds a 1 ms peak above the link's
 * rate, or drops); then scenario_driver_notes() (model/scenario_load.h). */
void trace_notes(FILE *f, const struct scenario *s);

/* trace_notes() on stderr for the scenario @scenario with @sets, for a
 * command about to run it; nothing when it does not load (the command's
 * own load reports why), nor for a scenario that is not a regular file or
 * a built-in name (a pipe can be read only once: by the run). */
void trace_notes_for(const char *scenario, const char *const *sets, size_t n_sets);

#endif
