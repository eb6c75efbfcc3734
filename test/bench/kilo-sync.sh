#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kilo-sync.sh - CPU time and peak RSS of `kilo-sync plan --from -` on cluster
# streams from gen-cluster.py (1k, 5k and 10k nodes, 30 pods of ~3.9 KB
# each per node, one Pod per line), against the single-pass jq program
# sync-totals.jq computing the same per-node totals in the same run; the two
# outputs must be equal.  Targets: at least 2x faster than jq, CPU time
# linear in pods (the same us/pod at every size), peak RSS O(nodes).
# Prints per size:
#   kilo-sync-plan-<N>-nodes <s> s-cpu <jq s> <jq/ours>x target>=2x
#   kilo-sync-plan-<N>-nodes-rss <KiB> KiB <jq KiB> <ours/jq> target=O(nodes)
# and kilo-sync-plan-us-per-pod <us at each size> us/pod target=flat, the
# cost per pod at the largest size over that at the smallest,
#   kilo-sync-plan-us-per-pod-<N>-vs-<M> <ratio> ratio target<=1.10
# (ours is the median of KILO_SYNC_BENCH_RUNS runs, default 3), and the
# peak RSS with 90 pods per node over that with 30 (1000 nodes), target<=1.05.
# CPU time on a shared machine moves by 10-20% from run to run: with
# KILO_SYNC_BENCH_IR=1 (and valgrind) the instructions per pod are counted
# too (callgrind, exact), at the sizes of KILO_SYNC_BENCH_IR_NODES (default
# "1000 3000": callgrind is ~50x slower), and compared the same way:
#   kilo-sync-plan-ir-per-pod <instructions at each size> ir/pod target=flat
#   kilo-sync-plan-ir-per-pod-<N>-vs-<M> <ratio> ratio target<=1.10
# Environment: KILO_SYNC_BENCH_NODES (default "1000 5000 10000").
# shellcheck source=test/bench/lib.sh
. "$KILO_TOP/test/bench/lib.sh"

command -v jq >/dev/null 2>&1 || skip "no jq"
command -v python3 >/dev/null 2>&1 || skip "no python3"
[ -x "$KILO_BIN/kilo-sync" ] || fail "$KILO_BIN/kilo-sync missing (make all)"
export KILO_NOW=2026-11-29T16:00:00Z

per_pod=""
for nodes in ${KILO_SYNC_BENCH_NODES:-1000 5000 10000}; do
	python3 "$KILO_TOP/test/bench/gen-cluster.py" "$nodes" >"$tmpdir/cluster.json" ||
		fail "gen-cluster.py $nodes"
	bench_cpu "${KILO_SYNC_BENCH_RUNS:-3}" "$tmpdir/cluster.json" "$tmpdir/plan.json" \
		"$KILO_BIN/kilo-sync" plan --from -
	ours=$BENCH_CPU ours_rss=$BENCH_RSS
	[ -n "${first_cost:-}" ] || first_nodes=$nodes first_cost=$(bench_div "$ours" "$((nodes * 30))" 12)
	last_nodes=$nodes last_cost=$(bench_div "$ours" "$((nodes * 30))" 12)
	bench_cpu 1 "$tmpdir/cluster.json" "$tmpdir/jq.txt" \
		jq -nr -f "$KILO_TOP/test/bench/sync-totals.jq"
	peer=$BENCH_CPU peer_rss=$BENCH_RSS
	rm -f "$tmpdir/cluster.json"
	jq -r '.items[] | "\(.node) \(.yarnTotal.vCores) \(.yarnTotal.memoryMB)"' \
		"$tmpdir/plan.json" >"$tmpdir/ours.txt"
	[ "$(wc -l <"$tmpdir/ours.txt")" -eq "$nodes" ] || fail "$nodes nodes: not every node planned"
	cmp -s "$tmpdir/ours.txt" "$tmpdir/jq.txt" ||
		fail "$nodes nodes: kilo-sync and sync-totals.jq disagree: $(diff "$tmpdir/ours.txt" "$tmpdir/jq.txt" | head -n 3)"
	bench_line "kilo-sync-plan-$nodes-nodes" "$ours" s-cpu "$peer" \
		"$(bench_div "$peer" "$ours" 1)x" "target>=2x"
	bench_line "kilo-sync-plan-$nodes-nodes-rss" "$ours_rss" KiB "$peer_rss" \
		"$(bench_div "$ours_rss" "$peer_rss" 1)" "target=O(nodes)"
	per_pod="$per_pod${per_pod:+/}$(bench_div "$ours" "$((nodes * 30))" 9 |
		awk '{ printf "%.1f", $1 * 1e6 }')"
done
bench_line kilo-sync-plan-us-per-pod "$per_pod" us/pod "target=flat"
bench_line "kilo-sync-plan-us-per-pod-$last_nodes-vs-$first_nodes" \
	"$(bench_div "$last_cost" "$first_cost")" ratio "target<=1.10"

# O(nodes): the same 1000 nodes with 90 pods each instead of 30
python3 "$KILO_TOP/test/bench/gen-cluster.py" 1000 30 >"$tmpdir/cluster.json" || fail "gen-cluster.py"
bench_cpu 1 "$tmpdir/cluster.json" /dev/null "$KILO_BIN/kilo-sync" plan --from -
rss30=$BENCH_RSS
python3 "$KILO_TOP/test/bench/gen-cluster.py" 1000 90 >"$tmpdir/cluster.json" || fail "gen-cluster.py"
bench_cpu 1 "$tmpdir/cluster.json" /dev/null "$KILO_BIN/kilo-sync" plan --from -
rm -f "$tmpdir/cluster.json"
bench_line kilo-sync-plan-rss-90-vs-30-pods-per-node "$(bench_div "$BENCH_RSS" "$rss30")" ratio \
	"target<=1.05"

[ "${KILO_SYNC_BENCH_IR:-0}" = 1 ] || exit 0
if ! command -v valgrind >/dev/null 2>&1; then
	echo "KILO_SYNC_BENCH_IR=1 but no valgrind: no instruction counts" >&2
	exit 0
fi
ir_list="" first_ir="" last_ir=""
for nodes in ${KILO_SYNC_BENCH_IR_NODES:-1000 3000}; do
	python3 "$KILO_TOP/test/bench/gen-cluster.py" "$nodes" >"$tmpdir/cluster.json" ||
		fail "gen-cluster.py $nodes"
	bench_ir "$tmpdir/cluster.json" "$KILO_BIN/kilo-sync" plan --from -
	rm -f "$tmpdir/cluster.json"
	last_nodes=$nodes last_ir=$(bench_div "$BENCH_IR" "$((nodes * 30))" 1)
	[ -n "$first_ir" ] || first_nodes=$nodes first_ir=$last_ir
	ir_list="$ir_list${ir_list:+/}$last_ir"
done
bench_line kilo-sync-plan-ir-per-pod "$ir_list" ir/pod "target=flat"
bench_line "kilo-sync-plan-ir-per-pod-$last_nodes-vs-$first_nodes" \
	"$(bench_div "$last_ir" "$first_ir" 4)" ratio "target<=1.10"
