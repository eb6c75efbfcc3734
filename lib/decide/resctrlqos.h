/* SPDX-License-Identifier: Apache-2.0 */
/* resctrlqos - what a class's NodeSLO resctrlQOS (catRangeStartPercent,
 * catRangeEndPercent, mbaPercent) asks of its resctrl group's schemata: a
 * pure decision over the machine's facts (doc/schemata.h).
 *
 * Rules (koordlet-qos.md section 7, kernel Documentation/arch/x86/resctrl.rst):
 *  - the CBM is contiguous, within cbm_mask, at least min_cbm_bits wide and
 *    never empty (koordlet does not check min_cbm_bits);
 *  - Intel MB is a percent rounded up to bandwidth_gran and at least
 *    min_bandwidth; AMD MB is 2048 (unlimited) for 100 %, else
 *    int(160 * pct / 100) in 1/8 GB/s units (koordlet).
 */
#ifndef KILO_RESCTRLQOS_H
#define KILO_RESCTRLQOS_H

#include <stdint.h>

#include "core/err.h"
#include "doc/policy.h"
#include "doc/schemata.h"

/* The contiguous CBM for the percent range [start_pct, end_pct] of a cache
 * whose full mask is cbm_mask (koordlet: ways = bit length, first way
 * ceil(ways * start / 100), end way ceil(ways * end / 100), mask =
 * (1 << end) - (1 << start)), widened upward (then downward at the top) to
 * max(min_cbm_bits, 1) ways.  Examples with 11 ways: 0-30 % -> 0xf,
 * 10-15 % -> 0x4, 90-100 % -> 0x400 (0x600 with min_cbm_bits 2).
 * Returns 0, or -1 with e set (ERR_INPUT: cbm_mask empty or not contiguous
 * from bit 0, percents outside 0..100 or start >= end, min_cbm_bits above
 * the ways). */
int resctrlqos_cbm(uint64_t cbm_mask, int min_cbm_bits, int start_pct, int end_pct, uint64_t *out,
		   struct err *e);

/* The MB value for pct (1..100): AMD 2048 for 100, else 160 * pct / 100
 * (koordlet); others pct rounded up to a multiple of bandwidth_gran, at
 * least min_bandwidth, at most 100 (kernel bw_validate rounds the same
 * way).  Example: gran 10, min 10: 25 -> 30, 5 -> 10. */
int64_t resctrlqos_mb(const struct schemata_facts *f, int pct);

/* NULL when MB can be managed, else why not (static string): no info/MB, no
 * MB line in the root schemata, an Intel non-linear delay scale (the kernel
 * refuses it), or the mba_MBps mount option (values in MiB/s). */
const char *resctrlqos_mb_skip_reason(const struct schemata_facts *f);

/* The wanted schemata of a group from a class's resctrlQOS: one line per
 * cache resource (and MB unless resctrlqos_mb_skip_reason()), one entry per
 * domain id of that resource's root line, the same value in each.  *want
 * is zeroed first; release it.  Returns 0, or -1 with e set (ERR_INPUT from
 * resctrlqos_cbm, naming the resource). */
int resctrlqos_plan(const struct schemata_facts *f, const struct policy_resctrl *r,
		    struct schemata *want, struct err *e);

#endif
