/* interrupt.h - Ctrl-C and SIGTERM: stop the running simulation at the time
 * it reached, print what was measured marked as partial, and exit with
 * 128 + the signal number (130 for SIGINT, 143 for SIGTERM). */
#ifndef RXLAB_CLI_INTERRUPT_H
#define RXLAB_CLI_INTERRUPT_H

#include <signal.h>

/* The signal received, 0 if none.  Simulations poll it through sim->stop. */
extern volatile sig_atomic_t rxlab_signal;

/* Install the handlers (no SA_RESTART; a second signal kills at once). */
void interrupt_install(void);

/* In a sweep worker: the same flag, but every signal is caught (no
 * SA_RESETHAND).  A worker gets Ctrl-C from the terminal and the parent's
 * forwarded SIGINT too; the second must not kill it before it reports its
 * partial point.  A second Ctrl-C ends the parent, and a worker dies with
 * it (PR_SET_PDEATHSIG, Linux). */
void interrupt_install_worker(void);

#endif
