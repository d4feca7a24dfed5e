/* fuzz_pcap.c - libFuzzer target for the capture reader (model/trace_pcap.h).
 *
 * Input: any bytes, read as a pcap or pcapng file through fmemopen.  The
 * reader either refuses it with a terminated message, or yields packets
 * whose times never go back, then ends or fails with a message.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/trace_pcap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512] = "";
	struct pcap_trace *tr;
	int64_t t, prev = 0;
	uint32_t len;
	FILE *f;
	int rc;

	if (size == 0)
		return 0;
	f = fmemopen((void *)data, size, "rb");
	if (!f)
		return 0;
	if (pcap_trace_open(&tr, f, "fuzz.pcap", err, sizeof(err))) {
		assert(err[0] && memchr(err, '\0', sizeof(err)));
		fclose(f);
		return 0;
	}
	while ((rc = pcap_trace_next(tr, &t, &len, err, sizeof(err))) == 1) {
		assert(t >= prev);
		prev = t;
	}
	assert(rc == 0 || err[0]);
	pcap_trace_close(tr); /* closes f */
	return 0;
}
