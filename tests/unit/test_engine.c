/* test_engine.c - the discrete-event engine (src/sim/engine.c): (time, seq)
 * order, the pop limit, the owner of "now", rejection of the past, heap
 * growth past the initial capacity, and the handled counter; keyed events
 * replaced and cancelled in place against a sorted array and against the
 * lazy deletion they replace (test_keyed_*).
 *
 * Random times come from a local splitmix64 with a fixed seed (printed in
 * the failure message), independent of src/core/rng.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sim/engine.h"

#define SEED 0x5eed2024u

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void push_ok(struct engine *e, int64_t t, uint16_t kind, uint16_t obj, uint32_t gen)
{
	int rc = engine_push(e, t, kind, obj, gen);

	if (rc != 0)
		fail_msg("engine_push(t=%lld) = %d at now=%lld, want 0", (long long)t, rc,
			 (long long)e->now);
}

static struct event pop_ok(struct engine *e, int64_t limit)
{
	struct event ev;
	int rc = engine_pop(e, limit, &ev);

	if (rc != 0)
		fail_msg("engine_pop(limit=%lld) = %d with %zu pending, want 0",
			 (long long)limit, rc, e->n);
	return ev;
}

/* (a.t, a.seq) <= (b.t, b.seq) */
static int not_after(const struct event *a, const struct event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq <= b->seq);
}

static void test_init_state(void **state)
{
	struct engine e;

	(void)state;
	assert_int_equal(engine_init(&e, 8), 0);
	assert_int_equal(e.now, 0);
	assert_int_equal(e.seq, 0);
	assert_int_equal(e.n, 0);
	assert_int_equal(e.cap, 8);
	assert_int_equal(e.handled, 0);
	assert_non_null(e.heap);
	engine_free(&e);
	assert_null(e.heap);
}

/* Pushed out of order, popped in time order; the payload travels with
 * its event through the heap moves. */
static void test_time_order(void **state)
{
	static const int64_t t[] = { 50, 10, 40, 30, 20, 60, 5 };
	static const int64_t want[] = { 5, 10, 20, 30, 40, 50, 60 };
	struct engine e;

	(void)state;
	assert_int_equal(engine_init(&e, 16), 0);
	for (int i = 0; i < 7; i++)
		push_ok(&e, t[i], (uint16_t)(i + 1), (uint16_t)(100 + i), (uint32_t)(1000 + i));
	assert_int_equal(e.n, 7);
	for (int i = 0; i < 7; i++) {
		struct event ev = pop_ok(&e, INT64_MAX);
		int j = (int)ev.seq; /* insertion index */

		assert_int_equal(ev.t, want[i]);
		assert_int_equal(ev.t, t[j]);
		assert_int_equal(ev.kind, j + 1);
		assert_int_equal(ev.obj, 100 + j);
		assert_int_equal(ev.gen, 1000 + j);
		assert_int_equal(e.now, want[i]);
	}
	assert_int_equal(e.n, 0);
	engine_free(&e);
}

/* Equal times pop in insertion order (seq), also when interleaved with
 * other times and when the equal-time events sit deep in the heap. */
static void test_equal_times_fifo(void **state)
{
	struct engine e;
	uint64_t last_seq = 0;

	(void)state;
	assert_int_equal(engine_init(&e, 4), 0);
	/* 40 events at t = 7 interleaved with 40 at t = 3 and t = 9. */
	for (uint32_t i = 0; i < 40; i++) {
		push_ok(&e, 9, 1, 0, i);
		push_ok(&e, 7, 2, 0, i);
		push_ok(&e, 3, 3, 0, i);
	}
	for (int group = 0; group < 3; group++) {
		static const int64_t tg[] = { 3, 7, 9 };
		static const uint16_t kg[] = { 3, 2, 1 };

		for (uint32_t i = 0; i < 40; i++) {
			struct event ev = pop_ok(&e, INT64_MAX);

			assert_int_equal(ev.t, tg[group]);
			assert_int_equal(ev.kind, kg[group]);
			assert_int_equal(ev.gen, i);    /* i-th pushed of its time */
			if (i > 0)
				assert_true(ev.seq > last_seq);
			last_seq = ev.seq;
		}
	}
	engine_free(&e);
}

/* The limit is inclusive; a refused pop leaves now and the heap alone. */
static void test_pop_limit(void **state)
{
	struct engine e;
	struct event ev;

	(void)state;
	assert_int_equal(engine_init(&e, 4), 0);
	assert_int_equal(engine_pop(&e, INT64_MAX, &ev), -1); /* empty */
	assert_int_equal(e.now, 0);
	push_ok(&e, 100, 1, 0, 0);
	push_ok(&e, 200, 1, 1, 0);
	assert_int_equal(engine_pop(&e, 99, &ev), -1);
	assert_int_equal(e.now, 0);
	assert_int_equal(e.n, 2);
	ev = pop_ok(&e, 150);
	assert_int_equal(ev.t, 100);
	assert_int_equal(ev.obj, 0);
	assert_int_equal(e.now, 100);
	assert_int_equal(engine_pop(&e, 199, &ev), -1);
	assert_int_equal(e.now, 100);
	assert_int_equal(e.n, 1);
	ev = pop_ok(&e, 200); /* t == limit pops */
	assert_int_equal(ev.t, 200);
	assert_int_equal(ev.obj, 1);
	assert_int_equal(e.now, 200);
	assert_int_equal(engine_pop(&e, INT64_MAX, &ev), -1);
	assert_int_equal(e.now, 200);
	engine_free(&e);
}

/* A time before now is a model bug: -1, nothing queued, seq not used.
 * t == now is allowed (an event for the current instant). */
static void test_push_past_rejected(void **state)
{
	struct engine e;
	struct event ev;

	(void)state;
	assert_int_equal(engine_init(&e, 4), 0);
	push_ok(&e, 1000, 1, 0, 0);
	pop_ok(&e, INT64_MAX);
	assert_int_equal(e.now, 1000);
	assert_int_equal(engine_push(&e, 999, 1, 0, 0), -1);
	assert_int_equal(engine_push(&e, INT64_MIN, 1, 0, 0), -1);
	assert_int_equal(e.n, 0);
	assert_int_equal(e.seq, 1);
	push_ok(&e, 1000, 2, 0, 0);
	ev = pop_ok(&e, 1000);
	assert_int_equal(ev.t, 1000);
	assert_int_equal(ev.kind, 2);
	assert_int_equal(ev.seq, 1);
	engine_free(&e);
}

/* 10000 events with random times from 4 initial slots: the heap grows by
 * doubling (4 -> 8 -> ... -> 16384) and still pops every event exactly
 * once in (t, seq) order.  Times in [0, 2000) so that about five events
 * share each time and the seq tie-break is exercised thousands of times. */
static void test_grow_random(void **state)
{
	enum { N = 10000 };
	struct engine e;
	struct event prev = { 0 }, ev;
	unsigned char *seen = calloc(N, 1);
	uint64_t x = SEED, ties = 0;
	size_t count = 0;

	(void)state;
	assert_non_null(seen);
	assert_int_equal(engine_init(&e, 4), 0);
	for (uint32_t i = 0; i < N; i++)
		push_ok(&e, (int64_t)(splitmix64(&x) % 2000), 1, (uint16_t)i, i);
	assert_int_equal(e.n, N);
	assert_true(e.cap >= N);
	assert_int_equal(e.cap, 16384); /* 4 doubled 12 times */
	while (engine_pop(&e, INT64_MAX, &ev) == 0) {
		if (ev.seq >= N || ev.gen != ev.seq || ev.obj != (uint16_t)ev.seq)
			fail_msg("seed %#x: event seq %llu carries gen %u obj %u", SEED,
				 (unsigned long long)ev.seq, ev.gen, ev.obj);
		if (seen[ev.seq]++)
			fail_msg("seed %#x: seq %llu popped twice", SEED,
				 (unsigned long long)ev.seq);
		if (count > 0 && !not_after(&prev, &ev))
			fail_msg("seed %#x: pop %zu (t=%lld seq=%llu) after (t=%lld seq=%llu)",
				 SEED, count, (long long)ev.t, (unsigned long long)ev.seq,
				 (long long)prev.t, (unsigned long long)prev.seq);
		if (count > 0 && ev.t == prev.t)
			ties++;
		assert_int_equal(e.now, ev.t);
		prev = ev;
		count++;
	}
	assert_int_equal(count, N);
	assert_int_equal(e.handled, N);
	assert_int_equal(e.n, 0);
	assert_true(ties > 5000); /* the tie-break was really tested */
	free(seen);
	engine_free(&e);
}

/* Event-loop usage: each popped event schedules 0-2 more at now + random
 * delay (delay 0 included).  Pops must never go back in time and equal
 * times keep insertion order, whatever the heap shape. */
static void test_interleaved(void **state)
{
	struct engine e;
	struct event prev = { 0 }, ev;
	uint64_t x = SEED + 1, pushed = 0, popped = 0;

	(void)state;
	assert_int_equal(engine_init(&e, 2), 0);
	for (int i = 0; i < 50; i++, pushed++)
		push_ok(&e, (int64_t)(splitmix64(&x) % 100), 1, 0, 0);
	while (engine_pop(&e, 1000000, &ev) == 0) {
		if (popped > 0 && !not_after(&prev, &ev))
			fail_msg("seed %#x: (t=%lld seq=%llu) popped after (t=%lld seq=%llu)",
				 SEED + 1, (long long)ev.t, (unsigned long long)ev.seq,
				 (long long)prev.t, (unsigned long long)prev.seq);
		prev = ev;
		popped++;
		for (uint64_t k = splitmix64(&x) % 3; k > 0 && pushed < 20000; k--, pushed++)
			push_ok(&e, e.now + (int64_t)(splitmix64(&x) % 50), 1, 0, 0);
	}
	/* Everything pushed was either popped or is beyond the limit. */
	assert_int_equal(popped + e.n, pushed);
	assert_int_equal(e.handled, popped);
	assert_true(popped > 1000);
	engine_free(&e);
}

/* handled counts successful pops only. */
static void test_handled(void **state)
{
	struct engine e;
	struct event ev;

	(void)state;
	assert_int_equal(engine_init(&e, 4), 0);
	for (int i = 0; i < 5; i++)
		push_ok(&e, 10 * i, 1, 0, 0);
	pop_ok(&e, INT64_MAX);
	pop_ok(&e, INT64_MAX);
	assert_int_equal(e.handled, 2);
	assert_int_equal(engine_pop(&e, 15, &ev), -1); /* next is t=20 */
	assert_int_equal(e.handled, 2);
	pop_ok(&e, INT64_MAX);
	pop_ok(&e, INT64_MAX);
	pop_ok(&e, INT64_MAX);
	assert_int_equal(engine_pop(&e, INT64_MAX, &ev), -1); /* empty */
	assert_int_equal(e.handled, 5);
	engine_free(&e);
}

/* ---- keyed events: in-place replace and cancel ---------------------------- */

enum { KEYS = 9 }; /* keys 1..8 */

/* The reference: the pending events in (t, seq) order, in a plain array. */
struct ref {
	struct event ev[4096];
	size_t n;
};

static void ref_remove(struct ref *r, size_t i)
{
	memmove(&r->ev[i], &r->ev[i + 1], (r->n - i - 1) * sizeof(r->ev[0]));
	r->n--;
}

static void ref_insert(struct ref *r, const struct event *x)
{
	size_t i = r->n;

	assert_true(r->n < sizeof(r->ev) / sizeof(r->ev[0]));
	while (i > 0 && not_after(x, &r->ev[i - 1]))
		i--;
	memmove(&r->ev[i + 1], &r->ev[i], (r->n - i) * sizeof(r->ev[0]));
	r->ev[i] = *x;
	r->n++;
}

/* Index of @key's pending event in @r, or -1. */
static long ref_find(const struct ref *r, uint32_t key)
{
	for (size_t i = 0; i < r->n; i++)
		if (key && r->ev[i].key == key)
			return (long)i;
	return -1;
}

/* Every key's pos[] names a heap slot holding that key, and every keyed
 * heap slot is its key's pos[] (slots 1..n while the root is a hole). */
static void check_pos(const struct engine *e, uint64_t step)
{
	size_t first = e->hole, end = e->n + e->hole;

	for (uint32_t k = 1; k < KEYS; k++)
		if (e->pos[k] != ENGINE_NOWHERE &&
		    (e->pos[k] < first || e->pos[k] >= end || e->heap[e->pos[k]].key != k))
			fail_msg("seed %#x step %llu: pos[%u] = %u wrong", SEED,
				 (unsigned long long)step, k, e->pos[k]);
	for (size_t i = first; i < end; i++)
		if (e->heap[i].key && e->pos[e->heap[i].key] != i)
			fail_msg("seed %#x step %llu: slot %zu key %u not at pos", SEED,
				 (unsigned long long)step, i, e->heap[i].key);
}

static void expect_same(const struct event *a, const struct event *b, uint64_t step)
{
	if (a->t != b->t || a->seq != b->seq || a->kind != b->kind || a->obj != b->obj ||
	    a->gen != b->gen || a->key != b->key)
		fail_msg("seed %#x step %llu: popped (t=%lld seq=%llu key=%u gen=%u), reference "
			 "(t=%lld seq=%llu key=%u gen=%u)", SEED, (unsigned long long)step,
			 (long long)a->t, (unsigned long long)a->seq, a->key, a->gen,
			 (long long)b->t, (unsigned long long)b->seq, b->key, b->gen);
}

/* One random operation on @e and @r: an unkeyed push, a keyed push (which
 * replaces), a cancel, or a pop (with a random limit). */
static void keyed_step(struct engine *e, struct ref *r, uint64_t *x, uint64_t step)
{
	uint64_t op = splitmix64(x) % 10;
	uint32_t key = (uint32_t)(1 + splitmix64(x) % (KEYS - 1));
	int64_t t = e->now + (int64_t)(splitmix64(x) % 40);
	struct event ev, want;
	long i;

	if (op < 2 || (op < 5 && r->n > 3000)) { /* unkeyed push */
		want = (struct event){ .t = t, .seq = e->seq, .kind = 1, .obj = 7, .gen = (uint32_t)step };
		push_ok(e, t, 1, 7, (uint32_t)step);
		ref_insert(r, &want);
	} else if (op < 6) { /* keyed push */
		want = (struct event){ .t = t, .seq = e->seq, .kind = 2, .obj = (uint16_t)key,
				       .gen = (uint32_t)step, .key = key };
		assert_int_equal(engine_push_key(e, t, 2, (uint16_t)key, (uint32_t)step, key), 0);
		if ((i = ref_find(r, key)) >= 0)
			ref_remove(r, (size_t)i);
		ref_insert(r, &want);
	} else if (op < 7) { /* cancel */
		engine_cancel(e, key);
		if ((i = ref_find(r, key)) >= 0)
			ref_remove(r, (size_t)i);
	} else { /* pop, the limit sometimes before the earliest */
		int64_t limit = e->now + (int64_t)(splitmix64(x) % 30);
		int rc = engine_pop(e, limit, &ev);

		if (r->n == 0 || r->ev[0].t > limit) {
			if (rc != -1)
				fail_msg("seed %#x step %llu: pop past the limit", SEED,
					 (unsigned long long)step);
		} else {
			assert_int_equal(rc, 0);
			expect_same(&ev, &r->ev[0], step);
			ref_remove(r, 0);
		}
	}
	if (e->n != r->n)
		fail_msg("seed %#x step %llu: %zu pending, reference %zu", SEED,
			 (unsigned long long)step, e->n, r->n);
	check_pos(e, step);
}

/* 200000 random operations on 8 keys: every pop is the reference's first,
 * pos[] always agrees with the heap, and replacing counts as a cancel. */
static void test_keyed_random(void **state)
{
	static struct ref r;
	struct engine e;
	struct event ev;
	uint64_t x = SEED + 2;

	(void)state;
	r.n = 0;
	assert_int_equal(engine_init(&e, 2), 0);
	for (uint64_t step = 0; step < 200000; step++)
		keyed_step(&e, &r, &x, step);
	while (engine_pop(&e, INT64_MAX, &ev) == 0) {
		expect_same(&ev, &r.ev[0], 0);
		ref_remove(&r, 0);
	}
	assert_int_equal(r.n, 0);
	assert_true(e.cancelled > 10000);
	engine_free(&e);
}

/* Keyed replace is exactly lazy deletion: one engine replaces and cancels
 * in place; the other, in its lazy mode (engine.lazy, the slow path),
 * keeps every event and the loop drops, at pop, those whose key has been
 * pushed again or cancelled since (the generation check of the models'
 * handlers).  The live events pop in the same order, with the same times
 * and seqs, and the lazy engine's stale counts the dropped ones. */
static void test_keyed_as_lazy(void **state)
{
	struct engine a, b;
	uint32_t gen[KEYS] = { 0 };
	uint64_t x = SEED + 3, live = 0, dropped = 0;
	struct event ea, eb;

	(void)state;
	assert_int_equal(engine_init(&a, 4), 0);
	assert_int_equal(engine_init(&b, 4), 0);
	b.lazy = true;
	for (uint64_t step = 0; step < 100000; step++) {
		uint64_t op = splitmix64(&x) % 4;
		uint16_t key = (uint16_t)(1 + splitmix64(&x) % (KEYS - 1));
		/* b may have popped stale events past a's now */
		int64_t now = a.now > b.now ? a.now : b.now;
		int64_t t = now + (int64_t)(splitmix64(&x) % 25), limit = now + 10;
		int ra, rb;

		if (op == 0) {
			assert_int_equal(engine_push_key(&a, t, 2, key, ++gen[key], key), 0);
			assert_int_equal(engine_push_key(&b, t, 2, key, gen[key], key), 0);
			continue;
		}
		if (op == 1) {
			engine_cancel(&a, key);
			engine_cancel(&b, key);
			gen[key]++;
			continue;
		}
		ra = engine_pop(&a, limit, &ea);
		while ((rb = engine_pop(&b, limit, &eb)) == 0 && eb.gen != gen[eb.obj])
			dropped++; /* stale: its handler would ignore it */
		if (ra != rb || (ra == 0 && (ea.t != eb.t || ea.seq != eb.seq || ea.obj != eb.obj ||
					     ea.gen != eb.gen)))
			fail_msg("seed %#x step %llu: in place %d (t=%lld seq=%llu), lazy %d "
				 "(t=%lld seq=%llu)", SEED + 3, (unsigned long long)step, ra,
				 (long long)ea.t, (unsigned long long)ea.seq, rb, (long long)eb.t,
				 (unsigned long long)eb.seq);
		live += ra == 0;
	}
	assert_true(live > 10000);
	assert_true(dropped > 1000);
	assert_int_equal(b.stale, dropped);
	assert_int_equal(b.handled - b.stale, a.handled);
	assert_int_equal(a.stale, 0);
	engine_free(&a);
	engine_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_state),
		cmocka_unit_test(test_time_order),
		cmocka_unit_test(test_equal_times_fifo),
		cmocka_unit_test(test_pop_limit),
		cmocka_unit_test(test_push_past_rejected),
		cmocka_unit_test(test_grow_random),
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_handled),
		cmocka_unit_test(test_keyed_random),
		cmocka_unit_test(test_keyed_as_lazy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
