/* SPDX-License-Identifier: Apache-2.0 */
/* docmeta - the "metadata" member every kilo document carries
 * ({"node":..., "timestamp":...}, SCHEMAS.md; core/jsonio's
 * jsonio_metadata() writes it), read back by the document modules.  Pure.
 */
#ifndef KILO_DOCMETA_H
#define KILO_DOCMETA_H

#include <jansson.h>
#include <stdint.h>

#include "core/err.h"

/* Read doc's metadata: *node a new copy of metadata.node (NULL when absent
 * or null), *timestamp_ms metadata.timestamp (RFC 3339, ms since the
 * epoch; -1 when absent).  kind names the document in messages.  Returns
 * 0, or -1 with e set (ERR_INPUT, "<kind>.metadata.timestamp: expected an
 * RFC 3339 time, got ...") and *node NULL. */
int docmeta_from_json(const json_t *doc, const char *kind, char **node, int64_t *timestamp_ms,
		      struct err *e);

#endif
