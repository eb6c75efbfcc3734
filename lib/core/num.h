/* SPDX-License-Identifier: Apache-2.0 */
/* num - decimal integers from text (option values, cgroup files), with
 * range checks, and the checked arithmetic every sum, product and unit
 * conversion of input figures goes through (threat-model.md: integers from
 * any input use checked arithmetic; overflow is an error for that item,
 * never a wrap).
 */
#ifndef KILO_NUM_H
#define KILO_NUM_H

#include <stdint.h>

/* Parse s as one whole decimal integer: an optional sign ('+' or '-') and
 * digits, nothing before or after them (no white space: strtoll would skip
 * it), in [min, max].  Returns 0 with *out set, or -1 (NULL, empty, not a
 * number, out of int64 or of the range), *out then unchanged. */
int num_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);

/* Scan a decimal integer at *p, as the kernel and HTTP headers print them:
 * digits, after a '-' only when min < 0; no blank or '+' before them.  The
 * text after the digits is the caller's to judge (*p is left there).
 * Returns 0 with *out set and *p past the digits, or -1 (no digit, out of
 * int64 or of [min, max]) with *p and *out unchanged. */
int num_scan_i64(const char **p, int64_t min, int64_t max, int64_t *out);

/* num_scan_i64() for an unsigned integer in base 10 or 16 (hex digits of
 * either case, no "0x"; a cpu mask or a resctrl bitmask), up to max. */
int num_scan_u64(const char **p, int base, uint64_t max, uint64_t *out);

/* *out = a + b, a - b, a * b.  Return 0, or -1 when the exact result does
 * not fit in int64 (*out then unchanged). */
int num_add(int64_t a, int64_t b, int64_t *out);
int num_sub(int64_t a, int64_t b, int64_t *out);
int num_mul(int64_t a, int64_t b, int64_t *out);

#endif
