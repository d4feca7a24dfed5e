/* hog.h - cpu-hogs (hog.c).
 *
 * Part of the host that sim/sim.h describes: include "sim/sim.h", which
 * includes this header after the counters and forward declarations it
 * uses. */
#ifndef RXLAB_SIM_APPS_HOG_H
#define RXLAB_SIM_APPS_HOG_H

#ifndef RXLAB_SIM_SIM_H
#error "include sim/sim.h, not this header"
#endif

/* Create the apps.cpu-hogs threads, runnable.  0. */
int hog_init(struct sim *s);

#endif
