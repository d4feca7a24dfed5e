/* outfile.h - the one way rxlab writes a file the user named (--out PATH).
 *
 * The rule: write where the shell's `> PATH` would write, and replace a
 * regular file atomically.  So a symlink is followed (and stays a link), a
 * FIFO, a character device or a pipe reached through /dev/stdout is written
 * in place, and an absent or regular target gets a temporary file of an
 * unpredictable name, created exclusively in the target's own directory,
 * fsynced and renamed over it: a reader sees the old content or the new
 * one, never half of it.
 *
 * Two writers of one regular target: the first holds flock(LOCK_EX) on the
 * inode that PATH names (and on each temporary file before it is renamed
 * there), so the second fails at outfile_open() with "PATH is being written
 * by another process (pid N)" instead of replacing one result by the other.
 * In-place targets (devices, FIFOs, pipes) are not locked: they keep no
 * result to lose, and `--out /dev/null` must work in parallel runs.
 *
 * docs/output-files.md says the same for users.  Every message names PATH as
 * the user gave it.
 */
#ifndef RXLAB_IO_OUTFILE_H
#define RXLAB_IO_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct outfile;

/* Open @path for writing where the shell's `> PATH` would write.  "-" is
 * standard output (flushed and checked, never closed).  PATH is followed if it
 * is a symlink.  If the file it names exists and is not a regular file (FIFO,
 * character device, a pipe or tty reached through /dev/stdout or
 * /proc/self/fd/N) it is opened for writing in place (O_WRONLY|O_TRUNC as the
 * shell does, no rename).  If it is absent or a regular file the write is
 * atomic: a temporary file created exclusively (O_EXCL, unpredictable name,
 * never through a link) in the target's own directory, fsynced, then renamed
 * over the target; the link, if any, stays a link.  While open, the writer
 * holds a lock so that a second writer of the same target fails at open with
 * a message naming the path (and, if known, the other process).
 * 0 and *@of, or -1 with a message naming the path in @err.
 *
 * Details: an absent target is created empty at once, as the shell does (it
 * is what the lock is taken on), and removed again if the write fails or is
 * abandoned.  A replaced regular file keeps its permission bits (not set-id
 * bits) and, when running as root, its owner and group; a new one gets
 * 0666 & ~umask.  Opening a FIFO blocks until it has a reader, as the shell
 * does.  @err may be NULL (then @errlen is ignored). */
int outfile_open(struct outfile **of, const char *path, char *err, size_t errlen);

/* The stream to write to. */
FILE *outfile_fp(struct outfile *of);

/* true when the output will be renamed into place (absent or regular target). */
bool outfile_atomic(const struct outfile *of);

/* The path as given to outfile_open(), for messages. */
const char *outfile_path(const struct outfile *of);

/* Make the bytes written so far, followed by @trailer (NULL: none), the
 * content of the target now, and keep writing after.  Atomic mode: copy the
 * temporary file so far plus @trailer to a second exclusive temporary file,
 * fsync, rename it over the target (the stream's own position and content
 * are unchanged, @trailer is not added to it).  In-place mode: fflush only,
 * @trailer is not written.  0, or -1 with a message. */
int outfile_checkpoint(struct outfile *of, const char *trailer, char *err, size_t errlen);

/* Finish: flush, check every error (ferror, fsync, fclose), rename into
 * place, release the lock, free @of.  0, or -1 with a message naming the
 * path; on failure the target keeps what it had and nothing is left behind. */
int outfile_close(struct outfile *of, char *err, size_t errlen);

/* Give up: remove the temporary file, release the lock, free @of; the target
 * keeps what it had. */
void outfile_abort(struct outfile *of);

/* Flush standard output and check that everything written to it arrived:
 * 0, or the errno of the failure (EIO when the stream's error flag is set
 * and the reason is gone).  Clears the error flag, so a failure is reported
 * once.  For the final check of every command (src/cli/main.c). */
int outfile_stdout_error(void);

#endif
