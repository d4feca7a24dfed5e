/* test_coal_ahead.c - the kept look-ahead walk (struct coal_ahead) against
 * the walk from scratch, on random sequences.
 *
 * src/sim/nic.c predicts each interrupt by walking the completions it
 * already knows (DMA completions, TX departures) on a copy of the engine;
 * coal_ahead_sync() keeps that copy between questions.  Here a ring of
 * future completion times, the engine that has seen a prefix of it, and
 * random operations in the orders the simulator can make them (frames
 * joining the ring, time passing with or without the engine being told,
 * fire, ack, unmask, new parameters, frames leaving the ring), with both
 * answers compared after every operation in every coalescing mode
 * (absolute and restart timers, abs_ns, min_gap_ns, frames, the *_irq
 * thresholds, every).  The prng is splitmix64 of our own, the seed is
 * printed, and a failure prints the sequence number and step.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "rxlab/coalesce.h"

#define SEED 0x5eedc0a1a4eadull /* arbitrary */
#define SEQUENCES 3000
#define STEPS 400
#define RING 512

struct prng {
	uint64_t s;
};

static uint64_t pr_next(struct prng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static int64_t pr_range(struct prng *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(pr_next(r) % (uint64_t)(hi - lo + 1));
}

static bool pr_pct(struct prng *r, unsigned pct)
{
	return pr_next(r) % 100 < pct;
}

/* A time of the scale the parameters use: 0, a few ns, or up to 2 us. */
static int64_t pr_time(struct prng *r)
{
	switch (pr_next(r) % 4) {
	case 0:
		return 0;
	case 1:
		return pr_range(r, 1, 20);
	default:
		return pr_range(r, 1, 2000);
	}
}

static struct coal_params draw_params(struct prng *r)
{
	struct coal_params p;

	do {
		p = (struct coal_params){
			.usecs_ns = pr_pct(r, 25) ? 0 : pr_time(r),
			.frames = pr_pct(r, 40) ? 0 : (uint32_t)pr_range(r, 1, 12),
			.usecs_irq_ns = pr_pct(r, 70) ? 0 : pr_time(r),
			.frames_irq = pr_pct(r, 70) ? 0 : (uint32_t)pr_range(r, 1, 12),
			.mode = pr_pct(r, 50) ? COAL_TIMER_RESTART : COAL_TIMER_ABSOLUTE,
			.abs_ns = pr_pct(r, 70) ? 0 : pr_time(r),
			.min_gap_ns = pr_pct(r, 60) ? 0 : pr_time(r),
			.every = pr_pct(r, 70) ? 0 : (uint32_t)pr_range(r, 1, 10),
		};
	} while (coal_params_check(&p, NULL));
	return p;
}

/* The engine, the ring of completions it has not seen (t[seen..n)), now. */
struct world {
	struct coal c;
	struct coal_ahead a;
	int64_t t[RING];
	uint32_t seen, n;       /* the engine has seen t[0..seen); the ring ends at n */
	int64_t now, last;      /* last: the latest completion time in the ring */
};

/* The reference: nic.c lookahead_walk(), on the array. */
static int64_t walk(const struct world *w)
{
	struct coal x = w->c;
	int64_t ft = coal_fire_time(&x, w->now, NULL);

	for (uint32_t i = w->seen; i < w->n; i++) {
		if (w->t[i] >= ft)
			break;
		coal_complete(&x, w->t[i]);
		ft = coal_fire_time(&x, w->now, NULL);
	}
	return ft;
}

/* The kept walk: nic.c lookahead(), on the array. */
static int64_t ahead(struct world *w)
{
	uint32_t i = w->seen + coal_ahead_sync(&w->a, &w->c, w->now);
	int64_t ft = coal_fire_time(&w->a.x, w->now, NULL);

	for (; i < w->n; i++) {
		if (w->t[i] >= ft)
			break;
		coal_complete(&w->a.x, w->t[i]);
		ft = coal_fire_time(&w->a.x, w->now, NULL);
	}
	return ft;
}

/* Frames join the ring: departures in order (a burst at line rate, or
 * after a pause), or with @shuffled any time at all (the contract does
 * not need order). */
static void push(struct prng *r, struct world *w, bool shuffled)
{
	int64_t k = pr_range(r, 1, 8);

	if (w->n == RING) { /* frames the engine has seen leave from the head */
		memmove(w->t, w->t + w->seen, (w->n - w->seen) * sizeof(w->t[0]));
		w->n -= w->seen;
		w->seen = 0;
	}
	for (; k > 0 && w->n < RING; k--) {
		int64_t base = w->last > w->now ? w->last : w->now;

		w->last = shuffled ? w->now + pr_time(r) : base + pr_time(r);
		w->t[w->n++] = w->last;
	}
}

/* The engine is told of the completions by @t (nic_rx_advance,
 * nic_tx_advance): in ring order, up to the first later one. */
static void advance(struct world *w, int64_t t)
{
	while (w->seen < w->n && w->t[w->seen] <= t)
		coal_complete(&w->c, w->t[w->seen++]);
}

/* One random operation. */
static void step(struct prng *r, struct world *w, bool shuffled)
{
	enum coal_cause why;
	int64_t ft;

	switch (pr_next(r) % 10) {
	case 0:
	case 1:
		push(r, w, shuffled);
		break;
	case 2: /* time passes; the line looks (nic_wake, nic_unmask) */
		w->now += pr_time(r);
		advance(w, w->now);
		break;
	case 3: /* time passes unseen (nic_client_next schedules without advancing) */
		w->now += pr_time(r);
		break;
	case 4: /* the wake-up at the predicted time: fire if due (nic_wake) */
		ft = walk(w);
		if (ft != COAL_NEVER && ft > w->now)
			w->now = ft;
		advance(w, w->now);
		if (coal_fire_time(&w->c, w->now, &why) <= w->now)
			coal_fire(&w->c, w->now, why);
		break;
	case 5: /* fire now, due or not (a line fired for the other cause) */
		advance(w, w->now);
		coal_fire_time(&w->c, w->now, &why);
		coal_fire(&w->c, w->now, why);
		break;
	case 6:
		advance(w, w->now);
		coal_ack(&w->c, w->now);
		break;
	case 7:
		advance(w, w->now);
		coal_unmask(&w->c, w->now);
		break;
	case 8: { /* ethtool -C, DIM, ITR: new values or the same again */
		struct coal_params p = pr_pct(r, 50) ? w->c.p : draw_params(r);

		coal_set_params(&w->c, &p);
		break;
	}
	case 9: /* frames the engine has seen leave the ring (nic_tx_clean) */
		if (pr_pct(r, 50)) {
			memmove(w->t, w->t + w->seen, (w->n - w->seen) * sizeof(w->t[0]));
			w->n -= w->seen;
			w->seen = 0;
		}
		break;
	}
}

static void run_sequences(bool shuffled)
{
	static struct world w;
	uint64_t asked = 0, resumed = 0;

	print_message("seed 0x%llx, %d sequences of %d steps%s\n", (unsigned long long)SEED,
		      SEQUENCES, STEPS, shuffled ? ", completions in any order" : "");
	for (uint64_t q = 0; q < SEQUENCES; q++) {
		struct prng r = { SEED ^ (q * 0xd1342543de82ef95ull) ^ (shuffled ? 1u : 0u) };
		struct coal_params p = draw_params(&r);

		memset(&w, 0, sizeof(w));
		coal_init(&w.c, &p);
		w.now = pr_range(&r, 0, 1000);
		for (int k = 0; k < STEPS; k++) {
			int64_t want, got;

			step(&r, &w, shuffled);
			/* a kept walk that is ahead of the engine */
			resumed += w.a.live && w.a.x.epoch == w.c.epoch &&
				   w.a.x.completions > w.c.completions;
			want = walk(&w);
			got = ahead(&w);
			asked++;
			if (want != got) {
				fprintf(stderr, "sequence %llu step %d: walk %lld, kept walk %lld\n",
					(unsigned long long)q, k, (long long)want, (long long)got);
				fail_msg("kept look-ahead differs from the walk (sequence %llu step %d)",
					 (unsigned long long)q, k);
			}
		}
	}
	print_message("%llu questions, %llu of them on a kept walk ahead of the engine\n", (unsigned long long)asked,
		      (unsigned long long)resumed);
	/* the test means something only if many questions resume a walk */
	assert_true(resumed > asked / 10);
}

static void test_in_order(void **state)
{
	(void)state;
	run_sequences(false);
}

static void test_any_order(void **state)
{
	(void)state;
	run_sequences(true);
}

/* The epoch moves on every change but a completion, and only then. */
static void test_epoch(void **state)
{
	struct coal_params p = { .usecs_ns = 100, .frames = 4 };
	struct coal c;
	uint64_t e;

	(void)state;
	coal_init(&c, &p);
	e = c.epoch;
	coal_complete(&c, 10);
	assert_int_equal(c.epoch, e);
	coal_ack(&c, 20);
	assert_int_equal(c.epoch, ++e);
	coal_ack(&c, 30); /* nothing pending: nothing to clear */
	assert_int_equal(c.epoch, e);
	coal_unmask(&c, 30); /* not servicing */
	assert_int_equal(c.epoch, e);
	coal_fire(&c, 40, COAL_CAUSE_TIMER);
	assert_int_equal(c.epoch, ++e);
	coal_unmask(&c, 50);
	assert_int_equal(c.epoch, ++e);
	coal_set_params(&c, &p); /* the same values */
	assert_int_equal(c.epoch, e);
	p.frames = 5;
	coal_set_params(&c, &p);
	assert_int_equal(c.epoch, ++e);
}

/* A kept walk resumes: questions after completions join the ring cost only
 * the new ones, and the answer follows the engine's completions. */
static void test_resume(void **state)
{
	struct coal_params p = { .usecs_ns = 1000, .mode = COAL_TIMER_ABSOLUTE };
	struct coal_ahead a = { .live = false };
	struct coal c;

	(void)state;
	coal_init(&c, &p);
	assert_int_equal(coal_ahead_sync(&a, &c, 0), 0);
	coal_complete(&a.x, 100); /* the walk applies two known completions */
	coal_complete(&a.x, 200);
	assert_int_equal(coal_ahead_sync(&a, &c, 50), 2);
	coal_complete(&c, 100); /* the engine catches up one */
	assert_int_equal(coal_ahead_sync(&a, &c, 150), 1);
	assert_int_equal(coal_fire_time(&a.x, 150, NULL), 1100);
	coal_ahead_sync(&a, &c, 100); /* now went back: start again */
	assert_int_equal(a.x.completions, c.completions);
	coal_complete(&a.x, 200);
	coal_ack(&c, 150); /* an ack: start again */
	assert_int_equal(coal_ahead_sync(&a, &c, 150), 0);
	assert_int_equal(a.x.pending, 0);
	coal_ahead_reset(&a);
	assert_false(a.live);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_epoch),
		cmocka_unit_test(test_resume),
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_any_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
