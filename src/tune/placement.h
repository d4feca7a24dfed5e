/* placement.h - the IRQ / NAPI-thread placements `rxlab tune` tries on a
 * multi-queue port (docs/tune.md "Placement").  Pure: which candidates a
 * loaded scenario has, as `--set`-style overrides; tune.c runs them.
 *
 * A placement is where each queue's vector is serviced (its
 * /proc/irq/N/smp_affinity_list, the scenario's irq-affinity) and whether
 * its NAPI polls in a kthread pinned to that CPU (threaded = on,
 * threaded-cpus = irq).  The candidates, in this order, each only when it
 * is valid for the scenario and differs from every one before it:
 *   as-configured  the scenario's own placement (no override);
 *   spread         queue Q on CPU Q mod cpus, the drivers' affinity hint;
 *   with-app       queue Q on the CPU of the worker that reads queue Q:
 *                  [apps] server = epoll with server-spread = napi and
 *                  pinned workers (server-cpus not all): worker Q mod
 *                  server-threads; a UDP sink without a server: sink-cpu;
 *   apart          the queues on the CPUs no application thread is pinned
 *                  to (workers, the sink's reader, the CPU hogs), queue Q
 *                  on the Q-th of them in ascending order, when there are
 *                  at least as many as queues;
 * and, after those are evaluated, tune_placement_threaded() of the best:
 *   threaded       the same vectors, each NAPI in a kthread pinned to its
 *                  queue's IRQ CPU, when no queue of the port is threaded
 *                  and the vectors do not float (irq-cpu = float).
 * spread, with-app and apart move the vectors only: a port that is
 * threaded stays so (its kthreads follow the IRQ with threaded-cpus = irq).
 * A port with one queue (combined = 1) has no candidate at all.
 */
#ifndef RXLAB_TUNE_PLACEMENT_H
#define RXLAB_TUNE_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rxlab/scenario.h"

#define TUNE_MAX_PLACEMENTS 5    /* the four vector placements and threaded */
#define TUNE_PLACE_SETS 4        /* overrides of one candidate */
#define TUNE_PLACE_CPUS_LEN 48   /* an irq-affinity value, as a sweep value holds it */

enum tune_place_kind {
	PLACE_CONFIGURED,
	PLACE_SPREAD,
	PLACE_WITH_APP,
	PLACE_APART,
	PLACE_THREADED,
};

struct tune_placement {
	enum tune_place_kind kind;
	const char *name;                /* "as-configured", "spread", "with-app", "apart",
					  * "threaded" (static) */
	char reason[200];                /* one line, citing its source */
	char cpus[TUNE_PLACE_CPUS_LEN];  /* the vectors' CPUs in queue order as a CPU list
					  * ("8-15", "0-3,12-15"), or "float" */
	char affinity[TUNE_PLACE_CPUS_LEN]; /* the irq-affinity value the candidate sets
					  * ("spread", a CPU list; "" for as-configured) */
	uint16_t cpu[SCN_MAX_QUEUES];    /* queue q's IRQ CPU (q < combined; 0 when float) */
	uint32_t combined;               /* queues of the port */
	bool floating;                   /* as configured with irq-cpu = float */
	bool threaded;                   /* NAPI kthreads pinned to the IRQ CPUs */
	char set[TUNE_PLACE_SETS][160];  /* the overrides, "nic.PORT.KEY=VALUE" */
	size_t n_sets;
};

/* The candidates a-d of the header for port @port_ix of @scn (loaded by
 * scenario_load()) into @out (room for @cap, at least 4 to hold them all):
 * how many (0 for a port with one queue or a bad @port_ix).  out[0] is
 * as-configured whenever there is any.  A candidate whose CPU list does
 * not fit TUNE_PLACE_CPUS_LEN - 1 characters is left out. */
size_t tune_placements(const struct scenario *scn, int port_ix, struct tune_placement *out,
		       size_t cap);

/* Candidate e of the header, "threaded", from @base (one of
 * tune_placements()' for the same @scn and @port_ix) into @out: true when
 * it exists (no queue of the port is threaded, @base does not float). */
bool tune_placement_threaded(const struct scenario *scn, int port_ix,
			     const struct tune_placement *base, struct tune_placement *out);

/* @n CPUs @cpu in queue order as a CPU list: runs of consecutive
 * ascending CPUs as "A-B", joined by ','; the same CPU @n times as that
 * CPU alone (as irq-affinity reads one CPU: every queue).  Written into @buf (@len bytes,
 * always terminated); the length it needs, as snprintf() returns it. */
size_t tune_cpu_list_text(const uint16_t *cpu, size_t n, char *buf, size_t len);

#endif
