/* tune_opts.c - the defaults of a tune request (see tune_opts.h). */
#include "tune/tune_opts.h"

#include <string.h>

#include "rxlab/scheme.h"

void tune_opts_init(struct tune_opts *o, size_t jobs)
{
	memset(o, 0, sizeof(*o));
	o->jobs = jobs;
	o->objective = TM_CPU;
	o->fmt = OUT_TABLE;
	for (size_t p = 0; p < rxl_scheme_count(RXL_SCHEME_TUNE, 0) && p < TUNE_MAX_POLICIES; p++)
		o->enabled[p] = true;
}
