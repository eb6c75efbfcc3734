// SPDX-License-Identifier: Apache-2.0
/* resctrlqos - the schemata a class's resctrlQOS asks for (see resctrlqos.h) */
#include "decide/resctrlqos.h"

#include <string.h>

int resctrlqos_cbm(uint64_t cbm_mask, int min_cbm_bits, int start_pct, int end_pct, uint64_t *out,
		   struct err *e)
{
	int ways = 0, first, end, bits = min_cbm_bits > 1 ? min_cbm_bits : 1;

	if (cbm_mask == 0 || (cbm_mask & (cbm_mask + 1)) != 0)
		return err_set(e, ERR_INPUT, 0,
			       "cbm_mask: expected a contiguous mask from bit 0, got '%llx'",
			       (unsigned long long)cbm_mask);
	if (start_pct < 0 || end_pct > 100 || start_pct >= end_pct)
		return err_set(
			e, ERR_INPUT, 0,
			"catRangeStartPercent..catRangeEndPercent: expected 0 <= start < end <= 100, got %d..%d",
			start_pct, end_pct);
	while (ways < 64 && (cbm_mask >> ways) & 1)
		ways++;
	if (bits > ways)
		return err_set(e, ERR_INPUT, 0,
			       "min_cbm_bits: expected at most %d (the ways), got %d", ways,
			       min_cbm_bits);
	first = (ways * start_pct + 99) / 100;
	end = (ways * end_pct + 99) / 100;
	if (end - first < bits) {
		end = first + bits < ways ? first + bits : ways;
		first = end - bits;
	}
	*out = (end == 64 ? ~0ULL : (1ULL << end) - 1) & ~((1ULL << first) - 1);
	return 0;
}

int64_t resctrlqos_mb(const struct schemata_facts *f, int pct)
{
	int gran = f->mb_bandwidth_gran > 0 ? f->mb_bandwidth_gran : 1;
	int v;

	if (f->vendor == SCHEMATA_VENDOR_AMD)
		return pct >= 100 ? SCHEMATA_AMD_MB_UNLIMITED : 160 * pct / 100;
	v = (pct + gran - 1) / gran * gran;
	if (v < f->mb_min_bandwidth)
		v = f->mb_min_bandwidth;
	return v > 100 ? 100 : v;
}

const char *resctrlqos_mb_skip_reason(const struct schemata_facts *f)
{
	if (!f->has_mb)
		return "no memory bandwidth allocation (info/MB)";
	if (!schemata_find(&f->root, "MB"))
		return "no MB line in the root schemata";
	if (f->mb_mbps)
		return "resctrl is mounted with mba_MBps (MB in MiB/s, not a percent)";
	if (f->vendor != SCHEMATA_VENDOR_AMD && !f->mb_delay_linear)
		return "non-linear MB delay scale (info/MB/delay_linear 0), which the kernel refuses";
	return NULL;
}

int resctrlqos_plan(const struct schemata_facts *f, const struct policy_resctrl *r,
		    struct schemata *want, struct err *e)
{
	memset(want, 0, sizeof(*want));
	for (size_t i = 0; i < f->ncache; i++) {
		const struct schemata_cache *c = &f->cache[i];
		const struct schemata_line *root = schemata_find(&f->root, c->name);
		uint64_t cbm;

		if (!root)
			continue;
		if (resctrlqos_cbm(c->cbm_mask, c->min_cbm_bits, r->cat_start_percent,
				   r->cat_end_percent, &cbm, e) < 0)
			return err_wrap(e, "%s", c->name);
		schemata_add_uniform(want, root, cbm);
	}
	if (!resctrlqos_mb_skip_reason(f))
		schemata_add_uniform(want, schemata_find(&f->root, "MB"),
				     (uint64_t)resctrlqos_mb(f, r->mba_percent));
	return 0;
}
