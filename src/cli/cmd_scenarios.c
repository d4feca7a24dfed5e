/* cmd_scenarios.c - `rxlab scenarios`: the built-in scenarios. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/opts.h"
#include "model/builtin.h"

const char scenarios_usage[] =
	"usage: rxlab scenarios\n"
	"\n"
	"Lists the built-in scenarios: the name to give rxlab run, and the file.\n";

int cmd_scenarios(int argc, char **argv)
{
	struct opts o;
	int rc = common_parse(&o, "scenarios", scenarios_usage, argc, argv);

	for (const struct builtin_file *f = builtin_files; rc == 0 && f->name; f++)
		if (strncmp(f->name, "profiles/", 9))
			printf("%-28s %s\n", f->name, f->path);
	return common_finish(&o, cli_status(rc));
}
