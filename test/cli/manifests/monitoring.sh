#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# manifests/monitoring: the dashboard is JSON, and every metric that it or
# an alert rule queries is one a tool writes (a quoted name in lib/, cmd/ or
# scripts/kilo-node-metrics)
# or node_exporter's textfile collector exports; with promtool, the rules
# pass `promtool check rules` and their unit tests.
# shellcheck disable=SC2016 # jq programs: their $variables are jq's
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/cli/manifests/manifests.inc"
D=$M/monitoring

jq -r '.. | objects | select(has("expr")) | .expr' "$D/kilo-dashboard.json" >"$tmpdir/exprs" ||
	fail "kilo-dashboard.json does not parse"
jq -r '.templating.list[] | .query | strings, .query? // empty' "$D/kilo-dashboard.json" \
	2>/dev/null | grep 'label_values' | sed 's/label_values(\(.*\), [a-z]*)/\1/' >>"$tmpdir/exprs"
yaml_docs "$D/kilo-alerts.yaml" | jq -r '.[0].groups[].rules[].expr' >>"$tmpdir/alert-exprs" ||
	fail "kilo-alerts.yaml"
[ "$(wc -l <"$tmpdir/exprs")" -ge 20 ] || fail "few dashboard queries"
# Grafana: unique panel ids, each panel placed in the 24-column grid, every
# query on the dashboard's data source variable
jq -e '[.panels[].id] | length == (unique | length)' "$D/kilo-dashboard.json" >/dev/null ||
	fail "duplicate panel ids"
jq -e 'all(.panels[]; .gridPos.x + .gridPos.w <= 24 and .gridPos.h > 0)' \
	"$D/kilo-dashboard.json" >/dev/null || fail "a panel outside the grid"
jq -e 'all(.panels[] | select(.type != "row"); .datasource.uid == "${datasource}" and
	all(.targets[]; .datasource.uid == "${datasource}" and (.expr | length > 0)))' \
	"$D/kilo-dashboard.json" >/dev/null || fail "a query without the datasource variable"

# the metric names of PromQL expressions: identifiers outside strings, label
# matchers, grouping clauses and ranges that are not functions or keywords
python3 - "$tmpdir/exprs" "$tmpdir/alert-exprs" >"$tmpdir/names" <<'PY' || fail "PromQL names"
import re, sys
kw = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or",
      "unless", "offset"}
for path in sys.argv[1:]:
    for e in open(path).read().split("\n"):
        e = re.sub(r'"(\\.|[^"\\])*"', '""', e)
        e = re.sub(r"\{[^}]*\}", "", e)
        e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", e)
        e = re.sub(r"\[[^]]*\]", "", e)
        for m in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", e):
            rest = e[m.end():].lstrip()
            if m.group(0) in kw or rest.startswith("("):
                continue
            print(m.group(0))
PY
sort -u "$tmpdir/names" >"$tmpdir/metrics"
[ "$(wc -l <"$tmpdir/metrics")" -ge 15 ] || fail "few metrics: $(cat "$tmpdir/metrics")"
# node_exporter's textfile collector (k8s-conventions.md 6.4)
exporter="node_textfile_mtime_seconds node_textfile_scrape_error"
while read -r name; do
	case " $exporter " in *" $name "*) continue ;; esac
	grep -rqF "\"$name\"" "$KILO_TOP/lib" "$KILO_TOP/cmd" "$KILO_TOP/scripts/kilo-node-metrics" ||
		fail "$name is queried but no tool exports it"
done <"$tmpdir/metrics"
# what the tools write is all on the dashboard (a metric added later shows up here)
for name in $(grep -rhoE '"(kilo_sync|kilo_node|yarn_copilot)_[a-z_]+"' "$KILO_TOP/lib" \
	"$KILO_TOP/cmd" "$KILO_TOP/scripts/kilo-node-metrics" |
	tr -d '"' | sort -u); do
	case $name in
	# per-container families: the dashboard shows their node sums
	yarn_copilot_container_memory_charge_bytes | yarn_copilot_container_requested_* | \
		yarn_copilot_container_processes | yarn_copilot_containers_cpu_seconds | \
		yarn_copilot_containers_memory_charge_bytes) continue ;;
	esac
	grep -qx "$name" "$tmpdir/metrics" || fail "$name is exported but not on the dashboard"
done

# the panels of the nodes kilo-sync did not sync and of the clusters it
# reaches: on the gauges the alerts watch, with the labels those carry
panel_exprs() {
	jq -r --arg t "$1" '.panels[] | select(.title == $t) | .targets[].expr' "$D/kilo-dashboard.json"
}
assert_eq "$(panel_exprs 'Nodes not synced (by reason)')" \
	'max by (cluster, node, state, reason) (kilo_sync_node_state{state=~"skipped|failed", cluster=~"$cluster", node=~"$node"})' \
	"the not-synced panel"
assert_eq "$(panel_exprs 'YARN clusters reachable')" \
	'min by (cluster) (kilo_sync_cluster_reachable{cluster=~"$cluster"})' "the clusters-reachable panel"
for name in kilo_sync_node_state kilo_sync_cluster_reachable; do
	grep -qx "$name" "$tmpdir/metrics" || fail "$name is on no panel or alert"
	grep -q "$name" "$tmpdir/alert-exprs" || fail "no alert on $name"
done
# panels do not overlap (two new ones pushed the rows below them down)
jq -e '[.panels[] | .gridPos as $g | range($g.y; $g.y + $g.h) as $y |
	range($g.x; $g.x + $g.w) as $x | "\($x),\($y)"] | length == (unique | length)' \
	"$D/kilo-dashboard.json" >/dev/null || fail "panels overlap"

command -v promtool >/dev/null 2>&1 || skip "no promtool"
promtool check rules "$D/kilo-alerts.yaml" >"$tmpdir/out" 2>&1 ||
	fail "promtool check rules: $(cat "$tmpdir/out")"
(cd "$D" && promtool test rules kilo-alerts.test.yaml) >"$tmpdir/out" 2>&1 ||
	fail "promtool test rules: $(cat "$tmpdir/out")"
exit 0
