#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kubectl against the fake API server (test/fake/fake_apiserver.py), over
# TLS with a CA and a client certificate made here: what kubectl reads and
# writes is what lib/remote/k8s (through test/tools/k8s-client) reads, so the fake
# speaks Kubernetes as a real client sees it.
. "$KILO_TOP/test/lib.sh"

command -v kubectl >/dev/null 2>&1 || skip "no kubectl"
client=${KILO_TEST_TOOLS:-${KILO_BIN%/*}/test/tools}/k8s-client
[ -x "$client" ] || fail "$client missing (built by make check)"

# certificates
sh "$KILO_TOP/test/fake/mkcerts.sh" "$tmpdir" >"$tmpdir/mkcerts.log" 2>&1 ||
	fail "mkcerts: $(tail -n 3 "$tmpdir/mkcerts.log")"

# the fake: every request needs the client certificate (or a token nobody has)
python3 "$KILO_TOP/test/fake/fake_apiserver.py" --ignore-stdin --urls-file "$tmpdir/urls" \
	--log "$tmpdir/requests.log" --load "$FIX/k8s/node-batch.json" \
	--load "$FIX/k8s/podlist-mixed.json" --tls-cert "$tmpdir/server.crt" \
	--tls-key "$tmpdir/server.key" --client-ca "$tmpdir/ca.crt" --token unused-token \
	>/dev/null &
pid=$!
at_exit "kill $pid 2>/dev/null"
wait_nonempty "fake API server" "$tmpdir/urls"
server=$(jq -r .api "$tmpdir/urls")

# one kubeconfig for both clients; paths relative to it
cat >"$tmpdir/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: fake
  cluster:
    server: $server
    certificate-authority: ca.crt
users:
- name: kilo
  user:
    client-certificate: client.crt
    client-key: client.key
contexts:
- name: fake
  context: {cluster: fake, user: kilo, namespace: yarn}
current-context: fake
EOF
export KUBECONFIG="$tmpdir/kubeconfig"

# JSON of a list's items, sorted keys, without kind/apiVersion (kubectl adds
# them) and managedFields (kubectl -o json hides them)
items() { jq -S '[.items[] | del(.kind, .apiVersion, .metadata.managedFields)]'; }

# get nodes -o json
kubectl get nodes -o json >"$tmpdir/k-nodes.json" || fail "kubectl get nodes"
"$client" nodes >"$tmpdir/c-nodes.json" || fail "k8s-client nodes"
assert_eq "$(jq -r .kind "$tmpdir/k-nodes.json")" List "kubectl list kind"
assert_eq "$(jq -r .kind "$tmpdir/c-nodes.json")" NodeList "our list kind"
assert_eq "$(items <"$tmpdir/k-nodes.json")" "$(items <"$tmpdir/c-nodes.json")" "nodes"
assert_eq "$(jq '.items | length' "$tmpdir/k-nodes.json")" 1 "node count"
grep -q '"auth": "cert"' "$tmpdir/requests.log" || fail "kubectl did not use the certificate"

# get pods --field-selector spec.nodeName=..., in pages of 2 for kubectl and ours
for sel in "" ",status.phase!=Succeeded,status.phase!=Failed"; do
	kubectl get pods -A --chunk-size=2 --field-selector "spec.nodeName=worker-1$sel" -o json \
		>"$tmpdir/k-pods.json" || fail "kubectl get pods '$sel'"
	"$client" --limit 2 ${sel:+--field-selector "${sel#,}"} pods worker-1 \
		>"$tmpdir/c-pods.json" || fail "k8s-client pods '$sel'"
	assert_eq "$(items <"$tmpdir/k-pods.json")" "$(items <"$tmpdir/c-pods.json")" "pods '$sel'"
done
assert_eq "$(jq -r '[.items[].metadata.name] | join(" ")' "$tmpdir/c-pods.json")" \
	"yarn-nm-0 web-frontend-6d9c7b8f5d-kx7pq spark-pi-5f8a2b8f1c3d4e6a-exec-1" "running pods"
grep '"userAgent": "kubectl' "$tmpdir/requests.log" | grep -q "continue=" ||
	fail "kubectl did not page"
grep '"userAgent": "kilo/' "$tmpdir/requests.log" | grep -q "continue=" ||
	fail "we did not page"

# label selectors
kubectl get pods -A -l 'koordinator.sh/qosClass in (BE),!job-name' -o json \
	>"$tmpdir/k-pods.json" || fail "kubectl get pods -l"
"$client" --label-selector 'koordinator.sh/qosClass in (BE),!job-name' pods \
	>"$tmpdir/c-pods.json" || fail "k8s-client pods --label-selector"
assert_eq "$(items <"$tmpdir/k-pods.json")" "$(items <"$tmpdir/c-pods.json")" "pods by label"
assert_eq "$(jq '.items | length' "$tmpdir/c-pods.json")" 3 "BE pods without job-name"

# annotate node: kubectl writes, we read; we write, kubectl reads
kubectl annotate node worker-1 kilo.io/by-kubectl=one >/dev/null || fail "kubectl annotate"
"$client" node worker-1 >"$tmpdir/node.json" || fail "k8s-client node"
assert_eq "$(jq -r '.metadata.annotations["kilo.io/by-kubectl"]' "$tmpdir/node.json")" one \
	"annotation written by kubectl"
rv=$(jq -r .metadata.resourceVersion "$tmpdir/node.json")
assert_eq "$(kubectl get node worker-1 -o jsonpath='{.metadata.resourceVersion}')" "$rv" \
	"resourceVersion"
"$client" annotate worker-1 "$rv" kilo.io/by-kilo=two kilo.io/by-kubectl- >/dev/null ||
	fail "k8s-client annotate"
assert_eq "$(kubectl get node worker-1 -o jsonpath='{.metadata.annotations.kilo\.io/by-kilo}')" \
	two "annotation written by us"
assert_eq "$(kubectl get node worker-1 -o json | jq '.metadata.annotations | has("kilo.io/by-kubectl")')" \
	false "annotation deleted by us"
# the stale resourceVersion is a conflict for kubectl too
if kubectl annotate --overwrite node worker-1 kilo.io/by-kilo=three --resource-version="$rv" \
	>/dev/null 2>"$tmpdir/err"; then
	fail "kubectl annotate with a stale resourceVersion succeeded"
fi
grep -q 'the object has been modified' "$tmpdir/err" || fail "kubectl: $(cat "$tmpdir/err")"
if "$client" annotate worker-1 "$rv" kilo.io/by-kilo=four 2>"$tmpdir/err"; then
	fail "k8s-client annotate with a stale resourceVersion succeeded"
fi
grep -q '(Conflict)' "$tmpdir/err" || fail "k8s-client: $(cat "$tmpdir/err")"

# patch node --subresource=status: capacity keys merge, conditions are kept
kubectl patch node worker-1 --subresource=status \
	-p '{"status":{"capacity":{"kubernetes.io/batch-cpu":"30000"},"allocatable":{"kubernetes.io/batch-cpu":"30000"}}}' \
	>/dev/null || fail "kubectl patch --subresource=status"
"$client" node worker-1 >"$tmpdir/node.json" || fail "k8s-client node"
assert_eq "$(jq -r '.status.capacity["kubernetes.io/batch-cpu"] + " " + .status.allocatable["kubernetes.io/batch-cpu"] + " " + .status.capacity.cpu' "$tmpdir/node.json")" \
	"30000 30000 64" "status after patch"
assert_eq "$(jq '.status.conditions | length' "$tmpdir/node.json")" 4 "conditions kept"
assert_eq "$(kubectl get node worker-1 -o json | jq -S .)" \
	"$(jq -S 'del(.metadata.managedFields)' "$tmpdir/node.json")" \
	"node as kubectl and we see it"
# the status endpoint does not change spec; the main one does not change status
kubectl patch node worker-1 --subresource=status -p '{"spec":{"unschedulable":true}}' >/dev/null ||
	fail "kubectl patch spec via status"
kubectl patch node worker-1 -p '{"status":{"capacity":{"cpu":"1"}}}' >/dev/null ||
	fail "kubectl patch status via main"
"$client" node worker-1 >"$tmpdir/node.json" || fail "k8s-client node"
assert_eq "$(jq -c '[.spec.unschedulable, .status.capacity.cpu]' "$tmpdir/node.json")" '[null,"64"]' \
	"subresource rules"

# apply --dry-run of a small manifest: accepted, nothing stored
cat >"$tmpdir/manifest.yaml" <<'EOF'
apiVersion: v1
kind: ServiceAccount
metadata: {name: kilo, namespace: kube-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: kilo-sync}
rules:
- apiGroups: [""]
  resources: [nodes, pods]
  verbs: [get, list, patch]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: kilo-node, namespace: kube-system}
spec:
  selector: {matchLabels: {app: kilo-node}}
  template:
    metadata: {labels: {app: kilo-node}}
    spec:
      serviceAccountName: kilo
      containers: [{name: node, image: "kilo:0.1.0"}]
EOF
for mode in server client; do
	kubectl apply --dry-run=$mode -f "$tmpdir/manifest.yaml" >"$tmpdir/apply.out" 2>&1 ||
		fail "kubectl apply --dry-run=$mode: $(cat "$tmpdir/apply.out")"
	assert_eq "$(grep -c 'created' "$tmpdir/apply.out")" 3 "apply --dry-run=$mode"
done
kubectl get daemonset -n kube-system kilo-node >/dev/null 2>&1 && fail "dry run stored an object"
grep -q '"query": "dryRun=All' "$tmpdir/requests.log" || fail "no server-side dry run seen"
exit 0
