/* test_outfile.c - writing the file the user named (src/report/outfile.c).
 *
 * The contract: write where the shell's `> PATH` would; a regular or absent
 * target is replaced atomically (old content until the close, nothing left
 * behind), a symlink is followed and stays a link, a FIFO or a character
 * device is written in place and keeps its type, a name planted where the
 * old code put its "PATH.tmp" is never touched, and a second writer of the
 * same target fails at open.  Every test works in its own mkdtemp()
 * directory; the character device is a mknod() copy of /dev/full there.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include "io/outfile.h"

struct dir {
	char path[64];
};

static char *at(const struct dir *d, const char *name)
{
	static char buf[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", d->path, name);
	return buf[i];
}

static void dir_make(struct dir *d)
{
	snprintf(d->path, sizeof(d->path), "/tmp/rxlab-test-outfile-XXXXXX");
	assert_non_null(mkdtemp(d->path));
}

static void dir_remove(struct dir *d)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->path);
	assert_int_equal(system(cmd), 0);
}

/* Entries of directory @path, "." and ".." excluded. */
static int entries(const char *path)
{
	DIR *dp = opendir(path);
	struct dirent *e;
	int n = 0;

	assert_non_null(dp);
	while ((e = readdir(dp)) != NULL)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(dp);
	return n;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The content of @path (static buffer, at most 4095 bytes). */
static const char *get(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static struct stat lstat_of(const char *path)
{
	struct stat st;

	assert_int_equal(lstat(path, &st), 0);
	return st;
}

static struct outfile *open_ok(const char *path)
{
	struct outfile *of = NULL;
	char err[512] = "";

	if (outfile_open(&of, path, err, sizeof(err)))
		fail_msg("outfile_open(%s): %s", path, err);
	assert_non_null(of);
	return of;
}

static void close_ok(struct outfile *of)
{
	char err[512] = "";

	if (outfile_close(of, err, sizeof(err)))
		fail_msg("outfile_close: %s", err);
}

/* The old content stays until the close; then the new one, a new inode,
 * the old permission bits, and no temporary file left. */
static void test_regular_replaced_atomically(void **state)
{
	struct dir d;
	struct outfile *of;
	struct stat before;

	(void)state;
	dir_make(&d);
	put(at(&d, "out.csv"), "old\n");
	assert_int_equal(chmod(at(&d, "out.csv"), 0640), 0);
	before = lstat_of(at(&d, "out.csv"));
	of = open_ok(at(&d, "out.csv"));
	assert_true(outfile_atomic(of));
	assert_string_equal(outfile_path(of), at(&d, "out.csv"));
	fputs("new\n", outfile_fp(of));
	fflush(outfile_fp(of));
	assert_string_equal(get(at(&d, "out.csv")), "old\n");
	close_ok(of);
	assert_string_equal(get(at(&d, "out.csv")), "new\n");
	assert_int_equal(lstat_of(at(&d, "out.csv")).st_mode & 07777, 0640);
	assert_true(lstat_of(at(&d, "out.csv")).st_ino != before.st_ino);
	assert_int_equal(entries(d.path), 1);
	dir_remove(&d);
}

/* As root, a replaced file keeps its owner and group. */
static void test_owner_kept(void **state)
{
	struct dir d;
	struct outfile *of;

	(void)state;
	if (geteuid() != 0)
		skip();
	dir_make(&d);
	put(at(&d, "out.csv"), "old\n");
	assert_int_equal(chown(at(&d, "out.csv"), 4321, 4322), 0);
	of = open_ok(at(&d, "out.csv"));
	fputs("new\n", outfile_fp(of));
	close_ok(of);
	assert_int_equal(lstat_of(at(&d, "out.csv")).st_uid, 4321);
	assert_int_equal(lstat_of(at(&d, "out.csv")).st_gid, 4322);
	dir_remove(&d);
}

/* An absent target is created at once (0666 & ~umask), and removed again
 * when the write is abandoned or fails. */
static void test_absent_created_then_dropped(void **state)
{
	struct dir d;
	struct outfile *of;
	mode_t old = umask(027);

	(void)state;
	dir_make(&d);
	of = open_ok(at(&d, "new.csv"));
	assert_true(outfile_atomic(of));
	assert_int_equal(lstat_of(at(&d, "new.csv")).st_size, 0);
	fputs("half", outfile_fp(of));
	outfile_abort(of);
	assert_int_equal(entries(d.path), 0);

	of = open_ok(at(&d, "new.csv"));
	fputs("whole\n", outfile_fp(of));
	close_ok(of);
	assert_string_equal(get(at(&d, "new.csv")), "whole\n");
	assert_int_equal(lstat_of(at(&d, "new.csv")).st_mode & 07777, 0640);
	assert_int_equal(entries(d.path), 1);
	umask(old);
	dir_remove(&d);
}

/* A symlink (into another directory) is followed and stays a link; the
 * temporary file lives next to the link's target. */
static void test_symlink_followed_and_kept(void **state)
{
	struct dir d;
	struct outfile *of;

	(void)state;
	dir_make(&d);
	assert_int_equal(mkdir(at(&d, "real"), 0755), 0);
	put(at(&d, "real/out.csv"), "old\n");
	assert_int_equal(symlink("real/out.csv", at(&d, "link.csv")), 0);
	of = open_ok(at(&d, "link.csv"));
	assert_true(outfile_atomic(of));
	assert_int_equal(entries(at(&d, "real")), 2);	/* out.csv and the temporary */
	fputs("new\n", outfile_fp(of));
	close_ok(of);
	assert_true(S_ISLNK(lstat_of(at(&d, "link.csv")).st_mode));
	assert_string_equal(get(at(&d, "real/out.csv")), "new\n");
	assert_int_equal(entries(at(&d, "real")), 1);
	assert_int_equal(entries(d.path), 2);
	dir_remove(&d);
}

/* A dangling symlink: its target is created, as `> PATH` would. */
static void test_dangling_symlink(void **state)
{
	struct dir d;
	struct outfile *of;

	(void)state;
	dir_make(&d);
	assert_int_equal(symlink("target.csv", at(&d, "link.csv")), 0);
	of = open_ok(at(&d, "link.csv"));
	fputs("new\n", outfile_fp(of));
	close_ok(of);
	assert_true(S_ISLNK(lstat_of(at(&d, "link.csv")).st_mode));
	assert_string_equal(get(at(&d, "target.csv")), "new\n");
	dir_remove(&d);
}

/* The old code wrote through "PATH.tmp": a symlink planted there must be
 * left alone, and so must the file it points to. */
static void test_planted_tmp_link_untouched(void **state)
{
	struct dir d;
	struct outfile *of;

	(void)state;
	dir_make(&d);
	put(at(&d, "victim"), "precious\n");
	assert_int_equal(symlink("victim", at(&d, "out.csv.tmp")), 0);
	of = open_ok(at(&d, "out.csv"));
	fputs("new\n", outfile_fp(of));
	close_ok(of);
	assert_string_equal(get(at(&d, "out.csv")), "new\n");
	assert_string_equal(get(at(&d, "victim")), "precious\n");
	assert_true(S_ISLNK(lstat_of(at(&d, "out.csv.tmp")).st_mode));
	assert_int_equal(entries(d.path), 3);
	dir_remove(&d);
}

/* A child reads the FIFO to its end and hands the bytes back on a pipe. */
static pid_t fifo_reader(const char *fifo, int *from_child)
{
	int p[2];
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char buf[4096];
		int fd;
		ssize_t n;

		alarm(10);	/* only if the FIFO was replaced and nobody ever opens it */
		fd = open(fifo, O_RDONLY);
		close(p[0]);
		while (fd >= 0 && (n = read(fd, buf, sizeof(buf))) > 0)
			if (write(p[1], buf, (size_t)n) != n)
				_exit(1);
		_exit(fd < 0);
	}
	close(p[1]);
	*from_child = p[0];
	return pid;
}

static void test_fifo_written_in_place(void **state)
{
	struct dir d;
	struct outfile *of;
	char buf[64] = "";
	int from_child, status;
	pid_t pid;

	(void)state;
	dir_make(&d);
	assert_int_equal(mkfifo(at(&d, "fifo"), 0600), 0);
	pid = fifo_reader(at(&d, "fifo"), &from_child);
	of = open_ok(at(&d, "fifo"));
	assert_false(outfile_atomic(of));
	fputs("through the fifo\n", outfile_fp(of));
	assert_int_equal(outfile_checkpoint(of, "never", NULL, 0), 0);
	close_ok(of);
	assert_true(read(from_child, buf, sizeof(buf) - 1) > 0);
	assert_string_equal(buf, "through the fifo\n");
	close(from_child);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
	assert_true(S_ISFIFO(lstat_of(at(&d, "fifo")).st_mode));
	assert_int_equal(entries(d.path), 1);
	dir_remove(&d);
}

/* A pipe reached through /proc/self/fd/N (what /dev/stdout is when stdout
 * is a pipe) is written in place. */
static void test_pipe_through_proc(void **state)
{
	char path[64], buf[64] = "";
	struct outfile *of;
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[1]);
	of = open_ok(path);
	assert_false(outfile_atomic(of));
	fputs("through the pipe\n", outfile_fp(of));
	close_ok(of);
	close(p[1]);
	assert_true(read(p[0], buf, sizeof(buf) - 1) > 0);
	assert_string_equal(buf, "through the pipe\n");
	close(p[0]);
}

/* A character device (a copy of /dev/full: major 1, minor 7) is written in
 * place: the error is reported, naming the path, and it stays a device. */
static void test_full_device_error(void **state)
{
	struct dir d;
	struct outfile *of;
	char err[512] = "";
	struct stat st;

	(void)state;
	dir_make(&d);
	if (mknod(at(&d, "full"), S_IFCHR | 0600, makedev(1, 7))) {
		dir_remove(&d);
		skip();
	}
	of = open_ok(at(&d, "full"));
	assert_false(outfile_atomic(of));
	fputs("lost?\n", outfile_fp(of));
	assert_int_equal(outfile_close(of, err, sizeof(err)), -1);
	assert_non_null(strstr(err, at(&d, "full")));
	assert_non_null(strstr(err, strerror(ENOSPC)));
	st = lstat_of(at(&d, "full"));
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(st.st_rdev, makedev(1, 7));
	assert_int_equal(entries(d.path), 1);
	dir_remove(&d);
}

/* The second writer of one target fails at open, naming the path, also
 * after the first one's checkpoint renamed a new inode there; once the
 * first is done, it may write. */
static void test_second_writer_fails(void **state)
{
	struct dir d;
	struct outfile *a, *b = NULL;
	char err[512] = "";

	(void)state;
	dir_make(&d);
	a = open_ok(at(&d, "out.csv"));
	assert_int_equal(outfile_open(&b, at(&d, "out.csv"), err, sizeof(err)), -1);
	assert_null(b);
	assert_non_null(strstr(err, at(&d, "out.csv")));
	assert_non_null(strstr(err, "is being written by another process"));
	fputs("a\n", outfile_fp(a));
	assert_int_equal(outfile_checkpoint(a, NULL, err, sizeof(err)), 0);
	assert_int_equal(outfile_open(&b, at(&d, "out.csv"), err, sizeof(err)), -1);
	close_ok(a);
	assert_string_equal(get(at(&d, "out.csv")), "a\n");
	b = open_ok(at(&d, "out.csv"));
	fputs("b\n", outfile_fp(b));
	close_ok(b);
	assert_string_equal(get(at(&d, "out.csv")), "b\n");
	assert_int_equal(entries(d.path), 1);
	dir_remove(&d);
}

/* A child forked while a result is being written (a sweep's worker) does
 * not keep the target locked: once the writer is done, a new writer gets
 * it even though the child is still alive (the SIGKILLed sweep whose
 * workers are still exiting). */
static void test_forked_child_keeps_no_lock(void **state)
{
	struct dir d;
	struct outfile *a, *b = NULL;
	char err[512] = "";
	int go[2], ready[2], st;
	char rc;
	pid_t pid;

	(void)state;
	dir_make(&d);
	a = open_ok(at(&d, "out.csv"));	/* an existing target, so abort keeps its inode */
	fputs("old\n", outfile_fp(a));
	close_ok(a);
	a = open_ok(at(&d, "out.csv"));
	fputs("a\n", outfile_fp(a));
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(ready), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {   /* fork() returns here after the atfork handlers ran */
		char c = 'r';

		close(go[1]);
		if (write(ready[1], &c, 1) != 1)
			_exit(2);
		_exit(read(go[0], &c, 1) == 0 ? 0 : 1);   /* wait for the parent */
	}
	close(go[0]);
	close(ready[1]);
	assert_int_equal(read(ready[0], &rc, 1), 1);   /* the child is running */
	close(ready[0]);
	outfile_abort(a);
	assert_int_equal(outfile_open(&b, at(&d, "out.csv"), err, sizeof(err)), 0);
	close(go[1]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	fputs("b\n", outfile_fp(b));
	close_ok(b);
	assert_string_equal(get(at(&d, "out.csv")), "b\n");
	dir_remove(&d);
}

/* A writer in another process: the message names its pid. */
static void test_second_writer_names_pid(void **state)
{
	struct dir d;
	struct outfile *a, *b = NULL;
	char err[512] = "", want[64];
	int go[2], done[2];
	pid_t pid;

	(void)state;
	dir_make(&d);
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(done), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char c;

		/* the parent's ends closed: its exit (a failed assertion) ends the wait */
		close(go[0]), close(done[1]);
		if (outfile_open(&a, at(&d, "out.csv"), NULL, 0) || write(go[1], "x", 1) != 1 ||
		    read(done[0], &c, 1) != 1)
			_exit(1);
		outfile_abort(a);
		_exit(0);
	}
	close(go[1]), close(done[0]);
	assert_int_equal(read(go[0], want, 1), 1);	/* the child holds the lock */
	assert_int_equal(outfile_open(&b, at(&d, "out.csv"), err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "(pid %ld)", (long)pid);
	if (!strstr(err, want))
		fail_msg("'%s' does not name %s", err, want);
	assert_int_equal(write(done[1], "x", 1), 1);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	assert_int_equal(entries(d.path), 0);
	close(go[0]), close(done[1]);
	dir_remove(&d);
}

/* A checkpoint makes the bytes so far plus the trailer the target's
 * content; the stream goes on without the trailer. */
static void test_checkpoint_with_trailer(void **state)
{
	struct dir d;
	struct outfile *of;
	char err[512] = "";

	(void)state;
	dir_make(&d);
	put(at(&d, "out.json"), "old\n");
	of = open_ok(at(&d, "out.json"));
	fputs("[\n{\"a\": 1}", outfile_fp(of));
	assert_int_equal(outfile_checkpoint(of, "\n]\n", err, sizeof(err)), 0);
	assert_string_equal(get(at(&d, "out.json")), "[\n{\"a\": 1}\n]\n");
	fputs(",\n{\"a\": 2}", outfile_fp(of));
	assert_int_equal(outfile_checkpoint(of, "\n]\n", err, sizeof(err)), 0);
	assert_string_equal(get(at(&d, "out.json")), "[\n{\"a\": 1},\n{\"a\": 2}\n]\n");
	assert_int_equal(entries(d.path), 2);	/* out.json and the temporary */
	fputs("\n]\n", outfile_fp(of));
	close_ok(of);
	assert_string_equal(get(at(&d, "out.json")), "[\n{\"a\": 1},\n{\"a\": 2}\n]\n");
	assert_int_equal(entries(d.path), 1);

	/* abandoned after a checkpoint: the checkpoint stays, nothing else */
	of = open_ok(at(&d, "new.json"));
	fputs("[1", outfile_fp(of));
	assert_int_equal(outfile_checkpoint(of, "]\n", err, sizeof(err)), 0);
	fputs(",2", outfile_fp(of));
	outfile_abort(of);
	assert_string_equal(get(at(&d, "new.json")), "[1]\n");
	assert_int_equal(entries(d.path), 2);
	dir_remove(&d);
}

static void test_abort_keeps_target(void **state)
{
	struct dir d;
	struct outfile *of;

	(void)state;
	dir_make(&d);
	put(at(&d, "out.csv"), "old\n");
	of = open_ok(at(&d, "out.csv"));
	fputs("new\n", outfile_fp(of));
	outfile_abort(of);
	assert_string_equal(get(at(&d, "out.csv")), "old\n");
	assert_int_equal(entries(d.path), 1);
	dir_remove(&d);
}

/* A directory, a missing directory: errors naming the path, nothing made. */
static void test_open_errors(void **state)
{
	struct dir d;
	struct outfile *of = NULL;
	char err[512] = "";

	(void)state;
	dir_make(&d);
	assert_int_equal(mkdir(at(&d, "sub"), 0755), 0);
	assert_int_equal(outfile_open(&of, at(&d, "sub"), err, sizeof(err)), -1);
	assert_null(of);
	assert_non_null(strstr(err, at(&d, "sub")));
	assert_non_null(strstr(err, strerror(EISDIR)));
	assert_int_equal(outfile_open(&of, at(&d, "missing/out.csv"), err, sizeof(err)), -1);
	assert_non_null(strstr(err, at(&d, "missing/out.csv")));
	assert_non_null(strstr(err, strerror(ENOENT)));
	assert_int_equal(outfile_open(&of, at(&d, "missing/out.csv"), NULL, 0), -1);
	assert_int_equal(entries(at(&d, "sub")), 0);
	assert_int_equal(entries(d.path), 1);
	dir_remove(&d);
}

/* "-" is standard output, never atomic, never closed. */
static void test_dash_is_stdout(void **state)
{
	struct outfile *of = open_ok("-");

	(void)state;
	assert_false(outfile_atomic(of));
	assert_ptr_equal(outfile_fp(of), stdout);
	close_ok(of);
	assert_int_equal(fflush(stdout), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regular_replaced_atomically),
		cmocka_unit_test(test_owner_kept),
		cmocka_unit_test(test_absent_created_then_dropped),
		cmocka_unit_test(test_symlink_followed_and_kept),
		cmocka_unit_test(test_dangling_symlink),
		cmocka_unit_test(test_planted_tmp_link_untouched),
		cmocka_unit_test(test_fifo_written_in_place),
		cmocka_unit_test(test_pipe_through_proc),
		cmocka_unit_test(test_full_device_error),
		cmocka_unit_test(test_second_writer_fails),
		cmocka_unit_test(test_second_writer_names_pid),
		cmocka_unit_test(test_checkpoint_with_trailer),
		cmocka_unit_test(test_abort_keeps_target),
		cmocka_unit_test(test_forked_child_keeps_no_lock),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_dash_is_stdout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
