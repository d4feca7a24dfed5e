/* rss.h - receive side scaling: the Toeplitz hash, the indirection table
 * and the RPS map (lead's placeholder; the rss helper's version replaces it). */
#ifndef RXLAB_RXLAB_RSS_H
#define RXLAB_RXLAB_RSS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RSS_KEY_LEN 40
#define RSS_INDIR_DEFAULT 128
#define RSS_INDIR_MAX 512
extern const uint8_t rss_default_key[RSS_KEY_LEN];
struct rss_tuple {
	uint32_t saddr, daddr;
	uint16_t sport, dport;
};
uint32_t rss_toeplitz(const uint8_t *key, size_t key_len, const uint8_t *data, size_t len);
uint32_t rss_hash_v4(const uint8_t key[RSS_KEY_LEN], const struct rss_tuple *t, bool l4);
int rss_indir_equal(uint32_t *tbl, uint32_t size, uint32_t n);
int rss_indir_weight(uint32_t *tbl, uint32_t size, const uint32_t *weight, uint32_t n);
uint32_t rss_queue(const uint32_t *tbl, uint32_t size, uint32_t hash);
uint16_t rss_rps_cpu(const uint16_t *map, uint32_t len, uint32_t hash);
void rss_flow_tuple(uint32_t i, uint16_t dport, struct rss_tuple *t);

#endif
