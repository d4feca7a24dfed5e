/* fuzz_profile.c - libFuzzer target for the profile loader, [cstates]
 * included.
 *
 * Input: profile INI text.  The target checks the loader's contract
 * (profile_load.h): 0 or a negative errno, a non-empty terminated message
 * on error, and on success a table of 1..PROFILE_MAX_CSTATES states,
 * shallowest first, with names that are letters, digits, '_' and '-'.
 *
 * Build and run: tests/fuzz/run.sh SECONDS.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/profile_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_table(const struct profile *p)
{
	assert(p->n_cstates >= 1 && p->n_cstates <= PROFILE_MAX_CSTATES);
	for (uint8_t i = 0; i < p->n_cstates; i++) {
		const struct profile_cstate *st = &p->cstate[i];

		assert(strlen(st->name) < sizeof(st->name));
		assert(strspn(st->name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				        "0123456789_-") == strlen(st->name));
		assert(st->exit_ns >= 0 && st->residency_ns >= 0);
		assert(i == 0 || (st->exit_ns >= st[-1].exit_ns &&
				  st->residency_ns >= st[-1].residency_ns));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct profile p;
	char *text = malloc(size + 1), err[1024];
	int rc;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(err, 'x', sizeof(err));
	rc = profile_load_text(&p, text, "fuzz.ini", err, sizeof(err));
	assert(rc <= 0);
	if (rc < 0)
		assert(err[0] != '\0' && memchr(err, '\0', sizeof(err)) != NULL);
	else
		check_table(&p);
	free(text);
	return 0;
}
