/* perf_script.h - a run's tracepoint events (rxlab/sim.h struct
 * rxl_tp_event) as `perf script --ns` prints real ones.
 *
 * The line is perf's for a tracepoint with its default fields (comm, tid,
 * cpu, time, event, trace), as perf 6.1's builtin-script.c prints them:
 *
 *          swapper     0 [000]     0.000105210: irq:irq_handler_entry: irq=24 name=eth0
 *      ksoftirqd/1  1001 [001]     0.000131002:        napi:napi_poll: napi poll on napi struct 0xffff888100a00000 for device eth0 work 3 budget 64
 *
 * comm "%16s" (cut to the kernel's 15 bytes, TASK_COMM_LEN), tid "%5d",
 * cpu "[%03d]", time "%5lu.%09lu:" (seconds of simulated time), the event
 * name right-aligned to the longest name of the four ("%21s:", as perf
 * aligns to the longest event of the recording), then the fields in the
 * kernel's TP_printk format (rxlab/sim.h lists them).  Only these bytes: no
 * header, no comment, so awk, bpftrace-style scripts and `rxlab replay`
 * recipes (docs/replay.md) read the file as they read perf's.
 */
#ifndef RXLAB_REPORT_PERF_SCRIPT_H
#define RXLAB_REPORT_PERF_SCRIPT_H

#include <stdio.h>

#include "rxlab/sim.h"

/* The event's name as perf names it ("napi:napi_poll"). */
const char *perf_script_event_name(enum rxl_tp_kind k);

/* Write @e to @f as one line.  0, or -1 when the write failed. */
int perf_script_line(FILE *f, const struct rxl_tp_event *e);

#endif
