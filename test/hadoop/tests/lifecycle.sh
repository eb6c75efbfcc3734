#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kilo-sync's NodeManager lifecycle (issue #23 slice b) against Hadoop's own
# ResourceManager and two real NodeManagers; the Kubernetes side is the fake
# API server (k8s.sh), kilo-sync's clock stepped with KILO_NOW across the
# holds. worker-1's Batch pool drops to what its NodeManager pod requests
# while an application holds two containers on its NodeManager:
#  1. after holdDownMs the node drains: the RM lists it at 0/0, the two
#     containers keep running (the RM and the NodeManager say so), and a
#     second application asking for a container on it gets none, not even
#     once the first one's containers end and free their room
#  2. no container left: offline, lifecycle.nodeLabel removed from the
#     Node; the DaemonSet's part (the NodeManager stopped, its pod deleted)
#     is played by the test; the pod's own request is not taken for Batch
#  3. Batch back for holdUpMs: returning, the label set again; the
#     NodeManager and its pod back: active, resized to the Batch total
#     Each transition is one "lifecycle A -> B" line of kilo-sync; the RM's
#     own log shows every resize of worker-1 since the drop carried -1.
#  4. why lifecycle needs overCommitTimeoutMs -1 (a config with 30000 is
#     exit 2): the RM never disarms a timeout once a resize carried one; a
#     later 0/0 with -1 preempts worker-2's container at once
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/hadoop/cluster.sh"
. "$KILO_TOP/test/hadoop/k8s.sh"
cd "$tmpdir" || exit 1
hd_start --rms 1 --nms 2
# worker-1: 8 cores / 16 GiB of Batch, worker-2: 6 cores / 12 GiB; the NM
# pods request 2 cores / 2 GiB of it
hd_k8s 8000:17179869184 6000:12884901888
nmhost1=$(jq -r '.nms[0].host' "$hd_info")
label=kilo.sh/yarn-nodemanager
for n in worker-1 worker-2; do
	curl -sf -X PATCH -H 'Content-Type: application/merge-patch+json' \
		-d "{\"metadata\":{\"labels\":{\"$label\":\"true\"}}}" "$api/api/v1/nodes/$n" >/dev/null ||
		fail "label $n"
done
cp kilo-sync.yaml lc.yaml
cat >>lc.yaml <<EOC
lifecycle:
  min: {vCores: 1, memoryMB: 1024}
  returnMargin: {vCores: 1, memoryMB: 1024}
  holdDownMs: 5000
  holdUpMs: 5000
  drainTimeoutMs: 600000
  nodeLabel: $label=true
EOC

sync() { # SECONDS: one verbose pass at that many seconds past t0
	rc=0
	KILO_NOW=$(printf '2026-12-01T00:%02d:%02dZ' $(($1 / 60)) $(($1 % 60))) \
		kilo-sync --config lc.yaml --verbose >report.json 2>sync.err || rc=$?
	cat sync.err >>sync-all.err
	[ "$rc" = 0 ] || fail "pass at t0+$1 s: exit $rc ($(grep -v '^kilo-sync: [A-Z]* http' sync.err))"
}
item() { jq -c --arg n "$1" ".items[] | select(.node == \$n) | $2" report.json; }
total() { hd_node "$1" | jq -c '[.totalResource.vCores, .totalResource.memory]'; }
used() { hd_node "$1" | jq -c '[.usedVirtualCores, .usedMemoryMB, .numContainers]'; }
node_field() { hd_node "$1" | jq -r "$2"; }
record() { curl -sf "$api/api/v1/nodes/$1" |
	jq -r '.metadata.annotations["kilo.sh/yarn-lifecycle"] // "{\"state\":\"none\"}" | fromjson | .state'; }
labelled() { curl -sf "$api/api/v1/nodes/$1" | jq -r --arg k "$label" '.metadata.labels[$k] // "absent"'; }
moved() { # FROM TO: this pass said "node 'worker-1': lifecycle FROM -> TO: ..."
	grep -q "^kilo-sync: node 'worker-1': lifecycle $1 -> $2: " sync.err ||
		fail "no line 'lifecycle $1 -> $2': $(grep -v '^kilo-sync: [A-Z]* http' sync.err)"
}
nm_states() { # the NodeManager's own view of its containers: STATE... (sorted)
	curl -sf "$hd_nmurl1/ws/v1/node/containers" |
		jq -r '[.containers.container // [] | .[].state] | sort | join(" ")'
}

# 0. both active, at their Batch totals; two containers on worker-1
sync 0
assert_eq "$(item worker-1 '[.lifecycle.state, .result]')" '["active","updated"]' "worker-1 first pass"
hd_wait "worker-1's total at the RM" 10 hd_is "[6,14336]" total "$hd_nm1"
hd_wait "worker-2's total at the RM" 10 hd_is "[4,10240]" total "$hd_nm2"
hd_app "$nmhost1" 2 1024 1
hd_wait "the RM counts the containers" 10 hd_is "[2,2048,2]" used "$hd_nm1"
rmlog_from=$(wc -l <"$hd_work/logs/rm1.log")

# 1. Batch drops to 0: origin 2 cores / 2 GiB, all of it the NM pod's; the
#    hold-down pass resizes as usual (to 0/0, -1), the next one drains
set_origin worker-1 2000 2147483648
sync 10
assert_eq "$(item worker-1 '[.lifecycle.state, .lifecycle.pendingSince, .yarnTotal, .overCommitTimeoutMs]')" \
	'["active","2026-12-01T00:00:10Z",{"vCores":0,"memoryMB":0},-1]' "below min, the hold-down begins"
sync 16
moved active draining
assert_eq "$(item worker-1 '[.lifecycle.state, .reasonCode, .yarnTotal, .overCommitTimeoutMs]')" \
	'["draining","lifecycle-hold",{"vCores":0,"memoryMB":0},-1]' "draining"
assert_eq "$(record worker-1)" draining "worker-1's record"
assert_eq "$(total "$hd_nm1")" "[0,0]" "the RM's total of a draining node"
assert_eq "$(node_field "$hd_nm1" .state)" RUNNING "the RM's state of a draining node"
#    nothing killed: still two containers, running at the RM and the NM
sleep 2
assert_eq "$(used "$hd_nm1")" "[2,2048,2]" "the RM's use of a draining node"
assert_eq "$(jq -c '[(.running | length), .completed]' "$hd_app_report")" '[2,[]]' \
	"the running containers, as the application hears from the RM"
assert_eq "$(nm_states)" "RUNNING RUNNING" "the containers, as the NodeManager lists them"
#    a second application asks for one container there: none lands
hd_app_ask "$nmhost1" 1 1024 1
sleep 3
assert_eq "$(jq -c '[.state, (.running | length)]' "$hd_ask_report")" '["RUNNING",0]' \
	"the second application, while worker-1 drains"
assert_eq "$(used "$hd_nm1")" "[2,2048,2]" "worker-1's use with a request pending"

# 2. the containers end (the application finishes): their room is not
#    reused by the pending request; the next pass records offline and
#    removes the label
hd_app_stop
hd_wait "worker-1 empty at the RM" 20 hd_is "[0,0,0]" used "$hd_nm1"
assert_eq "$(jq -c '.completed | length' "$hd_app_report")" 0 \
	"no container completed before the application ended (none killed)"
sleep 2
assert_eq "$(jq -c '[.state, (.running | length)]' "$hd_ask_report")" '["RUNNING",0]' \
	"the second application once the room is free"
assert_eq "$(used "$hd_nm1")" "[0,0,0]" "worker-1 empty, the request still pending"
sync 20
moved draining offline
assert_eq "$(item worker-1 '[.lifecycle.state, .lifecycle.label, .lifecycle.result, .action]')" \
	'["offline","remove","recorded","none"]' "offline"
assert_eq "$(labelled worker-1)" absent "worker-1's label once offline"
assert_eq "$(labelled worker-2)" true "worker-2's label"
assert_eq "$(record worker-1)" offline "worker-1's record"
hd_ask_stop
#    the DaemonSet stops the NodeManager (SHUTDOWN at the RM) and its pod goes
hd_nm_stop nm1
hd_wait "worker-1 SHUTDOWN at the RM" 20 hd_is SHUTDOWN node_field "$hd_nm1" .state
sync 25
assert_eq "$(item worker-1 '[.lifecycle.state, .lifecycle.action, .action, .reasonCode]')" \
	'["offline","none","skip","rm-node-inactive"]' "offline, its NodeManager stopped"
curl -sf "$api/api/v1/namespaces/hadoop-yarn/pods/yarn-nm-1" |
	jq 'del(.metadata.resourceVersion)' >pod-nm-1.json || fail "read the NM pod"
curl -sf -X DELETE "$api/api/v1/namespaces/hadoop-yarn/pods/yarn-nm-1" >/dev/null ||
	fail "delete the NM pod"
sync 30
assert_eq "$(item worker-1 '[.lifecycle.state, .lifecycle.action, .reasonCode]')" \
	'["offline","none","no-nodemanager"]' "offline, no NodeManager pod ($(item worker-1 .lifecycle))"
assert_eq "$(item worker-1 '[.lifecycle.batch, .lifecycle.nodeManagerRequest]')" \
	'[{"vCores":0,"memoryMB":0},{"cpuMilli":2000,"memoryBytes":2147483648}]' \
	"worker-1's Batch without its pod, less the request the pod comes back with"

# 3. Batch returns: pending for holdUpMs, then returning with the label
set_origin worker-1 8000 17179869184
sync 40
assert_eq "$(item worker-1 '[.lifecycle.state, .lifecycle.pendingSince, .lifecycle.batch]')" \
	'["offline","2026-12-01T00:00:40Z",{"vCores":6,"memoryMB":14336}]' "Batch back, the hold-up begins"
assert_eq "$(labelled worker-1)" absent "no label during the hold-up"
sync 46
moved offline returning
assert_eq "$(item worker-1 '[.lifecycle.state, .lifecycle.label, .lifecycle.result]')" \
	'["returning","set","recorded"]' "returning"
assert_eq "$(labelled worker-1)" true "worker-1's label set again"
#    the DaemonSet starts the NodeManager again, its pod is back
curl -sf -X POST -H 'Content-Type: application/json' -d @pod-nm-1.json \
	"$api/api/v1/namespaces/hadoop-yarn/pods" >/dev/null || fail "put the NM pod back"
hd_nm_start nm1
hd_wait "worker-1 RUNNING again" 60 hd_is RUNNING node_field "$hd_nm1" .state
assert_eq "$(total "$hd_nm1")" "[8,8192]" "worker-1 registers with its own configured total"
sync 50
moved returning active
assert_eq "$(item worker-1 '[.lifecycle.state, .action, .result, .yarnTotal, .overCommitTimeoutMs]')" \
	'["active","update","updated",{"vCores":6,"memoryMB":14336},-1]' "active again"
assert_eq "$(total "$hd_nm1")" "[6,14336]" "worker-1's total at the RM after the return"
assert_eq "$(record worker-1)" active "worker-1's record"
assert_eq "$(item worker-1 .lifecycle.nodeManagerRequest)" null "the pod's request forgotten once active"
assert_eq "$(grep -c "lifecycle .* -> " sync-all.err)" 4 "transitions: $(grep 'lifecycle .* -> ' sync-all.err)"
#    the RM's own word on every resize of worker-1 since the drop
#    (AbstractYarnScheduler: "Update resource on node: HOST from: R, to: R in T ms")
tail -n +"$((rmlog_from + 1))" "$hd_work/logs/rm1.log" | grep "Update resource on node: $nmhost1 " |
	sed 's/^.*Update resource on node: //' >resizes-1.log
assert_eq "$(cat resizes-1.log)" "$nmhost1 from: <memory:14336, vCores:6>, to: <memory:0, vCores:0> in -1 ms
$nmhost1 from: <memory:8192, vCores:8>, to: <memory:14336, vCores:6> in -1 ms" "worker-1's resizes at the RM"

# 4. overCommitTimeoutMs >= 0 with lifecycle: refused before anything is read
sed 's/^overCommitTimeoutMs: -1$/overCommitTimeoutMs: 30000/' lc.yaml >lc-oc.yaml
rc=0
kilo-sync --config lc-oc.yaml >/dev/null 2>oc.err || rc=$?
assert_eq "$rc" 2 "lifecycle with overCommitTimeoutMs 30000"
grep -q "overCommitTimeoutMs: expected -1 with lifecycle on (the RM never disarms a timeout" oc.err ||
	fail "the refusal: $(cat oc.err)"
#    why: worker-2 resized once with a timeout (1000 ms, lifecycle off), a
#    container started there, then 0/0 with -1: the RM preempts it at once
sed 's/^overCommitTimeoutMs: -1$/overCommitTimeoutMs: 1000/' kilo-sync.yaml >oc.yaml
set_origin worker-2 5000 11811160064
kilo-sync --config oc.yaml >/dev/null 2>&1 || fail "the pass with a timeout"
hd_wait "worker-2's total at the RM" 10 hd_is "[3,9216]" total "$hd_nm2"
hd_app "$(jq -r '.nms[1].host' "$hd_info")" 1 1024 1
sleep 2
set_origin worker-2 2000 2147483648
kilo-sync --config kilo-sync.yaml >/dev/null 2>&1 || fail "the pass with -1"
hd_wait "worker-2 at 0/0" 10 hd_is "[0,0]" total "$hd_nm2"
hd_wait "the RM preempts worker-2's container despite -1" 15 hd_is 1 jq '.completed | length' "$hd_app_report"
assert_eq "$(jq -c '[.completed[0].exitStatus, .completed[0].diagnostics]' "$hd_app_report")" \
	'[-102,"Container preempted by scheduler"]' "the container preempted after a resize with -1"
hd_app_stop
