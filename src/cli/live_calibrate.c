/* live_calibrate.c - `rxlab live calibrate`: measure this machine's veth
 * receive costs and write them as a simulator cost profile
 * (profiles/NAME.ini format, profile_load.h).
 *
 * Three runs on the test bed (threaded NAPI pinned to the receiver CPU):
 *   1. interrupt mode at a low rate (5 kpps): every packet is one wake-up of
 *      the receive thread and (mostly) one NAPI kthread wake-up.
 *   2. busy mode at the sender's maximum rate: the thread never sleeps, so
 *      its CPU per packet is the receive system call's share per packet.
 *   3. the same run's NAPI kthread CPU per packet: veth_poll + GRO + IP +
 *      UDP delivery to the socket.
 * Mapped onto the profile's keys:
 *   rx-pkt, local-deliver  half each of (3) - only their sum is measured
 *   syscall                (2): one recvmsg's worth per datagram
 *   ctx-switch             (1) thread CPU per wake-up minus (2)
 *   isr                    NAPI kthread CPU per kthread wake-up in run 1
 *                          minus (3): the cost of veth "raising the IRQ"
 *                          and the kthread waking to poll
 *   napi-poll, others      0: veth has no registers, DMA or hard IRQ, and
 *                          the per-poll cost is inside isr
 * The numbers vary with the machine's load; the profile records them with
 * the raw figures as comments.
 */
#include "cli/live.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/interrupt.h"
#include "cli/units.h"

struct calib {
	double wake_thread_ns;	/* run 1: receive-thread CPU per wake-up */
	double wake_napi_ns;	/* run 1: kthread CPU per kthread wake-up */
	double pkt_thread_ns;	/* run 2 */
	double pkt_napi_ns;	/* run 3 */
	double max_pps;		/* run 2 received rate */
};

static int calib_run(enum rxl_mode m, double rate, int64_t dur_ns, struct live_result *r)
{
	struct live_job j;
	char err[1400];
	int rc;

	live_job_default(&j, m);
	j.snd.duration_ns = dur_ns;
	if (rate > 0)
		j.snd.rate_pps = rate;
	else
		j.snd.pattern = SEND_MAX;
	rc = live_run(&j, r, err, sizeof(err));
	if (rc)
		fprintf(stderr, "rxlab live calibrate: %s: %s\n", rxl_mode_name(m), err);
	return rc;
}

static double per(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

static int calib_measure(struct calib *c, int64_t dur_ns)
{
	struct live_result lo, hi;
	int rc;

	if ((rc = calib_run(RXL_MODE_INTERRUPT, 5000, dur_ns, &lo)) != 0 ||
	    (rc = calib_run(RXL_MODE_BUSY, 0, dur_ns, &hi)) != 0)
		return rc;
	c->pkt_thread_ns = per((double)(hi.rx.cpu_user_ns + hi.rx.cpu_sys_ns), (double)hi.rx.packets);
	c->pkt_napi_ns = per((double)hi.d.napi_ns, (double)hi.d.rx_dev.rx_packets);
	c->wake_thread_ns = per((double)(lo.rx.cpu_user_ns + lo.rx.cpu_sys_ns), (double)lo.rx.wakeups);
	c->wake_napi_ns = per((double)lo.d.napi_ns, (double)lo.d.napi_wakeups);
	c->max_pps = live_rx_pps(&hi);
	if (!(c->pkt_thread_ns > 0 && c->pkt_napi_ns > 0 && c->wake_thread_ns > 0 &&
	      c->wake_napi_ns > 0)) {
		fprintf(stderr, "rxlab live calibrate: a run measured nothing (thread %.0f/%.0f ns, "
			"NAPI %.0f/%.0f ns); is threaded NAPI available?\n", c->pkt_thread_ns,
			c->wake_thread_ns, c->pkt_napi_ns, c->wake_napi_ns);
		return 1;
	}
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
		"# Raw figures: receive thread %.0f ns per packet (busy mode, %.0f pps),\n"
		"# %.0f ns per wake-up (interrupt mode, 5 kpps); NAPI kthread %.0f ns per\n"
		"# packet and %.0f ns per wake-up.  rx-pkt + local-deliver is the kernel's\n"
		"# per-packet cost (the split is not measured); veth has no DMA, registers\n"
		"# or hard IRQ, so those costs are 0.  See docs/live.md.\n\n",
		name, c->pkt_thread_ns, c->max_pps, c->wake_thread_ns, c->pkt_napi_ns,
		c->wake_napi_ns);
	fprintf(f, "[profile]\nname = %s\ndescription = \"veth receiver of this machine "
		"(rxlab live calibrate)\"\n\n[cost]\n", name);
	fprintf(f, "irq-entry = 0\nisr = %lldns\nreg-read = 0\n",
		ns(c->wake_napi_ns - c->pkt_napi_ns));
	fprintf(f, "rx-pkt = %lldns\nnetif-rx = 0\nbacklog-pkt = 0\nnapi-poll = 0\n",
		ns(c->pkt_napi_ns / 2));
	fprintf(f, "softirq-entry = 0\ndma-fixed = 0\ndma-per-byte = 0\nfwd-pkt = 0\n"
		"copy-per-byte = 0\ntx-clean-pkt = 0\n");
	fprintf(f, "ctx-switch = %lldns\nlocal-deliver = %lldns\nsyscall = %lldns\n",
		ns(c->wake_thread_ns - c->pkt_thread_ns), ns(c->pkt_napi_ns / 2),
		ns(c->pkt_thread_ns));
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
