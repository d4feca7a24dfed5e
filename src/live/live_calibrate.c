/* live_calibrate.c - `rxlab live calibrate`: measure this machine's receive
 * costs (the test bed's veth, or --iface with a sender in a namespace the
 * user names) and write them as a simulator cost profile
 * (profiles/NAME.ini format, profile_load.h).
 *
 * The calibration below is repeated (--repeat, default 3): the profile
 * takes each cost's median, and its spread (min..max, relative standard
 * deviation) is written beside it and printed; a cost spreading more than
 * LIVE_CALIB_NOISY_PCT is flagged NOISY, and a receiver core found busy
 * (idle_check.h) before the first run or any run is warned about.
 *
 * Runs of napi mode on the test bed (threaded NAPI pinned to the receiver
 * CPU): first at the sender's maximum rate, then at 5 kpps (nearly every
 * packet a wake-up of both the NAPI kthread and the receive thread) and at
 * 10%, 30% and 60% of the maximum, where both handle packets in batches of
 * growing size.  Each side's CPU time is modelled as
 *
 *   cpu = per_wakeup * wakeups + per_packet * packets
 *
 * and fitted over all the runs by least squares (cost_fit.h says what
 * happens when that comes out negative).  Two runs would fix the two costs, but
 * the extremes disagree with the middle: at 5 kpps every wake-up finds
 * cold caches and an idle core, so a fit through that point and the
 * maximum charges most of the per-packet work to wake-ups and predicts
 * livelock at rates the machine handles.  The residual of every run is
 * written beside the costs.
 * The receive thread's CPU is getrusage(RUSAGE_THREAD); its wake-ups are
 * the loop's; the kthread's CPU is /proc/PID/schedstat and its wake-ups its
 * voluntary context switches.  Mapped onto the profile's keys, for the
 * simulator's threaded NAPI (rxlab live --compare-sim runs the simulated
 * NAPI in a kthread when the live one was):
 *   ctx-switch             the thread's per-wake-up cost (epoll_wait, the
 *                          switch, the empty poll that re-arms); the
 *                          simulator charges it for every switch, the
 *                          kthread's included
 *   isr                    what the kthread's per-wake-up cost adds to that:
 *                          veth "raising the interrupt" and the wake
 *   rx-pkt, local-deliver  half each of the kthread's per-packet cost (only
 *                          their sum is measured)
 *   syscall                the thread's per-packet cost (recvmmsg share)
 *   isr (added)            the receiver core's busy time that neither
 *                          thread accounts for, per wake-up (idle_exit():
 *                          the IPIs, the idle entries): CPU time
 *   sched-wake             the median latency of waking a thread on the
 *                          receiver CPU from the sender's with that CPU
 *                          polling (/dev/cpu_dma_latency 0): wake_lat.h
 *   cold-wake              the CPU time that makes the simulated 5 kpps run
 *                          (live-veth with these costs, o->sim) as busy as
 *                          the measured one: its wake-ups end long idle
 *                          periods (sim_fit(); without o->sim, what the
 *                          run's busy time leaves per wake-up beyond the fit
 *                          and isr, cold_wake())
 *   cold-after             the idle period from which a wake-up is cold:
 *                          the geometric mean of run 2's idle time per
 *                          wake-up and the deferral run's (run 1's without
 *                          it)
 *   hrtimer-irq            the CPU time per NAPI hrtimer interrupt that makes
 *                          the simulated deferral run (5 kpps,
 *                          napi_defer_hard_irqs 100, gro_flush_timeout 50 us:
 *                          the timer wakes the kthread every 50 us) as busy
 *                          as the measured one (sim_fit(); test bed only, 0
 *                          on --iface)
 *   [cstates]              POLL = 0 0 and the deepest cpuidle state with the
 *                          exit latency measured as the median wake-up with
 *                          idle allowed minus the POLL median; latency, not
 *                          CPU time, so idle-exit is left out (the loader
 *                          refuses both)
 *   others                 0, and said so ("not measured"): veth has no
 *                          device interrupt, registers or DMA; on --iface the
 *                          engine sees the NAPI poll's CPU time, not theirs
 * The numbers move with the machine's load; the profile keeps the raw
 * figures as comments.
 */
#include "live/live_run.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "live/cost_fit.h"
#include "live/wake_lat.h"

#define CALIB_RUNS 5
#define CALIB_RX_CPU 1		/* live_job_default()'s receiver CPU (the wake-up runs use it too) */
#define WAKE_RUNS 5		/* ping-pong runs per idle setting, alternating */
#define WAKE_POLL_MAX_NS 10000	/* a POLL wake-up median above this: the host had the vCPU off */
#define WAKE_PASSES 3		/* wake-up passes before calibrate gives up (calib_wake) */
#define TIMER_RUN_PPS 5000	/* the deferral run: 5 kpps, the NAPI hrtimer every 50 us */
#define TIMER_RUN_DEFER 100
#define TIMER_RUN_GRO_NS 50000
#define PROBE_NS 5000.0		/* sim_fit()'s step in a cost, to find its slope */

/* One side's samples: CPU ns, wake-ups and packets per run. */
struct side {
	double cpu[CALIB_RUNS], wakes[CALIB_RUNS], pkts[CALIB_RUNS];
	double wake_ns, pkt_ns;		/* the fit */
};

struct calib {
	double pps[CALIB_RUNS];		/* received rate of each run */
	double core_pct[CALIB_RUNS];	/* receiver core not idle while sending, % */
	double idle_before[CALIB_RUNS];	/* receiver core idle before each run, % (idle_check.h) */
	struct side thr, napi;		/* receive thread, NAPI kthread */
	double idle_exit_ns;		/* per wake-up, what neither thread accounts for */
	double cold_ns, cold_after_ns;	/* cold-wake and cold-after (cold_wake(), sim_fit()) */
	bool timer_run;			/* the deferral run was made (not on --iface) */
	double t_pps, t_core_pct;	/* its received rate and receiver core busy % */
	double t_napi_wakes;		/* its NAPI kthread wake-ups per second */
	double hrtimer_ns;		/* per NAPI hrtimer interrupt (sim_fit()), 0 if not fitted */
	bool sim_fitted;		/* cold-wake and hrtimer-irq came from sim_fit() */
	struct wake_lat wake_idle[WAKE_RUNS];	/* cross-CPU wake-ups, the CPU allowed to idle */
	struct wake_lat wake_poll[WAKE_RUNS];	/* the same, /dev/cpu_dma_latency held at 0 */
	double sched_wake_ns, exit_ns;	/* median poll wake-up; idle minus poll medians */
	bool wake_clean[WAKE_RUNS];	/* pair i kept: its POLL median within 2x the least */
	int n_clean;
	char state[32];			/* the deepest idle state's name (cpuidle sysfs) */
	double residency_ns;		/* its target residency */
};

static int calib_run(const struct live_calib_opts *o, double rate, bool defer,
		     const volatile sig_atomic_t *stop, struct live_result *r)
{
	struct live_job j;
	char err[1400];
	int rc;

	live_job_default(&j, RXL_MODE_NAPI);
	if (defer) {
		j.knobs[0] = (struct live_knob){ KNOB_NAPI_DEFER_HARD_IRQS, TIMER_RUN_DEFER };
		j.knobs[1] = (struct live_knob){ KNOB_GRO_FLUSH_TIMEOUT, TIMER_RUN_GRO_NS };
		j.n_knobs = 2;
	}
	j.stop = stop;
	j.iface = o->iface;
	j.tx_ns = o->iface ? o->tx : NULL;
	j.snd.duration_ns = o->dur_ns;
	if (rate > 0)
		j.snd.rate_pps = rate;
	else
		j.snd.pattern = SEND_MAX;
	rc = live_run(&j, r, err, sizeof(err));
	if (rc)
		fprintf(stderr, "rxlab live calibrate: %s\n", err);
	return rc;
}

/* Least squares over the runs, with cost_fit()'s fallback: run 0 (the
 * maximum) gives the per-packet bound, run 1 (5 kpps) the wake-up cost. */
static void fit(struct side *d)
{
	struct cost_fit f = cost_fit(d->cpu, d->wakes, d->pkts, CALIB_RUNS, 0, 1);

	d->wake_ns = f.wake_ns;
	d->pkt_ns = f.pkt_ns;
}

static void calib_keep(struct calib *c, int i, const struct live_result *r)
{
	c->pps[i] = live_rx_pps(r);
	c->core_pct[i] = counters_cpu_busy_pct(&r->d_sent, r->rx_cpu);
	c->idle_before[i] = r->idle.rx_idle_pct;
	c->thr.cpu[i] = (double)(r->rx.cpu_user_ns + r->rx.cpu_sys_ns);
	c->thr.wakes[i] = (double)r->rx.wakeups;
	c->thr.pkts[i] = (double)r->rx.packets;
	c->napi.cpu[i] = (double)r->d.napi_ns;
	c->napi.wakes[i] = (double)r->d.napi_wakeups;
	c->napi.pkts[i] = (double)r->d.rx_dev.rx_packets;
}

/* Idle time per NAPI kthread wake-up in run @i, ns: the core's idle
 * share of the window over its wake-ups. */
static double idle_per_wake(const struct calib *c, int i)
{
	double secs = c->pps[i] > 0 ? c->napi.pkts[i] / c->pps[i] : 0;

	return c->napi.wakes[i] > 0 ? secs * 1e9 * (1 - c->core_pct[i] / 100) / c->napi.wakes[i]
				    : 0;
}

/* A wake-up after a long idle costs more than the fit says: at 5 kpps
 * (run 1, 200 us apart, the vCPU halted long enough for the host to run
 * something else on its core) the receiver core is busier than the fit
 * and idle_exit() of run 2 (10% of the maximum, the core idle a few us
 * between wake-ups) predict.  What run 1's busy time leaves per wake-up
 * is cold-wake; cold-after, the idle period from which a wake-up is cold,
 * is set between the two runs' idle time per wake-up (their geometric
 * mean): the boundary itself is not measured. */
static void cold_wake(struct calib *c)
{
	double secs = c->pps[1] > 0 ? c->napi.pkts[1] / c->pps[1] : 0;
	double rest = c->core_pct[1] / 100.0 * secs * 1e9 -
		      (c->thr.wake_ns * c->thr.wakes[1] + c->thr.pkt_ns * c->thr.pkts[1]) -
		      (c->napi.wake_ns * c->napi.wakes[1] + c->napi.pkt_ns * c->napi.pkts[1]) -
		      c->idle_exit_ns * c->napi.wakes[1];
	double cold_idle = idle_per_wake(c, 1), warm_idle = idle_per_wake(c, 2);

	c->cold_ns = isfinite(rest) && rest > 0 && c->napi.wakes[1] > 0 ? rest / c->napi.wakes[1]
									 : 0;
	c->cold_after_ns = warm_idle > 0 && warm_idle < cold_idle ? sqrt(warm_idle * cold_idle)
								   : cold_idle / 2;
}

/* The receiver core is busier than its two threads: interrupts (the IPIs
 * that wake the kthread), leaving the idle state, the scheduler.  Charged
 * per kthread wake-up, from run @i (10% of the maximum: the core idles
 * between most wake-ups, and the batches are small), as what the core's
 * busy time leaves after the two fitted costs; the simulator charges it as
 * idle-exit when an interrupt or a wake-up ends an idle period. */
static double idle_exit(const struct calib *c, int i)
{
	double secs = c->pps[i] > 0 ? c->napi.pkts[i] / c->pps[i] : 0;
	double rest = c->core_pct[i] / 100.0 * secs * 1e9 -
		      (c->thr.wake_ns * c->thr.wakes[i] + c->thr.pkt_ns * c->thr.pkts[i]) -
		      (c->napi.wake_ns * c->napi.wakes[i] + c->napi.pkt_ns * c->napi.pkts[i]);

	return isfinite(rest) && rest > 0 && c->napi.wakes[i] > 0 ? rest / c->napi.wakes[i] : 0;
}

static double median_p50(const struct wake_lat *w)
{
	double v[WAKE_RUNS];

	for (int i = 0; i < WAKE_RUNS; i++)
		v[i] = w[i].p50_ns;
	return wake_lat_quantile(v, WAKE_RUNS, 0.5);
}

/* The median p50 of the pairs @keep marks. */
static double median_kept(const struct wake_lat *w, const bool *keep)
{
	double v[WAKE_RUNS];
	size_t n = 0;

	for (int i = 0; i < WAKE_RUNS; i++)
		if (keep[i])
			v[n++] = w[i].p50_ns;
	return wake_lat_quantile(v, n, 0.5);
}

/* A pair of runs (idle, POLL) is kept when its POLL median is under
 * WAKE_POLL_MAX_NS: waking a polling CPU takes a few us (2.2-2.5 here),
 * but on this shared virtual machine a run sometimes finds the vCPUs
 * descheduled by the host, and then every wake-up - POLL ones too - takes
 * 20-30 us; such a pair says nothing about the exit. */
static void wake_select(struct calib *c)
{
	c->n_clean = 0;
	for (int i = 0; i < WAKE_RUNS; i++) {
		c->wake_clean[i] = c->wake_poll[i].p50_ns <= WAKE_POLL_MAX_NS;
		c->n_clean += c->wake_clean[i];
	}
}

/* The deepest idle state of @cpu as cpuidle's sysfs names it (blanks as
 * '-', an INI key), and its target residency; "C1" and 0 without cpuidle. */
static void deepest_state(int cpu, char *name, size_t len, double *residency_ns)
{
	snprintf(name, len, "C1");
	*residency_ns = 0;
	for (int k = 1; k < 10; k++) {
		char p[128], buf[32] = "";
		unsigned long long us = 0;
		FILE *f;

		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name", cpu, k);
		if (!(f = fopen(p, "re")))
			break;
		if (fgets(buf, sizeof(buf), f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
		/* the profile loader takes names of letters, digits, '_' and '-',
		 * at most 15 characters: anything else from sysfs becomes '-' */
		buf[15] = '\0';
		for (char *c = buf; *c; c++)
			if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
				*c = '-';
		snprintf(name, len, "%s", buf[0] ? buf : "C1");
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/residency", cpu,
			 k);
		if ((f = fopen(p, "re"))) {
			if (fscanf(f, "%llu", &us) == 1)
				*residency_ns = 1000.0 * (double)us;
			fclose(f);
		}
	}
}

/* One pass of cross-CPU wake-ups of a thread on the receiver CPU from the
 * sender CPU (wake_lat.h), idle allowed and POLL only, WAKE_RUNS of each
 * alternating, sorted into c->wake_clean (wake_select()).  0, or 1 when
 * a measurement failed or *@stop was set. */
static int wake_pass(struct calib *c, const volatile sig_atomic_t *stop)
{
	char err[256];

	for (int i = 0; i < WAKE_RUNS && !(stop && *stop); i++) {
		if (wake_lat_measure(0, 1, false, WAKE_LAT_SAMPLES, WAKE_LAT_GAP_NS, &c->wake_idle[i],
				     err, sizeof(err)) ||
		    wake_lat_measure(0, 1, true, WAKE_LAT_SAMPLES, WAKE_LAT_GAP_NS, &c->wake_poll[i],
				     err, sizeof(err))) {
			fprintf(stderr, "rxlab live calibrate: wake-up latency: %s\n", err);
			return 1;
		}
	}
	if (stop && *stop)
		return 1;
	wake_select(c);
	return 0;
}

/* Wake-up passes until one has a clean run (WAKE_PASSES at most: a busy
 * moment of the host spoils a pass, not the calibration): sched-wake is
 * the median POLL wake-up of the clean runs, the idle state's exit latency
 * the difference of the two medians. */
static int calib_wake(struct calib *c, const volatile sig_atomic_t *stop)
{
	for (int pass = 1; pass <= WAKE_PASSES; pass++) {
		if (wake_pass(c, stop))
			return 1;
		if (c->n_clean > 0)
			break;
		fprintf(stderr, "rxlab live calibrate: every wake-up of a polling CPU took over %d us "
			"(POLL medians %.1f .. %.1f us; pass %d of %d)%s\n", WAKE_POLL_MAX_NS / 1000,
			c->wake_poll[0].p50_ns / 1e3, c->wake_poll[WAKE_RUNS - 1].p50_ns / 1e3, pass,
			WAKE_PASSES, pass < WAKE_PASSES ? ": measuring again" :
			": the CPUs were not free to run the wake-up test (another process, or the "
			"host keeping this machine's vCPUs off their CPUs); run again when the host "
			"is quieter");
	}
	if (c->n_clean == 0)
		return 1;
	c->sched_wake_ns = median_kept(c->wake_poll, c->wake_clean);
	c->exit_ns = fmax(0, median_kept(c->wake_idle, c->wake_clean) - c->sched_wake_ns);
	deepest_state(1, c->state, sizeof(c->state), &c->residency_ns);
	return 0;
}

/* The deferral run (test bed only: calibrate changes no setting of an
 * --iface): 5 kpps with napi_defer_hard_irqs 100 and gro_flush_timeout
 * 50 us, so that the NAPI hrtimer, not the sender, wakes the kthread most
 * of the time; sim_fit() charges what that costs to hrtimer-irq. */
static int timer_run(struct calib *c, const struct live_calib_opts *o,
		     const volatile sig_atomic_t *stop)
{
	struct live_result r;
	int rc = calib_run(o, TIMER_RUN_PPS, true, stop, &r);

	if (rc)
		return rc;
	c->timer_run = true;
	c->t_pps = live_rx_pps(&r);
	c->t_core_pct = counters_cpu_busy_pct(&r.d_sent, r.rx_cpu);
	c->t_napi_wakes = r.dur_s > 0 ? (double)r.d.napi_wakeups / r.dur_s : 0;
	return 0;
}

/* Run 0 at the maximum, run 1 at 5 kpps, runs 2.. at fractions of run 0. */
static int calib_measure(struct calib *c, const struct live_calib_opts *o,
			 const volatile sig_atomic_t *stop)
{
	static const double frac[CALIB_RUNS] = { 0, 0, 0.1, 0.3, 0.6 };
	struct live_result r;
	int rc;

	for (int i = 0; i < CALIB_RUNS; i++) {
		double rate = i == 0 ? 0 : i == 1 ? 5000 : frac[i] * c->pps[0];

		if ((rc = calib_run(o, rate, false, stop, &r)) != 0)
			return rc;
		calib_keep(c, i, &r);
		if (r.rx.packets > 0 && r.d.napi_wakeups > 0 && i == 0 && c->pps[0] < 50000) {
			fprintf(stderr, "rxlab live calibrate: run 0 received only %.0f pps at the "
				"sender's maximum (under 50 kpps): the sender or the receiver shared its "
				"CPU with other load (receiver core %.1f%% idle before); run again on a "
				"quieter machine\n", c->pps[0], c->idle_before[0]);
			return 1;
		}
		if (r.rx.packets == 0 || r.d.napi_wakeups == 0) {
			fprintf(stderr, "rxlab live calibrate: run %d received %.0f pps with %llu NAPI "
				"wake-ups; is threaded NAPI available?", i, c->pps[i],
				(unsigned long long)r.d.napi_wakeups);
			if (o->iface)
				fprintf(stderr, " (on --iface %s: echo 1 > /sys/class/net/%s/threaded, "
					"its kthread pinned to CPU %d)", o->iface, o->iface, CALIB_RX_CPU);
			fputc('\n', stderr);
			return 1;
		}
	}
	fit(&c->thr);
	fit(&c->napi);
	c->idle_exit_ns = idle_exit(c, 2);
	cold_wake(c);
	if (!o->iface && (rc = timer_run(c, o, stop)) != 0)
		return rc;
	return calib_wake(c, stop);
}

/* Clamp to the profile's accepted 0..1 ms and round to whole ns. */
static long long ns(double v)
{
	if (!(v > 0))
		return 0;
	return v > 1e6 ? 1000000 : (long long)llround(v);
}

static void side_write(FILE *f, const char *what, const struct side *d, const double *pps)
{
	fprintf(f, "#   %s: %.0f ns per wake-up + %.0f ns per packet\n", what, d->wake_ns, d->pkt_ns);
	for (int i = 0; i < CALIB_RUNS; i++) {
		double secs = pps[i] > 0 ? d->pkts[i] / pps[i] : 0;
		double fitted = d->wake_ns * d->wakes[i] + d->pkt_ns * d->pkts[i];

		fprintf(f, "#     %7.0f pps: %7.0f wake-ups/s, CPU %5.1f%% measured, %5.1f%% fitted\n",
			pps[i], secs > 0 ? d->wakes[i] / secs : 0,
			secs > 0 ? 100.0 * d->cpu[i] / 1e9 / secs : 0,
			secs > 0 ? 100.0 * fitted / 1e9 / secs : 0);
	}
}

static void wake_write(FILE *f, const char *what, const struct wake_lat *w)
{
	double lo = w[0].p50_ns, hi = w[0].p50_ns;

	for (int i = 0; i < WAKE_RUNS; i++)
		lo = fmin(lo, w[i].p50_ns), hi = fmax(hi, w[i].p50_ns);
	fprintf(f, "#   %s: median %.1f us (runs' medians %.1f-%.1f us); per run p50 (p10-p90):\n#    ",
		what, median_p50(w) / 1e3, lo / 1e3, hi / 1e3);
	for (int i = 0; i < WAKE_RUNS; i++)
		fprintf(f, " %.1f (%.1f-%.1f)", w[i].p50_ns / 1e3, w[i].p10_ns / 1e3, w[i].p90_ns / 1e3);
	fprintf(f, "\n");
}

/* The wake-up latency comments, and why idle-exit became isr. */
static void wake_comment(FILE *f, const struct calib *c)
{
	fprintf(f, "# Wake-up latency (src/live/wake_lat.c): a SCHED_FIFO thread on CPU 1\n"
		"# blocked in read() on an eventfd, woken by a write from CPU 0 (spinning),\n"
		"# %d wake-ups 200-400 us apart per run, %d runs each way, alternating:\n",
		WAKE_LAT_SAMPLES, WAKE_RUNS);
	wake_write(f, "idle allowed", c->wake_idle);
	wake_write(f, "/dev/cpu_dma_latency held at 0 (POLL only)", c->wake_poll);
	fprintf(f, "#   pairs kept (POLL median under %d us; the others found the vCPUs\n"
		"#   descheduled by the host, every wake-up slow):", WAKE_POLL_MAX_NS / 1000);
	for (int i = 0; i < WAKE_RUNS; i++)
		fprintf(f, " %d%s", i + 1, c->wake_clean[i] ? "" : "(dropped)");
	fprintf(f, "\n#   kept: idle median %.1f us, POLL median %.1f us\n",
		median_kept(c->wake_idle, c->wake_clean) / 1e3, c->sched_wake_ns / 1e3);
	fprintf(f, "# sched-wake is the kept POLL median (IPI-less wake of a polling CPU, the switch\n"
		"# and the return to user space); the exit latency of %s is the kept idle\n"
		"# median minus it: latency, counted as idle time (as cpuidle's state time\n"
		"# counts it), so idle-exit is absent.  The core's busy time per wake-up\n"
		"# that the two threads do not account for (%.0f ns, at %.0f pps: the IPI,\n"
		"# the idle entry and exit paths) is CPU time and goes into isr.\n",
		c->state, c->idle_exit_ns, c->pps[2]);
}

/* The fitted costs of one calibration, in ns, the order of cost_key[]. */
enum { K_CTX, K_SYSCALL, K_ISR, K_KPKT, K_WAKE, K_EXIT, K_COLD, K_AFTER, K_IRQ, K_N };
static const char *const cost_key[K_N] = { "ctx-switch", "syscall", "isr",
					   "rx-pkt+local-deliver", "sched-wake", "cstate-exit",
					   "cold-wake", "cold-after", "hrtimer-irq" };

static void calib_costs(const struct calib *c, double *k)
{
	k[K_CTX] = c->thr.wake_ns;
	k[K_SYSCALL] = c->thr.pkt_ns;
	k[K_ISR] = fmax(0, c->napi.wake_ns - c->thr.wake_ns + c->idle_exit_ns);
	k[K_KPKT] = c->napi.pkt_ns;
	k[K_WAKE] = c->sched_wake_ns;
	k[K_EXIT] = c->exit_ns;
	k[K_COLD] = c->cold_ns;
	k[K_AFTER] = c->cold_after_ns;
	k[K_IRQ] = c->hrtimer_ns;
}

/* Each cost's spread over the @n calibrations @c[]. */
static void calib_spread(const struct calib *c, int n, struct cost_spread *sp)
{
	double k[LIVE_CALIB_MAX_REPEAT][K_N], v[LIVE_CALIB_MAX_REPEAT];

	for (int r = 0; r < n; r++)
		calib_costs(&c[r], k[r]);
	for (int i = 0; i < K_N; i++) {
		for (int r = 0; r < n; r++)
			v[r] = k[r][i];
		sp[i] = cost_spread(v, n);
	}
}

/* "spread: ctx-switch 3.1us +-8% (3 runs, 2.9..3.4us)" lines, each after
 * @pre, NOISY ones flagged; returns how many were noisy. */
static int spread_write(FILE *f, const char *pre, const struct cost_spread *sp)
{
	int noisy = 0;

	for (int i = 0; i < K_N; i++) {
		bool bad = sp[i].n > 1 && sp[i].rsd_pct > LIVE_CALIB_NOISY_PCT;

		noisy += bad;
		fprintf(f, "%sspread: %s %.2fus +-%.0f%% (%d run%s, %.2f..%.2fus)%s\n", pre,
			cost_key[i], sp[i].median / 1e3, sp[i].rsd_pct, sp[i].n, sp[i].n == 1 ? "" : "s",
			sp[i].min / 1e3, sp[i].max / 1e3, bad ? "  NOISY" : "");
	}
	if (noisy)
		fprintf(f, "%snoisy: %d cost%s spread over %.0f%% (relative std dev): rerun on an "
			"idle machine\n", pre, noisy, noisy == 1 ? "" : "s", LIVE_CALIB_NOISY_PCT);
	return noisy;
}

/* Runs of @c[0..n) whose receiver core was under IDLE_CHECK_MIN_PCT idle
 * just before them; the least idle figure in *@least. */
static int busy_runs(const struct calib *c, int n, double *least)
{
	int busy = 0;

	*least = 100;
	for (int r = 0; r < n; r++)
		for (int i = 0; i < CALIB_RUNS; i++) {
			busy += c[r].idle_before[i] < IDLE_CHECK_MIN_PCT;
			*least = fmin(*least, c[r].idle_before[i]);
		}
	return busy;
}

static void not_measured(FILE *f, const char *pre, const struct live_calib_opts *o,
			 const struct calib *c)
{
	if (!o->iface && c->timer_run && c->sim_fitted)
		fprintf(f, "%snot measured: irq-entry, reg-read, dma-fixed, dma-per-byte (written 0):\n"
			"%s  veth has no device interrupt, DMA or registers (the IPI that wakes its\n"
			"%s  kthread is in isr, the NAPI hrtimer's interrupt in hrtimer-irq)\n", pre,
			pre, pre);
	else if (o->iface)
		fprintf(f, "%snot measured: irq-entry, reg-read, dma-fixed, dma-per-byte (written 0):\n"
			"%s  the live engine sees the NAPI poll's and the thread's CPU time, not the\n"
			"%s  hard IRQ's, the device's DMA or its register accesses on %s\n", pre, pre,
			pre, o->iface);
	else
		fprintf(f, "%snot measured: irq-entry, reg-read, dma-fixed, dma-per-byte (written 0):\n"
			"%s  veth has no hard IRQ, DMA or registers to measure\n", pre, pre);
}

/* One calibration's runs as comments. */
static void calib_runs_write(FILE *f, const struct calib *c)
{
	side_write(f, "receive thread", &c->thr, c->pps);
	side_write(f, "NAPI kthread", &c->napi, c->pps);
	fprintf(f, "#   receiver core busy: ");
	for (int i = 0; i < CALIB_RUNS; i++)
		fprintf(f, "%.1f%%%s", c->core_pct[i], i + 1 < CALIB_RUNS ? ", " : "\n");
	fprintf(f, "#   receiver core idle before each run: ");
	for (int i = 0; i < CALIB_RUNS; i++)
		fprintf(f, "%.1f%%%s", c->idle_before[i], i + 1 < CALIB_RUNS ? ", " : "\n");
	for (int i = 0; i < CALIB_RUNS; i++)
		if (c->idle_before[i] < IDLE_CHECK_MIN_PCT) {
			fprintf(f, "#   WARNING: under %.0f%% idle: other work shared the core; the\n"
				"#   figures above include it (run again on a quiet machine)\n",
				IDLE_CHECK_MIN_PCT);
			break;
		}
	if (c->timer_run)
		fprintf(f, "#   deferral run (napi_defer_hard_irqs %d, gro_flush_timeout %d us, %.0f pps):\n"
			"#     %.0f NAPI kthread wake-ups/s, receiver core busy %.1f%%\n",
			TIMER_RUN_DEFER, TIMER_RUN_GRO_NS / 1000, c->t_pps, c->t_napi_wakes,
			c->t_core_pct);
	if (c->sim_fitted)
		fprintf(f, "#   fitted through the simulator (live-veth with these costs): cold-wake\n"
			"#   %.0f ns makes the 5 kpps run %.1f%% busy, hrtimer-irq %.0f ns the deferral\n"
			"#   run %.1f%%\n",
			c->cold_ns, c->core_pct[1], c->hrtimer_ns, c->t_core_pct);
	wake_comment(f, c);
}

/* Where and when: "rxcv-r receiver of box (Linux 6.8.0), 2026-12-02 13:50 UTC". */
static void host_line(char *buf, size_t len, const struct live_calib_opts *o)
{
	struct utsname u;
	char host[25], date[32] = "unknown date";
	time_t now = time(NULL);
	struct tm tm;

	live_calib_host(host, sizeof(host));
	if (uname(&u) != 0)
		snprintf(u.release, sizeof(u.release), "unknown");
	u.release[32] = '\0';
	for (char *p = u.release; *p; p++)
		if (!isgraph((unsigned char)*p) || *p == '"')
			*p = '-';
	if (gmtime_r(&now, &tm))
		strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", &tm);
	/* a long line is cut at @len, on purpose: the description is bounded */
	if (snprintf(buf, len, "%.15s receiver of %s (Linux %s), %s", o->iface ? o->iface : "veth",
		     host, u.release, date) < 0 && len)
		buf[0] = '\0';
}

/* The profile itself, costs @k (ns, cost_key[] order), after the comments. */
static void profile_body(FILE *f, const char *name, const char *where, const double *k,
			 const char *state, double residency_ns)
{
	fprintf(f, "[profile]\nname = %s\ndescription = \"%s\"\n\n[cost]\n", name, where);
	fprintf(f, "irq-entry = 0\nisr = %lldns\nreg-read = 0\n", ns(k[K_ISR]));
	fprintf(f, "rx-pkt = %lldns\nnetif-rx = 0\nbacklog-pkt = 0\nnapi-poll = 0\n",
		ns(k[K_KPKT] / 2));
	fprintf(f, "softirq-entry = 0\ndma-fixed = 0\ndma-per-byte = 0\nfwd-pkt = 0\n"
		"copy-per-byte = 0\ntx-clean-pkt = 0\n"
		"skb-alloc = 0\nremote-free = 0\nxmit-locked = 0\n");
	fprintf(f, "ctx-switch = %lldns\nlocal-deliver = %lldns\nsyscall = %lldns\n"
		"sched-wake = %lldns\ncold-wake = %lldns\ncold-after = %lldns\n", ns(k[K_CTX]),
		ns(k[K_KPKT] / 2), ns(k[K_SYSCALL]), ns(k[K_WAKE]), ns(k[K_COLD]), ns(k[K_AFTER]));
	fprintf(f, "hrtimer-irq = %lldns\n", ns(k[K_IRQ]));
	fprintf(f, "\n[cstates]\nPOLL = 0 0\n%s = %lldns %lldns\n", state, ns(k[K_EXIT]),
		ns(residency_ns));
}

static void calib_write(FILE *f, const struct calib *c, const struct live_calib_opts *o,
			const struct cost_spread *sp)
{
	double k[K_N];
	char where[128];

	for (int i = 0; i < K_N; i++)
		k[i] = sp[i].median;
	host_line(where, sizeof(where), o);
	fprintf(f, "# %s - %s, measured by `rxlab live calibrate`.\n"
		"#\n"
		"# %d calibration%s; each: napi mode at the sender's maximum, at 5 kpps and\n"
		"# at 10, 30 and 60%% of the maximum; cpu = a * wake-ups + b * packets\n"
		"# fitted over the runs (least squares; see live_calibrate.c).  The costs\n"
		"# below are the medians over the calibrations (one spoilt by other work\n"
		"# moves a mean, not a median of three):\n", o->name, where, o->repeat,
		o->repeat == 1 ? "" : "s");
	spread_write(f, "#   ", sp);
	not_measured(f, "#   ", o, &c[0]);
	for (int r = 0; r < o->repeat; r++) {
		fprintf(f, "#\n# Calibration %d of %d:\n", r + 1, o->repeat);
		calib_runs_write(f, &c[r]);
	}
	fprintf(f, "# ctx-switch is the thread's per-wake-up cost, syscall its per-packet cost\n"
		"# (recvmmsg share; the simulated reader pays it per datagram), isr what the\n"
		"# kthread's per-wake-up cost adds to ctx-switch plus the core's unaccounted\n"
		"# busy time per wake-up; rx-pkt + local-deliver is\n"
		"# the kernel's per-packet cost (the split is not measured).  cold-wake is\n"
		"# what the core's busy time at 5 kpps leaves per wake-up beyond all that (a\n"
		"# wake-up after a long idle: cold caches, the vCPU resumed); cold-after, the\n"
		"# idle period from which it is paid, lies between the idle time per wake-up\n"
		"# at 10%% of the maximum and at 5 kpps (their geometric mean; the boundary is\n"
		"# not measured).  See docs/live.md.\n\n");
	profile_body(f, o->name, where, k, c[0].state, c[0].residency_ns);
}


/* Simulated busy % of the receiver core with @c's costs at @rate_pps
 * (napi_defer_hard_irqs @defer, gro_flush_timeout @gro_ns); -1 on error. */
static int sim_busy(const struct calib *c, const struct live_calib_opts *o, double rate_pps,
		    uint32_t defer, int64_t gro_ns, double *busy)
{
	double k[K_N];
	char *text = NULL, err[512];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	if (!f)
		return fprintf(stderr, "rxlab live calibrate: out of memory\n"), -1;
	calib_costs(c, k);
	profile_body(f, "calibrate-draft", "the draft of this calibration", k, c->state,
		     c->residency_ns);
	if (fclose(f) != 0 || !text)
		return free(text), fprintf(stderr, "rxlab live calibrate: out of memory\n"), -1;
	rc = o->sim(text, rate_pps, defer, gro_ns, busy, err, sizeof(err));
	if (rc)
		fprintf(stderr, "rxlab live calibrate: simulating the draft profile: %s\n", err);
	free(text);
	return rc;
}

/* The value of the cost at @v that makes the simulated busy share @want:
 * the simulator at @v = 0 and at PROBE_NS gives the slope (the busy share
 * is close to linear in one cost at a fixed load); 0..1 ms. */
static int solve(struct calib *c, const struct live_calib_opts *o, double *v, double rate,
		 uint32_t defer, int64_t gro_ns, double want)
{
	double b0, b1, slope;

	*v = 0;
	if (sim_busy(c, o, rate, defer, gro_ns, &b0))
		return -1;
	*v = PROBE_NS;
	if (sim_busy(c, o, rate, defer, gro_ns, &b1))
		return -1;
	slope = (b1 - b0) / PROBE_NS;
	*v = slope > 0 && want > b0 ? fmin((want - b0) / slope, 1e6) : 0;
	return 0;
}

/* Fit cold-wake and hrtimer-irq through the simulator (o->sim): cold-wake
 * so that the simulated 5 kpps run is as busy as the measured one (its
 * wake-ups come after long idle periods, and no hrtimer runs there), then
 * hrtimer-irq so that the deferral run is (its kthread is woken by the
 * NAPI hrtimer, whose interrupt pays hrtimer-irq; the device interrupt's
 * irq-entry + isr is not touched, so no other run moves).  Replaces
 * cold_wake()'s residual; 0, or -1 (message on stderr). */
static int sim_fit(struct calib *c, const struct live_calib_opts *o)
{
	double warm = idle_per_wake(c, 2);
	double t_idle = c->t_napi_wakes > 0 ? 1e9 * (1 - c->t_core_pct / 100) / c->t_napi_wakes : 0;

	/* The deferral run's wake-ups end idle periods of about 50 us, and
	 * they cost the core as much as the 5 kpps run's (about 20 us more
	 * than run 2's, whose idle periods are a few us): so cold-after lies
	 * between run 2 and the deferral run, not between run 2 and run 1,
	 * and what the timer path costs beyond a cold wake-up is hrtimer-irq. */
	if (c->timer_run && warm > 0 && warm < t_idle)
		c->cold_after_ns = sqrt(warm * t_idle);
	c->hrtimer_ns = 0;
	if (solve(c, o, &c->cold_ns, c->pps[1], 0, 0, c->core_pct[1]))
		return -1;
	if (c->timer_run &&
	    solve(c, o, &c->hrtimer_ns, c->t_pps, TIMER_RUN_DEFER, TIMER_RUN_GRO_NS, c->t_core_pct))
		return -1;
	c->sim_fitted = true;
	return 0;
}

/* Before the first run: is the machine idle enough to measure? */
static void idle_warn(void)
{
	struct idle_check ic;
	char line[160];

	if (idle_check_measure(&ic, CALIB_RX_CPU, 0, IDLE_CHECK_WINDOW_NS) == 0 &&
	    idle_check_busy(&ic)) {
		idle_check_format(&ic, line, sizeof(line));
		fprintf(stderr, "rxlab live calibrate: WARNING: the machine is not idle enough to "
			"measure (%s; under %.0f%%): other load on the CPUs goes into the costs\n",
			line, IDLE_CHECK_MIN_PCT);
	}
}

static void calib_report(const struct calib *c, const struct live_calib_opts *o,
			 const struct cost_spread *sp)
{
	double least;
	int busy = busy_runs(c, o->repeat, &least);

	spread_write(stderr, "rxlab live calibrate: ", sp);
	not_measured(stderr, "rxlab live calibrate: ", o, &c[0]);
	if (busy)
		fprintf(stderr, "rxlab live calibrate: WARNING: %d of %d runs found the receiver core "
			"under %.0f%% idle (least %.1f%%): other load on the CPUs; rerun on an idle "
			"machine\n", busy, o->repeat * CALIB_RUNS, IDLE_CHECK_MIN_PCT, least);
}

void live_calib_host(char *buf, size_t len)
{
	char h[256] = "";

	if (gethostname(h, sizeof(h) - 1) != 0 || !h[0])
		snprintf(h, sizeof(h), "host");
	snprintf(buf, len, "%s", h);
	for (char *p = buf; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '.' && *p != '_' && *p != '-')
			*p = '-';
}

int live_calibrate(FILE *f, const struct live_calib_opts *o, const volatile sig_atomic_t *stop)
{
	struct cost_spread sp[K_N];
	struct calib *c = calloc((size_t)o->repeat, sizeof(*c));
	int rc = 0;

	if (!c)
		return fprintf(stderr, "rxlab live calibrate: out of memory\n"), 1;
	idle_warn();
	for (int r = 0; r < o->repeat && rc == 0; r++) {
		if (o->repeat > 1)
			fprintf(stderr, "rxlab live calibrate: calibration %d of %d\n", r + 1, o->repeat);
		rc = calib_measure(&c[r], o, stop);
		if (rc == 0 && o->sim && sim_fit(&c[r], o))
			rc = 1;
	}
	if (rc == 0) {
		calib_spread(c, o->repeat, sp);
		calib_write(f, c, o, sp);
		calib_report(c, o, sp);
	}
	free(c);
	return rc;
}
