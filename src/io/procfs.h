/* procfs.h - the one parser of /proc/interrupts and /proc/net/softnet_stat.
 *
 * The live engine reads this machine's files with it (src/live/counters.c)
 * and the tests read the simulator's imitations of them with it
 * (src/report/tool_tables.c), so that "rxlab prints /proc/interrupts" means
 * "what parses the real file parses rxlab's".  Both files are read a line at
 * a time; nothing here opens a file or allocates.
 *
 * /proc/interrupts (kernel/irq/proc.c show_interrupts(), Linux 6.18): a
 * header of the online CPUs ("CPU0       CPU1 ..."), then per IRQ the
 * number right-aligned with a colon, one count per online CPU, the chip
 * name, the hwirq and the flow handler's name ("IO-APIC   5-edge",
 * "PCI-MSIX-0000:00:03.0   1-edge") and the handlers' names ("eth0",
 * "virtio2-input.0", several joined by ", "); then the architecture's lines
 * ("NMI:", "LOC:", ... "ERR:" with one count) with a description.
 *
 * /proc/net/softnet_stat (net/core/net-procfs.c softnet_seq_show(), 6.18):
 * one line per online CPU, 15 "%08x" columns, no header; older kernels
 * print fewer (9 to 13: the CPU index, the 13th, and the two queue lengths
 * after it came later).  Every column is a 32-bit counter or length.
 */
#ifndef RXLAB_IO_PROCFS_H
#define RXLAB_IO_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Counts kept per line; a line with more CPUs is read to its end (its
 * description is still found) and the counts past this are dropped. */
#define PROCFS_MAX_CPUS 256
/* Longest line procfs_getline() keeps (11 bytes a CPU: 1400 CPUs); the
 * rest of a longer one is skipped and the line marked truncated. */
#define PROCFS_LINE_MAX 16384

/* One line of /proc/interrupts after the header. */
struct procfs_irq {
	char label[16];       /* what precedes ':' without blanks: "24", "NMI" */
	long irq;             /* the label as a number; -1 for the architecture's lines */
	unsigned ncounts;     /* counts on the line (ERR, MIS: 1); may exceed PROCFS_MAX_CPUS */
	uint64_t count[PROCFS_MAX_CPUS]; /* in header order (the header's cpu ids) */
	char desc[512];       /* the text after the counts, blanks around it dropped:
	                       * "IO-APIC   5-edge      ACPI:Ged", "Local timer interrupts" */
	/* For a numbered IRQ, desc split as show_interrupts() prints it: */
	char chip[128];       /* "IO-APIC", "PCI-MSIX-0000:00:03.0"; "" if none */
	long hwirq;           /* -1 when none is printed */
	char handler[32];     /* the flow handler's name: "edge", "fasteoi"; "" if none */
	char action[384];     /* the handlers' names: "eth0-TxRx-0"; "" if none */
};

/* Read one line of @f into @buf (@len bytes, at least 2) without its '\n'.
 * A line longer than @len - 1 bytes keeps its first @len - 1 and the rest
 * is read and dropped; *@truncated (may be NULL) says so.  False at the end
 * of the file. */
bool procfs_getline(FILE *f, char *buf, size_t len, bool *truncated);

/* The header line of /proc/interrupts: the cpu id of each column into
 * @cpu_id (at most @max).  Returns the number of columns (CPUs), or -1 when
 * @line is not a header (no "CPU<n>" word). */
int procfs_irq_header(const char *line, int *cpu_id, int max);

/* One line after the header into @out.  0, or -1 for a line without a
 * "LABEL:" (blank, or not this file's). */
int procfs_irq_line(const char *line, struct procfs_irq *out);

/* softnet_stat columns (0-based), as softnet_seq_show() prints them. */
enum procfs_sn_col {
	PROCFS_SN_PROCESSED,      /* sd->processed */
	PROCFS_SN_DROPPED,        /* sd->dropped: input_pkt_queue full (netdev_max_backlog) */
	PROCFS_SN_TIME_SQUEEZE,   /* sd->time_squeeze */
	/* 3..7: 0 ("was fastroute"), 8: 0 ("was cpu_collision") */
	PROCFS_SN_CPU_COLLISION = 8,
	PROCFS_SN_RECEIVED_RPS,   /* sd->received_rps */
	PROCFS_SN_FLOW_LIMIT,     /* flow_limit_count */
	PROCFS_SN_BACKLOG_LEN,    /* input_qlen + process_qlen */
	PROCFS_SN_CPU,            /* the CPU of the line (offline CPUs have none) */
	PROCFS_SN_INPUT_QLEN,
	PROCFS_SN_PROCESS_QLEN,
	PROCFS_SN_COLS            /* 15: the columns of 6.18 */
};

struct procfs_softnet {
	unsigned ncols;           /* hexadecimal columns read (at most PROCFS_SN_COLS) */
	uint32_t v[PROCFS_SN_COLS]; /* 0 past ncols */
	int cpu;                  /* v[PROCFS_SN_CPU] when there is one, else @row */
};

/* Line @row (0-based) of softnet_stat into @out.  0, or -1 when the line
 * has fewer than 3 hexadecimal columns (or one that is not). */
int procfs_softnet_line(const char *line, int row, struct procfs_softnet *out);

#endif
