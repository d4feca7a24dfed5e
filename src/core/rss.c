/* rss.c - lead's placeholder. */
#include "rxlab/rss.h"

const uint8_t rss_default_key[RSS_KEY_LEN] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3,
	0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3,
	0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

uint32_t rss_toeplitz(const uint8_t *key, size_t key_len, const uint8_t *data, size_t len)
{
	uint32_t h = 0, win = (uint32_t)key[0] << 24 | (uint32_t)key[1] << 16 |
			      (uint32_t)key[2] << 8 | key[3];
	size_t kb = 4;

	for (size_t i = 0; i < len; i++) {
		for (int b = 7; b >= 0; b--) {
			if (data[i] >> b & 1)
				h ^= win;
			win <<= 1;
			if (kb < key_len && (key[kb] >> b & 1))
				win |= 1;
		}
		kb++;
	}
	return h;
}

uint32_t rss_hash_v4(const uint8_t key[RSS_KEY_LEN], const struct rss_tuple *t, bool l4)
{
	uint8_t d[12] = {
		(uint8_t)(t->saddr >> 24), (uint8_t)(t->saddr >> 16), (uint8_t)(t->saddr >> 8),
		(uint8_t)t->saddr, (uint8_t)(t->daddr >> 24), (uint8_t)(t->daddr >> 16),
		(uint8_t)(t->daddr >> 8), (uint8_t)t->daddr, (uint8_t)(t->sport >> 8),
		(uint8_t)t->sport, (uint8_t)(t->dport >> 8), (uint8_t)t->dport,
	};

	return rss_toeplitz(key, RSS_KEY_LEN, d, l4 ? 12 : 8);
}

int rss_indir_equal(uint32_t *tbl, uint32_t size, uint32_t n)
{
	if (!n || !size || size > RSS_INDIR_MAX)
		return -1;
	for (uint32_t i = 0; i < size; i++)
		tbl[i] = i % n;
	return 0;
}

int rss_indir_weight(uint32_t *tbl, uint32_t size, const uint32_t *weight, uint32_t n)
{
	uint64_t sum = 0, acc = 0;
	uint32_t j = 0;

	for (uint32_t i = 0; i < n; i++)
		sum += weight[i];
	if (!sum || !size || size > RSS_INDIR_MAX)
		return -1;
	for (uint32_t q = 0; q < n; q++) {
		acc += weight[q];
		for (; j < (uint32_t)((acc * size + sum / 2) / sum) && j < size; j++)
			tbl[j] = q;
	}
	return 0;
}

uint32_t rss_queue(const uint32_t *tbl, uint32_t size, uint32_t hash)
{
	return tbl[hash % size];
}

uint16_t rss_rps_cpu(const uint16_t *map, uint32_t len, uint32_t hash)
{
	return map[((uint64_t)hash * len) >> 32];
}

void rss_flow_tuple(uint32_t i, uint16_t dport, struct rss_tuple *t)
{
	t->saddr = 0x0a000000u | (i / 50000) << 8 | (i / 50000 >> 8) << 16;
	t->saddr = 0x0a000000u + (i / 50000) + 1;
	t->sport = (uint16_t)(10000 + i % 50000);
	t->daddr = 0xc0a80001u;
	t->dport = dport;
}
