/* interrupt.c - SIGINT/SIGTERM handling for long runs and sweeps. */
#define _POSIX_C_SOURCE 200809L
#include "cli/interrupt.h"

#include <string.h>

volatile sig_atomic_t rxlab_signal;

static void on_signal(int sig)
{
	rxlab_signal = sig;
}

void interrupt_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C ends the process at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void interrupt_install_worker(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
