// SPDX-License-Identifier: Apache-2.0
/* qos - pure decisions of qos-cgset (see qos.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "decide/qos.h"

int64_t qos_shares(int64_t cpu_milli_sum)
{
	int64_t s;

	if (cpu_milli_sum <= 0)
		return QOS_SHARES_MIN;
	if (cpu_milli_sum > INT64_MAX / 1024)
		return QOS_SHARES_MAX;
	s = cpu_milli_sum * 1024 / 1000;
	return s < QOS_SHARES_MIN ? QOS_SHARES_MIN : s > QOS_SHARES_MAX ? QOS_SHARES_MAX : s;
}

int64_t qos_shares_to_weight(int64_t shares)
{
	if (shares < 2)
		shares = 2;
	if (shares > 262144)
		shares = 262144;
	return 1 + (shares - 2) * 9999 / 262142;
}

int64_t qos_weight_to_shares(int64_t weight)
{
	if (weight < 1)
		weight = 1;
	if (weight > 10000)
		weight = 10000;
	return 2 + ((weight - 1) * 262142 + 9998) / 9999;
}

int64_t qos_weight(int64_t shares, enum qos_weight_conv conv)
{
	double l;

	if (conv == QOS_WEIGHT_LINEAR)
		return qos_shares_to_weight(shares);
	if (shares <= QOS_SHARES_MIN)
		return 1;
	if (shares >= QOS_SHARES_MAX)
		return 10000;
	l = log2((double)shares);
	return (int64_t)ceil(pow(10.0, (l * l + 125.0 * l) / 612.0 - 7.0 / 34.0));
}

const char *qos_weight_conv_name(enum qos_weight_conv conv)
{
	return conv == QOS_WEIGHT_NONLINEAR ? "nonlinear" : "linear";
}

int qos_weight_conv_parse(const char *s, enum qos_weight_conv *out, struct err *e)
{
	if (strcmp(s, "linear") == 0)
		*out = QOS_WEIGHT_LINEAR;
	else if (strcmp(s, "nonlinear") == 0)
		*out = QOS_WEIGHT_NONLINEAR;
	else
		return err_set(e, ERR_USAGE, 0,
			       "invalid value for --weight-conversion: '%s' (expected linear or "
			       "nonlinear)",
			       s);
	return 0;
}

int64_t qos_suppress_milli(const struct qos_suppress_in *in, int threshold_percent, int min_percent)
{
	int64_t sys = in->system_milli > in->reserved_milli ? in->system_milli : in->reserved_milli;
	int64_t allowed = in->capacity_milli * threshold_percent / 100 - in->nonbe_milli - sys;

	if (min_percent >= 0 && allowed < in->capacity_milli * min_percent / 100)
		allowed = in->capacity_milli * min_percent / 100;
	return allowed < 0 ? 0 : allowed;
}

int qos_cpuset_want(int64_t allowed_milli)
{
	int64_t n = (allowed_milli + 999) / 1000;

	if (n > CPUSET_MAX)
		n = CPUSET_MAX;
	return n < QOS_MIN_CPUSET_CPUS ? QOS_MIN_CPUSET_CPUS : (int)n;
}

int qos_cpuset_step(int current, int want, int nlogical)
{
	int step = (nlogical + 9) / 10;

	int n;

	if (want <= current)
		return want;
	n = want - current > step ? current + step : want;
	return n < QOS_MIN_CPUSET_CPUS && want >= QOS_MIN_CPUSET_CPUS ? QOS_MIN_CPUSET_CPUS : n;
}

static int cpu_cmp(const void *a, const void *b)
{
	const struct cpuset_cpu *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->package != y->package)
		return x->package < y->package ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

struct bucket {
	size_t start, len;
};

static int bucket_cmp_base(const struct bucket *x, const struct bucket *y,
			   const struct cpuset_cpu *c)
{
	if (x->len != y->len)
		return x->len > y->len ? -1 : 1;
	return (c[x->start].cpu > c[y->start].cpu) - (c[x->start].cpu < c[y->start].cpu);
}

/* qsort has no context argument: sort the small bucket array by insertion. */
static void buckets_sort(struct bucket *b, size_t n, const struct cpuset_cpu *c)
{
	for (size_t i = 1; i < n; i++) {
		struct bucket t = b[i];
		size_t j = i;

		while (j > 0 && bucket_cmp_base(&b[j - 1], &t, c) > 0) {
			b[j] = b[j - 1];
			j--;
		}
		b[j] = t;
	}
}

int qos_cpuset_choose(const struct cpuset_cpu *topo, size_t ntopo, const struct cpuset *candidates,
		      int count, struct cpuset *out)
{
	struct cpuset_cpu *c = xcalloc(ntopo ? ntopo : 1, sizeof(*c));
	struct bucket *b = xcalloc(ntopo ? ntopo : 1, sizeof(*b));
	char *used = xcalloc(ntopo ? ntopo : 1, 1);
	size_t n = 0, nb = 0;
	int need, progress;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < ntopo; i++)
		if (cpuset_has(candidates, topo[i].cpu))
			c[n++] = topo[i];
	qsort(c, n, sizeof(*c), cpu_cmp);
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || c[i].node != c[i - 1].node || c[i].package != c[i - 1].package)
			b[nb++] = (struct bucket){ .start = i };
		b[nb - 1].len++;
	}
	buckets_sort(b, nb, c);
	need = count < (int)n ? count : (int)n;
	count = need;
	/* Phase 1: whole cores (both hyperthreads), one per bucket in turn. */
	do {
		progress = 0;
		for (size_t k = 0; k < nb && need >= 2; k++) {
			for (size_t i = b[k].start; i + 1 < b[k].start + b[k].len; i++) {
				if (used[i] || used[i + 1] || c[i].core != c[i + 1].core)
					continue;
				used[i] = used[i + 1] = 1;
				cpuset_add(out, c[i].cpu);
				cpuset_add(out, c[i + 1].cpu);
				need -= 2;
				progress = 1;
				break;
			}
		}
	} while (need >= 2 && progress);
	/* Phase 2: single CPUs, one per bucket in turn. */
	do {
		progress = 0;
		for (size_t k = 0; k < nb && need > 0; k++) {
			for (size_t i = b[k].start; i < b[k].start + b[k].len; i++) {
				if (used[i])
					continue;
				used[i] = 1;
				cpuset_add(out, c[i].cpu);
				need--;
				progress = 1;
				break;
			}
		}
	} while (need > 0 && progress);
	free(c);
	free(b);
	free(used);
	return count - need;
}

static void cpuset_union(struct cpuset *dst, const struct cpuset *a, const struct cpuset *b)
{
	for (size_t i = 0; i < sizeof(a->bits) / sizeof(a->bits[0]); i++)
		dst->bits[i] = a->bits[i] | b->bits[i];
}

int qos_cpuset_choice_valid(const struct cpuset *chosen, const struct cpuset *candidates,
			    const struct cpuset *online, int count)
{
	struct cpuset avail;
	int n;

	for (size_t i = 0; i < sizeof(avail.bits) / sizeof(avail.bits[0]); i++) {
		avail.bits[i] = candidates->bits[i] & online->bits[i];
		if (chosen->bits[i] & ~avail.bits[i])
			return 0;
	}
	n = cpuset_count(&avail);
	return cpuset_count(chosen) == (count < n ? count : n);
}

size_t qos_cpuset_order(const struct qos_cpuset_dir *dirs, size_t n, const struct cpuset *target,
			struct qos_cpuset_write *out)
{
	struct cpuset u;
	size_t k = 0;

	if (cpuset_count(target) == 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		cpuset_union(&u, dirs[i].old, target);
		if (cpuset_equal(&u, dirs[i].old))
			continue;
		out[k].dir = i;
		out[k++].set = u;
	}
	/* Every dir now holds old ∪ target: still more than target unless old
	 * was within it. */
	for (size_t i = n; i-- > 0;) {
		cpuset_union(&u, dirs[i].old, target);
		if (cpuset_equal(&u, target))
			continue;
		out[k].dir = i;
		out[k++].set = *target;
	}
	return k;
}

int64_t qos_cfs_quota(int64_t allowed_milli, int64_t period_us)
{
	int64_t q = allowed_milli * period_us / 1000;

	return q < QOS_MIN_QUOTA_US ? QOS_MIN_QUOTA_US : q;
}

int64_t qos_cfs_quota_round(int64_t current_us, int64_t want_us, int64_t capacity_milli,
			    int64_t period_us)
{
	int64_t whole = capacity_milli * period_us / 1000; /* capacity as quota */
	int64_t delta = want_us - current_us;

	if (want_us < 0 || current_us < 0)
		return want_us;
	if (want_us != QOS_MIN_QUOTA_US && (delta < 0 ? -delta : delta) < whole / 100)
		return current_us;
	if (delta > whole / 10)
		return current_us + whole / 10;
	return want_us;
}

int64_t qos_cfs_quota_v1(int64_t quota_us, int64_t period_us, const struct qos_cfs *children,
			 size_t n, long *raised_by)
{
	*raised_by = -1;
	if (quota_us < 0)
		return quota_us;
	for (size_t i = 0; i < n; i++) {
		const struct qos_cfs *ch = &children[i];
		int64_t need;

		if (ch->quota_us < 0 || ch->period_us <= 0)
			continue;
		/* ceil(child quota / child period x period), in 128 bits: the
		 * kernel compares the two ratios, not the raw quotas. */
		need = (int64_t)(((__int128)ch->quota_us * period_us + ch->period_us - 1) /
				 ch->period_us);
		if (need > quota_us) {
			quota_us = need;
			*raised_by = (long)i;
		}
	}
	return quota_us;
}

void qos_memory_values(const struct policy *p, struct qos_memory *m)
{
	if (p->memory_qos_enable) {
		*m = (struct qos_memory){
			.wmark_ratio = p->wmark_ratio,
			.wmark_scale_factor = p->wmark_scale_permill,
			.wmark_min_adj = p->wmark_min_adj,
			.priority = p->priority,
			.use_priority_oom = p->priority_enable,
			.oom_group_container = 1,
			.oom_group_hadoop_yarn = 0,
		};
	} else {
		*m = (struct qos_memory){ .wmark_scale_factor = 50 };
	}
}

int qos_memory_cap(int64_t capacity_bytes, int percent, int64_t current_bytes, int64_t usage_bytes,
		   int64_t margin_bytes, int64_t page_size, int64_t *limit)
{
	int64_t l = (int64_t)((__int128)capacity_bytes * percent / 100);

	if (page_size > 0)
		l -= l % page_size;
	*limit = l;
	if (current_bytes >= 0 && l >= current_bytes)
		return 1;
	return usage_bytes >= 0 && l >= usage_bytes + margin_bytes;
}
