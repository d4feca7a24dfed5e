/* idle.c - a CPU's idle states: which one it enters when it has nothing
 * to run (the governor of src/core/cpuidle.c over the profile's table),
 * what leaving it costs, and how long it stayed (residency, as cpupower
 * monitor and turbostat report it).
 *
 * The table is the profile's [cstates]; without one it is a single state
 * "C1" whose exit latency is the profile's idle-exit, counted as CPU time
 * in the work that ends the idle period, as rxlab always counted it.
 * With [cstates] the exit latency delays that work but is idle time: the
 * CPU is still leaving its state (cpuidle counts it in the state's time).
 *
 * Sleep length.  The governors ask how long until the CPU's next timer.
 * The model's only per-CPU timers are the NAPI hrtimers (gro_flush_timeout,
 * irq-suspend-timeout) of the queues whose interrupts the CPU takes; with
 * none armed the CPU sleeps with its tick stopped (NO_HZ_IDLE) until a
 * timer the model does not simulate, taken to be NOHZ_SLEEP_NS away (an
 * idle Linux CPU has some timer within about a second: the clocksource
 * watchdog every 0.5 s, vmstat every second).  When the governor expects
 * less than a tick of idle time it keeps the tick, and a state is worth
 * only the residency up to the next tick (jiffy boundaries of host.hz);
 * the ticks of an idle CPU are not simulated (they would end its idle
 * period every jiffy and pay an exit each).
 */
#include "sim/sim.h"

#define NOHZ_SLEEP_NS 1000000000

/* host.idle = poll: the idle loop spins; nothing to leave. */
static bool polling(const struct sim *s)
{
	return s->scn->host.idle_gov == CPUIDLE_POLL;
}

void idle_init(struct sim *s, struct cpu *c)
{
	uint32_t n = s->prof->n_cstates, max = s->scn->host.max_cstate;

	if (max + 1 < n)
		n = max + 1;
	for (uint8_t i = 0; i < s->prof->n_cstates; i++)
		s->idle_tab[i] = (struct cpuidle_state){ s->prof->cstate[i].exit_ns,
							 s->prof->cstate[i].residency_ns };
	if (!s->prof->cstates_given) /* the one-state table is idle-exit, as it reads now */
		s->idle_tab[0] = (struct cpuidle_state){ s->prof->idle_exit_ns, 0 };
	if (n == 0)
		n = 1;
	s->idle_simple = n == 1 && !s->prof->cstates_given && !polling(s) &&
			 s->prof->cold_wake_ns <= 0;
	cpuidle_init(&c->gov, (enum cpuidle_gov)s->scn->host.idle_gov, (uint8_t)n);
	c->cstate = -1;
}

/* Time until @c's next timer: its queues' armed NAPI hrtimers. */
static int64_t sleep_length(const struct sim *s, const struct cpu *c)
{
	int64_t best = NOHZ_SLEEP_NS;

	for (uint16_t i = 0; i < s->n_nics; i++) {
		const struct nic *n = &s->nic[i];

		if (n->timer_armed && n->irq_cpu == c->id && n->timer_at - s->eng.now < best)
			best = n->timer_at - s->eng.now;
	}
	return best > 0 ? best : 1;
}

void idle_enter(struct sim *s, struct cpu *c)
{
	int64_t tick = 1000000000 / s->scn->host.hz;

	if (c->cstate >= 0)
		return;
	c->idle_begin = c->idle_acct_t = s->eng.now;
	if (c->gov.n <= 1 || polling(s))
		c->cstate = 0;
	else
		c->cstate = (int8_t)cpuidle_select(&c->gov, s->idle_tab, sleep_length(s, c), tick,
						   tick - s->eng.now % tick);
	c->cstate_usage[c->cstate]++;
}

void idle_settle(struct sim *s, struct cpu *c)
{
	if (c->cstate < 0)
		return;
	c->cstate_ns[c->cstate] += (uint64_t)(s->eng.now - c->idle_acct_t);
	c->idle_acct_t = s->eng.now;
}

/* The profile's cold-wake when @c's idle period (now ending) lasted at
 * least cold-after, else 0.  A polling idle loop keeps the core running:
 * never cold. */
static int64_t cold_wake(const struct sim *s, const struct cpu *c)
{
	if (s->prof->cold_wake_ns <= 0 || polling(s))
		return 0;
	return s->eng.now - c->idle_begin >= s->prof->cold_after_ns ? s->prof->cold_wake_ns : 0;
}

int64_t idle_leave(struct sim *s, struct cpu *c)
{
	int64_t exit, cold;

	if (c->cstate < 0)
		return 0;
	exit = polling(s) ? 0 : s->idle_tab[c->cstate].exit_ns;
	cold = cold_wake(s, c);
	idle_settle(s, c);
	if (c->gov.n > 1 && !polling(s))
		cpuidle_reflect(&c->gov, s->idle_tab, s->eng.now - c->idle_begin);
	if (s->prof->cstates_given) {
		c->cstate_ns[c->cstate] += (uint64_t)exit;
		c->wake_until = s->eng.now + exit;
	}
	c->cstate = -1;
	return exit + cold; /* the cold part is CPU time: after wake_until */
}
