/* SPDX-License-Identifier: Apache-2.0 */
/* statefile - a tool's own memory between runs (--state FILE): one JSON
 * document, replaced atomically so a crash or a concurrent reader never
 * sees half a file.
 */
#ifndef KILO_STATEFILE_H
#define KILO_STATEFILE_H

#include <jansson.h>
#include <stdint.h>

#include "core/err.h"

/* State files are a few hundred KiB at most (qos-cgset: ~300 bytes a
 * container, so 8 MiB is some 25,000 containers); a larger one is refused
 * rather than read into memory (JSON takes ~9 times its size there, and
 * the node pod's limit is 128 MiB). */
#define STATEFILE_MAX_BYTES (8L << 20)

/* Load the document of kind kind (apiVersion kilo/v1) from path.  Returns 1
 * and a new reference in *doc; 0 and *doc NULL when the file does not exist
 * (a first run); -1 with e set: ERR_SYSTEM when it cannot be read, ERR_INPUT
 * when it is not such a document, not a regular file (a FIFO or a device
 * given by mistake: never read), larger than STATEFILE_MAX_BYTES or a
 * symlink atomicfile_link_trusted() refuses.  Messages name the position
 * of a parse error, never the content (callers warn and start afresh). */
int statefile_load(const char *path, const char *kind, json_t **doc, struct err *e);

/* Write doc to path atomically with atomicfile_write(), mode 0600 (a
 * temporary file beside it, fsync, rename; through a trusted symlink;
 * never over anything but a regular file or an untrusted symlink).
 * Returns 0, or -1 with e set (ERR_SYSTEM; the temporary file is removed). */
int statefile_save(const char *path, const json_t *doc, struct err *e);

/* Serialise the runs of a tool on one state: an exclusive flock(2) on
 * "<path>.lock" (made 0600, never through a symlink, refused unless a
 * regular file of the caller: another user's file or a symlink there is
 * replaced), waited for at most wait_ms.  The dir must be one no other
 * user can remove or rename entries in (the caller's or root's, and not
 * writable by others unless sticky): else ERR_INPUT, and the caller goes
 * on without the state.  Returns the fd, to hold until the state is saved
 * (closing it releases the lock), or -1 with e set: ERR_TEMP when another
 * run held it all that time, ERR_INPUT for a lock file of another user or
 * such a dir, ERR_SYSTEM. */
int statefile_lock(const char *path, int64_t wait_ms, struct err *e);

#endif
