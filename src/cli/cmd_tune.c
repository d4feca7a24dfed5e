/* cmd_tune.c - `rxlab tune SCENARIO_OR_TRACE --goal G ...`: the moderation
 * setting that meets the goals at the least cost (tune/tune.h; options:
 * tune_args.h; the report: tune/tune_report.h).
 *
 * Exit status: 0 (also when no setting meets the goals: the output says
 * so), 1 when a simulation failed, 2 for bad usage or input, 128+N after
 * signal N.
 */
#include <stdbool.h>
#include <stdio.h>

#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/opts.h"
#include "cli/tune_args.h"
#include "experiment/sweep.h"
#include "live/host_iface.h"
#include "tune/tune.h"
#include "tune/tune_report.h"
#include "tune/verify.h"

const char tune_usage[] =
	"usage: rxlab tune SCENARIO_OR_TRACE --goal 'p99<=50us' [--goal ...]\n"
	"                  [--minimize cpu|p50|p99|p999|drops|irqs | --maximize throughput]\n"
	"                  [--policies coalesce,dim,...] [--out DIR] [--iface NAME]\n"
	"                  [--set KEY=VALUE ...] [--seed N] [--speed X] [--base SCENARIO]\n"
	"                  [--jobs N] [--format table|csv|json]\n"
	"                  [--table front|best|placement|per_queue ...]\n"
	"                  [--out-dir DIR] [--load A..B [--load-points N] | --load A,B,...]\n"
	"                  [--speeds X,Y,...] [--max-loss P] [--placement auto|on|off]\n"
	"                  [--per-queue auto|on|off]\n"
	"                  [--verify [--verify-duration D] [--verify-tolerance X]\n"
	"                  [--allow-host-iface]]\n"
	"\n"
	"Searches the moderation settings (coalescing, DIM, ITR, deferral, busy\n"
	"polling, IRQ suspension) for the one that meets the goals at the least\n"
	"cost; prints the Pareto front of CPU vs latency and the Linux commands.\n"
	"Goals on p50/p99/p999, cpu, throughput, drops, irqs.  A trace (.pcap,\n"
	"pcapng, .cap, .csv) is played into --base (default udp-sink).  --out DIR\n"
	"also writes the points, a gnuplot script and apply.sh.  --table NAME prints\n"
	"one table alone (JSON: with units), --out-dir DIR writes DIR/front.csv and\n"
	"DIR/best.csv (docs/outputs-schema.md).\n"
	"Robust goals: --load 1kpps..200kpps (--load-points N, 2..16, default 5,\n"
	"log-spaced), --load 1kpps,20kpps,200kpps or --load diurnal:PEAK (5, 15,\n"
	"35, 60, 85, 100% of PEAK) runs every setting at each offered rate\n"
	"(several [traffic] sections are scaled together); --speeds 0.5,1,2\n"
	"plays a trace at each speed.  A setting meets the goals only if it\n"
	"meets them at every point, and the tables show its worst one.  A setting\n"
	"that loses more than --max-loss (default 0.1%, 0..100) of the frames at\n"
	"any point never meets.  Known traps (rx-frames without a timer, a\n"
	"deferral the rx ring cannot hold at the peak rate) are flagged.\n"
	"Placement: on a port with several queues (--placement auto, the default;\n"
	"on, off) the best setting is run again with each IRQ / NAPI-thread\n"
	"placement (as configured, spread, with the app, apart from it, threaded\n"
	"NAPI): the best is the one the commands apply (smp_affinity_list, napi-set).\n"
	"Per-queue values: then, when the queues carry unequal load (--per-queue\n"
	"auto, the default; on: also with equal load; off), the best policy's\n"
	"per-queue knobs (napi_defer_hard_irqs, gro_flush_timeout,\n"
	"irq-suspend-timeout, rx-usecs, rx-frames) are refined queue by queue,\n"
	"hottest first; a change is kept when every goal still holds at every load\n"
	"and the objective improves by more than 1%.  The commands set each queue's\n"
	"own values (napi-set per NAPI id, ethtool --per-queue).\n"
	"--verify (root) then runs the best setting and the runner-up on the live\n"
	"test bed (or --iface) for --verify-duration (default 2s) at each load and\n"
	"prints predicted beside measured.  See docs/tune.md.\n";

/* The exit status of tune_run()'s @s (tune.h: 1 for a failed
 * simulation, 2 for bad input) after printing its message @err. */
static int run_failed(enum tune_status s, const char *err)
{
	fprintf(stderr, "rxlab: %s\n", err);
	if (s == TUNE_TOO_LARGE)
		fprintf(stderr, "try 'rxlab help'\n");
	return s == TUNE_FAILED ? 1 : 2;
}

/* --table NAME and --out-dir DIR: the tables alone (report/table.h), on
 * stdout (JSON with units) or one file each. */
static int tables_out(const struct tune_opts *o, const struct tune_result *res, char *err,
		      size_t errlen)
{
	struct report *rep = tune_report_tables(res, &o->req);
	char msg[512];
	int rc = o->n_tables ? report_select(rep, o->tables, o->n_tables, msg, sizeof(msg)) : 0;

	if (rc)
		snprintf(err, errlen, "--table: %s", msg);
	else if (o->tables_dir)
		rc = report_write_dir(rep, o->tables_dir, o->fmt == OUT_JSON ? OUT_JSON : OUT_CSV,
				      err, errlen);
	else
		report_print_units(rep, stdout, o->fmt);
	report_free(rep);
	return rc;
}

/* The report of @res on stdout and, with --out, the files. */
static int report(const struct tune_opts *o, const struct tune_result *res, char *err,
		  size_t errlen)
{
	bool tables = o->n_tables || o->tables_dir;
	int rc = tables ? tables_out(o, res, err, errlen)
			: tune_report_print(stdout, res, &o->req, o->fmt, err, errlen);

	if (rc == 0 && o->out_dir)
		rc = tune_report_write(o->out_dir, res, &o->req, err, errlen);
	if (rc)
		return fprintf(stderr, "rxlab: %s\n", err), 2;
	if (o->out_dir && o->fmt == OUT_TABLE && !tables)
		tune_report_wrote(stdout, o->out_dir);
	return 0;
}

/* --verify: root, a scenario, and an --iface that is not the host's own
 * connection unless --allow-host-iface; before the search runs. */
static int verify_preflight_cli(const struct tune_opts *o)
{
	char why[512];
	int rc;

	if (verify_preflight(&o->req, why, sizeof(why)))
		return fprintf(stderr, "rxlab: %s\n", why), 2;
	if (!o->req.iface || o->allow_host_iface)
		return 0;
	rc = host_iface_check(o->req.iface, why, sizeof(why));
	if (rc > 0)
		fprintf(stderr, "rxlab: tune: --verify on --iface %s, which carries %s: it looks "
			"like this host's own network connection, whose settings the verification "
			"would change; pass --allow-host-iface to use it anyway\n", o->req.iface, why);
	else if (rc < 0)
		fprintf(stderr, "rxlab: tune: --verify on --iface %s: cannot tell whether it "
			"carries the default route or a global address: %s; pass --allow-host-iface "
			"to use it anyway\n", o->req.iface, why);
	return rc ? 2 : 0;
}

/* --verify after the report: the best two measured live. */
static int verify(struct tune_opts *o, const struct tune_result *res, char *err, size_t errlen)
{
	int rc;

	o->vopt.fmt = o->fmt;
	o->vopt.iface = o->req.iface;
	o->vopt.stop = &rxlab_signal;
	fflush(stdout);
	rc = verify_run(stdout, res, &o->req, &o->vopt, err, errlen);
	if (rc)
		fprintf(stderr, "rxlab: %s\n", err);
	return rc;
}

int cmd_tune(int argc, char **argv)
{
	/* large, so not on the stack; a message quotes at most one word of
	 * the command line, and a word is at most 128 KiB (MAX_ARG_STRLEN) */
	static struct tune_opts o;
	static struct tune_result res;
	static char err[1 << 18];
	enum tune_status s;
	int rc;

	interrupt_install();
	tune_opts_init(&o, sweep_default_jobs());
	rc = tune_opts_parse(&o, argc - 1, argv + 1);
	if (rc)
		return cli_status(rc);
	if (o.verify && (rc = verify_preflight_cli(&o)) != 0)
		return rc;
	s = tune_run(&o.req, &res, &rxlab_signal, err, sizeof(err));
	rc = s == TUNE_OK ? report(&o, &res, err, sizeof(err)) : run_failed(s, err);
	if (rc == 0 && o.verify && !rxlab_signal)
		rc = verify(&o, &res, err, sizeof(err));
	tune_result_free(&res);
	return rxlab_signal ? 128 + rxlab_signal : rc;
}
