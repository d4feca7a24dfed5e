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
 * more than 1 ms (wakeup granularity) behind it.  SCHED_FIFO threads
 * (thread.rt_prio) come before every fair thread.  Time in hard and soft
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

static void busy_update(struct sim *s, struct cpu *c);

/* idle_enter() and idle_leave() (idle.c), with the one-state table of the
 * profiles without [cstates] done here: a wake-up happens for nearly
 * every packet of a lightly loaded host. */
static inline void cpu_idle_enter(struct sim *s, struct cpu *c)
{
	if (!s->idle_simple) {
		idle_enter(s, c);
	} else if (c->cstate < 0) {
		c->cstate = 0;
		c->idle_begin = c->idle_acct_t = s->eng.now;
		c->cstate_usage[0]++;
	}
}

static inline int64_t cpu_idle_leave(struct sim *s, struct cpu *c)
{
	if (c->cstate < 0)
		return 0;
	if (!s->idle_simple)
		return idle_leave(s, c);
	c->cstate_ns[0] += (uint64_t)(s->eng.now - c->idle_acct_t);
	c->cstate = -1;
	return s->idle_tab[0].exit_ns;
}

int cpu_init(struct sim *s, struct cpu *c, uint16_t id)
{
	size_t napis = (size_t)s->n_nics + 1;

	c->id = id;
	c->cur = -1;
	c->next = -1;
	c->ksoftirqd = -1;
	c->cur_napi = 0;
	idle_init(s, c);
	c->irq_q = calloc(2 * (size_t)s->n_nics + 2, sizeof(*c->irq_q));
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

static enum acct thread_bucket(const struct sim *s, const struct cpu *c)
{
	if (c->lvl[LVL_THREAD].what != TCH_RUN || c->cur < 0)
		return ACCT_SYSTEM;
	return s->thr[c->cur].ops->run_acct;
}

/* cpu_account(), inline where every event calls it (cpu_done()). */
static inline __attribute__((always_inline)) void account_inline(struct sim *s, struct cpu *c)
{
	int64_t dt = s->eng.now - c->acct_t;
	int top;

	if (dt <= 0)
		return;
	top = cpu_top(c);
	if (c->wake_until > c->acct_t) { /* still leaving an idle state: idle */
		int64_t e = (c->wake_until < s->eng.now ? c->wake_until : s->eng.now) - c->acct_t;

		c->acct[ACCT_IDLE] += (uint64_t)e;
		dt -= e;
	}
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

void cpu_account(struct sim *s, struct cpu *c)
{
	account_inline(s, c);
}

/* cpu_account() for the callers in this file, with its most common case
 * (half the calls: a chunk ends and the next starts at once, nothing to
 * charge) answered without the call. */
static inline void account(struct sim *s, struct cpu *c)
{
	if (s->eng.now > c->acct_t)
		cpu_account(s, c);
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

	account(s, c);
	k->active = true;
	k->what = what;
	k->remaining = dur > 0 ? dur : 0;
	arm(s, c, k);
	busy_update(s, c);
}

void cpu_push(struct sim *s, struct cpu *c, enum level lvl)
{
	int top = cpu_top(c);

	account(s, c);
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
	busy_update(s, c);
}

void cpu_end(struct sim *s, struct cpu *c, enum level lvl)
{
	account(s, c);
	c->lvl[lvl].active = false;
	c->lvl[lvl].running = false;
	c->gen++;
	busy_update(s, c);
}

/* The scheduler takes the CPU from the running thread in the middle of a
 * chunk: keep what is left so that the thread continues it when it next
 * runs (the chunk's effects were applied when it started). */
static void preempt_thread(struct sim *s, struct cpu *c)
{
	struct chunk *k = &c->lvl[LVL_THREAD];
	bool running = k->running;

	account(s, c);
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
	busy_update(s, c);
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
		c->exit_ns = cpu_idle_leave(s, c); /* leaving the idle state first */
	s->ctx_cpu = (int16_t)c->id;
	cpu_push(s, c, LVL_HARDIRQ);
	cpu_run(s, c, LVL_HARDIRQ, nic, s->lvl_ops->isr(s, c, nic));
	return false;
}

/* ---- scheduler: the run queues ----
 *
 * Each CPU keeps its own runnable threads (struct cpu: fair, idle,
 * nr_running, roam, members), so that picking, the sleeper-credit floor
 * and the load a balancer compares cost O(log n) or O(1) in that CPU's
 * threads; another CPU is seen only through its counts and the host's
 * bitmaps (struct sched).  Everything that changes thread.runnable,
 * thread.cpu or cpu.cur after sim_init goes through the helpers below. */

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

static void bit_put(uint64_t *map, uint16_t cpu, bool on)
{
	uint64_t m = UINT64_C(1) << (cpu % 64);

	if (on)
		map[cpu / 64] |= m;
	else
		map[cpu / 64] &= ~m;
}

/* ---- irq-cpu = float: the CPUs of each busy level ----
 *
 * Every change of a CPU's top level or running thread goes through
 * cpu_run, cpu_push, cpu_end, preempt_thread or set_cur, which call
 * busy_update(): a CPU's bit moves between the four bitmaps when its
 * level changes, so choosing the CPU of an interrupt reads at most four
 * bitmaps instead of every CPU (24% of a 64-CPU run went to that scan). */

int cpu_busy_rank(const struct cpu *c)
{
	int top = cpu_top(c);

	if (top == LVL_THREAD)
		return c->cur >= 0;
	return top + 1;
}

static void busy_update(struct sim *s, struct cpu *c)
{
	int r;

	if (!s->sched.float_on)
		return;
	r = cpu_busy_rank(c);
	if (r == c->busy)
		return;
	bit_put(s->sched.busy[c->busy], c->id, false);
	bit_put(s->sched.busy[r], c->id, true);
	c->busy = (int8_t)r;
}

static int next_bit(const struct sim *s, const uint64_t *map, uint32_t from);

uint16_t cpu_float_pick(const struct sim *s, uint16_t last)
{
	uint32_t from = (last + 1u) % s->n_cpus;

	if (s->sched.float_scan)
		return cpu_float_scan(s, last);
	for (int r = 0; r < 4; r++) {
		int id = next_bit(s, s->sched.busy[r], from);

		if (id < 0)
			id = next_bit(s, s->sched.busy[r], 0);
		if (id >= 0)
			return (uint16_t)id;
	}
	return last; /* not reached: every CPU is in one bitmap */
}

uint16_t cpu_float_scan(const struct sim *s, uint16_t last)
{
	uint16_t best = last;
	int rank = 4;

	for (uint16_t i = 1; i <= s->n_cpus; i++) {
		uint16_t id = (uint16_t)((last + i) % s->n_cpus);
		int r = cpu_busy_rank(&s->cpu[id]);

		if (r < rank) {
			rank = r;
			best = id;
		}
	}
	return best;
}

static bool thread_level_idle(const struct cpu *c)
{
	return c->cur < 0 && c->next < 0 && c->nr_running == 0 && c->idle.n == 0;
}

/* Bring @c's bit in the idle bitmap up to date (after cur, next or its
 * queues change). */
static void idle_bit(struct sim *s, const struct cpu *c)
{
	bit_put(s->sched.idle, c->id, thread_level_idle(c));
}

/* ... and both bits (after its runnable threads change). */
static void cpu_bits(struct sim *s, const struct cpu *c)
{
	bit_put(s->sched.pullable, c->id, c->nr_running >= 2 && c->roam.n > 0);
	idle_bit(s, c);
}

/* The queue of @c that thread @t waits in: by its class. */
static struct runq *queue_of(struct cpu *c, const struct thread *t)
{
	if (t->rt_prio)
		return &c->rt;
	return t->ops->idle_prio ? &c->idle : &c->fair;
}

/* A thread's place in its queue: -priority for SCHED_FIFO; for a fair
 * thread its vruntime, or under host.scheduler = o1 its array, priority
 * and place in the list (o1rq.h). */
static int64_t queue_key(const struct sim *s, const struct thread *t)
{
	if (t->rt_prio)
		return -(int64_t)t->rt_prio;
	return s->sched.o1 ? t->o1_key : t->vruntime;
}

/* Queue runnable thread @i on its CPU (it is not that CPU's cur). */
static void enqueue(struct sim *s, int32_t i)
{
	struct thread *t = &s->thr[i];

	runq_insert(queue_of(&s->cpu[t->cpu], t), s->sched.pos, queue_key(s, t), i);
}

static void dequeue(struct sim *s, int32_t i)
{
	struct thread *t = &s->thr[i];

	runq_erase(queue_of(&s->cpu[t->cpu], t), s->sched.pos, i);
}

/* Thread @i becomes runnable (false -> true) or stops being so, on its CPU. */
static void set_runnable(struct sim *s, int32_t i, bool on)
{
	struct thread *t = &s->thr[i];
	struct cpu *c = &s->cpu[t->cpu];

	t->runnable = on;
	if (!t->ops->idle_prio)
		c->nr_running = (uint16_t)(c->nr_running + (on ? 1 : -1));
	if (t->roam) {
		if (on)
			rq_list_add(&c->roam, s->sched.roam_link, i);
		else
			rq_list_del(&c->roam, s->sched.roam_link, i);
	}
	cpu_bits(s, c);
}

/* @c runs thread @i now (-1: none): the one it ran goes back to its queue
 * if still runnable, and @i leaves the queue for as long as it runs. */
static void set_cur(struct sim *s, struct cpu *c, int16_t i)
{
	if (c->cur >= 0 && s->thr[c->cur].runnable)
		enqueue(s, c->cur);
	if (i >= 0)
		dequeue(s, i);
	c->cur = i;
	idle_bit(s, c);
	busy_update(s, c);
}

/* Thread @i (not running, not queued) moves from its CPU to @dst. */
static void move_thread(struct sim *s, int32_t i, struct cpu *dst)
{
	struct thread *t = &s->thr[i];
	struct cpu *src = &s->cpu[t->cpu];
	bool on = t->runnable;

	if (on)
		set_runnable(s, i, false);
	rq_list_del(&src->members, s->sched.member_link, i);
	t->cpu = dst->id;
	rq_list_add(&dst->members, s->sched.member_link, i);
	if (on)
		set_runnable(s, i, true);
	dst->sn.migrations++;
}

/* ---- scheduler: O(1) (host.scheduler = o1) ----
 *
 * kernel/sched.c of 2.6.12: the priority arithmetic is src/core/o1sched.c,
 * the arrays o1rq.h.  What the model leaves out: the per-tick busy
 * rebalancing (only idle balancing moves threads, as under cfs), fork
 * (sched_fork()'s split timeslice and CHILD_PENALTY: every thread exists
 * from the start with a full slice and no sleep average), SCHED_RR, and
 * sync wake-ups (2.6.12's sockets wake with wake_up_interruptible(), not
 * the _sync variant that pipes and AF_UNIX use, so every wake-up the
 * model makes is a preempting one). */

/* A thread the O(1) rules apply to: SCHED_OTHER, not the idle poller. */
static bool o1_fair(const struct sim *s, const struct thread *t)
{
	return s->sched.o1 && !t->rt_prio && !t->ops->idle_prio;
}

/* @t (not queued) takes the key of the tail of its priority's list in the
 * active or the expired array of @c. */
static void o1_enter(struct sim *s, struct cpu *c, struct thread *t, bool expired)
{
	if (!o1rq_tail(&c->o1, t->o1.prio, expired, &t->o1_key))
		sim_fail(s, "O(1) run queue: sequence numbers or generations used up", c->id,
			 (int64_t)c->o1.seq);
}

/* A thread as the model starts it: never slept (so the priority of no
 * bonus, static + 5), a full slice, its nice. */
static void o1_thread_init(struct sim *s, struct thread *t)
{
	int sp = o1_static_prio(t->kind == THR_KSOFTIRQD ? 19 : 0);

	t->o1 = (struct o1_task){ .static_prio = (int16_t)sp,
				  .prio = (int16_t)o1_effective_prio(sp, 0, s->sched.hz),
				  .slice_ns = o1_timeslice_ns(sp, s->sched.hz),
				  .mm = t->ops->run_acct == ACCT_USER };
}

/* scheduler_tick()'s expiry of the running @t: prio from its sleep
 * average, a new slice, and the tail of the expired array, or of the
 * active one when it is interactive and the expired ones are not starving
 * (EXPIRED_STARVING). */
static void o1_expire(struct sim *s, struct cpu *c, struct thread *t, int64_t full)
{
	struct o1_task *p = &t->o1;
	bool expired;

	p->prio = (int16_t)o1_effective_prio(p->static_prio, p->sleep_avg_ns, s->sched.hz);
	p->slice_ns = full;
	if (!t->runnable)
		return; /* it goes to sleep: a wake-up gives it its next key */
	if (c->o1.expired_ns < 0)
		c->o1.expired_ns = s->eng.now;
	expired = !o1_interactive(p->prio, p->static_prio) ||
		  o1_expired_starving(s->eng.now, c->o1.expired_ns, c->nr_running, p->static_prio,
				      c->o1.best_expired, s->sched.hz);
	o1_enter(s, c, t, expired);
	if (expired && p->static_prio < c->o1.best_expired)
		c->o1.best_expired = p->static_prio;
}

/* scheduler_tick() for the running fair thread @t of @c, done when the
 * scheduler looks (the model has no per-CPU tick): its slice is charged
 * the wall time since it got the CPU, interrupts included (a tick charges
 * whoever is current).  A slice used up expires; an interactive thread
 * that crossed a multiple of TIMESLICE_GRANULARITY with at least that
 * much slice left goes to the tail of its list (round robin among
 * equals). */
static void o1_tick(struct sim *s, struct cpu *c, struct thread *t)
{
	int64_t full = o1_timeslice_ns(t->o1.static_prio, s->sched.hz);
	int64_t used0 = full - t->o1.slice_ns, gran;

	t->o1.slice_ns -= s->eng.now - c->slice_start;
	c->slice_start = s->eng.now;
	if (t->o1.slice_ns <= 0) {
		o1_expire(s, c, t, full);
		return;
	}
	if (!t->runnable || !o1_interactive(t->o1.prio, t->o1.static_prio) ||
	    o1rq_in_expired(&c->o1, t->o1_key))
		return;
	gran = o1_granularity_ns(t->o1.sleep_avg_ns, s->n_cpus, s->sched.hz);
	if ((full - t->o1.slice_ns) / gran > used0 / gran && t->o1.slice_ns >= gran)
		o1_enter(s, c, t, false);
}

/* When the scheduler must next look at the running fair thread of @c,
 * which got the CPU now: the end of its slice, or its next round robin. */
__attribute__((noinline)) static void o1_arm(struct sim *s, struct cpu *c,
					     const struct thread *t)
{
	int64_t full = o1_timeslice_ns(t->o1.static_prio, s->sched.hz);
	int64_t used = full - t->o1.slice_ns, due = t->o1.slice_ns;

	if (o1_interactive(t->o1.prio, t->o1.static_prio)) {
		int64_t gran = o1_granularity_ns(t->o1.sleep_avg_ns, s->n_cpus, s->sched.hz);
		int64_t next = (used / gran + 1) * gran;

		if (full - next >= gran && next - used < due)
			due = next - used;
	}
	c->o1_due = s->eng.now + due;
}

/* schedule()'s part for prev, the running thread of @c, before the pick:
 * the tick's slice accounting, and when schedule() really runs (the
 * thread sleeps, a wake-up asked for it, its slice or round robin is due;
 * not when a cpu-hog's chunk merely ended) its run time off its sleep
 * average. */
__attribute__((noinline)) static void o1_prev(struct sim *s, struct cpu *c)
{
	struct thread *t = &s->thr[c->cur];
	bool called = !t->runnable || c->resched || s->eng.now >= c->o1_due;

	if (!o1_fair(s, t))
		return;
	o1_tick(s, c, t);
	if (called)
		o1_charge_run(&t->o1, s->eng.now, s->sched.hz);
}

/* schedule() picked @next (queued on @c, not the running thread): a
 * woken thread's wait counts as sleep (activated 2 in full, 1 at 30%),
 * and if that changes its priority it moves to the tail of its new list
 * in the same array. */
static void o1_switch_in(struct sim *s, struct cpu *c, int16_t next)
{
	struct thread *t = &s->thr[next];

	if (o1_credit_wait(&t->o1, s->eng.now, s->sched.hz)) {
		bool expired = o1rq_in_expired(&c->o1, t->o1_key);

		dequeue(s, next);
		o1_enter(s, c, t, expired);
		enqueue(s, next);
	}
	t->o1.timestamp_ns = s->eng.now;
}

/* Carve each CPU's two queues out of the pool and queue the threads that
 * sim_init made runnable (no CPU runs a thread yet). */
static void sched_build(struct sim *s, const uint16_t *pinned)
{
	struct rq_ent *e = s->sched.pool;

	for (uint16_t i = 0; i < s->n_cpus; i++) {
		struct cpu *c = &s->cpu[i];
		uint32_t cap = pinned[i] + s->n_roam;

		c->fair = (struct runq){ .e = e, .cap = cap };
		c->idle = (struct runq){ .e = e + cap, .cap = cap };
		c->rt = (struct runq){ .e = e + 2 * cap, .cap = cap };
		e += 3 * cap;
		rq_list_init(&c->roam);
		rq_list_init(&c->members);
		o1rq_init(&c->o1);
	}
	for (int32_t i = 0; i < s->n_threads; i++) {
		struct thread *t = &s->thr[i];
		bool on = t->runnable;

		s->sched.pos[i] = -1;
		s->sched.roam_link[i] = s->sched.member_link[i] = (struct rq_link){ -1, -1 };
		rq_list_add(&s->cpu[t->cpu].members, s->sched.member_link, i);
		t->runnable = false;
		if (s->sched.o1)
			o1_enter(s, &s->cpu[t->cpu], t, false);
		if (on) {
			set_runnable(s, i, true);
			enqueue(s, i);
		}
	}
	for (uint16_t i = 0; i < s->n_cpus; i++) {
		struct cpu *c = &s->cpu[i];

		cpu_bits(s, c);
		c->busy = (int8_t)cpu_busy_rank(c);
		if (s->sched.float_on)
			bit_put(s->sched.busy[c->busy], c->id, true);
	}
}

int sched_init(struct sim *s)
{
	struct sched *q = &s->sched;
	uint32_t n = s->n_threads ? s->n_threads : 1, slots = 0;
	uint16_t *pinned = calloc(s->n_cpus, sizeof(*pinned));

	q->words = (uint16_t)((s->n_cpus + 63) / 64);
	q->pos = malloc(n * sizeof(*q->pos));
	q->roam_link = malloc(n * sizeof(*q->roam_link));
	q->member_link = malloc(n * sizeof(*q->member_link));
	q->pullable = calloc(q->words, sizeof(*q->pullable));
	q->idle = calloc(q->words, sizeof(*q->idle));
	for (int r = 0; r < 4; r++)
		q->busy[r] = calloc(q->words, sizeof(*q->busy[r]));
	for (uint16_t i = 0; i < s->n_nics; i++)
		q->float_on |= s->nic[i].cfg->irq_float != 0;
	q->wake_idle = s->scn->host.sched_wake_idle != 0;
	q->o1 = s->scn->host.scheduler == SCHEDULER_O1;
	q->hz = s->scn->host.hz;
	if (!pinned || !q->pos || !q->roam_link || !q->member_link || !q->pullable || !q->idle ||
	    !q->busy[0] || !q->busy[1] || !q->busy[2] || !q->busy[3])
		goto err;
	/* A CPU's queues hold at most its own pinned threads and every thread
	 * without affinity (which may all gather on it): size each for that. */
	for (uint16_t i = 0; i < s->n_threads; i++) {
		pinned[s->thr[i].cpu] += !s->thr[i].roam;
		if (q->o1)
			o1_thread_init(s, &s->thr[i]);
	}
	for (uint16_t c = 0; c < s->n_cpus; c++)
		slots += 3u * (pinned[c] + s->n_roam);
	q->pool = malloc((slots ? slots : 1) * sizeof(*q->pool));
	if (!q->pool)
		goto err;
	sched_build(s, pinned);
	free(pinned);
	return 0;
err:
	free(pinned);
	return -1;
}
void sched_free(struct sim *s)
{
	free(s->sched.pos);
	free(s->sched.roam_link);
	free(s->sched.member_link);
	free(s->sched.pool);
	free(s->sched.pullable);
	free(s->sched.idle);
	for (int r = 0; r < 4; r++)
		free(s->sched.busy[r]);
}

static bool bit_get(const uint64_t *map, uint16_t cpu)
{
	return map[cpu / 64] >> (cpu % 64) & 1;
}

/* With irq-cpu = float: is @c anywhere but in the bitmap of its level? */
static bool busy_wrong(const struct sim *s, const struct cpu *c)
{
	if (!s->sched.float_on)
		return false;
	for (int r = 0; r < 4; r++)
		if (bit_get(s->sched.busy[r], c->id) != (r == cpu_busy_rank(c)))
			return true;
	return c->busy != cpu_busy_rank(c);
}

/* One CPU's queues against a scan of the threads table. */
static int check_cpu(const struct sim *s, const struct cpu *c, char *why, size_t len)
{
	uint32_t fair = 0, idle = 0, rt = 0, load = 0, roam = 0, members = 0;

	for (uint16_t i = 0; i < s->n_threads; i++) {
		const struct thread *t = &s->thr[i];
		bool queued = t->runnable && c->cur != (int16_t)i;

		if (t->cpu != c->id)
			continue;
		members++;
		load += t->runnable && !t->ops->idle_prio;
		roam += t->runnable && t->roam;
		rt += queued && t->rt_prio;
		fair += queued && !t->rt_prio && !t->ops->idle_prio;
		idle += queued && !t->rt_prio && t->ops->idle_prio;
		if ((s->sched.pos[i] >= 0) != queued) {
			snprintf(why, len, "cpu %u: thread %u queued %d, runnable %d", c->id, i,
				 s->sched.pos[i] >= 0, t->runnable);
			return -1;
		}
	}
	if (fair != c->fair.n || idle != c->idle.n || rt != c->rt.n || load != c->nr_running ||
	    roam != c->roam.n ||
	    members != c->members.n ||
	    bit_get(s->sched.pullable, c->id) != (load >= 2 && roam > 0) ||
	    bit_get(s->sched.idle, c->id) != thread_level_idle(c) || busy_wrong(s, c)) {
		snprintf(why, len, "cpu %u: queues %u+%u (threads %u+%u), load %u (%u), roam %u (%u)",
			 c->id, c->fair.n, c->idle.n, fair, idle, c->nr_running, load, c->roam.n,
			 roam);
		return -1;
	}
	return 0;
}

int sched_check(const struct sim *s, char *why, size_t len)
{
	for (uint16_t i = 0; i < s->n_cpus; i++)
		if (check_cpu(s, &s->cpu[i], why, len))
			return -1;
	return 0;
}

/* ---- scheduler: decisions ---- */

/* Least vruntime among the runnable threads of @c, idle-priority ones
 * included: the queues' firsts and the running thread. */
static int64_t min_vruntime(const struct sim *s, const struct cpu *c)
{
	const struct rq_ent *f = runq_first(&c->fair), *i = runq_first(&c->idle);
	int64_t m = INT64_MAX;

	if (f)
		m = f->vruntime;
	if (i && i->vruntime < m)
		m = i->vruntime;
	if (c->cur >= 0 && s->thr[c->cur].runnable && !s->thr[c->cur].rt_prio &&
	    s->thr[c->cur].vruntime < m)
		m = s->thr[c->cur].vruntime;
	return m;
}

/* The first of queue @q and the running thread if it belongs there (its
 * class is @q's).  A running SCHED_FIFO thread keeps the CPU against a
 * queued one of equal priority (FIFO: no round robin). */
static int16_t first_of(struct sim *s, struct cpu *c, struct runq *q)
{
	const struct rq_ent *f = runq_first(q);
	const struct thread *t = c->cur >= 0 ? &s->thr[c->cur] : NULL;

	if (!t || !t->runnable || queue_of(c, t) != q)
		return f ? (int16_t)f->id : -1;
	if (f && (t->rt_prio ? f->vruntime < queue_key(s, t)
			     : runq_before(f->vruntime, f->id, queue_key(s, t), c->cur)))
		return (int16_t)f->id;
	return c->cur;
}

/* SCHED_FIFO threads first, highest priority first; then the least
 * vruntime among the fair threads of @c (ties: the lower thread index);
 * idle-priority threads (the FreeBSD idle poller) only when nothing else
 * can run, and among them too the least vruntime (the model has at most
 * one). */
static int16_t pick_thread(struct sim *s, struct cpu *c)
{
	int16_t best = c->rt.n || (c->cur >= 0 && s->thr[c->cur].rt_prio)
			       ? first_of(s, c, &c->rt) : -1;

	if (best < 0)
		best = first_of(s, c, &c->fair);
	return best >= 0 ? best : first_of(s, c, &c->idle);
}

/* A CPU's queue position now: the largest vruntime of its threads, where
 * its min_vruntime stood when it last ran something.  A walk of @c's own
 * threads, done only when a thread migrates to @c. */
static int64_t queue_ref(struct sim *s, const struct cpu *c)
{
	int64_t m = 0;

	for (int32_t i = c->members.head; i >= 0; i = s->sched.member_link[i].next) {
		s->sched.visits++;
		if (s->thr[i].vruntime > m)
			m = s->thr[i].vruntime;
	}
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

/* What idle_pull has found so far: the thread, its CPU, the lowest index
 * among that CPU's candidates, and the earliest time a cache-hot one turns
 * cold. */
struct pull {
	int16_t best;
	uint16_t src;
	int32_t first;
	int64_t cold;
};

/* Which of two waiting threads of one CPU idle_pull takes first: the
 * least vruntime, or under o1 move_tasks()'s order (o1rq_pull_before). */
static bool pull_before(const struct sim *s, int32_t a, int32_t b)
{
	const struct thread *ta = &s->thr[a], *tb = &s->thr[b];

	if (s->sched.o1)
		return o1rq_pull_before(ta->o1_key, a, tb->o1_key, b);
	return runq_before(ta->vruntime, a, tb->vruntime, b);
}

/* idle_pull's look at one busy CPU @d: its waiting threads without
 * affinity (not running there, not being switched to). */
static void pull_scan(struct sim *s, const struct cpu *d, struct pull *p)
{
	int64_t hot = s->scn->host.sched_migration_cost_ns;
	int32_t best = -1, first = INT32_MAX;

	for (int32_t i = d->roam.head; i >= 0; i = s->sched.roam_link[i].next) {
		const struct thread *t = &s->thr[i];

		s->sched.visits++;
		if (d->cur == i || d->next == i)
			continue;
		if (s->eng.now - t->t_off < hot) {
			if (t->t_off + hot < p->cold)
				p->cold = t->t_off + hot;
			continue;
		}
		if (i < first)
			first = i;
		if (best < 0 || pull_before(s, i, best))
			best = i;
	}
	if (best < 0)
		return;
	if (p->best < 0 || d->nr_running > s->cpu[p->src].nr_running ||
	    (d->nr_running == s->cpu[p->src].nr_running && first < p->first))
		*p = (struct pull){ .best = (int16_t)best, .src = d->id, .first = first,
				    .cold = p->cold };
}

/* idle_pull() under o1: thread @i moves to @c, into the array it was in. */
static int16_t o1_pull(struct sim *s, struct cpu *c, int16_t i)
{
	struct thread *t = &s->thr[i];
	bool expired = o1rq_in_expired(&s->cpu[t->cpu].o1, t->o1_key);

	dequeue(s, i);
	move_thread(s, i, c);
	o1_enter(s, c, t, expired);
	enqueue(s, i);
	return i;
}

/* idle_balance(): @c has nothing to run; take a waiting thread that has no
 * CPU affinity (thread.roam) from the CPU with the most runnable threads
 * (equal loads: the CPU whose candidate comes first in the threads table),
 * the one with the least vruntime there.  Only CPUs with two runnable
 * threads and one of them roaming (the pullable bitmap) are looked at, and
 * of those only their roaming threads, so pinned threads elsewhere cost
 * nothing.  A thread that ran less than host.sched_migration_cost ago is
 * cache-hot and stays (task_hot()); the CPU then looks again on the tick
 * after it turns cold.  The thread's vruntime keeps its distance from the
 * old queue's minimum, as CFS's migration does.  -1: none. */
static int16_t idle_pull(struct sim *s, struct cpu *c)
{
	struct pull p = { .best = -1, .cold = INT64_MAX };
	int64_t delta;

	for (uint16_t w = 0; w < s->sched.words; w++)
		for (uint64_t m = s->sched.pullable[w]; m; m &= m - 1) {
			const struct cpu *d = &s->cpu[w * 64 + __builtin_ctzll(m)];

			/* a less loaded CPU cannot win once a candidate is found */
			if (d != c && (p.best < 0 || d->nr_running >= s->cpu[p.src].nr_running))
				pull_scan(s, d, &p);
		}
	if (p.best < 0) {
		if (p.cold != INT64_MAX)
			balance_later(s, c, p.cold);
		return -1;
	}
	if (s->sched.o1) /* pull_task(): the same array, its tail, on this CPU */
		return o1_pull(s, c, p.best);
	delta = queue_ref(s, c) - min_vruntime(s, &s->cpu[p.src]);
	dequeue(s, p.best);
	move_thread(s, p.best, c);
	s->thr[p.best].vruntime += delta;
	enqueue(s, p.best);
	return p.best;
}

/* First CPU at or after @from whose bit is set in @map, or -1. */
static int next_bit(const struct sim *s, const uint64_t *map, uint32_t from)
{
	for (uint32_t w = from / 64; w < s->sched.words; w++) {
		uint64_t m = map[w] & (w == from / 64 ? ~UINT64_C(0) << (from % 64) : ~UINT64_C(0));

		if (m)
			return (int)(w * 64 + (uint32_t)__builtin_ctzll(m));
	}
	return -1;
}

/* Wake-up placement (select_task_rq_fair()) of sleeping thread @i, which
 * has no CPU affinity, with host.sched_wake_idle: it stays on the CPU it
 * last ran on if that CPU has no thread (an IRQ or softirq running there
 * does not count, as for the kernel's idle_cpu()); otherwise it goes to
 * the first CPU after that one that has no thread, as
 * select_idle_sibling() scans the last-level cache from its target (the
 * model's CPUs share one cache); with none, it stays.  The model has no
 * wake_affine(): the waker's CPU is not a candidate of its own, and an
 * idle CPU is taken even when the thread is cache-hot (the kernel too
 * leaves task_hot() to the balancer).  On the new CPU the thread starts at
 * that CPU's queue position, as a new arrival.  This is the modern rule
 * (select_idle_sibling(), kernel/sched/fair.c, with wake_affine()'s target
 * being the previous CPU); 2.6's wake_idle() for SD_WAKE_IDLE scanned its
 * domain from its first CPU and kept a CPU that already had two runnable
 * threads, which the model does not copy.  Without
 * sched_wake_idle a woken thread always waits on its last CPU and only
 * idle balancing (idle_pull) moves it. */
static void wake_place(struct sim *s, int32_t i)
{
	struct thread *t = &s->thr[i];
	int dst;
	int64_t v;

	if (thread_level_idle(&s->cpu[t->cpu]))
		return;
	dst = next_bit(s, s->sched.idle, t->cpu + 1u);
	if (dst < 0)
		dst = next_bit(s, s->sched.idle, 0);
	if (dst < 0)
		return;
	v = queue_ref(s, &s->cpu[dst]);
	move_thread(s, i, &s->cpu[dst]);
	t->vruntime = v;
}

static void thread_start(struct sim *s, struct cpu *c)
{
	struct thread *t = &s->thr[c->cur];

	c->slice_start = s->eng.now;
	if (s->sched.o1 && o1_fair(s, t))
		o1_arm(s, c, t);
	if (t->left > 0) {
		int64_t left = t->left;

		t->left = 0;
		cpu_run(s, c, LVL_THREAD, t->left_what, left);
		return;
	}
	t->ops->start(s, c);
}

/* sched_pick() under o1 has chosen @next (-1: idle) on @c: an array swap
 * when it comes from the expired array, the woken thread's wait credit,
 * and the switch to the idle task, which 2.6's nr_switches counts as a
 * switch like any other (prev != next). */
__attribute__((noinline)) static void o1_picked(struct sim *s, struct cpu *c, int16_t next)
{
	if (next < 0) {
		o1rq_idle(&c->o1);
		c->cs += c->cur >= 0;
		return;
	}
	if (!o1_fair(s, &s->thr[next]))
		return;
	o1rq_picked(&c->o1, s->thr[next].o1_key);
	if (next != c->cur)
		o1_switch_in(s, c, next);
}

void sched_pick(struct sim *s, struct cpu *c)
{
	int16_t next;

	if (s->sched.o1 && c->cur >= 0)
		o1_prev(s, c);
	next = pick_thread(s, c);
	if (c->cur >= 0 && next != c->cur)
		s->thr[c->cur].t_off = s->eng.now;
	if (next < 0 && s->n_roam)
		next = idle_pull(s, c);
	if (s->sched.o1)
		o1_picked(s, c, next);
	c->resched = false;
	if (next < 0) {
		cpu_account(s, c);
		c->lvl[LVL_THREAD].active = false;
		c->lvl[LVL_THREAD].running = false;
		set_cur(s, c, -1);
		if (cpu_top(c) < 0)
			cpu_idle_enter(s, c);
		return;
	}
	if (c->cstate >= 0) /* the tick's balancing found work for an idle CPU */
		c->exit_ns += cpu_idle_leave(s, c);
	if (next == c->cur) {
		thread_start(s, c);
		return;
	}
	c->cs++;
	set_cur(s, c, -1);
	c->next = next;
	idle_bit(s, c);
	cpu_run(s, c, LVL_THREAD, TCH_SWITCH, s->prof->ctx_switch_ns + c->exit_ns);
	c->exit_ns = 0;
}

/* check_preempt_wakeup(): does woken @t take the CPU from @running?  A
 * higher SCHED_FIFO priority always, a fair thread never from a FIFO one;
 * between fair threads, when @t is more than the wakeup granularity
 * behind (or @running is the idle-priority poller). */
static bool wake_preempts(const struct sim *s, const struct thread *t,
			  const struct thread *running)
{
	if (t->rt_prio || running->rt_prio)
		return t->rt_prio > running->rt_prio;
	if (s->sched.o1) /* TASK_PREEMPTS_CURR: strictly better dynamic priority */
		return running->ops->idle_prio ||
		       (!t->ops->idle_prio && o1_preempts(t->o1.prio, running->o1.prio));
	return running->ops->idle_prio || t->vruntime + WAKEUP_GRAN_NS < running->vruntime;
}

/* CFS's place_entity() for woken @t: no further back than the sleeper
 * credit below the least vruntime of its CPU. */
static void cfs_place(struct sim *s, const struct cpu *c, struct thread *t)
{
	int64_t floor = min_vruntime(s, c);

	if (c->cur >= 0 && s->thr[c->cur].vruntime < floor)
		floor = s->thr[c->cur].vruntime;
	if (floor != INT64_MAX && t->vruntime < floor - SLEEPER_CREDIT_NS)
		t->vruntime = floor - SLEEPER_CREDIT_NS;
}

/* Thread @t becomes runnable on its CPU now: the sleeper-credit floor,
 * the queue, and the preemption check of that CPU. */
static void wake_now(struct sim *s, struct thread *t)
{
	int32_t i = (int32_t)(t - s->thr);
	struct cpu *c = &s->cpu[t->cpu];
	int16_t running;

	if (s->sched.o1) {
		if (o1_fair(s, t)) { /* activate_task(): recalc_task_prio, the active tail */
			o1_activate(&t->o1, s->eng.now, t->o1_irq_wake, s->sched.hz);
			o1_enter(s, c, t, false);
		}
	} else {
		cfs_place(s, c, t);
	}
	set_runnable(s, i, true);
	enqueue(s, i);
	if (cpu_top(c) < 0) {
		c->exit_ns = cpu_idle_leave(s, c); /* the wake-up IPI ends its idle */
		sched_pick(s, c);
		return;
	}
	running = c->cur >= 0 ? c->cur : c->next;
	if (running >= 0 && wake_preempts(s, t, &s->thr[running]))
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

/* try_to_wake_up(): the waker places @t (select_task_rq), then the wake-up
 * reaches @t's CPU.  From another CPU (the waker's work is s->ctx_cpu) it
 * takes the profile's sched-wake to get there (ttwu_queue_wakelist()'s
 * IPI and the target's scheduler getting to it): meanwhile @t is waking,
 * neither sleeping nor runnable, and a second wake-up is the same one. */
void sched_wake(struct sim *s, struct thread *t)
{
	if (t->runnable || t->waking)
		return;
	/* in_interrupt() of the waker: a hard IRQ or softirq, or an event of
	 * no CPU (a timer) */
	if (s->sched.o1)
		t->o1_irq_wake = s->ctx_cpu < 0 || cpu_top(&s->cpu[s->ctx_cpu]) >= LVL_SOFTIRQ;
	if (t->roam && s->sched.wake_idle)
		wake_place(s, (int32_t)(t - s->thr));
	if (s->prof->sched_wake_ns > 0 && s->ctx_cpu >= 0 && s->ctx_cpu != (int16_t)t->cpu) {
		t->waking = true;
		sim_at(s, s->eng.now + s->prof->sched_wake_ns, EV_WAKE, (uint16_t)(t - s->thr), 0);
		return;
	}
	wake_now(s, t);
}

void sched_wake_arrive(struct sim *s, struct thread *t)
{
	t->waking = false;
	s->ctx_cpu = (int16_t)t->cpu;
	if (!t->runnable)
		wake_now(s, t);
}

void sched_sleep(struct sim *s, struct cpu *c)
{
	cpu_account(s, c);
	set_runnable(s, c->cur, false);
	sched_pick(s, c);
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

/* Is another thread than the running one due on @c?  Kept out of line:
 * sched_need_resched() is asked between every two chunks of a thread and
 * nearly always answers from the timeslice alone, which should not pay
 * for the pick's registers. */
__attribute__((noinline)) static bool other_due(struct sim *s, struct cpu *c)
{
	int16_t next = pick_thread(s, c);

	if (c->cur < 0)
		return next >= 0;
	return next >= 0 && next != c->cur;
}

/* sched_need_resched() under o1: a fair thread's slice or round robin is
 * due (c->o1_due), else only a wake-up (c->resched) takes the CPU; a
 * SCHED_FIFO or idle-priority thread as under cfs. */
static inline bool o1_need_resched(struct sim *s, struct cpu *c)
{
	if (c->cur >= 0 && o1_fair(s, &s->thr[c->cur]))
		return s->eng.now >= c->o1_due;
	if (c->cur >= 0 && s->eng.now - c->slice_start < s->scn->run.timeslice_ns)
		return false;
	return other_due(s, c);
}

bool sched_need_resched(struct sim *s, struct cpu *c)
{
	if (c->resched)
		return true;
	if (s->sched.o1)
		return o1_need_resched(s, c);
	if (c->cur >= 0 && s->eng.now - c->slice_start < s->scn->run.timeslice_ns)
		return false; /* its slice is not over: nobody else is due */
	return other_due(s, c);
}

/* The context switch to c->next is over.  Out of line: one chunk in
 * twenty-five is a switch, and cpu_done() runs for every chunk of every
 * level. */
__attribute__((noinline)) static void switch_done(struct sim *s, struct cpu *c)
{
	int16_t next = c->next;

	c->next = -1;
	set_cur(s, c, next);
	if (c->resched)
		sched_pick(s, c); /* a wake-up during the switch outranks it */
	else
		thread_start(s, c);
}

static void thread_chunk_done(struct sim *s, struct cpu *c)
{
	if (c->lvl[LVL_THREAD].what == TCH_SWITCH)
		switch_done(s, c);
	else
		s->thr[c->cur].ops->chunk_done(s, c);
}

void cpu_done(struct sim *s, struct cpu *c, uint32_t gen)
{
	int top;

	if (gen != c->gen)
		return;
	account_inline(s, c);
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
