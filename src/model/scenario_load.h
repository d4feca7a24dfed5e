/* scenario_load.h - fill a struct scenario from INI text and overrides.
 *
 * The scenario format is documented key by key in the schema table at the
 * top of scenario_load.c (section, key, unit, accepted range, default);
 * rxlab/scenario.h documents the fields.  Units: times are written with ns,
 * us, ms or s (a bare number means microseconds only for keys named
 * *-usecs / *_usecs, as ethtool and sysctl read them), packet rates with
 * pps, kpps or Mpps, bit rates with bit, kbit, Mbit or Gbit, sizes with B,
 * KiB, MiB, GiB, kB or MB (bare = bytes); see model/units.h.
 *
 * Errors.  Every function returns 0 or a negative errno (-EINVAL for bad
 * contents or overrides, -ENOENT for a scenario or profile that does not
 * exist, the file's errno when it cannot be read) and on error writes one
 * line into @err (never more than @errlen bytes, always terminated):
 *   "scn.ini:7: rx-ring = 0 is out of range: accepted 1..65536 descriptors"
 *   "--set traffic.rat=1Mpps: unknown key 'rat' in [traffic]; did you mean 'rate'?"
 * The first error stops the load.  Nothing is printed.
 *
 * Ownership.  @s is caller-owned and is completely written (defaults
 * included) on success; its only pointers are traffic[i].trace, into the
 * trace cache of model/trace_load.h (a [traffic] with pattern = trace reads
 * its file there once per process; trace_cache_free() ends them); on error its contents are
 * unspecified.  @sets and the strings they point to are only read during
 * the call.
 */
#ifndef RXLAB_MODEL_SCENARIO_LOAD_H
#define RXLAB_MODEL_SCENARIO_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rxlab/scenario.h"

/* Load a scenario by name or path.
 * @name_or_path: an existing file path; otherwise a built-in scenario name
 *   ("livelock", "seeds/NAME"; "NAME" also finds "seeds/NAME").  A missing
 *   one gives -ENOENT with "no such file or built-in scenario 'X'; try
 *   'rxlab scenarios'"; a directory, an unreadable or an empty file give a
 *   message naming the path.
 * @sets, @n_sets: overrides "SECTION.KEY=VALUE" or "SECTION.NAME.KEY=VALUE"
 *   applied after the file, in order (a later one wins):
 *     host.rxpath=classic     the [host] section (created if absent)
 *     traffic.rate=1Mpps      the only [traffic] section (created if there
 *                             is none; an error listing the names if there
 *                             are several)
 *     nic.eth0.rx-usecs=8     the named section, created if absent
 *     route.eth0=eth1         [route] keys are NIC names
 *   Blanks around '=' are ignored.
 * Then the profile named by host.profile is resolved (built-in
 * "profiles/NAME" first, else a file path; see profile_load.h), and
 * cross-checks run (CPUs exist, ports and routes name NICs, coalescing
 * parameters pass coal_params_check(), warmup < duration, at least one NIC).
 * s->name is the file's basename without ".ini", or the built-in name. */
int scenario_load(struct scenario *s, const char *name_or_path, const char *const *sets,
                  size_t n_sets, char *err, size_t errlen);

/* As scenario_load() for scenario text; messages name @origin (a path or
 * "<string>") and lines in @text; s->name is @origin's basename without
 * ".ini". */
int scenario_load_text(struct scenario *s, const char *text, const char *origin,
                       const char *const *sets, size_t n_sets, char *err, size_t errlen);

/* "rxlab: note: nic NAME: ..." on @f for each port of @s whose driver
 * (model/quirks.h) programs another value than the one asked (its
 * driver_note); nothing for a port whose driver honours its values. */
void scenario_driver_notes(FILE *f, const struct scenario *s);

/* One key of the schema, for listings: `rxlab scenarios --keys`, the bash
 * completion of --set, rxlab-scenario(5).  Every string is the schema's
 * own (the table scenario_load() checks with), so a listing cannot drift
 * from what is accepted. */
struct scenario_key {
	const char *section;	/* "host", "nic", "traffic", "apps", "run" */
	bool named;		/* the section needs a name: [nic NAME], --set nic.NAME.KEY */
	const char *key;	/* "rx-usecs" */
	char def[48];		/* the default as a file writes it ("8us", "off", "napi");
				 * "(required)"; "" when it depends on other keys */
	char accepted[192];	/* "0..10s", "1..65536 descriptors", "on/off (...)",
				 * "classic, isr-loop, ...", "text", "e.g. equal 4" */
};

/* The number of keys in the schema ([route]'s keys are NIC names: none). */
size_t scenario_key_count(void);

/* Key @i (< scenario_key_count()) into @out, in the schema's order. */
void scenario_key_get(size_t i, struct scenario_key *out);

#endif
