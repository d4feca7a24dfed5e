/* cmd_help.c - `rxlab help` (also `rxlab --help`): what rxlab does, its
 * commands and the options they share; and a command that is not one. */
#include <stdio.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/opts.h"

const char default_usage[] =
	"usage: rxlab [OPTIONS]\n"
	"  or:  rxlab COMMAND [ARGUMENTS] [OPTIONS]\n"
	"\n"
	"Simulates the receive path of a network host: NIC interrupt coalescing,\n"
	"NAPI polling and the kernel paths that compete for the CPU.\n"
	"\n"
	"Commands:\n"
	"  (none)              receive livelock: forwarding rate vs offered load for\n"
	"                      the classic, isr-loop and napi kernels\n"
	"  run SCENARIO        run one scenario (INI file or built-in name)\n"
	"  sweep SCENARIO      run the cartesian product of --vary values: one row\n"
	"                      per point with its inputs and every output metric\n"
	"  merge SHARD...      join the outputs of sweep --shard K/N into the file\n"
	"                      one unsharded run writes (--out FILE)\n"
	"  plot RESULTS        draw a sweep's figures with gnuplot (--out DIR)\n"
	"  compare [SCENARIO]  every moderation scheme on a request/response server\n"
	"                      (default scenario moderation-compare); --vary traffic.rate=...\n"
	"                      sets the request rates\n"
	"  tune SCENARIO_OR_TRACE --goal 'p99<=50us' [--goal ...] [--minimize cpu]\n"
	"                      search the moderation settings (coalescing, DIM, ITR,\n"
	"                      deferral, busy polling, IRQ suspension) for the one\n"
	"                      that meets the goals at the least cost; print the\n"
	"                      Pareto front of CPU vs latency and the Linux commands;\n"
	"                      goals on p50/p99/p999, cpu, throughput, drops, irqs;\n"
	"                      --policies LIST, --out DIR (data + gnuplot script),\n"
	"                      --iface NAME, --base SCENARIO for a trace; robust goals:\n"
	"                      --load 1kpps..200kpps (every point must meet them),\n"
	"                      --speeds for a trace, --max-loss 0.1%; see docs/tune.md\n"
	"  replay KIND FILE    run dim, itr, adaptive, coalesce or defer on recorded\n"
	"                      counters (CSV, - = stdin) and print its decisions;\n"
	"                      see docs/replay.md\n"
	"  live [MODE...]      run receive modes on real packets: a veth test bed,\n"
	"                      the built-in sender, real counters (root; see\n"
	"                      'rxlab live --help' and docs/live.md)\n"
	"  live calibrate      measure this machine's veth costs into a profile\n"
	"  host [IFACE]        read this machine (CPUs, sysctls, the interface's\n"
	"                      driver, queues, rings, coalescing, NAPI settings,\n"
	"                      IRQs) and with --out FILE write its scenario; docs/host.md\n"
	"  scenarios           list built-in scenarios and host profiles\n"
	"  schemes             list the moderation schemes: what each sets, where it\n"
	"                      applies, compare's presets; see docs/schemes.md\n"
	"  seeds [SEED]        list the seed experiments (shared/seeds) built in\n"
	"  validate [SEED]     run the seed experiments; print each reported figure\n"
	"                      beside the simulated one (exit 0 only if all agree)\n"
	"  help [COMMAND]      this text, or the usage of COMMAND\n"
	"  version             the version of rxlab (also --version)\n"
	"\n"
	COMMON_OPTIONS_USAGE
	"\n"
	"Every command takes --OPTION VALUE or --OPTION=VALUE, prints its own\n"
	"usage with --help (rxlab COMMAND --help) and the version with --version.\n"
	"\n"
	"Scenario keys use ethtool / sysfs names with units (us, ms, s, pps, kpps,\n"
	"Mpps, Mbit, Gbit, KiB); rxlab scenarios --keys lists them, see\n"
	"rxlab-scenario(5) and docs/scenarios.md.\n"
	"\n"
	EXIT_STATUS_USAGE;

/* `rxlab help`: the text above (main.c answers `rxlab help CMD`); `rxlab
 * help NOSUCH` is an unknown command (@names: main.c's list). */
int cmd_help(int argc, char **argv, const char *names)
{
	struct opts o;
	int rc = common_parse(&o, "help", default_usage, argc, argv);

	if (rc == 0 && o.scenario)
		rc = unknown_command(o.scenario, names);
	else if (rc == 0)
		fputs(default_usage, stdout);
	return common_finish(&o, cli_status(rc));
}

int unknown_command(const char *cmd, const char *names)
{
	fprintf(stderr, "rxlab: unknown command '%s'; the commands are %s\n", cmd, names);
	fprintf(stderr, "try 'rxlab help'\n");
	return 2;
}

int cmd_unknown(int argc, char **argv, const char *names)
{
	struct opts o;
	/* no usage: `rxlab nosuch --help` is refused like any option */
	int rc = common_parse(&o, argv[0], NULL, argc, argv);

	return common_finish(&o, rc == 0 ? unknown_command(argv[0], names) : rc);
}
