/* cmd_seeds.c - `rxlab seeds [SEED]`: the seed experiments built in. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/opts.h"
#include "experiment/validate.h"
#include "model/builtin.h"

const char seeds_usage[] =
	"usage: rxlab seeds [SEED]\n"
	"\n"
	"Lists the seed experiments (shared/seeds) built in, or the scenarios of\n"
	"SEED (\"001\", \"001-napi-router\" or \"seeds/001-napi-router\").\n";

/* The seed experiments whose name starts with @seed ("001", "seeds/001-napi-
 * router" or "001-napi-router"), or all with no @seed. */
static bool seed_matches(const char *name, const char *seed)
{
	const char *base = name + strlen("seeds/");

	return !seed || !strncmp(base, seed, strlen(seed)) || !strncmp(name, seed, strlen(seed));
}

/* The list, or the experiments of one seed; an unknown one is refused
 * with the names that exist. */
static int seeds(const char *seed)
{
	char names[1024] = "";
	bool any = false;

	for (const struct builtin_file *f = builtin_files; f->name; f++) {
		if (strncmp(f->name, "seeds/", 6))
			continue;
		any = any || seed_matches(f->name, seed);
		if (strlen(names) + strlen(f->name) + 3 < sizeof(names))
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 names[0] ? ", " : "", f->name + 6);
	}
	if (!seed)
		return seeds_list();
	if (!any || !seed[0]) {
		fprintf(stderr, "rxlab: seeds: no seed experiment '%s'; the seeds are %s\n", seed,
			names);
		return 2;
	}
	for (const struct builtin_file *f = builtin_files; f->name; f++) {
		const char *d = f->text;

		if (strncmp(f->name, "seeds/", 6) || !seed_matches(f->name, seed))
			continue;
		if (*d == '#')
			d += 1 + strspn(d + 1, " ");
		printf("%-28s %.*s\n", f->name, (int)strcspn(d, "\n"), d);
	}
	return 0;
}

int cmd_seeds(int argc, char **argv)
{
	struct opts o;
	int rc = common_parse(&o, "seeds", seeds_usage, argc, argv);

	return common_finish(&o, rc ? cli_status(rc) : seeds(o.scenario));
}
