/* run_trace.c - `rxlab run --trace FILE` (see run_trace.h). */
#include "cli/run_trace.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/common.h"
#include "io/outfile.h"
#include "report/perf_script.h"

struct trace_file {
	struct outfile *of;
	int err;              /* errno of the write that failed */
};

/* struct rxl_trace's emit: one line; the first failed write stops the events. */
static int emit_line(void *ctx, const struct rxl_tp_event *e)
{
	struct trace_file *tf = ctx;

	errno = 0;
	if (perf_script_line(outfile_fp(tf->of), e) == 0)
		return 0;
	tf->err = errno ? errno : EIO;
	return -1;
}

/* The run is over: close FILE (@path), or say why it is not good.  0 or 2. */
static int trace_close(struct outfile *of, const char *path, const struct rxl_trace *tr,
		       int write_errno)
{
	char err[1024];

	if (tr->stopped || tr->nomem) {
		fprintf(stderr, "rxlab: --trace %s: %s\n", path,
			tr->nomem ? "out of memory" : strerror(write_errno));
		outfile_abort(of);
		return 2;
	}
	if (outfile_close(of, err, sizeof(err))) {
		fprintf(stderr, "rxlab: --trace: %s\n", err);
		return 2;
	}
	if (tr->truncated)
		fprintf(stderr, "rxlab: --trace %s: stopped after %llu events, at %.9f s of "
			"simulated time (--trace-limit; 0: no limit)\n", path,
			(unsigned long long)tr->emitted, (double)tr->last_ns / 1e9);
	return 0;
}

int run_traced(struct results *r, const struct opts *o, const volatile sig_atomic_t *stop)
{
	struct rxl_trace tr = { .emit = emit_line, .limit = o->trace_limit };
	struct trace_file tf = { NULL, 0 };
	struct rxl_scenario *scn;
	char err[1024];
	int rc;

	scn = rxl_scenario_load(o->scenario, o->sets, o->n_sets, err, sizeof(err));
	if (!scn) {
		fprintf(stderr, "rxlab: %s\n", err);
		return 2;
	}
	if (outfile_open(&tf.of, o->trace, err, sizeof(err))) {
		fprintf(stderr, "rxlab: --trace: %s\n", err);
		rxl_scenario_free(scn);
		return 2;
	}
	tr.ctx = &tf;
	rc = rxl_sim_run_traced(scn, stop, &tr, r, err, sizeof(err));
	rxl_scenario_free(scn);
	if (rc) { /* the statuses of run without --trace (cmd_run.c) */
		fprintf(stderr, "rxlab: %s\n", err);
		outfile_abort(tf.of);
		return strstr(err, "model error") || strstr(err, "accounting") ? 1 : 2;
	}
	rc = trace_close(tf.of, o->trace, &tr, tf.err);
	if (rc)
		results_free(r);
	return rc;
}
