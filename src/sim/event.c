/* event.c - what every model of the host calls: scheduling an event on
 * the engine, and recording a model error. */
#include <inttypes.h>
#include <stdio.h>

#include "sim/sim.h"

void sim_fail(struct sim *s, const char *what, int64_t a, int64_t b)
{
	if (s->fatal[0])
		return;
	snprintf(s->fatal, sizeof(s->fatal), "model error at t=%" PRId64 " ns: %s (%" PRId64
		 ", %" PRId64 ")", s->eng.now, what, a, b);
}

void sim_at(struct sim *s, int64_t t, uint16_t kind, uint16_t obj, uint32_t gen)
{
	if (engine_push(&s->eng, t, kind, obj, gen))
		sim_fail(s, "cannot schedule event (time in the past or queue full)", t, kind);
}
