// SPDX-License-Identifier: Apache-2.0
/* promtext - Prometheus text format and atomic textfiles (see promtext.h) */
#include "promtext.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "xalloc.h"

struct promtext {
	char *buf;
	size_t len, cap;
};

struct promtext *promtext_new(void)
{
	struct promtext *p = xcalloc(1, sizeof(*p));

	p->buf = xcalloc(1, 1);
	p->cap = 1;
	return p;
}

void promtext_free(struct promtext *p)
{
	if (!p)
		return;
	free(p->buf);
	free(p);
}

static void put(struct promtext *p, const char *s, size_t n)
{
	if (p->len + n + 1 > p->cap) {
		while (p->len + n + 1 > p->cap)
			p->cap *= 2;
		p->buf = xrealloc(p->buf, p->cap);
	}
	memcpy(p->buf + p->len, s, n);
	p->len += n;
	p->buf[p->len] = '\0';
}

static void puts_(struct promtext *p, const char *s)
{
	put(p, s, strlen(s));
}

/* s with '\\' and newline escaped, and '"' too when quote. */
static void put_escaped(struct promtext *p, const char *s, int quote)
{
	for (; *s; s++) {
		if (*s == '\\')
			puts_(p, "\\\\");
		else if (*s == '\n')
			puts_(p, "\\n");
		else if (*s == '"' && quote)
			puts_(p, "\\\"");
		else
			put(p, s, 1);
	}
}

void promtext_family(struct promtext *p, const char *name, const char *type, const char *help)
{
	puts_(p, "# HELP ");
	puts_(p, name);
	puts_(p, " ");
	put_escaped(p, help, 0);
	puts_(p, "\n# TYPE ");
	puts_(p, name);
	puts_(p, " ");
	puts_(p, type);
	puts_(p, "\n");
}

static void put_name_labels(struct promtext *p, const char *name, const char *const *labels)
{
	puts_(p, name);
	if (!labels || !labels[0])
		return;
	puts_(p, "{");
	for (size_t i = 0; labels[i] && labels[i + 1]; i += 2) {
		if (i)
			puts_(p, ",");
		puts_(p, labels[i]);
		puts_(p, "=\"");
		put_escaped(p, labels[i + 1], 1);
		puts_(p, "\"");
	}
	puts_(p, "}");
}

void promtext_sample_i64(struct promtext *p, const char *name, const char *const *labels,
			 int64_t value)
{
	char num[32];

	put_name_labels(p, name, labels);
	snprintf(num, sizeof(num), " %" PRId64 "\n", value);
	puts_(p, num);
}

void promtext_sample_f64(struct promtext *p, const char *name, const char *const *labels,
			 double value)
{
	char num[40];

	put_name_labels(p, name, labels);
	if (isnan(value))
		snprintf(num, sizeof(num), " NaN\n");
	else if (isinf(value))
		snprintf(num, sizeof(num), " %sInf\n", value > 0 ? "+" : "-");
	else
		snprintf(num, sizeof(num), " %.17g\n", value);
	puts_(p, num);
}

const char *promtext_text(const struct promtext *p)
{
	return p->buf;
}

int promtext_write(const struct promtext *p, FILE *f, struct err *e)
{
	if (p->len && fwrite(p->buf, 1, p->len, f) != p->len)
		return err_set(e, ERR_SYSTEM, errno, "write metrics");
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int promtext_write_textfile(const struct promtext *p, const char *dir, const char *name,
			    struct err *e)
{
	cleanup_free char *tmp = xasprintf("%s/.%s.%ld.tmp", dir, name, (long)getpid());
	cleanup_free char *dst = xasprintf("%s/%s", dir, name);
	cleanup_close int fd = -1;
	cleanup_close int dfd = -1;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return err_set(e, ERR_SYSTEM, errno, "create '%s'", tmp);
	if (fchmod(fd, 0644) < 0 || write_all(fd, p->buf, p->len) < 0 || fsync(fd) < 0) {
		err_set(e, ERR_SYSTEM, errno, "write '%s'", tmp);
		unlink(tmp);
		return -1;
	}
	if (close(steal_fd(&fd)) < 0) {
		err_set(e, ERR_SYSTEM, errno, "write '%s'", tmp);
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, dst) < 0) {
		err_set(e, ERR_SYSTEM, errno, "rename '%s' to '%s'", tmp, dst);
		unlink(tmp);
		return -1;
	}
	/* make the rename itself durable; a failure here loses nothing */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0)
		fsync(dfd);
	return 0;
}
