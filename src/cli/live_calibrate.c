/* live_calibrate.c - `rxlab live calibrate`: measure this machine's veth
 * receive costs and write them as a simulator cost profile
 * (profiles/NAME.ini format, profile_load.h).
 *
 * Two runs of napi mode on the test bed (threaded NAPI pinned to the
 * receiver CPU): one at 5 kpps, where nearly every packet is a wake-up of
 * both the NAPI kthread and the receive thread, and one at the sender's
 * maximum rate, where both handle packets in batches.  Each side's CPU time
 * is modelled as
 *
 *   cpu = per_wakeup * wakeups + per_packet * packets
 *
 * and the two runs give two equations in the two unknowns (Cramer's rule;
 * see fit() for when that comes out negative).
 * The receive thread's CPU is getrusage(RUSAGE_THREAD); its wake-ups are
 * the loop's; the kthread's CPU is /proc/PID/schedstat and its wake-ups its
 * voluntary context switches.  Mapped onto the profile's keys:
 *   rx-pkt, local-deliver  half each of the kthread's per-packet cost (only
 *                          their sum is measured)
 *   isr                    the kthread's per-wake-up cost: veth "raising the
 *                          interrupt" and the kthread waking to poll
 *   syscall                the thread's per-packet cost (recvmmsg share)
 *   ctx-switch             the thread's per-wake-up cost (epoll_wait, the
 *                          switch, the empty poll that re-arms)
 *   others                 0: veth has no registers, DMA or hard IRQ
 * The numbers move with the machine's load; the profile keeps the raw
 * figures as comments.
 */
#include "cli/live.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/interrupt.h"
#include "cli/units.h"

struct calib {
	double thr_wake_ns, thr_pkt_ns;		/* receive thread */
	double napi_wake_ns, napi_pkt_ns;	/* NAPI kthread */
	double lo_pps, hi_pps;			/* received rates of the two runs */
};

static int calib_run(double rate, int64_t dur_ns, struct live_result *r)
{
	struct live_job j;
	char err[1400];
	int rc;

	live_job_default(&j, RXL_MODE_NAPI);
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

/* Solve cpu_i = w * wakes_i + p * pkts_i for i = 1, 2; false when the two
 * runs do not tell the two costs apart. */
static bool solve(double c1, double w1, double n1, double c2, double w2, double n2,
		  double *w, double *p)
{
	double det = w1 * n2 - w2 * n1;

	if (!(fabs(det) > 1e-9 * fabs(w1 * n2)))
		return false;
	*w = (c1 * n2 - c2 * n1) / det;
	*p = (w1 * c2 - w2 * c1) / det;
	return true;
}

/* The per-wake-up cost of an idle CPU (an IPI, leaving the idle state) is
 * larger than that of a busy one, so the linear fit can come out negative.
 * Then: per packet = the fast run's CPU per packet (an upper bound: it
 * includes that run's share of wake-ups), per wake-up = what the slow run
 * leaves after that. */
static void fit(double c1, double w1, double n1, double c2, double w2, double n2,
		double *w, double *p)
{
	if (solve(c1, w1, n1, c2, w2, n2, w, p) && *w >= 0 && *p >= 0)
		return;
	*p = n2 > 0 ? c2 / n2 : 0;
	*w = w1 > 0 ? (c1 - n1 * *p) / w1 : 0;
}

static int calib_measure(struct calib *c, int64_t dur_ns)
{
	struct live_result lo, hi;
	int rc;

	if ((rc = calib_run(5000, dur_ns, &lo)) != 0 || (rc = calib_run(0, dur_ns, &hi)) != 0)
		return rc;
	c->lo_pps = live_rx_pps(&lo);
	c->hi_pps = live_rx_pps(&hi);
	if (lo.rx.wakeups == 0 || hi.rx.packets == 0 || lo.d.napi_wakeups == 0) {
		fprintf(stderr, "rxlab live calibrate: the runs measured nothing (%.0f and %.0f "
			"pps received); is threaded NAPI available?\n", c->lo_pps, c->hi_pps);
		return 1;
	}
	fit((double)(lo.rx.cpu_user_ns + lo.rx.cpu_sys_ns), (double)lo.rx.wakeups,
	    (double)lo.rx.packets, (double)(hi.rx.cpu_user_ns + hi.rx.cpu_sys_ns),
	    (double)hi.rx.wakeups, (double)hi.rx.packets, &c->thr_wake_ns, &c->thr_pkt_ns);
	fit((double)lo.d.napi_ns, (double)lo.d.napi_wakeups, (double)lo.d.rx_dev.rx_packets,
	    (double)hi.d.napi_ns, (double)hi.d.napi_wakeups, (double)hi.d.rx_dev.rx_packets,
	    &c->napi_wake_ns, &c->napi_pkt_ns);
	return 0;
}

/* Clamp to the profile's accepted 0..1 ms and round to whole ns. */
static long long ns(double v)
{
	if (!(v > 0))
		return 0;
	return v > 1e6 ? 1000000 : (long long)llround(v);
}

static void calib_write(FILE *f, const struct calib *c, const char *name)
{
	fprintf(f, "# %s - this machine's veth receiver, measured by `rxlab live calibrate`.\n"
		"#\n"
		"# From napi mode at %.0f and %.0f pps: receive thread %.0f ns per\n"
		"# wake-up + %.0f ns per packet; NAPI kthread %.0f ns per wake-up + %.0f ns\n"
		"# per packet (fit of cpu = a * wake-ups + b * packets; see live_calibrate.c).\n"
		"# rx-pkt + local-deliver is the kernel's per-packet cost (the split is not\n"
		"# measured); veth has no DMA, registers or hard IRQ, so those costs are 0.\n"
		"# See docs/live.md.\n\n",
		name, c->lo_pps, c->hi_pps, c->thr_wake_ns, c->thr_pkt_ns, c->napi_wake_ns,
		c->napi_pkt_ns);
	fprintf(f, "[profile]\nname = %s\ndescription = \"veth receiver of this machine "
		"(rxlab live calibrate)\"\n\n[cost]\n", name);
	fprintf(f, "irq-entry = 0\nisr = %lldns\nreg-read = 0\n",
		ns(c->napi_wake_ns));
	fprintf(f, "rx-pkt = %lldns\nnetif-rx = 0\nbacklog-pkt = 0\nnapi-poll = 0\n",
		ns(c->napi_pkt_ns / 2));
	fprintf(f, "softirq-entry = 0\ndma-fixed = 0\ndma-per-byte = 0\nfwd-pkt = 0\n"
		"copy-per-byte = 0\ntx-clean-pkt = 0\n"
		"skb-alloc = 0\nremote-free = 0\nxmit-locked = 0\n");
	fprintf(f, "ctx-switch = %lldns\nlocal-deliver = %lldns\nsyscall = %lldns\n",
		ns(c->thr_wake_ns), ns(c->napi_pkt_ns / 2), ns(c->thr_pkt_ns));
}

int live_calibrate_main(int argc, char **argv)
{
	const char *out = "veth-host.ini";
	uint64_t dur = 1000000000;
	struct calib c;
	char msg[256];
	FILE *f;
	int rc;

	for (int i = 0; i < argc; i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--out")) {
			out = argv[++i];
		} else if (i + 1 < argc && !strcmp(argv[i], "--duration")) {
			if (unit_parse_key(UNIT_TIME_NS, "--duration", argv[++i], 100000000,
					   60000000000ull, NULL, &dur, msg, sizeof(msg)))
				return fprintf(stderr, "rxlab live calibrate: %s\n", msg), 2;
		} else {
			fprintf(stderr, "rxlab live calibrate: unknown or incomplete option '%s' "
				"(accepted: --out FILE, --duration D)\n", argv[i]);
			return 2;
		}
	}
	if ((rc = calib_measure(&c, (int64_t)dur)) != 0)
		return rxlab_signal ? 128 + rxlab_signal : rc;
	f = strcmp(out, "-") ? fopen(out, "w") : stdout;
	if (!f)
		return fprintf(stderr, "rxlab live calibrate: %s: %s\n", out, strerror(errno)), 1;
	calib_write(f, &c, "veth-host");
	if (f != stdout && fclose(f) == 0)
		fprintf(stderr, "rxlab live calibrate: wrote %s\n", out);
	return 0;
}
