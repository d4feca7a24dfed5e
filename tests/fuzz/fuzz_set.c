/* fuzz_set.c - libFuzzer target for --set overrides.
 *
 * Input: up to four override lines ("nic.eth0.rx-usecs=8\nhost.cpus=2"),
 * applied to a fixed valid scenario with two NICs, a route and two named
 * traffic sources (so that "traffic.rate=" hits the "there are 2 [traffic]
 * sections" path).  Checks: 0 or a negative errno, a one-line message on
 * error, no leak.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/scenario_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_SETS 4

static const char base[] =
	"[host]\n"
	"rxpath = napi\n"
	"cpus = 2\n"
	"[nic eth0]\n"
	"speed = 1Gbit\n"
	"rx-usecs = 8\n"
	"[nic eth1]\n"
	"irq-cpu = 1\n"
	"[traffic a]\n"
	"port = eth0\n"
	"rate = 100kpps\n"
	"[traffic b]\n"
	"port = eth1\n"
	"rate = 10kpps\n"
	"[route]\n"
	"eth0 = eth1\n"
	"[apps]\n"
	"sink = on\n"
	"[run]\n"
	"duration = 10ms\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct scenario s;
	char *buf = malloc(size + 1), err[1024], *p;
	const char *sets[MAX_SETS];
	size_t n_sets = 0;
	int rc;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (p = buf; n_sets < MAX_SETS; p++) {
		sets[n_sets++] = p;
		p = strchr(p, '\n');
		if (!p)
			break;
		*p = '\0';
	}
	memset(err, 'x', sizeof(err));
	rc = scenario_load_text(&s, base, "base.ini", sets, n_sets, err, sizeof(err));
	assert(rc <= 0);
	if (rc < 0) {
		size_t len;

		assert(memchr(err, '\0', sizeof(err)) && err[0] != '\0');
		len = strlen(err);
		/* One line: the overrides hold no newline, so neither may the message. */
		assert(!memchr(err, '\n', len));
	}
	free(buf);
	return 0;
}
