/* ifname.c - which interface names rxlab accepts (see rxl_ifname_check()
 * in include/rxlab/live.h).
 *
 * The kernel's own rule is dev_valid_name() in net/core/dev.c; the extra
 * refusals (shell metacharacters, a leading '-', unprintable bytes) are
 * rxlab's, because names end up in messages and in the commands `rxlab
 * tune` prints for root to run.  Those commands quote every word anyway
 * (io/shell_quote.h): this is the first of two defences, not the only one.
 */
#include <stdio.h>
#include <string.h>

#include "rxlab/live.h"

#define IFNAME_MAX 15		/* IFNAMSIZ - 1, include/uapi/linux/if.h */

static const char shell_special[] = "|&;<>()$`\\\"'*?[]#~!{}^=";

/* @name with unprintable bytes as \xNN, at most 40 bytes of it, into @buf. */
static const char *shown(const char *name, char *buf, size_t len)
{
	size_t n = 0, i;

	for (i = 0; name[i] && i < 40 && n + 5 < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c < 0x20 || c >= 0x7f)
			n += (size_t)snprintf(buf + n, len - n, "\\x%02x", c);
		else
			buf[n++] = (char)c;
	}
	snprintf(buf + n, len - n, "%s", name[i] ? "..." : "");
	return buf;
}

/* Why byte @c at offset @i of a name is refused, or NULL. */
static const char *byte_refused(unsigned char c, size_t i)
{
	if (c == '/')
		return "'/' separates the parts of a path (/sys/class/net/NAME)";
	if (c == ':')
		return "':' is the kernel's alias separator (dev_valid_name())";
	if (c == ' ' || (c >= '\t' && c <= '\r'))
		return "white space is not allowed in interface names (dev_valid_name())";
	if (c < 0x20 || c >= 0x7f)
		return "only printable ASCII is accepted";
	if (strchr(shell_special, c))
		return "it is a shell metacharacter";
	if (c == '-' && i == 0)
		return "a leading '-' would read as an option of ethtool or ip";
	return NULL;
}

static int refuse(const char *name, char *err, size_t errlen, const char *fmt, size_t i,
		  const char *why)
{
	char buf[200], byte[8];
	unsigned char c = (unsigned char)name[i];

	snprintf(byte, sizeof(byte), c >= 0x20 && c < 0x7f ? "'%c'" : "\\x%02x", c);
	snprintf(err, errlen, fmt, shown(name, buf, sizeof(buf)), i + 1, byte, why);
	return -1;
}

int rxl_ifname_check(const char *name, char *err, size_t errlen)
{
	static const char bad_byte[] = "interface name '%s': byte %zu (%s) is refused: %s; "
				       "accepted 1..15 bytes of printable ASCII without '/', ':', "
				       "blanks or shell metacharacters";
	static const char rule[] = "accepted 1..15 bytes of printable ASCII without '/', ':', "
				   "blanks or shell metacharacters, e.g. eth0, enp3s0f1, veth-rx.2";
	size_t n = strlen(name);
	char buf[200];

	if (n == 0 || !strcmp(name, ".") || !strcmp(name, "..")) {
		snprintf(err, errlen, "interface name '%s' is not valid: %s", name, rule);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const char *why = byte_refused((unsigned char)name[i], i);

		if (why)
			return refuse(name, err, errlen, bad_byte, i, why);
	}
	if (n > IFNAME_MAX) {
		snprintf(err, errlen, "interface name '%s' is %zu bytes long: Linux names are at "
			 "most 15 bytes (IFNAMSIZ 16 with the NUL)", shown(name, buf, sizeof(buf)), n);
		return -1;
	}
	return 0;
}
