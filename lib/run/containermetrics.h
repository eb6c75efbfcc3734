/* SPDX-License-Identifier: Apache-2.0 */
/* containermetrics - yarn-copilot metrics: a ContainerList as Prometheus
 * text (yarn-copilot(1) METRICS; the exposition format through
 * core/promtext).
 */
#ifndef KILO_CONTAINERMETRICS_H
#define KILO_CONTAINERMETRICS_H

#include "core/promtext.h"
#include "doc/containerlist.h"

/* Add to p the per-container series (CPU seconds, memory, memory charge,
 * requested cores and memory, processes; labels node, container,
 * application) of the items of cl whose figure is known, each family's sum
 * over the node (a gauge: it drops when a container ends; absent when no
 * item's figure is known but there are items), the container count and
 * yarn_copilot_node_manager_up.  Every series carries the node label,
 * cl->node ("" when NULL). */
void containermetrics_text(struct promtext *p, const struct containerlist *cl);

#endif
