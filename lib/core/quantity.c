// SPDX-License-Identifier: Apache-2.0
/* quantity - Kubernetes resource.Quantity (see quantity.h) */
#include "core/quantity.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/jsonio.h"

typedef unsigned __int128 u128;

#define NANO (-9)
#define MAX_DIGITS 38                /* 10^38 < 2^128 */
#define BINARY_CAP ((u128)INT64_MAX) /* quantity.go maxAllowed */
#define GIGA UINT64_C(1000000000)

/* A number without any digit parses on the reference's fast path (as zero)
 * only while its precision estimate stays >= 0: for binary suffixes up to
 * Ti (2^40), for decimal ones down to nano (quantity.go ParseQuantity). */
#define NODIGIT_MAX_BINARY_EXP 40

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static u128 pow10_u128(int n)
{
	u128 p = 1;

	while (n-- > 0)
		p *= 10;
	return p;
}

static int ndigits(u128 m)
{
	int n = 1;

	while (m >= 10) {
		m /= 10;
		n++;
	}
	return n;
}

/* An exact value: magnitude m * 10^scale, scale kept wide so that
 * normalising a hand-built struct quantity cannot overflow it. */
struct dec {
	u128 m;
	int64_t scale;
};

/* Move the trailing decimal zeros of the mantissa into the scale. */
static struct dec normalize(u128 m, int64_t scale)
{
	struct dec d;
	uint64_t v;

	for (; m > UINT64_MAX && m % 10 == 0; scale++)
		m /= 10;
	if (m <= UINT64_MAX) {
		for (v = (uint64_t)m; v != 0 && v % 10 == 0; scale++)
			v /= 10;
		m = v;
	}
	d.m = m;
	d.scale = m == 0 ? 0 : scale;
	return d;
}

static struct dec value_of(const struct quantity *q)
{
	return normalize(q->mantissa, q->scale);
}

/* Fill *q with sign, m * 10^scale normalised, and format f.  Returns -1
 * when the scale leaves int32. */
static int set_value(struct quantity *q, int negative, u128 m, int64_t scale,
		     enum quantity_format f)
{
	struct dec d = normalize(m, scale);

	if (d.scale > INT32_MAX || d.scale < INT32_MIN)
		return -1;
	q->mantissa = d.m;
	q->scale = (int32_t)d.scale;
	q->negative = negative && d.m != 0;
	q->format = f;
	return 0;
}

/* The pieces of a quantity string (quantity.go parseQuantityString). */
struct scan {
	int negative;
	int has_digit;    /* at least one digit, leading zeros included */
	const char *intd; /* integer digits after the leading zeros */
	size_t nint;
	const char *frac; /* fraction digits */
	size_t nfrac;
	const char *suffix; /* letters of eEinumkKMGTP, then [+-]?[0-9]* */
	size_t nsuffix;
};

/* Returns the offset of the first byte that does not fit, or n when all do. */
static size_t scan(const char *s, size_t n, struct scan *sc)
{
	const char *p = s, *end = s + n;

	memset(sc, 0, sizeof(*sc));
	if (p < end && (*p == '+' || *p == '-'))
		sc->negative = *p++ == '-';
	for (; p < end && *p == '0'; p++)
		sc->has_digit = 1;
	for (sc->intd = p; p < end && is_digit(*p); p++)
		sc->has_digit = 1;
	sc->nint = (size_t)(p - sc->intd);
	if (p < end && *p == '.') {
		for (sc->frac = ++p; p < end && is_digit(*p); p++)
			sc->has_digit = 1;
		sc->nfrac = (size_t)(p - sc->frac);
	}
	for (sc->suffix = p; p < end && *p && strchr("eEinumkKMGTP", *p); p++)
		;
	if (p < end && (*p == '+' || *p == '-'))
		p++;
	while (p < end && is_digit(*p))
		p++;
	sc->nsuffix = (size_t)(p - sc->suffix);
	return (size_t)(p - s);
}

static const char *const decimal_suffix[] = { "n", "u", "m", "", "k", "M", "G", "T", "P", "E" };
static const char *const binary_suffix[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };

enum suffix_kind { SUFFIX_BAD, SUFFIX_RANGE, SUFFIX_DECIMAL, SUFFIX_BINARY, SUFFIX_EXPONENT };

/* suffix.go interpret(): exact decimal suffix, exact binary suffix, else
 * e|E and a signed int64 (strconv.ParseInt(s, 10, 64)).  *exp receives the
 * power of 10 (decimal, exponent) or of 2 (binary). */
static enum suffix_kind interpret(const char *s, size_t n, int64_t *exp)
{
	size_t i;
	int neg = 0;
	uint64_t v = 0;

	for (i = 0; i < sizeof(decimal_suffix) / sizeof(decimal_suffix[0]); i++) {
		if (strlen(decimal_suffix[i]) == n && memcmp(decimal_suffix[i], s, n) == 0) {
			*exp = 3 * (int64_t)i + NANO;
			return SUFFIX_DECIMAL;
		}
	}
	for (i = 1; i < sizeof(binary_suffix) / sizeof(binary_suffix[0]); i++) {
		if (n == 2 && memcmp(binary_suffix[i], s, 2) == 0) {
			*exp = 10 * (int64_t)i;
			return SUFFIX_BINARY;
		}
	}
	if (n < 2 || (s[0] != 'e' && s[0] != 'E'))
		return SUFFIX_BAD;
	i = 1;
	if (s[i] == '+' || s[i] == '-')
		neg = s[i++] == '-';
	if (i == n)
		return SUFFIX_BAD;
	for (; i < n; i++) {
		if (!is_digit(s[i]))
			return SUFFIX_BAD;
		if (v <= (uint64_t)INT32_MAX + 1) /* saturates beyond int32 */
			v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > (uint64_t)INT32_MAX + neg)
		return SUFFIX_RANGE;
	*exp = neg ? -(int64_t)v : (int64_t)v;
	return SUFFIX_EXPONENT;
}

/* digits * 10^(exp - nfrac), rounded away from zero to nano. */
static const char *decimal_value(const struct scan *sc, int64_t exp, struct quantity *q,
				 enum quantity_format f)
{
	size_t n = sc->nint + sc->nfrac, kept = n, i;
	int64_t scale = exp - (int64_t)sc->nfrac, zeros = 0, sig = 0;
	int sticky = 0;
	u128 m = 0;

	if (scale < NANO) {
		uint64_t cut = (uint64_t)(NANO - scale);

		kept = cut >= n ? 0 : n - (size_t)cut;
		scale = NANO;
	}
	for (i = 0; i < n; i++) {
		char c = i < sc->nint ? sc->intd[i] : sc->frac[i - sc->nint];

		if (i >= kept) {
			sticky |= c != '0';
		} else if (c == '0') {
			zeros += m != 0; /* trailing zeros are kept in the scale */
		} else {
			sig += zeros + 1;
			if (sig > MAX_DIGITS)
				return "more than 38 significant digits";
			for (; zeros > 0; zeros--)
				m *= 10;
			m = m * 10 + (u128)(c - '0');
		}
	}
	if (sticky) {
		if (sig + zeros > MAX_DIGITS)
			return "more than 38 significant digits";
		for (; zeros > 0; zeros--)
			m *= 10;
		m++;
	}
	if (set_value(q, sc->negative, m, scale + zeros, f) < 0)
		return "exponent out of range";
	return NULL;
}

/* digits * 2^k / 10^nfrac, rounded away from zero to nano, capped at 2^63-1.
 * The fraction is multiplied by 2^k digit by digit from the right, so that
 * any length is exact: a digit times 2^60 plus the carry stays below 2^64. */
static void binary_value(const struct scan *sc, int k, struct quantity *q)
{
	static const uint64_t nano_weight[9] = { 100000000, 10000000, 1000000, 100000, 10000,
						 1000,      100,      10,      1 };
	u128 whole = 0, nano = 0;
	uint64_t carry = 0, nanofrac = 0;
	int sticky = 0;
	size_t i;

	if (sc->nint <= 19) {
		for (i = 0; i < sc->nint; i++)
			whole = whole * 10 + (u128)(sc->intd[i] - '0');
		whole <<= k;
		for (i = sc->nfrac; i-- > 0;) {
			uint64_t t = ((uint64_t)(sc->frac[i] - '0') << k) + carry;

			carry = t / 10;
			if (i >= 9)
				sticky |= t % 10 != 0;
			else
				nanofrac += t % 10 * nano_weight[i];
		}
		whole += carry;
		if (whole <= BINARY_CAP)
			nano = whole * GIGA + nanofrac + (uint64_t)sticky;
	}
	if (sc->nint > 19 || whole > BINARY_CAP || nano > BINARY_CAP * GIGA)
		set_value(q, sc->negative, BINARY_CAP, 0, QUANTITY_BINARY_SI);
	else
		set_value(q, sc->negative, nano, NANO, QUANTITY_BINARY_SI);
	/* Strictly between 0 and 1: decimal, "to avoid rounding" (ParseQuantity). */
	if (q->mantissa != 0 && q->scale < 0 && ndigits(q->mantissa) <= -q->scale)
		q->format = QUANTITY_DECIMAL_SI;
}

static int parse_n(const char *s, size_t n, struct quantity *q, struct err *e)
{
	struct scan sc;
	size_t bad, i;
	int64_t exp = 0;
	enum suffix_kind kind = SUFFIX_BAD;
	const char *why = NULL;
	char shown[65], what[48];

	memset(q, 0, sizeof(*q));
	if (n == 0) {
		why = "empty";
	} else if ((bad = scan(s, n, &sc)) < n) {
		snprintf(what, sizeof(what), "unexpected '%c' at byte %zu",
			 s[bad] >= ' ' && s[bad] < 127 ? s[bad] : '?', bad);
		why = what;
	} else if ((kind = interpret(sc.suffix, sc.nsuffix, &exp)) == SUFFIX_BAD) {
		snprintf(what, sizeof(what), "unknown suffix '%.*s'",
			 (int)(sc.nsuffix > 16 ? 16 : sc.nsuffix), sc.suffix);
		why = what;
	} else if (kind == SUFFIX_RANGE) {
		why = "exponent out of range";
	} else if (!sc.has_digit) {
		/* "+", ".", "m", "Ki" are zero; "Pi", "e-10" are refused. */
		if (kind == SUFFIX_BINARY ? exp > NODIGIT_MAX_BINARY_EXP : exp < NANO)
			why = "no digits";
		else
			q->format = kind == SUFFIX_BINARY     ? QUANTITY_BINARY_SI
				    : kind == SUFFIX_EXPONENT ? QUANTITY_DECIMAL_EXPONENT
							      : QUANTITY_DECIMAL_SI;
	} else if (kind == SUFFIX_BINARY) {
		binary_value(&sc, (int)exp, q);
	} else {
		why = decimal_value(&sc, exp, q,
				    kind == SUFFIX_EXPONENT ? QUANTITY_DECIMAL_EXPONENT
							    : QUANTITY_DECIMAL_SI);
	}
	if (!why)
		return 0;
	memset(q, 0, sizeof(*q));
	for (i = 0; i < n && i < sizeof(shown) - 1; i++)
		shown[i] = s[i] >= ' ' && s[i] < 127 ? s[i] : '?';
	shown[i] = '\0';
	return err_set(e, ERR_INPUT, 0, "invalid quantity '%s': %s", shown, why);
}

int quantity_parse(const char *s, struct quantity *q, struct err *e)
{
	return parse_n(s, strlen(s), q, e);
}

/* Go's unicode.IsSpace beyond ASCII, in UTF-8 (strings.TrimSpace). */
static const char *const unicode_space[] = {
	"\xc2\x85",     "\xc2\xa0",     "\xe1\x9a\x80", "\xe2\x80\x80", "\xe2\x80\x81",
	"\xe2\x80\x82", "\xe2\x80\x83", "\xe2\x80\x84", "\xe2\x80\x85", "\xe2\x80\x86",
	"\xe2\x80\x87", "\xe2\x80\x88", "\xe2\x80\x89", "\xe2\x80\x8a", "\xe2\x80\xa8",
	"\xe2\x80\xa9", "\xe2\x80\xaf", "\xe2\x81\x9f", "\xe3\x80\x80",
};

/* Length of the white-space character at the start (at_end 0) or at the end
 * (at_end 1) of s[0..n), or 0. */
static size_t space_len(const char *s, size_t n, int at_end)
{
	char c = n > 0 ? s[at_end ? n - 1 : 0] : '\0';
	size_t i, len;

	if (c != '\0' && strchr("\t\n\v\f\r ", c))
		return 1;
	for (i = 0; i < sizeof(unicode_space) / sizeof(unicode_space[0]); i++) {
		len = strlen(unicode_space[i]);
		if (n >= len && memcmp(at_end ? s + n - len : s, unicode_space[i], len) == 0)
			return len;
	}
	return 0;
}

int quantity_from_json(const json_t *v, struct quantity *q, struct err *e)
{
	char num[40];
	const char *s;
	size_t n, len;
	double d;
	int prec;

	switch (json_typeof(v)) {
	case JSON_NULL:
		memset(q, 0, sizeof(*q));
		return 0;
	case JSON_STRING:
		s = json_string_value(v);
		n = json_string_length(v);
		if (memchr(s, '\0', n))
			break;
		while ((len = space_len(s, n, 0)) > 0) {
			s += len;
			n -= len;
		}
		while ((len = space_len(s, n, 1)) > 0)
			n -= len;
		return parse_n(s, n, q, e);
	case JSON_INTEGER:
		snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return quantity_parse(num, q, e);
	case JSON_REAL:
		/* The shortest "%e" form that reads back as the same double;
		 * 17 significant digits (%.16e) always do. */
		d = json_real_value(v);
		for (prec = 0;; prec++) {
			snprintf(num, sizeof(num), "%.*e", prec, d);
			if (prec == 16 || strtod(num, NULL) == d)
				break;
		}
		if (quantity_parse(num, q, e) < 0)
			return -1;
		q->format = QUANTITY_DECIMAL_SI;
		return 0;
	default:
		break;
	}
	{
		cleanup_free char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

		if (text && strlen(text) > 80)
			memcpy(text + 74, "...", 4);
		return err_set(e, ERR_INPUT, 0, "expected a quantity (string or number), got %s",
			       text ? text : "?");
	}
}

int quantity_get(const json_t *obj, const char *ctx, const char *key, struct quantity *out,
		 struct err *e)
{
	json_t *v = json_object_get(obj, key);
	struct quantity q;

	if (!v)
		return 0;
	if (!json_is_string(v) && !json_is_number(v) && !json_is_null(v))
		return jsonio_bad_value(e, ctx, key, "a quantity (string or number)", v);
	if (quantity_from_json(v, &q, e) < 0)
		return err_wrap(e, "%s%s%s", ctx ? ctx : "", ctx && *ctx ? "." : "", key);
	*out = q;
	return 1;
}

/* Decimal digits of m at p; returns the end. */
static char *put_digits(char *p, u128 m)
{
	char tmp[40];
	int n = 0;

	if (m <= UINT64_MAX) {
		uint64_t v = (uint64_t)m;

		do
			tmp[n++] = (char)('0' + v % 10);
		while ((v /= 10) != 0);
	} else {
		do
			tmp[n++] = (char)('0' + (unsigned)(m % 10));
		while ((m /= 10) != 0);
	}
	while (n > 0)
		*p++ = tmp[--n];
	return p;
}

char *quantity_format(const struct quantity *q, char buf[static QUANTITY_STR_MAX])
{
	struct dec d = value_of(q);
	char *p = buf;
	enum quantity_format f = q->format;
	int64_t exp;
	int r, n = 0;
	u128 w;

	if (d.m == 0) {
		memcpy(buf, "0", 2);
		return buf;
	}
	if (q->negative)
		*p++ = '-';
	if (f == QUANTITY_BINARY_SI && d.scale >= 0 && d.scale <= MAX_DIGITS &&
	    d.m <= ~(u128)0 / pow10_u128((int)d.scale)) {
		w = d.m * pow10_u128((int)d.scale);
		if (w >= 1024) {
			for (; n < 6 && w % 1024 == 0; n++)
				w /= 1024;
			p = put_digits(p, w);
			memcpy(p, binary_suffix[n], strlen(binary_suffix[n]) + 1);
			return buf;
		}
	}
	if (f == QUANTITY_BINARY_SI)
		f = QUANTITY_DECIMAL_SI;
	/* Lower the exponent to a multiple of 3 (amount.go AsCanonicalBytes). */
	r = (int)(((d.scale % 3) + 3) % 3);
	exp = d.scale - r;
	p = put_digits(p, d.m);
	for (; r > 0; r--)
		*p++ = '0';
	if (f == QUANTITY_DECIMAL_SI && exp >= NANO && exp <= 18)
		memcpy(p, decimal_suffix[(exp - NANO) / 3],
		       strlen(decimal_suffix[(exp - NANO) / 3]) + 1);
	else if (exp != 0)
		snprintf(p, (size_t)(buf + QUANTITY_STR_MAX - p), "e%" PRId64, exp);
	else
		*p = '\0';
	return buf;
}

static struct quantity from_scaled(int64_t v, int32_t scale, enum quantity_format f)
{
	struct quantity q;
	uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	set_value(&q, v < 0, mag, scale, f);
	return q;
}

struct quantity quantity_from_int(int64_t v, enum quantity_format f)
{
	return from_scaled(v, 0, f);
}

struct quantity quantity_from_milli(int64_t v, enum quantity_format f)
{
	return from_scaled(v, -3, f);
}

int quantity_sign(const struct quantity *q)
{
	return q->mantissa == 0 ? 0 : q->negative ? -1 : 1;
}

int quantity_cmp(const struct quantity *a, const struct quantity *b)
{
	struct dec x = value_of(a), y = value_of(b);
	int sa = quantity_sign(a), sb = quantity_sign(b), c;
	int64_t ox = ndigits(x.m) + x.scale, oy = ndigits(y.m) + y.scale;

	if (sa != sb || sa == 0)
		return sa < sb ? -1 : sa > sb;
	/* More digits before the point is bigger; with as many, align the
	 * mantissas (both then have at most 38 digits). */
	if (ox != oy) {
		c = ox < oy ? -1 : 1;
	} else {
		if (x.scale > y.scale)
			x.m *= pow10_u128((int)(x.scale - y.scale));
		else
			y.m *= pow10_u128((int)(y.scale - x.scale));
		c = (x.m > y.m) - (x.m < y.m);
	}
	return sa < 0 ? -c : c;
}

/* q / 10^unit as int64, rounded toward +infinity (ceil) or -infinity. */
static int to_int64(const struct quantity *q, int unit, int ceil, int64_t *out, struct err *e)
{
	struct dec d = value_of(q);
	int negative = quantity_sign(q) < 0, rem = 0, over = 0;
	int64_t t = d.scale - unit;
	u128 mag, p, lim = negative ? (u128)INT64_MAX + 1 : (u128)INT64_MAX;
	char shown[QUANTITY_STR_MAX];

	if (t >= 0) {
		over = t > MAX_DIGITS || d.m > lim / pow10_u128((int)t);
		mag = over ? 0 : d.m * pow10_u128((int)t);
	} else if (t < -MAX_DIGITS) {
		mag = 0;
		rem = d.m != 0;
	} else {
		p = pow10_u128((int)-t);
		mag = d.m / p;
		rem = d.m % p != 0;
	}
	if (rem && ceil != negative)
		mag++;
	if (over || mag > lim)
		return err_set(e, ERR_INPUT, 0, "quantity '%s' does not fit int64 %s",
			       quantity_format(q, shown), unit ? "milli-units" : "units");
	/* -2^63 is the one magnitude that int64 holds only negated. */
	*out = negative && mag > 0 ? -(int64_t)(mag - 1) - 1 : (int64_t)mag;
	return 0;
}

int quantity_milli_ceil(const struct quantity *q, int64_t *out, struct err *e)
{
	return to_int64(q, -3, 1, out, e);
}

int quantity_milli_floor(const struct quantity *q, int64_t *out, struct err *e)
{
	return to_int64(q, -3, 0, out, e);
}

int quantity_value_ceil(const struct quantity *q, int64_t *out, struct err *e)
{
	return to_int64(q, 0, 1, out, e);
}

int quantity_value_floor(const struct quantity *q, int64_t *out, struct err *e)
{
	return to_int64(q, 0, 0, out, e);
}

int quantity_get_value(const json_t *obj, const char *ctx, const char *key, int round_up,
		       int64_t *out, struct err *e)
{
	struct quantity q;
	int ret;

	*out = 0;
	if (!json_is_object(obj))
		return 0;
	ret = quantity_get(obj, ctx, key, &q, e);
	if (ret <= 0)
		return ret;
	if ((round_up ? quantity_value_ceil(&q, out, e) : quantity_value_floor(&q, out, e)) < 0)
		return err_wrap(e, "%s.%s", ctx, key);
	return 0;
}
