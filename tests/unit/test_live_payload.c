/* test_live_payload.c - the rxlab payload header (src/live/payload.h) and
 * finding it inside Ethernet frames (TPACKET_V3 and AF_XDP sources). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "live/payload.h"

static void test_payload_roundtrip(void **state)
{
	(void)state;
	uint8_t b[RXL_PAYLOAD_BYTES];
	struct rxl_payload in = { .flags = 7, .seq = 0x0102030405060708ull, .send_ns = 99 }, out;
	rxl_payload_write(b, &in);
	assert_int_equal(b[0], 'R');
	assert_int_equal(b[3], '1');
	assert_int_equal(b[8], 0x08); /* little-endian */
	assert_true(rxl_payload_read(b, sizeof b, &out));
	assert_int_equal(out.seq, in.seq);
	assert_int_equal(out.send_ns, 99);
	assert_int_equal(out.flags, 7);
	assert_false(rxl_payload_read(b, sizeof b - 1, &out));
	b[0] = 'X';
	assert_false(rxl_payload_read(b, sizeof b, &out));
}

/* An Ethernet frame: @vlans 802.1Q tags, then IPv4 (@v6 false) or IPv6,
 * UDP and a 24-byte payload header.  Returns its length. */
static size_t frame(uint8_t *f, int vlans, bool v6, uint8_t proto, uint16_t frag)
{
	size_t off = 12;
	memset(f, 0, 256);
	for (int i = 0; i < vlans; i++) {
		f[off] = 0x81, f[off + 1] = 0x00;
		off += 4;
	}
	f[off] = v6 ? 0x86 : 0x08, f[off + 1] = v6 ? 0xdd : 0x00;
	off += 2;
	if (v6) {
		f[off] = 0x60;
		f[off + 6] = proto;
		off += 40;
	} else {
		f[off] = 0x45;
		f[off + 6] = (uint8_t)(frag >> 8), f[off + 7] = (uint8_t)frag;
		f[off + 9] = proto;
		off += 20;
	}
	off += 8; /* UDP header */
	struct rxl_payload p = { .seq = 42, .send_ns = 7 };
	rxl_payload_write(f + off, &p);
	return off + RXL_PAYLOAD_BYTES;
}

static void expect_payload(const uint8_t *f, size_t len, size_t at)
{
	const uint8_t *pl;
	size_t pl_len;
	struct rxl_payload p;
	assert_true(rxl_frame_udp_payload(f, len, &pl, &pl_len));
	assert_ptr_equal(pl, f + at);
	assert_int_equal(pl_len, RXL_PAYLOAD_BYTES);
	assert_true(rxl_payload_read(pl, pl_len, &p));
	assert_int_equal(p.seq, 42);
}

static void test_frames(void **state)
{
	(void)state;
	uint8_t f[256];
	const uint8_t *pl;
	size_t pl_len, len;
	len = frame(f, 0, false, 17, 0);
	expect_payload(f, len, 14 + 20 + 8);
	len = frame(f, 2, false, 17, 0);
	expect_payload(f, len, 14 + 8 + 20 + 8);
	len = frame(f, 0, true, 17, 0);
	expect_payload(f, len, 14 + 40 + 8);
	len = frame(f, 0, false, 6, 0); /* TCP */
	assert_false(rxl_frame_udp_payload(f, len, &pl, &pl_len));
	len = frame(f, 0, false, 17, 0x2000); /* more fragments */
	assert_false(rxl_frame_udp_payload(f, len, &pl, &pl_len));
	len = frame(f, 0, false, 17, 0x0010); /* a later fragment */
	assert_false(rxl_frame_udp_payload(f, len, &pl, &pl_len));
	len = frame(f, 0, false, 17, 0x4000); /* DF only: fine */
	expect_payload(f, len, 14 + 20 + 8);
	assert_false(rxl_frame_udp_payload(f, 14 + 20 + 7, &pl, &pl_len)); /* truncated UDP */
	assert_false(rxl_frame_udp_payload(f, 13, &pl, &pl_len));
	f[12] = 0x08, f[13] = 0x06; /* ARP */
	assert_false(rxl_frame_udp_payload(f, len, &pl, &pl_len));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_payload_roundtrip),
		cmocka_unit_test(test_frames),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
