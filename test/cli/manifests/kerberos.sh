#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# manifests/overlays/kerberos: the keytab Secret is mounted read-only, 0400,
# at the path the overlay's sync.yaml names; krb5.conf comes from the
# ConfigMap it lists, through KRB5_CONFIG; the private credential caches go
# to a memory emptyDir (TMPDIR: the root filesystem is read-only); and the
# overlay's sync.yaml loads in kilo-sync (auth: kerberos, no userName).
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/cli/manifests/manifests.inc"
k=$M/overlays/kerberos/kustomization.yaml
yaml_docs "$k" >"$tmpdir/k.json" || fail "the overlay does not parse"
jq -r '.[0].patches[] | select(.target.kind == "Deployment") | .patch' "$tmpdir/k.json" >"$tmpdir/deploy.yaml"
jq -r '.[0].patches[] | select(.target.kind == "ConfigMap") | .patch' "$tmpdir/k.json" >"$tmpdir/cm.yaml"
yaml_docs "$tmpdir/deploy.yaml" | jq '.[0].spec.template.spec' >"$tmpdir/pod.json" || fail "Deployment patch"
yaml_docs "$tmpdir/cm.yaml" | jq -r '.[0].data["sync.yaml"]' >"$tmpdir/sync.yaml" || fail "ConfigMap patch"

pod() { jq -c "$1" "$tmpdir/pod.json"; }
assert_eq "$(pod '.volumes[] | select(.name == "keytab") | .secret')" \
	'{"secretName":"kilo-sync-keytab","defaultMode":256}' "keytab volume (a Secret, 0400)"
assert_eq "$(pod '.containers[0].volumeMounts[] | select(.name == "keytab") | [.mountPath, .readOnly]')" \
	'["/etc/kilo-krb5/keytab",true]' "keytab mount"
assert_eq "$(pod '.volumes[] | select(.name == "krb5-conf") | .configMap.name')" '"kilo-krb5"' \
	"krb5.conf volume"
assert_eq "$(pod '.containers[0].volumeMounts[] | select(.name == "krb5-conf") | [.mountPath, .readOnly]')" \
	'["/etc/kilo-krb5/conf",true]' "krb5.conf mount"
assert_eq "$(pod '[.containers[0].env[] | select(.name == "KRB5_CONFIG" or .name == "TMPDIR") | .value]')" \
	'["/etc/kilo-krb5/conf/krb5.conf","/run/kilo-krb5cc"]' "KRB5_CONFIG and TMPDIR"
assert_eq "$(pod '[.volumes[] | select(.name == "krb5cc") | .emptyDir.medium]')" '["Memory"]' \
	"credential caches in memory"
assert_eq "$(pod '.containers[0].volumeMounts[] | select(.name == "krb5cc") | .mountPath')" \
	'"/run/kilo-krb5cc"' "credential cache mount"
# the ConfigMap the overlay adds holds krb5.conf, the key the mount reads
assert_eq "$(jq -c '.[] | select(.kind == "ConfigMap" and .metadata.name == "kilo-krb5") | .data | keys' \
	"$tmpdir/docs.json")" '["krb5.conf"]' "kilo-krb5 ConfigMap"
grep -q 'dns_canonicalize_hostname = false' "$M/overlays/kerberos/krb5-conf.yaml" ||
	fail "krb5.conf without dns_canonicalize_hostname = false"

# the overlay's sync.yaml: loads and plans, its keytab under the Secret's mount
kilo-sync plan --config "$tmpdir/sync.yaml" --from "$FIX/k8s/list-kubectl.json" \
	>"$tmpdir/plan.json" 2>"$tmpdir/err" || fail "kilo-sync plan: $(cat "$tmpdir/err")"
assert_eq "$(jq -r .kind "$tmpdir/plan.json")" SyncPlan "kilo-sync plan kind"
grep -qx '    keytab: /etc/kilo-krb5/keytab/krb5.keytab' "$tmpdir/sync.yaml" ||
	fail "sync.yaml's keytab: $(grep keytab "$tmpdir/sync.yaml")"
grep -q '^    auth: kerberos$' "$tmpdir/sync.yaml" || fail "sync.yaml without auth: kerberos"
exit 0
