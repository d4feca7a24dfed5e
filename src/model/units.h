/* units.h - numbers with units, parsed exactly.
 *
 * A value is a decimal number (digits, optionally '.' and more digits) and
 * a unit suffix, with optional blanks between them: "1.2Mpps", "2.5us",
 * "48KiB", "1 Gbit".  It is read as an integer mantissa and a decimal
 * exponent and scaled by the unit in 64-bit integer arithmetic: no binary
 * floating point is involved, so "1.2Mpps" is exactly 1200000 and "0.1s"
 * is exactly 100000000 ns.  A result that is not a whole number of the base
 * unit ("0.5ns" for a nanosecond value) is rejected, never rounded; one
 * that does not fit in 64 bits is rejected, never wrapped.
 *
 * A bare 0 needs no unit in any kind.  Units are case-sensitive ("Mpps",
 * "ms"); a suffix that matches only when case is ignored is reported with
 * the right spelling.
 */
#ifndef RXLAB_MODEL_UNITS_H
#define RXLAB_MODEL_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum unit_kind {
	UNIT_COUNT,   /* plain unsigned integer, no suffix allowed */
	UNIT_TIME_NS, /* ns, us, ms, s -> nanoseconds; a bare number is an error */
	UNIT_TIME_US, /* as UNIT_TIME_NS, but a bare number means microseconds, as
	               * ethtool -C rx-usecs and sysctl netdev_budget_usecs read it */
	UNIT_TIME_PS, /* ps, ns, us -> picoseconds (per-byte costs); bare = error */
	UNIT_PPS,     /* pps, kpps, Mpps -> packets per second; bare = error */
	UNIT_BPS,     /* bit, kbit, Mbit, Gbit (also Mbit/s, Mb/s, Mbps) -> bit/s;
	               * bare = error */
	UNIT_BYTES,   /* B, KiB, MiB, GiB, kB, MB, GB -> bytes; bare = bytes */
};

enum unit_status {
	UNIT_OK = 0,
	UNIT_E_NOTNUM,    /* does not start with a number ("abc", "", "5.") */
	UNIT_E_NEGATIVE,  /* starts with '-' */
	UNIT_E_OVERFLOW,  /* does not fit in 64 bits */
	UNIT_E_FRACTION,  /* not a whole number of the base unit ("0.5ns") */
	UNIT_E_NOUNIT,    /* bare number where a unit is required ("5" for a time) */
	UNIT_E_WRONGKIND, /* a unit of another quantity ("5Mbit" for a packet rate) */
	UNIT_E_BADUNIT,   /* a suffix that is no unit of this quantity ("5xs") */
	UNIT_E_GARBAGE,   /* text after a plain count ("12abc") */
};

/* Parse @text as a value of @kind into *@out (in the kind's base unit).
 * On error *@out is untouched and, if @why is not NULL, it receives a short
 * explanation without the key ("not a packet rate; use pps, kpps or Mpps").
 * Leading and trailing blanks are ignored. */
enum unit_status unit_parse(enum unit_kind kind, const char *text, uint64_t *out,
                            char *why, size_t whylen);

/* Parse and range-check @text for key @key; on error write the complete
 * message into @msg, e.g.
 *   "rx-ring = 0 is out of range: accepted 1..65536 descriptors"
 *   "duration = 5: missing unit; write e.g. 5s (units: ns, us, ms, s)"
 *   "rate = 5Mbit: not a packet rate; use pps, kpps or Mpps (accepted 1pps..1000Mpps)"
 * @noun ("descriptors") follows the range in messages; NULL for none.
 * Returns 0 or -1. */
int unit_parse_key(enum unit_kind kind, const char *key, const char *text,
                   uint64_t min, uint64_t max, const char *noun, uint64_t *out,
                   char *msg, size_t msglen);

/* Write @v (base unit of @kind) with the largest unit that keeps it whole:
 * 2000000 ns -> "2ms", 49152 bytes -> "48KiB", 0 -> "0".  Returns @buf. */
char *unit_format(enum unit_kind kind, uint64_t v, char *buf, size_t len);

/* "on"/"off", "yes"/"no", "true"/"false", "1"/"0" (case and blanks ignored).
 * Returns 0, or -1 for anything else. */
int unit_parse_bool(const char *text, bool *out);

/* A CPU list as /proc/irq/N/smp_affinity_list and taskset -c write it:
 * "3", "0-7", "0,2,4-6" (blanks around the commas are ignored).  Writes
 * the CPUs in the order written into @cpus (room for @max); every CPU must
 * be below @ncpus.  Returns how many, or -1 with a short reason in @why
 * (without the key: "CPU 9 is out of range: accepted 0..7 ([host] cpus =
 * 8)"). */
int unit_cpu_list(const char *text, uint32_t ncpus, uint16_t *cpus, uint32_t max, char *why,
		  size_t len);

/* The units of @kind for messages: "ns, us, ms, s"; "" for UNIT_COUNT. */
const char *unit_list(enum unit_kind kind);

#endif
