// SPDX-License-Identifier: Apache-2.0
/* statefile - --state FILE documents (see statefile.h) */
#include "statefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "atomicfile.h"
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
	if (jsonio_collect(f, path, &kind, 1, &got, NULL, e) < 0)
		return -1;
	if (!got)
		return err_set(e, ERR_INPUT, 0, "state '%s': no %s document", path, kind);
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
	if (atomicfile_write(path, line, strlen(line), 0644, e) < 0)
		return err_set(e, ERR_SYSTEM, e ? e->errnum : 0, "write state '%s'", path);
	return 0;
}
