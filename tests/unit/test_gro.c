/* test_gro.c - GRO merge counts and flush instants, computed by hand.
 *
 * Segments are IPv4 + TCP with timestamps: hdr 52 bytes (20 + 32), payload
 * 1448 (a 1518-byte wire frame: 14 + 52 + 1448 + 4 FCS).  gro_max_size
 * 65536, gro_normal_batch 8.
 *
 * The skb size rule is skb_gro_receive()'s "p->len + len >= gro_max_size
 * -> -E2BIG", with p->len = 52 + n * 1448 after n segments: segment n + 1
 * merges while 52 + (n + 1) * 1448 < 65536, i.e. n + 1 <= 45
 * (45 * 1448 + 52 = 65212; 46 * 1448 + 52 = 66660).  So a full-sized
 * stream makes skbs of 45 segments (65160 payload bytes, what tcpdump
 * shows as "length 65160" on a GRO receiver), not 44.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rxlab/gro.h"

#define HDR 52
#define MSS 1448

static struct gro_seg seg(uint32_t flow, uint32_t hash, uint32_t payload)
{
	return (struct gro_seg){ .flow = flow, .hash = hash, .hdr = HDR, .payload = payload,
				 .tcp = true, .psh = false };
}

#define C(slot, segs) { GRO_EV_COMPLETE, slot, 1, segs }
#define N1 { GRO_EV_NORMAL, GRO_NO_SLOT, 1, 1 }
#define L(skbs, segs) { GRO_EV_LIST, GRO_NO_SLOT, skbs, segs }

/* @ev holds exactly the @n events @want, in order; then it is emptied. */
static void expect_evs(struct gro_evs *ev, const struct gro_ev *want, uint32_t n)
{
	assert_int_equal(ev->n, n);
	for (uint32_t i = 0; i < n; i++) {
		assert_int_equal(ev->ev[i].kind, want[i].kind);
		assert_int_equal(ev->ev[i].slot, want[i].slot);
		assert_int_equal(ev->ev[i].skbs, want[i].skbs);
		assert_int_equal(ev->ev[i].segs, want[i].segs);
	}
	ev->n = 0;
}

static struct gro_table g;
static struct gro_evs ev;

static void fresh(void)
{
	gro_init(&g, GRO_MAX_SIZE_DEFAULT, GRO_NORMAL_BATCH_DEFAULT);
	ev.n = 0;
}

/* 46 full segments of one flow in one jiffy: 45 merge into slot 0, the
 * 46th does not fit (66660 >= 65536): slot 0 completes with 45 segments,
 * 45 >= 8 hands it to the stack at once, and the 46th is held in slot 1
 * (slot 0 was completed in the same call).  The end of the poll flushes
 * the 1-segment skb: 1 < 8, so it goes up with gro_normal_list(). */
static void test_one_flow_45_per_skb(void **state)
{
	static const struct gro_ev at46[] = { C(0, 45), L(1, 45) };
	static const struct gro_ev end[] = { C(1, 1), L(1, 1) };
	struct gro_seg s = seg(7, 3, MSS);
	struct gro_out o;

	(void)state;
	fresh();
	o = gro_receive(&g, &s, 0, &ev);
	assert_int_equal(o.res, GRO_HELD);
	assert_int_equal(o.slot, 0);
	for (int i = 2; i <= 45; i++) {
		o = gro_receive(&g, &s, 0, &ev);
		assert_int_equal(o.res, GRO_MERGED);
		assert_int_equal(o.slot, 0);
	}
	assert_int_equal(ev.n, 0);
	assert_int_equal(g.b[3].skb[0].len, 65212);
	assert_int_equal(gro_in_flight(&g), 45);
	o = gro_receive(&g, &s, 0, &ev);
	assert_int_equal(o.res, GRO_HELD);
	assert_int_equal(o.slot, 1);
	expect_evs(&ev, at46, 2);
	gro_flush(&g, false, 0, &ev);
	expect_evs(&ev, end, 2);
	assert_int_equal(gro_in_flight(&g), 0);
	/* the bound the simulator sizes its slot storage with */
	assert_int_equal(gro_max_segs(65536, MSS), 46);
}

/* Two flows in different buckets (hash 1 and 2), alternating, 10 each:
 * nothing completes until the flush, which goes bucket by bucket: flow
 * A (bucket 1) then B (bucket 2), each 10 >= 8 so each is its own list. */
static void test_interleaved_flows(void **state)
{
	static const struct gro_ev end[] = { C(0, 10), L(1, 10), C(1, 10), L(1, 10) };
	struct gro_seg a = seg(1, 1, MSS), b = seg(2, 2, MSS);

	(void)state;
	fresh();
	for (int i = 0; i < 10; i++) {
		gro_receive(&g, &a, 0, &ev);
		gro_receive(&g, &b, 0, &ev);
	}
	assert_int_equal(ev.n, 0);
	assert_int_equal(g.held_skbs, 2);
	gro_flush(&g, false, 0, &ev);
	expect_evs(&ev, end, 4);
}

/* Same bucket, two flows (hash 1 and 9: 9 & 7 = 1), 3 segments each, then
 * flow B first held: the flush completes the bucket oldest first, A then
 * B; 3 + 3 = 6 < 8, so one list of 2 skbs at the end. */
static void test_same_bucket_oldest_first(void **state)
{
	static const struct gro_ev end[] = { C(0, 3), C(1, 3), L(2, 6) };
	struct gro_seg a = seg(1, 1, MSS), b = seg(2, 9, MSS);

	(void)state;
	fresh();
	gro_receive(&g, &a, 0, &ev);
	gro_receive(&g, &b, 0, &ev);
	gro_receive(&g, &b, 0, &ev);
	gro_receive(&g, &a, 0, &ev);
	gro_receive(&g, &a, 0, &ev);
	gro_receive(&g, &b, 0, &ev);
	assert_int_equal(g.b[1].n, 2);
	gro_flush(&g, false, 0, &ev);
	expect_evs(&ev, end, 3);
}

/* 3 full segments and a 1000-byte one: the short one merges and flushes
 * (out_check_final: len < mss); 4 < 8 stays on the normal list until
 * gro_normal_list(). */
static void test_short_segment_flushes(void **state)
{
	static const struct gro_ev at4[] = { C(0, 4) };
	static const struct gro_ev end[] = { L(1, 4) };
	struct gro_seg s = seg(1, 0, MSS), t = seg(1, 0, 1000);
	struct gro_out o;

	(void)state;
	fresh();
	for (int i = 0; i < 3; i++)
		gro_receive(&g, &s, 0, &ev);
	o = gro_receive(&g, &t, 0, &ev);
	assert_int_equal(o.res, GRO_MERGED);
	assert_int_equal(o.slot, 0);
	expect_evs(&ev, at4, 1);
	assert_int_equal(g.held_skbs, 0);
	assert_int_equal(gro_in_flight(&g), 4);
	gro_normal_list(&g, &ev);
	expect_evs(&ev, end, 1);
	gro_normal_list(&g, &ev); /* empty: nothing */
	assert_int_equal(ev.n, 0);
}

/* PSH merges and flushes; a PSH segment with no held skb of its flow goes
 * GRO_NORMAL; a segment larger than the held skb's mss completes it and
 * is held anew. */
static void test_psh_and_larger_segment(void **state)
{
	static const struct gro_ev psh3[] = { C(0, 3) };
	static const struct gro_ev lone[] = { N1 };
	static const struct gro_ev big[] = { C(0, 1) };
	struct gro_seg s = seg(1, 0, MSS), p = seg(1, 0, MSS), small = seg(2, 0, 1000);
	struct gro_out o;

	(void)state;
	fresh();
	p.psh = true;
	gro_receive(&g, &s, 0, &ev);
	gro_receive(&g, &s, 0, &ev);
	o = gro_receive(&g, &p, 0, &ev);
	assert_int_equal(o.res, GRO_MERGED);
	expect_evs(&ev, psh3, 1);
	o = gro_receive(&g, &p, 0, &ev);
	assert_int_equal(o.res, GRO_NORMAL);
	expect_evs(&ev, lone, 1);
	assert_int_equal(g.rx_count, 4);
	/* flow 2 held at 1000 bytes (mss 1000), then a 1448-byte segment */
	gro_receive(&g, &small, 0, &ev);
	small.payload = MSS;
	o = gro_receive(&g, &small, 0, &ev);
	assert_int_equal(o.res, GRO_HELD);
	assert_int_equal(o.slot, 1);
	expect_evs(&ev, big, 1);
}

/* Nine flows in bucket 0 (hash 0, 8, .. 64), one segment each: the ninth
 * finds 8 held, so the oldest (flow 0, slot 0) completes first, and the
 * new one takes slot 8 (slot 0 was completed in this call). */
static void test_bucket_overflow_evicts_oldest(void **state)
{
	static const struct gro_ev at9[] = { C(0, 1) };
	struct gro_out o;

	(void)state;
	fresh();
	for (uint32_t f = 0; f < 8; f++) {
		struct gro_seg s = seg(f, 8 * f, MSS);

		o = gro_receive(&g, &s, 0, &ev);
		assert_int_equal(o.slot, f);
	}
	assert_int_equal(ev.n, 0);
	struct gro_seg s = seg(8, 64, MSS);
	o = gro_receive(&g, &s, 0, &ev);
	assert_int_equal(o.res, GRO_HELD);
	assert_int_equal(o.slot, 8);
	expect_evs(&ev, at9, 1);
	assert_int_equal(g.b[0].n, 8);
	assert_int_equal(g.b[0].skb[0].flow, 1);
	assert_int_equal(g.b[0].skb[7].flow, 8);
	assert_int_equal(g.rx_count, 1);
}

/* flush_old (napi_complete_done with gro_flush_timeout, or a full budget
 * with HZ >= 1000) completes only skbs held before this jiffy: A (jiffy 5)
 * goes, B (jiffy 6) stays; a plain flush at jiffy 6 takes B too. */
static void test_flush_old_keeps_this_jiffy(void **state)
{
	static const struct gro_ev old[] = { C(0, 2), L(1, 2) };
	static const struct gro_ev all[] = { C(1, 1), L(1, 1) };
	struct gro_seg a = seg(1, 1, MSS), b = seg(2, 2, MSS);

	(void)state;
	fresh();
	gro_receive(&g, &a, 5, &ev);
	gro_receive(&g, &a, 6, &ev); /* merged: the skb keeps age 5 */
	gro_receive(&g, &b, 6, &ev);
	gro_flush(&g, true, 6, &ev);
	expect_evs(&ev, old, 2);
	assert_int_equal(g.held_skbs, 1);
	gro_flush(&g, true, 6, &ev);
	assert_int_equal(ev.n, 0);
	gro_flush(&g, false, 6, &ev);
	expect_evs(&ev, all, 2);
}

/* Non-TCP frames go GRO_NORMAL; the normal list goes up every 8 segments
 * (gro_normal_batch), and a batch of 1 hands each skb up alone. */
static void test_normal_batch(void **state)
{
	static const struct gro_ev eighth[] = { N1, L(8, 8) };
	struct gro_seg u = seg(1, 0, 1000);

	(void)state;
	fresh();
	u.tcp = false;
	for (int i = 0; i < 7; i++) {
		struct gro_out o = gro_receive(&g, &u, 0, &ev);

		assert_int_equal(o.res, GRO_NORMAL);
	}
	assert_int_equal(ev.n, 7);
	ev.n = 0;
	gro_receive(&g, &u, 0, &ev);
	expect_evs(&ev, eighth, 2);
	gro_init(&g, GRO_MAX_SIZE_DEFAULT, 1);
	gro_receive(&g, &u, 0, &ev);
	assert_int_equal(ev.n, 2);
	assert_int_equal(ev.ev[1].kind, GRO_EV_LIST);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_flow_45_per_skb),
		cmocka_unit_test(test_interleaved_flows),
		cmocka_unit_test(test_same_bucket_oldest_first),
		cmocka_unit_test(test_short_segment_flushes),
		cmocka_unit_test(test_psh_and_larger_segment),
		cmocka_unit_test(test_bucket_overflow_evicts_oldest),
		cmocka_unit_test(test_flush_old_keeps_this_jiffy),
		cmocka_unit_test(test_normal_batch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
