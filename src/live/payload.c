/* payload.c - the rxlab payload header (see payload.h): explicit
 * little-endian encoding, so the layout does not depend on the host. */
#include "live/payload.h"

static void put_le(uint8_t *b, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *b, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++)
		v |= (uint64_t)b[i] << (8 * i);
	return v;
}

void rxl_payload_write(uint8_t *buf, const struct rxl_payload *p)
{
	put_le(buf, RXL_PAYLOAD_MAGIC, 4);
	put_le(buf + 4, p->flags, 4);
	put_le(buf + 8, p->seq, 8);
	put_le(buf + 16, p->send_ns, 8);
}

bool rxl_payload_read(const uint8_t *buf, size_t len, struct rxl_payload *p)
{
	if (len < RXL_PAYLOAD_BYTES || get_le(buf, 4) != RXL_PAYLOAD_MAGIC)
		return false;
	p->flags = (uint32_t)get_le(buf + 4, 4);
	p->seq = get_le(buf + 8, 8);
	p->send_ns = get_le(buf + 16, 8);
	return true;
}

#define ETH_HLEN_ 14u
#define UDP_HLEN_ 8u

static uint16_t be16(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

/* Offset of the UDP header after the IP header at @ip, or 0. */
static size_t udp_offset(const uint8_t *ip, size_t len, uint16_t ethertype)
{
	if (ethertype == 0x0800 && len >= 20 && (ip[0] >> 4) == 4) {
		size_t ihl = (size_t)(ip[0] & 0x0f) * 4;
		bool frag = (be16(ip + 6) & 0x3fff) != 0; /* MF or an offset */
		return ihl >= 20 && ip[9] == 17 && !frag ? ihl : 0;
	}
	if (ethertype == 0x86dd && len >= 40 && (ip[0] >> 4) == 6)
		return ip[6] == 17 ? 40 : 0;
	return 0;
}

bool rxl_frame_udp_payload(const uint8_t *frame, size_t len, const uint8_t **payload,
			   size_t *payload_len)
{
	size_t off = 12;
	if (len < ETH_HLEN_)
		return false;
	uint16_t type = be16(frame + off);
	for (int tags = 0; tags < 2 && (type == 0x8100 || type == 0x88a8); tags++) {
		off += 4;
		if (len < off + 2)
			return false;
		type = be16(frame + off);
	}
	off += 2;
	size_t u = udp_offset(frame + off, len - off, type);
	if (u == 0 || len < off + u + UDP_HLEN_)
		return false;
	off += u + UDP_HLEN_;
	*payload = frame + off;
	*payload_len = len - off;
	return true;
}
