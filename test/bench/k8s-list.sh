#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# k8s-list.sh - CPU time (user+sys) to list 5000 pods in pages of 500 from
# the fake API server over TLS: lib/remote/k8s (test/tools/k8s-client, collecting
# every page into one PodList and printing it) versus
# `kubectl get pods -A -o json --chunk-size=500` when kubectl is installed.
# Prints: k8s-list-5000-pods <ours> ms-cpu [<kubectl> <ours/kubectl>] <0.5
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/kilo-bench-XXXXXX")
pid=""
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
cd "$top"
make -s build/test/tools/k8s-client
sh test/fake/mkcerts.sh "$work/tls" >/dev/null 2>&1
python3 - "$top/test/fixtures/k8s/pod-ls.json" "$work/pods.json" <<'EOF'
import copy, json, sys
pod = json.load(open(sys.argv[1]))
items = []
for i in range(5000):
    p = copy.deepcopy(pod)
    p["metadata"]["name"] = "web-%05d" % i
    p["spec"]["nodeName"] = "worker-%d" % (i % 50)
    items.append(p)
json.dump({"kind": "PodList", "apiVersion": "v1", "metadata": {}, "items": items},
          open(sys.argv[2], "w"))
EOF
python3 test/fake/fake_apiserver.py --ignore-stdin --urls-file "$work/urls" \
	--load "$work/pods.json" --tls-cert "$work/tls/server.crt" \
	--tls-key "$work/tls/server.key" >/dev/null &
pid=$!
i=0
while [ ! -s "$work/urls" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
cat >"$work/kubeconfig" <<EOF
clusters: [{name: fake, cluster: {server: "$(jq -r .api "$work/urls")", certificate-authority: tls/ca.crt}}]
users: [{name: u, user: {token: bench-token}}]
contexts: [{name: fake, context: {cluster: fake, user: u}}]
current-context: fake
EOF
export KUBECONFIG="$work/kubeconfig" HOME="$work"

# cpu MS CMD...: run CMD (stdout checked for 5000 items), print its user+sys ms
cpu() {
	/usr/bin/time -f '%U %S' -o "$work/time" "$@" >"$work/out"
	[ "$(jq '.items | length' "$work/out")" = 5000 ] || { echo "bench: $1: wrong item count" >&2; exit 1; }
	awk '{ printf "%d\n", ($1 + $2) * 1000 }' "$work/time"
}
ours=$(cpu build/test/tools/k8s-client --limit 500 pods)
if command -v kubectl >/dev/null 2>&1; then
	kubectl get pods -A -o json --chunk-size=500 >/dev/null # discovery cache
	peer=$(cpu kubectl get pods -A -o json --chunk-size=500)
	awk -v o="$ours" -v p="$peer" \
		'BEGIN { printf "k8s-list-5000-pods %d ms-cpu %d %.2f <0.5\n", o, p, (p ? o / p : 0) }'
else
	echo "k8s-list-5000-pods $ours ms-cpu <0.5"
fi
