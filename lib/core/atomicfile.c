// SPDX-License-Identifier: Apache-2.0
/* atomicfile - replace a file atomically (see atomicfile.h) */
#include "core/atomicfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <string.h>
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

int atomicfile_link_trusted(const char *path, const struct stat *link)
{
	(void)path;
	return link->st_uid == geteuid() || link->st_uid == 0;
}

int atomicfile_dir_trusted(const char *path)
{
	cleanup_free char *d = xstrdup(path);
	char *dir = dirname(d), *p = dir;
	struct stat st;

	for (;;) { /* every prefix of dir: "/a", "/a/b", ... (or "a", "a/b") */
		char *slash = strchr(p + (*p == '/'), '/');
		char keep = 0;

		if (slash) {
			keep = *slash;
			*slash = '\0';
		}
		if (*dir && lstat(dir, &st) == 0 && S_ISLNK(st.st_mode) &&
		    !atomicfile_link_trusted(dir, &st))
			return 0;
		if (!slash)
			return 1;
		*slash = keep;
		p = slash + 1;
	}
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
		if (!atomicfile_link_trusted(cur, &st))
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

int atomicfile_write(const char *path, const char *data, size_t len, mode_t mode, struct err *e)
{
	cleanup_free char *real = atomicfile_target(path);
	cleanup_free char *d = NULL;
	cleanup_free char *b = NULL;
	cleanup_free char *tmp = NULL;
	cleanup_close int fd = -1;
	cleanup_close int dfd = -1;
	const char *dir;
	struct stat st;

	/* A trusted symlink is written through (the file it leads to is
	 * replaced, or made), an untrusted one replaced; a device, FIFO or dir
	 * was not made by us: replacing it (as root: /dev/null) would do harm
	 * that no write error shows. */
	if (!real)
		return err_set(e, ERR_SYSTEM, errno, "follow '%s'", path);
	if (!atomicfile_dir_trusted(real))
		return err_set(e, ERR_SYSTEM, 0,
			       "'%s': a directory on the path is a symlink of another user: not "
			       "followed",
			       real);
	if (lstat(real, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return err_set(e, ERR_SYSTEM, 0, "'%s' is not a regular file: not replaced", real);
	path = real;
	d = xstrdup(path);
	b = xstrdup(path);
	dir = dirname(d);
	tmp = xasprintf("%s/.%s.XXXXXX", dir, basename(b));
	fd = mkostemp(tmp, O_CLOEXEC); /* O_CREAT | O_EXCL, mode 0600 */
	if (fd < 0)
		return err_set(e, ERR_SYSTEM, errno, "create a temporary file in '%s'", dir);
	if (fchmod(fd, mode) < 0 || write_all(fd, data, len) < 0 || fsync(fd) < 0 ||
	    close(steal_fd(&fd)) < 0) {
		err_set(e, ERR_SYSTEM, errno, "write '%s'", tmp);
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path) < 0) {
		err_set(e, ERR_SYSTEM, errno, "rename '%s' to '%s'", tmp, path);
		unlink(tmp);
		return -1;
	}
	/* make the rename durable; failing here loses nothing already written */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0)
		fsync(dfd);
	return 0;
}
