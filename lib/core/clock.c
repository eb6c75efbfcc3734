// SPDX-License-Identifier: Apache-2.0
/* clock - time helpers (see clock.h) */
#include "core/clock.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/num.h"

/* KILO_NOW: 1 with *ms when it pins the clock, 0 when unset or empty, -1
 * when set to something that is neither form. */
static int pinned(int64_t *ms)
{
	const char *pin = secure_getenv("KILO_NOW");
	int64_t v;

	if (!pin || !*pin)
		return 0;
	if (num_parse_i64(pin, 0, INT64_MAX, &v) == 0) {
		*ms = v;
		return 1;
	}
	return clock_parse_rfc3339(pin, ms) == 0 ? 1 : -1;
}

int64_t clock_now_ms(void)
{
	struct timespec ts;
	int64_t ms;

	if (pinned(&ms) > 0)
		return ms;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *clock_pin_invalid(void)
{
	int64_t ms;

	return pinned(&ms) < 0 ? secure_getenv("KILO_NOW") : NULL;
}

int64_t clock_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void clock_sleep_ms(int64_t ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000 };

	if (ms <= 0)
		return;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

char *clock_format_rfc3339(int64_t ms, char *buf, size_t size)
{
	time_t secs = (time_t)(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
	struct tm tm = { 0 };

	/* the year in four digits, as clock_parse_rfc3339() reads it (strftime's
	 * %Y writes the year 999 as "999") */
	gmtime_r(&secs, &tm);
	snprintf(buf, size, "%04lld-%02d-%02dT%02d:%02d:%02dZ", (long long)tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	return buf;
}

static int digits(const char *s, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

int clock_parse_rfc3339(const char *s, int64_t *ms)
{
	int year, mon, day, hour, min, sec, frac_ms = 0, off = 0;
	struct tm tm = { 0 };
	const char *p;
	time_t t;

	if (!s || strlen(s) < 20 || digits(s, 4, &year) || s[4] != '-' || digits(s + 5, 2, &mon) ||
	    s[7] != '-' || digits(s + 8, 2, &day) || (s[10] != 'T' && s[10] != 't') ||
	    digits(s + 11, 2, &hour) || s[13] != ':' || digits(s + 14, 2, &min) || s[16] != ':' ||
	    digits(s + 17, 2, &sec))
		return -1;
	if (mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 || min > 59 || sec > 60)
		return -1;
	p = s + 19;
	if (*p == '.') {
		int scale = 100;

		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		for (; isdigit((unsigned char)*p); p++) {
			frac_ms += (*p - '0') * scale;
			scale /= 10;
		}
	}
	if ((*p == 'Z' || *p == 'z') && p[1] == '\0') {
		off = 0;
	} else if ((*p == '+' || *p == '-') && strlen(p) == 6 && p[3] == ':') {
		int oh, om;

		if (digits(p + 1, 2, &oh) || digits(p + 4, 2, &om) || oh > 23 || om > 59)
			return -1;
		off = (oh * 60 + om) * 60 * (*p == '-' ? -1 : 1);
	} else {
		return -1;
	}
	tm.tm_year = year - 1900;
	tm.tm_mon = mon - 1;
	tm.tm_mday = day;
	tm.tm_hour = hour;
	tm.tm_min = min;
	tm.tm_sec = sec;
	t = timegm(&tm);
	*ms = ((int64_t)t - off) * 1000 + frac_ms;
	return 0;
}
