/* sweep.c - runs points, one simulation each. */
#include "cli/sweep.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/interrupt.h"
#include "cli/scenario_load.h"
#include "cli/units.h"
#include "report/sim_report.h"
#include "sim/results.h"

int run_one(struct results *r, const char *name, const char *const *sets, size_t n_sets,
	    char *err, size_t errlen)
{
	struct scenario *scn = malloc(sizeof(*scn));
	struct sim *s = malloc(sizeof(*s));
	int rc = -1;

	if (!scn || !s) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (scenario_load(scn, name, sets, n_sets, err, errlen))
		goto out;
	if (sim_init(s, scn) == 0) {
		s->stop = &rxlab_signal;
		if (sim_run(s) == 0 && results_collect(r, s) == 0)
			rc = 0;
	}
	if (rc)
		snprintf(err, errlen, "%s: %s", scn->name, s->fatal[0] ? s->fatal : "run failed");
	sim_free(s);
out:
	free(scn);
	free(s);
	return rc;
}

/* Kinds a range endpoint may be written in, tried in this order. */
static const enum unit_kind range_kinds[] = { UNIT_PPS, UNIT_BPS, UNIT_TIME_NS, UNIT_BYTES,
					      UNIT_COUNT };

static int parse_pair(const char *a, const char *b, enum unit_kind *kind, uint64_t *va,
		      uint64_t *vb)
{
	for (size_t i = 0; i < sizeof(range_kinds) / sizeof(range_kinds[0]); i++) {
		if (unit_parse(range_kinds[i], a, va, NULL, 0) == UNIT_OK &&
		    unit_parse(range_kinds[i], b, vb, NULL, 0) == UNIT_OK) {
			*kind = range_kinds[i];
			return 0;
		}
	}
	return -1;
}

static int vary_range(struct vary *v, const char *spec, char *err, size_t errlen)
{
	char a[48] = "", b[48] = "";
	const char *dots = strstr(spec, ".."), *colon = strrchr(spec, ':');
	enum unit_kind kind;
	uint64_t va, vb;
	long n;
	char *end;

	if (!dots || !colon || colon < dots || (size_t)(dots - spec) >= sizeof(a) ||
	    (size_t)(colon - dots - 2) >= sizeof(b)) {
		snprintf(err, errlen, "--vary %s: a range is FROM..TO:N, e.g. 10kpps..2Mpps:20",
			 v->key);
		return -1;
	}
	memcpy(a, spec, (size_t)(dots - spec));
	memcpy(b, dots + 2, (size_t)(colon - dots - 2));
	n = strtol(colon + 1, &end, 10);
	if (*end || n < 2 || n > SWEEP_MAX_VALUES) {
		snprintf(err, errlen, "--vary %s: N = '%s' must be a whole number of points in 2..%d",
			 v->key, colon + 1, SWEEP_MAX_VALUES);
		return -1;
	}
	if (parse_pair(a, b, &kind, &va, &vb)) {
		snprintf(err, errlen, "--vary %s: '%s' and '%s' are not two values with the same "
			 "kind of unit (e.g. 10kpps..2Mpps)", v->key, a, b);
		return -1;
	}
	v->n = (size_t)n;
	v->val = calloc(v->n, sizeof(*v->val));
	if (!v->val)
		return -1;
	for (size_t i = 0; i < v->n; i++) {
		__int128 x = (__int128)va + ((__int128)vb - (__int128)va) * (__int128)i / (n - 1);

		unit_format(kind, (uint64_t)x, v->val[i], sizeof(v->val[i]));
	}
	return 0;
}

static int vary_list(struct vary *v, const char *spec, char *err, size_t errlen)
{
	const char *p = spec;

	v->n = 1;
	for (const char *q = spec; *q; q++)
		v->n += *q == ',';
	v->val = calloc(v->n, sizeof(*v->val));
	if (!v->val)
		return -1;
	for (size_t i = 0; i < v->n; i++) {
		size_t len = strcspn(p, ",");

		if (len == 0 || len >= sizeof(v->val[i])) {
			snprintf(err, errlen, "--vary %s: empty or too long value in list '%s'",
				 v->key, spec);
			return -1;
		}
		memcpy(v->val[i], p, len);
		p += len + 1;
	}
	return 0;
}

int vary_parse(struct vary *v, const char *arg, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');

	memset(v, 0, sizeof(*v));
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(v->key) || !eq[1]) {
		snprintf(err, errlen, "--vary '%s': expected KEY=LIST or KEY=FROM..TO:N, "
			 "e.g. traffic.rate=10kpps..2Mpps:20 or host.rxpath=classic,napi", arg);
		return -1;
	}
	memcpy(v->key, arg, (size_t)(eq - arg));
	if (strstr(eq + 1, ".."))
		return vary_range(v, eq + 1, err, errlen);
	return vary_list(v, eq + 1, err, errlen);
}

void vary_free(struct vary *v)
{
	free(v->val);
	v->val = NULL;
}

/* Point @idx of the product: fills sets[n_sets..] with "key=value". */
static void point_sets(const struct vary *vary, size_t n_vary, size_t idx,
		       char buf[][160], size_t *pick)
{
	for (size_t k = n_vary; k-- > 0;) {
		pick[k] = idx % vary[k].n;
		idx /= vary[k].n;
		snprintf(buf[k], 160, "%s=%s", vary[k].key, vary[k].val[pick[k]]);
	}
}

/* What one point produced, as it travels from a worker process. */
struct point_out {
	int rc;
	struct results r;   /* pointers cleared: the summary needs none */
	char err[512];
};

/* Run point @p of the product into @o. */
static void run_point(const char *name, const char **all, size_t n_sets,
		      const struct vary *vary, size_t n_vary, size_t p, struct point_out *o)
{
	char buf[SWEEP_MAX_VARY][160];
	size_t pick[SWEEP_MAX_VARY];

	point_sets(vary, n_vary, p, buf, pick);
	for (size_t k = 0; k < n_vary; k++)
		all[n_sets + k] = buf[k];
	o->err[0] = '\0';
	o->rc = run_one(&o->r, name, all, n_sets + n_vary, o->err, sizeof(o->err));
	if (o->rc == 0) {
		results_free(&o->r);
		o->r.series = NULL;
		o->r.n_series = 0;
	}
}

static void emit_row(struct table *t, const struct vary *vary, size_t n_vary, size_t p,
		     const struct results *r, bool wide, struct point_brief *brief)
{
	char buf[SWEEP_MAX_VARY][160];
	size_t pick[SWEEP_MAX_VARY];

	point_sets(vary, n_vary, p, buf, pick);
	table_row(t);
	for (size_t k = 0; k < n_vary; k++)
		if (!vary[k].hidden)
			table_str(t, vary[k].val[pick[k]]);
	summary_row(t, r, wide);
	if (brief)
		brief[p] = (struct point_brief){
			r->offered_pps, r->forwarded_pps, r->rx_irqs_per_s, r->delivered_pps,
			r->replied_pps, r->irqs_per_s, r->cpu_pct[ACCT_IDLE], r->wire_pps, r->window_s,
			r->lat_p50_us, r->lat_p99_us, r->lat_p999_us, r->drops_total };
}

static bool write_all(int fd, const void *buf, size_t len)
{
	const char *b = buf;

	while (len) {
		ssize_t n = write(fd, b, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		b += n;
		len -= (size_t)n;
	}
	return true;
}

/* Worker @j of @jobs: points j, j+jobs, ... in order, into @fd. */
static void worker(int fd, size_t j, size_t jobs, size_t total, const char *name,
		   const char **all, size_t n_sets, const struct vary *vary, size_t n_vary)
{
	static struct point_out o;

	for (size_t p = j; p < total && !rxlab_signal; p += jobs) {
		run_point(name, all, n_sets, vary, n_vary, p, &o);
		if (!write_all(fd, &o, sizeof(o)) || o.rc)
			break;
	}
	close(fd);
	_exit(0);
}

/* Start @jobs workers; fds[j] reads worker j.  Returns how many started. */
static size_t start_workers(int *fds, pid_t *pids, size_t jobs, size_t total, const char *name,
			    const char **all, size_t n_sets, const struct vary *vary, size_t n_vary)
{
	size_t j;

	fflush(NULL);
	for (j = 0; j < jobs; j++) {
		int pfd[2];

		if (pipe(pfd))
			break;
		pids[j] = fork();
		if (pids[j] < 0) {
			close(pfd[0]);
			close(pfd[1]);
			break;
		}
		if (pids[j] == 0) {
			for (size_t i = 0; i < j; i++)
				close(fds[i]);
			close(pfd[0]);
			worker(pfd[1], j, jobs, total, name, all, n_sets, vary, n_vary);
		}
		close(pfd[1]);
		fds[j] = pfd[0];
	}
	return j;
}

/* Read worker @j's next point.  A signal to the parent (Ctrl-C on a
 * terminal reaches the workers by itself; kill(1) on the parent does not)
 * is passed on once, so every worker ends its current point as partial. */
static bool read_point(int *fds, const pid_t *pids, size_t jobs, size_t j,
		       struct point_out *o, bool *forwarded)
{
	char *b = (char *)o;
	size_t len = sizeof(*o);

	while (len) {
		ssize_t n = read(fds[j], b, len);

		if (n < 0 && errno == EINTR) {
			for (size_t i = 0; rxlab_signal && !*forwarded && i < jobs; i++)
				kill(pids[i], SIGINT);
			*forwarded = *forwarded || rxlab_signal;
			continue;
		}
		if (n <= 0)
			return false;
		b += n;
		len -= (size_t)n;
	}
	return true;
}

/* Collect the points in order, reading point p from worker p % jobs. */
static int collect(struct table *t, int *fds, const pid_t *pids, size_t jobs, size_t total,
		   const struct vary *vary, size_t n_vary, bool wide, struct point_brief *brief,
		   char *err, size_t errlen)
{
	static struct point_out o;
	bool forwarded = false;

	for (size_t p = 0; p < total; p++) {
		if (!read_point(fds, pids, jobs, p % jobs, &o, &forwarded))
			return rxlab_signal ? 0 : (snprintf(err, errlen, "a sweep worker died"), -1);
		if (o.rc) {
			snprintf(err, errlen, "%s", o.err);
			return -1;
		}
		emit_row(t, vary, n_vary, p, &o.r, wide, brief);
	}
	return 0;
}

static int sweep_parallel(struct table *t, const char *name, const char **all, size_t n_sets,
			  const struct vary *vary, size_t n_vary, size_t total, size_t jobs,
			  bool wide, struct point_brief *brief, char *err, size_t errlen)
{
	int fds[SWEEP_MAX_JOBS];
	pid_t pids[SWEEP_MAX_JOBS];
	size_t started = start_workers(fds, pids, jobs, total, name, all, n_sets, vary, n_vary);
	int rc;

	if (started < jobs) {
		for (size_t j = 0; j < started; j++) {
			close(fds[j]);
			kill(pids[j], SIGTERM);
			waitpid(pids[j], NULL, 0);
		}
		snprintf(err, errlen, "cannot start %zu sweep workers: %s", jobs, strerror(errno));
		return -1;
	}
	rc = collect(t, fds, pids, jobs, total, vary, n_vary, wide, brief, err, errlen);
	for (size_t j = 0; j < jobs; j++) {
		close(fds[j]);
		if (rc)
			kill(pids[j], SIGTERM);
		waitpid(pids[j], NULL, 0);
	}
	return rc;
}

static int sweep_serial(struct table *t, const char *name, const char **all, size_t n_sets,
			const struct vary *vary, size_t n_vary, size_t total, bool wide,
			struct point_brief *brief, char *err, size_t errlen)
{
	static struct point_out o;

	for (size_t p = 0; p < total && !rxlab_signal; p++) {
		run_point(name, all, n_sets, vary, n_vary, p, &o);
		if (o.rc) {
			snprintf(err, errlen, "%s", o.err);
			return -1;
		}
		emit_row(t, vary, n_vary, p, &o.r, wide, brief);
	}
	return 0;
}

int sweep_run(struct table *t, const char *name, const char *const *sets, size_t n_sets,
	      const struct vary *vary, size_t n_vary, size_t jobs, bool wide,
	      struct point_brief *brief, char *err, size_t errlen)
{
	const char **all = calloc(n_sets + SWEEP_MAX_VARY, sizeof(*all));
	size_t total = 1;
	int rc;

	if (!all)
		return -1;
	for (size_t k = 0; k < n_vary; k++)
		total *= vary[k].n;
	for (size_t i = 0; i < n_sets; i++)
		all[i] = sets[i];
	if (jobs > total)
		jobs = total;
	if (jobs > SWEEP_MAX_JOBS)
		jobs = SWEEP_MAX_JOBS;
	if (jobs > 1)
		rc = sweep_parallel(t, name, all, n_sets, vary, n_vary, total, jobs, wide, brief,
				    err, errlen);
	else
		rc = sweep_serial(t, name, all, n_sets, vary, n_vary, total, wide, brief, err,
				  errlen);
	free(all);
	return rc;
}

size_t sweep_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > SWEEP_MAX_JOBS ? SWEEP_MAX_JOBS : (size_t)n;
}
