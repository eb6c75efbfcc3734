// SPDX-License-Identifier: Apache-2.0
/* sysroot - the seam for /sys and /proc (see sysroot.h) */
#include "kernel/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/num.h"
#include "core/xalloc.h"

#define MAX_FAULTS 32

struct fault {
	enum sysroot_op op;
	char name[256];
	int errnum;
	int count; /* remaining; 0 = forever */
};

static struct fault faults[MAX_FAULTS];
static int nfaults;

static const struct {
	const char *name;
	int value;
} errnames[] = {
	{ "EPERM", EPERM },   { "ENOENT", ENOENT },
	{ "ESRCH", ESRCH },   { "EINTR", EINTR },
	{ "EIO", EIO },       { "EBADF", EBADF },
	{ "EAGAIN", EAGAIN }, { "ENOMEM", ENOMEM },
	{ "EACCES", EACCES }, { "EBUSY", EBUSY },
	{ "EEXIST", EEXIST }, { "ENOTDIR", ENOTDIR },
	{ "EISDIR", EISDIR }, { "EINVAL", EINVAL },
	{ "ENOSPC", ENOSPC }, { "EROFS", EROFS },
	{ "ERANGE", ERANGE }, { "ENOTEMPTY", ENOTEMPTY },
	{ "ENODEV", ENODEV }, { "EOPNOTSUPP", EOPNOTSUPP },
};

int sysroot_errno_from_name(const char *name)
{
	for (size_t i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (strcmp(name, errnames[i].name) == 0)
			return errnames[i].value;
	return 0;
}

void sysroot_fault_add(enum sysroot_op op, const char *name, int errnum, int count)
{
	if (nfaults >= MAX_FAULTS)
		return;
	faults[nfaults].op = op;
	snprintf(faults[nfaults].name, sizeof(faults[nfaults].name), "%s", name);
	faults[nfaults].errnum = errnum;
	faults[nfaults].count = count;
	nfaults++;
}

void sysroot_fault_clear(void)
{
	nfaults = 0;
}

int sysroot_fault_parse(const char *spec, struct err *e)
{
	static const char *const ops[] = { "read", "write", "mkdir", "rmdir", "open" };
	cleanup_free char *copy = xstrdup(spec);
	char *save = NULL;

	for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *op = item, *name, *eno, *cnt;
		int opi = -1, errnum;
		int64_t count = 1;

		name = strchr(op, ':');
		eno = name ? strchr(name + 1, ':') : NULL;
		if (!name || !eno)
			return err_set(e, ERR_USAGE, 0,
				       "KILO_FAULTS: '%s': expected OP:NAME:ERRNO[:COUNT]", item);
		*name++ = '\0';
		*eno++ = '\0';
		cnt = strchr(eno, ':');
		if (cnt) {
			*cnt++ = '\0';
			if (num_parse_i64(cnt, 0, INT32_MAX, &count) < 0)
				count = -1;
		}
		for (int i = 0; i < 5; i++)
			if (strcmp(op, ops[i]) == 0)
				opi = i;
		errnum = sysroot_errno_from_name(eno);
		if (opi < 0 || !errnum || !*name || count < 0)
			return err_set(e, ERR_USAGE, 0, "KILO_FAULTS: bad entry '%s:%s:%s'", op,
				       name, eno);
		sysroot_fault_add((enum sysroot_op)opi, name, errnum, (int)count);
	}
	return 0;
}

/* Returns the errno to fail with, or 0. */
static int fault_hit(enum sysroot_op op, const char *rel)
{
	size_t rl = strlen(rel);

	for (int i = 0; i < nfaults; i++) {
		struct fault *f = &faults[i];
		size_t nl = strlen(f->name);

		if (f->op != op || f->count < 0 || nl > rl || strcmp(rel + rl - nl, f->name) != 0)
			continue;
		if (nl < rl && rel[rl - nl - 1] != '/')
			continue;
		if (f->count > 0 && --f->count == 0)
			f->count = -1; /* used up */
		return f->errnum;
	}
	return 0;
}

static const char *strip(const char *rel)
{
	while (*rel == '/')
		rel++;
	return *rel ? rel : ".";
}

int sysroot_open(struct sysroot *s, const char *dir, struct err *e)
{
	const char *spec = secure_getenv("KILO_FAULTS");
	char real[4096];
	size_t n;

	memset(s, 0, sizeof(*s));
	s->dirfd = -1;
	if (dir && !*dir) /* an empty --sysroot is a mistake (an unset variable), never "/" */
		return err_set(e, ERR_USAGE, 0,
			       "invalid value for --sysroot: '' (expected a directory)");
	if (!dir)
		dir = secure_getenv("KILO_SYSROOT");
	if (!dir || !*dir)
		dir = "/";
	s->dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (s->dirfd < 0)
		return err_set(e, ERR_USAGE, errno, "sysroot '%s'", dir);
	s->live = realpath(dir, real) && strcmp(real, "/") == 0;
	s->prefix = xstrdup(dir);
	n = strlen(s->prefix);
	while (n > 0 && s->prefix[n - 1] == '/')
		s->prefix[--n] = '\0';
	if (spec && *spec && sysroot_fault_parse(spec, e) < 0) {
		sysroot_release(s);
		return -1;
	}
	return 0;
}

void sysroot_release(struct sysroot *s)
{
	if (s->dirfd >= 0 && s->prefix)
		close(s->dirfd);
	free(s->prefix);
	s->prefix = NULL;
	s->dirfd = -1;
}

char *sysroot_path(const struct sysroot *s, const char *rel)
{
	return xasprintf("%s/%s", s->prefix ? s->prefix : "", strip(rel));
}

static enum err_kind kind_of(int errnum)
{
	return errnum == ENOENT || errnum == ENOTDIR ? ERR_NOTFOUND : ERR_SYSTEM;
}

static int fail(const struct sysroot *s, const char *verb, const char *rel, int errnum,
		struct err *e)
{
	cleanup_free char *path = sysroot_path(s, rel);

	return err_set(e, kind_of(errnum), errnum, "%s '%s'", verb, path);
}

int sysroot_exists(const struct sysroot *s, const char *rel)
{
	return faccessat(s->dirfd, strip(rel), F_OK, AT_SYMLINK_NOFOLLOW) == 0;
}

int sysroot_is_dir(const struct sysroot *s, const char *rel)
{
	struct stat st;

	return fstatat(s->dirfd, strip(rel), &st, 0) == 0 && S_ISDIR(st.st_mode);
}

/* Files under sys/ (sysfs, cgroupfs, resctrl) and the /proc files below are
 * either one seq_file record, all of which one read(2) returns when the
 * buffer holds it, or (cgroup.procs, tasks) a list of records shorter than
 * SHORT_RECORD bytes.  A seq_file read stops early only when the next record
 * does not fit in what is left of its buffer (at least 4096 bytes), so a
 * read that comes back more than SHORT_RECORD bytes short of both the buffer
 * and 4096 bytes has reached the end of such a file, and of a regular file
 * (a fake tree): the read(2) that would return 0 is saved.  Other /proc
 * files (mountinfo: one record per mount, some of them kilobytes long) are
 * read until read(2) returns 0. */
#define SHORT_RECORD 64

static int short_read_ends(const char *rel)
{
	static const char *const single[] = { "/stat", "/statm", "/status", "/cgroup" };
	size_t rl = strlen(rel);

	if (strncmp(rel, "sys/", 4) == 0)
		return 1;
	if (strncmp(rel, "proc/", 5) != 0)
		return 0;
	if (strcmp(rel, "proc/stat") == 0 || strcmp(rel, "proc/meminfo") == 0)
		return 1;
	for (size_t i = 0; i < sizeof(single) / sizeof(single[0]); i++) {
		size_t nl = strlen(single[i]);

		if (rl > nl && strcmp(rel + rl - nl, single[i]) == 0 &&
		    strchr(rel + 5, '/') == rel + rl - nl)
			return 1; /* proc/<pid or self>/<file> */
	}
	return 0;
}

long sysroot_read_str(const struct sysroot *s, const char *rel, char **out, struct err *e)
{
	cleanup_close int fd = -1;
	cleanup_free char *heap = NULL;
	char stack[4096];
	char *buf = stack;
	size_t len = 0, cap = sizeof(stack) - 1;
	int fe, ends;

	rel = strip(rel);
	*out = NULL;
	fe = fault_hit(SYSROOT_READ, rel);
	if (fe)
		return fail(s, "read", rel, fe, e);
	fd = openat(s->dirfd, rel, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(s, "open", rel, errno, e);
	ends = short_read_ends(rel);
	/* Most files fit the stack buffer: the string returned is then
	 * allocated at its own size, so hundreds of them kept by a caller
	 * cost a few bytes each, not a page. */
	for (;;) {
		size_t want = cap - len;
		ssize_t n = read(fd, buf + len, want);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return fail(s, "read", rel, errno, e);
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (ends && (size_t)n + SHORT_RECORD < (want < 4096 ? want : 4096))
			break;
		if (len == cap) {
			cap = 2 * cap + 1;
			if (!heap) {
				heap = xmalloc(cap + 1);
				memcpy(heap, stack, len);
			} else {
				heap = xrealloc(heap, cap + 1);
			}
			buf = heap;
		}
	}
	if (len > 0 && buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	if (!heap) {
		heap = xmalloc(len + 1);
		memcpy(heap, stack, len + 1);
	}
	*out = steal_ptr(&heap);
	return (long)len;
}

int sysroot_read_i64(const struct sysroot *s, const char *rel, int64_t *out, struct err *e)
{
	cleanup_free char *text = NULL;
	const char *end;
	int64_t v;

	if (sysroot_read_str(s, rel, &text, e) < 0)
		return -1;
	end = text;
	if (num_scan_i64(&end, INT64_MIN, INT64_MAX, &v) < 0 || (*end && strcmp(end, "\n"))) {
		cleanup_free char *path = sysroot_path(s, rel);

		return err_set(e, ERR_INPUT, 0, "read '%s': expected an integer, got '%.40s'", path,
			       text);
	}
	*out = v;
	return 0;
}

/* One write(2) of val to fd, the file being rel. */
static int write_once(const struct sysroot *s, int fd, const char *rel, const char *val,
		      struct err *e)
{
	size_t len = strlen(val);
	ssize_t n;

	do
		n = write(fd, val, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return fail(s, "write", rel, errno, e);
	if ((size_t)n != len)
		return fail(s, "write", rel, EIO, e);
	return 0;
}

int sysroot_write_str(const struct sysroot *s, const char *rel, const char *val, struct err *e)
{
	cleanup_close int fd = -1;
	int fe;

	rel = strip(rel);
	fe = fault_hit(SYSROOT_WRITE, rel);
	if (fe)
		return fail(s, "write", rel, fe, e);
	fd = openat(s->dirfd, rel, O_WRONLY | O_CLOEXEC | (s->live ? 0 : O_TRUNC));
	if (fd < 0)
		return fail(s, "open", rel, errno, e);
	return write_once(s, fd, rel, val, e);
}

int sysroot_open_append(const struct sysroot *s, const char *rel, struct err *e)
{
	int fd, fe;

	rel = strip(rel);
	fe = fault_hit(SYSROOT_OPEN, rel);
	if (fe)
		return fail(s, "open", rel, fe, e);
	fd = openat(s->dirfd, rel, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return fail(s, "open", rel, errno, e);
	return fd;
}

int sysroot_write_fd(const struct sysroot *s, int fd, const char *rel, const char *val,
		     struct err *e)
{
	int fe;

	rel = strip(rel);
	fe = fault_hit(SYSROOT_WRITE, rel);
	if (fe)
		return fail(s, "write", rel, fe, e);
	return write_once(s, fd, rel, val, e);
}

int sysroot_writef(const struct sysroot *s, const char *rel, struct err *e, const char *fmt, ...)
{
	cleanup_free char *val = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&val, fmt, ap);
	va_end(ap);
	if (n < 0)
		return err_set(e, ERR_SYSTEM, ENOMEM, "format value for '%s'", rel);
	return sysroot_write_str(s, rel, val, e);
}

int sysroot_mkdir(const struct sysroot *s, const char *rel, mode_t mode, struct err *e)
{
	int fe;

	rel = strip(rel);
	fe = fault_hit(SYSROOT_MKDIR, rel);
	if (fe)
		return fail(s, "mkdir", rel, fe, e);
	if (mkdirat(s->dirfd, rel, mode) == 0)
		return 0;
	if (errno == EEXIST && sysroot_is_dir(s, rel))
		return 1;
	return fail(s, "mkdir", rel, errno, e);
}

int sysroot_rmdir(const struct sysroot *s, const char *rel, struct err *e)
{
	int fe;

	rel = strip(rel);
	fe = fault_hit(SYSROOT_RMDIR, rel);
	if (fe)
		return fail(s, "rmdir", rel, fe, e);
	if (unlinkat(s->dirfd, rel, AT_REMOVEDIR) == 0)
		return 0;
	return fail(s, "rmdir", rel, errno, e);
}

DIR *sysroot_opendir(const struct sysroot *s, const char *rel, struct err *e)
{
	int fd, fe;
	DIR *d;

	rel = strip(rel);
	fe = fault_hit(SYSROOT_OPEN, rel);
	if (fe) {
		fail(s, "open", rel, fe, e);
		return NULL;
	}
	fd = openat(s->dirfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fail(s, "open", rel, errno, e);
		return NULL;
	}
	d = fdopendir(fd);
	if (!d) {
		fail(s, "open", rel, errno, e);
		close(fd);
	}
	return d;
}
