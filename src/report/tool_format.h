/* tool_format.h - lines written byte for byte as Linux and its tools write
 * them: /proc/interrupts, /proc/net/softnet_stat, net-tools' netstat -i,
 * procps's vmstat and sysstat's mpstat -P ALL.
 *
 * Each function takes plain values and prints one line (with its '\n') the
 * way the cited code does, so that the tests can feed it the values parsed
 * from this machine's own files and tools' output and get the same bytes
 * back (tests/unit/test_tool_formats.c).  No locale: '.' decimals, English
 * words, as the tools print under LC_ALL=C.  Colours (sysstat's S_COLORS)
 * are never printed.
 */
#ifndef RXLAB_REPORT_TOOL_FORMAT_H
#define RXLAB_REPORT_TOOL_FORMAT_H

#include <stdint.h>
#include <stdio.h>

/* ---- /proc/interrupts (kernel/irq/proc.c show_interrupts(), Linux 6.18) ---- */

/* Width of the IRQ number column for @nr_irqs IRQs: 3, one more per power
 * of ten from 1000 (the loop of show_interrupts()). */
int procfmt_irq_prec(unsigned nr_irqs);

/* "%*s" of @prec + 8 blanks, then "CPU%-8d" for CPUs 0..@ncpu-1. */
void procfmt_irq_header(FILE *f, int prec, unsigned ncpu);

/* One IRQ: "%*d:", " %10u" per CPU (@count[0..@ncpu), each taken modulo
 * 2^32 as the kernel's unsigned int), ' ', the chip "%8s", the hwirq
 * " %*lu" (@hwirq < 0: " %*s" of blanks, no irq domain), "-%-8s" of
 * @handler (NULL: none), "  %s" of @action (NULL: none). */
void procfmt_irq_line(FILE *f, int prec, unsigned irq, const uint64_t *count, unsigned ncpu,
		      const char *chip, long hwirq, const char *handler, const char *action);

/* ---- /proc/net/softnet_stat (net/core/net-procfs.c softnet_seq_show(), 6.18) ---- */

/* The 15 columns @v (io/procfs.h enum procfs_sn_col order), "%08x" each,
 * one blank between. */
void procfmt_softnet_line(FILE *f, const uint32_t v[15]);

/* ---- netstat -i (net-tools 2.10: netstat.c iface_info(), lib/interface.c
 * ife_print_short()) ---- */

/* "Kernel Interface table" and the column names. */
void procfmt_netstat_header(FILE *f);

/* "%-15.15s %5d %8llu %6lu %6lu %-6lu %8llu %6lu %6lu %6lu " and @flags
 * ("BMRU"). @c: RX-OK, RX-ERR, RX-DRP, RX-OVR, TX-OK, TX-ERR, TX-DRP, TX-OVR. */
void procfmt_netstat_line(FILE *f, const char *iface, int mtu, const uint64_t c[8],
			  const char *flags);

/* ---- vmstat (procps 4.0 vmstat.c new_header(), new_format()) ---- */

/* The two header lines ("procs -----------memory---------- ..." and
 * " r  b   swpd   free ..."). */
void procfmt_vmstat_header(FILE *f);

/* One line of the 17 values r b swpd free buff cache si so bi bo in cs us
 * sy id wa st in new_format()'s "%2u %2u %6lu ..." widths. */
void procfmt_vmstat_line(FILE *f, const uint64_t v[17]);

/* ---- mpstat -P ALL (sysstat 12.6 mpstat.c write_plain_cpu_stats()) ---- */

/* The header of a block whose lines start with @when ("Average:" or a
 * time): "%-11s  CPU    %usr   %nice ..." (without the blank line sysstat
 * prints before it). */
void procfmt_mpstat_header(FILE *f, const char *when);

/* One row: @when "%-11s", @cpu < 0 the "all" row, else " %4d"; then the 10
 * percentages %usr %nice %sys %iowait %irq %soft %steal %guest %gnice
 * %idle as " %7.2f" each (cprintf_pc(NO_UNIT, 10, 7, 2, ...)). */
void procfmt_mpstat_line(FILE *f, const char *when, int cpu, const double pct[10]);

#endif
