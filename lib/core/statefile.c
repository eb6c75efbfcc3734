// SPDX-License-Identifier: Apache-2.0
/* statefile - --state FILE documents (see statefile.h) */
#include "core/statefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/atomicfile.h"
#include "core/cleanup.h"
#include "core/jsonio.h"
#include "core/xalloc.h"

int statefile_load(const char *path, const char *kind, json_t **doc, struct err *e)
{
	/* O_NONBLOCK: a FIFO given by mistake must not hang the tool. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	cleanup_fclose FILE *f = NULL;
	json_t *got = NULL;
	const char *api;
	struct stat st;

	*doc = NULL;
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
	if (jsonio_collect(f, path, &kind, 1, &got, NULL, e) < 0)
		return -1;
	if (!got)
		return err_set(e, ERR_INPUT, 0, "state '%s': no %s document", path, kind);
	api = json_string_value(json_object_get(got, "apiVersion"));
	if (!api || strcmp(api, KILO_API_VERSION) != 0) {
		err_set(e, ERR_INPUT, 0, "state '%s': apiVersion '%.40s', expected '%s'", path,
			api ? api : "(none)", KILO_API_VERSION);
		json_decref(got); /* after the message: api points into it */
		return -1;
	}
	*doc = got;
	return 1;
}

int statefile_save(const char *path, const json_t *doc, struct err *e)
{
	cleanup_free char *text = json_dumps(doc, JSON_COMPACT);
	cleanup_free char *line = NULL;

	if (!text)
		return err_set(e, ERR_SYSTEM, ENOMEM, "encode state '%s'", path);
	line = xasprintf("%s\n", text);
	if (atomicfile_write(path, line, strlen(line), 0644, e) < 0) {
		if (e && e->errnum == 0) /* not a regular file: atomicfile says so */
			return err_wrap(e, "write state");
		return err_set(e, ERR_SYSTEM, e ? e->errnum : 0, "write state '%s'", path);
	}
	return 0;
}
