#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The NodeManager's bootstrap.sh (manifests/yarn/nodemanager-config.yaml),
# run against the fake API server with a service-account token: it writes
# yarn-site.xml with yarn.nodemanager.address NM_HOST:8041 and the hierarchy,
# patches its own pod with the node-id annotation of that same address and
# the cluster id, and runs its arguments.  Then kilo-sync pairs the Node with
# the YARN node through those annotations.
# shellcheck disable=SC2016 # jq programs and the sh -c script expand later
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/cli/manifests/manifests.inc"

command -v curl >/dev/null 2>&1 || skip "no curl"
jq -r '.[] | select(.kind == "ConfigMap" and .metadata.name == "yarn-nodemanager") | .data' \
	"$tmpdir/docs.json" >"$tmpdir/cm.json"
mkdir -p "$tmpdir/template" "$tmpdir/conf" "$tmpdir/sa"
for k in bootstrap.sh yarn-site.xml container-executor.cfg; do
	jq -er --arg k "$k" '.[$k]' "$tmpdir/cm.json" >"$tmpdir/template/$k" || fail "no $k"
done
if command -v shellcheck >/dev/null 2>&1; then
	shellcheck -s sh "$tmpdir/template/bootstrap.sh" || fail "shellcheck bootstrap.sh"
fi

# the fake, with the NodeManager's pod and the service account's token
sh "$KILO_TOP/test/fake/mkcerts.sh" "$tmpdir" >"$tmpdir/mkcerts.log" 2>&1 ||
	fail "mkcerts: $(tail -n 3 "$tmpdir/mkcerts.log")"
jq '.metadata.namespace = "hadoop-yarn" | .metadata.name = "yarn-nodemanager-x7k2p" |
	.metadata.annotations = {} | .spec.nodeName = "worker-1"' \
	"$FIX/k8s/pod-nodemanager.json" >"$tmpdir/pod.json"
printf 'sa-token-1\n' >"$tmpdir/sa/token"
cp "$tmpdir/ca.crt" "$tmpdir/sa/ca.crt"
python3 "$KILO_TOP/test/fake/fake_apiserver.py" --ignore-stdin --urls-file "$tmpdir/urls" \
	--log "$tmpdir/requests.log" --load "$tmpdir/pod.json" --load "$FIX/k8s/node-batch.json" \
	--tls-cert "$tmpdir/server.crt" --tls-key "$tmpdir/server.key" --token sa-token-1 \
	>/dev/null &
pid=$!
at_exit "kill $pid 2>/dev/null"
wait_nonempty "fake API server" "$tmpdir/urls"
api=$(jq -r .api "$tmpdir/urls")
hostport=${api#https://}

run_bootstrap() {
	env -i PATH="$PATH" NODE_NAME=worker-1 POD_NAME=yarn-nodemanager-x7k2p \
		POD_NAMESPACE=hadoop-yarn YARN_CLUSTER_ID="$1" \
		YARN_CGROUPS_HIERARCHY=/kubepods/besteffort/hadoop-yarn \
		HADOOP_HOME="$tmpdir/hadoop" HADOOP_CONF_DIR="$tmpdir/conf" \
		CONF_SRC="$tmpdir/template" SA_DIR="$tmpdir/sa" \
		KUBERNETES_SERVICE_HOST="${hostport%:*}" KUBERNETES_SERVICE_PORT="${hostport##*:}" \
		sh "$tmpdir/template/bootstrap.sh" sh -c 'echo "started as $0"' nodemanager
}
run_bootstrap yarn-cluster-1 >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "bootstrap.sh: $(cat "$tmpdir/err")"
assert_eq "$(cat "$tmpdir/out")" "bootstrap: NodeManager worker-1:8041, cluster yarn-cluster-1, cgroups /kubepods/besteffort/hadoop-yarn
started as nodemanager" "bootstrap output"

# yarn-site.xml: the address and the hierarchy, nothing left unfilled
python3 - "$tmpdir/conf/yarn-site.xml" >"$tmpdir/site" <<'PY' || fail "yarn-site.xml"
import sys, xml.etree.ElementTree as ET
for p in ET.parse(sys.argv[1]).getroot().findall("property"):
    print("%s=%s" % (p.findtext("name"), p.findtext("value")))
PY
grep -q @ "$tmpdir/site" && fail "unfilled: $(grep @ "$tmpdir/site")"
address=$(sed -n 's/^yarn.nodemanager.address=//p' "$tmpdir/site")
assert_eq "$address" worker-1:8041 "yarn.nodemanager.address"
grep -qx 'yarn.nodemanager.linux-container-executor.cgroups.hierarchy=/kubepods/besteffort/hadoop-yarn' \
	"$tmpdir/site" || fail "hierarchy"
assert_eq "$(stat -c %a "$tmpdir/conf/container-executor.cfg")" 400 "container-executor.cfg mode"

# the pod: annotated with that address, through a token-authenticated PATCH
curl -sS --cacert "$tmpdir/ca.crt" -H "Authorization: Bearer sa-token-1" \
	"$api/api/v1/namespaces/hadoop-yarn/pods/yarn-nodemanager-x7k2p" >"$tmpdir/pod.out" ||
	fail "GET pod"
assert_eq "$(jq -r '.metadata.annotations["yarn.hadoop.apache.org/node-id"]' "$tmpdir/pod.out")" \
	"$address" "node-id annotation"
assert_eq "$(jq -r '.metadata.annotations["yarn.hadoop.apache.org/cluster-id"]' "$tmpdir/pod.out")" \
	yarn-cluster-1 "cluster-id annotation"
grep '"method": "PATCH"' "$tmpdir/requests.log" | grep -q '"auth": "bearer"' ||
	fail "no token-authenticated PATCH: $(cat "$tmpdir/requests.log")"

# kilo-sync finds the Node's YARN node through the annotations
curl -sS --cacert "$tmpdir/ca.crt" -H "Authorization: Bearer sa-token-1" \
	"$api/api/v1/nodes/worker-1" >"$tmpdir/node.json" || fail "GET node"
printf 'clusters:\n  - id: yarn-cluster-1\n    rmUrls: [http://127.0.0.1:9]\n' >"$tmpdir/sync.yaml"
cat "$tmpdir/node.json" "$tmpdir/pod.out" |
	kilo-sync plan --config "$tmpdir/sync.yaml" --from - >"$tmpdir/plan.json" 2>"$tmpdir/err" ||
	fail "kilo-sync plan: $(cat "$tmpdir/err")"
assert_eq "$(jq -r '.items[0] | .cluster + " " + .yarnNodeId' "$tmpdir/plan.json")" \
	"yarn-cluster-1 worker-1:8041" "kilo-sync's pairing"

# a wrong token: the patch fails and the NodeManager does not start
printf 'stolen\n' >"$tmpdir/sa/token"
if run_bootstrap default >"$tmpdir/out" 2>"$tmpdir/err"; then
	fail "bootstrap.sh went on after a refused patch"
fi
grep -q 'started' "$tmpdir/out" && fail "the NodeManager started unannotated"
grep -q '401' "$tmpdir/err" || fail "curl error: $(cat "$tmpdir/err")"
exit 0
