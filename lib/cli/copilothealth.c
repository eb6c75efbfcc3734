// SPDX-License-Identifier: Apache-2.0
/* copilothealth - yarn-copilot health's lines (see copilothealth.h) */
#include "cli/copilothealth.h"

#include "core/err.h"

int copilothealth_report(FILE *out, const struct copilot_opts *co, const struct cgroup_layout *l,
			 int dir, const char *hint, const struct copilot_health *h)
{
	if (h->live)
		dir = -1;
	fprintf(out, "%s hadoop-yarn cgroup %s (cgroup v%d, %s driver)",
		dir >= 0 ? "ok    " : "FAILED", l->hadoop_yarn, l->version,
		cgroup_driver_name(l->driver));
	if (dir > 0)
		fprintf(out, ": not there yet, no YARN container has run here (found %s)\n", hint);
	else if (dir == -2)
		fprintf(out,
			": not found, and the cpu hierarchy has no kubepods cgroup (found %s): "
			"check --cgroup-driver and --hierarchy (a node without a kubelet names its "
			"own --hierarchy)\n",
			hint);
	else if (dir < 0)
		fprintf(out,
			": not found, the layout is wrong (found %s%s): check --cgroup-driver and "
			"--hierarchy\n",
			hint, h->live ? "; the NodeManager runs containers" : "");
	else
		fprintf(out, "\n");
	if (co->no_nm)
		fprintf(out, "skip   NodeManager (--no-nm)\n");
	else if (h->nm_ok)
		fprintf(out, "ok     NodeManager %s (node id %s)\n", co->nm_url_shown,
			h->id ? h->id : "unknown");
	else
		fprintf(out, "FAILED NodeManager %s: %s\n", co->nm_url_shown, h->e.msg);
	return dir >= 0 && h->nm_ok ? KILO_EXIT_OK : KILO_EXIT_FAIL;
}
