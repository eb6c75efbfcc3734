#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One pass of node-qos-loop with the environment of the kilo-node DaemonSet
# (and of the cgroupfs overlay), the real tools and the policy of its
# ConfigMap, on a fake node (test/fake/mk-yarn-tree.sh, through KILO_SYSROOT)
# of the matching cgroup driver and a fake NodeManager: every step exits 0,
# node-usage and yarn-copilot find the hadoop-yarn cgroup the manifest
# names, and both textfiles are written.  Only the host paths (state, lock,
# heartbeat, textfile dir, policy) and the NodeManager's address are
# pointed at the test's own.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/cli/manifests/manifests.inc"
. "$KILO_TOP/test/fake/fake-nm.sh"
command -v jq >/dev/null 2>&1 || skip "no jq"

start_fake_nm ok --containers "$FIX/yarn/nm-containers.json"
jq -r '.[] | select(.kind == "ConfigMap" and .metadata.name == "kilo-node-policy") |
	.data["policy.yaml"]' "$tmpdir/docs.json" >"$tmpdir/policy.yaml"
jq -r '.[] | select(.kind == "DaemonSet" and .metadata.name == "kilo-node") |
	.spec.template.spec.containers[0].env[] | select(.value) | "\(.name)=\(.value)"' \
	"$tmpdir/docs.json" >"$tmpdir/env"
overlay_args=$(yaml_docs "$M/overlays/cgroupfs/kustomization.yaml" |
	jq -r '.[0].patches[].patch' | sed -n 's/^ *value: \(--.*\)/\1/p')

# pass NAME TREE-VERSION [NODE_ARGS]: one pass in $tmpdir/NAME
pass() {
	d=$tmpdir/$1
	mkdir -p "$d/tf"
	sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$d/node" "$2" >/dev/null
	set --
	while IFS= read -r kv; do
		case ${kv%%=*} in
		STATE_DIR) kv=STATE_DIR=$d/state ;;
		LOCK_FILE) kv=LOCK_FILE=$d/lock ;;
		HEARTBEAT) kv=HEARTBEAT=$d/hb ;;
		TEXTFILE_DIR) kv=TEXTFILE_DIR=$d/tf ;;
		POLICY) kv=POLICY=$tmpdir/policy.yaml ;;
		COPILOT_ARGS) kv=$(echo "$kv" | sed "s|http://\$(HOST_IP):8042|$NM_URL|") ;;
		NODE_ARGS) [ -z "$node_args" ] || kv=NODE_ARGS=$node_args ;;
		esac
		set -- "$@" "$kv"
	done <"$tmpdir/env"
	env "$@" NODE_NAME=worker-1 KILO_SYSROOT="$d/node" PASSES=1 \
		sh "$KILO_TOP/scripts/node-qos-loop" 2>"$d/log" || fail "$1: loop exit $?: $(cat "$d/log")"
	if grep 'failed with exit\|skipped\|kilo-node-metrics failed' "$d/log"; then
		fail "$1: $(cat "$d/log")"
	fi
	u=$d/state/last/usage.json
	assert_eq "$(jq -r '.cgroup.hadoopYarn' "$u")" "$hy" "$1: node-usage's hadoop-yarn"
	assert_eq "$(jq -r '.metadata.node' "$u")" worker-1 "$1: NODE_NAME"
	assert_eq "$(jq -r '[.nodeManager.reachable, (.items | length)] | @text' \
		"$d/state/last/list.json")" "[true,3]" "$1: yarn-copilot list"
	[ -s "$d/tf/yarn-copilot.prom" ] || fail "$1: no yarn-copilot.prom"
	grep -qx 'kilo_node_passes_total{node="worker-1"} 1' "$d/tf/kilo-node.prom" || fail "$1: kilo-node.prom"
}
node_args="" hy=/kubepods.slice/kubepods-besteffort.slice/hadoop-yarn
pass systemd v2
node_args=$overlay_args hy=/kubepods/besteffort/hadoop-yarn
pass cgroupfs v1
exit 0
