/* rss.c - Toeplitz hash, indirection table, RPS map (see include/rxlab/rss.h).
 *
 * Sources: Microsoft WDK "RSS Hashing Functions" and "Verifying the RSS Hash
 * Calculation" (algorithm, key, vectors); ethtool.c fill_indir_table()
 * (-X equal / weight); include/linux/ethtool.h ethtool_rxfh_indir_default();
 * net/core/dev.c get_rps_cpu() and include/linux/kernel.h reciprocal_scale().
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rxlab/rss.h"

const uint8_t rss_default_key[RSS_KEY_LEN] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

/*
 * @win holds key bits [8*b, 8*b + 32) on entry for input byte b; bit k of
 * the byte (MSB first) uses the window shifted left by k, with the low bits
 * filled from the next key byte.
 */
static uint32_t toeplitz_byte(uint32_t win, uint8_t next_key, uint8_t in)
{
	uint32_t h = 0;
	int k;

	for (k = 0; k < 8; k++) {
		if (in & (0x80u >> k))
			h ^= win;
		win = (win << 1) | ((uint32_t)(next_key >> (7 - k)) & 1u);
	}
	return h;
}

uint32_t rss_toeplitz(const uint8_t *key, size_t key_len, const uint8_t *data,
		      size_t len)
{
	uint32_t h = 0, win;
	size_t b;

	if (key_len < 4 || key_len - 4 < len)	/* contract violation */
		return 0;
	win = (uint32_t)key[0] << 24 | (uint32_t)key[1] << 16 |
	      (uint32_t)key[2] << 8 | key[3];
	for (b = 0; b < len; b++) {
		h ^= toeplitz_byte(win, key[b + 4], data[b]);
		win = (win << 8) | key[b + 4];
	}
	return h;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

uint32_t rss_hash_v4(const uint8_t key[RSS_KEY_LEN], const struct rss_tuple *t,
		     bool l4)
{
	uint8_t in[12];

	put_be32(in, t->saddr);
	put_be32(in + 4, t->daddr);
	put_be32(in + 8, (uint32_t)t->sport << 16 | t->dport);
	return rss_toeplitz(key, RSS_KEY_LEN, in, l4 ? 12 : 8);
}

static bool indir_size_ok(uint32_t size)
{
	return size >= 1 && size <= RSS_INDIR_MAX;
}

int rss_indir_equal(uint32_t *tbl, uint32_t size, uint32_t n)
{
	uint32_t i;

	if (n == 0 || !indir_size_ok(size))
		return -1;
	for (i = 0; i < size; i++)
		tbl[i] = i % n;
	return 0;
}

/*
 * ethtool's loop: before entry i, advance to the next queue j while
 * i >= size * partial / sum, where partial is the weight of queues 0..j.
 * A zero weight leaves partial unchanged, so that queue is skipped at once.
 * The sums are 64-bit so that huge weights cannot wrap into a small sum.
 */
int rss_indir_weight(uint32_t *tbl, uint32_t size, const uint32_t *weight,
		     uint32_t n)
{
	uint64_t sum = 0, partial = 0;
	uint32_t i, j;

	if (n == 0 || !indir_size_ok(size))
		return -1;
	for (j = 0; j < n; j++)
		sum += weight[j];
	if (sum == 0 || sum > size)
		return -1;
	for (i = 0, j = 0; i < size; i++) {
		while (i >= size * partial / sum)
			partial += weight[j++];
		tbl[i] = j - 1;
	}
	return 0;
}

uint32_t rss_queue(const uint32_t *tbl, uint32_t size, uint32_t hash)
{
	return tbl[hash % size];
}

/* reciprocal_scale(): maps a 32-bit value into [0, len) with a multiply
 * instead of a division. */
uint16_t rss_rps_cpu(const uint16_t *map, uint32_t len, uint32_t hash)
{
	return map[(uint32_t)(((uint64_t)hash * len) >> 32)];
}

void rss_flow_tuple(uint32_t i, uint16_t dport, struct rss_tuple *t)
{
	t->saddr = RSS_FLOW_SADDR0 + i / RSS_FLOW_PORTS;
	t->daddr = RSS_FLOW_DADDR;
	t->sport = (uint16_t)(RSS_FLOW_SPORT0 + i % RSS_FLOW_PORTS);
	t->dport = dport;
}
