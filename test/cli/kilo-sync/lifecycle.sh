#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The NodeManager lifecycle (kilo-sync(1) LIFECYCLE) against the fake API
# server and the fake RM, driven by kubectl as an operator would see it:
# worker-1's Batch pool goes, the node drains at 0/0 with -1 (lifecycle
# needs overCommitTimeoutMs -1: the RM never disarms a timeout once sent),
# gets stuck past drainTimeoutMs,
# goes offline once YARN has nothing on it (label removed), returns when
# the pool comes back (label set) and is active again once its NodeManager
# is back at the RM.  KILO_NOW steps the clock across the holds.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/sync-cluster.sh"
cd "$tmpdir" || exit 1

LC_CONFIG=$tmpdir/lc.yaml
. "$KILO_TOP/test/cli/kilo-sync/lifecycle.inc"
cat >"$tmpdir/lc.yaml" <<EOF
clusters:
  - id: yarn-cluster-1
    rmUrls: [$rm1, $rm2]
    timeoutMs: 5000
    confirmTimeoutMs: 2000
overCommitTimeoutMs: -1
kubernetes: {pageSize: 50}
lifecycle:
  holdDownMs: 60000
  holdUpMs: 120000
  drainTimeoutMs: 600000
  nodeLabel: $LABEL=true
EOF
rm_w1() { rm_get /state | jq -c ".nodes[] | select(.id == \"$SYNC_NM_ID\") | [.vCores, .memoryMB]"; }
lines() { grep "lifecycle" "$tmpdir/sync.err"; }

kubectl label node worker-1 "$LABEL=true" >/dev/null || fail "kubectl label"

# 1. Batch 30 vCores: active, resized as always, no record written
pass 0
assert_eq "$rc" 0 "first pass exit ($(cat "$tmpdir/sync.err"))"
assert_eq "$(w1 '[.action, .reasonCode, .lifecycle.state, .lifecycle.action, .lifecycle.result]')" \
	'["update","total-differs","active","none","unchanged"]' "active pass"
assert_eq "$(record)" "" "no record for a node that never left active"
assert_eq "$(rm_w1)" "[30,97598]" "resized to Batch"

# 2. the pool shrinks to 0.5 CPU (0 vCores): the hold-down starts; the node
#    is resized as the plan says meanwhile (0 vCores, its memory)
origin 7500
pass 10
assert_eq "$(w1 '[.yarnTotal, .overCommitTimeoutMs, .lifecycle.state, .lifecycle.pendingSince]')" \
	'[{"vCores":0,"memoryMB":97598},-1,"active","2026-11-30T16:00:10Z"]' "hold-down starts"
assert_eq "$(record)" \
	'{"state":"active","since":"2026-11-30T16:00:10Z","reason":"Batch 0 vCores/97598 MB below lifecycle.min: draining once it stays so for 60000 ms","pendingSince":"2026-11-30T16:00:10Z"}' \
	"the record keeps when it began"
pass 69
assert_eq "$(w1 '.lifecycle.state')" '"active"' "59 s: not yet"

# 3. 60 s below min: draining, held at 0/0 with -1; the two containers run on
pass 70
assert_eq "$(w1 '[.action, .reasonCode, .yarnTotal, .overCommitTimeoutMs, .result]')" \
	'["update","lifecycle-hold",{"vCores":0,"memoryMB":0},-1,"updated"]' "draining resize"
assert_eq "$(rm_get /state | jq -c '[.resizes[-1] | .vCores, .memory, .overCommitTimeout]')" \
	'[0,0,-1]' "the RM got 0/0 with -1"
assert_eq "$(lines)" \
	"kilo-sync: node 'worker-1': lifecycle active -> draining: Batch 0 vCores/97598 MB below lifecycle.min 1 vCores/1024 MB for 60000 ms: held at 0/0, running containers finish" \
	"transition line"
assert_eq "$(record | jq -r .state)" draining "record: draining"
assert_eq "$(label)" true "the label stays while draining"
grep -q '^kilo_sync_node_lifecycle{node="worker-1",cluster="yarn-cluster-1",state="draining"} 1$' \
	"$tmpdir/kilo-sync.prom" || fail "lifecycle metric: $(grep lifecycle "$tmpdir/kilo-sync.prom")"
posts=$(count_rm_posts)
pass 100
assert_eq "$(w1 '[.action, .reasonCode, .lifecycle.action]')" '["none","lifecycle-hold","none"]' \
	"held: nothing more to send"
assert_eq "$(count_rm_posts)" "$posts" "no RM write while held"

# 4. past drainTimeoutMs the containers still run: stuck, never killed
pass 680
assert_eq "$(w1 '[.lifecycle.previous, .lifecycle.state, .lifecycle.result]')" \
	'["draining","stuck","recorded"]' "stuck"
assert_eq "$(rm_get /state | jq -c '[.resizes[] | select(.node == env.SYNC_NM_ID) | .overCommitTimeout] | .[2:] | unique')" \
	'[-1]' "every resize since the drain said -1"
grep -q '^kilo_sync_node_lifecycle{node="worker-1",cluster="yarn-cluster-1",state="stuck"} 1$' \
	"$tmpdir/kilo-sync.prom" || fail "stuck metric"

# 5. the containers finish: offline, the label goes (the DaemonSet then stops
#    the NodeManager pod)
rm_post /nodes "[{\"id\":\"$SYNC_NM_ID\",\"state\":\"RUNNING\",\"memoryMB\":0,\"vCores\":0,\"usedMemoryMB\":0,\"usedVCores\":0,\"containers\":0},{\"id\":\"other-host:8041\",\"state\":\"RUNNING\",\"memoryMB\":8192,\"vCores\":8}]"
pass 700
assert_eq "$(w1 '[.lifecycle.previous, .lifecycle.state, .lifecycle.label, .lifecycle.result]')" \
	'["stuck","offline","remove","recorded"]' "offline"
assert_eq "$(label)" "" "label removed"
assert_eq "$(record | jq -c '[.state, .labelRemoved]')" '["offline",true]' "record: offline"
#    the pod goes, its NodeManager leaves the RM
kubectl -n hadoop-yarn delete pod yarn-nm-0 --wait=false >/dev/null || fail "kubectl delete pod"
rm_post /nodes "[{\"id\":\"$SYNC_NM_ID\",\"state\":\"SHUTDOWN\",\"memoryMB\":0,\"vCores\":0},{\"id\":\"other-host:8041\",\"state\":\"RUNNING\",\"memoryMB\":8192,\"vCores\":8}]"
pass 760
#    (the 2 CPUs its NodeManager pod requested are free now, but still taken
#    off the pool the return is judged on: it must not come back on them)
assert_eq "$(w1 '[.action, .reasonCode, .lifecycle.state, .lifecycle.action]')" \
	'["skip","no-nodemanager","offline","none"]' "offline, no NodeManager"
grep "node 'worker-1': skipped" "$tmpdir/sync.err" && fail "a line for a node the lifecycle keeps offline"

# 6. the pool comes back: after holdUpMs the node returns, the label is set
origin 37480
pass 800
assert_eq "$(w1 '[.lifecycle.state, .lifecycle.pendingSince]')" '["offline","2026-11-30T16:13:20Z"]' \
	"hold-up starts"
pass 920
assert_eq "$(w1 '[.lifecycle.previous, .lifecycle.state, .lifecycle.label, .lifecycle.result]')" \
	'["offline","returning","set","recorded"]' "returning"
assert_eq "$(label)" true "label set again"
assert_eq "$(record | jq -c '[.state, .labelRemoved]')" '["returning",null]' "record: returning"

# 7. the DaemonSet starts the NodeManager again: active, resized to Batch
jq '.items[] | select(.metadata.name == "yarn-nm-0")' "$tmpdir/cluster.json" |
	kubectl create -f - >/dev/null || fail "kubectl create pod"
rm_post /nodes "[{\"id\":\"$SYNC_NM_ID\",\"state\":\"RUNNING\",\"memoryMB\":40960,\"vCores\":20},{\"id\":\"other-host:8041\",\"state\":\"RUNNING\",\"memoryMB\":8192,\"vCores\":8}]"
pass 930
assert_eq "$(w1 '[.lifecycle.previous, .lifecycle.state, .action, .yarnTotal.vCores, .result]')" \
	'["returning","active","update",30,"updated"]' "active again"
assert_eq "$(rm_w1)" "[30,97598]" "the RM has the Batch total again"
assert_eq "$(record | jq -r .state)" active "record: active"

# 8. --dry-run writes no record; a plan that sends room to a held node is refused
origin 7500
pass 1000
pass 1100 --dry-run
assert_eq "$(w1 '[.lifecycle.state, .lifecycle.result]')" '["draining","planned"]' "dry run plans"
assert_eq "$(record | jq -r .state)" active "dry run wrote nothing"
KILO_NOW=2026-11-30T16:18:20Z kilo-sync plan --config "$tmpdir/lc.yaml" >"$tmpdir/plan.json" 2>/dev/null
jq '(.items[] | select(.node == "worker-1") | .yarnTotal) = {"vCores":8,"memoryMB":8192}' \
	"$tmpdir/plan.json" >"$tmpdir/bad-plan.json"
rc=0
kilo-sync apply --config "$tmpdir/lc.yaml" <"$tmpdir/bad-plan.json" >/dev/null 2>"$tmpdir/apply.err" || rc=$?
assert_eq "$rc" 2 "apply of room for a held node"
grep -q "yarnTotal: expected 0/0 for a node the lifecycle holds" "$tmpdir/apply.err" ||
	fail "apply message: $(cat "$tmpdir/apply.err")"
#    so is one whose lifecycle part is gone (a plan of a config without
#    lifecycle, or edited): with lifecycle on, every resize says its state
jq '(.items[] | select(.node == "worker-1")) |= (del(.lifecycle) | .yarnTotal = {"vCores":8,"memoryMB":8192})' \
	"$tmpdir/plan.json" >"$tmpdir/bad-plan2.json"
posts=$(count_rm_posts)
rc=0
kilo-sync apply --config "$tmpdir/lc.yaml" <"$tmpdir/bad-plan2.json" >/dev/null 2>"$tmpdir/apply.err" || rc=$?
assert_eq "$rc" 2 "apply of a resize without its lifecycle part"
grep -q "lifecycle: expected a lifecycle part (lifecycle is enabled in the config), got nothing" "$tmpdir/apply.err" ||
	fail "apply message: $(cat "$tmpdir/apply.err")"
assert_eq "$(count_rm_posts)" "$posts" "nothing sent"

# 9. a plan applied after someone else changed the record does not overwrite
#    it: an operator who deleted it to start over is not undone
origin 7500
KILO_NOW=2026-11-30T16:30:00Z kilo-sync plan --config "$tmpdir/lc.yaml" >"$tmpdir/plan2.json" 2>/dev/null
assert_eq "$(jq -c '.items[] | select(.node == "worker-1") | [.lifecycle.action, (.lifecycle.basis | fromjson | .state)]' "$tmpdir/plan2.json")" \
	'["record","active"]' "the plan records over the active record"
kubectl annotate node worker-1 kilo.sh/yarn-lifecycle- >/dev/null || fail "kubectl annotate -"
rc=0
kilo-sync apply --config "$tmpdir/lc.yaml" --textfile-dir "$tmpdir" <"$tmpdir/plan2.json" \
	>"$tmpdir/report.json" 2>"$tmpdir/apply.err" || rc=$?
assert_eq "$(w1 '[.lifecycle.result, .lifecycle.errorCode]')" '["failed","annotation-conflict"]' "stale plan"
grep -q "node 'worker-1': failed (lifecycle) (annotation-conflict): node worker-1: its lifecycle record changed since the plan read it" \
	"$tmpdir/apply.err" || fail "stale plan line: $(cat "$tmpdir/apply.err")"
assert_eq "$(record)" "" "the operator's deletion stands"
#    (the transition line says it was not recorded: the node did not move)
grep -q "node 'worker-1': lifecycle active -> draining (not recorded): Batch 0" "$tmpdir/apply.err" ||
	fail "transition line of a failed record: $(cat "$tmpdir/apply.err")"
grep -q '^kilo_sync_node_lifecycle{node="worker-1",cluster="yarn-cluster-1",state="active"} 1$' \
	"$tmpdir/kilo-sync.prom" || fail "metric of a failed record: $(grep lifecycle "$tmpdir/kilo-sync.prom")"

# 10. a label set or removed only over kilo's own value: an operator who set
#     the key to another value (keep the node out) is not overwritten, not
#     even by a plan that was made before
KILO_NOW=2026-11-30T16:31:00Z kilo-sync plan --config "$tmpdir/lc.yaml" >"$tmpdir/plan3.json" 2>/dev/null
jq '(.items[] | select(.node == "worker-1") | .lifecycle) |= (.label = "set")' \
	"$tmpdir/plan3.json" >"$tmpdir/plan3-set.json"
assert_eq "$(jq -c '.items[] | select(.node == "worker-1") | [.lifecycle.action, .lifecycle.basis]' "$tmpdir/plan3-set.json")" \
	'["record",null]' "the plan records (over no record)"
kubectl label node worker-1 --overwrite "$LABEL=false" >/dev/null || fail "kubectl label"
rc=0
kilo-sync apply --config "$tmpdir/lc.yaml" <"$tmpdir/plan3-set.json" >"$tmpdir/report.json" 2>"$tmpdir/apply.err" || rc=$?
assert_eq "$(w1 '[.lifecycle.result, .lifecycle.errorCode]')" '["failed","annotation-conflict"]' \
	"a label of another value"
assert_eq "$(label)" false "the operator's value stands"
assert_eq "$(record)" "" "nothing written"

# 11. a plan made while the node was active is not applied over a node held
#     since (another pass drained it): the resize would open the held node
#     to its total: room the node no longer has
kubectl label node worker-1 --overwrite "$LABEL=true" >/dev/null || fail "kubectl label"
origin 37480
KILO_NOW=2026-11-30T16:40:00Z kilo-sync plan --config "$tmpdir/lc.yaml" >"$tmpdir/plan4.json" 2>/dev/null
assert_eq "$(jq -c '.items[] | select(.node == "worker-1") | [.action, .overCommitTimeoutMs, .lifecycle.state]' "$tmpdir/plan4.json")" \
	'["update",-1,"active"]' "a plan of the active node"
kubectl annotate node worker-1 --overwrite \
	'kilo.sh/yarn-lifecycle={"state":"draining","since":"2026-11-30T16:41:00Z","reason":"another pass"}' \
	>/dev/null || fail "kubectl annotate"
posts=$(count_rm_posts)
rc=0
kilo-sync apply --config "$tmpdir/lc.yaml" <"$tmpdir/plan4.json" >"$tmpdir/report.json" 2>"$tmpdir/apply.err" || rc=$?
assert_eq "$(w1 '[.result, .errorCode]')" '["failed","annotation-conflict"]' "resize of a node held since"
assert_eq "$(count_rm_posts)" "$posts" "no resize sent"
assert_eq "$(record | jq -r .state)" draining "the record stands"
#     while a pass that decides from that record still cancels the drain
pass 2500
assert_eq "$(w1 '[.lifecycle.state, .lifecycle.pendingSince]')" '["draining","2026-11-30T16:41:40Z"]' \
	"the hold-up starts"
pass 2620
assert_eq "$(w1 '[.lifecycle.previous, .lifecycle.state, .action, .overCommitTimeoutMs, .result]')" \
	'["draining","active","update",-1,"updated"]' "drain cancelled, resized"
