/* cmd_scenarios.c - `rxlab scenarios`: the built-in scenarios and the
 * built-in host profiles. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/opts.h"
#include "model/builtin.h"
#include "model/profile_load.h"
#include "model/scenario_load.h"
#include "report/table.h"

const char scenarios_usage[] =
	"usage: rxlab scenarios [--keys [--format table|csv|json]]\n"
	"\n"
	"Lists the built-in scenarios: the name to give rxlab run, and the file;\n"
	"then the built-in host profiles: the name to give host.profile, and the\n"
	"machine it models.\n"
	"\n"
	"  --keys    list every scenario key instead, as --set writes it\n"
	"            (nic.NAME.rx-usecs), with its default and what it accepts:\n"
	"            the loader's own schema (rxlab-scenario(5), docs/scenarios.md)\n";

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
			return 1;	/* rxlab's own data: not the user's input */
		}
		printf("%-28s %s\n", f->name + 9, p.description);
	}
	return 0;
}

/* "nic.NAME.rx-usecs": @k as --set writes it. */
static void set_name(const struct scenario_key *k, char *buf, size_t len)
{
	snprintf(buf, len, "%s.%s%s", k->section, k->named ? "NAME." : "", k->key);
}

/* --keys: the schema (model/scenario_load.h), then [route], whose keys
 * are the NICs' names. */
static int list_keys(enum out_format fmt)
{
	static const char *const cols[] = { "key", "section", "default", "accepted" };
	struct table *t = table_new("keys", "Scenario keys (--set KEY=VALUE; rxlab-scenario(5))");
	struct report *rep = report_new();
	struct scenario_key k;
	char name[128];

	for (size_t c = 0; c < 4; c++)
		table_add_col(t, cols[c], cols[c], -1);
	for (size_t i = 0; i < scenario_key_count(); i++) {
		scenario_key_get(i, &k);
		set_name(&k, name, sizeof(name));
		table_row(t);
		table_str(t, name);
		table_str(t, k.section);
		table_str(t, k.def);
		table_str(t, k.accepted);
	}
	table_row(t);
	table_str(t, "route.NIC");
	table_str(t, "route");
	table_str(t, "");
	table_str(t, "a NIC's name: what arrives on NIC leaves by that one");
	report_add(rep, t);
	report_print(rep, stdout, fmt);
	report_free(rep);
	return 0;
}

/* The list of built-in scenarios, then the profiles. */
static int list_builtins(void)
{
	for (const struct builtin_file *f = builtin_files; f->name; f++)
		if (strncmp(f->name, "profiles/", 9))
			printf("%-28s %s\n", f->name, f->path);
	return list_profiles();
}

int cmd_scenarios(int argc, char **argv)
{
	struct opts o;
	int rc = common_parse(&o, "scenarios", scenarios_usage, argc, argv);

	if (rc == 0 && o.scenario)
		rc = common_bad("scenarios takes no argument, not", o.scenario);
	else if (rc == 0)
		rc = o.keys ? list_keys(o.fmt) : list_builtins();
	return common_finish(&o, cli_status(rc));
}

