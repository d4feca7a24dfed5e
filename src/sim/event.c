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
 * The slow path: with s->eng.lazy set (tests only, engine.h) every
 * superseded event stays in the heap and is popped and ignored by its
 * handler, as before keys; test_property runs each scenario both ways.
 */
#include <inttypes.h>
#include <stdio.h>

#include "sim/sim.h"

/* Key ranges: 1 + [cpus | queues (wake) | queues (NAPI timer) | workers]. */
#define KEY_CPU 1u
#define KEY_WAKE (KEY_CPU + SCN_MAX_CPUS)
#define KEY_TIMER (KEY_WAKE + SIM_MAX_QUEUES)
#define KEY_EPOLL (KEY_TIMER + SIM_MAX_QUEUES)
#define KEY_N (KEY_EPOLL + SCN_MAX_WORKERS)
_Static_assert(KEY_N <= ENGINE_KEYS, "the engine has a slot for every key");

void sim_fail(struct sim *s, const char *what, int64_t a, int64_t b)
{
	if (s->fatal[0])
		return;
	snprintf(s->fatal, sizeof(s->fatal), "model error at t=%" PRId64 " ns: %s (%" PRId64
		 ", %" PRId64 ")", s->eng.now, what, a, b);
}

/* The key of an event of @kind for object @obj, 0: unkeyed. */
static inline uint32_t event_key(uint16_t kind, uint16_t obj)
{
	static const struct { uint32_t base, n; } range[] = {
		[EV_CPU_DONE] = { KEY_CPU, SCN_MAX_CPUS },
		[EV_NIC_WAKE] = { KEY_WAKE, SIM_MAX_QUEUES },
		[EV_NAPI_TIMER] = { KEY_TIMER, SIM_MAX_QUEUES },
		[EV_EPOLL_TIMEOUT] = { KEY_EPOLL, SCN_MAX_WORKERS },
		[EV_WAKE] = { 0, 0 },
	};

	if (kind >= sizeof(range) / sizeof(range[0]) || obj >= range[kind].n)
		return 0;
	return range[kind].base + obj;
}

void sim_at(struct sim *s, int64_t t, uint16_t kind, uint16_t obj, uint32_t gen)
{
	if (engine_push_key(&s->eng, t, kind, obj, gen, event_key(kind, obj)))
		sim_fail(s, "cannot schedule event (time in the past or queue full)", t, kind);
}
