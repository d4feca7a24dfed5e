/* trace_pcap.h - packet arrival times from a pcap or pcapng capture
 * (libpcap), for replays and traces. */
#ifndef RXLAB_MODEL_TRACE_PCAP_H
#define RXLAB_MODEL_TRACE_PCAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pcap_trace;

/* Open the capture on @f (kept open by the caller) named @name for
 * messages.  0, or -1 with "NAME: not a pcap or pcapng capture (...)" in
 * @err. */
int pcap_trace_open(struct pcap_trace **tr, FILE *f, const char *name, char *err, size_t errlen);

/* The next packet: its time in ns since the capture's first packet and its
 * original length in bytes.  1 with a packet, 0 at the end, -1 with
 * "NAME: packet N (byte offset B): ..." in @err (a truncated record, time going back). */
int pcap_trace_next(struct pcap_trace *tr, int64_t *t_ns, uint32_t *len, char *err,
		    size_t errlen);

/* Byte offset in the file where the last packet read (or failed) starts,
 * -1 when the stream cannot tell (a pipe). */
long pcap_trace_offset(const struct pcap_trace *tr);

void pcap_trace_close(struct pcap_trace *tr);

/* Does @name look like a capture (.pcap, .pcapng, .cap)? */
int pcap_trace_is_capture_name(const char *name);

#endif
