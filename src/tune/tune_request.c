/* tune_request.c - the defaults of a tune request (see tune_request.h). */
#include "tune/tune_request.h"

#include <string.h>

#include "rxlab/scheme.h"

void tune_request_init(struct tune_request *r, size_t jobs)
{
	memset(r, 0, sizeof(*r));
	r->jobs = jobs;
	r->objective = TM_CPU;
	r->max_loss_pct = TUNE_DEFAULT_MAX_LOSS_PCT;
	r->placement = TUNE_PLACEMENT_AUTO;
	r->per_queue = TUNE_PER_QUEUE_AUTO;
	for (size_t p = 0; p < rxl_scheme_count(RXL_SCHEME_TUNE, 0) && p < TUNE_MAX_POLICIES; p++)
		r->enabled[p] = true;
}
