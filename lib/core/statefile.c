// SPDX-License-Identifier: Apache-2.0
/* statefile - --state FILE documents (see statefile.h) */
#include "core/statefile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/atomicfile.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/jsonio.h"
#include "core/xalloc.h"

/* "line:col" of a jsonio message about path ("<path>:<line>:<col>: ..."),
 * or "" when it has none: the position, never the text it quotes. */
static void position(const char *msg, const char *path, char *out, size_t len)
{
	size_t pl = strlen(path);
	long line = 0, col = 0;

	out[0] = '\0';
	if (strncmp(msg, path, pl) == 0 && msg[pl] == ':' &&
	    sscanf(msg + pl + 1, "%ld:%ld", &line, &col) == 2)
		snprintf(out, len, " at line %ld, column %ld", line, col);
}

int statefile_load(const char *path, const char *kind, json_t **doc, struct err *e)
{
	cleanup_fclose FILE *f = NULL;
	cleanup_free char *real = NULL, *b = NULL;
	cleanup_close int dfd = -1;
	struct err de = { 0 };
	json_t *got = NULL;
	const char *api;
	struct stat st, lst;
	char where[64];
	int fd;

	*doc = NULL;
	/* a symlink another user planted is not read through (what it leads
	 * to, /etc/shadow, would be parsed); the file is opened O_NOFOLLOW
	 * through one fd of its directory, so nothing can be swapped in */
	real = atomicfile_target(path);
	if (!real)
		return err_set(e, ERR_SYSTEM, errno, "follow state '%s'", path);
	if (lstat(real, &lst) == 0 && S_ISLNK(lst.st_mode))
		return err_set(e, ERR_INPUT, 0,
			       "state '%s': a symlink another user may have planted: not followed",
			       path);
	dfd = atomicfile_open_dir(real, &de);
	if (dfd < 0 && de.kind == ERR_INPUT) /* a symlinked dir of another user */
		return err_set(e, ERR_INPUT, 0,
			       "state '%s': a symlink another user may have planted: not followed",
			       path);
	if (dfd < 0) {
		if (de.kind == ERR_SYSTEM && de.errnum == ENOENT)
			return 0; /* no dir yet: a first run (the save says what is wrong) */
		if (e)
			*e = de;
		return -1;
	}
	b = xstrdup(real);
	/* O_NONBLOCK: a FIFO given by mistake must not hang the tool. */
	fd = openat(dfd, basename(b), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		return err_set(e, ERR_SYSTEM, errno, "open state '%s'", path);
	}
	if (fstat(fd, &st) < 0) {
		int errnum = errno;

		close(fd);
		return err_set(e, ERR_SYSTEM, errnum, "stat state '%s'", path);
	}
	/* a file another user made is theirs to write: its cool-downs and
	 * cache entries are not trusted (they could hold off an eviction) */
	if (S_ISREG(st.st_mode) && st.st_uid != geteuid()) {
		close(fd);
		return err_set(e, ERR_INPUT, 0,
			       "state '%s' is owned by uid %ld, not by this user: not trusted",
			       path, (long)st.st_uid);
	}
	if (!S_ISREG(st.st_mode) || st.st_size > STATEFILE_MAX_BYTES) {
		close(fd);
		return err_set(e, ERR_INPUT, 0, "state '%s': %s", path,
			       S_ISREG(st.st_mode) ? "larger than 8 MiB" : "not a regular file");
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return err_set(e, ERR_SYSTEM, errno, "open state '%s'", path);
	}
	/* messages name the position only: the file may hold what it should not */
	if (jsonio_collect(f, path, &kind, 1, &got, NULL, e) < 0) {
		position(e->msg, path, where, sizeof(where));
		return err_set(e, ERR_INPUT, 0, "state '%s': not a readable %s document%s", path,
			       kind, where);
	}
	if (!got)
		return err_set(e, ERR_INPUT, 0, "state '%s': no %s document", path, kind);
	api = json_string_value(json_object_get(got, "apiVersion"));
	if (!api || strcmp(api, KILO_API_VERSION) != 0) {
		json_decref(got);
		return err_set(e, ERR_INPUT, 0, "state '%s': apiVersion is not '%s'", path,
			       KILO_API_VERSION);
	}
	*doc = got;
	return 1;
}

/* 1 when the file at fd holds zeros and nothing else (a swap file or a
 * file system image begins with zeros too, but has more after them). */
static int all_zeros(int fd)
{
	char buf[4096];
	off_t off = 0;
	ssize_t n;

	while ((n = pread(fd, buf, sizeof(buf), off)) > 0) {
		for (ssize_t i = 0; i < n; i++)
			if (buf[i])
				return 0;
		off += n;
	}
	return n == 0 && off > 0;
}

/* 1 when the file at fd may be replaced by a state of kind (arg): empty,
 * or the start of one as statefile_save() writes it (a run cut short, a
 * crash: a prefix of '{"apiVersion":"kilo/v1","kind":"<kind>"'), zeros (a
 * crash's unwritten blocks), or any JSON document of that apiVersion and
 * kind (one reformatted by hand). */
struct replace_rule {
	const char *kind;
	int shared; /* the dir is sticky and others may write it */
};

static int is_state(int fd, void *arg)
{
	const struct replace_rule *rule = arg;
	const char *kind = rule->kind;
	cleanup_free char *head =
		xasprintf("{\"apiVersion\":\"%s\",\"kind\":\"%s\"", KILO_API_VERSION, kind);
	char got[128];
	ssize_t n = pread(fd, got, sizeof(got), 0);
	const char *api, *got_kind;
	json_t *doc;
	struct stat st;
	int ok;

	if (n < 0 || fstat(fd, &st) < 0)
		return 0;
	/* another user's file at our name in a shared sticky dir (/tmp): a
	 * squatter's, replaced (kept, it would turn the cool-downs off for good) */
	if (rule->shared && st.st_uid != geteuid())
		return 1;
	if (memcmp(got, head, (size_t)n < strlen(head) ? (size_t)n : strlen(head)) == 0)
		return 1; /* n == 0 too: empty */
	if (st.st_size > STATEFILE_MAX_BYTES)
		return 0;
	if (all_zeros(fd))
		return 1; /* zeros only, the whole file: blocks a crash left unwritten */
	doc = json_loadfd(fd, 0, NULL);
	api = json_string_value(json_object_get(doc, "apiVersion"));
	got_kind = json_string_value(json_object_get(doc, "kind"));
	ok = api && got_kind && strcmp(api, KILO_API_VERSION) == 0 && strcmp(got_kind, kind) == 0;
	json_decref(doc);
	return ok;
}

int statefile_save(const char *path, const json_t *doc, struct err *e)
{
	cleanup_free char *text = json_dumps(doc, JSON_COMPACT);
	cleanup_free char *line = NULL;
	const char *kind = json_string_value(json_object_get(doc, "kind"));
	cleanup_free char *what = NULL, *real = atomicfile_target(path), *b = NULL;
	struct replace_rule rule = { kind, 0 };
	struct stat dst;

	if (!text || !kind)
		return err_set(e, ERR_SYSTEM, text ? EINVAL : ENOMEM, "encode state '%s'", path);
	line = xasprintf("%s\n", text);
	what = xasprintf("a kilo state file of kind %s (another tool's state, or no state)", kind);
	if (real && (b = xstrdup(real)) && stat(dirname(b), &dst) == 0)
		rule.shared = (dst.st_mode & S_ISVTX) && (dst.st_mode & S_IWOTH);
	if (atomicfile_replace(path, line, strlen(line), 0600, is_state, &rule, what, e) < 0) {
		if (e && e->errnum == 0) /* not a regular file, not ours: atomicfile says so */
			return err_wrap(e, "write state");
		return err_set(e, ERR_SYSTEM, e ? e->errnum : 0, "write state '%s'", path);
	}
	return 0;
}

/* 1 when no other user can remove or rename entries of the dir st is
 * of: it is the caller's or root's, and others may not write it unless it
 * is sticky (then each removes only their own: /tmp). */
static int dir_trusted(const struct stat *st)
{
	return (st->st_uid == geteuid() || st->st_uid == 0) &&
	       (!(st->st_mode & (S_IWGRP | S_IWOTH)) || (st->st_mode & S_ISVTX));
}

/* 0 when the dir dfd and every dir above it (by "..", as the kernel
 * resolves it) pass dir_trusted(); else the level of the first that does
 * not (1 the dir itself), its stat in *st.  A dir above that another user
 * may write lets them rename the whole tree aside and put an old one back. */
static int untrusted_above(int dfd, struct stat *st)
{
	int cur = dup(dfd);

	for (int level = 1; cur >= 0 && level <= 64; level++) {
		struct stat up;
		int parent;

		if (fstat(cur, st) < 0)
			break;
		if (!dir_trusted(st)) {
			close(cur);
			return level;
		}
		parent = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (parent < 0 || fstat(parent, &up) < 0 ||
		    (up.st_ino == st->st_ino && up.st_dev == st->st_dev)) { /* the root */
			if (parent >= 0)
				close(parent);
			break;
		}
		close(cur);
		cur = parent;
	}
	if (cur >= 0)
		close(cur);
	return 0;
}

int statefile_lock(const char *path, int64_t wait_ms, struct err *e)
{
	cleanup_free char *lock = xasprintf("%s.lock", path), *lb = xstrdup(lock);
	const char *base = basename(lb);
	int64_t until = clock_mono_ms() + wait_ms;
	cleanup_close int dfd = -1;
	struct stat st;
	int fd, up;

	/* never through a symlink, and only a file of ours: another user's
	 * lock file (they could hold it for ever) is replaced by one of ours */
	/* every name below is taken in one fd of the dir: nothing swapped in */
	if ((dfd = atomicfile_open_dir(lock, e)) < 0) {
		if (e && e->kind == ERR_SYSTEM && e->errnum == ENOENT)
			return err_set(e, ERR_SYSTEM, ENOENT,
				       "state '%s': its dir does not exist (make it, root's, mode "
				       "0755, or give another --state)",
				       path);
		return err_wrap(e, "lock '%s'", lock);
	}
	/* a dir another user may remove or rename our files in: the lock
	 * deleted under a holder lets a second run in, a state renamed aside
	 * and put back later replays old cool-downs */
	if ((up = untrusted_above(dfd, &st)) != 0)
		return err_set(e, ERR_INPUT, 0,
			       "the dir of state '%s'%s %s: another user could remove or swap its "
			       "files; not used",
			       path, up > 1 ? " (or a dir above it)" : "",
			       st.st_uid != geteuid() && st.st_uid != 0
				       ? "is owned by another user"
				       : "is writable by others and not sticky");
	fd = openat(dfd, base, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EISDIR && unlinkat(dfd, base, AT_REMOVEDIR) == 0) /* an empty dir */
		fd = openat(dfd, base, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	/* another user's file, or a hard link to one (fs.protected_hardlinks=0):
	 * they could hold the lock for ever */
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
			st.st_nlink != 1)) {
		struct stat now;

		close(fd);
		fd = -1;
		/* the name may be another run's fresh lock by now (it replaced the
		 * same file a moment ago): removed only while it is the file seen */
		if (fstatat(dfd, base, &now, AT_SYMLINK_NOFOLLOW) == 0 && now.st_ino == st.st_ino &&
		    now.st_dev == st.st_dev && !S_ISDIR(now.st_mode))
			unlinkat(dfd, base, 0);
		fd = openat(dfd, base, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 && (fstat(fd, &st) < 0 || st.st_uid != geteuid() || st.st_nlink != 1)) {
			close(fd);
			fd = -1;
		}
		if (fd < 0)
			return err_set(e, ERR_INPUT, 0,
				       "lock '%s': not a regular file of this user, and not "
				       "replaced: remove it",
				       lock);
	}
	/* a symlink (ELOOP), or another user's entry in a sticky dir the kernel
	 * will not let us open (EACCES: fs.protected_regular, protected_fifos,
	 * symlinks there): replaced, never followed */
	if (fd < 0 && (errno == ELOOP || errno == EACCES) &&
	    fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode) &&
	    (S_ISLNK(st.st_mode) || st.st_uid != geteuid()) && unlinkat(dfd, base, 0) == 0)
		fd = openat(dfd, base, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return err_set(e, ERR_SYSTEM, errno, "open lock '%s'", lock);
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int errnum = errno;

		if (errnum != EWOULDBLOCK && errnum != EINTR) {
			close(fd);
			return err_set(e, ERR_SYSTEM, errnum, "lock '%s'", lock);
		}
		if (clock_mono_ms() >= until) {
			close(fd);
			return err_set(e, ERR_TEMP, 0,
				       "state '%s' is in use by another run (lock '%s' held for "
				       "%lld ms)",
				       path, lock, (long long)wait_ms);
		}
		clock_sleep_ms(20);
	}
	return fd;
}
