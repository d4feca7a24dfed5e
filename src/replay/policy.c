/* policy.c - a registered policy on recorded samples (replay/policy.h).
 *
 * Drives the policy exactly as src/sim/policy.c does -- the same
 * rxl_policy_run_event() / rxl_policy_run_applied() pair, a SET applied
 * before the next sample -- so a replay and a simulated port can be
 * compared decision by decision.
 */
#include "replay/policy.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static struct table *policy_table_new(const char *name, enum rxl_policy_event ev)
{
	static const char *const cols[] = { "time_ns", "interval_ns", "packets", "bytes",
					    "events", "verdict", "rx_usecs", "rx_frames",
					    "changed", "restarted" };
	char title[96];
	struct table *t;

	snprintf(title, sizeof(title), "Policy %s decisions (%s)", name,
		 rxl_policy_event_name(ev));
	t = table_new("replay_policy", title);
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		table_add_col(t, cols[i], cols[i], -1);
	return t;
}

static bool went_back(const struct rxl_policy_sample *prev, const struct rxl_policy_sample *s)
{
	return s->packets < prev->packets || s->bytes < prev->bytes || s->events < prev->events;
}

/* Where the current interval started, and whether it followed a restart. */
struct policy_replay {
	struct rxl_policy_run run;
	struct rxl_policy_sample since;
	bool restarted;
};

static void policy_row(struct table *t, const struct policy_replay *p,
		       const struct rxl_policy_sample *s, const struct rxl_policy_decision *d,
		       bool changed)
{
	table_row(t);
	table_i64(t, s->t_ns);
	table_i64(t, s->t_ns - p->since.t_ns);
	table_u64(t, s->packets - p->since.packets);
	table_u64(t, s->bytes - p->since.bytes);
	table_u64(t, s->events - p->since.events);
	table_str(t, d->verdict == RXL_POLICY_SET ? "set" : "keep");
	table_u64(t, p->run.cur.rx_usecs);
	table_u64(t, p->run.cur.rx_frames);
	table_str(t, changed ? "yes" : "no");
	table_str(t, p->restarted ? "yes" : "no");
}

/* Sample @i (>= 1): restart on counters that went back, feed, apply. */
static int policy_step(struct policy_replay *p, struct table *t, enum rxl_policy_event ev,
		       const struct rxl_policy_sample *smp, size_t i, char *err, size_t errlen)
{
	const struct rxl_policy_sample *s = &smp[i];
	struct rxl_policy_decision d;
	uint64_t changes = p->run.changes;
	const char *why;

	if (s->t_ns < smp[i - 1].t_ns) {
		snprintf(err, errlen, "sample %zu: time_ns %lld is before sample %zu's %lld", i,
			 (long long)s->t_ns, i - 1, (long long)smp[i - 1].t_ns);
		return -1;
	}
	if (went_back(&smp[i - 1], s)) {
		rxl_policy_run_reset(&p->run, s);
		p->since = *s;
		p->restarted = true;
	}
	if (rxl_policy_run_event(&p->run, ev, s, &d, &why)) {
		snprintf(err, errlen, "sample %zu: policy %s, %s: %s", i, p->run.ops->name,
			 rxl_policy_event_name(ev), why);
		return -1;
	}
	if (d.verdict == RXL_POLICY_MEASURING)
		return 0;
	if (d.verdict == RXL_POLICY_SET)
		rxl_policy_run_applied(&p->run, &d.set);
	policy_row(t, p, s, &d, p->run.changes != changes);
	p->since = *s;
	p->restarted = false;
	return 0;
}

static int find_checked(const char *name, enum rxl_policy_event ev, size_t n,
			const struct rxl_policy_ops **ops, char *err, size_t errlen)
{
	char names[RXL_POLICY_MAX * (RXL_POLICY_NAME_MAX + 2) + 1];

	*ops = rxl_policy_find(name);
	if (!*ops) {
		rxl_policy_list(names, sizeof(names));
		snprintf(err, errlen, "no policy '%s' is registered; registered: %s", name,
			 names[0] ? names : "none");
		return -1;
	}
	if (!(ev == RXL_POLICY_ON_IRQ ? (*ops)->on_irq : (*ops)->on_poll_done)) {
		snprintf(err, errlen, "policy %s has no %s op", name, rxl_policy_event_name(ev));
		return -1;
	}
	if (n == 0) {
		snprintf(err, errlen, "no samples: the first one is the policy's origin");
		return -1;
	}
	return 0;
}

int replay_policy(const char *name, const struct rxl_policy_settings *start,
		  enum rxl_policy_event ev, const struct rxl_policy_sample *smp, size_t n,
		  struct table **out, char *err, size_t errlen)
{
	const struct rxl_policy_ops *ops;
	struct policy_replay p = { .since = n ? smp[0] : (struct rxl_policy_sample){ 0 } };

	*out = NULL;
	if (find_checked(name, ev, n, &ops, err, errlen))
		return -1;
	rxl_policy_run_init(&p.run, ops, start, &smp[0]);
	*out = policy_table_new(name, ev);
	for (size_t i = 1; i < n; i++) {
		if (policy_step(&p, *out, ev, smp, i, err, errlen)) {
			table_free(*out);
			*out = NULL;
			return -1;
		}
	}
	return 0;
}
