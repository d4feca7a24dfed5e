/* rss.h - receive side scaling: which RX queue, and which RPS CPU, a frame
 * goes to (pure; see docs/rss.md).
 *
 * The chain a NIC and the kernel apply to one frame:
 *   hash  = Toeplitz(key, saddr daddr sport dport)      NIC, per frame
 *   queue = indir[hash % indir_size]                    NIC (ethtool -x / -X)
 *   cpu   = rps_map[reciprocal_scale(hash, len)]        kernel, get_rps_cpu()
 *           (only when /sys/class/net/DEV/queues/rx-N/rps_cpus is non-zero)
 * Every function here is a pure computation on its arguments.
 */
#ifndef RXLAB_RXLAB_RSS_H
#define RXLAB_RXLAB_RSS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RSS_KEY_LEN 40        /* bytes: 320-bit key, 10 RSSRK registers on ixgbe */
#define RSS_INDIR_DEFAULT 128 /* entries: igb/ixgbe RETA, scaling.rst's "most common" */
#define RSS_INDIR_MAX 512     /* entries: i40e PF and ixgbe X550 tables */

/*
 * The Microsoft RSS verification key (6d 5a 56 da ...).  Linux's default is
 * netdev_rss_key: 52 random bytes filled once per boot (net_get_random_once),
 * so a simulator using it would hash differently on every run.  This key is
 * fixed, published with test vectors ("Verifying the RSS Hash Calculation",
 * Microsoft WDK) and also appears in igb_setup_mrqc and DPDK, so queue
 * assignments are reproducible and can be checked against a real NIC
 * programmed with it (ethtool -X DEV hkey 6d:5a:...).
 */
extern const uint8_t rss_default_key[RSS_KEY_LEN];

/* An IPv4 flow as a NIC sees it on receive; host byte order. */
struct rss_tuple {
	uint32_t saddr, daddr; /* source (client) and destination (this host) */
	uint16_t sport, dport; /* TCP/UDP ports */
};

/*
 * Toeplitz hash of @len bytes of @data with @key: for every input bit that
 * is 1, left to right from the MSB of data[0], XOR in the 32 key bits that
 * start at that bit's position.  Needs key_len >= len + 4 (the last input
 * bit uses key bits 8*len-1 .. 8*len+30); returns 0 when it is shorter.
 */
uint32_t rss_toeplitz(const uint8_t *key, size_t key_len, const uint8_t *data,
		      size_t len);

/*
 * The hash a NIC computes for an IPv4 frame: Toeplitz over saddr, daddr,
 * sport, dport in network order (@l4 true: the TCP/UDP 4-tuple, 12 bytes;
 * false: the 2-tuple of addresses only, 8 bytes, as for fragments or when
 * ethtool -N DEV rx-flow-hash udp4 sd).
 */
uint32_t rss_hash_v4(const uint8_t key[RSS_KEY_LEN], const struct rss_tuple *t,
		     bool l4);

/*
 * ethtool -X DEV equal N: entry i -> queue i % n, the kernel's
 * ethtool_rxfh_indir_default() and what drivers program at probe.
 * 0, or -1 (n == 0, size outside 1..RSS_INDIR_MAX; @tbl untouched).
 */
int rss_indir_equal(uint32_t *tbl, uint32_t size, uint32_t n);

/*
 * ethtool -X DEV weight W0 W1 ...: as ethtool's fill_indir_table() fills
 * it.  Queue j gets the entries i with
 *   size * (W0 + .. + W(j-1)) / sum  <=  i  <  size * (W0 + .. + Wj) / sum
 * (integer division), i.e. contiguous runs in queue order, a queue of
 * weight 0 none.  0, or -1 (n == 0, all weights 0, sum of weights > size
 * -- ethtool refuses it too --, size outside 1..RSS_INDIR_MAX).
 */
int rss_indir_weight(uint32_t *tbl, uint32_t size, const uint32_t *weight,
		     uint32_t n);

/*
 * The queue of @hash: tbl[hash % size].  Hardware indexes with the low bits
 * of the hash (82599/I210 datasheets: the 7 LSBs for the 128-entry RETA;
 * virtio-net: hash & indirection_table_mask), and every real table size is
 * a power of two, where hash % size == hash & (size - 1).  The modulo keeps
 * other sizes defined.  size > 0.
 */
uint32_t rss_queue(const uint32_t *tbl, uint32_t size, uint32_t hash);

/*
 * RPS: the CPU get_rps_cpu() picks from the rps_map of @len CPUs (the set
 * bits of rps_cpus, in CPU order) for @hash:
 * map[reciprocal_scale(hash, len)] = map[(hash * len) >> 32].  It uses the
 * HIGH bits of the hash, so it is not correlated with the RSS queue, which
 * uses the low bits.  len > 0.
 */
uint16_t rss_rps_cpu(const uint16_t *map, uint32_t len, uint32_t hash);

/*
 * The tuple of flow @i of a traffic source: client 10.0.0.0/8 -> this host
 * 192.168.0.1:@dport.  Like a load generator opening many connections from
 * few hosts, each client uses RSS_FLOW_PORTS ephemeral ports (Linux's
 * ip_local_port_range 32768..60999) before the next address is taken:
 *   saddr = 10.0.0.1 + i / RSS_FLOW_PORTS, sport = 32768 + i % RSS_FLOW_PORTS
 * Distinct i give distinct tuples for every uint32_t i (the largest saddr
 * is 10.2.82.x).
 */
#define RSS_FLOW_PORTS 28232u
#define RSS_FLOW_SPORT0 32768u
#define RSS_FLOW_SADDR0 0x0a000001u /* 10.0.0.1 */
#define RSS_FLOW_DADDR 0xc0a80001u  /* 192.168.0.1 */
void rss_flow_tuple(uint32_t i, uint16_t dport, struct rss_tuple *t);

#endif
