/* fuzz_scenario.c - libFuzzer target for the scenario loader.
 *
 * Input: scenario INI text, optionally followed by a NUL and one --set
 * override ("text\0host.rxpath=classic").  The target checks the loader's
 * contract (scenario_load.h): it returns 0 or a negative errno, on error
 * writes a non-empty, terminated message, and frees what it allocates
 * (LeakSanitizer runs after every input).
 *
 * Build and run: tests/fuzz/run.sh SECONDS.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/scenario_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct scenario s; /* large: keep it off the stack */
	char *text = malloc(size + 1), err[1024];
	const char *sets[1];
	size_t n_sets = 0, n;
	int rc;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	n = strlen(text);
	if (n < size) { /* a NUL: what follows it is a --set override */
		sets[0] = text + n + 1;
		n_sets = 1;
	}
	memset(err, 'x', sizeof(err));
	rc = scenario_load_text(&s, text, "fuzz.ini", sets, n_sets, err, sizeof(err));
	assert(rc <= 0);
	if (rc < 0)
		assert(memchr(err, '\0', sizeof(err)) && err[0] != '\0');
	free(text);
	return 0;
}
