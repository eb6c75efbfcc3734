/* SPDX-License-Identifier: Apache-2.0 */
/* copilothealth - what `yarn-copilot health` says on stdout, and its exit
 * code (yarn-copilot(1) health): one line for the hadoop-yarn cgroup dir,
 * one for the NodeManager.  cmd/yarn-copilot's main wires the I/O; the text
 * lives here because only cli/ prints. */
#ifndef KILO_COPILOTHEALTH_H
#define KILO_COPILOTHEALTH_H

#include <stdio.h>

#include "kernel/cgroup.h"
#include "run/copilot.h"

/* The two lines on out, then the exit code: KILO_EXIT_OK when the dir is
 * there (dir >= 0) and the NodeManager answered (or co->no_nm), else
 * KILO_EXIT_FAIL.  dir is as nodecli_yarn_layout() says (1: not there yet,
 * no YARN container has run; -1: the layout is wrong; -2: no kubepods
 * cgroup at all), turned to -1 when the NodeManager runs live containers
 * (h->live) although the dir is absent; hint is what the cpu hierarchy
 * holds.  The NodeManager line names co->nm_url_shown (never the userinfo). */
int copilothealth_report(FILE *out, const struct copilot_opts *co, const struct cgroup_layout *l,
			 int dir, const char *hint, const struct copilot_health *h);

#endif
