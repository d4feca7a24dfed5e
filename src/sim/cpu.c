/* cpu.c - one CPU: three execution levels, time accounting, threads.
 *
 * A CPU runs the highest active level: hard IRQ > softirq > thread.  Each
 * level holds one chunk of work (an ISR, a poll, a timeslice, a context
 * switch).  Activating a higher level pauses the running chunk, keeping
 * what is left of it; when the higher level ends the chunk continues.
 * Exactly one EV_CPU_DONE event is pending per CPU, stamped with c->gen.
 *
 * Threads share the thread level under a CFS-like rule: the runnable
 * thread with the least vruntime runs for one timeslice; a woken thread
 * starts no further back than min_vruntime - 3 ms (sleeper credit, the
 * kernel's sched_latency/2) and preempts the running thread when it is
 * more than 1 ms (wakeup granularity) behind it.  Time in hard and soft
 * IRQ context is not charged to the interrupted thread
 * (CONFIG_IRQ_TIME_ACCOUNTING).
 *
 * The CPU knows no handler and no application: the interrupt levels call
 * the kernel through s->lvl_ops, and a thread's steps are its thread_ops
 * (sim.h), so this file calls only the engine.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sim/sim.h"

#define SLEEPER_CREDIT_NS 3000000
#define WAKEUP_GRAN_NS 1000000

int cpu_init(struct sim *s, struct cpu *c, uint16_t id)
{
	size_t napis = (size_t)s->n_nics + 1;

	c->id = id;
	c->cur = -1;
	c->next = -1;
	c->ksoftirqd = -1;
	c->cur_napi = 0;
	c->irq_q = calloc(2 * (size_t)s->n_nics + 1, sizeof(*c->irq_q));
	c->poll_list.id = calloc(napis, sizeof(uint16_t));
	c->local.id = calloc(napis, sizeof(uint16_t));
	c->repoll.id = calloc(napis, sizeof(uint16_t));
	return c->irq_q && c->poll_list.id && c->local.id && c->repoll.id ? 0 : -1;
}

void cpu_free(struct cpu *c)
{
	free(c->irq_q);
	free(c->poll_list.id);
	free(c->local.id);
	free(c->repoll.id);
}

int cpu_top(const struct cpu *c)
{
	for (int l = LVL_HARDIRQ; l >= LVL_THREAD; l--)
		if (c->lvl[l].active)
			return l;
	return -1;
}

static enum acct thread_bucket(const struct sim *s, const struct cpu *c)
{
	if (c->lvl[LVL_THREAD].what != TCH_RUN || c->cur < 0)
		return ACCT_SYSTEM;
	return s->thr[c->cur].ops->run_acct;
}

void cpu_account(struct sim *s, struct cpu *c)
{
	int64_t dt = s->eng.now - c->acct_t;
	int top = cpu_top(c);

	if (dt <= 0)
		return;
	c->acct_t = s->eng.now;
	switch (top) {
	case LVL_HARDIRQ:
		c->acct[ACCT_HARDIRQ] += (uint64_t)dt;
		return;
	case LVL_SOFTIRQ:
		c->acct[ACCT_SOFTIRQ] += (uint64_t)dt;
		if (c->si_in_thread && c->cur >= 0) {
			s->thr[c->cur].cpu_ns += dt;
			s->thr[c->cur].vruntime += dt;
		}
		return;
	case LVL_THREAD:
		c->acct[thread_bucket(s, c)] += (uint64_t)dt;
		if (c->cur >= 0 && c->lvl[LVL_THREAD].what != TCH_SWITCH) {
			s->thr[c->cur].cpu_ns += dt;
			s->thr[c->cur].vruntime += dt;
		}
		return;
	default:
		c->acct[ACCT_IDLE] += (uint64_t)dt;
	}
}

static void arm(struct sim *s, struct cpu *c, struct chunk *k)
{
	k->started = s->eng.now;
	k->running = true;
	c->gen++;
	sim_at(s, s->eng.now + k->remaining, EV_CPU_DONE, c->id, c->gen);
}

void cpu_run(struct sim *s, struct cpu *c, enum level lvl, uint16_t what, int64_t dur)
{
	struct chunk *k = &c->lvl[lvl];

	cpu_account(s, c);
	k->active = true;
	k->what = what;
	k->remaining = dur > 0 ? dur : 0;
	arm(s, c, k);
}

void cpu_push(struct sim *s, struct cpu *c, enum level lvl)
{
	int top = cpu_top(c);

	cpu_account(s, c);
	if (top >= 0 && c->lvl[top].running) {
		struct chunk *k = &c->lvl[top];

		k->remaining -= s->eng.now - k->started;
		if (k->remaining < 0)
			k->remaining = 0;
		k->running = false;
		c->gen++;
	}
	c->lvl[lvl].active = true;
	c->lvl[lvl].running = false;
	c->lvl[lvl].remaining = 0;
}

void cpu_end(struct sim *s, struct cpu *c, enum level lvl)
{
	cpu_account(s, c);
	c->lvl[lvl].active = false;
	c->lvl[lvl].running = false;
	c->gen++;
}

/* The scheduler takes the CPU from the running thread in the middle of a
 * chunk: keep what is left so that the thread continues it when it next
 * runs (the chunk's effects were applied when it started). */
static void preempt_thread(struct sim *s, struct cpu *c)
{
	struct chunk *k = &c->lvl[LVL_THREAD];
	bool running = k->running;

	cpu_account(s, c);
	if (k->active && c->cur >= 0 && k->what != TCH_SWITCH && k->what != TCH_NONE) {
		struct thread *t = &s->thr[c->cur];
		int64_t left = k->remaining;

		if (running)
			left -= s->eng.now - k->started;
		t->left = left > 0 && t->ops->resume_left ? left : 0;
		t->left_what = k->what;
	}
	k->active = false;
	k->running = false;
	c->gen++;
}

void cpu_resume(struct sim *s, struct cpu *c)
{
	int top = cpu_top(c);

	if (top == LVL_THREAD && c->resched && c->lvl[LVL_THREAD].what != TCH_SWITCH) {
		preempt_thread(s, c);
		top = -1;
	}
	if (top < 0) {
		sched_pick(s, c);
		return;
	}
	arm(s, c, &c->lvl[top]);
}

bool cpu_irq(struct sim *s, struct cpu *c, uint16_t nic)
{
	if (c->lvl[LVL_HARDIRQ].active) {
		/* Already pending: a repeat merges into the one pending bit (a
		 * clock tick that comes again while its ISR still waits). */
		for (uint16_t i = 0; i < c->n_irq_q; i++)
			if (c->irq_q[i] == nic)
				return true;
		c->irq_q[c->n_irq_q++] = nic;
		return false;
	}
	if (cpu_top(c) < 0)
		c->exit_ns = s->prof->idle_exit_ns; /* leaving the idle state first */
	cpu_push(s, c, LVL_HARDIRQ);
	cpu_run(s, c, LVL_HARDIRQ, nic, s->lvl_ops->isr(s, c, nic));
	return false;
}

/* ---- scheduler ---- */

int sched_add_thread(struct sim *s, const struct thread_ops *ops, enum thread_kind kind,
		   uint16_t cpu, const char *name)
{
	struct thread *t = &s->thr[s->n_threads];

	t->ops = ops;
	t->kind = kind;
	t->cpu = cpu;
	snprintf(t->name, sizeof(t->name), "%s", name);
	return s->n_threads++;
}

static int64_t min_vruntime(const struct sim *s, uint16_t cpu)
{
	int64_t m = INT64_MAX;

	for (uint16_t i = 0; i < s->n_threads; i++)
		if (s->thr[i].cpu == cpu && s->thr[i].runnable && s->thr[i].vruntime < m)
			m = s->thr[i].vruntime;
	return m;
}

/* Least vruntime among the runnable threads of @cpu; idle-priority
 * threads (the FreeBSD idle poller) only when nothing else can run. */
static int16_t pick_thread(const struct sim *s, uint16_t cpu)
{
	int16_t best = -1, idle = -1;

	for (uint16_t i = 0; i < s->n_threads; i++) {
		const struct thread *t = &s->thr[i];

		if (t->cpu != cpu || !t->runnable)
			continue;
		if (t->ops->idle_prio) {
			idle = (int16_t)i;
			continue;
		}
		if (best < 0 || t->vruntime < s->thr[best].vruntime)
			best = (int16_t)i;
	}
	return best >= 0 ? best : idle;
}

/* Is thread @i on its CPU's thread level now (running or switched to)? */
static bool thread_on_cpu(const struct sim *s, uint16_t i)
{
	const struct cpu *c = &s->cpu[s->thr[i].cpu];

	return c->cur == (int16_t)i || c->next == (int16_t)i;
}

/* A CPU's queue position now: the largest vruntime of its threads, where
 * its min_vruntime stood when it last ran something. */
static int64_t queue_ref(const struct sim *s, uint16_t cpu)
{
	int64_t m = 0;

	for (uint16_t i = 0; i < s->n_threads; i++)
		if (s->thr[i].cpu == cpu && s->thr[i].vruntime > m)
			m = s->thr[i].vruntime;
	return m;
}

/* An idle CPU balances again at the first clock tick (host.hz) at or after
 * @t, when a thread it could take turns cache-cold (rebalance on the tick
 * of an idle CPU). */
static void balance_later(struct sim *s, struct cpu *c, int64_t t)
{
	int64_t jiffy = 1000000000 / s->scn->host.hz;

	t = (t + jiffy - 1) / jiffy * jiffy;
	if (c->balance_t && c->balance_t <= t)
		return;
	c->balance_t = t;
	sim_at(s, t, EV_BALANCE, c->id, 0);
}

void sched_balance_tick(struct sim *s, struct cpu *c)
{
	if (c->balance_t != s->eng.now)
		return; /* superseded by an earlier one */
	c->balance_t = 0;
	if (cpu_top(c) < 0)
		sched_pick(s, c);
}

/* idle_balance(): @c has nothing to run; take a waiting thread that has no
 * CPU affinity (thread.roam) from the CPU with the most runnable threads,
 * the one that has waited longest there.  A thread that ran less than
 * host.sched_migration_cost ago is cache-hot and stays (task_hot()); the
 * CPU then looks again on the tick after it turns cold.  The thread's
 * vruntime keeps its distance from the old queue's minimum, as CFS's
 * migration does.  -1: none. */
static int16_t idle_pull(struct sim *s, struct cpu *c)
{
	uint16_t load[SCN_MAX_CPUS] = { 0 };
	int64_t hot = s->scn->host.sched_migration_cost_ns, cold = INT64_MAX;
	int16_t best = -1;
	int src = -1;

	for (uint16_t i = 0; i < s->n_threads; i++)
		if (s->thr[i].runnable && !s->thr[i].ops->idle_prio)
			load[s->thr[i].cpu]++;
	for (uint16_t i = 0; i < s->n_threads; i++) {
		const struct thread *t = &s->thr[i];

		if (!t->roam || !t->runnable || t->cpu == c->id || load[t->cpu] < 2 ||
		    thread_on_cpu(s, i))
			continue;
		if (s->eng.now - t->t_off < hot) {
			if (t->t_off + hot < cold)
				cold = t->t_off + hot;
			continue;
		}
		if (best < 0 || load[t->cpu] > load[src] ||
		    (load[t->cpu] == load[src] && t->cpu == src && t->vruntime < s->thr[best].vruntime)) {
			best = (int16_t)i;
			src = t->cpu;
		}
	}
	if (best < 0) {
		if (cold != INT64_MAX)
			balance_later(s, c, cold);
		return -1;
	}
	s->thr[best].vruntime += queue_ref(s, c->id) - min_vruntime(s, (uint16_t)src);
	s->thr[best].cpu = c->id;
	c->sn.migrations++;
	return best;
}

static void thread_start(struct sim *s, struct cpu *c)
{
	struct thread *t = &s->thr[c->cur];

	c->slice_start = s->eng.now;
	if (t->left > 0) {
		int64_t left = t->left;

		t->left = 0;
		cpu_run(s, c, LVL_THREAD, t->left_what, left);
		return;
	}
	t->ops->start(s, c);
}

void sched_pick(struct sim *s, struct cpu *c)
{
	int16_t next = pick_thread(s, c->id);

	if (c->cur >= 0 && next != c->cur)
		s->thr[c->cur].t_off = s->eng.now;
	if (next < 0 && s->n_roam)
		next = idle_pull(s, c);
	c->resched = false;
	if (next < 0) {
		cpu_account(s, c);
		c->lvl[LVL_THREAD].active = false;
		c->lvl[LVL_THREAD].running = false;
		c->cur = -1;
		return;
	}
	if (next == c->cur) {
		thread_start(s, c);
		return;
	}
	c->cs++;
	c->cur = -1;
	c->next = next;
	cpu_run(s, c, LVL_THREAD, TCH_SWITCH, s->prof->ctx_switch_ns + c->exit_ns);
	c->exit_ns = 0;
}

void sched_wake(struct sim *s, struct thread *t)
{
	struct cpu *c = &s->cpu[t->cpu];
	int64_t floor;
	int16_t running;

	if (t->runnable)
		return;
	floor = min_vruntime(s, t->cpu);
	if (c->cur >= 0 && s->thr[c->cur].vruntime < floor)
		floor = s->thr[c->cur].vruntime;
	if (floor != INT64_MAX && t->vruntime < floor - SLEEPER_CREDIT_NS)
		t->vruntime = floor - SLEEPER_CREDIT_NS;
	t->runnable = true;
	if (cpu_top(c) < 0) {
		c->exit_ns = s->prof->idle_exit_ns; /* the wake-up IPI ends its idle */
		sched_pick(s, c);
		return;
	}
	running = c->cur >= 0 ? c->cur : c->next;
	if (running >= 0 && (s->thr[running].ops->idle_prio ||
			     t->vruntime + WAKEUP_GRAN_NS < s->thr[running].vruntime))
		c->resched = true;
	/* Take the CPU now only from a chunk in progress.  Between two chunks
	 * the running thread's own code is waking @t (a poll that delivered to
	 * the sink): it is about to arm its next chunk, and switching under it
	 * would leave that chunk with no thread (c->cur = -1).  need_resched
	 * then takes effect when that chunk ends, as in the kernel. */
	if (c->resched && cpu_top(c) == LVL_THREAD && c->lvl[LVL_THREAD].what != TCH_SWITCH &&
	    c->lvl[LVL_THREAD].running) {
		preempt_thread(s, c);
		sched_pick(s, c);
	}
}

void sched_sleep(struct sim *s, struct cpu *c)
{
	cpu_account(s, c);
	s->thr[c->cur].runnable = false;
	sched_pick(s, c);
}

void thread_chunk(struct sim *s, struct cpu *c, enum thread_chunk what, int64_t dur)
{
	cpu_run(s, c, LVL_THREAD, (uint8_t)what, dur > 0 ? dur : 1);
}

bool sched_thread_continue(struct sim *s, struct cpu *c, bool has_work)
{
	if (!has_work) {
		sched_sleep(s, c);
		return false;
	}
	if (sched_need_resched(s, c)) {
		sched_pick(s, c);
		return false;
	}
	return true;
}

bool sched_need_resched(struct sim *s, struct cpu *c)
{
	bool others;
	int16_t next;

	if (c->resched)
		return true;
	if (c->cur >= 0 && s->eng.now - c->slice_start < s->scn->run.timeslice_ns)
		return false; /* its slice is not over: nobody else is due */
	next = pick_thread(s, c->id);
	if (c->cur < 0)
		return next >= 0;
	others = next >= 0 && next != c->cur;
	return others;
}

static void thread_chunk_done(struct sim *s, struct cpu *c)
{
	if (c->lvl[LVL_THREAD].what == TCH_SWITCH) {
		c->cur = c->next;
		c->next = -1;
		if (c->resched)
			sched_pick(s, c); /* a wake-up during the switch outranks it */
		else
			thread_start(s, c);
		return;
	}
	s->thr[c->cur].ops->chunk_done(s, c);
}

void cpu_done(struct sim *s, struct cpu *c, uint32_t gen)
{
	int top;

	if (gen != c->gen)
		return;
	cpu_account(s, c);
	top = cpu_top(c);
	if (top >= 0) {
		c->lvl[top].remaining = 0;
		c->lvl[top].running = false;
	}
	switch (top) {
	case LVL_HARDIRQ:
		s->lvl_ops->isr_done(s, c, c->lvl[LVL_HARDIRQ].what);
		break;
	case LVL_SOFTIRQ:
		s->lvl_ops->softirq_step(s, c);
		break;
	case LVL_THREAD:
		thread_chunk_done(s, c);
		break;
	default:
		sim_fail(s, "CPU done event while idle", c->id, (int64_t)gen);
	}
}
