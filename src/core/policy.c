/* policy.c - the registry of user-written moderation policies and the
 * callers' side of running one (include/rxlab/policy.h).
 *
 * The registry is the one piece of process-wide state in src/core: a
 * policy is named from places that take no context (a scenario's text, a
 * live config key), so the name has to resolve without one.  It is a
 * fixed table of pointers -- nothing allocated -- filled before any run and
 * only read afterwards.  Strings are compared by hand: the pure core calls
 * no libc beyond memcpy/memset (tests/purity.sh).
 */
#include "rxlab/policy.h"

#include <errno.h>

static const struct rxl_policy_ops *registry[RXL_POLICY_MAX];
static size_t n_registered;

/* The values of [nic] adaptive-rx the scenario loader knows itself
 * (src/model/scenario_load.c adaptive_names[]) and the "policy" prefix:
 * a user policy may not shadow them. */
static const char *const builtin_names[] = { "off", "dim", "pkt-rate", "policy" };

static bool same(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-';
}

static bool valid_name(const char *n)
{
	size_t len = 0;

	for (; n[len]; len++)
		if (len == RXL_POLICY_NAME_MAX || !name_char(n[len]))
			return false;
	return len > 0;
}

int rxl_policy_ops_check(const struct rxl_policy_ops *ops, const char **why)
{
	const char *w = NULL;

	if (!ops)
		w = "no ops table";
	else if (!ops->name || !valid_name(ops->name))
		w = "name must be 1..31 characters from A-Z a-z 0-9 _ . -";
	else if (!ops->init)
		w = "init is required";
	else if (!ops->on_irq && !ops->on_poll_done)
		w = "on_irq or on_poll_done is required";
	else if (ops->state_bytes > RXL_POLICY_STATE_MAX)
		w = "state_bytes is above RXL_POLICY_STATE_MAX (1024)";
	if (w && why)
		*why = w;
	return w ? -1 : 0;
}

static bool is_builtin(const char *name)
{
	for (size_t i = 0; i < sizeof(builtin_names) / sizeof(builtin_names[0]); i++)
		if (same(name, builtin_names[i]))
			return true;
	return false;
}

/* Why @ops may not join the registry (and *rc), or NULL. */
static const char *refusal(const struct rxl_policy_ops *ops, int *rc)
{
	const char *w = NULL;

	*rc = -EINVAL;
	if (rxl_policy_ops_check(ops, &w))
		return w;
	if (is_builtin(ops->name))
		return "the name is a built-in adaptive-rx value (off, dim, pkt-rate, policy)";
	*rc = -EEXIST;
	if (rxl_policy_find(ops->name))
		return "a policy of that name is already registered";
	*rc = -ENOSPC;
	if (n_registered == RXL_POLICY_MAX)
		return "the registry is full (RXL_POLICY_MAX = 16 policies)";
	return NULL;
}

int rxl_policy_register(const struct rxl_policy_ops *ops, const char **why)
{
	int rc;
	const char *w = refusal(ops, &rc);

	if (w) {
		if (why)
			*why = w;
		return rc;
	}
	registry[n_registered++] = ops;
	return 0;
}

const struct rxl_policy_ops *rxl_policy_find(const char *name)
{
	for (size_t i = 0; i < n_registered; i++)
		if (same(registry[i]->name, name))
			return registry[i];
	return NULL;
}

size_t rxl_policy_count(void)
{
	return n_registered;
}

const struct rxl_policy_ops *rxl_policy_at(size_t i)
{
	return i < n_registered ? registry[i] : NULL;
}

/* Copy @s to @buf[@at..] while it fits @len with a terminator; the new end. */
static size_t append(char *buf, size_t len, size_t at, const char *s)
{
	for (; *s && at + 1 < len; s++)
		buf[at++] = *s;
	return at;
}

void rxl_policy_list(char *buf, size_t len)
{
	size_t at = 0;

	if (len == 0)
		return;
	for (size_t i = 0; i < n_registered; i++) {
		if (i)
			at = append(buf, len, at, ", ");
		at = append(buf, len, at, registry[i]->name);
	}
	buf[at] = '\0';
}

void rxl_policy_registry_clear(void)
{
	for (size_t i = 0; i < n_registered; i++)
		registry[i] = NULL;
	n_registered = 0;
}

/* ---- running one policy ---- */

void rxl_policy_run_init(struct rxl_policy_run *r, const struct rxl_policy_ops *ops,
			 const struct rxl_policy_settings *start,
			 const struct rxl_policy_sample *now)
{
	r->ops = ops;
	r->cur = *start;
	r->calls = r->decisions = r->sets = r->changes = r->resets = 0;
	ops->init(r->state.bytes, start, now);
}

void rxl_policy_run_reset(struct rxl_policy_run *r, const struct rxl_policy_sample *now)
{
	r->resets++;
	if (r->ops->reset)
		r->ops->reset(r->state.bytes, &r->cur, now);
	else
		r->ops->init(r->state.bytes, &r->cur, now);
}

static const char *set_check(const struct rxl_policy_settings *s)
{
	if (s->rx_usecs == 0 && s->rx_frames == 0)
		return "decided rx-usecs 0 and rx-frames 0 (at least one must be non-zero)";
	if (s->rx_usecs > RXL_POLICY_RX_USECS_MAX)
		return "decided rx-usecs above RXL_POLICY_RX_USECS_MAX (1000000 us)";
	if (s->rx_frames > RXL_POLICY_RX_FRAMES_MAX)
		return "decided rx-frames above RXL_POLICY_RX_FRAMES_MAX (1024)";
	return NULL;
}

int rxl_policy_run_event(struct rxl_policy_run *r, enum rxl_policy_event ev,
			 const struct rxl_policy_sample *s, struct rxl_policy_decision *d,
			 const char **why)
{
	struct rxl_policy_decision (*op)(void *, const struct rxl_policy_settings *,
					 const struct rxl_policy_sample *) =
		ev == RXL_POLICY_ON_IRQ ? r->ops->on_irq : r->ops->on_poll_done;
	const char *w;

	*d = rxl_policy_measuring();
	if (!op)
		return 0;
	r->calls++;
	*d = op(r->state.bytes, &r->cur, s);
	if (d->verdict == RXL_POLICY_MEASURING)
		return 0;
	if (d->verdict != RXL_POLICY_KEEP && d->verdict != RXL_POLICY_SET) {
		*why = "returned a verdict that is not MEASURING, KEEP or SET";
		return -1;
	}
	r->decisions++;
	if (d->verdict == RXL_POLICY_KEEP)
		return 0;
	w = set_check(&d->set);
	if (w) {
		*why = w;
		return -1;
	}
	r->sets++;
	return 0;
}

void rxl_policy_run_applied(struct rxl_policy_run *r, const struct rxl_policy_settings *applied)
{
	if (applied->rx_usecs != r->cur.rx_usecs || applied->rx_frames != r->cur.rx_frames)
		r->changes++;
	r->cur = *applied;
}

const char *rxl_policy_event_name(enum rxl_policy_event ev)
{
	switch (ev) {
	case RXL_POLICY_ON_IRQ:
		return "on-irq";
	case RXL_POLICY_ON_POLL_DONE:
		return "on-poll-done";
	}
	return "?";
}
