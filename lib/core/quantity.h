/* SPDX-License-Identifier: Apache-2.0 */
/* quantity - Kubernetes resource.Quantity, parsed exactly as the API server
 * parses it and printed in canonical form.
 *
 * Source: kubernetes/apimachinery pkg/api/resource (quantity.go
 * ParseQuantity, parseQuantityString, CanonicalizeBytes, UnmarshalJSON;
 * suffix.go; amount.go), as summarised in k8s-conventions.md section 4.
 *
 * Grammar: [+-] number suffix, number = digits | digits. | .digits |
 * digits.digits, suffix = decimal SI (n u m "" k M G T P E), binary SI
 * (Ki Mi Gi Ti Pi Ei) or an exponent (e|E followed by a signed integer).
 * No whitespace.  "1K", "1ki", "1i", "1e" are refused; "E" alone is exa.
 * The value is rounded away from zero to a multiple of 10^-9 (nano); a
 * binary-SI value is capped at 2^63-1 in magnitude and one strictly between
 * 0 and 1 becomes decimal SI.  Decimal values are not capped.
 *
 * Where this differs from the reference, on purpose:
 *  - The API server may echo a non-canonical input string verbatim ("1E3",
 *    "+1", "1.500"); quantity_format() always prints the canonical form.
 *  - A decimal-SI value whose exponent has no suffix (beyond 10^18) prints
 *    in exponent form ("1000E" -> "1e21"), as current apimachinery does;
 *    older releases printed "1".
 *  - Exponents outside int32 are refused (the reference wraps them to 32
 *    bits), and so are values with more than 38 significant digits after
 *    rounding to nano (the reference keeps arbitrary precision).
 * Reference quirks that are kept: a number without any digit is zero ("+",
 * ".", "m", "Ki", "e3" all parse as 0) except where the reference takes its
 * slow path and refuses it ("Pi", "Ei", "e-10").
 *
 * Compare quantities with quantity_cmp(), never as strings.
 */
#ifndef KILO_QUANTITY_H
#define KILO_QUANTITY_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

enum quantity_format {
	QUANTITY_DECIMAL_SI = 0,   /* 12M = 12 * 10^6; also no suffix */
	QUANTITY_BINARY_SI,        /* 12Mi = 12 * 2^20 */
	QUANTITY_DECIMAL_EXPONENT, /* 12e6 */
};

/* value = (negative ? -1 : 1) * mantissa * 10^scale, exactly. */
struct quantity {
	unsigned __int128 mantissa;  /* magnitude without trailing decimal zeros; 0 for zero */
	int32_t scale;               /* >= -9 (nano); 0 for zero */
	int negative;                /* 1 when the value is below zero, never for zero */
	enum quantity_format format; /* remembered from the suffix, used by quantity_format() */
};

/* Longest canonical string, with its NUL. */
#define QUANTITY_STR_MAX 64

/* Parse s ("1.5Gi", "250m", "4", "1e3").  Returns 0 and fills *q, or -1 with
 * e set (ERR_INPUT "invalid quantity '<s>': <why>", s cut to 64 bytes and
 * non-printable bytes shown as '?'). */
int quantity_parse(const char *s, struct quantity *q, struct err *e);

/* Decode a JSON value as the API server's UnmarshalJSON does: a string is
 * trimmed of leading and trailing (Unicode) white space, then parsed; an
 * integer is parsed from its digits; JSON null is zero.  A real (1.5, 1e3)
 * is parsed from its shortest round-trip decimal form, so its value is
 * exact for up to 15 significant digits but its format is decimal SI
 * ("1e3" -> 1k).  jansson has already decoded string escapes, which the
 * reference does not ("\u0031" is 1 here, an error there).  Returns 0, or -1
 * with e set (ERR_INPUT: "expected a quantity (string or number), got <json>"
 * or the quantity_parse() message). */
int quantity_from_json(const json_t *v, struct quantity *q, struct err *e);

/* The jsonio_get_* style getter: obj[key] through quantity_from_json().
 * Returns 1 and fills *out when the key is present (JSON null gives zero),
 * 0 when it is absent (out untouched), -1 with e set ("<ctx>.<key>: ...")
 * on a bad value.  ctx names obj in messages ("Node.status.allocatable"). */
int quantity_get(const json_t *obj, const char *ctx, const char *key, struct quantity *out,
		 struct err *e);

/* obj[key] through quantity_get() as whole units, rounded up (round_up 1)
 * or down; 0 when the key is absent or obj is not an object.  Returns 0, or
 * -1 with e set ("<ctx>.<key>: ..."). */
int quantity_get_value(const json_t *obj, const char *ctx, const char *key, int round_up,
		       int64_t *out, struct err *e);

/* Canonical form of q into buf (k8s-conventions.md 4.2): "0" for zero;
 * binary SI as the integer mantissa with Ki..Ei when the value is an integer
 * of magnitude >= 1024, else decimal rules; decimal SI / exponent as an
 * integer mantissa with the exponent lowered to a multiple of 3 and an SI
 * suffix or "e<exp>".  No '+', no leading zeros, no decimal point.
 * Returns buf. */
char *quantity_format(const struct quantity *q, char buf[static QUANTITY_STR_MAX]);

/* v whole units in format f (NewQuantity): (1000, binary) prints "1k",
 * (1024, binary) "1Ki", (4096000, decimal) "4096k". */
struct quantity quantity_from_int(int64_t v, enum quantity_format f);

/* v thousandths of a unit (NewMilliQuantity): 1500 prints "1500m", 1000 "1". */
struct quantity quantity_from_milli(int64_t v, enum quantity_format f);

/* -1, 0 or 1 as a < b, a == b, a > b, by value (format is ignored). */
int quantity_cmp(const struct quantity *a, const struct quantity *b);

/* -1, 0 or 1 as q is below, at or above zero. */
int quantity_sign(const struct quantity *q);

/* The value in milli-units (cores -> milli-cores) or whole units (bytes,
 * counts) as int64, rounded as named: _ceil toward +infinity, _floor toward
 * -infinity.  For values >= 0, _ceil equals the reference's MilliValue() and
 * Value() (which round away from zero).  Returns 0, or -1 with e set
 * (ERR_INPUT "quantity '<q>' does not fit int64 milli-units" / "... units")
 * where the reference would silently overflow. */
int quantity_milli_ceil(const struct quantity *q, int64_t *out, struct err *e);
int quantity_milli_floor(const struct quantity *q, int64_t *out, struct err *e);
int quantity_value_ceil(const struct quantity *q, int64_t *out, struct err *e);
int quantity_value_floor(const struct quantity *q, int64_t *out, struct err *e);

#endif
