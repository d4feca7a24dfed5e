/* outfile.c - writing a file the user named (see outfile.h).
 *
 * Roadmap: open the target as the shell would (the kernel follows links and
 * applies fs.protected_* as for `> PATH`); a non-regular file is written
 * through that descriptor.  A regular one is locked (flock on the
 * descriptor), then located: realpath() gives its directory and name, and the
 * name is checked to still be the inode we locked (else try again: another
 * writer renamed over it).  From then on every name is used relative to that
 * directory's descriptor: the temporary files are created there with O_EXCL
 * and O_NOFOLLOW, each locked before it is renamed over the target, so the
 * inode the target names is always one we hold locked.
 *
 * Turned down: writing a regular file in place (a failed run would leave
 * half a file); "PATH.tmp" (plantable, and two writers share it);
 * fcntl() record locks (released by any close() of the file in the process,
 * and not inherited by the sweep's forked workers).
 */
#define _GNU_SOURCE	/* O_PATH, flock(), realpath(), getrandom() */
#include "io/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#ifndef O_PATH
#define O_PATH O_RDONLY
#endif

enum outfile_mode {
	OUTFILE_STDOUT,     /* "-": stdout, flushed, never closed */
	OUTFILE_IN_PLACE,   /* a FIFO, device, pipe or tty: written through its fd */
	OUTFILE_ATOMIC,     /* absent or regular: a temporary file renamed over it */
};

/* Invariant (atomic mode): @held is an open, flock()ed descriptor of the
 * inode that @base names in @dirfd, unless another program replaced it;
 * @tmp names a file in @dirfd that only we know, opened as @fp and as
 * @tmp_fd (which holds its lock and is the copy source of a checkpoint). */
struct outfile {
	enum outfile_mode mode;
	FILE *fp;
	char *path;           /* as given, for messages */
	int dirfd;            /* the target's directory (O_PATH), or -1 */
	char *base;           /* the target's name in @dirfd */
	char tmp[NAME_MAX + 1];
	int tmp_fd, held;     /* -1 when not open */
	bool created;         /* outfile_open() created the (empty) target */
	bool replaced;        /* a checkpoint renamed a file over it since */
	struct stat st;       /* the target at open: identity, mode, owner */
	struct outfile *next_open;   /* the process's open outfiles (fork_child) */
};

/* ---- fork -------------------------------------------------------------------
 *
 * A forked child (a sweep's worker, gnuplot) would share our descriptors
 * and so our flock(): a worker still exiting after its parent was killed
 * would keep the target locked, and the next `--resume FILE --out FILE`
 * would be refused as "being written by another process".  So a child
 * closes its copies of every open outfile's descriptors at fork
 * (pthread_atfork; the parent's locks stay, as they belong to the parent's
 * copies too), and anything it still writes or flushes to them is dropped. */
static struct outfile *open_list;

static void fork_child(void)
{
	for (struct outfile *of = open_list; of; of = of->next_open) {
		if (of->fp && of->fp != stdout)
			close(fileno(of->fp));
		if (of->tmp_fd >= 0)
			close(of->tmp_fd);
		if (of->held >= 0)
			close(of->held);
		if (of->dirfd >= 0)
			close(of->dirfd);
	}
	open_list = NULL;
}

static void fork_hook(void)
{
	(void)pthread_atfork(NULL, NULL, fork_child);
}

static void track(struct outfile *of)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, fork_hook);
	of->next_open = open_list;
	open_list = of;
}

static void untrack(struct outfile *of)
{
	for (struct outfile **p = &open_list; *p; p = &(*p)->next_open)
		if (*p == of) {
			*p = of->next_open;
			return;
		}
}

/* Retries when the target is renamed between open and lock (another writer
 * finishing): each retry means some other writer made progress. */
#define OUTFILE_TRIES 16
#define COPY_CHUNK 65536

static int say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static bool same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* ---- the other writer ---------------------------------------------------- */

/* The pid holding an flock() on @st's inode, from /proc/locks
 * ("1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF", device numbers in
 * hex; fs/locks.c lock_get_status()), or 0 when unknown. */
static long lock_holder(const struct stat *st)
{
	FILE *f = fopen("/proc/locks", "re");
	char line[256], type[16];
	unsigned maj, min;
	unsigned long long ino;
	long pid, found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (!strstr(line, "->") &&
		    sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%llu", type, &pid, &maj, &min,
			   &ino) == 5 && !strcmp(type, "FLOCK") && maj == major(st->st_dev) &&
		    min == minor(st->st_dev) && ino == (unsigned long long)st->st_ino &&
		    pid != (long)getpid())
			found = pid;
	fclose(f);
	return found;
}

static int busy(const char *path, const struct stat *st, char *err, size_t errlen)
{
	long pid = lock_holder(st);
	char who[32] = "";

	if (pid > 0)
		snprintf(who, sizeof(who), " (pid %ld)", pid);
	return say(err, errlen, "%s is being written by another process%s", path, who);
}

/* ---- opening the target -------------------------------------------------- */

/* Open @path as `> PATH` would, without truncating: fd, or -errno.  An
 * absent file is created (*@created); O_EXCL fails on any existing name,
 * a dangling symlink included, which the second open then follows. */
static int open_target(const char *path, bool *created)
{
	int flags = O_WRONLY | O_CREAT | O_NOCTTY | O_CLOEXEC;
	int fd = open(path, flags | O_EXCL, 0666);

	*created = fd >= 0;
	if (fd < 0 && errno == EEXIST)
		fd = open(path, flags, 0666);
	return fd >= 0 ? fd : -errno;
}

/* Find the directory and name of the regular file @path that @fd (locked)
 * has open: 0; 1 when @path no longer names that inode (try again); or
 * -errno. */
static int locate(struct outfile *of, const char *path)
{
	char *real = realpath(path, NULL), *slash;
	struct stat now;
	int rc = 0;

	if (!real)
		return errno == ENOENT ? 1 : -errno;
	slash = strrchr(real, '/');
	*slash = '\0';
	of->dirfd = open(slash == real ? "/" : real, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (of->dirfd < 0)
		rc = -errno;
	else if (fstatat(of->dirfd, slash + 1, &now, AT_SYMLINK_NOFOLLOW) ||
		 !same_inode(&now, &of->st))
		rc = 1;
	if (rc == 0)
		of->base = strdup(slash + 1);
	if (rc == 0 && !of->base)
		rc = -ENOMEM;
	if (rc)
		close_fd(&of->dirfd);
	free(real);
	return rc;
}

/* One try at opening an atomic target: 0, 1 (renamed meanwhile: try again)
 * or -1 with a message. */
static int open_regular(struct outfile *of, char *err, size_t errlen)
{
	int rc;

	if (flock(of->held, LOCK_EX | LOCK_NB))
		return errno == EWOULDBLOCK ? busy(of->path, &of->st, err, errlen)
		       : say(err, errlen, "cannot lock %s: %s", of->path, strerror(errno));
	rc = locate(of, of->path);
	if (rc < 0)
		return say(err, errlen, "cannot write %s: %s", of->path, strerror(-rc));
	return rc;
}

static struct outfile *outfile_new(const char *path)
{
	struct outfile *of = calloc(1, sizeof(*of));

	if (!of || !(of->path = strdup(path))) {
		free(of);
		return NULL;
	}
	of->dirfd = of->tmp_fd = of->held = -1;
	return of;
}

static void outfile_free(struct outfile *of)
{
	untrack(of);
	if (of->fp && of->fp != stdout)
		fclose(of->fp);
	close_fd(&of->tmp_fd);
	close_fd(&of->held);
	close_fd(&of->dirfd);
	free(of->base);
	free(of->path);
	free(of);
}

/* ---- temporary files ----------------------------------------------------- */

/* @n unpredictable characters: getrandom(), or the clock and the pid when
 * the kernel has none to give (O_EXCL keeps even a guessed name safe). */
static void random_name(char *s, size_t n)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned counter;
	unsigned char r[32];
	struct timespec ts;

	if (n > sizeof(r) || getrandom(r, n, GRND_NONBLOCK) != (ssize_t)n) {
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32) ^ ++counter;
		for (size_t i = 0; i < sizeof(r); i++, x = x * 6364136223846793005ull + 1442695040888963407ull)
			r[i] = (unsigned char)(x >> 56);
	}
	for (size_t i = 0; i < n; i++)
		s[i] = set[r[i] % (sizeof(set) - 1)];
	s[n] = '\0';
}

/* Give the new file @fd the target's permission bits and, as root, its
 * owner (chown first: it clears set-id bits, which we never copy). */
static void copy_owner_mode(int fd, const struct stat *st)
{
	int rc = geteuid() == 0 ? fchown(fd, st->st_uid, st->st_gid) : 0;

	rc |= fchmod(fd, st->st_mode & 0777);
	(void)rc;	/* a failure keeps ours: the content matters more than the mode */
}

/* Create "BASE.XXXXXXXXXX.tmp" in the target's directory, exclusively and
 * never through a link, with the target's mode, locked: fd (O_RDWR), or -1
 * with a message. */
static int make_temp(struct outfile *of, char name[NAME_MAX + 1], char *err, size_t errlen)
{
	int fd = -1;
	char rnd[11];

	for (int i = 0; i < 100 && fd < 0; i++) {
		random_name(rnd, 10);
		snprintf(name, NAME_MAX + 1, "%.*s.%s.tmp", NAME_MAX - 15, of->base, rnd);
		fd = openat(of->dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0)
		return say(err, errlen, "cannot create a temporary file next to %s: %s", of->path,
			   strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno;

		close(fd);
		unlinkat(of->dirfd, name, 0);
		return say(err, errlen, "cannot lock a temporary file next to %s: %s", of->path,
			   strerror(e));
	}
	copy_owner_mode(fd, &of->st);
	return fd;
}

/* fsync @fd and rename @name over the target; @fd (locked) becomes the
 * held descriptor.  0, or an errno (then @fd is still ours to close). */
static int commit(struct outfile *of, int fd, const char *name)
{
	if (fsync(fd))
		return errno;
	if (renameat(of->dirfd, name, of->dirfd, of->base))
		return errno;
	close_fd(&of->held);
	of->held = fd;
	return 0;
}

/* Best effort: make the rename durable (some file systems refuse fsync()
 * of a directory; the file's own data was fsynced already). */
static void sync_dir(struct outfile *of)
{
	int fd = openat(of->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* Undo outfile_open()'s creation of an empty target, if that inode is still
 * there and still empty (a checkpoint or another program may have filled it). */
static void drop_created(struct outfile *of)
{
	struct stat now;

	if (of->created && !of->replaced && of->dirfd >= 0 &&
	    !fstatat(of->dirfd, of->base, &now, AT_SYMLINK_NOFOLLOW) &&
	    same_inode(&now, &of->st) && now.st_size == 0)
		unlinkat(of->dirfd, of->base, 0);
}

/* ---- the API --------------------------------------------------------------- */

static int open_in_place(struct outfile *of, char *err, size_t errlen)
{
	of->mode = OUTFILE_IN_PLACE;
	of->fp = fdopen(of->held, "w");
	if (!of->fp)
		return say(err, errlen, "cannot write %s: %s", of->path, strerror(errno));
	of->held = -1;
	return 0;
}

static int open_atomic(struct outfile *of, char *err, size_t errlen)
{
	int fd;

	of->mode = OUTFILE_ATOMIC;
	of->tmp_fd = make_temp(of, of->tmp, err, errlen);
	if (of->tmp_fd < 0)
		return -1;
	fd = dup(of->tmp_fd);
	if (fd >= 0 && !(of->fp = fdopen(fd, "w")))
		close(fd);
	if (!of->fp) {
		unlinkat(of->dirfd, of->tmp, 0);
		return say(err, errlen, "cannot write %s: %s", of->path, strerror(errno));
	}
	return 0;
}

/* Open, lock and locate a file target; 0 or -1 with a message. */
static int open_file(struct outfile *of, char *err, size_t errlen)
{
	int rc = 1;

	for (int i = 0; i < OUTFILE_TRIES && rc == 1; i++) {
		close_fd(&of->held);
		of->held = open_target(of->path, &of->created);
		if (of->held < 0)
			return say(err, errlen, "cannot write %s: %s", of->path, strerror(-of->held));
		if (fstat(of->held, &of->st))
			return say(err, errlen, "cannot write %s: %s", of->path, strerror(errno));
		if (!S_ISREG(of->st.st_mode))
			return open_in_place(of, err, errlen);
		rc = open_regular(of, err, errlen);
	}
	if (rc == 1)
		return say(err, errlen, "cannot write %s: it was replaced or removed %d times while "
			   "being opened", of->path, OUTFILE_TRIES);
	if (rc == 0 && open_atomic(of, err, errlen))
		rc = -1;
	if (rc)
		drop_created(of);
	return rc;
}

int outfile_open(struct outfile **ofp, const char *path, char *err, size_t errlen)
{
	struct outfile *of = outfile_new(path);

	*ofp = NULL;
	if (!of)
		return say(err, errlen, "cannot write %s: %s", path, strerror(ENOMEM));
	if (!strcmp(path, "-")) {
		of->mode = OUTFILE_STDOUT;
		of->fp = stdout;
	} else if (open_file(of, err, errlen)) {
		outfile_free(of);
		return -1;
	}
	track(of);
	*ofp = of;
	return 0;
}

FILE *outfile_fp(struct outfile *of)
{
	return of->fp;
}

bool outfile_atomic(const struct outfile *of)
{
	return of->mode == OUTFILE_ATOMIC;
}

const char *outfile_path(const struct outfile *of)
{
	return of->path;
}

/* @of's target as messages name it. */
static const char *shown(const struct outfile *of)
{
	return of->mode == OUTFILE_STDOUT ? "standard output" : of->path;
}

/* fflush @f and check its error flag: 0 or an errno.  stdio keeps no errno
 * of a write that failed earlier (fputs() of a long string writes past the
 * buffer); a write of 0 bytes to the descriptor gives it back for a device
 * or a bad descriptor, else EIO stands for "unknown". */
static int stream_error(FILE *f)
{
	errno = 0;
	if (fflush(f) == 0 && !ferror(f))
		return 0;
	if (errno == 0 && write(fileno(f), "", 0) == 0)
		errno = EIO;
	return errno ? errno : EIO;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Copy the temporary file (all of it: the stream was flushed) to @fd. */
static int copy_so_far(struct outfile *of, int fd)
{
	char *buf = malloc(COPY_CHUNK);
	off_t off = 0;
	ssize_t n;
	int e = 0;

	if (!buf)
		return ENOMEM;
	while (!e && (n = pread(of->tmp_fd, buf, COPY_CHUNK, off)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		e = n < 0 ? errno : write_all(fd, buf, (size_t)n);
		off += n > 0 ? n : 0;
	}
	free(buf);
	return e;
}

int outfile_checkpoint(struct outfile *of, const char *trailer, char *err, size_t errlen)
{
	char name[NAME_MAX + 1];
	int e = stream_error(of->fp), fd;

	if (e || of->mode != OUTFILE_ATOMIC)
		return e ? say(err, errlen, "cannot write %s: %s", shown(of), strerror(e)) : 0;
	if ((fd = make_temp(of, name, err, errlen)) < 0)
		return -1;
	e = copy_so_far(of, fd);
	if (!e && trailer)
		e = write_all(fd, trailer, strlen(trailer));
	if (!e)
		e = commit(of, fd, name);
	if (e) {
		close(fd);
		unlinkat(of->dirfd, name, 0);
		return say(err, errlen, "cannot write %s: %s", of->path, strerror(e));
	}
	of->replaced = true;
	return 0;
}

static int close_atomic(struct outfile *of)
{
	int e = stream_error(of->fp);

	if (!e && fsync(fileno(of->fp)))
		e = errno;
	if (fclose(of->fp) && !e)
		e = errno ? errno : EIO;
	of->fp = NULL;
	if (!e && renameat(of->dirfd, of->tmp, of->dirfd, of->base))
		e = errno;
	if (e) {
		unlinkat(of->dirfd, of->tmp, 0);
		drop_created(of);
	} else {
		sync_dir(of);
	}
	return e;
}

int outfile_close(struct outfile *of, char *err, size_t errlen)
{
	int e = 0;

	if (of->mode == OUTFILE_ATOMIC) {
		e = close_atomic(of);
	} else if (of->mode == OUTFILE_STDOUT) {
		e = outfile_stdout_error();
	} else {
		e = stream_error(of->fp);
		if (fclose(of->fp) && !e)
			e = errno ? errno : EIO;
		of->fp = NULL;
	}
	if (e)
		say(err, errlen, "cannot write %s: %s", shown(of), strerror(e));
	outfile_free(of);
	return e ? -1 : 0;
}

void outfile_abort(struct outfile *of)
{
	if (!of)
		return;
	if (of->mode == OUTFILE_ATOMIC) {
		fclose(of->fp);
		of->fp = NULL;
		unlinkat(of->dirfd, of->tmp, 0);
		drop_created(of);
	} else if (of->mode == OUTFILE_STDOUT) {
		fflush(stdout);
	}
	outfile_free(of);
}

int outfile_stdout_error(void)
{
	int e = stream_error(stdout);

	clearerr(stdout);
	return e;
}
