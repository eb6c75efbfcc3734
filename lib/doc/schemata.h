/* SPDX-License-Identifier: Apache-2.0 */
/* schemata - resctrl's text formats as values: schemata files (a group's
 * and the root's), the machine's info/ facts and the CPU vendor.
 *
 * Pure (no file, socket or process is touched here): the resctrl I/O
 * (kernel/resctrl.h) reads the kernel's info/ files, the root and group
 * schemata and /proc/cpuinfo as text and hands them over; this module
 * parses, compares and formats them.  What a group's schemata should be is
 * decided by decide/resctrlqos.h.
 *
 * Rules (kernel Documentation/arch/x86/resctrl.rst):
 *  - a schemata line is "<resource>:<id>=<value>;<id>=<value>..."; cache
 *    resources (L2, L3, L3CODE, L3DATA) hold hex CBMs, MB a decimal value;
 *    the kernel pads ("L3:0=00f", "MB:0= 30"), so values compare as numbers;
 *  - domain ids are whatever the root schemata lists (they may be sparse,
 *    e.g. 0-7 and 16-23 on AMD: koordinator issue #1777 compared by index).
 */
#ifndef KILO_SCHEMATA_H
#define KILO_SCHEMATA_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

#define SCHEMATA_NAME_MAX 16
#define SCHEMATA_MAX_CACHES 3 /* L3, or L3CODE and L3DATA with CDP */

enum schemata_vendor {
	SCHEMATA_VENDOR_OTHER, /* MB as a percent, like Intel */
	SCHEMATA_VENDOR_INTEL,
	SCHEMATA_VENDOR_AMD, /* AuthenticAMD and HygonGenuine */
};

struct schemata_domain {
	unsigned id;
	uint64_t value; /* CBM for caches, MB value otherwise */
};

struct schemata_line {
	char name[SCHEMATA_NAME_MAX]; /* "L3", "MB"... */
	size_t n;
	struct schemata_domain *dom;
};

/* A parsed schemata file.  Zero-initialise; schemata_release() frees. */
struct schemata {
	size_t n;
	struct schemata_line *line;
};

/* info/<cache>/ of one cache resource. */
struct schemata_cache {
	char name[SCHEMATA_NAME_MAX]; /* "L3", or "L3CODE"/"L3DATA" */
	uint64_t cbm_mask;            /* cbm_mask: the full, contiguous mask */
	int min_cbm_bits;             /* min_cbm_bits (0 on AMD) */
	int num_closids;              /* num_closids */
};

/* What the kernel tells about the machine (resctrl_detect() fills it). */
struct schemata_facts {
	enum schemata_vendor vendor;
	size_t ncache;
	struct schemata_cache cache[SCHEMATA_MAX_CACHES];
	int has_mb;            /* info/MB exists */
	int mb_min_bandwidth;  /* info/MB/min_bandwidth */
	int mb_bandwidth_gran; /* info/MB/bandwidth_gran */
	int mb_delay_linear;   /* info/MB/delay_linear (1 linear) */
	int mb_num_closids;    /* info/MB/num_closids */
	int mb_mbps;           /* mounted with mba_MBps: MB is in MiB/s */
	struct schemata root;  /* the root group's schemata: the domain ids */
};

/* The vendor from /proc/cpuinfo text (its first vendor_id line).
 * Unknown or missing: SCHEMATA_VENDOR_OTHER. */
enum schemata_vendor schemata_vendor_parse(const char *cpuinfo);

/* "intel", "amd" or "other". */
const char *schemata_vendor_name(enum schemata_vendor v);

/* Parse schemata text (lines "NAME:id=val;id=val", blanks around names and
 * values allowed, empty lines skipped) into *out (zeroed first; release it
 * even on error).  Returns 0, or -1 with e set (ERR_INPUT "line N: ..."). */
int schemata_parse(const char *text, struct schemata *out, struct err *e);

/* Free what schemata_parse(), schemata_add_uniform() or resctrlqos_plan()
 * allocated and zero *s. */
void schemata_release(struct schemata *s);

/* The line named name, or NULL.  Borrowed. */
const struct schemata_line *schemata_find(const struct schemata *s, const char *name);

/* Format one line without newline: "L3:0=f;1=f" (hex, lowercase, no leading
 * zeros, for caches), "MB:0=30;1=30".  New string. */
char *schemata_format_line(const struct schemata_line *l);

/* The lines of s that want also names (all of s when want is NULL),
 * formatted and joined by "\n" without a final newline.  New string. */
char *schemata_format(const struct schemata *s, const struct schemata *want);

/* 1 when have holds a line named like want whose value for every domain id
 * of want is numerically equal; 0 otherwise (a missing id differs). */
int schemata_line_equal(const struct schemata_line *want, const struct schemata *have);

/* Append to s a line named like->name holding v for every domain id of
 * like (the root group's line gives the ids: they may be sparse). */
void schemata_add_uniform(struct schemata *s, const struct schemata_line *like, uint64_t v);

#endif
