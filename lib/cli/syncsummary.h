/* SPDX-License-Identifier: Apache-2.0 */
/* syncsummary - what a kilo-sync pass (sync, plan, apply) says on stderr
 * beside its document, and its exit code: the policy in one place
 * (kilo-sync(1) EXIT STATUS, LOGGING).  cmd/kilo-sync's main wires the I/O;
 * it lives here, not in run/, because only cli/ prints diagnostics.
 */
#ifndef KILO_SYNCSUMMARY_H
#define KILO_SYNCSUMMARY_H

#include <jansson.h>

#include "doc/syncconfig.h"
#include "doc/syncplan.h"
#include "doc/syncreport.h"
#include "run/syncrun.h"

/* The exit code of a pass with counts st: 75 (KILO_EXIT_TEMPFAIL) when
 * every YARN cluster was unreachable, 3 when some were, some actions failed
 * (1 when all failed: cli_exit_for_items()) or a node was skipped for bad
 * data (severity error), else 0. */
int sync_exit_code(const struct sync_stats *st);

/* The exit code of `kilo-sync plan`: nothing is applied, so only its
 * unreachable clusters (st) and its skips for bad data (shown, of
 * sync_count_plan()) count. */
int sync_plan_exit_code(const struct sync_stats *st, const struct sync_stats *shown);

/* The pass's last stderr line: "kilo-sync: <what>N nodes, P pods, U
 * updated, A annotated, S skipped (B for bad data), F failed, D of C
 * clusters unreachable in T s", the counts of st plus those of shown (a
 * plan's own); with a what ("plan: ", "dry run: ") "to update", "to
 * annotate". */
void sync_summary_line(const char *what, const struct sync_stats *st,
		       const struct sync_stats *shown, double secs);

/* What plan would do, for the summary line: updates in st->updated,
 * annotations in st->annotated, skipped nodes in st->skipped (of them for
 * bad data in st->skipped_bad). */
void sync_count_plan(const struct syncplan *plan, struct sync_stats *st);

/* One stderr line per node a pass skipped or failed (README: logs say
 * why), the first 100 of them and a count of the rest by state and code,
 * and one per unreachable cluster of rms (its nodes, skipped for it, have
 * no line of their own): "node 'N': skipped (CODE): reason"; the node and
 * lifecycle lines unless quiet.  Then a warning per cluster whose RM lists
 * active NodeManagers that no pod claims (unless only_some: a pass over
 * some nodes or offline inputs), and one for NodeManager-labelled pods
 * outside sc's nodeManagerNamespaces.  r is the SyncReport (or the
 * syncreport_of_plan() of `plan`). */
void sync_report_problems(const struct syncreport *r, const struct sync_rms *rms,
			  const struct sync_config *sc, int quiet, int only_some);

#endif
