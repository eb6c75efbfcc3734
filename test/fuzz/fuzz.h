/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz.h - shared helpers of the libFuzzer targets under test/fuzz/.
 *
 * Each fuzz_<target>.c defines LLVMFuzzerTestOneInput over one parser of
 * outside input.  Targets that cover several parsers of one module take the
 * first byte of the input as a selector (fuzz_select) and the rest as the
 * text; their seed files under corpus/<target>/ start with that byte.
 */
#ifndef KILO_FUZZ_H
#define KILO_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "core/jsonio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NUL-terminated copy of data (free it). */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Split off the selector byte: returns it modulo n and advances data. */
static inline unsigned fuzz_select(const uint8_t **data, size_t *size, unsigned n)
{
	unsigned sel;

	if (*size == 0)
		return 0;
	sel = (unsigned)(*data)[0] % n;
	(*data)++;
	(*size)--;
	return sel;
}

/* The input as a read-only stream, or NULL when it is empty (or out of
 * memory): the targets that read documents as a tool reads stdin. */
static inline FILE *fuzz_file(const uint8_t *data, size_t size)
{
	return size ? fmemopen((void *)data, size, "r") : NULL;
}

/* The input as a JSON object through kilo's own parser, or NULL. */
static inline json_t *fuzz_json(const uint8_t *data, size_t size)
{
	struct err e = { 0 };
	char *s = fuzz_str(data, size);
	json_t *doc = jsonio_parse(s, "fuzz", &e);

	free(s);
	return doc;
}

/* A failed parse must leave a one-line message. */
static inline void fuzz_check_err(const struct err *e)
{
	if (e->kind == ERR_NONE || e->msg[0] == '\0' || strchr(e->msg, '\n'))
		abort();
}

#endif
