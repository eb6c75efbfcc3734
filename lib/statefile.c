// SPDX-License-Identifier: Apache-2.0
/* statefile - --state FILE documents (see statefile.h) */
#include "statefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "jsonio.h"
#include "xalloc.h"

int statefile_load(const char *path, const char *kind, json_t **doc, struct err *e)
{
	cleanup_fclose FILE *f = fopen(path, "re");
	json_t *got = NULL;

	*doc = NULL;
	if (!f) {
		if (errno == ENOENT)
			return 0;
		return err_set(e, ERR_SYSTEM, errno, "open state '%s'", path);
	}
	if (jsonio_collect(f, path, &kind, 1, &got, e) < 0)
		return -1;
	if (!got)
		return err_set(e, ERR_INPUT, 0, "state '%s': no %s document", path, kind);
	*doc = got;
	return 1;
}

int statefile_save(const char *path, const json_t *doc, struct err *e)
{
	cleanup_free char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	cleanup_free char *text = json_dumps(doc, JSON_COMPACT);
	cleanup_close int fd = -1;
	size_t len, off = 0;

	if (!text)
		return err_set(e, ERR_SYSTEM, ENOMEM, "encode state '%s'", path);
	len = strlen(text);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return err_set(e, ERR_SYSTEM, errno, "write state '%s'", path);
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		off += (size_t)n;
	}
	if (write(fd, "\n", 1) != 1 || fsync(fd) < 0 || close(steal_fd(&fd)) < 0 ||
	    rename(tmp, path) < 0)
		goto fail;
	return 0;
fail:
	err_set(e, ERR_SYSTEM, errno ? errno : EIO, "write state '%s'", path);
	unlink(tmp);
	return -1;
}
