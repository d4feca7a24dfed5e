/* fuzz_replay.c - libFuzzer target for the replay readers (replay/replay.h):
 * the CSV reader shared by every mechanism and each mechanism's parsing
 * of its rows, and the coalesce replay of a capture.
 *
 * Input: one selector byte, then the bytes of the input file.  The
 * selector picks the kind (dim, itr, adaptive, coalesce, defer, or
 * coalesce on a capture) and a few options that change how the rows are
 * driven (ITR mode 4 with its watchdog, a restarting coalesce timer with
 * a service time, NAPI deferral).  replay_run() either fails with one
 * terminated, non-empty line naming the input, or returns a table that
 * prints in every format.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1 /* fmemopen, open_memstream */
#endif
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void options(struct replay_opts *o, uint8_t sel)
{
	switch (o->kind) {
	case REPLAY_ITR:
		if (sel & 0x10)
			o->itr.mode = ITR_SIMPLIFIED;
		break;
	case REPLAY_COALESCE:
		if (sel & 0x10) {
			o->rx_usecs_ns = 50000;
			o->rx_frames = 8;
			o->timer = COAL_TIMER_RESTART;
			o->service_ns = 3000;
		}
		break;
	case REPLAY_DEFER:
		if (sel & 0x10) {
			o->defer_hard_irqs = 2;
			o->gro_flush_timeout_ns = 20000;
		}
		break;
	default:
		break;
	}
}

static void print_all(const struct table *t)
{
	static const enum out_format fmts[] = { OUT_TABLE, OUT_CSV, OUT_JSON };
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert(f);
	for (size_t i = 0; i < 3; i++)
		table_print(t, f, fmts[i]);
	fclose(f);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct replay_opts o;
	struct table *t = NULL;
	char err[1024];
	bool capture;
	FILE *f;
	int rc;

	if (size == 0)
		return 0;
	capture = data[0] % 6 == 5;
	replay_opts_default(&o, capture ? REPLAY_COALESCE : (enum replay_kind)(data[0] % 6));
	options(&o, data[0]);
	/* fmemopen of zero bytes fails: an empty file is one byte short */
	f = fmemopen(size > 1 ? (void *)(data + 1) : (void *)"", size > 1 ? size - 1 : 0, "rb");
	if (!f)
		return 0;
	err[0] = '\0';
	if (capture) {
		rc = replay_coalesce_pcap(&o, f, "in.pcap", &t, err, sizeof(err)); /* closes f */
	} else {
		rc = replay_run(&o, f, "in.csv", &t, err, sizeof(err));
		fclose(f);
	}
	if (rc) {
		assert(!t && err[0] && memchr(err, '\0', sizeof(err)));
		assert(!strncmp(err, "in.", 3) || !strncmp(err, "coalescing", 10) ||
		       !strncmp(err, "adaptive", 8));
		return 0;
	}
	assert(t);
	print_all(t);
	table_free(t);
	return 0;
}
