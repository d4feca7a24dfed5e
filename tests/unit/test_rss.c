/* test_rss.c - Toeplitz hash, indirection table, RPS map, flow tuples.
 *
 * Hash vectors: Microsoft WDK, "Verifying the RSS Hash Calculation"
 * (https://learn.microsoft.com/windows-hardware/drivers/network/
 * verifying-the-rss-hash-calculation), the IPv4 table, with the key that
 * page gives (rss_default_key).  Table fills: ethtool.c fill_indir_table(),
 * worked by hand below.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rxlab/rss.h"

#define IP4(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

struct ms_vector {
	struct rss_tuple t;
	uint32_t hash_ip, hash_tcp; /* "IPv4 only", "IPv4 with TCP" */
};

/* The page lists destination first; here source first, as hashed. */
static const struct ms_vector ms_v4[] = {
	{ { IP4(66, 9, 149, 187), IP4(161, 142, 100, 80), 2794, 1766 }, 0x323e8fc2, 0x51ccc178 },
	{ { IP4(199, 92, 111, 2), IP4(65, 69, 140, 83), 14230, 4739 }, 0xd718262a, 0xc626b0ea },
	{ { IP4(24, 19, 198, 95), IP4(12, 22, 207, 184), 12898, 38024 }, 0xd2d0a5de, 0x5c2b394a },
	{ { IP4(38, 27, 205, 30), IP4(209, 142, 163, 6), 48228, 2217 }, 0x82989176, 0xafc7327f },
	{ { IP4(153, 39, 163, 191), IP4(202, 188, 127, 2), 44251, 1303 }, 0x5d1809c5, 0x10e828a2 },
};

static void test_hash_v4_microsoft_vectors(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ms_v4) / sizeof(ms_v4[0]); i++) {
		assert_int_equal(rss_hash_v4(rss_default_key, &ms_v4[i].t, true), ms_v4[i].hash_tcp);
		assert_int_equal(rss_hash_v4(rss_default_key, &ms_v4[i].t, false), ms_v4[i].hash_ip);
	}
}

/* By the definition: input 0x80 (only bit 0 set) XORs in key bits 0..31;
 * 0x01 (bit 7) key bits 7..38.  A key shorter than len + 4 gives 0. */
static void test_toeplitz_single_bits(void **state)
{
	static const uint8_t key[5] = { 0x12, 0x34, 0x56, 0x78, 0x9a };
	uint8_t in = 0x80;

	(void)state;
	assert_int_equal(rss_toeplitz(key, 5, &in, 1), 0x12345678);
	in = 0x01;	/* 0x123456789a << 7, low 32 bits of the top 39 */
	assert_int_equal(rss_toeplitz(key, 5, &in, 1), (uint32_t)(0x123456789aull >> 1));
	in = 0x81;
	assert_int_equal(rss_toeplitz(key, 5, &in, 1), 0x12345678u ^ (uint32_t)(0x123456789aull >> 1));
	assert_int_equal(rss_toeplitz(key, 4, &in, 1), 0);
}

static void count_queues(const uint32_t *tbl, uint32_t size, uint32_t *count, uint32_t n)
{
	uint32_t i;

	memset(count, 0, n * sizeof(*count));
	for (i = 0; i < size; i++) {
		assert_true(tbl[i] < n);
		count[tbl[i]]++;
	}
}

static void test_indir_equal(void **state)
{
	uint32_t tbl[RSS_INDIR_DEFAULT], count[4];

	(void)state;
	assert_int_equal(rss_indir_equal(tbl, RSS_INDIR_DEFAULT, 4), 0);
	assert_int_equal(tbl[0], 0);
	assert_int_equal(tbl[5], 1);
	assert_int_equal(tbl[127], 3);
	count_queues(tbl, RSS_INDIR_DEFAULT, count, 4);
	assert_int_equal(count[0], 32);
	assert_int_equal(count[3], 32);
	assert_int_equal(rss_indir_equal(tbl, RSS_INDIR_DEFAULT, 0), -1);
	assert_int_equal(rss_indir_equal(tbl, 0, 4), -1);
	assert_int_equal(rss_indir_equal(tbl, RSS_INDIR_MAX + 1, 4), -1);
}

/*
 * weight 1 2 1, size 128, sum 4: queue j starts at 128 * (w0..w(j-1)) / 4,
 * so 0..31 -> 0, 32..95 -> 1, 96..127 -> 2 (32, 64, 32 entries).
 * weight 1 1 1: bounds 128/3 = 42 and 256/3 = 85: 42, 43, 43 entries.
 */
static void test_indir_weight(void **state)
{
	static const uint32_t w121[] = { 1, 2, 1 }, w111[] = { 1, 1, 1 };
	uint32_t tbl[RSS_INDIR_DEFAULT], count[3];

	(void)state;
	assert_int_equal(rss_indir_weight(tbl, RSS_INDIR_DEFAULT, w121, 3), 0);
	count_queues(tbl, RSS_INDIR_DEFAULT, count, 3);
	assert_int_equal(count[0], 32);
	assert_int_equal(count[1], 64);
	assert_int_equal(count[2], 32);
	assert_int_equal(tbl[31], 0);
	assert_int_equal(tbl[32], 1);
	assert_int_equal(tbl[95], 1);
	assert_int_equal(tbl[96], 2);
	assert_int_equal(rss_indir_weight(tbl, RSS_INDIR_DEFAULT, w111, 3), 0);
	count_queues(tbl, RSS_INDIR_DEFAULT, count, 3);
	assert_int_equal(count[0], 42);
	assert_int_equal(count[1], 43);
	assert_int_equal(count[2], 43);
}

/*
 * weight 0 1 0 3, size 128, sum 4: queue 0 is skipped at i = 0 (bound
 * 0), queue 1 takes 0..31, queue 2's bound is again 32 so it is skipped,
 * queue 3 takes 32..127.
 */
static void test_indir_weight_zero(void **state)
{
	static const uint32_t w[] = { 0, 1, 0, 3 }, zero[] = { 0, 0 };
	static const uint32_t big[] = { 0x80000000u, 0x80000000u };
	uint32_t tbl[RSS_INDIR_DEFAULT], count[4];

	(void)state;
	assert_int_equal(rss_indir_weight(tbl, RSS_INDIR_DEFAULT, w, 4), 0);
	count_queues(tbl, RSS_INDIR_DEFAULT, count, 4);
	assert_int_equal(count[0], 0);
	assert_int_equal(count[1], 32);
	assert_int_equal(count[2], 0);
	assert_int_equal(count[3], 96);
	assert_int_equal(tbl[0], 1);
	assert_int_equal(tbl[32], 3);
	assert_int_equal(rss_indir_weight(tbl, RSS_INDIR_DEFAULT, zero, 2), -1);
	assert_int_equal(rss_indir_weight(tbl, RSS_INDIR_DEFAULT, w, 0), -1);
	/* sum 2^32 would wrap to 0 in 32 bits; it exceeds the table */
	assert_int_equal(rss_indir_weight(tbl, RSS_INDIR_DEFAULT, big, 2), -1);
	assert_int_equal(rss_indir_weight(tbl, 2, w, 4), -1);	/* sum 4 > 2 */
}

/* Queue = tbl[low bits]: 0x51ccc178 & 127 = 0x78 = 120 -> 120 % 4 = 0;
 * 0xc626b0ea & 127 = 0x6a = 106 -> 2.  A 5-entry table: 0x51ccc178 =
 * 1372373368, mod 5 = 3. */
static void test_queue(void **state)
{
	uint32_t tbl[RSS_INDIR_DEFAULT], five[5] = { 10, 11, 12, 13, 14 };

	(void)state;
	assert_int_equal(rss_indir_equal(tbl, RSS_INDIR_DEFAULT, 4), 0);
	tbl[120] = 7;	/* proves the index, not only the queue */
	assert_int_equal(rss_queue(tbl, RSS_INDIR_DEFAULT, 0x51ccc178), 7);
	assert_int_equal(rss_queue(tbl, RSS_INDIR_DEFAULT, 0xc626b0ea), 2);
	assert_int_equal(rss_queue(five, 5, 0x51ccc178), 13);
}

/* reciprocal_scale(hash, 3) = hash * 3 >> 32: 0 -> 0, 0x55555555 -> 0
 * (0xffffffff >> 32), 0x55555556 -> 1, 0xffffffff -> 2.  With 4 CPUs the
 * top two bits choose: 0x51ccc178 (01...) -> map[1]. */
static void test_rps_cpu(void **state)
{
	static const uint16_t map[] = { 4, 5, 6, 7 };

	(void)state;
	assert_int_equal(rss_rps_cpu(map, 3, 0), 4);
	assert_int_equal(rss_rps_cpu(map, 3, 0x55555555u), 4);
	assert_int_equal(rss_rps_cpu(map, 3, 0x55555556u), 5);
	assert_int_equal(rss_rps_cpu(map, 3, 0xffffffffu), 6);
	assert_int_equal(rss_rps_cpu(map, 4, 0x51ccc178u), 5);
	assert_int_equal(rss_rps_cpu(map, 1, 0xffffffffu), 4);
}

static void test_flow_tuple_mapping(void **state)
{
	struct rss_tuple t;

	(void)state;
	rss_flow_tuple(0, 11211, &t);
	assert_int_equal(t.saddr, IP4(10, 0, 0, 1));
	assert_int_equal(t.daddr, IP4(192, 168, 0, 1));
	assert_int_equal(t.sport, 32768);
	assert_int_equal(t.dport, 11211);
	rss_flow_tuple(28231, 11211, &t);
	assert_int_equal(t.saddr, IP4(10, 0, 0, 1));
	assert_int_equal(t.sport, 60999);
	rss_flow_tuple(28232, 11211, &t);
	assert_int_equal(t.saddr, IP4(10, 0, 0, 2));
	assert_int_equal(t.sport, 32768);
	rss_flow_tuple(UINT32_MAX, 11211, &t);	/* the last flow: client 152131, port 32768 + 4903 */
	assert_int_equal(t.saddr, IP4(10, 0, 0, 1) + 152131);
	assert_int_equal(t.sport, 32768 + 4903);
}

static int tuple_cmp(const void *a, const void *b)
{
	const struct rss_tuple *x = a, *y = b;

	if (x->saddr != y->saddr)
		return x->saddr < y->saddr ? -1 : 1;
	if (x->sport != y->sport)
		return x->sport < y->sport ? -1 : 1;
	return 0;
}

#define DISTINCT_FLOWS 100000u

static void test_flow_tuple_distinct(void **state)
{
	struct rss_tuple *t = calloc(DISTINCT_FLOWS, sizeof(*t));
	uint32_t i;

	(void)state;
	assert_non_null(t);
	for (i = 0; i < DISTINCT_FLOWS; i++)
		rss_flow_tuple(i, 11211, &t[i]);
	qsort(t, DISTINCT_FLOWS, sizeof(*t), tuple_cmp);
	for (i = 1; i < DISTINCT_FLOWS; i++)
		assert_true(tuple_cmp(&t[i - 1], &t[i]) != 0);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_v4_microsoft_vectors),
		cmocka_unit_test(test_toeplitz_single_bits),
		cmocka_unit_test(test_indir_equal),
		cmocka_unit_test(test_indir_weight),
		cmocka_unit_test(test_indir_weight_zero),
		cmocka_unit_test(test_queue),
		cmocka_unit_test(test_rps_cpu),
		cmocka_unit_test(test_flow_tuple_mapping),
		cmocka_unit_test(test_flow_tuple_distinct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
