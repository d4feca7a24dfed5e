/* payload.h - the rxlab payload header, written by the rxlab sender
 * (sender.c) into the first bytes of every UDP payload and read by the
 * receive loop (loop.c) to count loss and one-way latency exactly.
 *
 * Wire layout, 24 bytes, little-endian whatever the host:
 *   0  u32 magic     RXL_PAYLOAD_MAGIC ("RXL1" read as a little-endian u32)
 *   4  u32 flags     0 for now; receivers ignore unknown bits
 *   8  u64 seq       sequence number, 0 for the first packet of a sender
 *  16  u64 send_ns   CLOCK_MONOTONIC at the send call, ns
 * The rest of the payload is padding chosen by the sender.  Sender and
 * receiver must share CLOCK_MONOTONIC: the same host, network namespaces
 * allowed, time namespaces not.
 */
#ifndef RXLAB_LIVE_PAYLOAD_H
#define RXLAB_LIVE_PAYLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RXL_PAYLOAD_MAGIC 0x314c5852u /* bytes 'R' 'X' 'L' '1' */
#define RXL_PAYLOAD_BYTES 24u

struct rxl_payload {
	uint32_t flags;
	uint64_t seq;
	uint64_t send_ns;
};

/* Write the header into @buf (at least RXL_PAYLOAD_BYTES). */
void rxl_payload_write(uint8_t *buf, const struct rxl_payload *p);

/* Read the header of a payload of @len bytes.  false (and *p untouched)
 * when it is shorter than RXL_PAYLOAD_BYTES or the magic does not match. */
bool rxl_payload_read(const uint8_t *buf, size_t len, struct rxl_payload *p);

/* The UDP payload of an Ethernet frame (as TPACKET_V3 and AF_XDP hand them
 * out): Ethernet II with up to two VLAN tags, then IPv4 (no fragments) or
 * IPv6 (UDP as the first next header), then UDP.  false when the frame is
 * anything else or truncated. */
bool rxl_frame_udp_payload(const uint8_t *frame, size_t len, const uint8_t **payload,
			   size_t *payload_len);

#endif
