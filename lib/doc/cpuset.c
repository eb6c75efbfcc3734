// SPDX-License-Identifier: Apache-2.0
/* cpuset - sets of logical CPUs in the kernel's list format (see cpuset.h) */
#include "doc/cpuset.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/xalloc.h"

void cpuset_add(struct cpuset *set, int cpu)
{
	if (cpu >= 0 && cpu < CPUSET_MAX)
		set->bits[cpu / 64] |= (uint64_t)1 << (cpu % 64);
}

int cpuset_has(const struct cpuset *set, int cpu)
{
	return cpu >= 0 && cpu < CPUSET_MAX && (set->bits[cpu / 64] >> (cpu % 64) & 1);
}

int cpuset_count(const struct cpuset *set)
{
	int n = 0;

	for (size_t i = 0; i < CPUSET_MAX / 64; i++)
		n += __builtin_popcountll(set->bits[i]);
	return n;
}

int cpuset_equal(const struct cpuset *a, const struct cpuset *b)
{
	return memcmp(a->bits, b->bits, sizeof(a->bits)) == 0;
}

static int cpu_number(const char **p, int *out)
{
	int v = 0, digits = 0;

	for (; isdigit((unsigned char)**p); (*p)++, digits++) {
		v = v * 10 + (**p - '0');
		if (v >= CPUSET_MAX)
			return -1;
	}
	*out = v;
	return digits ? 0 : -1;
}

int cpuset_parse(const char *text, struct cpuset *set, struct err *e)
{
	const char *p = text;

	memset(set, 0, sizeof(*set));
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return 0;
	for (;;) {
		int lo, hi;

		while (*p == ' ')
			p++;
		if (cpu_number(&p, &lo) < 0)
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if (cpu_number(&p, &hi) < 0 || hi < lo)
				goto bad;
		}
		for (int c = lo; c <= hi; c++)
			cpuset_add(set, c);
		while (*p == ' ')
			p++;
		if (*p != ',')
			break;
		p++;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return 0;
bad:
	return err_set(e, ERR_INPUT, 0,
		       "expected a CPU list such as '0-3,8' (CPUs below %d), got '%.60s'",
		       CPUSET_MAX, text);
}

char *cpuset_format(const struct cpuset *set)
{
	size_t cap = 64, len = 0;
	char *out = xmalloc(cap);

	out[0] = '\0';
	for (int c = 0; c < CPUSET_MAX; c++) {
		int hi = c;

		if (!cpuset_has(set, c))
			continue;
		while (hi + 1 < CPUSET_MAX && cpuset_has(set, hi + 1))
			hi++;
		if (cap - len < 24) {
			cap *= 2;
			out = xrealloc(out, cap);
		}
		len += (size_t)snprintf(out + len, cap - len, hi > c ? "%s%d-%d" : "%s%d",
					len ? "," : "", c, hi);
		c = hi;
	}
	return out;
}
