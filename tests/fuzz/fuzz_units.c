/* fuzz_units.c - libFuzzer target for values with units (model/units.h).
 *
 * Input: any bytes, read as a NUL-terminated value.  For every unit kind:
 * unit_parse() either fails with a terminated explanation and leaves the
 * output untouched, or succeeds and then unit_format() of the value parses
 * back to the same value (format(parse(x)) == parse(x)); unit_parse_key()
 * is run with a fixed range to cover the messages.  The first 8 bytes,
 * read as a number, also go through format -> parse for every kind.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const enum unit_kind kinds[] = {
	UNIT_COUNT, UNIT_TIME_NS, UNIT_TIME_US, UNIT_TIME_PS, UNIT_PPS, UNIT_BPS, UNIT_BYTES,
};
#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))
#define SENTINEL 0x5a5a5a5a5a5a5a5aULL

/* format(v) parses back to v. */
static void round_trip(enum unit_kind kind, uint64_t v)
{
	char buf[64], why[160];
	uint64_t back = SENTINEL;
	enum unit_status st;

	unit_format(kind, v, buf, sizeof(buf));
	st = unit_parse(kind, buf, &back, why, sizeof(why));
	assert(st == UNIT_OK);
	assert(back == v);
}

static void one_kind(enum unit_kind kind, const char *text)
{
	char why[160], msg[512];
	uint64_t v = SENTINEL, k = SENTINEL;
	enum unit_status st;

	memset(why, 'x', sizeof(why));
	st = unit_parse(kind, text, &v, why, sizeof(why));
	if (st == UNIT_OK) {
		round_trip(kind, v);
	} else {
		assert(v == SENTINEL); /* untouched on error */
		assert(memchr(why, '\0', sizeof(why)) && why[0] != '\0');
	}
	assert(unit_parse(kind, text, &v, NULL, 0) == st); /* @why may be NULL */
	memset(msg, 'x', sizeof(msg));
	if (unit_parse_key(kind, "key", text, 1, 1000000, "things", &k, msg, sizeof(msg)) == 0)
		assert(st == UNIT_OK && k == v && k >= 1 && k <= 1000000);
	else
		assert(memchr(msg, '\0', sizeof(msg)) && msg[0] != '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	uint64_t raw = 0;
	bool b;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (size_t i = 0; i < N_KINDS; i++)
		one_kind(kinds[i], text);
	(void)unit_parse_bool(text, &b);
	memcpy(&raw, data, size < sizeof(raw) ? size : sizeof(raw));
	for (size_t i = 0; i < N_KINDS; i++)
		round_trip(kinds[i], raw);
	free(text);
	return 0;
}
