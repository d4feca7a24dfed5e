/* common.h - the options shared by run, sweep, compare, validate, seeds,
 * scenarios, help and the default job (and an unknown command, whose
 * options are read before it is refused, as they always were).
 *
 * Each of these commands accepts every option below; those that only
 * sweep (or the default job) reads are refused elsewhere with one message
 * (common_parse()).  Messages: "rxlab: ..." and "try 'rxlab help'", exit 2.
 */
#ifndef RXLAB_CLI_COMMON_H
#define RXLAB_CLI_COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "experiment/sweep.h"
#include "report/table.h"

#define MAX_SETS 256
#define MAX_TABLES 32	/* --table NAME, repeatable */

struct opts {
	enum out_format fmt;
	const char *sets[MAX_SETS];
	size_t n_sets;
	char seed_set[64];
	char speed_set[64];
	struct vary vary[SWEEP_MAX_VARY];
	size_t n_vary;
	size_t jobs;
	bool jobs_set;		/* --jobs was given */
	bool show_coalesce;
	bool friendly;		/* run --style friendly */
	bool keys;		/* scenarios --keys */
	const char *scenario;	/* the one argument (a scenario, a seed, a command) */
	unsigned shard_k, shard_n;
	const char *resume, *out, *plot_dir;
	bool no_plot;
	int progress;           /* -1 auto, 0 off, 1 on */
	double checkpoint_s;    /* -1: not given */
	const char *tables[MAX_TABLES];	/* run --table NAME ... */
	size_t n_tables;
	const char *out_dir;		/* run --out-dir DIR */
	/* run --trace FILE [--trace-limit N]: tracepoint events (cli/run_trace.h) */
	const char *trace;
	unsigned long long trace_limit;
	bool trace_limit_set;
};

/* The usage of these options, the end of each command's --help. */
#define COMMON_OPTIONS_USAGE \
	"Options:\n" \
	"  --set SECTION.KEY=VALUE   override a scenario key (repeatable),\n" \
	"                            e.g. --set nic.eth0.rx-usecs=50 --set host.rxpath=classic\n" \
	"  --vary KEY=SPEC           sweep: a list (a,b,c), a range FROM..TO:N or a\n" \
	"                            geometric range FROM..TO:N:log,\n" \
	"                            e.g. --vary traffic.rate=10kpps..2Mpps:20:log\n" \
	"  --seed N                  random seed (same as --set run.seed=N)\n" \
	"  --speed X                 play a trace X times as fast (same as\n" \
	"                            --set traffic.trace-speed=X); a trace is\n" \
	"                            --set traffic.trace=FILE.pcap|.pcapng|.csv\n" \
	"  --jobs N                  sweep points in N processes, validate's runs in\n" \
	"                            N threads (default: all CPUs); the output is\n" \
	"                            the same for any N\n" \
	"  --format table|csv|json   output format (default table)\n" \
	"  --shard K/N               sweep: run only the K-th of N interleaved slices\n" \
	"                            of the points (merge them with rxlab merge)\n" \
	"  --resume FILE             sweep: keep FILE's finished rows, run the rest\n" \
	"  --out FILE                sweep: write the results to FILE instead of stdout,\n" \
	"                            where > FILE would (a regular file atomically);\n" \
	"                            may be the --resume FILE\n" \
	"  --checkpoint SECONDS      sweep --out: rewrite FILE with the rows so far\n" \
	"                            this often (default 60; 0: after every point)\n" \
	"  --plot DIR                sweep, default job: draw the figures into DIR\n" \
	"                            (default job: rxlab-livelock-figures)\n" \
	"  --no-plot                 default job: no figures\n" \
	"  --progress, --no-progress sweep: progress bar on stderr (default: only\n" \
	"                            when stdout and stderr are terminals)\n" \
	"  --show-coalesce           run: also print each port's coalescing settings\n" \
	"                            (ethtool -c)\n" \
	"  --keys                    scenarios: list the scenario keys (the schema)\n" \
	"  --table NAME              run: print only table NAME (repeatable; CSV on\n" \
	"                            stdout holds one); JSON then carries the units\n" \
	"  --out-dir DIR             run: write DIR/NAME.csv per table (NAME.json\n" \
	"                            with --format json); docs/outputs-schema.md\n" \
	"  --trace FILE              run: write the simulated irq:irq_handler_entry/exit,\n" \
	"                            napi:napi_poll and net:netif_receive_skb events to\n" \
	"                            FILE as perf script --ns prints them\n" \
	"  --trace-limit N           run --trace: at most N events (default 1000000;\n" \
	"                            0: no limit)\n" \
	"  --style tool|friendly     run: netstat -i, /proc/interrupts, softnet_stat,\n" \
	"                            vmstat and mpstat byte for byte as the real ones\n" \
	"                            (tool, the default) or as labelled decimal tables\n"

/* The exit statuses of every command, the end of rxlab --help (and so the
 * EXIT STATUS of rxlab(1), which help2man makes from it; docs/cli.md). */
#define EXIT_STATUS_USAGE \
	"Exit status:\n" \
	"  0      success (tune: also when no setting meets the goals; its report\n" \
	"         says so)\n" \
	"  1      a check failed (validate: a scored figure disagrees with the\n" \
	"         post) or a run failed (a model or accounting error, gnuplot\n" \
	"         failed, a live run failed)\n" \
	"  2      bad usage or input (an unknown option or command, a bad value, a\n" \
	"         scenario, trace or results file that does not load; validate: a\n" \
	"         seed run that fails), or output that could not be written\n" \
	"  128+N  stopped by signal N; what was computed is printed, marked partial\n"

/* "rxlab: MSG ARG" and "try 'rxlab help'" on stderr; returns 2. */
int common_bad(const char *msg, const char *arg);

/* Read @argv[1..@argc) into @o (defaults first) for command @cmd (NULL:
 * the default job), whose --help prints @usage (NULL: --help is an unknown
 * option); then refuse the options of
 * sweep (and of the default job) given to another command.  0, CLI_HELP,
 * or 2 after a message. */
int common_parse(struct opts *o, const char *cmd, const char *usage, int argc, char **argv);

/* Load @scenario with @o's --set options once in this process, before a
 * command forks its workers, so that what it reads from standard input
 * (a scenario from -, a traffic.trace = -) is read here once and kept
 * (model/scenario_load.c, model/trace_load.c) for every run; the result
 * is dropped, and the command's own load reports any error. */
void common_preload(const char *scenario, const struct opts *o);

/* Print @rep as run's options ask: every table on stdout in o->fmt, or
 * with --table only those (report_select(); JSON with units), or with
 * --out-dir a file per table (report_write_dir()).  0, or 2 after a
 * message. */
int common_emit(struct report *rep, const struct opts *o);

/* After the command: free @o's --vary lists and the trace cache; after a
 * signal, say so and return 128 + the signal, else @rc. */
int common_finish(struct opts *o, int rc);

#endif
