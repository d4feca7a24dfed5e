/* bench_sim.c - simulation speed and memory, printed as figures (never asserted).
 *
 * Cases (issue #5):
 *   napi-10g      NAPI forwarding host offered 14.88 Mpps (64 B at 10 Gb/s
 *                 line rate): simulated packets (frames offered) per
 *                 wall-clock second, and processed ones (forwarded or
 *                 delivered: most offered frames are dropped at the NIC).
 *   classic-sat   classic path at its saturation point (one interrupt per
 *                 frame): engine events per wall-clock second.  Goal >= 10 M/s.
 *   rr-busy-poll  built-in rr-server with apps.busy_poll=50us: events and
 *                 simulated requests served per wall-clock second.
 *   tx-usecs-exponent  the napi-10g router with a host fast enough to forward
 *                 all 14.88 Mpps (every cost 10 ns: the "bench-tiny" profile,
 *                 written to a temporary file), a 4096-descriptor TX ring
 *                 and tx-usecs 64; bench/run runs it under callgrind with
 *                 --set nic.eth1.tx-usecs=1us, 8us, 64us and prints how the
 *                 cost per forwarded frame grows with tx-usecs (issue #20:
 *                 it must not; exponent goal <= 0.05).
 *   memcached     the built-in memcached scenario (100G, 8 queues, Poisson
 *                 requests, epoll server threads): requests served.
 *   fwd-10g-modern  a NAPI router on a modern profile (epyc-7742-ice, 16
 *                 CPUs, 16 queues per port spread over them, 1024 flows by
 *                 RSS, rx-usecs 50 as ice's default) that forwards all
 *                 14.88 Mpps: processed packets per wall second (issue
 *                 #20's goal >= 50 M/s).
 *   host-100g     the modern 100G router: 148.8 Mpps of 64 B frames (100 Gb/s
 *                 line rate) over 4096 flows, RSS to 8 queues per port on 8
 *                 CPUs (bench/run sets host.cpus and nic.*.combined to 8..64
 *                 with --set): sim_over_real, simulated seconds per wall
 *                 second (goal >= 1: faster than real time).
 *
 * Every case runs for 10 simulated seconds unless --duration says otherwise,
 * with run.warmup=0 so that every simulated second is in the window.  A run
 * is what an embedding program does (rxlab/sim.h): rxl_scenario_load(),
 * rxl_sim_run(), rxl_scenario_free(), timed together.
 *
 * Memory.  bench_sim is linked with --wrap for malloc, calloc, realloc and
 * free (bench/CMakeLists.txt), so every allocation the simulator makes is
 * counted here, and with --wrap=engine_init, engine_free and
 * results_collect so that an allocation can be placed in simulated time:
 * rxl_sim_run() is a single call, and the event loop's engine_pop() is
 * inline (sim/engine.h), so the wrapped engine_init() keeps a pointer to
 * the run's engine, whose "now" each allocation reads, engine_free() drops
 * it, and results_collect() says the event loop has ended.  Those probes
 * are the only things here below the public API (sim/engine.h,
 * sim/results.h), which no public header has reason to show.  Allocations
 * are split at the steady-state mark (10% of the simulated duration):
 * "setup" before it (scenario, host, first growth of the event heap),
 * "steady" from the first event at or after it until the event loop ends
 * (results are collected after that and are not counted).  The event heap grows by
 * doubling, so a run in steady state shows 0.  Allocations glibc makes
 * internally (stdio buffers, strdup) are not seen; the simulator makes none
 * of those in its loop.  heap_peak is the high-water mark of live bytes
 * (malloc_usable_size) during the case; rss_peak is the process's VmHWM, so
 * compare it between separate processes (bench/run does, at 10 s and 100 s).
 *
 * Usage: bench_sim [--csv] [--case NAME] [--duration TIME] [--repeat N]
 *                  [--set KEY=VALUE] [SIMULATED_SECONDS]
 *   --case NAME      run one case (repeatable); default all
 *   --set KEY=VALUE  a scenario setting on top of each case's (repeatable,
 *                    at most 8), as rxlab run --set takes it
 *   --duration TIME  simulated time per case: 10s, 200ms (a bare number is
 *                    seconds); the positional argument is the same
 *   --repeat N       run each case N times and report the fastest (the
 *                    machine is shared; the minimum is the least disturbed)
 *   --csv            one "case,metric,value" row per figure
 */
#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rxlab/sim.h"
#include "sim/engine.h"
#include "sim/results.h"

/* ---- allocation accounting (see the top of the file) ---- */

enum alloc_phase { AP_SETUP, AP_STEADY, AP_DONE, AP_N };

static struct {
	enum alloc_phase phase; /* AP_SETUP until the mark (phase()), AP_DONE once the
	                         * results are being collected */
	const struct engine *eng; /* the run's engine, from engine_init to engine_free */
	int64_t mark_ns;       /* steady state begins at this simulated time */
	uint64_t calls[AP_N];  /* malloc + calloc + realloc calls per phase */
	size_t live_bytes;     /* usable bytes currently allocated */
	size_t peak_bytes;     /* high-water mark of live_bytes since the case began */
} ac;

/* The linker sends the simulator's calls here (-Wl,--wrap=SYMBOL); the
 * __real_ names are the library functions.  The names are fixed by ld. */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
int __real_engine_init(struct engine *e, size_t cap);
void __real_engine_free(struct engine *e);
int __real_results_collect(struct results *r, const struct sim *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
int __wrap_engine_init(struct engine *e, size_t cap);
void __wrap_engine_free(struct engine *e);
int __wrap_results_collect(struct results *r, const struct sim *s);

/* The phase of an allocation made now: steady from the first event at or
 * after the mark (engine_pop() sets now to the popped event's time before
 * the event is handled), until the results are collected. */
static enum alloc_phase phase(void)
{
	if (ac.phase == AP_SETUP && ac.eng && ac.eng->now >= ac.mark_ns)
		ac.phase = AP_STEADY;
	return ac.phase;
}

static void *counted(void *p)
{
	ac.calls[phase()]++;
	if (p) {
		ac.live_bytes += malloc_usable_size(p);
		if (ac.live_bytes > ac.peak_bytes)
			ac.peak_bytes = ac.live_bytes;
	}
	return p;
}

void *__wrap_malloc(size_t n)
{
	return counted(__real_malloc(n));
}

void *__wrap_calloc(size_t n, size_t size)
{
	return counted(__real_calloc(n, size));
}

void *__wrap_realloc(void *p, size_t n)
{
	size_t old = p ? malloc_usable_size(p) : 0;
	void *q = __real_realloc(p, n);

	if (q || n == 0)
		ac.live_bytes -= old;
	return counted(q);
}

void __wrap_free(void *p)
{
	if (p)
		ac.live_bytes -= malloc_usable_size(p);
	__real_free(p);
}

int __wrap_engine_init(struct engine *e, size_t cap)
{
	ac.eng = e; /* before the allocations it makes: now = 0, setup */
	return __real_engine_init(e, cap);
}

void __wrap_engine_free(struct engine *e)
{
	if (ac.eng == e)
		ac.eng = NULL;
	__real_engine_free(e);
}

int __wrap_results_collect(struct results *r, const struct sim *s)
{
	ac.phase = AP_DONE;
	return __real_results_collect(r, s);
}

static void alloc_reset(int64_t mark_ns)
{
	ac.phase = AP_SETUP;
	ac.mark_ns = mark_ns;
	memset(ac.calls, 0, sizeof(ac.calls));
	ac.peak_bytes = ac.live_bytes;
}

/* VmHWM (peak resident set) of this process in KiB, or 0 if unknown. */
static unsigned long rss_peak_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long kib = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %lu kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/* ---- cases ---- */

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct bench_case {
	const char *name;
	const char *scenario;
	const char *sets[16];
	bool requests;         /* a request/response workload: report requests served */
	bool tiny;             /* on the bench-tiny profile (tiny_profile()) */
};

static const struct bench_case cases[] = {
	{ "napi-10g", "livelock", { "host.rxpath=napi", "nic.eth0.speed=10Gbit",
				    "nic.eth1.speed=10Gbit", "traffic.rate=14880kpps", NULL }, false,
	  false },
	{ "classic-sat", "livelock", { "host.rxpath=classic", "traffic.rate=150kpps", NULL }, false,
	  false },
	{ "rr-busy-poll", "rr-server", { "apps.busy_poll=50us", NULL }, true, false },
	{ "tx-usecs-exponent", "livelock", { "host.rxpath=napi", "nic.eth0.speed=10Gbit",
					     "nic.eth1.speed=10Gbit", "traffic.rate=14880kpps",
					     "nic.eth1.tx-ring=4096", "nic.eth1.tx-usecs=64us",
					     NULL }, false, true },	{ "memcached", "memcached", { NULL }, true, false },
	{ "fwd-10g-modern", "livelock", { "host.profile=epyc-7742-ice", "host.rxpath=napi",
					  "host.cpus=16", "nic.eth0.combined=16",
					  "nic.eth1.combined=16", "nic.eth0.irq-affinity=spread",
					  "nic.eth1.irq-affinity=spread", "traffic.flows=1024",
					  "nic.eth0.speed=10Gbit", "nic.eth1.speed=10Gbit",
					  "traffic.rate=14880kpps", "nic.eth0.rx-usecs=50us",
					  "nic.eth0.rx-frames=0", NULL }, false, false },
	{ "host-100g", "livelock", { "host.profile=epyc-7742-ice", "host.rxpath=napi",
				     "host.cpus=8", "nic.eth0.combined=8", "nic.eth1.combined=8",
				     "nic.eth0.irq-affinity=spread", "nic.eth1.irq-affinity=spread",
				     "traffic.flows=4096", "nic.eth0.speed=100Gbit",
				     "nic.eth1.speed=100Gbit", "traffic.rate=148800kpps", NULL },
	  false, false },
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

/* --set KEY=VALUE, on top of every case's own settings. */
#define MAX_USER_SETS 8
static const char *user_sets[MAX_USER_SETS];
static size_t n_user_sets;

/* The bench-tiny profile: every cost 10 ns, per byte 0, so that one CPU
 * forwards 64 B frames at 10 GbE line rate (about 30 ns of work a frame
 * against 67 ns between frames) and the simulator's own cost per frame is
 * what the case measures.  Written once to a temporary file. */
static const char *const TINY_KEYS[] = {
	"irq-entry", "isr", "reg-read", "rx-pkt", "netif-rx", "backlog-pkt", "napi-poll",
	"softirq-entry", "dma-fixed", "dma-per-byte", "fwd-pkt", "copy-per-byte",
	"tx-clean-pkt", "skb-alloc", "remote-free", "xmit-locked", "ctx-switch", "idle-exit",
	"local-deliver", "syscall",
};
static char tiny_path[64], tiny_set[96];

static void tiny_unlink(void)
{
	unlink(tiny_path);
}

/* "host.profile=PATH" of the bench-tiny profile, or NULL. */
static const char *tiny_profile(void)
{
	int fd;
	FILE *f;

	if (tiny_set[0])
		return tiny_set;
	snprintf(tiny_path, sizeof(tiny_path), "/tmp/bench-tiny-XXXXXX.ini");
	fd = mkstemps(tiny_path, 4);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		fprintf(stderr, "bench_sim: %s: cannot write the bench-tiny profile\n", tiny_path);
		return NULL;
	}
	atexit(tiny_unlink);
	fprintf(f, "[profile]\nname = bench-tiny\n[cost]\n");
	for (size_t i = 0; i < sizeof(TINY_KEYS) / sizeof(TINY_KEYS[0]); i++)
		fprintf(f, "%s = %s\n", TINY_KEYS[i], strstr(TINY_KEYS[i], "per-byte") ? "0ps" : "10ns");
	if (fclose(f))
		return NULL;
	snprintf(tiny_set, sizeof(tiny_set), "host.profile=%s", tiny_path);
	return tiny_set;
}

/* What one case measured. */
struct bench_fig {
	double wall_s;
	struct results r;
	uint64_t calls[AP_N];
	size_t heap_peak_bytes;
};

static int run_timed(const struct bench_case *bc, const char *dset, int64_t dur_ns,
		     struct bench_fig *f)
{
	const char *sets[32];
	struct rxl_scenario *scn;
	char err[1024];
	size_t n = 0;
	double t0;
	int rc;

	for (; bc->sets[n]; n++)
		sets[n] = bc->sets[n];
	if (bc->tiny && !(sets[n++] = tiny_profile()))
		return -1;
	sets[n++] = dset;
	sets[n++] = "run.warmup=0";
	for (size_t i = 0; i < n_user_sets; i++)
		sets[n++] = user_sets[i];
	alloc_reset(dur_ns / 10);
	t0 = wall();
	scn = rxl_scenario_load(bc->scenario, sets, n, err, sizeof(err));
	rc = scn ? rxl_sim_run(scn, NULL, &f->r, err, sizeof(err)) : -1;
	rxl_scenario_free(scn);
	if (rc) {
		fprintf(stderr, "bench_sim: %s: %s\n", bc->name, err);
		return -1;
	}
	f->wall_s = wall() - t0;
	memcpy(f->calls, ac.calls, sizeof(f->calls));
	f->heap_peak_bytes = ac.peak_bytes;
	return 0;
}

/* Frames the simulated host processed over the window: forwarded out of a
 * port or delivered to a local socket (offered frames it dropped are not). */
static double processed(const struct results *r)
{
	return (r->forwarded_pps + r->delivered_pps) * r->window_s;
}

static void print_csv(const struct bench_case *bc, const struct bench_fig *f, double steady_s)
{
	const struct results *r = &f->r;
	double dt = f->wall_s;

	printf("%s,wall_s,%.3f\n", bc->name, dt);
	printf("%s,sim_pkts_per_s,%.0f\n", bc->name, r->wire_pps * r->window_s / dt);
	printf("%s,events_per_s,%.0f\n", bc->name, (double)r->events / dt);
	if (bc->requests)
		printf("%s,sim_reqs_per_s,%.0f\n", bc->name, r->replied_pps * r->window_s / dt);
	printf("%s,sim_over_real,%.2f\n", bc->name, r->window_s / dt);
	printf("%s,events,%llu\n", bc->name, (unsigned long long)r->events);
	printf("%s,sim_pkts,%.0f\n", bc->name, r->wire_pps * r->window_s);
	printf("%s,proc_pkts_per_s,%.0f\n", bc->name, processed(r) / dt);
	printf("%s,proc_pkts,%.0f\n", bc->name, processed(r));
	printf("%s,allocs_setup,%llu\n", bc->name, (unsigned long long)f->calls[AP_SETUP]);
	printf("%s,allocs_steady,%llu\n", bc->name, (unsigned long long)f->calls[AP_STEADY]);
	printf("%s,allocs_steady_per_sim_s,%.3f\n", bc->name,
	       (double)f->calls[AP_STEADY] / steady_s);
	printf("%s,heap_peak_kib,%.0f\n", bc->name, (double)f->heap_peak_bytes / 1024.0);
}

static void print_text(const struct bench_case *bc, const struct bench_fig *f, double steady_s)
{
	const struct results *r = &f->r;
	double dt = f->wall_s;

	printf("%-12s %8.3f s wall  %12.0f sim pkts/s  %12.0f processed/s  %12.0f events/s"
	       "  %6.2fx real time  (%.0f pps forwarded, %llu events)\n", bc->name, dt,
	       r->wire_pps * r->window_s / dt, processed(r) / dt, (double)r->events / dt,
	       r->window_s / dt, r->forwarded_pps, (unsigned long long)r->events);
	if (bc->requests)
		printf("%-12s %12.0f sim requests served/s  (%.0f requests/s simulated)\n", "",
		       r->replied_pps * r->window_s / dt, r->replied_pps);
	printf("%-12s allocations: %llu setup, %llu steady (%.3f per simulated s after %.3g s),"
	       " heap peak %.0f KiB\n", "", (unsigned long long)f->calls[AP_SETUP],
	       (unsigned long long)f->calls[AP_STEADY], (double)f->calls[AP_STEADY] / steady_s,
	       r->window_s - steady_s, (double)f->heap_peak_bytes / 1024.0);
}

/* Run @bc @repeat times; report the fastest run.  0 or -1. */
static int run_case(const struct bench_case *bc, const char *dur, int64_t dur_ns, int repeat,
		    int csv)
{
	char dset[64];
	struct bench_fig best = { 0 }, f;
	double steady_s = (double)(dur_ns - dur_ns / 10) / 1e9;

	snprintf(dset, sizeof(dset), "run.duration=%s", dur);
	for (int i = 0; i < repeat; i++) {
		if (run_timed(bc, dset, dur_ns, &f))
			return -1;
		if (i == 0 || f.wall_s < best.wall_s) {
			if (i)
				results_free(&best.r);
			best = f;
		} else {
			results_free(&f.r);
		}
	}
	if (csv)
		print_csv(bc, &best, steady_s);
	else
		print_text(bc, &best, steady_s);
	results_free(&best.r);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: bench_sim [--csv] [--case NAME]... [--duration TIME] [--repeat N]"
		" [--set KEY=VALUE]... [SIMULATED_SECONDS]\ncases:");
	for (size_t i = 0; i < N_CASES; i++)
		fprintf(stderr, " %s", cases[i].name);
	fprintf(stderr, "\n");
	return 2;
}

/* "10" means 10 s; anything else is a time with its unit, as the scenario
 * format reads run.duration: the loader checks it (with the first case's
 * scenario) and converts it to ns.  0 or -1. */
static int parse_duration(const char *arg, char *dur, size_t len, int64_t *ns)
{
	char set[96], err[512];
	const char *sets[] = { set, "run.warmup=0" }; /* as the cases run: any duration */
	struct rxl_scenario *scn;

	snprintf(dur, len, "%s%s", arg, arg[0] && !arg[strspn(arg, "0123456789.")] ? "s" : "");
	snprintf(set, sizeof(set), "run.duration=%s", dur);
	scn = rxl_scenario_load(cases[0].scenario, sets, 2, err, sizeof(err));
	if (!scn) {
		fprintf(stderr, "bench_sim: duration %s: %s\n", arg, err);
		return -1;
	}
	*ns = rxl_scenario_get(scn)->run.duration_ns;
	rxl_scenario_free(scn);
	return 0;
}

int main(int argc, char **argv)
{
	bool pick[N_CASES] = { false };
	const char *only = "process";
	int csv = 0, rc = 0, repeat = 1, n_picked = 0;
	char dur[64] = "10s";
	int64_t dur_ns = 10000000000;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--csv")) {
			csv = 1;
		} else if (!strcmp(a, "--case") && i + 1 < argc) {
			size_t k = 0;

			while (k < N_CASES && strcmp(cases[k].name, argv[i + 1]))
				k++;
			if (k == N_CASES) {
				fprintf(stderr, "bench_sim: no case %s\n", argv[i + 1]);
				return usage();
			}
			n_picked += !pick[k];
			pick[k] = true;
			only = cases[k].name;
			i++;
		} else if (!strcmp(a, "--repeat") && i + 1 < argc) {
			repeat = atoi(argv[++i]);
			if (repeat < 1 || repeat > 100) {
				fprintf(stderr, "bench_sim: --repeat %s: accepted 1..100\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(a, "--set") && i + 1 < argc) {
			if (n_user_sets == MAX_USER_SETS) {
				fprintf(stderr, "bench_sim: at most %d --set\n", MAX_USER_SETS);
				return 2;
			}
			user_sets[n_user_sets++] = argv[++i];
		} else if (!strcmp(a, "--duration") && i + 1 < argc) {
			if (parse_duration(argv[++i], dur, sizeof(dur), &dur_ns))
				return 2;
		} else if (a[0] == '-') {
			return usage();
		} else if (parse_duration(a, dur, sizeof(dur), &dur_ns)) {
			return 2;
		}
	}
	if (csv)
		printf("case,metric,value\n");
	for (size_t i = 0; i < N_CASES; i++)
		if (!n_picked || pick[i])
			rc |= run_case(&cases[i], dur, dur_ns, repeat, csv) ? 1 : 0;
	/* VmHWM is per process: it belongs to a case only when one case ran. */
	if (csv)
		printf("%s,rss_peak_kib,%lu\n", n_picked == 1 ? only : "process", rss_peak_kib());
	else
		printf("peak RSS of this process: %lu KiB\n", rss_peak_kib());
	return rc;
}
