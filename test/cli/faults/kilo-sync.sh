#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kilo-sync against the fake API server and the fake RM pair with faults
# injected: API 5xx, 429 with and without Retry-After, a dropped
# connection, a pod listing failing on its second page, a 409 storm on the Node
# patch, the API server unreachable, the RM failing over mid-pass and both
# RMs down.  Each pass must exit with the code that says what happened
# (0 done, 3 partial, 75 temporary) and its report must name the failure.
. "$KILO_TOP/test/lib.sh"
command -v curl >/dev/null 2>&1 || skip "no curl"
w=$tmpdir
python3 - "$w" <<'PY'
import json, sys
w = sys.argv[1]
B = lambda cpu, mem: {"kubernetes.io/batch-cpu": cpu, "kubernetes.io/batch-memory": mem}
items = [{"apiVersion": "v1", "kind": "Node",
          "metadata": {"name": "worker-1", "annotations": {}, "labels": {}},
          "status": {"allocatable": B("16000", "32Gi"), "capacity": B("16000", "32Gi")}}]
for i in range(6):  # 6 pods: with limit 2, page 3 exists
    items.append({"apiVersion": "v1", "kind": "Pod",
                  "metadata": {"namespace": "spark", "name": "exec-%d" % i, "labels": {},
                               "annotations": {}},
                  "spec": {"nodeName": "worker-1", "containers": [{"name": "m", "resources": {
                      "requests": B("500", "1Gi"), "limits": B("500", "1Gi")}}]},
                  "status": {"phase": "Running"}})
items.append({"apiVersion": "v1", "kind": "Pod",
              "metadata": {"namespace": "hadoop-yarn", "name": "nm-worker-1",
                           "labels": {"app.kubernetes.io/component": "node-manager"},
                           "annotations": {"yarn.hadoop.apache.org/node-id": "worker-1:8041"}},
              "spec": {"nodeName": "worker-1", "containers": [{"name": "m", "resources": {
                  "requests": B("1k", "2Gi"), "limits": B("1k", "2Gi")}}]},
              "status": {"phase": "Running"}})
json.dump({"apiVersion": "v1", "kind": "List", "items": items}, open(w + "/cluster.json", "w"))
json.dump([{"id": "worker-1:8041", "state": "RUNNING", "vCores": 8, "memoryMB": 16384,
            "usedVCores": 2, "usedMemoryMB": 4096, "containers": 2}], open(w + "/rm-nodes.json", "w"))
PY
python3 "$KILO_TOP/test/fake/fake_apiserver.py" --ignore-stdin --lifetime 300 \
	--urls-file "$w/api.urls" --load "$w/cluster.json" >/dev/null 2>&1 &
at_exit "kill $! 2>/dev/null"
python3 "$KILO_TOP/test/fake/fake_rm.py" --ignore-stdin --lifetime 300 \
	--urls-file "$w/rm.urls" --nodes-file "$w/rm-nodes.json" >/dev/null 2>&1 &
at_exit "kill $! 2>/dev/null"
wait_nonempty fakes "$w/api.urls" "$w/rm.urls"
api=$(jq -r .api "$w/api.urls")
apictl=$(jq -r .control "$w/api.urls")
rm1=$(jq -r .rm1 "$w/rm.urls")
rm2=$(jq -r .rm2 "$w/rm.urls")
rmctl=$(jq -r .control "$w/rm.urls")
kc() { # server
	printf 'apiVersion: v1\nkind: Config\nclusters: [{name: f, cluster: {server: "%s"}}]\nusers: [{name: f, user: {}}]\ncontexts: [{name: f, context: {cluster: f, user: f}}]\ncurrent-context: f\n' "$1"
}
kc "$api" >"$w/kubeconfig"
kc http://127.0.0.1:1 >"$w/kubeconfig-refused"
conf() { # kubeconfig
	printf 'clusters:\n  - id: default\n    rmUrls: ["%s", "%s"]\noverCommitTimeoutMs: -1\nkubernetes: {kubeconfig: "%s", pageSize: 2}\n' \
		"$rm1" "$rm2" "$1"
}
conf "$w/kubeconfig" >"$w/sync.yaml"
conf "$w/kubeconfig-refused" >"$w/sync-refused.yaml"
api_fault() { curl -sf -X POST -d "$1" "$apictl/faults" >/dev/null || fail "add API fault $1"; }
api_clear() { curl -sf -X DELETE "$apictl/faults" >/dev/null || :; }
rm_fault() { curl -sf -X POST -d "$1" "$rmctl/fault" >/dev/null || fail "add RM fault $1"; }
pass() { # config
	kilo-sync --config "$1" >"$w/out" 2>"$w/err"
	rc=$?
}
n=0
expect() { # name rc stderr-substring
	n=$((n + 1))
	[ "$rc" = "$2" ] || fail "$1: exit $rc, expected $2: $(cat "$w/err")"
	grep -qF -- "$3" "$w/err" || fail "$1: stderr lacks '$3': $(cat "$w/err")"
}

pass "$w/sync.yaml"
expect "baseline" 0 "1 nodes, 7 pods"

api_fault '{"method":"GET","path":"/api/v1/nodes","count":0,"status":503}'
pass "$w/sync.yaml"
expect "API 503 on the node list" 75 "503"
api_clear

api_fault '{"method":"GET","path":"/api/v1/nodes","count":1,"status":429,"retryAfter":"1"}'
pass "$w/sync.yaml"
expect "API 429 once, Retry-After 1" 0 "1 nodes, 7 pods"
api_clear

api_fault '{"method":"GET","path":"/api/v1/nodes","count":0,"status":429}'
pass "$w/sync.yaml"
expect "API 429 always, no Retry-After" 75 "429"
api_clear

api_fault '{"method":"GET","path":"/api/v1/pods","count":1,"drop":true}'
pass "$w/sync.yaml"
expect "API connection dropped once" 0 "1 nodes, 7 pods"
api_clear

api_fault '{"method":"GET","path":"/api/v1/pods","query":"continue=","count":0,"status":500}'
pass "$w/sync.yaml"
expect "pod listing fails on a continue page" 75 "page 2: after 5 retries"
api_clear

api_fault '{"method":"GET","path":"/api/v1/pods","query":"continue=","skip":1,"count":0,"status":500}'
pass "$w/sync.yaml"
expect "pod listing fails on page 3" 75 "page 3: after 5 retries"
api_clear

pass "$w/sync-refused.yaml"
expect "API refused" 75 "127.0.0.1:1"

api_fault '{"method":"PATCH","path":"/api/v1/nodes/worker-1","count":0,"status":409}'
# YARN's used share changes, so the Node annotation must be rewritten: every
# PATCH answers 409
curl -sf -X POST -d '[{"id":"worker-1:8041","state":"RUNNING","vCores":8,"memoryMB":16384,"usedVCores":5,"usedMemoryMB":8192,"containers":5}]' \
	"$rmctl/nodes" >/dev/null || fail "RM nodes"
pass "$w/sync.yaml"
expect "409 storm on the Node patch" 3 "1 failed"
jq -r '.items[0].annotation.error' "$w/out" | grep -q "onflict\|409" ||
	fail "409 storm: not named: $(jq -c '.items[0].annotation' "$w/out")"
assert_eq "$(jq -r '.items[0].annotation.result' "$w/out")" failed "409 storm: annotation result"
api_clear
pass "$w/sync.yaml"
expect "after the 409 storm" 0 "1 annotated"

# the active RM (rm1) answers 503 and the standby cannot serve: unreachable
rm_fault '{"rm":"rm1","path":"/ws/v1/cluster","count":0,"status":503}'
pass "$w/sync.yaml"
expect "active RM down" 75 "1 of 1 clusters unreachable"
# it fails over: rm2 becomes active, the same pass now succeeds through rm2
curl -sf -X POST "$rmctl/failover" >/dev/null || fail "failover"
pass "$w/sync.yaml"
expect "RM failed over to rm2" 0 "0 of 1 clusters unreachable"
rm_fault '{"rm":"rm2","path":"/ws/v1/cluster","count":0,"status":503}'
pass "$w/sync.yaml"
expect "both RMs down" 75 "1 of 1 clusters unreachable"
# no Kubernetes configuration at all: exit 1 and one line saying so (it
# used to exit 1 silently); no cluster configured at all: exit 2 first
mkdir "$w/nohome"
printf 'clusters: [{id: default, rmUrls: ["%s"]}]\n' "$rm1" >"$w/nokube.yaml"
HOME=$w/nohome KUBECONFIG='' kilo-sync plan -c "$w/nokube.yaml" >"$w/out" 2>"$w/err"
rc=$?
expect "no kubeconfig" 1 "kilo-sync: no Kubernetes configuration: no kubeconfig"
assert_eq "$(wc -l <"$w/err")" 1 "no kubeconfig: stderr lines"
HOME=$w/nohome KUBECONFIG='' kilo-sync plan >"$w/out" 2>"$w/err"
rc=$?
expect "no cluster" 2 "kilo-sync: the default configuration names no YARN cluster (clusters: [{id, rmUrls}]): nothing to sync with"
echo "kilo-sync faults: $n passes"
exit 0
