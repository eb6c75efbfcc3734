/* SPDX-License-Identifier: Apache-2.0 */
/* atomicfile - replace a file so that readers see the old or the new
 * content, never a part: state files between runs, Prometheus textfiles.
 */
#ifndef KILO_ATOMICFILE_H
#define KILO_ATOMICFILE_H

#include <stddef.h>
#include <sys/types.h>

#include "core/err.h"

/* Write len bytes of data to path: a temporary file in the same dir named
 * ".<base>.<pid>.tmp" (so a textfile collector, which reads only "*.prom",
 * never sees it), mode, fsync, rename(2) onto path, fsync of the dir.  A
 * symlink at path is written through: the file it leads to (atomicfile_
 * target) is replaced, or made when missing.  What is there and is not a
 * regular file (a device, FIFO, dir) is never replaced: ERR_SYSTEM with
 * errnum 0.  On failure the temporary file is removed and path is left as
 * it was.  Returns 0, or -1 with e set (ERR_SYSTEM naming the path; errnum
 * ENOSPC, EACCES, ELOOP...). */
int atomicfile_write(const char *path, const char *data, size_t len, mode_t mode, struct err *e);

/* The file a write to path lands on: path, or where its symlinks lead
 * (followed one by one, up to 16; the last may not exist yet).  New
 * string, or NULL with errno set (ELOOP, or readlink's). */
char *atomicfile_target(const char *path);

#endif
