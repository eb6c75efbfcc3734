#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every manifest parses (lib/core/config through test/tools/yaml-docs), every
# kustomization lists each YAML file of its directory, and the files inside
# the ConfigMaps load in the tools that read them without a warning: the
# kilo-sync config in kilo-sync, the node policy in evictor, qos-cgset and
# resctrl-assign, yarn-site.xml as XML with the keys kilo relies on.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/cli/manifests/manifests.inc"

n=$(jq length "$tmpdir/docs.json")
[ "$n" -ge 15 ] || fail "only $n documents in manifests/"
jq -e 'all(.[]; type == "object" and (has("kind") or has("groups") or has("tests")))' \
	"$tmpdir/docs.json" >/dev/null || fail "a document without kind"
# a broken manifest is caught, with its line
printf 'kind: ConfigMap\n---\nkind: [\n' >"$tmpdir/bad.yaml"
yaml_docs "$tmpdir/bad.yaml" >/dev/null 2>"$tmpdir/err" && fail "bad YAML parsed"
grep -q "bad.yaml:4:1:" "$tmpdir/err" || fail "no line in: $(cat "$tmpdir/err")"

# each kustomization: its resources exist, and every YAML file beside it is one
find "$M" -name kustomization.yaml >"$tmpdir/kustomizations"
while read -r k; do
	d=$(dirname "$k")
	yaml_docs "$k" | jq -r '.[0].resources[]' >"$tmpdir/res"
	while read -r r; do
		[ -e "$d/$r" ] || fail "$k: resource $r missing"
	done <"$tmpdir/res"
	for f in "$d"/*.yaml; do
		b=$(basename "$f")
		[ "$b" = kustomization.yaml ] && continue
		grep -qx "$b" "$tmpdir/res" || fail "$k does not list $b"
	done
done <"$tmpdir/kustomizations"

# data of a ConfigMap: cm_data NAME KEY
cm_data() {
	jq -er --arg n "$1" --arg k "$2" \
		'.[] | select(.kind == "ConfigMap" and .metadata.name == $n) | .data[$k]' \
		"$tmpdir/docs.json" || fail "ConfigMap $1 has no $2"
}

# kilo-sync's config: loads, plans over a fixture, no warning
cm_data kilo-sync sync.yaml >"$tmpdir/sync.yaml"
kilo-sync plan --config "$tmpdir/sync.yaml" --from "$FIX/k8s/list-kubectl.json" \
	>"$tmpdir/plan.json" 2>"$tmpdir/err" || fail "kilo-sync plan: $(cat "$tmpdir/err")"
grep -i warning "$tmpdir/err" && fail "kilo-sync config warns"
assert_eq "$(jq -r .kind "$tmpdir/plan.json")" SyncPlan "kilo-sync plan kind"

# the node policy: evictor, qos-cgset and resctrl-assign take it silently
cm_data kilo-node-policy policy.yaml >"$tmpdir/policy.yaml"
cat "$FIX/evictor/node-usage-memory.json" "$FIX/evictor/containers.json" |
	evictor --policy "$tmpdir/policy.yaml" >"$tmpdir/plan.json" 2>"$tmpdir/err" ||
	fail "evictor: $(cat "$tmpdir/err")"
[ -s "$tmpdir/err" ] && fail "evictor: $(cat "$tmpdir/err")"
# the thresholds of the file are the ones used (70 / 68)
assert_eq "$(jq -c '[.trigger.thresholdPercent, .trigger.lowerPercent]' "$tmpdir/plan.json")" \
	"[70,68]" "evictor thresholds from the policy"
qos-cgset --policy "$tmpdir/policy.yaml" --sysroot "$FIX/sysroot/v1-separate" --dry-run \
	<"$FIX/qos/input.json" >/dev/null 2>"$tmpdir/err" || fail "qos-cgset: $(cat "$tmpdir/err")"
[ -s "$tmpdir/err" ] && fail "qos-cgset: $(cat "$tmpdir/err")"
resctrl-assign --policy "$tmpdir/policy.yaml" --sysroot "$FIX/sysroot/resctrl-intel" --dry-run \
	>"$tmpdir/resctrl.json" 2>"$tmpdir/err" || fail "resctrl-assign: $(cat "$tmpdir/err")"
[ -s "$tmpdir/err" ] && fail "resctrl-assign: $(cat "$tmpdir/err")"
# catRangeEndPercent 30 of an 11-way cache: 0xf (koordlet's rounding)
jq -e '.groups[] | select(.name == "BE") | .schemata.new | startswith("L3:0=f;1=f")' \
	"$tmpdir/resctrl.json" >/dev/null || fail "BE schemata: $(cat "$tmpdir/resctrl.json")"

# yarn-site.xml: well-formed, and the keys of the LinuxContainerExecutor
# cgroups set up (yarn-interfaces: section 5a)
cm_data yarn-nodemanager yarn-site.xml >"$tmpdir/yarn-site.xml"
python3 - "$tmpdir/yarn-site.xml" >"$tmpdir/yarn-site.txt" <<'PY' || fail "yarn-site.xml"
import sys, xml.etree.ElementTree as ET
for p in ET.parse(sys.argv[1]).getroot().findall("property"):
    print("%s=%s" % (p.findtext("name"), p.findtext("value")))
PY
for kv in \
	yarn.nodemanager.container-executor.class=org.apache.hadoop.yarn.server.nodemanager.LinuxContainerExecutor \
	yarn.nodemanager.linux-container-executor.resources-handler.class=org.apache.hadoop.yarn.server.nodemanager.util.CgroupsLCEResourcesHandler \
	yarn.nodemanager.resource.memory.enabled=true \
	yarn.nodemanager.linux-container-executor.cgroups.mount=false \
	yarn.nodemanager.linux-container-executor.cgroups.mount-path=/host-cgroup \
	yarn.nodemanager.linux-container-executor.cgroups.hierarchy=@CGROUPS_HIERARCHY@ \
	yarn.nodemanager.address=@NM_HOST@:@NM_PORT@; do
	grep -qxF "$kv" "$tmpdir/yarn-site.txt" || fail "yarn-site.xml lacks $kv"
done

# the dashboard is JSON
jq -e '.panels | length > 5' "$M/monitoring/kilo-dashboard.json" >/dev/null ||
	fail "kilo-dashboard.json"
exit 0
