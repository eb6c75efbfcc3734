// SPDX-License-Identifier: Apache-2.0
/* atomicfile - replace a file atomically (see atomicfile.h) */
#include "core/atomicfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/xalloc.h"

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int atomicfile_link_trusted(const struct stat *link)
{
	return link->st_uid == geteuid() || link->st_uid == 0;
}

char *atomicfile_target(const char *path)
{
	char *cur = xstrdup(path);

	for (int hops = 0; hops < 16; hops++) {
		char link[4096], *next, *d;
		struct stat st;
		ssize_t n;

		if (lstat(cur, &st) < 0 || !S_ISLNK(st.st_mode))
			return cur; /* missing (made by the write) or not a link: here */
		if (!atomicfile_link_trusted(&st))
			return cur; /* planted by another user: replaced, not followed */
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0)
			break;
		link[n] = '\0';
		d = xstrdup(cur);
		next = link[0] == '/' ? xstrdup(link) : xasprintf("%s/%s", dirname(d), link);
		free(d);
		free(cur);
		cur = next;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

/* The dir at path, relative to at (absolute when path starts with '/'),
 * one component at a time with O_NOFOLLOW: a symlink on the way is
 * followed only when atomicfile_link_trusted() says so, through the fd the
 * walk holds, so a component swapped meanwhile cannot lead elsewhere.  An
 * O_PATH fd, or -1 with e set. */
static int walk_dir(int at, const char *path, int depth, const char *whole, struct err *e)
{
	cleanup_free char *copy = xstrdup(path);
	char *save = NULL;
	int fd = openat(at, path[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);

	for (char *c = strtok_r(copy, "/", &save); fd >= 0 && c; c = strtok_r(NULL, "/", &save)) {
		int sub = openat(fd, c, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;

		if (sub < 0 && (errno == ENOTDIR || errno == ELOOP) &&
		    fstatat(fd, c, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
			char link[4096];
			ssize_t n;

			if (!atomicfile_link_trusted(&st) || depth >= 16) {
				close(fd);
				return err_set(
					e, ERR_INPUT, 0,
					"'%s': a directory on the path is a symlink of another "
					"user: not followed",
					whole);
			}
			n = readlinkat(fd, c, link, sizeof(link) - 1);
			if (n < 0) {
				close(fd);
				return err_set(e, ERR_SYSTEM, errno, "read the link '%s' in '%s'",
					       c, whole);
			}
			link[n] = '\0';
			sub = walk_dir(fd, link, depth + 1, whole, e);
			if (sub < 0) {
				close(fd);
				return -1;
			}
		}
		close(fd);
		fd = sub;
	}
	if (fd < 0 && (!e || e->kind == ERR_NONE)) {
		int errnum = errno;
		cleanup_free char *d = xstrdup(whole);

		return err_set(e, ERR_SYSTEM, errnum, "open directory '%s'", dirname(d));
	}
	return fd;
}

int atomicfile_open_dir(const char *path, struct err *e)
{
	cleanup_free char *d = xstrdup(path);
	int fd, rd;

	err_clear(e);
	fd = walk_dir(AT_FDCWD, dirname(d), 0, path, e);
	if (fd < 0)
		return -1;
	/* the dir itself read, for its fsync (O_PATH when it may only be searched) */
	rd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rd < 0)
		return fd;
	close(fd);
	return rd;
}

/* A new file in dfd with an unpredictable name ".<base>.<6 random>", made
 * O_EXCL (nobody can have made it first), mode 0600: its fd, the name in
 * name (len >= strlen(base) + 9), or -1 with errno set. */
static int make_temp(int dfd, const char *base, char *name, size_t len)
{
	static const char chars[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

	for (int tries = 0; tries < 100; tries++) {
		unsigned char r[6];
		char suffix[7];
		int fd;

		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return -1;
		for (size_t i = 0; i < sizeof(r); i++)
			suffix[i] = chars[r[i] % (sizeof(chars) - 1)];
		suffix[6] = '\0';
		snprintf(name, len, ".%s.%s", base, suffix);
		fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

int atomicfile_write(const char *path, const char *data, size_t len, mode_t mode, struct err *e)
{
	return atomicfile_replace(path, data, len, mode, NULL, NULL, NULL, e);
}

int atomicfile_replace(const char *path, const char *data, size_t len, mode_t mode,
		       int (*mine)(int fd, void *arg), void *arg, const char *what, struct err *e)
{
	cleanup_free char *real = atomicfile_target(path);
	cleanup_free char *b = NULL;
	cleanup_free char *tmp = NULL;
	cleanup_close int fd = -1;
	cleanup_close int dfd = -1;
	const char *base;
	struct stat st;
	int exists;

	/* A trusted symlink is written through (the file it leads to is
	 * replaced, or made), an untrusted one replaced; a device, FIFO or dir
	 * was not made by us: replacing it (as root: /dev/null) would do harm
	 * that no write error shows.  Everything below goes through one fd of
	 * the directory: a component swapped meanwhile changes nothing. */
	if (!real)
		return err_set(e, ERR_SYSTEM, errno, "follow '%s'", path);
	if ((dfd = atomicfile_open_dir(real, e)) < 0)
		return -1;
	b = xstrdup(real);
	base = basename(b);
	exists = fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0;
	if (exists && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return err_set(e, ERR_SYSTEM, 0, "'%s' is not a regular file: not replaced", real);
	if (exists && mine && S_ISREG(st.st_mode)) {
		cleanup_close int old =
			openat(dfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

		if (old < 0 || mine(old, arg) != 1)
			return err_set(e, ERR_INPUT, 0, "'%s' is not %s: not replaced", real, what);
	}
	tmp = xmalloc(strlen(base) + 16);
	fd = make_temp(dfd, base, tmp, strlen(base) + 16);
	if (fd < 0)
		return err_set(e, ERR_SYSTEM, errno, "create a temporary file beside '%s'", real);
	if (fchmod(fd, mode) < 0 || write_all(fd, data, len) < 0 || fsync(fd) < 0 ||
	    close(steal_fd(&fd)) < 0) {
		err_set(e, ERR_SYSTEM, errno, "write a temporary file beside '%s'", real);
		unlinkat(dfd, tmp, 0);
		return -1;
	}
	if (renameat(dfd, tmp, dfd, base) < 0) {
		err_set(e, ERR_SYSTEM, errno, "rename '%s' to '%s'", tmp, real);
		unlinkat(dfd, tmp, 0);
		return -1;
	}
	fsync(dfd); /* the rename durable; failing here loses nothing already written */
	return 0;
}
