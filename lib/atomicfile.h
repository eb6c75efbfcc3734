/* SPDX-License-Identifier: Apache-2.0 */
/* atomicfile - replace a file so that readers see the old or the new
 * content, never a part: state files between runs, Prometheus textfiles.
 */
#ifndef KILO_ATOMICFILE_H
#define KILO_ATOMICFILE_H

#include <stddef.h>
#include <sys/types.h>

#include "err.h"

/* Write len bytes of data to path: a temporary file in the same dir named
 * ".<base>.<pid>.tmp" (so a textfile collector, which reads only "*.prom",
 * never sees it), mode, fsync, rename(2) onto path, fsync of the dir.  A
 * symlink at path is written through (the regular file it leads to is
 * replaced); anything else that is not a regular file (a device, FIFO, dir,
 * a symlink to one, a dangling symlink) is never replaced: ERR_SYSTEM with
 * errnum 0.  On failure the temporary file is removed and path is left as
 * it was.  Returns 0, or -1 with e set (ERR_SYSTEM naming the path; errnum
 * ENOSPC, EACCES...). */
int atomicfile_write(const char *path, const char *data, size_t len, mode_t mode, struct err *e);

#endif
