/* cmd_scenarios.c - `rxlab scenarios`: the built-in scenarios and the
 * built-in host profiles. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/opts.h"
#include "model/builtin.h"
#include "model/profile_load.h"

const char scenarios_usage[] =
	"usage: rxlab scenarios\n"
	"\n"
	"Lists the built-in scenarios: the name to give rxlab run, and the file;\n"
	"then the built-in host profiles: the name to give host.profile, and the\n"
	"machine it models.\n";

/* The built-in profiles with their description lines.  Each one loads
 * (test_profile checks it), so a failure here is named, not skipped. */
static int list_profiles(void)
{
	char err[512];
	struct profile p;

	printf("\nhost profiles (--set host.profile=NAME):\n");
	for (const struct builtin_file *f = builtin_files; f->name; f++) {
		if (strncmp(f->name, "profiles/", 9))
			continue;
		if (profile_load(&p, f->name + 9, err, sizeof(err))) {
			fprintf(stderr, "rxlab: %s\n", err);
			return -1;
		}
		printf("%-28s %s\n", f->name + 9, p.description);
	}
	return 0;
}

int cmd_scenarios(int argc, char **argv)
{
	struct opts o;
	int rc = common_parse(&o, "scenarios", scenarios_usage, argc, argv);

	for (const struct builtin_file *f = builtin_files; rc == 0 && f->name; f++)
		if (strncmp(f->name, "profiles/", 9))
			printf("%-28s %s\n", f->name, f->path);
	if (rc == 0)
		rc = list_profiles();
	return common_finish(&o, cli_status(rc));
}
