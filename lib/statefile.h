/* SPDX-License-Identifier: Apache-2.0 */
/* statefile - a tool's own memory between runs (`--state FILE`, SCHEMAS.md
 * "Common command-line flags"): one JSON object in a file the tool alone
 * writes.  A missing file is a first run; the file is replaced atomically
 * (temporary file in the same directory, fsync, rename), so a crash or a
 * full disk leaves the previous state whole and readers never see half a
 * file.
 */
#ifndef KILO_STATEFILE_H
#define KILO_STATEFILE_H

#include <jansson.h>

#include "err.h"

/* Load the state at path into *doc: a new reference to its object, or NULL
 * when the file does not exist.  Returns 0, or -1 with e set: ERR_INPUT
 * "<path>:<line>:<column>: ..." when it is not one JSON object, ERR_SYSTEM
 * when it cannot be read. */
int statefile_load(const char *path, json_t **doc, struct err *e);

/* Replace path with doc (compact JSON and a newline): write
 * "<dir>/.<name>.XXXXXX" (mode 0600), fsync it, rename it onto path, fsync
 * the directory.  On failure the temporary file is removed and path is
 * left as it was.  Returns 0, or -1 with e set (ERR_SYSTEM naming the path). */
int statefile_save(const char *path, const json_t *doc, struct err *e);

#endif
