#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kubectl kustomize builds manifests/, manifests/yarn and the cgroupfs
# overlay, and kubectl apply --dry-run=server sends every object of them to
# the fake API server (test/fake/fake_apiserver.py, over TLS as in
# test/cli/k8s/kubectl-vs-fake.sh), which answers each as created and keeps
# none.
. "$KILO_TOP/test/lib.sh"

command -v kubectl >/dev/null 2>&1 || skip "no kubectl"
M=$KILO_TOP/manifests

for k in . yarn overlays/cgroupfs; do
	out=$tmpdir/$(echo "$k" | tr ./ _-).yaml
	kubectl kustomize "$M/$k" >"$out" 2>"$tmpdir/err" ||
		fail "kubectl kustomize manifests/$k: $(cat "$tmpdir/err")"
done
assert_eq "$(grep '^kind:' "$tmpdir/_.yaml" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
	" 1 kind: ClusterRole; 1 kind: ClusterRoleBinding; 2 kind: ConfigMap; 1 kind: DaemonSet; 1 kind: Deployment; 1 kind: Namespace; 2 kind: ServiceAccount;" \
	"objects of manifests/"
# the overlay has both, with the cgroupfs hierarchy on both sides
assert_eq "$(grep -c '^kind:' "$tmpdir/overlays-cgroupfs.yaml")" \
	$(($(grep -c '^kind:' "$tmpdir/_.yaml") + $(grep -c '^kind:' "$tmpdir/yarn.yaml"))) \
	"objects of the overlay"
assert_eq "$(grep -c 'kubepods-besteffort' "$tmpdir/overlays-cgroupfs.yaml")" 1 \
	"systemd paths left in the overlay (the yarn-site comment only)"
# (kubectl folds the long value: compare with the whitespace collapsed)
tr -s ' \n' '  ' <"$tmpdir/overlays-cgroupfs.yaml" |
	grep -q -- '--cgroup-driver cgroupfs --hierarchy /kubepods/besteffort/hadoop-yarn --nm-memory-cgroups' ||
	fail "overlay NODE_ARGS"

sh "$KILO_TOP/test/fake/mkcerts.sh" "$tmpdir" >"$tmpdir/mkcerts.log" 2>&1 ||
	fail "mkcerts: $(tail -n 3 "$tmpdir/mkcerts.log")"
python3 "$KILO_TOP/test/fake/fake_apiserver.py" --ignore-stdin --urls-file "$tmpdir/urls" \
	--log "$tmpdir/requests.log" --tls-cert "$tmpdir/server.crt" --tls-key "$tmpdir/server.key" \
	--client-ca "$tmpdir/ca.crt" --token unused-token >/dev/null &
pid=$!
at_exit "kill $pid 2>/dev/null"
wait_nonempty "fake API server" "$tmpdir/urls"
cat >"$tmpdir/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: fake
  cluster: {server: "$(jq -r .api "$tmpdir/urls")", certificate-authority: ca.crt}
users:
- name: kilo
  user: {client-certificate: client.crt, client-key: client.key}
contexts:
- name: fake
  context: {cluster: fake, user: kilo}
current-context: fake
EOF
export KUBECONFIG="$tmpdir/kubeconfig"

for f in _ yarn overlays-cgroupfs; do
	kubectl apply --dry-run=server -f "$tmpdir/$f.yaml" >"$tmpdir/apply.out" 2>&1 ||
		fail "kubectl apply --dry-run=server ($f): $(cat "$tmpdir/apply.out")"
	assert_eq "$(grep -c 'created (server dry run)' "$tmpdir/apply.out")" \
		"$(grep -c '^kind:' "$tmpdir/$f.yaml")" "objects created by the dry run of $f"
done
grep -q '"query": "dryRun=All' "$tmpdir/requests.log" || fail "no server-side dry run seen"
kubectl get daemonsets -A -o name >"$tmpdir/ds" || fail "kubectl get daemonsets"
[ -s "$tmpdir/ds" ] && fail "the dry run stored $(cat "$tmpdir/ds")"
exit 0
