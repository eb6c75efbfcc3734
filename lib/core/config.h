/* SPDX-License-Identifier: Apache-2.0 */
/* config - YAML or JSON configuration files, read with libyaml into jansson
 * values, with the position of every value kept for messages.
 *
 * Scalars follow the YAML 1.2 core schema (yaml.org/spec/1.2.2 10.3):
 * null/~/empty -> null, true/false (any of true, True, TRUE) -> boolean,
 * [-+]?[0-9]+, 0o.., 0x.. -> integer, decimal and exponent forms -> real,
 * everything else and every quoted scalar -> string.  `.inf` and `.nan`
 * are refused (JSON cannot carry them), and so are duplicate keys,
 * non-scalar keys, merge keys (`<<`), several documents in one file and
 * tags other than the core ones.  Anchors and aliases are resolved by copy.
 * Since JSON is YAML, one loader reads both.
 */
#ifndef KILO_CONFIG_H
#define KILO_CONFIG_H

#include <jansson.h>
#include <stdint.h>

#include "core/err.h"

struct config_pos;

struct config {
	char *name;   /* file path or "<string>", for messages */
	json_t *root; /* the document's top-level value (an object) */
	int empty;    /* the file held no document, or null: root is {} */
	struct config_pos *pos;
	size_t npos, cappos;
};

/* Load the YAML or JSON file at path into *c.  Returns 0, or -1 with e set:
 * ERR_INPUT "<path>:<line>:<column>: <message>" for syntax and schema
 * errors (the top level must be a mapping), ERR_USAGE when the file is
 * missing or not readable (the caller named it: exit 2), ERR_SYSTEM when
 * the file cannot be read.  Release with config_release() either way. */
int config_load(struct config *c, const char *path, struct err *e);

/* Same, from a NUL-terminated string; name is used in messages. */
int config_load_string(struct config *c, const char *text, const char *name, struct err *e);

/* Free everything held by *c (safe on a zeroed or failed struct). */
void config_release(struct config *c);

/* The 1-based line and column where value v (a node of c->root) begins.
 * Returns 0, or -1 when v is not from this file. */
int config_where(const struct config *c, const json_t *v, long *line, long *col);

/* Typed getters with defaults.  obj is an object inside c->root (or NULL:
 * then the default is taken); ctx is its field path for messages
 * ("resourceUsedThresholdWithBE").  A missing key or null gives def.  A
 * value of the wrong type or out of range fails with ERR_INPUT:
 *   "<file>:<line>:<col>: <ctx>.<key>: expected an integer 0..100, got \"70%\""
 * Return 0 or -1. */
int config_int(const struct config *c, const json_t *obj, const char *ctx, const char *key,
	       int64_t def, int64_t min, int64_t max, int64_t *out, struct err *e);
int config_real(const struct config *c, const json_t *obj, const char *ctx, const char *key,
		double def, double min, double max, double *out, struct err *e);
int config_bool(const struct config *c, const json_t *obj, const char *ctx, const char *key,
		int def, int *out, struct err *e);
/* *out is borrowed from c (or is def). */
int config_str(const struct config *c, const json_t *obj, const char *ctx, const char *key,
	       const char *def, const char **out, struct err *e);
/* As config_str() for a secret (a token, a key, a password): a value that
 * is not a string is refused naming the field and the expected type only,
 * never the value (threat-model.md: secrets appear in no message). */
int config_secret(const struct config *c, const json_t *obj, const char *ctx, const char *key,
		  const char **out, struct err *e);
/* One of choices[] (NULL-terminated); *out is the index, def when absent. */
int config_enum(const struct config *c, const json_t *obj, const char *ctx, const char *key,
		const char *const *choices, int def, int *out, struct err *e);
/* The object at key (borrowed), NULL when absent; -1 when not an object. */
int config_obj(const struct config *c, const json_t *obj, const char *ctx, const char *key,
	       json_t **out, struct err *e);

/* Fail with a value that has the right type but breaks a rule the getters
 * above cannot check (a lower bound above the upper, a duplicate id, a
 * malformed list): ERR_INPUT "<ctx>.<key>: expected <why>, got <value>"
 * (jsonio_bad_value(): "got nothing" when obj.key is absent), prefixed with
 * "<file>:<line>:<col>: " at obj.key's position, or with "<file>: " when
 * that is unknown (the key is absent, or c is NULL: no prefix).  Returns -1
 * for `return config_reject(...)`. */
int config_reject(const struct config *c, const json_t *obj, const char *ctx, const char *key,
		  const char *why, struct err *e);

/* The 1-based line and column of key in object obj (a mapping of c->root
 * read from the file).  Returns 0, or -1 when obj.key is not from this file
 * (no such key, or obj a copy made for an alias). */
int config_where_key(const struct config *c, const json_t *obj, const char *key, long *line,
		     long *col);

/* Names longer than this (bytes) are never compared, so never suggested. */
#define CONFIG_DISTANCE_MAX 64

/* The optimal-string-alignment distance between a and b: the fewest byte
 * insertions, deletions, substitutions and swaps of two adjacent bytes that
 * turn one into the other (Damerau 1964; no substring is edited twice),
 * ASCII letters compared case-insensitively ("rmurls" is 0 from "rmUrls").
 * Returns 0.., or -1 when either is longer than CONFIG_DISTANCE_MAX bytes. */
int config_distance(const char *a, const char *b);

enum config_strictness {
	CONFIG_STRICT,  /* kilo's own fields: an unknown one is an error */
	CONFIG_LENIENT, /* another program's schema (Koordinator's NodeSLO): an
			 * unknown field is a warning unless it looks like a typo */
};

/* Check the keys of obj (an object in c->root; anything else passes)
 * against known[] (the fields read) and ignored[] (fields of the schema
 * that are not read; may be NULL), both NULL-terminated.  A key in neither
 * list is "near" a listed name when config_distance() is at most 2 and
 * below the length of the shorter of the two (so "ab" is not near "id").
 *   CONFIG_STRICT: the first unknown key in file order fails.
 *   CONFIG_LENIENT: the first near key fails; every other unknown key is
 *   appended to warnings (when not NULL) as "<ctx>.<key>": a newer
 *   Koordinator's field must not stop a node's tools across a fleet.
 * The failure is ERR_INPUT "<file>:<line>:<col>: <ctx>.<key>: unknown field"
 * with " (did you mean <name>?)" for the nearest listed name, at the key's
 * position ("<file>: " when unknown).  A key that is not a plain name
 * (letters, digits, "_-./", at most CONFIG_DISTANCE_MAX bytes) is shown as
 * a JSON string (ASCII, escaped) of its first CONFIG_DISTANCE_MAX bytes.
 * Returns 0 or -1. */
int config_fields(const struct config *c, const json_t *obj, const char *ctx,
		  const char *const *known, const char *const *ignored, enum config_strictness mode,
		  json_t *warnings, struct err *e);

#endif
