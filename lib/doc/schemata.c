// SPDX-License-Identifier: Apache-2.0
/* schemata - resctrl schemata text and info facts as values (see schemata.h) */
#include "doc/schemata.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/num.h"
#include "core/xalloc.h"

static const char *const vendor_names[] = { "other", "intel", "amd" };

const char *schemata_vendor_name(enum schemata_vendor v)
{
	return vendor_names[v];
}

enum schemata_vendor schemata_vendor_parse(const char *cpuinfo)
{
	const char *p = cpuinfo ? strstr(cpuinfo, "vendor_id") : NULL;
	const char *colon = p ? strchr(p, ':') : NULL;
	size_t n;

	if (!colon)
		return SCHEMATA_VENDOR_OTHER;
	colon++;
	colon += strspn(colon, " \t");
	n = strcspn(colon, " \t\n");
	if (n == 12 && strncmp(colon, "GenuineIntel", n) == 0)
		return SCHEMATA_VENDOR_INTEL;
	if (n == 12 &&
	    (strncmp(colon, "AuthenticAMD", n) == 0 || strncmp(colon, "HygonGenuine", n) == 0))
		return SCHEMATA_VENDOR_AMD;
	return SCHEMATA_VENDOR_OTHER;
}

/* Cache resources (L2, L3, L3CODE...) hold hex bitmasks; MB and SMBA decimals. */
static int is_cache(const char *name)
{
	return name[0] == 'L' && isdigit((unsigned char)name[1]);
}

void schemata_release(struct schemata *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->line[i].dom);
	free(s->line);
	s->line = NULL;
	s->n = 0;
}

static struct schemata_line *add_line(struct schemata *s, const char *name, size_t len)
{
	struct schemata_line *l;

	s->line = xrealloc(s->line, (s->n + 1) * sizeof(*s->line));
	l = &s->line[s->n++];
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%.*s", (int)len, name);
	return l;
}

static void add_domain(struct schemata_line *l, unsigned id, uint64_t value)
{
	l->dom = xrealloc(l->dom, (l->n + 1) * sizeof(*l->dom));
	l->dom[l->n].id = id;
	l->dom[l->n].value = value;
	l->n++;
}

/* Parse "id=value" (blanks allowed around both). */
static int parse_domain(const char *tok, int hex, unsigned *id, uint64_t *value)
{
	const char *p = tok + strspn(tok, " \t");
	uint64_t v;

	if (num_scan_u64(&p, 10, UINT32_MAX, &v) < 0)
		return -1;
	*id = (unsigned)v;
	p += strspn(p, " \t");
	if (*p++ != '=')
		return -1;
	p += strspn(p, " \t");
	if (num_scan_u64(&p, hex ? 16 : 10, UINT64_MAX, value) < 0)
		return -1;
	p += strspn(p, " \t");
	return *p ? -1 : 0;
}

static int parse_line(struct schemata *out, char *text, long lineno, struct err *e)
{
	char *colon, *save = NULL, *name = text + strspn(text, " \t");
	struct schemata_line *l;
	size_t nlen;

	colon = strchr(name, ':');
	nlen = colon ? strcspn(name, " \t:") : 0;
	if (!colon || nlen == 0 || nlen >= SCHEMATA_NAME_MAX)
		return err_set(e, ERR_INPUT, 0,
			       "line %ld: expected <resource>:<id>=<value>;..., got '%.60s'",
			       lineno, text);
	for (size_t i = 0; i < out->n; i++)
		if (strlen(out->line[i].name) == nlen &&
		    strncmp(out->line[i].name, name, nlen) == 0)
			return err_set(e, ERR_INPUT, 0, "line %ld: %.*s listed twice", lineno,
				       (int)nlen, name);
	l = add_line(out, name, nlen);
	for (char *tok = strtok_r(colon + 1, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
		unsigned id;
		uint64_t v;

		if (tok[strspn(tok, " \t")] == '\0')
			continue;
		if (parse_domain(tok, is_cache(l->name), &id, &v) < 0)
			return err_set(e, ERR_INPUT, 0,
				       "line %ld: %s: expected <id>=<%s>, got '%.40s'", lineno,
				       l->name, is_cache(l->name) ? "hex mask" : "number", tok);
		for (size_t i = 0; i < l->n; i++)
			if (l->dom[i].id == id)
				return err_set(e, ERR_INPUT, 0,
					       "line %ld: %s: domain %u listed twice", lineno,
					       l->name, id);
		add_domain(l, id, v);
	}
	return 0;
}

int schemata_parse(const char *text, struct schemata *out, struct err *e)
{
	cleanup_free char *copy = xstrdup(text ? text : "");
	long lineno = 0;

	memset(out, 0, sizeof(*out));
	/* strtok_r would merge empty lines and lose the numbering */
	for (char *p = copy, *nl; p; p = nl) {
		nl = strchr(p, '\n');
		if (nl)
			*nl++ = '\0';
		lineno++;
		if (p[strspn(p, " \t")] == '\0')
			continue;
		if (parse_line(out, p, lineno, e) < 0)
			return -1;
	}
	return 0;
}

const struct schemata_line *schemata_find(const struct schemata *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->line[i].name, name) == 0)
			return &s->line[i];
	return NULL;
}

char *schemata_format_line(const struct schemata_line *l)
{
	cleanup_free char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return NULL;
	fprintf(f, "%s:", l->name);
	for (size_t i = 0; i < l->n; i++)
		fprintf(f, is_cache(l->name) ? "%s%u=%llx" : "%s%u=%llu", i ? ";" : "",
			l->dom[i].id, (unsigned long long)l->dom[i].value);
	if (fclose(f) != 0)
		return NULL;
	return steal_ptr(&buf);
}

char *schemata_format(const struct schemata *s, const struct schemata *want)
{
	cleanup_free char *out = xstrdup("");

	for (size_t i = 0; i < s->n; i++) {
		cleanup_free char *line = NULL;
		char *joined;

		if (want && !schemata_find(want, s->line[i].name))
			continue;
		line = schemata_format_line(&s->line[i]);
		if (!line)
			return NULL;
		joined = xasprintf("%s%s%s", out, *out ? "\n" : "", line);
		free(out);
		out = joined;
	}
	return steal_ptr(&out);
}

int schemata_line_equal(const struct schemata_line *want, const struct schemata *have)
{
	const struct schemata_line *h = schemata_find(have, want->name);

	if (!h)
		return 0;
	for (size_t i = 0; i < want->n; i++) {
		size_t j = 0;

		while (j < h->n && h->dom[j].id != want->dom[i].id)
			j++;
		if (j == h->n || h->dom[j].value != want->dom[i].value)
			return 0;
	}
	return 1;
}

void schemata_add_uniform(struct schemata *s, const struct schemata_line *like, uint64_t v)
{
	struct schemata_line *l = add_line(s, like->name, strlen(like->name));

	for (size_t i = 0; i < like->n; i++)
		add_domain(l, like->dom[i].id, v);
}
