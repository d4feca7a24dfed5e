/* run_trace.h - `rxlab run --trace FILE`: one run whose tracepoint events
 * go to FILE in `perf script --ns` form (report/perf_script.h), written
 * where the shell's `> FILE` would write (io/outfile.h). */
#ifndef RXLAB_CLI_RUN_TRACE_H
#define RXLAB_CLI_RUN_TRACE_H

#include <stddef.h>

#include "rxlab/sim.h"

/* --trace-limit's default: about 110 MB of lines. */
#define RUN_TRACE_LIMIT 1000000ULL

struct opts;

/* Run @o's scenario into @r (as run_one()) with its events written to
 * o->trace, at most o->trace_limit of them (0: all).  A trace cut at the
 * limit is said on stderr (the run and the file are still good).  0, or
 * 2 after a message on stderr (the scenario does not load, FILE cannot be
 * written) or 1 (the model failed); @r then holds nothing. */
int run_traced(struct results *r, const struct opts *o, const volatile sig_atomic_t *stop);

#endif
