/* SPDX-License-Identifier: Apache-2.0 */
/* resctrlqos - what a class's NodeSLO resctrlQOS (catRangeStartPercent,
 * catRangeEndPercent, mbaPercent) asks of its resctrl group's schemata: a
 * pure decision over the machine's facts (doc/schemata.h).
 *
 * Rules (koordlet-qos.md section 7, kernel Documentation/arch/x86/resctrl.rst):
 *  - the CBM is contiguous, within cbm_mask, at least min_cbm_bits wide and
 *    never empty (koordlet does not check min_cbm_bits);
 *  - Intel MB is a percent rounded up to bandwidth_gran and at least
 *    min_bandwidth (kernel bw_validate);
 *  - AMD MB is absolute bandwidth per domain (its default and maximum, 2048
 *    on current parts, is what the root group holds), granularity 1;
 *    mounted with mba_MBps, Intel MB is MiB/s.  A percent means nothing
 *    there: kilo.mbaBandwidth (the BE group) gives the value, else
 *    mbaPercent of kilo.mbaMaxBandwidth, else (AMD) mbaPercent of the root
 *    group's value for that domain, taken for the maximum (koordlet's
 *    int(160 * pct / 100) matches no part).  Koordinator's notes for YARN on
 *    AMD set each CCD's value directly.
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

/* How an MB value came about (resctrlqos_mb). */
enum {
	RESCTRLQOS_MB_RAISED = 1,  /* raised to min_bandwidth (or lowered to 100 %) */
	RESCTRLQOS_MB_ASSUMED = 2, /* a percent of the root group's value, taken for the max */
	RESCTRLQOS_MB_NONE = 4,    /* no value: a percent of MiB/s without a maximum */
};

/* The MB value of domain dom (the root group's value root) for mbaPercent
 * pct (0..100), by the rules at the top; mba is the class's kilo values
 * (NULL: none).  Intel percent examples, gran 10, min 10: 25 -> 30, 0 ->
 * 10 (raised).  AMD, root 2048: 50 -> 1024 (assumed); kilo.mbaBandwidth 60
 * -> 60.  *how gets RESCTRLQOS_MB_* bits. */
int64_t resctrlqos_mb(const struct schemata_facts *f, const struct policy_mba *mba, unsigned dom,
		      uint64_t root, int pct, unsigned *how);

/* NULL when MB can be managed, else why not (static string): no info/MB, no
 * MB line in the root schemata, or an Intel non-linear delay scale (the
 * kernel refuses it). */
const char *resctrlqos_mb_skip_reason(const struct schemata_facts *f);

/* The wanted schemata of a group from a class's resctrlQOS and kilo MB
 * values (mba; NULL: none): one line per cache resource (and MB unless
 * resctrlqos_mb_skip_reason() or no value), one entry per domain id of that
 * resource's root line (MB values per domain).  *how gets the
 * RESCTRLQOS_MB_* bits of any domain, for a warning.  *want is zeroed
 * first; release it.  Returns 0, or -1 with e set (ERR_INPUT from
 * resctrlqos_cbm, naming the resource). */
int resctrlqos_plan(const struct schemata_facts *f, const struct policy_resctrl *r,
		    const struct policy_mba *mba, struct schemata *want, unsigned *how,
		    struct err *e);

#endif
