/* SPDX-License-Identifier: Apache-2.0 */
/* clock - wall and monotonic time, and RFC 3339 UTC timestamps.
 *
 * KILO_NOW (read with secure_getenv, so ignored when setuid) pins the wall
 * clock for golden tests and demos: an RFC 3339 UTC time or milliseconds
 * since the epoch; with anything else the real clock is used, and
 * clock_pin_invalid() says so (the CLI layer warns; this module never
 * prints).  Nothing else in the library reads the wall clock.
 */
#ifndef KILO_CLOCK_H
#define KILO_CLOCK_H

#include <stddef.h>
#include <stdint.h>

/* Milliseconds since the Unix epoch (CLOCK_REALTIME, or KILO_NOW). */
int64_t clock_now_ms(void);

/* The value of KILO_NOW when it is set but is neither an RFC 3339 time nor
 * milliseconds (so ignored), else NULL.  Borrowed from the environment. */
const char *clock_pin_invalid(void);

/* Milliseconds from CLOCK_MONOTONIC, for elapsed times and polling. */
int64_t clock_mono_ms(void);

/* Sleep for ms milliseconds (restarted on EINTR). */
void clock_sleep_ms(int64_t ms);

/* Format ms since the epoch as RFC 3339 UTC with second precision
 * ("2026-11-29T16:00:00Z") into buf (at least 32 bytes).  Returns buf. */
char *clock_format_rfc3339(int64_t ms, char *buf, size_t size);

/* Parse "YYYY-MM-DDTHH:MM:SS[.frac](Z|+hh:mm|-hh:mm)" into ms since the
 * epoch.  Returns 0, or -1 when s is not such a time. */
int clock_parse_rfc3339(const char *s, int64_t *ms);

#endif
