/* SPDX-License-Identifier: Apache-2.0 */
/* containerid - YARN container ids, which kilo turns into path components.
 *
 * Grammar (YARN ContainerId.fromString; yarn-interfaces.md 5c):
 *   container_[e<epoch>_]<clusterTimestamp>_<appId>_<attempt>_<number>
 * digits only, with minimum widths epoch 2, appId 4, attempt 2, number 6
 * (YARN zero-pads to these and never prints fewer).  Anything else -- a sign,
 * a `/`, `..`, trailing bytes, a value beyond its Java type -- is refused, so
 * a valid id is always a safe single path component.
 */
#ifndef KILO_CONTAINERID_H
#define KILO_CONTAINERID_H

#include <jansson.h>
#include <stdint.h>

#include "core/err.h"

/* Longest id accepted; real ids are about 45 bytes. */
#define CONTAINERID_MAX 96

struct containerid {
	int64_t epoch;             /* 0 when the id has no e<epoch>_ part */
	int64_t cluster_timestamp; /* RM start time, ms since the epoch (Java long) */
	int32_t app_id;            /* application sequence number (Java int) */
	int32_t attempt;           /* application attempt (Java int) */
	int64_t number;            /* container number within the attempt, < 2^40 */
};

/* Parse and validate s.  Returns 0 and fills *id, or -1 with e set
 * (ERR_INPUT: "invalid container id '<s>': <why>", s cut to 100 bytes and
 * non-printable bytes shown as '?'). */
int containerid_parse(const char *s, struct containerid *id, struct err *e);

/* 1 when s is a valid container id, else 0. */
int containerid_valid(const char *s);

/* Format "application_<ts>_<appId %04d>" into buf; returns buf. */
char *containerid_application(const struct containerid *id, char *buf, int size);

/* The AM guess: 1 when the container number is 1 (the first container of
 * an attempt runs its ApplicationMaster).  After an RM restart numbering
 * continues from epoch << 40, so this may also protect a non-AM container
 * (SCHEMAS.md, ContainerList). */
int containerid_is_am(const struct containerid *id);

/* The "id" of a document item (ctx names the item: "ContainerList.items[3]"),
 * checked against the grammar and against the ids already in seen (a JSON
 * object used as a set; the id is added to it), so that one container is
 * never counted twice.  Returns 0 with *id (borrowed from item) and *out
 * filled, or -1 with e set (ERR_INPUT "<ctx>.id: expected a YARN container
 * id, got <json>" or "<ctx>.id: container '<id>' is listed twice"). */
int containerid_get_unique(const json_t *item, const char *ctx, json_t *seen, const char **id,
			   struct containerid *out, struct err *e);

#endif
