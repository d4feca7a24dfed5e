/* live.h - `rxlab live`: the receive modes of the live engine on real
 * packets (test bed or --iface), real counters, optional side-by-side with
 * the simulator; `rxlab live calibrate` writes the veth host's profile.
 * See docs/live.md. */
#ifndef RXLAB_CLI_LIVE_H
#define RXLAB_CLI_LIVE_H

/* `rxlab live ARGS...` (@argv after "live").  Returns the exit status:
 * 0, 1 (a run failed), 2 (bad usage; message on stderr), 128+signal. */
int live_main(int argc, char **argv);

#endif
