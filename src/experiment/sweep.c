/* sweep.c - runs points, one simulation each. */
#include "experiment/sweep.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

#include "experiment/estimate.h"
#include "model/units.h"
#include "report/sim_report.h"
#include "rxlab/sim.h"

int run_one(struct results *r, const char *name, const char *const *sets, size_t n_sets,
	    const volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	struct rxl_scenario *scn = rxl_scenario_load(name, sets, n_sets, err, errlen);
	int rc = scn ? rxl_sim_run(scn, stop, r, err, errlen) : -1;

	rxl_scenario_free(scn);
	return rc ? -1 : 0;
}

/* Kinds a range endpoint may be written in, tried in this order. */
static const enum unit_kind range_kinds[] = { UNIT_PPS, UNIT_BPS, UNIT_TIME_NS, UNIT_COUNT,
					      UNIT_BYTES };

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

/* Value @i of @n from @va to @vb: linear, or geometric (@log) rounded to
 * three significant digits so that labels stay readable (the ends exact). */
static uint64_t range_value(uint64_t va, uint64_t vb, size_t i, size_t n, bool log_steps)
{
	double x, mag;

	if (!log_steps)
		return (uint64_t)((__int128)va + ((__int128)vb - (__int128)va) * (__int128)i /
				  (__int128)(n - 1));
	if (i == 0 || i == n - 1)
		return i ? vb : va;
	x = (double)va * pow((double)vb / (double)va, (double)i / (double)(n - 1));
	mag = pow(10, floor(log10(x)) - 2);
	x = mag >= 1 ? round(x / mag) * mag : round(x);
	return x < 1 ? 1 : (uint64_t)x;
}

/* "FROM..TO:N" or "FROM..TO:N:log" (also ":lin"). */
static int vary_range(struct vary *v, const char *spec, char *err, size_t errlen)
{
	char a[48] = "", b[48] = "", n_txt[16] = "";
	const char *dots = strstr(spec, ".."), *colon = dots ? strchr(dots, ':') : NULL;
	const char *step = colon ? strchr(colon + 1, ':') : NULL;
	bool log_steps = step && !strcmp(step, ":log");
	enum unit_kind kind;
	uint64_t va, vb;
	long n;
	char *end;

	if (!dots || !colon || (size_t)(dots - spec) >= sizeof(a) ||
	    (size_t)(colon - dots - 2) >= sizeof(b) ||
	    (size_t)((step ? step : colon + strlen(colon)) - colon - 1) >= sizeof(n_txt)) {
		snprintf(err, errlen, "--vary %s: a range is FROM..TO:N or FROM..TO:N:log, e.g. "
			 "10kpps..2Mpps:20", v->key);
		return -1;
	}
	if (step && !log_steps && strcmp(step, ":lin")) {
		snprintf(err, errlen, "--vary %s: steps '%s' must be :lin or :log", v->key, step + 1);
		return -1;
	}
	memcpy(a, spec, (size_t)(dots - spec));
	memcpy(b, dots + 2, (size_t)(colon - dots - 2));
	memcpy(n_txt, colon + 1, (size_t)((step ? step : colon + strlen(colon)) - colon - 1));
	n = strtol(n_txt, &end, 10);
	if (*end || !*n_txt || n < 2 || n > SWEEP_MAX_VALUES) {
		snprintf(err, errlen, "--vary %s: N = '%s' must be a whole number of points in 2..%d",
			 v->key, n_txt, SWEEP_MAX_VALUES);
		return -1;
	}
	if (parse_pair(a, b, &kind, &va, &vb)) {
		snprintf(err, errlen, "--vary %s: '%s' and '%s' are not two values with the same "
			 "kind of unit (e.g. 10kpps..2Mpps)", v->key, a, b);
		return -1;
	}
	if (log_steps && (va == 0 || vb == 0)) {
		snprintf(err, errlen, "--vary %s: a :log range needs FROM and TO above 0 (got %s..%s)",
			 v->key, a, b);
		return -1;
	}
	v->n = (size_t)n;
	v->val = calloc(v->n, sizeof(*v->val));
	if (!v->val)
		return -1;
	for (size_t i = 0; i < v->n; i++)
		unit_format(kind, range_value(va, vb, i, v->n, log_steps), v->val[i],
			    sizeof(v->val[i]));
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

/* Each value once: a point is found again by its values (--resume). */
static int vary_unique(struct vary *v, char *err, size_t errlen)
{
	for (size_t i = 1; i < v->n; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(v->val[i], v->val[j])) {
				snprintf(err, errlen, "--vary %s: the value %s comes twice (a range "
					 "with more points than distinct values?)", v->key, v->val[i]);
				return -1;
			}
	return 0;
}

/* A key list "a+b+c" with an empty part or more than SWEEP_MAX_LINKED. */
static bool linked_bad(const char *key)
{
	size_t parts = 1;

	if (key[0] == '+' || key[strlen(key) - 1] == '+' || strstr(key, "++"))
		return true;
	for (; *key; key++)
		parts += *key == '+';
	return parts > SWEEP_MAX_LINKED;
}

/* Copy the key list s[0..n) into @key (size @len) without the blanks around
 * each '+'-joined part, as scenario_load() ignores them: "a + b " is "a+b".
 * false if it does not fit. */
static bool key_trimmed(const char *s, size_t n, char *key, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == ' ' || s[i] == '\t') {
			size_t j = i;

			while (j < n && (s[j] == ' ' || s[j] == '\t'))
				j++;
			/* inner blanks stay (the loader refuses them); blanks at
			 * an end or next to '+' go */
			if (o == 0 || key[o - 1] == '+' || j == n || s[j] == '+') {
				i = j - 1;
				continue;
			}
		}
		if (o + 1 >= len)
			return false;
		key[o++] = s[i];
	}
	key[o] = '\0';
	return true;
}

int vary_parse(struct vary *v, const char *arg, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');

	memset(v, 0, sizeof(*v));
	if (!eq || !key_trimmed(arg, (size_t)(eq - arg), v->key, sizeof(v->key)) ||
	    !v->key[0] || !eq[1]) {
		snprintf(err, errlen, "--vary '%s': expected KEY=LIST or KEY=FROM..TO:N, "
			 "e.g. traffic.rate=10kpps..2Mpps:20 or host.rxpath=classic,napi", arg);
		return -1;
	}
	if (linked_bad(v->key)) {
		snprintf(err, errlen, "--vary '%s': keys that move together are joined by '+', "
			 "at most %d, none empty, e.g. nic.eth0.rx-frames+nic.eth0.rx-frames-irq=5,20",
			 arg, SWEEP_MAX_LINKED);
		return -1;
	}
	if ((strstr(eq + 1, "..") ? vary_range(v, eq + 1, err, errlen)
				  : vary_list(v, eq + 1, err, errlen)) ||
	    vary_unique(v, err, errlen)) {
		vary_free(v);
		return -1;
	}
	return 0;
}

/* Part @i of the key list @key ("a+b+c"): its start, length in *len; NULL
 * past the last. */
static const char *key_part(const char *key, size_t i, size_t *len)
{
	for (; i > 0; i--) {
		key = strchr(key, '+');
		if (!key)
			return NULL;
		key++;
	}
	*len = strcspn(key, "+");
	return key;
}

/* Where (variation, part) of the first key that comes twice, or false. */
static bool key_twice(const struct vary *vary, size_t n_vary, size_t *k1, size_t *k2,
		      const char **key, size_t *key_len)
{
	for (size_t a = 0; a < n_vary; a++)
		for (size_t i = 0; (*key = key_part(vary[a].key, i, key_len)); i++)
			for (size_t b = a; b < n_vary; b++)
				for (size_t j = b == a ? i + 1 : 0;; j++) {
					size_t len;
					const char *other = key_part(vary[b].key, j, &len);

					if (!other)
						break;
					if (len == *key_len && !strncmp(other, *key, len)) {
						*k1 = a;
						*k2 = b;
						return true;
					}
				}
	return false;
}

int vary_check_keys(const struct vary *vary, size_t n_vary, char *err, size_t errlen)
{
	size_t a, b, len;
	const char *key;

	if (!key_twice(vary, n_vary, &a, &b, &key, &len))
		return 0;
	if (a == b)
		snprintf(err, errlen, "--vary %s: the key %.*s comes twice: each key of a '+' "
			 "group is set once per point", vary[a].key, (int)len, key);
	else if (!strcmp(vary[a].key, vary[b].key))
		snprintf(err, errlen, "--vary %s comes twice: a point has one value per key (the "
			 "second's values would run under the first's labels); put all the values "
			 "in one --vary", vary[a].key);
	else
		snprintf(err, errlen, "--vary %s and --vary %s both vary %.*s: a point has one "
			 "value per key (the second's values would run under the first's labels)",
			 vary[a].key, vary[b].key, (int)len, key);
	return -1;
}

void vary_free(struct vary *v)
{
	free(v->val);
	v->val = NULL;
}

/* Point @idx of the product: buf[k] = "key=value", pick[k] = value index. */
static void point_sets(const struct vary *vary, size_t n_vary, size_t idx,
		       char buf[][160], size_t *pick)
{
	for (size_t k = n_vary; k-- > 0;) {
		pick[k] = idx % vary[k].n;
		idx /= vary[k].n;
		snprintf(buf[k], 160, "%s=%s", vary[k].key, vary[k].val[pick[k]]);
	}
}

size_t sweep_points(const struct vary *vary, size_t n_vary)
{
	size_t total = 1;

	for (size_t k = 0; k < n_vary; k++) {
		if (vary[k].n && total > SIZE_MAX / vary[k].n)
			return 0;
		total *= vary[k].n;
	}
	return total;
}

const char *sweep_point_value(const struct vary *vary, size_t n_vary, size_t point, size_t k)
{
	char buf[SWEEP_MAX_VARY][160];
	size_t pick[SWEEP_MAX_VARY];

	point_sets(vary, n_vary, point, buf, pick);
	return vary[k].val[pick[k]];
}

/* What one point produced, as it travels from a worker process. */
struct point_out {
	int rc;
	struct results r;   /* pointers cleared: the summary needs none */
	char err[512];
};

/* RXLAB_SWEEP_TRACE=FILE: append "point P" to FILE as each point starts (for
 * tests and for finding the point that hangs; O_APPEND keeps the lines of
 * several workers whole). */
static void trace_point(size_t p)
{
	const char *path = getenv("RXLAB_SWEEP_TRACE");
	char line[32];
	int fd, n;

	if (!path || !*path)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "point %zu\n", p);
	if (write(fd, line, (size_t)n) != n)
		n = -1;
	close(fd);
}

/* Run point @p of the product into @o. */
/* "a+b=v" sets a=v and b=v (keys that move together); into out[], which
 * holds SWEEP_MAX_VARY * SWEEP_MAX_LINKED entries.  Returns how many. */
static size_t linked_sets(const struct vary *vary, size_t n_vary, const size_t *pick,
			  char out[][160])
{
	size_t n = 0;

	for (size_t k = 0; k < n_vary; k++) {
		const char *key = vary[k].key;

		for (size_t part = 0; *key && part < SWEEP_MAX_LINKED; part++) {
			size_t len = strcspn(key, "+");

			snprintf(out[n++], 160, "%.*s=%s", (int)len, key, vary[k].val[pick[k]]);
			key += len + (key[len] == '+');
		}
	}
	return n;
}

static void run_point(const struct sweep_plan *pl, const char **all, size_t p,
		      const volatile sig_atomic_t *stop, struct point_out *o)
{
	char buf[SWEEP_MAX_VARY][160], sets[SWEEP_MAX_VARY * SWEEP_MAX_LINKED][160];
	size_t pick[SWEEP_MAX_VARY], n;

	trace_point(p);
	point_sets(pl->vary, pl->n_vary, p, buf, pick);
	n = linked_sets(pl->vary, pl->n_vary, pick, sets);
	for (size_t k = 0; k < n; k++)
		all[pl->n_sets + k] = sets[k];
	o->err[0] = '\0';
	o->rc = run_one(&o->r, pl->name, all, pl->n_sets + n, stop, o->err, sizeof(o->err));
	if (o->rc == 0) {
		results_free(&o->r);
		o->r.series = NULL;
		o->r.n_series = 0;
	}
}

static bool sweep_stopped(const struct sweep_plan *pl)
{
	return pl->stop && *pl->stop;
}

/* A walk over the points of a plan, in order: the i-th point to run is p. */
struct todo {
	const struct sweep_plan *pl;
	size_t i, p, total;
};

static size_t plan_stride(const struct sweep_plan *pl)
{
	return pl->stride ? pl->stride : 1;
}

/* From point @p on, the first not skipped; false past the end. */
static bool todo_seek(struct todo *t, size_t p)
{
	for (; p < t->total; p += plan_stride(t->pl))
		if (!sweep_bit(t->pl->skip, p)) {
			t->p = p;
			return true;
		}
	return false;
}

static bool todo_first(struct todo *t, const struct sweep_plan *pl)
{
	t->pl = pl;
	t->i = 0;
	t->total = sweep_points(pl->vary, pl->n_vary);
	return todo_seek(t, pl->first);
}

static bool todo_next(struct todo *t)
{
	t->i++;
	return todo_seek(t, t->p + plan_stride(t->pl));
}

size_t sweep_todo_count(const struct sweep_plan *pl)
{
	struct todo t;
	size_t n = 0;

	for (bool ok = todo_first(&t, pl); ok; ok = todo_next(&t))
		n++;
	return n;
}

/* Estimate point @p alone. */
static int point_estimate(const struct sweep_plan *pl, const char **all, size_t p,
			  struct estimate *e)
{
	char buf[SWEEP_MAX_VARY][160], sets[SWEEP_MAX_VARY * SWEEP_MAX_LINKED][160];
	size_t pick[SWEEP_MAX_VARY], n;

	point_sets(pl->vary, pl->n_vary, p, buf, pick);
	n = linked_sets(pl->vary, pl->n_vary, pick, sets);
	for (size_t k = 0; k < n; k++)
		all[pl->n_sets + k] = sets[k];
	return estimate_run(e, pl->name, all, pl->n_sets + n);
}

int sweep_estimate(const struct sweep_plan *pl, struct estimate *e, size_t *jobs)
{
	const char **all = calloc(pl->n_sets + SWEEP_MAX_VARY * SWEEP_MAX_LINKED, sizeof(*all));
	size_t n = 0, j = pl->jobs ? pl->jobs : 1, cpus = sweep_default_jobs(), first = 0, last_p = 0;
	struct estimate last;
	struct todo t;
	int rc = -1;

	for (bool ok = todo_first(&t, pl); ok; ok = todo_next(&t), n++) {
		first = n ? first : t.p;
		last_p = t.p;
	}
	if (!all || n == 0) {
		free(all);
		return -1;
	}
	memcpy(all, pl->sets, pl->n_sets * sizeof(*all));
	if (point_estimate(pl, all, first, e) == 0 &&
	    point_estimate(pl, all, last_p, &last) == 0) {
		j = j < n ? j : n;
		j = j < cpus ? j : cpus;
		e->wall_s = (e->wall_s + last.wall_s) / 2 * (double)n / (double)j;
		e->sim_s = e->sim_s > last.sim_s ? e->sim_s : last.sim_s;
		*jobs = j;
		rc = 0;
	}
	free(all);
	return rc;
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

/* The worker processes of a parallel sweep, as the parent sees them.
 *
 * Signals.  SIGINT and SIGTERM are blocked in the parent from before the
 * first fork to the last wait, and let in only while it waits for a worker
 * (pselect() with @open_mask, the mask of before): a signal that comes at
 * any other moment (while forking, while emitting a row) stays pending and
 * the next wait returns at once with it.  Checking the stop flag and then
 * blocking in read() instead would let a signal that comes between the two
 * wait for a whole point, and one that came during the forks was never
 * passed on at all: the workers forked before it ran every point (issue
 * #14).  The parent passes the first signal on to every worker once (kill(1)
 * on the parent reaches no worker; Ctrl-C on a terminal reaches them all);
 * a worker keeps its handler for a second one (worker_catch_signals()),
 * so the signal passed on after a terminal's cannot kill it before it
 * reports its partial point. */
struct pool {
	size_t jobs;
	int fds[SWEEP_MAX_JOBS];       /* fds[j] reads worker j */
	pid_t pids[SWEEP_MAX_JOBS];
	bool dead[SWEEP_MAX_JOBS];     /* worker j's pipe ended */
	bool forwarded;                /* the signal was passed on */
	sigset_t open_mask;            /* the parent's mask outside the pool */
	const volatile sig_atomic_t *stop; /* the plan's stop flag */
};

/* The stop flag of a sweep worker process. */
static volatile sig_atomic_t worker_signal;

static void on_worker_signal(int sig)
{
	worker_signal = sig;
}

/* In a worker: every SIGINT/SIGTERM is caught (no SA_RESETHAND).  A worker
 * gets Ctrl-C from the terminal and the parent's forwarded SIGINT too; the
 * second must not kill it before it reports its partial point.  A second
 * Ctrl-C ends the parent, and a worker dies with it (PR_SET_PDEATHSIG). */
static void worker_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_worker_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Worker @j of @jobs: todo points j, j+jobs, ... in order, into @fd.  On
 * Linux a worker dies with the parent (SIGKILL from a batch system, OOM):
 * nobody would read what it computes. */
static void worker(int fd, size_t j, size_t jobs, const struct sweep_plan *pl, const char **all,
		   pid_t parent, const sigset_t *open_mask)
{
	static struct point_out o;

	worker_signal = 0;
	worker_catch_signals();
	sigprocmask(SIG_SETMASK, open_mask, NULL);
#ifdef __linux__
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(0);
#else
	(void)parent;
#endif

	struct todo t;

	for (bool ok = todo_first(&t, pl); ok && !worker_signal; ok = todo_next(&t)) {
		if (t.i % jobs != j)
			continue;
		run_point(pl, all, t.p, &worker_signal, &o);
		if (!write_all(fd, &o, sizeof(o)) || o.rc)
			break;
	}
	close(fd);
	_exit(0);
}

/* Start @pool->jobs workers with SIGINT and SIGTERM blocked (see struct
 * pool).  Returns how many started. */
static size_t start_workers(struct pool *pool, const struct sweep_plan *pl, const char **all)
{
	size_t j;
	pid_t parent = getpid();
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &pool->open_mask);
	fflush(NULL);
	for (j = 0; j < pool->jobs; j++) {
		int pfd[2];

		if (pipe(pfd))
			break;
		pool->pids[j] = fork();
		if (pool->pids[j] < 0) {
			close(pfd[0]);
			close(pfd[1]);
			break;
		}
		if (pool->pids[j] == 0) {
			for (size_t i = 0; i < j; i++)
				close(pool->fds[i]);
			close(pfd[0]);
			worker(pfd[1], j, pool->jobs, pl, all, parent, &pool->open_mask);
		}
		close(pfd[1]);
		pool->fds[j] = pfd[0];
	}
	return j;
}

/* Pass a signal the parent received on to every worker, once. */
static void forward_signal(struct pool *pool)
{
	if (!(pool->stop && *pool->stop) || pool->forwarded)
		return;
	for (size_t i = 0; i < pool->jobs; i++)
		kill(pool->pids[i], SIGINT);
	pool->forwarded = true;
}

/* Wait until worker @j's pipe is readable, the only moment the parent takes
 * signals; a signal is passed on at once. */
static void wait_worker(struct pool *pool, size_t j)
{
	for (;;) {
		fd_set rd;

		forward_signal(pool);
		FD_ZERO(&rd);
		FD_SET(pool->fds[j], &rd);
		if (pselect(pool->fds[j] + 1, &rd, NULL, NULL, NULL, &pool->open_mask) >= 0 ||
		    errno != EINTR)
			break;
	}
	forward_signal(pool);
}

/* Read worker @j's next point; false when its pipe ended first. */
static bool read_point(struct pool *pool, size_t j, struct point_out *o)
{
	char *b = (char *)o;
	size_t len = sizeof(*o);

	while (len) {
		ssize_t n;

		wait_worker(pool, j);
		n = read(pool->fds[j], b, len);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return false;
		b += n;
		len -= (size_t)n;
	}
	return true;
}

/* Collect the points in todo order, reading the i-th from worker i % jobs.
 * After a signal a worker ends after its current point: the points it did
 * not run are skipped and the other workers' finished points still come. */
static int collect(const struct sweep_plan *pl, struct pool *pool, sweep_emit_fn *emit,
		   void *ctx, char *err, size_t errlen)
{
	static struct point_out o;
	struct todo t;

	for (bool ok = todo_first(&t, pl); ok; ok = todo_next(&t)) {
		size_t j = t.i % pool->jobs;

		if (pool->dead[j])
			continue;
		if (!read_point(pool, j, &o)) {
			pool->dead[j] = true;
			if (sweep_stopped(pl))
				continue;
			snprintf(err, errlen, "a sweep worker died");
			return -1;
		}
		if (o.rc) {
			snprintf(err, errlen, "%s", o.err);
			return -1;
		}
		emit(ctx, t.p, &o.r);
	}
	return 0;
}

/* End the @n workers started: closed pipes, SIGTERM when @kill_them, reaped;
 * then the parent takes signals again (a pending one is handled here). */
static void end_workers(struct pool *pool, size_t n, bool kill_them)
{
	for (size_t j = 0; j < n; j++) {
		close(pool->fds[j]);
		if (kill_them)
			kill(pool->pids[j], SIGTERM);
		while (waitpid(pool->pids[j], NULL, 0) < 0 && errno == EINTR)
			;
	}
	sigprocmask(SIG_SETMASK, &pool->open_mask, NULL);
}

static int sweep_parallel(const struct sweep_plan *pl, const char **all, size_t jobs,
			  sweep_emit_fn *emit, void *ctx, char *err, size_t errlen)
{
	static struct pool pool;
	size_t started;
	int rc;

	memset(&pool, 0, sizeof(pool));
	pool.jobs = jobs;
	pool.stop = pl->stop;
	started = start_workers(&pool, pl, all);
	if (started < jobs) {
		int e = errno;

		end_workers(&pool, started, true);
		snprintf(err, errlen, "cannot start %zu sweep workers: %s", jobs, strerror(e));
		return -1;
	}
	rc = collect(pl, &pool, emit, ctx, err, errlen);
	end_workers(&pool, jobs, rc != 0);
	return rc;
}

static int sweep_serial(const struct sweep_plan *pl, const char **all, sweep_emit_fn *emit,
			void *ctx, char *err, size_t errlen)
{
	static struct point_out o;
	struct todo t;

	for (bool ok = todo_first(&t, pl); ok && !sweep_stopped(pl); ok = todo_next(&t)) {
		run_point(pl, all, t.p, pl->stop, &o);
		if (o.rc) {
			snprintf(err, errlen, "%s", o.err);
			return -1;
		}
		emit(ctx, t.p, &o.r);
	}
	return 0;
}

int sweep_exec(const struct sweep_plan *pl, sweep_emit_fn *emit, void *ctx, char *err,
	       size_t errlen)
{
	const char **all = calloc(pl->n_sets + SWEEP_MAX_VARY * SWEEP_MAX_LINKED, sizeof(*all));
	size_t jobs = pl->jobs ? pl->jobs : 1, n = sweep_todo_count(pl);
	int rc;

	if (!all) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < pl->n_sets; i++)
		all[i] = pl->sets[i];
	if (jobs > n)
		jobs = n;
	if (jobs > SWEEP_MAX_JOBS)
		jobs = SWEEP_MAX_JOBS;
	if (jobs > 1)
		rc = sweep_parallel(pl, all, jobs, emit, ctx, err, errlen);
	else
		rc = sweep_serial(pl, all, emit, ctx, err, errlen);
	free(all);
	return rc;
}

struct point_brief point_brief_of(const struct results *r)
{
	return (struct point_brief){
		r->offered_pps, r->forwarded_pps, r->rx_irqs_per_s, r->delivered_pps,
		r->replied_pps, r->irqs_per_s, r->cpu_pct[ACCT_IDLE], r->wire_pps, r->window_s,
		r->lat_p50_us, r->lat_p99_us, r->lat_p999_us, r->drops_total };
}

/* sweep_run(): rows into a table, in point order. */
struct table_sink {
	struct table *t;
	const struct vary *vary;
	size_t n_vary;
	bool wide;
	struct point_brief *brief;
};

static void emit_row(void *ctx, size_t p, const struct results *r)
{
	struct table_sink *s = ctx;

	table_row(s->t);
	for (size_t k = 0; k < s->n_vary; k++)
		if (!s->vary[k].hidden)
			table_str(s->t, sweep_point_value(s->vary, s->n_vary, p, k));
	summary_row(s->t, r, s->wide);
	if (s->brief)
		s->brief[p] = point_brief_of(r);
}

int sweep_run(struct table *t, const char *name, const char *const *sets, size_t n_sets,
	      const struct vary *vary, size_t n_vary, size_t jobs, bool wide,
	      struct point_brief *brief, const volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	struct sweep_plan pl = { .name = name, .sets = sets, .n_sets = n_sets, .vary = vary,
				 .n_vary = n_vary, .jobs = jobs, .stop = stop };
	struct table_sink sink = { t, vary, n_vary, wide, brief };

	return sweep_exec(&pl, emit_row, &sink, err, errlen);
}

size_t sweep_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > SWEEP_MAX_JOBS ? SWEEP_MAX_JOBS : (size_t)n;
}
