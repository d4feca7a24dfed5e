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
