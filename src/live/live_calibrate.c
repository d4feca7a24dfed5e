/* live_calibrate.c - `rxlab live calibrate`: measure this machine's veth
 * receive costs and write them as a simulator cost profile
 * (profiles/NAME.ini format, profile_load.h).
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
 *   [cstates]              POLL = 0 0 and the deepest cpuidle state with the
 *                          exit latency measured as the median wake-up with
 *                          idle allowed minus the POLL median; latency, not
 *                          CPU time, so idle-exit is left out (the loader
 *                          refuses both)
 *   others                 0: veth has no registers, DMA or hard IRQ
 * The numbers move with the machine's load; the profile keeps the raw
 * figures as comments.
 */
#include "live/live_run.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "live/cost_fit.h"
#include "live/wake_lat.h"

#define CALIB_RUNS 5
#define WAKE_RUNS 5		/* ping-pong runs per idle setting, alternating */
#define WAKE_POLL_MAX_NS 10000	/* a POLL wake-up median above this: the host had the vCPU off */

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
	struct wake_lat wake_idle[WAKE_RUNS];	/* cross-CPU wake-ups, the CPU allowed to idle */
	struct wake_lat wake_poll[WAKE_RUNS];	/* the same, /dev/cpu_dma_latency held at 0 */
	double sched_wake_ns, exit_ns;	/* median poll wake-up; idle minus poll medians */
	bool wake_clean[WAKE_RUNS];	/* pair i kept: its POLL median within 2x the least */
	int n_clean;
	char state[32];			/* the deepest idle state's name (cpuidle sysfs) */
	double residency_ns;		/* its target residency */
};

static int calib_run(double rate, int64_t dur_ns, const volatile sig_atomic_t *stop,
		     struct live_result *r)
{
	struct live_job j;
	char err[1400];
	int rc;

	live_job_default(&j, RXL_MODE_NAPI);
	j.stop = stop;
	j.snd.duration_ns = dur_ns;
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

/* Cross-CPU wake-ups of a thread on the receiver CPU from the sender CPU
 * (wake_lat.h), idle allowed and POLL only, WAKE_RUNS of each alternating:
 * sched-wake is the median POLL wake-up, the idle state's exit latency the
 * difference of the two medians. */
static int calib_wake(struct calib *c, const volatile sig_atomic_t *stop)
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
	if (c->n_clean == 0) {
		fprintf(stderr, "rxlab live calibrate: every wake-up of a polling CPU took over %d us "
			"(POLL medians %.1f .. %.1f us): the host kept this machine's vCPUs off their "
			"CPUs; run again when the host is quieter\n", WAKE_POLL_MAX_NS / 1000,
			c->wake_poll[0].p50_ns / 1e3, c->wake_poll[WAKE_RUNS - 1].p50_ns / 1e3);
		return 1;
	}
	c->sched_wake_ns = median_kept(c->wake_poll, c->wake_clean);
	c->exit_ns = fmax(0, median_kept(c->wake_idle, c->wake_clean) - c->sched_wake_ns);
	deepest_state(1, c->state, sizeof(c->state), &c->residency_ns);
	return 0;
}

/* Run 0 at the maximum, run 1 at 5 kpps, runs 2.. at fractions of run 0. */
static int calib_measure(struct calib *c, int64_t dur_ns, const volatile sig_atomic_t *stop)
{
	static const double frac[CALIB_RUNS] = { 0, 0, 0.1, 0.3, 0.6 };
	struct live_result r;
	int rc;

	for (int i = 0; i < CALIB_RUNS; i++) {
		double rate = i == 0 ? 0 : i == 1 ? 5000 : frac[i] * c->pps[0];

		if ((rc = calib_run(rate, dur_ns, stop, &r)) != 0)
			return rc;
		calib_keep(c, i, &r);
		if (r.rx.packets == 0 || r.d.napi_wakeups == 0 || (i == 0 && c->pps[0] < 50000)) {
			fprintf(stderr, "rxlab live calibrate: run %d received %.0f pps with %llu NAPI "
				"wake-ups; is threaded NAPI available?\n", i, c->pps[i],
				(unsigned long long)r.d.napi_wakeups);
			return 1;
		}
	}
	fit(&c->thr);
	fit(&c->napi);
	c->idle_exit_ns = idle_exit(c, 2);
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

static void calib_write(FILE *f, const struct calib *c, const char *name)
{
	double isr = c->napi.wake_ns - c->thr.wake_ns + c->idle_exit_ns;

	fprintf(f, "# %s - this machine's veth receiver, measured by `rxlab live calibrate`.\n"
		"#\n"
		"# napi mode at the sender's maximum, at 5 kpps and at 10, 30 and 60%% of\n"
		"# the maximum; cpu = a * wake-ups + b * packets fitted over the runs\n"
		"# (least squares; see live_calibrate.c):\n", name);
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
	wake_comment(f, c);
	fprintf(f, "# ctx-switch is the thread's per-wake-up cost, syscall its per-packet cost\n"
		"# (recvmmsg share; the simulated reader pays it per datagram), isr what the\n"
		"# kthread's per-wake-up cost adds to ctx-switch plus the core's unaccounted\n"
		"# busy time per wake-up; rx-pkt + local-deliver is\n"
		"# the kernel's per-packet cost (the split is not measured); veth has no\n"
		"# DMA, registers or hard IRQ, so those costs are 0.  See docs/live.md.\n\n");
	fprintf(f, "[profile]\nname = %s\ndescription = \"veth receiver of this machine "
		"(rxlab live calibrate)\"\n\n[cost]\n", name);
	fprintf(f, "irq-entry = 0\nisr = %lldns\nreg-read = 0\n", ns(isr));
	fprintf(f, "rx-pkt = %lldns\nnetif-rx = 0\nbacklog-pkt = 0\nnapi-poll = 0\n",
		ns(c->napi.pkt_ns / 2));
	fprintf(f, "softirq-entry = 0\ndma-fixed = 0\ndma-per-byte = 0\nfwd-pkt = 0\n"
		"copy-per-byte = 0\ntx-clean-pkt = 0\n"
		"skb-alloc = 0\nremote-free = 0\nxmit-locked = 0\n");
	fprintf(f, "ctx-switch = %lldns\nlocal-deliver = %lldns\nsyscall = %lldns\n"
		"sched-wake = %lldns\n", ns(c->thr.wake_ns), ns(c->napi.pkt_ns / 2), ns(c->thr.pkt_ns),
		ns(c->sched_wake_ns));
	fprintf(f, "\n[cstates]\nPOLL = 0 0\n%s = %lldns %lldns\n", c->state, ns(c->exit_ns),
		ns(c->residency_ns));
}

int live_calibrate(FILE *f, int64_t dur_ns, const volatile sig_atomic_t *stop)
{
	struct calib c;
	int rc = calib_measure(&c, dur_ns, stop);

	if (rc == 0)
		calib_write(f, &c, "veth-host");
	return rc;
}
