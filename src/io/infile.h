/* infile.h - opening and reading the files a user names, with bounds.
 *
 * Every reader of a user-named file (scenarios and profiles, traces,
 * replay inputs, live timelines, results files) goes through here, so that
 * the rules are one set:
 *
 *   - Opening never blocks where a regular file is needed: the file is
 *     opened O_NONBLOCK, its type checked on the open descriptor, and a
 *     FIFO, device or socket refused ("PATH: is a FIFO, not a regular
 *     file; ...").  Readers of streams also take FIFOs and pipes
 *     (`<(cmd)`), which wait for their writer as cat does, and character
 *     devices (/dev/stdin on a terminal; /dev/zero stops at its first
 *     byte on the limits below).
 *   - A UTF-8 byte order mark (EF BB BF) before the first line is skipped.
 *   - Lines end in LF or CRLF; a carriage return alone ("CR-only line
 *     ends", old Mac files) is refused with a message that says so.
 *   - A line longer than the reader's limit, more bytes or more rows than
 *     its limits, and a NUL byte stop the reader with a message naming the
 *     file, the line and the limit, as soon as they are read: /dev/zero or
 *     /dev/urandom fail within their first line.
 *
 * It lives in src/report because the results-file reader (rowfile.c) is
 * there; the CLI's readers use it too.
 */
#ifndef RXLAB_IO_INFILE_H
#define RXLAB_IO_INFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum infile_kind {
	INFILE_REGULAR, /* regular files only; FIFOs, devices and sockets refused
	                 * without blocking */
	INFILE_STREAM,  /* regular files, FIFOs, pipes and character devices;
	                 * block devices and sockets refused */
};

/* Open @path for reading ("rb").  @accepted ends the refusal of a file of
 * the wrong type: "PATH: is a FIFO, not a regular file; @accepted".  A
 * directory is "PATH: is a directory, not a file".  Returns the stream, or
 * NULL with one line in @err and a negative errno in *@rc (@rc may be
 * NULL): open()'s, -EISDIR, or -ENOTSUP for a file of the wrong type. */
FILE *infile_open(const char *path, enum infile_kind kind, const char *accepted, int *rc,
		  char *err, size_t errlen);

/* Standard input.  "-" names it wherever rxlab reads a file (a scenario,
 * a trace, a results file, a replay input); messages name it "<stdin>".
 * A command reads it once: the first reader claims it, and a second
 * reader in the same process (a scenario from - whose traffic.trace is
 * also -, `merge - -`) is refused by name instead of reading what the
 * first left.  Readers that read the same file many times (a sweep's
 * scenario, a trace) keep what they read (model/scenario_load.c,
 * model/trace_load.c).  Whatever its type, standard input is read with the
 * reader's own limits, as a file of that kind is. */
#define INFILE_STDIN_NAME "<stdin>"

/* Whether @path is "-". */
bool infile_is_stdin(const char *path);

/* The name of @path in messages: "<stdin>" for "-", else @path. */
const char *infile_name(const char *path);

/* Claim standard input for the reader of @what ("a scenario", "a trace",
 * "a results file").  0 the first time in the process; after that -EBUSY
 * with "<stdin>: standard input is already read as a scenario; a trace
 * cannot read it too (a command reads standard input once: give one of
 * them a file)". */
int infile_stdin_claim(const char *what, char *err, size_t errlen);

/* From now on, standard input belongs to this process: a process forked
 * after this call (a sweep's worker) that tries to claim it is refused,
 * "<stdin>: a worker process cannot read standard input; WHAT is read
 * once, by the command before its workers start (give a file)", instead of
 * racing its siblings for the bytes.  For commands that fork, after they
 * read what they need (cli/common.h common_preload()). */
void infile_stdin_parent_only(void);

/* Claim standard input for @what and return a stream on a duplicate of
 * descriptor 0 (fclose() closes the duplicate only).  A directory
 * (`< dir`) is refused: "<stdin>: is a directory, not a file".  NULL with
 * one line in @err and a negative errno in *@rc (@rc may be NULL). */
FILE *infile_stdin_open(const char *what, int *rc, char *err, size_t errlen);

/* A seekable stream of the bytes left on @in (named @name), for readers
 * that seek (traces): @in itself when it is a regular file; otherwise a
 * copy in an anonymous temporary file (tmpfile(): unlinked, never a
 * planted name) of at most @max bytes, "NAME: more than 4 GiB (the limit
 * of WHAT)" past it, positioned at its start.  Closes @in when it makes a
 * copy, and on failure.  NULL with one line in @err and a negative errno
 * in *@rc (@rc may be NULL). */
FILE *infile_spool(FILE *in, const char *name, uint64_t max, const char *what, int *rc,
		   char *err, size_t errlen);

/* "a FIFO", "a character device", "a block device", "a socket", "a
 * directory", "a symbolic link" or "a regular file" for an st_mode. */
const char *infile_type_name(unsigned mode);

/* 3 if @buf (of @len bytes) starts with a UTF-8 byte order mark, else 0. */
size_t infile_bom(const char *buf, size_t len);

/* Whether @buf has a carriage return not followed by a line feed. */
bool infile_lone_cr(const char *buf, size_t len);

/* The message of a lone carriage return, after "NAME:LINE: ". */
#define INFILE_CR_ONLY "CR-only line ends (a carriage return without a line feed); " \
	"save the file with LF or CRLF line ends"

/* "1 GiB", "4 KiB", "300 bytes": a limit as a person writes it, in @buf. */
const char *infile_size_text(uint64_t n, char *buf, size_t len);

/* Limits of one reader.  0 means no limit (tests only). */
struct infile_limits {
	size_t line_max;    /* bytes of one line, without its line end */
	uint64_t total_max; /* bytes of the whole file */
};

/* Read all of @f (named @name) into a NUL-terminated malloc'd buffer,
 * *@len bytes without the NUL; a BOM is kept (callers skip it with
 * infile_bom()).  Reading stops as soon as a limit is passed: "NAME: file
 * is too large (more than 1 GiB; the limit of WHAT)", "NAME:LINE: line
 * longer than 1 MiB (the limit of WHAT)", or, when @nul_msg is not NULL, at
 * a NUL byte: "NAME: NUL_MSG".  @what names the kind of file ("a
 * results file").  Does not close @f.  0, or with one line in @err a
 * negative errno: -EFBIG (file), -E2BIG (line), -EILSEQ (NUL), -ENOMEM or
 * -EIO. */
int infile_slurp(FILE *f, const char *name, const struct infile_limits *lim, const char *what,
		 const char *nul_msg, char **buf, size_t *len, char *err, size_t errlen);

/* A bounded line reader on a stream.  Invariants: line is the 1-based
 * number of the line in buf (0 before the first); bytes counts every byte
 * read from f. */
struct linein {
	FILE *f;
	const char *name;
	struct infile_limits lim;
	const char *expect; /* ends the too-long message: "expected time_us,length" */
	unsigned long line;
	uint64_t bytes;
	char *buf;
	size_t cap;
};

/* Start reading @f (not taken: the caller closes it). */
void linein_init(struct linein *r, FILE *f, const char *name, const struct infile_limits *lim,
		 const char *expect);

/* The next line in r->buf, NUL-terminated, without its LF or CRLF; its
 * length in *@len (may be NULL).  1, 0 at the end, or -1 with one line in
 * @err: "NAME:LINE: line longer than N characters; EXPECT", "NAME:LINE:
 * contains a NUL byte; expected a text line" (or another control
 * character but tab and CR: binary data), "NAME:LINE: CR-only line
 * ends ...", "NAME:LINE: more than N bytes in the file (the limit)", or
 * "NAME: read error: ...". */
int linein_next(struct linein *r, size_t *len, char *err, size_t errlen);

void linein_free(struct linein *r);

#endif
