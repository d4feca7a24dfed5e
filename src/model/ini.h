/* ini.h - a generic INI reader (no schema; see scenario_load.c for that).
 *
 * Format:
 *   [kind]            a section
 *   [kind NAME]       a named section: [nic eth0], [traffic flood]
 *   key = value       blanks around key and value are trimmed
 *   key = "v # ; v"   double quotes keep '#' and ';' (no escapes)
 *   # comment         '#' or ';' at line start or after a blank starts a
 *   ; comment         comment; "rate = 5Mpps # line rate" is fine
 *
 * A UTF-8 byte order mark at the start is skipped; lines end in LF or
 * CRLF (a lone CR is refused as "CR-only line ends").
 *
 * The reader rejects malformed lines, a key outside any section, an empty
 * value, a key set twice in one section and a section (kind + name) given
 * twice.  Every error is one line, "origin:line: message".
 *
 * The document can be changed after reading (ini_section_add(), ini_set())
 * to apply command-line overrides; such sections and entries carry the
 * override text as their source, and ini_where() names it instead of a
 * line.
 */
#ifndef RXLAB_MODEL_INI_H
#define RXLAB_MODEL_INI_H

#include <stdbool.h>
#include <stddef.h>

struct ini_entry {
	char *key;
	char *value;
	int line;        /* 1-based line in the document; 0 if set by an override */
	const char *src; /* the override that set it ("--set a.b=c" without
	                  * "--set "), borrowed; NULL if from the document */
};

struct ini_section {
	char *kind;      /* "nic" */
	char *name;      /* "eth0", or "" for [kind] */
	int line;        /* line of the header; 0 if created by an override */
	const char *src; /* override that created it, borrowed; else NULL */
	struct ini_entry **ent;
	size_t n_ent, cap_ent;
};

/* Sections in document order (overrides append). */
struct ini_doc {
	const char *origin; /* file path or built-in path, borrowed */
	struct ini_section **sec;
	size_t n_sec, cap_sec;
};

/* Read @text.  @d is always initialised: call ini_free() also on failure.
 * Returns 0, -EINVAL with "origin:line: message" in @err, or -ENOMEM. */
int ini_parse(struct ini_doc *d, const char *text, const char *origin, char *err,
              size_t errlen);

void ini_free(struct ini_doc *d);

/* The section @kind/@name ("" for unnamed), or NULL. */
struct ini_section *ini_find_section(const struct ini_doc *d, const char *kind,
                                     const char *name);

/* The entry @key of @s, or NULL. */
struct ini_entry *ini_find(const struct ini_section *s, const char *key);

/* Append a section; @kind, @name copied, @src borrowed.  NULL if out of memory. */
struct ini_section *ini_section_add(struct ini_doc *d, const char *kind, const char *name,
                                    int line, const char *src);

/* Set @key to @value in @s, replacing an existing entry (an override wins).
 * Returns the entry, or NULL if out of memory. */
struct ini_entry *ini_set(struct ini_section *s, const char *key, const char *value,
                          int line, const char *src);

/* Message prefix for an entry or section: "origin:line" or "--set TEXT";
 * just "origin" when @line is 0 and @src is NULL.  Returns @buf. */
char *ini_where(const struct ini_doc *d, int line, const char *src, char *buf, size_t len);

/* "[kind]" or "[kind name]" into @buf.  Returns @buf. */
char *ini_section_label(const struct ini_section *s, char *buf, size_t len);

/* Levenshtein distance between @a and @b, ignoring case (so "NAPI" is a
 * near miss of "napi"); 255 for strings of 63 characters or more. */
int ini_edit_distance(const char *a, const char *b);

/* The candidate closest to @word by edit distance if that distance is at
 * most 2 (and less than the length of @word), else NULL.  @cands is
 * NULL-terminated. */
const char *ini_suggest(const char *word, const char *const *cands);

/* Read a whole file into a NUL-terminated malloc'd string.  Only a regular
 * file is read (a FIFO or a device is refused before any read, so a FIFO
 * without a writer cannot block), of at most 1 MiB and lines of at most
 * 4096 bytes.  Errors name the path: "PATH: is a directory, not a file",
 * "PATH: is a FIFO, not a regular file; ...", "PATH: file is empty",
 * "PATH: cannot read: Permission denied", "PATH: contains a NUL byte (not
 * a text file?)", "PATH:LINE: line longer than 4 KiB (...)".
 * Returns 0 or a negative errno: the stat()/open() errno, -EISDIR,
 * -ENOTSUP (not a regular file), -ENODATA (empty), -EILSEQ (NUL byte),
 * -EFBIG (over 1 MiB), -E2BIG (a line too long), -EIO, -ENOMEM; never
 * -EINVAL, which the loaders keep for errors in the contents.  A UTF-8 BOM
 * is left in the text: ini_parse() skips it.  "-" is standard input
 * (io/infile.h), read with the same limits and named "<stdin>"; -EBUSY when
 * another reader had it. */
int ini_read_file(const char *path, char **text, char *err, size_t errlen);

#endif
