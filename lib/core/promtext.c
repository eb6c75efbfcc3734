// SPDX-License-Identifier: Apache-2.0
/* promtext - Prometheus text format and atomic textfiles (see promtext.h) */
#include "core/promtext.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/atomicfile.h"
#include "core/cleanup.h"
#include "core/xalloc.h"

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
		for (int prec = 15; prec <= 17; prec++) { /* shortest that round-trips */
			snprintf(num, sizeof(num), " %.*g\n", prec, value);
			if (strtod(num, NULL) == value)
				break;
		}
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

int promtext_write_textfile(const struct promtext *p, const char *dir, const char *name,
			    struct err *e)
{
	cleanup_free char *path = xasprintf("%s/%s", dir, name);

	return atomicfile_write(path, p->buf, p->len, 0644, e);
}
