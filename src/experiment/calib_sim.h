/* calib_sim.h - the simulator side of `rxlab live calibrate`: the test
 * bed's napi run simulated with a draft profile, so that calibrate can fit
 * the costs the linear fit cannot see (live_calib_sim_fn, live_run.h). */
#ifndef RXLAB_EXPERIMENT_CALIB_SIM_H
#define RXLAB_EXPERIMENT_CALIB_SIM_H

#include <stddef.h>
#include <stdint.h>

/* The receiver core's busy share, % of the window, of the built-in
 * scenario live-veth (one CPU, threaded NAPI at SCHED_FIFO 10 as the test
 * bed runs it, a sink at the same priority, the menu governor, 1 s) with
 * the profile @profile_text (a profiles/NAME.ini text; "calibrate" names
 * it in messages) at @rate_pps frames/s, napi_defer_hard_irqs @defer and
 * gro_flush_timeout @gro_ns.  0, or -1 with a message in @err.
 * Deterministic: the same arguments give the same figure.  A
 * live_calib_sim_fn. */
int calib_sim_busy(const char *profile_text, double rate_pps, uint32_t defer, int64_t gro_ns,
		   double *busy_pct, char *err, size_t errlen);

#endif
