/* SPDX-License-Identifier: Apache-2.0 */
/* sysroot - the single seam for every access to /sys and /proc.
 *
 * A sysroot is a root prefix plus an O_PATH directory fd of it (util-linux's
 * path_cxt with crun's openat-relative access).  Library code names files
 * relative to the root ("sys/fs/cgroup/cpu/kubepods/cpu.shares",
 * "proc/self/mountinfo"), so the same code runs on the live system (prefix
 * "/") and on fake trees in tests and dumps (`--sysroot DIR`).  Messages
 * carry the full path, prefix joined on.
 *
 * Faults: a test (or KILO_FAULTS in the environment, read with
 * secure_getenv) can make the next operations on a named file fail with a
 * given errno, to imitate what a plain file cannot: EBUSY, EINVAL, ESRCH,
 * ENOSPC, a dir vanishing mid-walk.  KILO_FAULTS is a comma-separated list of
 * OP:NAME:ERRNO[:COUNT], OP one of read, write, mkdir, rmdir, open, NAME
 * the last whole components of the relative path ("cpuset.cpus",
 * "hadoop-yarn/cpuset.cpus"; not "set.cpus"), ERRNO a name such as EBUSY,
 * COUNT how many operations fail (default 1, 0 = always).
 */
#ifndef KILO_SYSROOT_H
#define KILO_SYSROOT_H

#include <dirent.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/err.h"

struct sysroot {
	char *prefix; /* as given, without trailing slash ("" for "/") */
	int dirfd;    /* O_PATH|O_DIRECTORY fd of the root */
	int live;     /* the root is the real "/": signals and magic checks allowed */
};

enum sysroot_op {
	SYSROOT_READ,
	SYSROOT_WRITE,
	SYSROOT_MKDIR,
	SYSROOT_RMDIR,
	SYSROOT_OPEN, /* opendir and open for other uses */
};

/* Open a sysroot.  dir NULL means KILO_SYSROOT from the environment, else
 * "/".  Also loads KILO_FAULTS.  Returns 0, or -1 with e set (ERR_USAGE when
 * dir is not a directory). */
int sysroot_open(struct sysroot *s, const char *dir, struct err *e);

/* Close the fd and free the prefix.  Safe on a zeroed struct. */
void sysroot_release(struct sysroot *s);

/* The full path of rel for messages: prefix + "/" + rel.  New string. */
char *sysroot_path(const struct sysroot *s, const char *rel);

/* 1 when rel exists (any type), else 0. */
int sysroot_exists(const struct sysroot *s, const char *rel);

/* 1 when rel is a directory, else 0. */
int sysroot_is_dir(const struct sysroot *s, const char *rel);

/* Read the whole file rel into a new NUL-terminated string (*out, caller
 * frees), one trailing newline removed.  Returns the length, or -1 with e
 * set: ERR_NOTFOUND for ENOENT/ENOTDIR, ERR_SYSTEM otherwise; errnum set. */
long sysroot_read_str(const struct sysroot *s, const char *rel, char **out, struct err *e);

/* Read a file holding one decimal integer ("max" is not accepted here).
 * Returns 0, or -1 with e set (ERR_INPUT for content that is not an integer). */
int sysroot_read_i64(const struct sysroot *s, const char *rel, int64_t *out, struct err *e);

/* Write val to the existing file rel with one write(2), as the kernel
 * expects for cgroup and resctrl files (no O_CREAT, no O_TRUNC on kernfs;
 * O_TRUNC is added when the root is not live so fake files hold only the new
 * value).  Returns 0, or -1 with e set (errnum is the kernel's errno:
 * EINVAL, EBUSY, ESRCH, ENOSPC...). */
int sysroot_write_str(const struct sysroot *s, const char *rel, const char *val, struct err *e);

/* printf-style sysroot_write_str(). */
int sysroot_writef(const struct sysroot *s, const char *rel, struct err *e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Open the existing file rel for a series of values, each written with
 * sysroot_write_fd(): O_WRONLY | O_APPEND, no O_CREAT (koordlet opens a
 * resctrl group's tasks file so and writes one id per write(2)).  On a fake
 * root the values accumulate in the file, as the kernel's list would.  Open
 * faults apply.  Returns an fd (close it), or -1 with e set (ERR_NOTFOUND
 * when absent). */
int sysroot_open_append(const struct sysroot *s, const char *rel, struct err *e);

/* Write val to fd, opened by sysroot_open_append() for rel, with one
 * write(2); write faults for rel apply to each call.  Returns 0, or -1 with
 * e set (errnum is the kernel's errno, e.g. ESRCH). */
int sysroot_write_fd(const struct sysroot *s, int fd, const char *rel, const char *val,
		     struct err *e);

/* mkdir(2) relative to the root.  EEXIST is not an error: returns 0 when
 * created, 1 when it existed, -1 with e set. */
int sysroot_mkdir(const struct sysroot *s, const char *rel, mode_t mode, struct err *e);

/* rmdir(2) relative to the root.  Returns 0, or -1 with e set (ENOENT:
 * ERR_NOTFOUND). */
int sysroot_rmdir(const struct sysroot *s, const char *rel, struct err *e);

/* opendir relative to the root.  Returns a DIR (closedir it), or NULL with e
 * set (ERR_NOTFOUND when absent). */
DIR *sysroot_opendir(const struct sysroot *s, const char *rel, struct err *e);

/* Make the next count operations op on a path ending in name fail with
 * errnum (count 0: every one).  For tests. */
void sysroot_fault_add(enum sysroot_op op, const char *name, int errnum, int count);

/* Remove every fault. */
void sysroot_fault_clear(void);

/* Parse a KILO_FAULTS-style spec and add its faults.  Returns 0, or -1 with
 * e set (ERR_USAGE naming the bad entry). */
int sysroot_fault_parse(const char *spec, struct err *e);

/* The errno value of a name such as "EBUSY", or 0 when unknown. */
int sysroot_errno_from_name(const char *name);

#endif
