#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kilo-sync's lifecycle.drain decommission (issue #23 slice c) against
# Hadoop's own ResourceManagers (an HA pair) and one real NodeManager; the
# Kubernetes side is the fake API server (k8s.sh), kilo-sync's clock stepped
# with KILO_NOW. The RM's exclude list is the file of mkconf.py
# (yarn.resourcemanager.nodes.exclude-path), with lines of an operator's;
# kilo-sync's rmadmin.command is test/hadoop/yarn (Hadoop's RMAdminCLI).
#  1. Batch drops under two running containers: after holdDownMs the node
#     id's host goes on the list (the operator's lines kept) and
#     `rmadmin -refreshNodes -g T -server` runs; the RM lists the node
#     DECOMMISSIONING (its total held at its use), the containers keep
#     running (the RM and the NodeManager say so), a second application's
#     container does not land there
#  2. the containers end: DECOMMISSIONED; the next pass records offline and
#     removes the label; the NodeManager exits by itself (the RM told it
#     to), its pod is deleted as the DaemonSet would
#  3. Batch back for holdUpMs: the host off the list, refreshed (-g T
#     -server), then the label; the NodeManager and its pod back: RUNNING,
#     active, resized to Batch
#  4. a failover during DECOMMISSIONING, a container running: the new RM
#     does not keep the graceful decommission (YARN-5464): it refuses the
#     excluded host (SHUTDOWN, "Disallowed NodeManager"), the NodeManager
#     kills the container and exits, and the new RM does not list the node
#     at all; the next pass records offline with rmChanged and says so;
#     the return goes through the new RM
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/hadoop/cluster.sh"
. "$KILO_TOP/test/hadoop/k8s.sh"
cd "$tmpdir" || exit 1
hd_start --rms 2 --nms 1
# worker-1: 8 cores / 16 GiB of Batch; the NM pod requests 2 cores / 2 GiB
hd_k8s 8000:17179869184
nmhost=$(jq -r '.nms[0].host' "$hd_info")
exclude=$(jq -r .exclude "$hd_info")
label=kilo.sh/yarn-nodemanager
curl -sf -X PATCH -H 'Content-Type: application/merge-patch+json' \
	-d "{\"metadata\":{\"labels\":{\"$label\":\"true\"}}}" "$api/api/v1/nodes/worker-1" >/dev/null ||
	fail "label worker-1"
# an online pod beside the NodeManager's (one pod at least: a listing
# without any pod is taken for a wrong selector, nothing applied)
jq '.items[] | select(.metadata.name | startswith("web-frontend")) |
	.spec.nodeName = "worker-1" | .kind = "Pod" | .apiVersion = "v1"' "$FIX/k8s/podlist-mixed.json" |
	curl -sf -X POST -H 'Content-Type: application/json' -d @- \
		"$api/api/v1/namespaces/online/pods" >/dev/null || fail "the online pod"
# the operator's own lines: a comment, a host of another cluster
printf '# the operator'"'"'s own\nold-host.example.com # retired\n' >"$exclude"
cp "$exclude" exclude.operator
sed "s|timeoutMs: 5000|timeoutMs: 5000\n    confirmTimeoutMs: 10000\n    rmadmin: {command: $KILO_TOP/test/hadoop/yarn, timeoutMs: 60000}\n    exclude: {file: $exclude}|" \
	kilo-sync.yaml >dc.yaml
cat >>dc.yaml <<EOC
lifecycle:
  drain: decommission
  decommissionTimeoutSeconds: 45
  min: {vCores: 1, memoryMB: 1024}
  returnMargin: {vCores: 1, memoryMB: 1024}
  holdDownMs: 5000
  holdUpMs: 5000
  drainTimeoutMs: 600000
  nodeLabel: $label=true
EOC
# kilo-sync's rmadmin runs Hadoop's RMAdminCLI against the test's cluster
HADOOP_CONF_DIR=$hd_work/conf-client
export HADOOP_CONF_DIR

sync() { # SECONDS: one verbose pass at that many seconds past t0
	rc=0
	_t0=$(date +%s%N)
	KILO_NOW=$(printf '2026-12-01T00:%02d:%02dZ' $(($1 / 60)) $(($1 % 60))) \
		kilo-sync --config dc.yaml --verbose >report.json 2>sync.err || rc=$?
	pass_ms=$((($(date +%s%N) - _t0) / 1000000))
	cat sync.err >>sync-all.err
	[ "$rc" = 0 ] || fail "pass at t0+$1 s: exit $rc ($(grep -v '^kilo-sync: [A-Z]* http' sync.err))"
}
item() { jq -c ".items[] | select(.node == \"worker-1\") | $1" report.json; }
total() { hd_node "$hd_nm1" | jq -c '[.totalResource.vCores, .totalResource.memory]'; }
used() { hd_node "$hd_nm1" | jq -c '[.usedVirtualCores, .usedMemoryMB, .numContainers]'; }
state() { # the RM's NodeState of the node, "absent" when it does not list it
	_st=$(hd_node "$hd_nm1" | jq -r .state)
	echo "${_st:-absent}"
}
record() { curl -sf "$api/api/v1/nodes/worker-1" |
	jq -c --arg k kilo.sh/yarn-lifecycle '.metadata.annotations[$k] // "{\"state\":\"none\"}" | fromjson'; }
labelled() { curl -sf "$api/api/v1/nodes/worker-1" | jq -r --arg k "$label" '.metadata.labels[$k] // "absent"'; }
moved() { # FROM TO: this pass said "node 'worker-1': lifecycle FROM -> TO: ..."
	grep -q "^kilo-sync: node 'worker-1': lifecycle $1 -> $2: " sync.err ||
		fail "no line 'lifecycle $1 -> $2': $(grep -v '^kilo-sync: [A-Z]* http' sync.err)"
}
nm_states() { # the NodeManager's own view of its containers: STATE... (sorted)
	curl -sf "$hd_nmurl1/ws/v1/node/containers" |
		jq -r '[.containers.container // [] | .[].state] | sort | join(" ")'
}
# the NodeManager pod, kept to put it back as the DaemonSet would
curl -sf "$api/api/v1/namespaces/hadoop-yarn/pods/yarn-nm-1" |
	jq 'del(.metadata.resourceVersion)' >pod-nm-1.json || fail "read the NM pod"
pod_delete() {
	curl -sf -X DELETE "$api/api/v1/namespaces/hadoop-yarn/pods/yarn-nm-1" >/dev/null ||
		fail "delete the NM pod"
}
pod_back() {
	curl -sf -X POST -H 'Content-Type: application/json' -d @pod-nm-1.json \
		"$api/api/v1/namespaces/hadoop-yarn/pods" >/dev/null || fail "put the NM pod back"
}

# 0. active at its Batch total; two containers on the NodeManager
sync 0
assert_eq "$(item '[.lifecycle.state, .result]')" '["active","updated"]' "first pass"
hd_wait "worker-1's total at the RM" 10 hd_is "[6,14336]" total
hd_app "$nmhost" 2 1024 1
hd_wait "the RM counts the containers" 10 hd_is "[2,2048,2]" used

# 1. Batch drops to 0 (all of the origin the NM pod's): the hold-down pass
#    holds it at 0/0 with -1, the next one decommissions it
set_origin worker-1 2000 2147483648
sync 10
assert_eq "$(item '[.lifecycle.state, .lifecycle.pendingSince, .yarnTotal, .overCommitTimeoutMs]')" \
	'["active","2026-12-01T00:00:10Z",{"vCores":0,"memoryMB":0},-1]' "below min, the hold-down begins"
hd_wait "worker-1 at 0/0" 10 hd_is "[0,0]" total
sync 16
moved active draining
drain_ms=$pass_ms
assert_eq "$(item '[.lifecycle.state, .lifecycle.decommission, .lifecycle.decommissionResult, .lifecycle.result]')" \
	'["draining","exclude","excluded","recorded"]' "draining by decommission"
grep -q "lifecycle active -> draining: .*decommissioning gracefully" sync.err ||
	fail "transition line: $(grep -v '^kilo-sync: [A-Z]* http' sync.err)"
#    the list: the operator's lines as they were, the node id's host after
assert_eq "$(cat "$exclude")" "$(cat exclude.operator)
$nmhost" "the exclude list"
#    the record holds what kilo excluded and the RM it began under
rm1_started=$(curl -sf "$hd_rm1/ws/v1/cluster/info" | jq .clusterInfo.startedOn)
assert_eq "$(record | jq -c '[.state, .excluded, .rm, .rmChanged]')" \
	"[\"draining\",{\"cluster\":\"yarn-real\",\"host\":\"$nmhost\"},{\"index\":0,\"startedOn\":$rm1_started},null]" \
	"worker-1's record"
#    the real RM: DECOMMISSIONING at once (the pass waited for it), its
#    total held at its use
assert_eq "$(state)" DECOMMISSIONING "the RM's state after the pass"
hd_wait "the RM holding worker-1's total at its use" 10 hd_is "[2,2048]" total
#    nothing killed, nothing new: a second application asks for a container
hd_app_ask "$nmhost" 1 1024 1
sleep 3
assert_eq "$(used)" "[2,2048,2]" "the RM's use of a decommissioning node"
assert_eq "$(jq -c '[(.running | length), .completed]' "$hd_app_report")" '[2,[]]' \
	"the running containers, as the application hears from the RM"
assert_eq "$(nm_states)" "RUNNING RUNNING" "the containers, as the NodeManager lists them"
assert_eq "$(jq -c '[.state, (.running | length)]' "$hd_ask_report")" '["RUNNING",0]' \
	"the second application, while worker-1 decommissions"
sync 20
assert_eq "$(item '[.action, .reasonCode, .lifecycle.state, .lifecycle.action, .lifecycle.decommission]')" \
	'["skip","rm-node-decommissioning","draining","none",null]' "held by the RM"
assert_eq "$(grep -c '^kilo-sync: POST ' sync.err)" 0 "no RM write while decommissioning"
assert_eq "$(state)" DECOMMISSIONING "the RM's state, the pass after"

# 2. the containers end (the application finishes): DECOMMISSIONED; the
#    pending request gets nothing there
hd_app_stop
assert_eq "$(jq -c '.completed | length' "$hd_app_report")" 0 \
	"no container completed before the application ended (none killed)"
hd_wait "worker-1 DECOMMISSIONED" 30 hd_is DECOMMISSIONED state
assert_eq "$(jq -c '[.state, (.running | length)]' "$hd_ask_report")" '["RUNNING",0]' \
	"the second application once worker-1 is decommissioned"
hd_ask_stop
sync 25
moved draining offline
assert_eq "$(item '[.lifecycle.state, .lifecycle.label, .lifecycle.result, .reasonCode]')" \
	'["offline","remove","recorded","rm-node-inactive"]' "offline"
grep -q "lifecycle draining -> offline: the RM decommissioned it: label removed" sync.err ||
	fail "offline line: $(grep -v '^kilo-sync: [A-Z]* http' sync.err)"
assert_eq "$(labelled)" absent "worker-1's label once offline"
assert_eq "$(record | jq -c '[.state, .excluded.host]')" "[\"offline\",\"$nmhost\"]" \
	"the record: offline, the host still excluded"
#    the RM told the NodeManager to shut down; the DaemonSet deletes its pod
hd_wait "the decommissioned NodeManager exits by itself" 30 hd_nm_exited nm1
grep -q "Received SHUTDOWN signal from Resourcemanager" "$hd_work/logs/nm1.log" ||
	fail "the NodeManager's log: $(tail -n 5 "$hd_work/logs/nm1.log")"
pod_delete
sync 30
assert_eq "$(item '[.lifecycle.state, .lifecycle.action]')" '["offline","none"]' "offline, no pod"

# 3. Batch returns: after holdUpMs the host leaves the list and the RM is
#    refreshed, then the label is set
set_origin worker-1 8000 17179869184
sync 40
assert_eq "$(item '[.lifecycle.state, .lifecycle.pendingSince]')" '["offline","2026-12-01T00:00:40Z"]' \
	"Batch back, the hold-up begins"
sync 46
moved offline returning
assert_eq "$(item '[.lifecycle.state, .lifecycle.decommission, .lifecycle.decommissionResult, .lifecycle.label, .lifecycle.result]')" \
	'["returning","include","included","set","recorded"]' "returning"
assert_eq "$(cat "$exclude")" "$(cat exclude.operator)" "the exclude list: the operator's lines only"
assert_eq "$(labelled)" true "worker-1's label set again"
assert_eq "$(record | jq -c '[.state, .excluded, .rm]')" '["returning",null,null]' "nothing excluded any more"
#    the DaemonSet starts the NodeManager again: the RM takes it back
pod_back
hd_nm_start nm1
hd_wait "worker-1 RUNNING again" 60 hd_is RUNNING state
sync 50
moved returning active
assert_eq "$(item '[.lifecycle.state, .action, .result, .yarnTotal]')" \
	'["active","update","updated",{"vCores":6,"memoryMB":14336}]' "active again"
assert_eq "$(total)" "[6,14336]" "worker-1's total at the RM after the return"

# 4. a failover while decommissioning, a container running
hd_app "$nmhost" 1 1024 1
hd_wait "the container on worker-1" 10 hd_is "[1,1024,1]" used
set_origin worker-1 2000 2147483648
sync 60
sync 66
moved active draining
assert_eq "$(state)" DECOMMISSIONING "the RM's state before the failover"
assert_eq "$(record | jq -c '[.state, .rm.index, .rmChanged]')" '["draining",0,null]' "the record before the failover"
#    rm1 standby, rm2 active: rm2 reads the exclude list as it becomes active
hd_rmadmin -transitionToStandby rm1 >/dev/null 2>&1 || fail "rmadmin -transitionToStandby rm1"
hd_rmadmin -transitionToActive rm2 >/dev/null 2>&1 || fail "rmadmin -transitionToActive rm2"
_hd_active=$hd_rm2
#    the NodeManager registers with rm2, which refuses the excluded host at
#    once, with no grace: SHUTDOWN; the NodeManager kills the container
#    (143) and exits
hd_wait "the NodeManager refused by rm2" 30 grep -q \
	"Message from ResourceManager: Disallowed NodeManager nodeId: $hd_nm1" "$hd_work/logs/nm1.log"
hd_wait "the NodeManager exits" 30 hd_nm_exited nm1
grep -q "Exit code from container $hd_app_containers is : 143" "$hd_work/logs/nm1.log" ||
	fail "the container killed: $(grep 'Exit code from container' "$hd_work/logs/nm1.log")"
#    and rm2 does not list the node at all, in any state
assert_eq "$(state)" absent "worker-1 at rm2"
assert_eq "$(curl -sf "$hd_rm2/ws/v1/cluster/nodes?states=NEW,RUNNING,UNHEALTHY,DECOMMISSIONING,DECOMMISSIONED,LOST,REBOOTED,SHUTDOWN" |
	jq -c '[.nodes.node // [] | .[].id]')" '[]' "rm2's nodes"
#    kilo-sync's next pass: offline, rmChanged, YARN-5464 named
sync 70
moved draining offline
assert_eq "$(item '[.lifecycle.state, .lifecycle.rmChanged, .lifecycle.label, .lifecycle.result]')" \
	'["offline",true,"remove","recorded"]' "offline after the failover"
grep -q "lifecycle draining -> offline: decommissioned at once: another RM took over during the graceful decommission (a failover or a restart) and does not keep its timeout (YARN-5464)" \
	sync.err || fail "failover not reported: $(grep -v '^kilo-sync: [A-Z]* http' sync.err)"
assert_eq "$(record | jq -c '[.state, .rmChanged, .rm.index]')" '["offline",true,0]' "the record keeps it"
assert_eq "$(labelled)" absent "worker-1's label after the failover"
#    the application: rm2 never knew it (no RM state store) and refuses its
#    AM; SIGTERM would have it retry its unregistration: killed
kill -KILL "$hd_app_pid"
hd_wait "the application gone" 10 _hd_dead "$hd_app_pid"
pod_delete
#    back through rm2
set_origin worker-1 8000 17179869184
sync 80
sync 86
moved offline returning
assert_eq "$(cat "$exclude")" "$(cat exclude.operator)" "the exclude list after the return"
pod_back
hd_nm_start nm1
hd_wait "worker-1 RUNNING at rm2" 60 hd_is RUNNING state
sync 90
moved returning active
assert_eq "$(total)" "[6,14336]" "worker-1's total at rm2"
echo "the decommission pass took $drain_ms ms (rmadmin and the wait for DECOMMISSIONING)"
