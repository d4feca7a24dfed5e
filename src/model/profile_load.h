/* profile_load.h - read a hardware cost profile (profiles/NAME.ini).
 *
 * A profile file has two sections:
 *
 *   [profile]
 *   name = piii-933-e1000          optional; default: file name without .ini
 *   description = "..."            optional one line
 *   ghz = 2.1                      optional nominal core clock, 0.1..10 GHz,
 *                                  at most three decimals (-> mhz = 2100);
 *                                  default 0 = unknown
 *
 *   [cost]                         every key required, see rxlab/profile.h
 *   irq-entry = 1500ns             CPU time per occurrence: ns, us, ms, s
 *   dma-per-byte = 8000ps          *-per-byte: time per byte: ps, ns, us
 *   ...
 *
 * Per-occurrence costs are accepted in 0..1ms, per-byte costs in 0..1us.
 */
#ifndef RXLAB_MODEL_PROFILE_LOAD_H
#define RXLAB_MODEL_PROFILE_LOAD_H

#include <stddef.h>

#include "rxlab/profile.h"

/* Fill @p from the profile called @name_or_path: the built-in
 * "profiles/NAME" when there is one (NAME may also be given as
 * "profiles/NAME"), else the file at that path.
 * Returns 0, or a negative errno with one line in @err:
 *   -ENOENT   neither exists: "no built-in profile 'X' and no file 'X';
 *             built-in profiles: ..." (the caller says who asked for X);
 *   -EINVAL   bad contents: "PATH:LINE: message" (or "PATH: message");
 *   other     the file cannot be used: "PATH: is a directory, not a file",
 *             "PATH: file is empty", "PATH: cannot read: ...".
 * @p is caller-owned and holds no pointers; on error it is unspecified. */
int profile_load(struct profile *p, const char *name_or_path, char *err, size_t errlen);

/* Fill @p from profile text; messages name @origin (a path) and its line.
 * p->name defaults to the basename of @origin without ".ini".
 * Returns 0 or a negative errno (-EINVAL for bad content, -ENOMEM). */
int profile_load_text(struct profile *p, const char *text, const char *origin, char *err,
                      size_t errlen);

#endif
