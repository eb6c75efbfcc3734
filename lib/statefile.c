// SPDX-License-Identifier: Apache-2.0
/* statefile - atomic JSON state files (see statefile.h) */
#include "statefile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "jsonio.h"
#include "xalloc.h"

int statefile_load(const char *path, json_t **doc, struct err *e)
{
	cleanup_fclose FILE *f = fopen(path, "re");
	struct jsonio_reader *r;
	int ret;

	*doc = NULL;
	if (!f) {
		if (errno == ENOENT)
			return 0;
		return err_set(e, ERR_SYSTEM, errno, "open '%s'", path);
	}
	r = jsonio_reader_new(f, path);
	ret = jsonio_read(r, doc, e);
	jsonio_reader_free(r);
	if (ret == 0)
		return err_set(e, ERR_INPUT, 0, "%s: empty state file", path);
	return ret < 0 ? -1 : 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
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

int statefile_save(const char *path, const json_t *doc, struct err *e)
{
	cleanup_free char *dcopy = xstrdup(path), *bcopy = xstrdup(path), *tmp = NULL;
	cleanup_free char *text = json_dumps(doc, JSON_COMPACT);
	cleanup_close int fd = -1;
	cleanup_close int dfd = -1;
	const char *dir = dirname(dcopy);

	tmp = xasprintf("%s/.%s.XXXXXX", dir, basename(bcopy));
	if (!text)
		return err_set(e, ERR_SYSTEM, ENOMEM, "encode '%s'", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return err_set(e, ERR_SYSTEM, errno, "create '%s'", tmp);
	if (write_all(fd, text, strlen(text)) < 0 || write_all(fd, "\n", 1) < 0 || fsync(fd) < 0 ||
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
	/* make the rename itself durable; a failure here loses nothing */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0)
		fsync(dfd);
	return 0;
}
