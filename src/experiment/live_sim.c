/* live_sim.c - `rxlab live --compare-sim`: the workload of each live run
 * replayed in the simulator (built-in scenario live-veth, a veth receiver
 * with one CPU and a UDP sink) with the veth host's cost profile, printed
 * beside the live figures.
 *
 * The simulator models moderation in the NIC and the kernel, the live
 * userspace modes do it in the receive thread; each mode is mapped to the
 * scheme of the registry that does it (rxl_scheme_of_mode(),
 * include/rxlab/scheme.h; the `sim-as` column says which), on a threaded
 * NAPI when the live run's NAPI was a kthread (the test bed's default).
 * Modes without a counterpart (busy, hybrid, the DPDK / ixy / Seastar
 * baselines, TPACKET, AF_XDP) get no simulated figures ("-").
 */
#include "experiment/live_sim.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "experiment/sweep.h"
#include "rxlab/scheme.h"
#include "rxlab/sim.h"

#define SIM_MAX_SETS 20
#define SIM_PORT "eth0"	/* live-veth's receiving port: the registry's '*' */

/* The sim-as column: how the table names what the simulator runs for each
 * mode with a counterpart. */
static const char *const sim_as[RXL_MODE_COUNT] = {
	[RXL_MODE_INTERRUPT] = "napi, irq per frame", [RXL_MODE_EPOLL] = "napi, irq per frame",
	[RXL_MODE_NAPI] = "napi, irq per frame",
	[RXL_MODE_COALESCE] = "napi + rx-usecs/rx-frames",
	[RXL_MODE_DIM] = "napi + adaptive-rx dim",
	[RXL_MODE_ITR] = "napi + e1000 ITR", [RXL_MODE_BSD_POLL] = "bsd-poll",
	[RXL_MODE_SO_BUSY_POLL] = "napi + busy_poll",
	[RXL_MODE_PREFER_BUSY] = "prefer busy poll + defer",
	[RXL_MODE_IRQ_SUSPEND] = "irq suspension",
	[RXL_MODE_THREADED] = "threaded napi",
};

/* The device settings the live run made for @sc (live_run.c mode_knobs():
 * the loop's irq-suspend-timeout when set) as scenario overrides of the
 * port; threaded's is in the scheme's overrides already (the scenario's
 * threaded is on/off, the device's 2 a busy-polling kthread). */
static size_t knob_sets(const struct rxl_scheme *sc, const struct rxl_config *c, char buf[][64])
{
	size_t n = 0;

	for (size_t i = 0; sc->knob[i].name; i++) {
		uint64_t v = sc->knob[i].value;

		if (!strcmp(sc->knob[i].name, "threaded"))
			continue;
		if (!strcmp(sc->knob[i].name, "irq-suspend-timeout") && c->irq_suspend_timeout_ns)
			v = c->irq_suspend_timeout_ns;
		snprintf(buf[n++], 64, "nic." SIM_PORT ".%s=%" PRIu64 "%s", sc->knob[i].name, v,
			 strstr(sc->knob[i].name, "timeout") ? "ns" : "");
	}
	return n;
}

/* The loop's own values of mode @m (its configuration @c), which the
 * scheme's axes leave open. */
static size_t loop_sets(enum rxl_mode m, const struct rxl_config *c, char buf[][64])
{
	size_t n = 0;

	switch (m) {
	case RXL_MODE_COALESCE:
		snprintf(buf[n++], 64, "nic." SIM_PORT ".rx-usecs=%uus", c->rx_usecs);
		snprintf(buf[n++], 64, "nic." SIM_PORT ".rx-frames=%u",
			 c->rx_frames ? c->rx_frames : 1);
		break;
	case RXL_MODE_ITR:
		snprintf(buf[n++], 64, "nic." SIM_PORT ".InterruptThrottleRate=%u", c->itr);
		break;
	case RXL_MODE_BSD_POLL:
		snprintf(buf[n++], 64, "host.hz=%u", c->hz);
		break;
	case RXL_MODE_SO_BUSY_POLL:
	case RXL_MODE_PREFER_BUSY:
	case RXL_MODE_IRQ_SUSPEND:
		/* what the loop's socket or epoll busy-polls for */
		snprintf(buf[n++], 64, "apps.busy_poll=%uus", c->busy_poll_usecs);
		break;
	default:
		break;
	}
	return n;
}

/* Overrides that make the simulator do what mode @j->mode does live: the
 * overrides of its scheme (include/rxlab/scheme.h), the device settings
 * the run made, the loop's values; 0 sets and a NULL description when
 * there is no counterpart. */
static size_t sim_sets(const struct live_job *j, const struct rxl_config *c, char buf[][64],
		       const char **what)
{
	const struct rxl_scheme *sc = rxl_scheme_of_mode(j->mode);
	size_t n = 0;

	*what = sc ? sim_as[j->mode] : NULL;
	if (!sc)
		return 0;
	for (size_t i = 0; sc->sets[i]; i++)
		rxl_scheme_key(buf[n++], 64, sc->sets[i], SIM_PORT);
	n += knob_sets(sc, c, buf + n);
	return n + loop_sets(j->mode, c, buf + n);
}

struct sim_fig {
	double rx_pps, p50, p99, cpu, irqs;
};

static int sim_point(const struct live_result *r, const struct live_job *j, const char *profile,
		     struct sim_fig *f, const char **what, char *what_buf, size_t what_len,
		     const volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	char buf[SIM_MAX_SETS][64];
	const char *sets[SIM_MAX_SETS];
	struct rxl_config c;
	struct results res;
	size_t n, k = 0;

	rxl_config_default(&c, j->mode);
	for (size_t i = 0; i < j->n_sets; i++) {
		char key[64], e[256];
		const char *eq = strchr(j->sets[i], '=');

		snprintf(key, sizeof(key), "%.*s", eq ? (int)(eq - j->sets[i]) : 0, j->sets[i]);
		if (eq)
			rxl_config_set(&c, key, eq + 1, e, sizeof(e));
	}
	n = sim_sets(j, &c, buf, what);
	if (!*what)
		return 0;
	/* The live NAPI ran in a kthread (the test bed's default): so does the
	 * simulated one, whatever the mode does on top of it. */
	if (r->napi_kthread && j->mode != RXL_MODE_THREADED) {
		snprintf(buf[n++], 64, "nic.eth0.threaded=on");
		snprintf(what_buf, what_len, "%s; threaded napi", *what);
		*what = what_buf;
	}
	/* What the veth path has (docs/live.md "Prediction against reality"):
	 * the test bed's NAPI kthread runs SCHED_FIFO 10 and so does the
	 * receive thread of a mode that sleeps (live_run.c FIFO_PRIO), so
	 * neither preempts the other and packets queue while one runs; the
	 * receiver core idles between packets and leaves its idle state when
	 * veth_xmit() on the sender's CPU wakes the NAPI kthread there (the
	 * simulated interrupt on the receiver's CPU is that wake-up's IPI),
	 * with the profile's [cstates] under the menu governor. */
	if (r->napi_kthread)
		snprintf(buf[n++], 64, "nic.eth0.threaded-prio=%d", LIVE_FIFO_PRIO);
	if (r->fifo)
		snprintf(buf[n++], 64, "apps.sink-prio=%d", LIVE_FIFO_PRIO);
	snprintf(buf[n++], 64, "host.idle=menu");
	snprintf(buf[n++], 64, "host.profile=%s", profile);
	snprintf(buf[n++], 64, "traffic.rate=%.0fpps",
		 fmax(1, r->tx.seq_next / (r->dur_s > 0 ? r->dur_s : 1)));
	for (; k < n; k++)
		sets[k] = buf[k];
	if (run_one(&res, "live-veth", sets, n, stop, err, errlen))
		return -1;
	*f = (struct sim_fig){ res.delivered_pps, res.lat_p50_us, res.lat_p99_us,
			       100.0 - res.cpu_pct[ACCT_IDLE], res.rx_irqs_per_s };
	results_free(&res);
	return 1;
}

static struct table *sim_table_new(void)
{
	struct table *t = table_new("live_vs_sim", "Live against the simulator (same rate)");

	table_add_col(t, "mode", "mode", -1);
	table_add_col(t, "sim_as", "sim-as", -1);
	table_add_col(t, "live_rx_pps", "live rx/s", 0);
	table_add_col(t, "sim_rx_pps", "sim rx/s", 0);
	table_add_col(t, "live_p50_us", "live p50us", 1);
	table_add_col(t, "sim_p50_us", "sim p50us", 1);
	table_add_col(t, "live_p99_us", "live p99us", 1);
	table_add_col(t, "sim_p99_us", "sim p99us", 1);
	table_add_col(t, "live_core_pct", "live core%", 1);
	table_add_col(t, "sim_cpu_pct", "sim cpu%", 1);
	table_add_col(t, "live_wakeups_per_s", "live wake/s", 0);
	table_add_col(t, "sim_irqs_per_s", "sim irq/s", 0);
	return t;
}

struct table *live_sim_table(const struct live_result *r, size_t n, const struct live_job *jobs,
			     const char *profile, const volatile sig_atomic_t *stop, char *err,
			     size_t errlen)
{
	struct table *t = sim_table_new();

	for (size_t i = 0; i < n; i++) {
		struct sim_fig f = { NAN, NAN, NAN, NAN, NAN };
		const char *what;
		char what_buf[96];
		int rc = sim_point(&r[i], &jobs[i], profile, &f, &what, what_buf, sizeof(what_buf),
				   stop, err, errlen);

		if (rc < 0) {
			table_free(t);
			return NULL;
		}
		table_row(t);
		table_str(t, rxl_mode_name(r[i].mode));
		table_str(t, what);
		table_dbl(t, live_rx_pps(&r[i]));
		table_dbl(t, f.rx_pps);
		table_dbl(t, live_lat_us(&r[i], 0.5));
		table_dbl(t, f.p50);
		table_dbl(t, live_lat_us(&r[i], 0.99));
		table_dbl(t, f.p99);
		table_dbl(t, counters_cpu_busy_pct(&r[i].d_sent, r[i].rx_cpu));
		table_dbl(t, f.cpu);
		table_dbl(t, r[i].dur_s > 0 ? (double)r[i].rx.wakeups / r[i].dur_s : NAN);
		table_dbl(t, f.irqs);
	}
	return t;
}
