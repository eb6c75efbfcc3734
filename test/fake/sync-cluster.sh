# SPDX-License-Identifier: Apache-2.0
# sync-cluster.sh - sourced by kilo-sync's live tests (after test/lib.sh):
# starts the fake API server and the fake RM pair on loopback with a small
# cluster, and writes $tmpdir/kubeconfig and $tmpdir/kilo-sync.yaml.
#
#   worker-1  fixtures node-batch.json + podlist-mixed.json: the NodeManager
#             yarn-nm-0 of cluster yarn-cluster-1, a Spark executor, ...
#   worker-2  NodeManager of cluster c2 (its RM is never up), a non-zero
#             hadoop-yarn entry that must stay as it is
#   worker-3  no NodeManager, a non-zero hadoop-yarn entry beside another
#             tenant's entry: the hadoop-yarn one is zeroed
#   filler    pods on worker-1 that request Batch resources, so the pod
#             listing spans several pages of SYNC_PAGE_SIZE (default 2)
#
# Gives: $api, $apictl (control URL), $rmctl, $rm1, $rm2, $applog (request
# log of the API server), functions rm_get PATH, rm_post PATH JSON,
# api_ctl METHOD PATH [JSON], node_ann NODE (the thirdPartyAllocations
# value), entry NODE NAME (that allocation entry, compact JSON),
# count_api METHOD PATH-PREFIX, count_rm_posts.  FAKE_RM_PYTHON and
# FAKE_RM_ARGS (e.g. /usr/bin/python3, --spnego-keytab F) start the fake RM
# differently.
# shellcheck shell=sh

: "${tmpdir:?sourced after test/lib.sh}" "${FIX:?}"
export SYNC_NM_ID=yarn-nm-0.node-manager.hadoop-yarn.svc.cluster.local:8041
: "${SYNC_PAGE_SIZE:=2}"

python3 - "$FIX" "$tmpdir/cluster.json" <<'EOF'
import copy, json, sys
fix, out = sys.argv[1], sys.argv[2]
node1 = json.load(open(fix + "/k8s/node-batch.json"))
pods = json.load(open(fix + "/k8s/podlist-mixed.json"))["items"]
tp = "node.koordinator.sh/thirdPartyAllocations"

def node(name, allocs):
    n = copy.deepcopy(node1)
    n["metadata"]["name"] = name
    n["metadata"]["annotations"][tp] = json.dumps({"allocations": allocs})
    return n

def entry(name, cpu, mem):
    return {"name": name, "priority": "koord-batch",
            "resources": {"kubernetes.io/batch-cpu": cpu, "kubernetes.io/batch-memory": mem}}

items = [node1, node("worker-2", [entry("hadoop-yarn", "3k", "3Gi")]),
         node("worker-3", [entry("other-tenant", "1k", "1Gi"), entry("hadoop-yarn", "5k", "5Gi")])]
for p in pods:
    p = dict(p, kind="Pod", apiVersion="v1")
    items.append(p)
    if p["metadata"]["name"] == "yarn-nm-0":
        nm2 = copy.deepcopy(p)
        nm2["metadata"]["name"] = "yarn-nm-1"
        nm2["spec"]["nodeName"] = "worker-2"
        nm2["metadata"]["annotations"]["yarn.hadoop.apache.org/cluster-id"] = "c2"
        nm2["metadata"]["annotations"]["yarn.hadoop.apache.org/node-id"] = "worker-2:8041"
        items.append(nm2)
for i in range(6):  # 6 x 500m / 512Mi of Batch on worker-1
    items.append({"kind": "Pod", "apiVersion": "v1",
                  "metadata": {"name": "filler-%d" % i, "namespace": "batch"},
                  "spec": {"nodeName": "worker-1", "containers": [{"name": "c", "resources": {
                      "requests": {"kubernetes.io/batch-cpu": "500",
                                   "kubernetes.io/batch-memory": "512Mi"}}}]},
                  "status": {"phase": "Running"}})
json.dump({"kind": "List", "apiVersion": "v1", "items": items}, open(out, "w"))
EOF

applog=$tmpdir/api-requests.log
python3 "$KILO_TOP/test/fake/fake_apiserver.py" --ignore-stdin --urls-file "$tmpdir/api-urls" \
	--log "$applog" --load "$tmpdir/cluster.json" >/dev/null 2>"$tmpdir/api.err" &
_api_pid=$!
at_exit "kill $_api_pid 2>/dev/null"
cat >"$tmpdir/rm-nodes.json" <<EOF
[{"id":"$SYNC_NM_ID","state":"RUNNING","memoryMB":40960,"vCores":20,
  "usedMemoryMB":4096,"usedVCores":2,"containers":2},
 {"id":"other-host:8041","state":"RUNNING","memoryMB":8192,"vCores":8}]
EOF
# shellcheck disable=SC2086 # FAKE_RM_ARGS: more options, one a word
"${FAKE_RM_PYTHON:-python3}" "$KILO_TOP/test/fake/fake_rm.py" --ignore-stdin --urls-file "$tmpdir/rm-urls" \
	--nodes-file "$tmpdir/rm-nodes.json" ${FAKE_RM_ARGS:-} >/dev/null 2>"$tmpdir/rm.err" &
_rm_pid=$!
at_exit "kill $_rm_pid 2>/dev/null"
wait_nonempty "fakes ($(cat "$tmpdir/api.err" "$tmpdir/rm.err" 2>/dev/null))" \
	"$tmpdir/api-urls" "$tmpdir/rm-urls"
api=$(jq -r .api "$tmpdir/api-urls")
apictl=$(jq -r .control "$tmpdir/api-urls")
rm1=$(jq -r .rm1 "$tmpdir/rm-urls")
rm2=$(jq -r .rm2 "$tmpdir/rm-urls")
rmctl=$(jq -r .control "$tmpdir/rm-urls")

rm_get() { curl -sf "$rmctl$1"; }
rm_post() { curl -sf -X POST -d "$2" "$rmctl$1" >/dev/null || fail "fake RM control $1"; }
api_ctl() { curl -sf -X "$1" ${3:+-d "$3"} "$apictl$2" >/dev/null || fail "fake API control $2"; }
# resizes are applied at once (the real RM queues them; the next pass reads the result)
rm_post /config '{"applyDelayMs":0}'

fake_kubeconfig "$api"

# a port nothing listens on: c2's RM
_down=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$tmpdir/kilo-sync.yaml" <<EOF
clusters:
  - id: yarn-cluster-1
    rmUrls: [$rm1, $rm2]
    timeoutMs: 5000
overCommitTimeoutMs: 30000
kubernetes: {pageSize: $SYNC_PAGE_SIZE}
EOF
cat >"$tmpdir/with-c2.yaml" <<EOF
clusters:
  - id: yarn-cluster-1
    rmUrls: [$rm1, $rm2]
  - id: c2
    rmUrls: [http://127.0.0.1:$_down]
    timeoutMs: 1000
overCommitTimeoutMs: 30000
kubernetes: {pageSize: $SYNC_PAGE_SIZE}
EOF
cat >"$tmpdir/only-c2.yaml" <<EOF
clusters:
  - id: c2
    rmUrls: [http://127.0.0.1:$_down]
    timeoutMs: 1000
kubernetes: {pageSize: $SYNC_PAGE_SIZE}
EOF

node_ann() {
	curl -sf "$api/api/v1/nodes/$1" |
		jq -r '.metadata.annotations["node.koordinator.sh/thirdPartyAllocations"]'
}
entry() { node_ann "$1" | jq -c --arg n "$2" '.allocations[] | select(.name == $n)'; }
count_api() { jq -s --arg m "$1" --arg p "$2" \
	'[.[] | select(.method == $m and (.path | startswith($p)))] | length' "$applog"; }
count_rm_posts() { rm_get /log | jq '[.[] | select(.method == "POST")] | length'; }
