/* tool_tables.h - the tables of a run that imitate a Linux file or tool,
 * as `rxlab run` prints them by default (--style tool; docs/outputs.md).
 *
 * The text form of each is its title line (what it is and over which span)
 * followed by the exact bytes the file or tool would show for the same
 * counters (report/tool_format.h), so that what parses the real one parses
 * these.  CSV and JSON keep the keys each table had before in their places
 * and add the tool's other columns after them (interrupts adds none; mpstat
 * takes sysstat's JSON keys).  Values rxlab does not model are 0
 * (docs/outputs.md lists them and every key).
 *
 *   netstat_i     netstat -i: per port, window; MTU 1500 (9000 when the
 *                 frames a port received average more than 1518 bytes),
 *                 Flg BMRU
 *   interrupts    /proc/interrupts: per queue vector, whole run; IRQ 24 + the
 *                 queue's index; a one-queue port is pin 16 + (port % 8) of
 *                 an IO-APIC, level-triggered ("IO-APIC  16-fasteoi   eth0"),
 *                 a port with several queues one MSI-X vector per queue
 *                 ("PCI-MSIX-0000:01:00.0   3-edge      eth0-TxRx-3", the
 *                 port's bus = its index + 1)
 *   softnet_stat  /proc/net/softnet_stat: per CPU, window, 15 %08x columns
 *   vmstat        vmstat N: one line per run.vmstat-interval (no since-boot line)
 *   mpstat        mpstat -P ALL: its "Average:" block over the window
 */
#ifndef RXLAB_REPORT_TOOL_TABLES_H
#define RXLAB_REPORT_TOOL_TABLES_H

#include <stddef.h>
#include <stdio.h>

#include "report/table.h"
#include "rxlab/sim.h"

/* IRQ number of queue @q (r.queue[] index) in the interrupts table. */
unsigned tool_queue_irq(uint16_t q);

/* The chip, hwirq and flow handler's name of queue @q's vector (see above);
 * @chip gets @len bytes. */
void tool_queue_vector(const struct results *r, uint16_t q, char *chip, size_t len,
		       long *hwirq, const char **handler);

/* The two /proc files alone, as the kernel would show them for @r (the
 * text forms of the interrupts and softnet_stat tables). */
void tool_interrupts_print(FILE *f, const struct results *r);
void tool_softnet_print(FILE *f, const struct results *r);

struct table *tool_netstat_table(const struct results *r);
struct table *tool_interrupts_table(const struct results *r);
struct table *tool_softnet_table(const struct results *r);
/* Needs r->n_vm > 1 (rows for the intervals with time and CPU time in them). */
struct table *tool_vmstat_table(const struct results *r);
struct table *tool_mpstat_table(const struct results *r);

#endif
