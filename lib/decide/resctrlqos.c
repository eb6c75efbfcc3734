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

/* kilo.mbaBandwidth for domain dom, or -1. */
static int64_t absolute(const struct policy_mba *mba, unsigned dom)
{
	if (!mba)
		return -1;
	for (size_t i = 0; i < mba->n; i++)
		if (mba->dom[i].id == dom)
			return mba->dom[i].value;
	return mba->all;
}

int64_t resctrlqos_mb(const struct schemata_facts *f, const struct policy_mba *mba, unsigned dom,
		      uint64_t root, int pct, unsigned *how)
{
	int64_t gran = f->mb_bandwidth_gran > 0 ? f->mb_bandwidth_gran : 1;
	int64_t v = absolute(mba, dom), max = mba ? mba->max : -1;
	int percent_unit = f->vendor != SCHEMATA_VENDOR_AMD && !f->mb_mbps;

	*how = 0;
	if (v < 0 && percent_unit) {
		v = (pct + gran - 1) / gran * gran;
	} else if (v < 0) { /* an absolute unit: a percent of what is the maximum */
		if (max < 0 && f->mb_mbps) {
			*how |= RESCTRLQOS_MB_NONE;
			return -1;
		}
		if (max < 0) {
			max = root > (uint64_t)INT64_MAX / 100 ? INT64_MAX / 100 : (int64_t)root;
			*how |= pct < 100 ? RESCTRLQOS_MB_ASSUMED : 0;
		}
		v = max * pct / 100;
	}
	if (v < f->mb_min_bandwidth) {
		v = f->mb_min_bandwidth;
		*how |= RESCTRLQOS_MB_RAISED;
	}
	if (percent_unit && v > 100) {
		v = 100;
		*how |= RESCTRLQOS_MB_RAISED;
	}
	return v;
}

const char *resctrlqos_mb_skip_reason(const struct schemata_facts *f)
{
	if (!f->has_mb)
		return "no memory bandwidth allocation (info/MB)";
	if (!schemata_find(&f->root, "MB"))
		return "no MB line in the root schemata";
	if (f->vendor != SCHEMATA_VENDOR_AMD && !f->mb_delay_linear)
		return "non-linear MB delay scale (info/MB/delay_linear 0), which the kernel refuses";
	return NULL;
}

int resctrlqos_plan(const struct schemata_facts *f, const struct policy_resctrl *r,
		    const struct policy_mba *mba, struct schemata *want, unsigned *how,
		    struct err *e)
{
	const struct schemata_line *mb = schemata_find(&f->root, "MB");

	memset(want, 0, sizeof(*want));
	*how = 0;
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
	if (!resctrlqos_mb_skip_reason(f)) { /* the root's domains, each its own value */
		struct schemata_line *l;
		unsigned h;

		schemata_add_uniform(want, mb, 0);
		l = &want->line[want->n - 1];
		for (size_t i = 0; i < l->n; i++) {
			l->dom[i].value = (uint64_t)resctrlqos_mb(
				f, mba, mb->dom[i].id, mb->dom[i].value, r->mba_percent, &h);
			*how |= h;
		}
		if (*how & RESCTRLQOS_MB_NONE) { /* no value to write: the line goes */
			free(l->dom);
			want->n--;
		}
	}
	return 0;
}
