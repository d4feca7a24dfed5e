/* event.c - what every model of the host calls: scheduling an event on
 * the engine, and recording a model error.
 *
 * Which events are keyed (engine.h): those that a newer one of the same
 * object always supersedes, because their owner bumps the generation the
 * handler checks before it schedules again: EV_CPU_DONE (cpu.gen, arm()),
 * EV_NIC_WAKE (nic.wake_gen, nic_schedule()), EV_NAPI_TIMER
 * (nic.timer_gen, napi_timer_arm()) and EV_EPOLL_TIMEOUT (sock.wait_gen,
 * sleep_now()).  Their replaced events are then taken out of the heap
 * instead of being popped and ignored, which was a quarter to a third of
 * all events of a thread-heavy run (issue #20); every live event keeps
 * its time and its place in the (time, seq) order, so no output changes.
 * The other kinds can have several pending per object and stay unkeyed.
 *
 * The keys and sim_at() itself are inline in sim.h (sim_event_key()).
 *
 * The slow path: with s->eng.lazy set (tests only, engine.h) every
 * superseded event stays in the heap and is popped and ignored by its
 * handler, as before keys; test_property runs each scenario both ways.
 */
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
