/* timeline.h - the sender's timeline from a file (`rxlab live --pattern
 * csv:FILE` or `pcap:FILE`): send times and payload sizes.
 *
 * CSV: "TIME_US[,BYTES]" per line, times in microseconds not going back,
 * BYTES 24..1472 (default: the sender's payload); '#' comments, blank
 * lines and a first line that is not a number (a header) are skipped;
 * lines of at most 255 bytes, files of at most 1 GiB (io/infile.h).
 * pcap/pcapng: each packet's time, relative to the capture's clock, and
 * its UDP payload (the frame minus Ethernet, IPv4, UDP headers and FCS,
 * clamped to 24..1472).  At most TIMELINE_MAX packets.  Only a regular
 * file is read: a FIFO without a writer would block, a device never ends.
 */
#ifndef RXLAB_LIVE_TIMELINE_H
#define RXLAB_LIVE_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TIMELINE_MAX 10000000

struct timeline {
	int64_t *times_ns;	/* send times, ns, not going back */
	uint32_t *lens;		/* UDP payload bytes of each packet */
	size_t n;
};

/* Read @path (a capture if @pcap, else CSV) into @t (zeroed first);
 * @payload_bytes is a CSV line's default size.  0 with at least one
 * packet; -1 with "PATH:LINE: ..." or the reader's message in @err; -2
 * when the file is too long or holds no packet (@err says which: a usage
 * problem).  @t holds what was read in any case: timeline_free() it. */
int timeline_load(struct timeline *t, const char *path, bool pcap, uint32_t payload_bytes,
		  char *err, size_t errlen);

void timeline_free(struct timeline *t);

#endif
