// SPDX-License-Identifier: Apache-2.0
/* num - decimal integers from text (see num.h) */
#include "core/num.h"

#include <errno.h>
#include <stdlib.h>

int num_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	char *end = NULL;
	long long v;

	if (!s || !*s || *s == ' ' || *s == '\t')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (!end || *end != '\0' || errno != 0 || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int num_add(int64_t a, int64_t b, int64_t *out)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return -1;
	*out = r;
	return 0;
}

int num_sub(int64_t a, int64_t b, int64_t *out)
{
	int64_t r;

	if (__builtin_sub_overflow(a, b, &r))
		return -1;
	*out = r;
	return 0;
}

int num_mul(int64_t a, int64_t b, int64_t *out)
{
	int64_t r;

	if (__builtin_mul_overflow(a, b, &r))
		return -1;
	*out = r;
	return 0;
}
