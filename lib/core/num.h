/* SPDX-License-Identifier: Apache-2.0 */
/* num - decimal integers from text (option values, cgroup files), with
 * range checks and no silent wrap.
 */
#ifndef KILO_NUM_H
#define KILO_NUM_H

#include <stdint.h>

/* Parse s as one whole decimal integer (strtoll's grammar: an optional sign
 * and digits; no leading blank, nothing after it) in [min, max].  Returns 0
 * with *out set, or -1 (NULL, empty, not a number, out of int64 or of the
 * range), *out then unchanged. */
int num_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);

#endif
