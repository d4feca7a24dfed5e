/* tune.h - `rxlab tune`: the moderation setting that meets latency,
 * throughput, drop or interrupt goals at the least cost.
 *
 *   rxlab tune SCENARIO_OR_TRACE --goal 'p99<=50us' [--goal ...]
 *              [--minimize cpu|p50|p99|p999|drops|irqs | --maximize throughput]
 *              [--policies coalesce,dim,...] [--out DIR] [--iface NAME]
 *              [--set KEY=VALUE ...] [--seed N] [--speed X] [--base SCENARIO]
 *              [--jobs N] [--format table|csv|json]
 *
 * SCENARIO_OR_TRACE is a scenario (file or built-in name), or a trace
 * (.pcap, .pcapng, .cap or .csv; see trace_load.h) played into the --base
 * scenario (default udp-sink) for its whole length (run.duration = the
 * trace's span at --speed, plus 1 ms, as model/trace_play.h plays any
 * trace given by --set; no warm-up).
 *
 * The search (tune_search.h) runs the points of each batch in parallel
 * with sweep_run() (experiment/sweep.h), --jobs processes.  It prints the Pareto
 * front of CPU vs p99 latency, the best setting that meets every goal
 * with the objective (or a statement that none does and the closest one),
 * and the Linux commands that apply it (tune_apply.h).  --out DIR also
 * writes DIR/tune-points.csv (every point), DIR/tune.dat and DIR/tune.gp
 * (gnuplot: `cd DIR && gnuplot tune.gp` draws tune.svg and tune.png) and
 * DIR/apply.sh.  The same inputs give the same bytes for any --jobs.
 *
 * --iface NAME (default: the scenario's port name) must pass
 * rxl_ifname_check() (include/rxlab/live.h), and every word of the printed
 * commands is quoted for the shell (io/shell_quote.h).  --policies is a
 * list of distinct known names; a search left with no policy (an empty
 * list, or only socket policies on a scenario without a socket) is
 * refused before anything runs (src/cli/tune_args.h).
 *
 * Exit status: 0 (also when no setting meets the goals: the output says
 * so), 1 when a simulation failed, 2 for bad usage or input, 128+N after
 * signal N.
 */
#ifndef RXLAB_TUNE_TUNE_H
#define RXLAB_TUNE_TUNE_H

#include <signal.h>

#include "tune/tune_opts.h"

/* Run the search @o asks for (a target and at least one goal, as
 * tune_opts_parse() leaves it; its --policies may be narrowed) and print
 * the report on stdout; *@stop non-zero (set by a signal handler; NULL:
 * never) ends the search.  Returns the exit status above; errors are
 * reported on stderr ("rxlab: tune: ..."). */
int tune_run(struct tune_opts *o, const volatile sig_atomic_t *stop);

#endif
