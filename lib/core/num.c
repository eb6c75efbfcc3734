// SPDX-License-Identifier: Apache-2.0
/* num - decimal integers from text (see num.h) */
#include "core/num.h"

/* The value of hex or decimal digit c in base, or -1. */
static int digit(char c, int base)
{
	int d = c >= '0' && c <= '9'   ? c - '0'
		: c >= 'a' && c <= 'f' ? c - 'a' + 10
		: c >= 'A' && c <= 'F' ? c - 'A' + 10
				       : -1;

	return d < base ? d : -1;
}

int num_scan_u64(const char **p, int base, uint64_t max, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	int d;

	if (digit(*s, base) < 0)
		return -1;
	for (; (d = digit(*s, base)) >= 0; s++) {
		if (v > (max - (uint64_t)d) / (uint64_t)base)
			return -1;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	*out = v;
	*p = s;
	return 0;
}

int num_scan_i64(const char **p, int64_t min, int64_t max, int64_t *out)
{
	const char *s = *p;
	int neg = *s == '-' && min < 0;
	uint64_t mag;
	int64_t v;

	s += neg;
	/* a magnitude up to 2^63 for INT64_MIN, 2^63 - 1 otherwise */
	if (num_scan_u64(&s, 10, (uint64_t)INT64_MAX + (uint64_t)neg, &mag) < 0)
		return -1;
	v = !neg ? (int64_t)mag : mag > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)mag;
	if (v < min || v > max)
		return -1;
	*out = v;
	*p = s;
	return 0;
}

int num_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	int64_t v;

	if (!s)
		return -1;
	if (*s == '+' && s[1] != '-')
		s++;
	if (num_scan_i64(&s, min, max, &v) < 0 || *s)
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
