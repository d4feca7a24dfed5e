/* policy.h - moderation policies a program writes itself (pure; no OS, no clock).
 *
 * A policy is an ops table, like struct rxl_source_ops (live.h) or
 * netmap's: a program that links rxlab fills one, registers it once, and
 * names it where a built-in controller would go -- the scenario key
 * `adaptive-rx = policy:NAME` (simulator), replay_policy() (replay/policy.h),
 * `[policy] NAME` in struct rxl_config (live loop, mode dim).  rxlab is not
 * edited.  docs/policies.md walks through it; examples/policy_livelock.c is
 * one.
 *
 * A policy decides as DIM and the ethtool pkt-rate controller do (dim.h,
 * adaptive.h): cumulative counters in, a decision out.  The caller -- the
 * simulated driver, the replay, the live loop -- owns the state memory,
 * feeds samples and applies the decision to its coalescing engine
 * (coalesce.h).  Calling convention (as mlx5 calls net_dim()):
 *
 *   rxl_policy_register(&my_ops, &why);     once, before any load or run
 *   ...
 *   rxl_policy_run_init(&run, ops, &start, &sample);
 *   every interrupt:           rxl_policy_run_event(&run, RXL_POLICY_ON_IRQ, &sample, &d, &why)
 *   every completed NAPI poll,
 *   before the IRQ is re-enabled: rxl_policy_run_event(&run, RXL_POLICY_ON_POLL_DONE, ...)
 *   if (d.verdict == RXL_POLICY_SET) {
 *       ...write d.set.rx_usecs / d.set.rx_frames to the engine...
 *       rxl_policy_run_applied(&run, &what_was_written);
 *   }
 *
 * Times are int64_t nanoseconds of one clock chosen by the caller.
 */
#ifndef RXLAB_RXLAB_POLICY_H
#define RXLAB_RXLAB_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Names: 1..RXL_POLICY_NAME_MAX characters from A-Z a-z 0-9 _ . - (those
 * of scenario section names), none of the built-in adaptive-rx values
 * (off, dim, pkt-rate) nor "policy". */
#define RXL_POLICY_NAME_MAX 31
/* Registered policies at most (a fixed table: the core allocates nothing). */
#define RXL_POLICY_MAX 16
/* State bytes a policy may ask for (struct rxl_policy_ops.state_bytes). */
#define RXL_POLICY_STATE_MAX 1024
/* Settings a decision may choose: rx-usecs 0..1 s, rx-frames 0..1024 (the
 * live loop's ranges, inside the simulator's), not both 0 (the coalescing
 * firing rule calls that illegal; rx-usecs 0 + rx-frames 1 is "no
 * moderation"). */
#define RXL_POLICY_RX_USECS_MAX 1000000u
#define RXL_POLICY_RX_FRAMES_MAX 1024u

/* One sample, taken by the caller.  Cumulative since the policy's init()
 * or reset() origin (any value there; the policy keeps the start), 64 bits,
 * non-decreasing: a policy takes differences.  The same counters DIM's
 * struct dim_sample carries, without its wrap. */
struct rxl_policy_sample {
	int64_t t_ns;             /* time of the sample */
	uint64_t packets;         /* RX packets taken by the driver */
	uint64_t bytes;           /* bytes of those packets */
	uint64_t events;          /* interrupts asserted (simulator), deliveries
	                           * of the coalescing engine (live), the
	                           * recorded events column (replay) */
};

/* The RX coalescing settings, ethtool -C names and units. */
struct rxl_policy_settings {
	uint32_t rx_usecs;        /* us */
	uint32_t rx_frames;       /* frames */
};

/* What a decision op says. */
enum rxl_policy_verdict {
	RXL_POLICY_MEASURING = 0, /* no decision at this sample (a window is open) */
	RXL_POLICY_KEEP,          /* decided: the settings in effect stay */
	RXL_POLICY_SET,           /* decided: apply set (rx-usecs, rx-frames) */
};

struct rxl_policy_decision {
	enum rxl_policy_verdict verdict;
	struct rxl_policy_settings set; /* RXL_POLICY_SET only: within the limits above */
};

/* Which decision op a sample is for. */
enum rxl_policy_event {
	RXL_POLICY_ON_IRQ = 0,    /* the driver's interrupt handler runs */
	RXL_POLICY_ON_POLL_DONE,  /* a NAPI poll completed; the IRQ is about to be re-enabled */
};

/* The ops table.  Every op is pure: it reads and writes @state and its
 * arguments only -- no I/O, no clock (time comes in the sample), no
 * allocation, no globals -- so the simulator's runs stay deterministic and
 * the same table runs in the simulator, the replay and the live loop.
 * @state is the caller's memory of state_bytes bytes, aligned for any
 * type, owned by one run; @cur is what the caller's engine has in effect
 * (what the policy last got applied, or the start settings).  Ops are
 * called from one thread per run; two runs never share a state. */
struct rxl_policy_ops {
	/* Registry key and the spelling users write: adaptive-rx = policy:NAME. */
	const char *name;
	/* One line for listings and error messages ("raise rx-usecs when ..."). */
	const char *description;
	/* Bytes of state, 0..RXL_POLICY_STATE_MAX. */
	size_t state_bytes;
	/* Required.  @state holds garbage: set all of it.  @start are the
	 * settings in effect (scenario rx-usecs truncated to whole us, the live
	 * config's rx-usecs / rx-frames); @now is the origin of the counters. */
	void (*init)(void *state, const struct rxl_policy_settings *start,
		     const struct rxl_policy_sample *now);
	/* Optional (NULL: the caller calls init() with the settings in
	 * effect).  The counters restarted at @now (a replay whose counters
	 * went back: a device reset); @state is initialised: drop the
	 * measurement window, keep what the policy learned if it likes. */
	void (*reset)(void *state, const struct rxl_policy_settings *cur,
		      const struct rxl_policy_sample *now);
	/* Optional, but at least one of the two: a decision at each event of
	 * enum rxl_policy_event.  @s is at or after the previous sample. */
	struct rxl_policy_decision (*on_irq)(void *state, const struct rxl_policy_settings *cur,
					     const struct rxl_policy_sample *s);
	struct rxl_policy_decision (*on_poll_done)(void *state,
						   const struct rxl_policy_settings *cur,
						   const struct rxl_policy_sample *s);
};

/* 0 if @ops keeps the rules above (name, init, an op, state size), else
 * -1 with *why (if not NULL) set to a static message. */
int rxl_policy_ops_check(const struct rxl_policy_ops *ops, const char **why);

/* ---- the registry ----------------------------------------------------
 * One process-wide table of RXL_POLICY_MAX entries holding the callers'
 * pointers (@ops must outlive every run that uses it; a static const table
 * does).  Not thread-safe: register from one thread before loading any
 * scenario or starting any run; lookups only read, so runs on any number of
 * threads or forked sweep workers may look up concurrently afterwards. */

/* Add @ops.  0, or a negative errno with *why (if not NULL) a static
 * message: -EINVAL (rxl_policy_ops_check() fails, or the name is a built-in
 * adaptive-rx value), -EEXIST (a policy of that name is registered),
 * -ENOSPC (RXL_POLICY_MAX are). */
int rxl_policy_register(const struct rxl_policy_ops *ops, const char **why);

/* The policy registered as @name, or NULL. */
const struct rxl_policy_ops *rxl_policy_find(const char *name);

/* Registered policies, and the @i-th in registration order (NULL when @i
 * is out of range): for listings. */
size_t rxl_policy_count(void);
const struct rxl_policy_ops *rxl_policy_at(size_t i);

/* The registered names in registration order, joined by ", ", into
 * @buf[@len] (always terminated when @len > 0; cut at the end); "" when
 * none is.  For "registered: ..." in callers' messages. */
void rxl_policy_list(char *buf, size_t len);

/* Empty the table (tests; a program that re-registers).  Not while a run
 * uses a policy. */
void rxl_policy_registry_clear(void);

/* ---- running one policy (the callers' side) ------------------------- */

/* Invariants: ops passed rxl_policy_ops_check(); cur is what the caller
 * last reported applied (or the start); state is ops' own. */
struct rxl_policy_run {
	const struct rxl_policy_ops *ops;
	struct rxl_policy_settings cur;  /* settings in effect */
	union {
		max_align_t align;       /* aligned for any type */
		unsigned char bytes[RXL_POLICY_STATE_MAX];
	} state;
	/* counters */
	uint64_t calls;                  /* decision ops called */
	uint64_t decisions;              /* ... that returned KEEP or SET */
	uint64_t sets;                   /* ... that returned SET */
	uint64_t changes;                /* applied settings that differed from cur */
	uint64_t resets;                 /* counter restarts (rxl_policy_run_reset()) */
};

/* Start @r with @ops (must pass rxl_policy_ops_check()), @start in effect
 * and the counters at @now; counters zero. */
void rxl_policy_run_init(struct rxl_policy_run *r, const struct rxl_policy_ops *ops,
			 const struct rxl_policy_settings *start,
			 const struct rxl_policy_sample *now);

/* The caller's counters restarted at @now: ops->reset(), or init() with
 * the settings in effect when the policy has no reset. */
void rxl_policy_run_reset(struct rxl_policy_run *r, const struct rxl_policy_sample *now);

/* Call the op of @ev with @s (MEASURING when the policy has none for @ev)
 * and check the decision.  0 with *d set, or -1 with *why a static
 * message when a SET breaks the limits (both 0, above a maximum): a bug of
 * the policy, which the caller reports and does not apply. */
int rxl_policy_run_event(struct rxl_policy_run *r, enum rxl_policy_event ev,
			 const struct rxl_policy_sample *s, struct rxl_policy_decision *d,
			 const char **why);

/* The caller wrote @applied to its engine (a SET's settings, possibly
 * capped by the caller, e.g. the live loop's staging slots): it becomes
 * cur; changes counts it when it differs. */
void rxl_policy_run_applied(struct rxl_policy_run *r, const struct rxl_policy_settings *applied);

/* "on-irq" / "on-poll-done"; "?" out of range. */
const char *rxl_policy_event_name(enum rxl_policy_event ev);

/* Helpers for writing decision ops. */
static inline struct rxl_policy_decision rxl_policy_measuring(void)
{
	return (struct rxl_policy_decision){ .verdict = RXL_POLICY_MEASURING };
}

static inline struct rxl_policy_decision rxl_policy_keep(void)
{
	return (struct rxl_policy_decision){ .verdict = RXL_POLICY_KEEP };
}

static inline struct rxl_policy_decision rxl_policy_set(uint32_t rx_usecs, uint32_t rx_frames)
{
	struct rxl_policy_decision d = { .verdict = RXL_POLICY_SET };

	d.set.rx_usecs = rx_usecs;
	d.set.rx_frames = rx_frames;
	return d;
}

#endif
