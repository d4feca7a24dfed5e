/* scheme.h - the registry of receive moderation schemes.
 *
 * One row per scheme says everything rxlab knows about it: its name, a line
 * for humans, the kernel documentation it follows, the scenario overrides
 * that give the simulator that scheme (docs/scenarios.md keys; '*' in a key
 * stands for the receiving port, the port of the first [traffic] section),
 * the knobs `rxlab tune` searches and their candidate levels, the live modes
 * that do it on a real host (include/rxlab/live.h) and the device settings
 * those modes make, and where rxlab applies it.  `rxlab compare`, `rxlab
 * tune`, `rxlab live --compare-sim`, the live runs' device settings, the
 * help texts and the error messages that list schemes all read this table,
 * and `rxlab schemes` prints it (docs/schemes.md).
 *
 * A preset is one setting of a scheme under a name of its own: the rows of
 * `rxlab compare` ("static-coalesce" is scheme "coalesce" at rx-usecs 50,
 * rx-frames 32).
 *
 * The tables are constant: every function here is pure and thread-safe.
 * Order is part of the contract: schemes come in registry order (the order
 * tune searches and reports its policies in), presets in compare's row
 * order.
 */
#ifndef RXLAB_SCHEME_H
#define RXLAB_SCHEME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rxlab/live.h"

#define RXL_SCHEME_MAX_SETS 8    /* scenario overrides of one scheme, with the NULL */
#define RXL_SCHEME_MAX_AXES 2    /* knobs tune searches per scheme */
#define RXL_SCHEME_MAX_LEVELS 16 /* candidate values per knob */
#define RXL_SCHEME_MAX_MODES 3   /* live modes per scheme */
#define RXL_SCHEME_MAX_KNOBS 4   /* device settings per scheme, with the end marker */

/* Where a scheme applies, and what it needs (bits of rxl_scheme.flags). */
enum rxl_scheme_flag {
	RXL_SCHEME_SIM = 1u << 0,     /* the simulator: rxlab run/sweep with its overrides */
	RXL_SCHEME_LIVE = 1u << 1,    /* a live mode does it (rxlab live MODE) */
	RXL_SCHEME_REPLAY = 1u << 2,  /* rxlab replay runs its core mechanism on recorded inputs */
	RXL_SCHEME_TUNE = 1u << 3,    /* rxlab tune searches its axes */
	RXL_SCHEME_COMPARE = 1u << 4, /* a preset of it is a row of rxlab compare */
	RXL_SCHEME_SINK = 1u << 5,    /* acts through the receiving socket (apps.sink = on):
	                               * busy polling and IRQ suspension need a reader */
};

/* A knob tune searches. */
struct rxl_scheme_axis {
	const char *key;                 /* scenario key, '*' = the port: "nic.*.rx-usecs" */
	const char *label;               /* column and command name: "rx-usecs" */
	size_t n;                        /* levels, 1..RXL_SCHEME_MAX_LEVELS */
	const char *level[RXL_SCHEME_MAX_LEVELS]; /* values as --set takes them, in the key's
	                                  * unit (docs/scenarios.md), ascending */
};

/* A device setting a live mode of the scheme makes before the run, as
 * `rxlab live --set dev.NAME=VALUE` would (docs/live.md). */
struct rxl_scheme_knob {
	const char *name;                /* "napi_defer_hard_irqs", "gro_flush_timeout",
	                                  * "irq-suspend-timeout", "threaded"; NULL ends the list */
	uint64_t value;                  /* a count, or ns for the timeouts */
};

struct rxl_scheme {
	const char *name;                /* "coalesce", as tune --policies and rxlab schemes say */
	const char *what;                /* one line for humans */
	const char *doc;                 /* the documentation the definition follows */
	const char *sets[RXL_SCHEME_MAX_SETS]; /* scenario overrides, NULL-ended; keys with '*' */
	size_t n_axes;                   /* 0..RXL_SCHEME_MAX_AXES */
	struct rxl_scheme_axis axis[RXL_SCHEME_MAX_AXES];
	size_t n_modes;                  /* live modes that do this scheme */
	enum rxl_mode mode[RXL_SCHEME_MAX_MODES];
	struct rxl_scheme_knob knob[RXL_SCHEME_MAX_KNOBS]; /* device settings of those modes */
	unsigned flags;                  /* enum rxl_scheme_flag */
};

/* One setting of a scheme under its own name (a row of rxlab compare). */
struct rxl_scheme_preset {
	const char *name;                /* "static-coalesce" */
	const char *what;                /* one line for humans */
	const char *scheme;              /* rxl_scheme.name: "coalesce" */
	const char *level[RXL_SCHEME_MAX_AXES]; /* a value per axis of the scheme, as --set
	                                  * takes it */
};

/* Overrides that turn every scheme's knobs off (keys with '*'), NULL-ended:
 * what tune applies before each policy's, so that a point is exactly its
 * scheme and levels.  _sink: the apps.* ones, for a scenario with a
 * receiving socket. */
extern const char *const rxl_scheme_off[];
extern const char *const rxl_scheme_off_sink[];

/* The scheme called @name, or NULL. */
const struct rxl_scheme *rxl_scheme_find(const char *name);

/* Selections: the schemes whose flags have every bit of @has and none of
 * @lacks (0, 0: all), in registry order. */
/* How many there are. */
size_t rxl_scheme_count(unsigned has, unsigned lacks);
/* The @i-th of them (0-based), or NULL when @i >= rxl_scheme_count(). */
const struct rxl_scheme *rxl_scheme_at(unsigned has, unsigned lacks, size_t i);
/* Index of the scheme called @name among them, or -1. */
int rxl_scheme_index(unsigned has, unsigned lacks, const char *name);
/* Their names as a sentence, "coalesce, dim and defer" (", " between, " and "
 * before the last), into @buf (always NUL-terminated when @len > 0, cut
 * short if too small).  Returns the length of the whole sentence, as
 * snprintf() does. */
size_t rxl_scheme_names(char *buf, size_t len, unsigned has, unsigned lacks);

/* The scheme live mode @m does, or NULL when the mode is a userspace
 * policy with no kernel counterpart (busy, hybrid, the DPDK / ixy / Seastar
 * baselines, TPACKET, AF_XDP). */
const struct rxl_scheme *rxl_scheme_of_mode(enum rxl_mode m);

/* Copy scenario key @key to @out with its '*' (if any) replaced by @port:
 * ("nic.*.rx-usecs", "eth0") -> "nic.eth0.rx-usecs".  0, or -1 when it
 * does not fit in @len bytes. */
int rxl_scheme_key(char *out, size_t len, const char *key, const char *port);

/* Presets, in compare's row order. */
size_t rxl_preset_count(void);
/* The @i-th preset, or NULL when @i >= rxl_preset_count(). */
const struct rxl_scheme_preset *rxl_preset_at(size_t i);
/* The preset called @name, or NULL. */
const struct rxl_scheme_preset *rxl_preset_find(const char *name);

#endif
