/* fuzz_trace.c - libFuzzer target for the trace reader (model/trace_load.h).
 *
 * Input: any bytes, read through fmemopen as a trace named .csv (bytes
 * without a capture magic go to the CSV timeline reader).  The
 * reader either refuses it with a terminated message, or gives at least
 * one packet with times from 0, never going back, and frame lengths in
 * 64..9216 bytes.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/trace_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512] = "";
	struct scn_trace tr;
	FILE *f;

	if (size == 0)
		return 0;
	f = fmemopen((void *)data, size, "rb");
	if (!f)
		return 0;
	if (trace_read(&tr, f, "fuzz.csv", err, sizeof(err))) { /* closes f */
		assert(err[0] && memchr(err, '\0', sizeof(err)));
		return 0;
	}
	assert(tr.n >= 1 && tr.t_ns[0] == 0);
	for (uint64_t i = 0; i < tr.n; i++) {
		assert(i == 0 || tr.t_ns[i] >= tr.t_ns[i - 1]);
		assert(tr.len[i] >= 64 && tr.len[i] <= 9216);
	}
	trace_release(&tr);
	return 0;
}
