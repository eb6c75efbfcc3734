/* SPDX-License-Identifier: Apache-2.0 */
/* atomicfile - replace a file so that readers see the old or the new
 * content, never a part: state files between runs, Prometheus textfiles.
 */
#ifndef KILO_ATOMICFILE_H
#define KILO_ATOMICFILE_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "core/err.h"

/* Write len bytes of data to path: a temporary file in the target's dir
 * with an unpredictable name (".<base>.XXXXXX" from getrandom, O_EXCL, so no
 * one can pre-create it; a textfile collector, which reads only "*.prom",
 * never sees it), mode, fsync, renameat(2) onto the target, fsync of the
 * dir, all through one fd of the target's dir (atomicfile_open_dir).  The
 * target is path, or where its symlinks lead when each may be trusted
 * (atomicfile_target); a symlink that may not is replaced itself, never
 * written through.  What is there and is not a regular file (a device,
 * FIFO, dir) is never replaced: ERR_SYSTEM with errnum 0.  On failure the
 * temporary file is removed and path is left as it was.  Returns 0, or -1
 * with e set (ERR_SYSTEM naming the path; errnum ENOSPC, EACCES, ELOOP...). */
int atomicfile_write(const char *path, const char *data, size_t len, mode_t mode, struct err *e);

/* As atomicfile_write(), but a regular file already at the target is
 * replaced only when mine(fd, arg) returns 1 for it (fd: the file opened
 * read-only, O_NOFOLLOW, at offset 0; the caller's own kind of file): a
 * path given by mistake, or a root-owned symlink to /etc/passwd, is never
 * replaced.  Else ERR_INPUT "'<target>' is not <what>: not replaced". */
int atomicfile_replace(const char *path, const char *data, size_t len, mode_t mode,
		       int (*mine)(int fd, void *arg), void *arg, const char *what, struct err *e);

/* 1 when a symlink (lstat'ed into *link) may be followed: it is
 * owned by the caller (euid) or by root.  A link of any other user is
 * never followed, wherever it is (stricter than the kernel's
 * fs.protected_symlinks, whose rule a dir that user owns inside a shared
 * one defeats; threat-model.md: state and textfile dirs). */
int atomicfile_link_trusted(const struct stat *link);

/* An fd of path's directory (O_RDONLY | O_DIRECTORY, or O_PATH where it may
 * only be searched), opened one component at a time with O_NOFOLLOW; a
 * symlink on the way is followed only when atomicfile_link_trusted() says
 * so, through the fd held, so a component another user swaps for a symlink
 * meanwhile cannot lead elsewhere ("$SHARED/st -> /etc").  Returns the fd,
 * or -1 with e set (ERR_INPUT for a symlink of another user, else
 * ERR_SYSTEM). */
int atomicfile_open_dir(const char *path, struct err *e);

/* The file a write to path lands on: path, or where its trusted symlinks
 * lead (followed one by one, up to 16; the last may not exist yet); an
 * untrusted symlink is the target itself (it is replaced, not followed).
 * New string, or NULL with errno set (ELOOP, or readlink's). */
char *atomicfile_target(const char *path);

#endif
