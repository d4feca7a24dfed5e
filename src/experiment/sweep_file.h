/* sweep_file.h - `rxlab sweep`: a results file from a product of
 * variations, in slices (--shard), resumable (--resume), with figures.
 *
 * Columns of a CSV/JSON results file, in order: the varied keys, then
 * "scenario" and every --set key (the inputs: `rxlab run SCENARIO --set
 * ...` with a row's inputs runs that point), then every output metric (the
 * wide summary, then metrics_extra_cols()).  Rows are in point order,
 * streamed as the points finish (memory does not grow with the points).
 * The text form (--format table) keeps the narrow summary of a terminal.
 *
 * The file goes through io/outfile.h (--out, or stdout).  With --out,
 * every --checkpoint seconds the target becomes the rows so far, the rows
 * --resume keeps that are still ahead, and the end of the file, so that a
 * machine that dies, or a batch system's SIGKILL, loses at most that much
 * work: --resume takes it up.
 *
 * Shard K of N (--shard K/N) runs the points p with p % N == K - 1, so
 * every shard gets a share of the cheap and the expensive points, and
 * writes them under a "shard" table naming the sweep (a hash of scenario,
 * sets, variations and columns), K, N and the number of points;
 * merge_files() joins the N shards into the file one run prints.
 */
#ifndef RXLAB_EXPERIMENT_SWEEP_FILE_H
#define RXLAB_EXPERIMENT_SWEEP_FILE_H

#include <signal.h>
#include <stddef.h>

#include "experiment/sweep.h"
#include "report/table.h"

struct sweep_cmd {
	const char *scenario;
	const char *const *sets;
	size_t n_sets;
	const struct vary *vary;
	size_t n_vary;
	size_t jobs;
	enum out_format fmt;
	unsigned shard_k, shard_n;  /* 0/0: the whole sweep */
	const char *resume;         /* results file of an earlier run, or NULL */
	const char *out;            /* write here (atomically) instead of stdout, or NULL */
	const char *plot_dir;       /* also draw the figures here, or NULL */
	int progress;               /* -1: when stderr is a terminal; 0 never; 1 always */
	double checkpoint_s;        /* with @out: rewrite it with the rows so far at
				     * most this often (wall seconds; 0: after every
				     * point), so a crash loses little; < 0: never */
	const volatile sig_atomic_t *stop; /* set by a signal handler: stop (NULL: never) */
};

/* Run the sweep; returns the exit status (0, 1 a failed run or plot, 2 bad
 * usage or input).  Interrupted (@c->stop), it still writes every
 * finished row. */
int sweep_cmd_run(const struct sweep_cmd *c);

/* Parse "K/N" (1 <= K <= N <= 1000000).  0, or -1. */
int shard_parse(const char *s, unsigned *k, unsigned *n);

/* Points in shard @k of @n of a sweep of @total points. */
size_t shard_points(size_t total, unsigned k, unsigned n);

#endif
