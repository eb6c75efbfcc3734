#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Who may claim a NodeManager, and what one bad item costs, against the
# fake API server and RM (threat-model.md: a tenant's pod, an RM's answer):
#  - a tenant pod outside nodeManagerNamespaces that copies worker-1's node
#    id on worker-3 claims nothing: worker-1 is resized to its own total,
#    worker-3 is not (before: worker-3's pool went to YARN for worker-1);
#  - a second pod in the namespace claiming the same id (through its
#    hostname) skips both claimants, one error naming both, exit 3, no
#    resize;
#  - one RM node item that cannot be read costs its node only (exit 3);
#  - a pod quantity that is not one costs its node only (exit 3), every
#    other node applied.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/sync-cluster.sh"
cd "$tmpdir" || exit 1
cfg=$tmpdir/kilo-sync.yaml

# pass: one live pass; its exit code in $rc, the report in $tmpdir/report.json
pass() {
	rc=0
	kilo-sync --config "$cfg" >"$tmpdir/report.json" 2>"$tmpdir/err" || rc=$?
}
item() { jq -c --arg n "$1" ".items[] | select(.node == \$n) | $2" "$tmpdir/report.json"; }
resizes() { rm_get /state | jq -c '[.resizes[] | [.node, .vCores, .memory]]'; }
nresizes() { rm_get /state | jq '.resizes | length'; }
pod() { # NS NAME NODE SPEC-EXTRA: a NodeManager-labelled pod naming worker-1's node id
	curl -sf -X POST -H 'Content-Type: application/json' "$api/api/v1/namespaces/$1/pods" -d "$(
		jq -nc --arg ns "$1" --arg n "$2" --arg node "$3" --arg id "$SYNC_NM_ID" --argjson x "$4" \
			'{apiVersion:"v1",kind:"Pod",metadata:{namespace:$ns,name:$n,
			  labels:{"app.kubernetes.io/component":"node-manager"},
			  annotations:{"yarn.hadoop.apache.org/node-id":$id,
			    "yarn.hadoop.apache.org/cluster-id":"yarn-cluster-1"}},
			  spec:({nodeName:$node,containers:[{name:"nm",image:"x"}]} + $x),
			  status:{phase:"Running"}}')" >/dev/null || fail "create pod $1/$2"
}
unpod() { curl -sf -X DELETE "$api/api/v1/namespaces/$1/pods/$2" >/dev/null || fail "delete pod $1/$2"; }

# a tenant's copy of worker-1's node id, on worker-3
pod tenant evil worker-3 '{}'
pass
assert_eq "$rc" 0 "tenant claim: exit ($(cat "$tmpdir/err"))"
assert_eq "$(resizes)" "[[\"$SYNC_NM_ID\",30,97598]]" "tenant claim: the one resize is worker-1's own"
# (the id it names is claimed by worker-1: it keeps nothing on worker-3,
# whose stale share is zeroed)
assert_eq "$(item worker-3 .reason)" \
	'"no NodeManager pod on the node (pod tenant/evil has the NodeManager label outside nodeManagerNamespaces: ignored)"' \
	"tenant claim: worker-3"
assert_eq "$(item worker-3 .annotation.action)" '"annotate"' "tenant claim: worker-3 annotation"
grep -q "warning: 1 node(s) have a pod with the NodeManager label outside nodeManagerNamespaces \[hadoop-yarn\] (first: tenant/evil on worker-3)" "$tmpdir/err" ||
	fail "tenant claim: no warning: $(cat "$tmpdir/err")"
assert_eq "$(item worker-3 .yarnNodeId)" null "tenant claim: worker-3 has no node id"
unpod tenant evil

# the same id claimed in the namespace by a pod whose hostname matches it
rm_post /restart '{}'
n0=$(nresizes)
pod hadoop-yarn yarn-nm-copy worker-3 '{"hostname":"yarn-nm-0","subdomain":"node-manager"}'
pass
assert_eq "$rc" 3 "duplicate claim: exit ($(cat "$tmpdir/err"))"
want="\"node id $SYNC_NM_ID of cluster 'yarn-cluster-1' is claimed on 2 nodes (worker-1, worker-3): every claimant is skipped\""
assert_eq "$(item worker-1 .reason)" "$want" "duplicate claim: worker-1"
assert_eq "$(item worker-3 .reason)" "$want" "duplicate claim: worker-3"
assert_eq "$(item worker-1 .severity)" '"error"' "duplicate claim: severity"
assert_eq "$(nresizes)" "$n0" "duplicate claim: resizes"
grep -q ' 3 skipped (2 for bad data)' "$tmpdir/err" || fail "duplicate claim: summary: $(cat "$tmpdir/err")"
unpod hadoop-yarn yarn-nm-copy

# an RM node item that cannot be read: its own node only
rm_post /restart '{}'
body=$(jq -nc --arg id "$SYNC_NM_ID" '{nodes:{node:[
	{id:$id,state:"RUNNING",nodeHostName:"yarn-nm-0",usedMemoryMB:"4096",usedVirtualCores:2,
	 totalResource:{memory:40960,vCores:20}},
	{id:"other-host:8041",state:"RUNNING",totalResource:{memory:8192,vCores:8}}]}}')
rm_post /fault "{\"path\":\"/ws/v1/cluster/nodes\",\"method\":\"GET\",\"count\":1,\"body\":$body}"
pass
assert_eq "$rc" 3 "unreadable RM node: exit ($(cat "$tmpdir/err"))"
assert_eq "$(item worker-1 .reason)" \
	"\"RM node $SYNC_NM_ID of cluster 'yarn-cluster-1' cannot be read: nodes.node[0].usedMemoryMB: expected an integer -9223372036854775808..9223372036854775807, got \\\"4096\\\"\"" \
	"unreadable RM node: worker-1"
assert_eq "$(nresizes)" "$n0" "unreadable RM node: resizes"

# a pod whose quantity is not one: its node only
rm_post /restart '{}'
curl -sf -X POST -H 'Content-Type: application/json' "$api/api/v1/namespaces/batch/pods" -d \
	'{"apiVersion":"v1","kind":"Pod","metadata":{"namespace":"batch","name":"odd"},"spec":{"nodeName":"worker-1","containers":[{"name":"c","resources":{"requests":{"kubernetes.io/batch-cpu":{"k":1}}}}]},"status":{"phase":"Running"}}' \
	>/dev/null || fail "create pod batch/odd"
pass
assert_eq "$rc" 3 "bad pod quantity: exit ($(cat "$tmpdir/err"))"
item worker-1 .reason | grep -q 'batch/odd' || fail "bad pod quantity: worker-1: $(item worker-1 .reason)"
assert_eq "$(nresizes)" "$n0" "bad pod quantity: resizes"
unpod batch odd
pass
assert_eq "$rc" 0 "clean again: exit ($(cat "$tmpdir/err"))"
assert_eq "$(resizes | jq -c '.[-1]')" "[\"$SYNC_NM_ID\",30,97598]" "clean again: worker-1 resized"
assert_eq "$(nresizes)" "$((n0 + 1))" "clean again: one resize"

# worker-1's NodeManager pod is gone without a trace (deleted; YARN's
# containers live on, NodeManager recovery): its id is the pod's FQDN, which
# names no node, but no pod claims that busy RM node: worker-1 keeps its share
worker1_entry=$(entry worker-1 hadoop-yarn)
[ -n "$worker1_entry" ] || fail "worker-1 has no hadoop-yarn entry to keep"
unpod hadoop-yarn yarn-nm-0
pass
assert_eq "$(item worker-1 .annotation.action)" '"none"' "NodeManager pod gone: worker-1 annotation ($(item worker-1 .reason))"
item worker-1 .reason | grep -q 'no NodeManager pod claims it' || fail "NodeManager pod gone: $(item worker-1 .reason)"
assert_eq "$(entry worker-1 hadoop-yarn)" "$worker1_entry" "NodeManager pod gone: worker-1's entry"
# an RM that answers {} for its nodes list: no list at all, never an empty one
rm_post /fault '{"path":"/ws/v1/cluster/nodes","method":"GET","count":1,"body":{}}'
pass
assert_eq "$rc" 75 "RM nodes {}: exit ($(cat "$tmpdir/err"))"
grep -q "cluster 'yarn-cluster-1': unreachable (rm-answer-invalid), 0 nodes skipped for it: .*not an RM nodes list" "$tmpdir/err" ||
	fail "RM nodes {}: $(cat "$tmpdir/err")"
assert_eq "$(entry worker-1 hadoop-yarn)" "$worker1_entry" "RM nodes {}: worker-1's entry"
