/* cmd_tune.c - `rxlab tune SCENARIO_OR_TRACE --goal G ...`: the moderation
 * setting that meets the goals at the least cost (tune/tune.h; options:
 * tune_args.h). */
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/opts.h"
#include "cli/tune_args.h"
#include "experiment/sweep.h"
#include "tune/tune.h"

const char tune_usage[] =
	"usage: rxlab tune SCENARIO_OR_TRACE --goal 'p99<=50us' [--goal ...]\n"
	"                  [--minimize cpu|p50|p99|p999|drops|irqs | --maximize throughput]\n"
	"                  [--policies coalesce,dim,...] [--out DIR] [--iface NAME]\n"
	"                  [--set KEY=VALUE ...] [--seed N] [--speed X] [--base SCENARIO]\n"
	"                  [--jobs N] [--format table|csv|json]\n"
	"\n"
	"Searches the moderation settings (coalescing, DIM, ITR, deferral, busy\n"
	"polling, IRQ suspension) for the one that meets the goals at the least\n"
	"cost; prints the Pareto front of CPU vs latency and the Linux commands.\n"
	"Goals on p50/p99/p999, cpu, throughput, drops, irqs.  A trace (.pcap,\n"
	"pcapng, .cap, .csv) is played into --base (default udp-sink).  --out DIR\n"
	"also writes the points, a gnuplot script and apply.sh.  See docs/tune.md.\n";

int cmd_tune(int argc, char **argv)
{
	static struct tune_opts o;	/* large: not on the stack */
	int rc;

	interrupt_install();
	tune_opts_init(&o, sweep_default_jobs());
	rc = tune_opts_parse(&o, argc - 1, argv + 1);
	return rc ? cli_status(rc) : tune_run(&o, &rxlab_signal);
}
