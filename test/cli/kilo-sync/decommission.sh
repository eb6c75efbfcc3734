#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# lifecycle.drain decommission (kilo-sync(1) LIFECYCLE) against the fakes:
# the drain puts the NodeManager's host on the RM's exclude list (a file
# here, then a ConfigMap) and runs rmadmin -refreshNodes -g T -server; the
# node is offline once the RM lists it DECOMMISSIONED; the return takes the
# host off the list (the operator's lines kept) before the label comes back.
# The `yarn` stand-in records its arguments and does to the fake RM what the
# real one does on a refresh (test/hadoop holds the real RM to it).
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/sync-cluster.sh"
cd "$tmpdir" || exit 1

LC_CONFIG=$tmpdir/dc.yaml
. "$KILO_TOP/test/cli/kilo-sync/lifecycle.inc"
HOST=${SYNC_NM_ID%:*}
printf '# the operator'"'"'s own\nold-host\n' >"$tmpdir/yarn.exclude"
yarn_standin
write_config() { # EXCLUDE-YAML
	cat >"$tmpdir/dc.yaml" <<EOF
clusters:
  - id: yarn-cluster-1
    rmUrls: [$rm1, $rm2]
    timeoutMs: 5000
    confirmTimeoutMs: 3000
    rmadmin: {command: $tmpdir/yarn, timeoutMs: 20000}
    exclude: $1
overCommitTimeoutMs: -1
kubernetes: {pageSize: 50}
lifecycle:
  drain: decommission
  decommissionTimeoutSeconds: 1800
  holdDownMs: 60000
  holdUpMs: 120000
  nodeLabel: $LABEL=true
EOF
}
write_config "{file: $tmpdir/yarn.exclude}"
rm_state() { rm_get /state | jq -r ".nodes[] | select(.id == \"$SYNC_NM_ID\") | .state"; }
rm_nodes() { # STATE USED-VCORES CONTAINERS
	rm_post /nodes "[{\"id\":\"$SYNC_NM_ID\",\"state\":\"$1\",\"memoryMB\":40960,\"vCores\":20,\"usedMemoryMB\":$(($2 * 1024)),\"usedVCores\":$2,\"containers\":$3},{\"id\":\"other-host:8041\",\"state\":\"RUNNING\",\"memoryMB\":8192,\"vCores\":8}]"
}

kubectl label node worker-1 "$LABEL=true" >/dev/null || fail "kubectl label"
pass 0
assert_eq "$rc" 0 "first pass ($(cat "$tmpdir/sync.err"))"
assert_eq "$(w1 .lifecycle.state)" '"active"' "active"

# 1. the pool goes: after holdDownMs the host goes on the exclude list and
#    the RM decommissions it gracefully
origin 7500
pass 10
pass 70
assert_eq "$rc" 0 "drain pass ($(cat "$tmpdir/sync.err"))"
assert_eq "$(w1 '[.lifecycle.previous, .lifecycle.state, .lifecycle.decommission, .lifecycle.decommissionResult, .lifecycle.result]')" \
	'["active","draining","exclude","excluded","recorded"]' "draining by decommission"
assert_eq "$(cat "$tmpdir/yarn.exclude")" "# the operator's own
old-host
$HOST" "the host appended, the operator's lines kept"
assert_eq "$(cat "$tmpdir/yarn.calls")" "rmadmin -refreshNodes -g 1800 -server" "rmadmin arguments"
assert_eq "$(rm_state)" DECOMMISSIONING "the RM decommissions it"
assert_eq "$(record | jq -c .excluded)" "{\"cluster\":\"yarn-cluster-1\",\"host\":\"$HOST\"}" \
	"the record says what kilo excluded"
grep -q "lifecycle active -> draining: .*decommissioning gracefully" "$tmpdir/sync.err" ||
	fail "transition line: $(cat "$tmpdir/sync.err")"

# 2. DECOMMISSIONING: the RM holds the total; nothing sent, nothing asked
posts=$(count_rm_posts)
pass 100
assert_eq "$(w1 '[.action, .reasonCode, .lifecycle.state, .lifecycle.action, .lifecycle.decommission]')" \
	'["skip","rm-node-decommissioning","draining","none",null]' "held by the RM"
assert_eq "$(count_rm_posts)" "$posts" "no RM write while decommissioning"
grep "node 'worker-1'" "$tmpdir/sync.err" && fail "a line for a node kilo decommissions"
assert_eq "$(wc -l <"$tmpdir/yarn.calls")" 1 "no second refresh"

# 3. its containers end, the RM decommissions it: offline, label off
rm_nodes DECOMMISSIONED 0 0
pass 130
assert_eq "$(w1 '[.lifecycle.previous, .lifecycle.state, .lifecycle.label, .lifecycle.result]')" \
	'["draining","offline","remove","recorded"]' "offline"
assert_eq "$(label)" "" "label removed"
kubectl -n hadoop-yarn delete pod yarn-nm-0 --wait=false >/dev/null || fail "kubectl delete pod"

# 4. the pool returns: off the exclude list and refreshed, then the label
origin 37480
pass 200
pass 320
assert_eq "$(w1 '[.lifecycle.previous, .lifecycle.state, .lifecycle.decommission, .lifecycle.decommissionResult, .lifecycle.label, .lifecycle.result]')" \
	'["offline","returning","include","included","set","recorded"]' "returning"
assert_eq "$(cat "$tmpdir/yarn.exclude")" "# the operator's own
old-host" "the host taken off, the operator's lines kept"
assert_eq "$(sed -n 2p "$tmpdir/yarn.calls")" "rmadmin -refreshNodes -g 1800 -server" "refreshed gracefully"
assert_eq "$(label)" true "label set again"
assert_eq "$(record | jq -c .excluded)" null "nothing excluded any more"

# 5. the NodeManager registers again: active
jq '.items[] | select(.metadata.name == "yarn-nm-0")' "$tmpdir/cluster.json" |
	kubectl create -f - >/dev/null || fail "kubectl create pod"
rm_nodes RUNNING 0 0
pass 330
assert_eq "$(w1 '[.lifecycle.state, .action, .result]')" '["active","update","updated"]' "active again"

# 6. a refresh that fails: the record (written first: it says kilo put the
#    host on the list) stands, the drain is asked again next pass
origin 7500
pass 400
: >"$tmpdir/yarn.fail"
pass 470
assert_eq "$rc" 3 "exit when the refresh failed (the 0/0 hold went through)"
assert_eq "$(w1 '[.lifecycle.state, .lifecycle.result, .lifecycle.errorCode]')" \
	'["draining","failed","decommission-failed"]' "refresh failed"
assert_eq "$(record | jq -c '[.state, .excluded.host]')" "[\"draining\",\"$HOST\"]" \
	"recorded before the list and the refresh"
grep -q "lifecycle active -> draining (recorded; its decommission failed)" "$tmpdir/sync.err" ||
	fail "transition line: $(cat "$tmpdir/sync.err")"
grep -q "node 'worker-1': failed (lifecycle) (decommission-failed): .*rmadmin -refreshNodes -g 1800 -server: exit status 1: refreshNodes: Connection refused" \
	"$tmpdir/sync.err" || fail "failure line: $(cat "$tmpdir/sync.err")"
rm -f "$tmpdir/yarn.fail"

# 7. the same drain with the list in a ConfigMap the RM pod mounts
printf '%s\n' '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":"hadoop-yarn","name":"rm-exclude"},"data":{"yarn.exclude":"old-host\n"}}' |
	kubectl create -f - >/dev/null || fail "kubectl create configmap"
write_config "{configMap: {namespace: hadoop-yarn, name: rm-exclude}}"
kubectl -n hadoop-yarn get configmap rm-exclude -o jsonpath='{.data.yarn\.exclude}' >"$tmpdir/cm.exclude"
EXCLUDE_FROM=$tmpdir/cm.exclude
export EXCLUDE_FROM
# the stand-in reads the list where the RM pod would: refresh it first
cat >"$tmpdir/yarn-cm" <<EOF
#!/bin/sh
kubectl -n hadoop-yarn get configmap rm-exclude -o jsonpath='{.data.yarn\\.exclude}' >"$tmpdir/cm.exclude"
exec "$tmpdir/yarn" "\$@"
EOF
chmod +x "$tmpdir/yarn-cm"
sed -i "s|command: $tmpdir/yarn,|command: $tmpdir/yarn-cm,|" "$tmpdir/dc.yaml"
pass 480
assert_eq "$rc" 0 "ConfigMap drain ($(cat "$tmpdir/sync.err"))"
assert_eq "$(w1 '[.lifecycle.state, .lifecycle.decommission, .lifecycle.decommissionResult, .lifecycle.result]')" \
	'["draining","exclude","excluded","unchanged"]' "draining, asked again on the ConfigMap's list"
assert_eq "$(kubectl -n hadoop-yarn get configmap rm-exclude -o jsonpath='{.data.yarn\.exclude}')" "old-host
$HOST" "the ConfigMap's list"
assert_eq "$(rm_state)" DECOMMISSIONING "the RM read it"

# 8. a failover while decommissioning: the new RM does not keep the
#    graceful timeout and decommissions the node at once (YARN-5464), killing
#    what still ran: kilo-sync says so, it does not pass it off as drained
rm_nodes DECOMMISSIONING 2 2
pass 490
assert_eq "$(record | jq -c .rm)" '{"index":0,"startedOn":1324053971963}' "the RM the drain began under"
rm_post /failover '{}'
rm_nodes DECOMMISSIONED 0 0
pass 500
assert_eq "$(w1 '[.lifecycle.state, .lifecycle.rmChanged, .lifecycle.result]')" '["offline",true,"recorded"]' \
	"offline after a failover"
grep -q "lifecycle draining -> offline: decommissioned at once: another RM took over during the graceful decommission (a failover or a restart) and does not keep its timeout (YARN-5464)" \
	"$tmpdir/sync.err" || fail "failover not reported: $(cat "$tmpdir/sync.err")"
assert_eq "$(record | jq -c '[.state, .rmChanged]')" '["offline",true]' "the record keeps it"

# 9. drain switched back to resize while a node kilo excluded is offline: its
#    return still takes the host off the list (the refusal of a plan's
#    include in resize mode kept it out for good; from an operator's trial)
sed -i 's/drain: decommission/drain: resize/' "$tmpdir/dc.yaml"
kubectl -n hadoop-yarn delete pod yarn-nm-0 --wait=false >/dev/null || fail "kubectl delete pod"
origin 37480
pass 600
pass 800
assert_eq "$(w1 '[.lifecycle.state, .lifecycle.decommission, .lifecycle.decommissionResult, .lifecycle.result]')" \
	'["returning","include","included","recorded"]' "returning in resize mode"
assert_eq "$(kubectl -n hadoop-yarn get configmap rm-exclude -o jsonpath='{.data.yarn\.exclude}')" "old-host" \
	"the host off the ConfigMap's list"
