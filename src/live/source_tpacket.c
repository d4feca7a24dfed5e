/* source_tpacket.c - a TPACKET_V3 receive ring as a packet source (see
 * loop_impl.h for the ops contract; Documentation/networking/packet_mmap.rst).
 *
 * The kernel fills blocks of tp-block-bytes and hands a block to userspace
 * (TP_STATUS_USER) when it is full or tp-block-timeout ms after its first
 * packet (retire_blk_tov), and the socket becomes readable then.  poll()
 * walks the frames of ready blocks in order; release() gives back every
 * block walked to its end (TP_STATUS_KERNEL).  A block walked only in
 * part stays with userspace until a later poll finishes it.
 * Outgoing packets are ignored (PACKET_IGNORE_OUTGOING), so on loopback
 * each packet is seen once. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "live/loop_impl.h"

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23
#endif

#define TP_FRAME_BYTES 2048u

struct tp_source {
	struct rxl_source base;
	uint8_t *ring;
	size_t ring_bytes;
	uint32_t block_bytes, nblocks;
	uint32_t cur;          /* block being walked */
	uint32_t left;         /* packets of cur not yet handed out; 0 = cur not started */
	const struct tpacket3_hdr *next; /* next packet of cur */
	uint32_t done_from;    /* first block walked to its end and not released */
	uint32_t done_count;   /* how many blocks from done_from */
	uint64_t drops;        /* tp_drops summed (reading PACKET_STATISTICS resets it) */
};

static struct tpacket_block_desc *block(struct tp_source *t, uint32_t i)
{
	return (struct tpacket_block_desc *)(t->ring + (size_t)i * t->block_bytes);
}

static bool block_ready(struct tp_source *t, uint32_t i)
{
	uint32_t st = __atomic_load_n(&block(t, i)->hdr.bh1.block_status, __ATOMIC_ACQUIRE);
	return (st & TP_STATUS_USER) != 0;
}

static int tp_poll(struct rxl_source *s, struct rxl_pkt *pkts, uint32_t max)
{
	struct tp_source *t = (struct tp_source *)s;
	uint32_t n = 0;
	while (n < max) {
		if (t->left == 0) {
			/* every block may be walked but unreleased: then wait */
			if (t->done_count == t->nblocks || !block_ready(t, t->cur))
				break;
			struct tpacket_block_desc *b = block(t, t->cur);
			t->left = b->hdr.bh1.num_pkts;
			t->next = (const struct tpacket3_hdr *)((uint8_t *)b + b->hdr.bh1.offset_to_first_pkt);
			if (t->left == 0)
				goto block_end;
		}
		const struct tpacket3_hdr *h = t->next;
		pkts[n].data = (const uint8_t *)h + h->tp_mac;
		pkts[n].len = h->tp_snaplen;
		pkts[n].src = NULL;
		pkts[n].src_len = 0;
		n++;
		t->next = (const struct tpacket3_hdr *)((const uint8_t *)h + h->tp_next_offset);
		if (--t->left > 0)
			continue;
block_end:
		if (t->done_count == 0)
			t->done_from = t->cur;
		t->done_count++;
		t->cur = (t->cur + 1) % t->nblocks;
	}
	int64_t now = rxl_now();
	for (uint32_t i = 0; i < n; i++)
		pkts[i].rx_ns = (uint64_t)now;
	return (int)n;
}

static void tp_release(struct rxl_source *s)
{
	struct tp_source *t = (struct tp_source *)s;
	for (uint32_t k = 0; k < t->done_count; k++) {
		struct tpacket_block_desc *b = block(t, (t->done_from + k) % t->nblocks);
		__atomic_store_n(&b->hdr.bh1.block_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
	}
	t->done_count = 0;
}

static uint64_t tp_drops(struct rxl_source *s)
{
	struct tp_source *t = (struct tp_source *)s;
	struct tpacket_stats_v3 st;
	socklen_t len = sizeof st;
	if (getsockopt(s->fd, SOL_PACKET, PACKET_STATISTICS, &st, &len) == 0)
		t->drops += st.tp_drops;
	return t->drops;
}

static void tp_close(struct rxl_source *s)
{
	struct tp_source *t = (struct tp_source *)s;
	if (t->ring && t->ring != MAP_FAILED)
		munmap(t->ring, t->ring_bytes);
	if (s->fd >= 0)
		close(s->fd);
	free(t);
}

static const struct rxl_source_ops tp_ops = {
	.name = "tpacket", .poll = tp_poll, .release = tp_release, .drops = tp_drops,
	.close = tp_close,
};

static int tp_setup(struct tp_source *t, int ifindex, const struct rxl_config *c)
{
	int fd = t->base.fd, v3 = TPACKET_V3, one = 1;
	struct tpacket_req3 req = {
		.tp_block_size = c->tp_block_bytes, .tp_block_nr = c->tp_blocks,
		.tp_frame_size = TP_FRAME_BYTES,
		.tp_frame_nr = (c->tp_block_bytes / TP_FRAME_BYTES) * c->tp_blocks,
		.tp_retire_blk_tov = c->tp_block_timeout_ms,
	};
	if (setsockopt(fd, SOL_PACKET, PACKET_VERSION, &v3, sizeof v3) ||
	    setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof one) ||
	    setsockopt(fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof req))
		return -errno;
	t->block_bytes = c->tp_block_bytes;
	t->nblocks = c->tp_blocks;
	t->ring_bytes = (size_t)c->tp_block_bytes * c->tp_blocks;
	t->ring = mmap(NULL, t->ring_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_LOCKED, fd, 0);
	if (t->ring == MAP_FAILED)
		t->ring = mmap(NULL, t->ring_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (t->ring == MAP_FAILED)
		return -errno;
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL),
				   .sll_ifindex = ifindex };
	if (bind(fd, (struct sockaddr *)&sll, sizeof sll))
		return -errno;
	return 0;
}

struct rxl_source *rxl_source_tpacket(int ifindex, const struct rxl_config *c, char *err,
				      size_t errlen)
{
	if (c->tp_block_bytes < TP_FRAME_BYTES) {
		snprintf(err, errlen, "tp-block-bytes: %u below the frame size %u", c->tp_block_bytes,
			 TP_FRAME_BYTES);
		return NULL;
	}
	struct tp_source *t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "TPACKET_V3 source: out of memory");
		return NULL;
	}
	t->base = (struct rxl_source){ .ops = &tp_ops, .slots = rxl_source_slots(c), .frames = true };
	t->base.fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
	int rc = t->base.fd < 0 ? -errno : tp_setup(t, ifindex, c);
	if (rc) {
		snprintf(err, errlen, "TPACKET_V3 ring on ifindex %d: %s%s", ifindex, strerror(-rc),
			 rc == -EPERM ? " (needs CAP_NET_RAW)" : "");
		tp_close(&t->base);
		return NULL;
	}
	return &t->base;
}
