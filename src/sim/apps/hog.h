/* hog.h - cpu-hogs (hog.c). */
#ifndef RXLAB_SIM_APPS_HOG_H
#define RXLAB_SIM_APPS_HOG_H

struct sim;

/* Create the apps.cpu-hogs threads, runnable.  0. */
int hog_init(struct sim *s);

#endif
