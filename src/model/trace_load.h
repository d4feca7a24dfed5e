/* trace_load.h - traffic traces read into memory for the simulator.
 *
 * A trace is a pcap or pcapng capture (read with libpcap, model/trace_pcap.h)
 * or a CSV timeline:
 *
 *   time_us,length
 *   0,60
 *   12.5,1514
 *
 * one row per packet in time order; time_us is microseconds on any origin
 * (a decimal number, exact to the nanosecond: 12.345678 is refused),
 * length the frame length without FCS as a capture reports it, 1..9212
 * bytes.  Blank lines and lines starting with '#' are skipped.  Which
 * format a file holds is decided by its first bytes (the pcap and pcapng
 * magic numbers), not by its name, except that a file named .pcap,
 * .pcapng or .cap must be a capture.
 *
 * The file must be regular (a FIFO or a device is refused before it is
 * read, io/infile.h), or "-": standard input, a pipe included (`tcpdump -w
 * - | rxlab run s.ini --set traffic.trace=-`), copied to a temporary file
 * of at most 4 GiB (the readers seek) unless it is a regular file, and
 * named "<stdin>" in messages.  A CSV timeline may start with a UTF-8 BOM and
 * use CRLF line ends (CR-only line ends are refused by name); its lines
 * are at most 256 bytes.  A trace spans at most 1000 h from its first
 * packet (the longest a run can play).  A pcap record with caplen > len
 * is refused; pcap's 32-bit seconds are unsigned (past 2038 is later).
 *
 * Either way a packet becomes an arrival at its time minus the first
 * packet's and a frame of max(64, length + 4) bytes (the 4-byte FCS that
 * captures leave out; runts padded to the Ethernet minimum).
 *
 * Errors name the file and where: "t.csv:7: column 'length': ...",
 * "t.pcap: packet 3 (byte offset 112): ...", "t.csv: empty trace: ...".
 */
#ifndef RXLAB_MODEL_TRACE_LOAD_H
#define RXLAB_MODEL_TRACE_LOAD_H

#include <stddef.h>
#include <stdio.h>

#include "rxlab/scenario.h"

/* Largest frame a trace may hold without FCS (a 9216-byte jumbo frame). */
#define TRACE_MAX_LEN 9212
/* Most packets a trace may hold (12 bytes each in memory). */
#define TRACE_MAX_PKTS (1u << 26)

/* Read the trace on @f (named @name in messages; it must be seekable)
 * into @tr, whose arrays are malloc'ed (free with trace_release()).
 * Closes @f in every case.  0, or -1 with one line in @err. */
int trace_read(struct scn_trace *tr, FILE *f, const char *name, char *err, size_t errlen);

/* Free the arrays of a trace filled by trace_read(). */
void trace_release(struct scn_trace *tr);

/* The trace at @path, read once per process and then shared (a cache of
 * at most 16 files, by path): *@out stays valid until trace_cache_free().
 * 0, or a negative errno with one line in @err ("x.pcap: cannot open: No
 * such file or directory", or trace_read()'s message with -EINVAL). */
int trace_load(const struct scn_trace **out, const char *path, char *err, size_t errlen);

/* Free every cached trace.  Scenarios that point at them must be gone. */
void trace_cache_free(void);

#endif
