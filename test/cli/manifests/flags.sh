#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every command, flag, variable and path of the manifests and systemd units
# is one the tools and loops know: the loop a container runs is in scripts/,
# each environment variable is documented by that loop (or by a tool it
# runs, or used as $(VAR) by another), each --option of KILO_SYNC_ARGS,
# NODE_ARGS and COPILOT_ARGS is in the --help of every tool it goes to, each
# absolute path lies under a volume mount (a ConfigMap mount: a key of that
# ConfigMap), the probes watch the loops' heartbeats, and the NodeManager and
# the node loop agree on the hadoop-yarn hierarchy, the ports and the label.
# shellcheck disable=SC2016 # jq programs: their $variables are jq's
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/cli/manifests/manifests.inc"

# one line per container: workload, command, env, mounts, volumes, probe, preStop
jq -c '.[] | select(.kind == "Deployment" or .kind == "DaemonSet") | . as $w |
	.spec.template.spec as $s | $s.containers[] |
	{workload: $w.metadata.name, image, command,
	 env: [.env[]? | {name, value: (.value // null)}],
	 mounts: [.volumeMounts[]? | {name, mountPath}],
	 volumes: $s.volumes, probe: (.livenessProbe.exec.command // [] | join(" ")),
	 preStop: (.lifecycle.preStop.exec.command // [])}' \
	"$tmpdir/docs.json" >"$tmpdir/containers"
assert_eq "$(jq -r .workload "$tmpdir/containers" | sort | tr '\n' ' ')" \
	"kilo-node kilo-sync yarn-nodemanager " "workloads"

# jc JSON JQ-ARGS...: jq over one container's line
jc() {
	j=$1
	shift
	printf '%s\n' "$j" | jq "$@"
}
envval() { jc "$1" -r --arg n "$2" '.env[] | select(.name == $n) | .value'; }

# path_ok CONTAINER PATH WHAT: PATH is under a mount of the container; below a
# ConfigMap mount it names a key of the ConfigMap
path_ok() {
	jc "$1" -e --arg p "$2" --slurpfile docs "$tmpdir/docs.json" '
		. as $c | [.mounts[] | select(.mountPath as $m | $p == $m or ($p | startswith($m + "/")))] |
		length > 0 and all(.[]; .mountPath as $m | .name as $v |
			($c.volumes[] | select(.name == $v)) as $vol |
			if $vol.configMap and $p != $m then
				($p | ltrimstr($m + "/")) as $key |
				any($docs[0][]; .kind == "ConfigMap" and
					.metadata.name == $vol.configMap.name and (.data | has($key)))
			else true end)' >/dev/null ||
		fail "$3: $2 is not under a mount (or not a key of the ConfigMap mounted there)"
}

while read -r c; do
	w=$(jc "$c" -r .workload)
	cmd=$(jc "$c" -r '.command[0]')
	case $w in
	kilo-*)
		[ -f "$KILO_TOP/scripts/$cmd" ] || fail "$w runs $cmd, not a script of scripts/"
		jc "$c" -r '.env[] | .name + "=" + (.value // "")' >"$tmpdir/env"
		cp "$tmpdir/env" "$tmpdir/env-values"
		while IFS= read -r kv; do
			name=${kv%%=*} value=${kv#*=}
			# documented by the loop, or a tool's $NAME, or used by another variable
			help_of "$cmd" | grep -Eq "(^|[ ,])$name=" ||
				{ help_of node-usage; help_of yarn-copilot; } | grep -qF "\$$name" ||
				grep -qF "\$($name)" "$tmpdir/env-values" ||
				fail "$w: $name is not a variable of $cmd"
			t=$(tools_of "$name")
			if [ -n "$t" ]; then
				help_of "$cmd" | grep -q "$name" || fail "$cmd does not take $name"
				# shellcheck disable=SC2086 # tool names
				check_args "$w $name" "$value" $t
			fi
			# file system paths (a --hierarchy is a cgroup path: below the mount)
			prev=""
			for p in $value; do
				case $p in /*) [ "$prev" = --hierarchy ] || path_ok "$c" "$p" "$w $name" ;; esac
				prev=$p
			done
		done <"$tmpdir/env"
		hb=$(envval "$c" HEARTBEAT)
		[ -n "$hb" ] || fail "$w: no HEARTBEAT"
		jc "$c" -r .probe | grep -qF "find $hb -mmin" || fail "$w: the probe does not watch $hb"
		;;
	yarn-nodemanager)
		assert_eq "$cmd" sh "NodeManager command"
		path_ok "$c" "$(jc "$c" -r '.command[1]')" "$w command"
		;;
	esac
	for p in $(jc "$c" -r '.preStop[]' | grep '^/'); do
		path_ok "$c" "$p" "$w preStop"
	done
done <"$tmpdir/containers"

# the liveness probes: pass on a fresh heartbeat, fail on one older than
# their limit (a plain find would exit 0 on it) and on none
for w in kilo-sync:15 kilo-node:5; do
	c=$(grep "\"workload\":\"${w%:*}\"" "$tmpdir/containers")
	hb=$(envval "$c" HEARTBEAT)
	probe=$(jc "$c" -r '.probe | ltrimstr("sh -c ")' | sed "s|$hb|$tmpdir/hb|")
	rm -f "$tmpdir/hb"
	if sh -c "$probe"; then fail "${w%:*} probe passes without a heartbeat"; fi
	touch "$tmpdir/hb"
	sh -c "$probe" || fail "${w%:*} probe fails on a fresh heartbeat: $probe"
	touch -d "${w#*:} minutes ago" "$tmpdir/hb"
	if sh -c "$probe"; then fail "${w%:*} probe passes on a ${w#*:} minutes old heartbeat"; fi
done

# kilo-sync's preStop removes the file kilo-sync writes
sync=$(grep '"workload":"kilo-sync"' "$tmpdir/containers")
dir=$(envval "$sync" KILO_SYNC_ARGS | sed -n 's/.*--textfile-dir \([^ ]*\).*/\1/p')
help_of kilo-sync | grep -q '<dir>/kilo-sync.prom' || fail "kilo-sync no longer writes kilo-sync.prom"
assert_eq "$(jc "$sync" -r '.preStop | join(" ")')" "rm -f $dir/kilo-sync.prom" "kilo-sync preStop"

# the NodeManager and the node loop: one hierarchy, the NM's ports, the label
node=$(grep '"workload":"kilo-node"' "$tmpdir/containers")
nm=$(grep '"workload":"yarn-nodemanager"' "$tmpdir/containers")
hier=$(envval "$node" NODE_ARGS | sed -n 's/.*--hierarchy \([^ ]*\).*/\1/p')
assert_eq "$(envval "$nm" YARN_CGROUPS_HIERARCHY)" "$hier" "NodeManager hierarchy vs NODE_ARGS"
case $(envval "$node" NODE_ARGS) in
*"--cgroup-driver systemd "*) case $hier in /kubepods.slice/*) ;; *) fail "systemd driver, $hier" ;; esac ;;
*) fail "kilo-node NODE_ARGS without the systemd driver" ;;
esac
# the NodeManager makes memory dirs exactly when the node tools are told so
mem=$(sed -n '/yarn.nodemanager.resource.memory.enabled/{n;s/.*<value>\(.*\)<\/value>.*/\1/p}' \
	"$M/yarn/nodemanager-config.yaml")
case "$mem $(envval "$node" NODE_ARGS) " in
"true "*" --nm-memory-cgroups "*) ;;
"true "*) fail "yarn-site makes memory cgroups, NODE_ARGS lacks --nm-memory-cgroups" ;;
*" --nm-memory-cgroups "*) fail "NODE_ARGS has --nm-memory-cgroups, yarn-site memory.enabled is '$mem'" ;;
esac
assert_eq "$(envval "$node" COPILOT_ARGS)" "--nm-url http://\$(HOST_IP):8042" "nm-url"
jq -e '.[] | select(.kind == "DaemonSet" and .metadata.name == "yarn-nodemanager") |
	.spec.template.spec.containers[0].ports | map(.containerPort) == [8041, 8042]' \
	"$tmpdir/docs.json" >/dev/null || fail "NodeManager ports"
assert_eq "$(envval "$nm" NM_PORT)" 8041 "NM_PORT"
sel=$(jq -r '.[] | select(.kind == "ConfigMap" and .metadata.name == "kilo-sync") |
	.data["sync.yaml"]' "$tmpdir/docs.json" | sed -n 's/^nodeManagerSelector: //p')
[ -n "$sel" ] || fail "no nodeManagerSelector in the kilo-sync config"
jq -e --arg k "${sel%%=*}" --arg v "${sel#*=}" '.[] |
	select(.kind == "DaemonSet" and .metadata.name == "yarn-nodemanager") |
	.spec.template.metadata.labels[$k] == $v' "$tmpdir/docs.json" >/dev/null ||
	fail "the NodeManager pods lack kilo-sync's nodeManagerSelector $sel"

# the overlay switches both sides to one cgroupfs hierarchy
yaml_docs "$M/overlays/cgroupfs/kustomization.yaml" | jq -r '.[0].patches[].patch' >"$tmpdir/patches"
args=$(sed -n 's/^ *value: \(--.*\)/\1/p' "$tmpdir/patches")
assert_eq "$args" "--cgroup-driver cgroupfs --hierarchy /kubepods/besteffort/hadoop-yarn --nm-memory-cgroups" \
	"overlay NODE_ARGS"
# shellcheck disable=SC2046 # tool names
check_args "overlay NODE_ARGS" "$args" $(tools_of NODE_ARGS)
assert_eq "$(sed -n 's|^ *value: \(/.*\)|\1|p' "$tmpdir/patches")" /kubepods/besteffort/hadoop-yarn \
	"overlay YARN_CGROUPS_HIERARCHY"

# RBAC: kilo-sync gets nodes get/list/patch and pods list, nothing more
assert_eq "$(jq -c '.[] | select(.kind == "ClusterRole" and .metadata.name == "kilo-sync") |
	.rules' "$tmpdir/docs.json")" \
	'[{"apiGroups":[""],"resources":["nodes"],"verbs":["get","list","patch"]},{"apiGroups":[""],"resources":["pods"],"verbs":["list"]}]' \
	"kilo-sync ClusterRole"
#    and, for the graceful decommission, get/patch on the RM's exclude list only
assert_eq "$(jq -c '[.[] | select(.kind == "Role" or .kind == "RoleBinding") | select(.metadata.name == "kilo-sync-rm-exclude") |
	.rules // .subjects]' "$tmpdir/docs.json")" \
	'[[{"apiGroups":[""],"resources":["configmaps"],"resourceNames":["rm-exclude"],"verbs":["get","patch"]}],[{"kind":"ServiceAccount","name":"kilo-sync","namespace":"kilo-system"}]]' \
	"kilo-sync's Role on rm-exclude"

# systemd: the loop, its environment file and its variables
S=$M/systemd
for u in "$S"/*.service; do
	exe=$(sed -n 's/^ExecStart=//p' "$u")
	[ -f "$KILO_TOP/scripts/$(basename "$exe")" ] || fail "$u runs $exe"
	case $(basename "$u") in
	kilo-sync.service) env=/etc/kilo/sync.env ;;
	*) env=/etc/kilo/node.env ;;
	esac
	assert_eq "$(sed -n 's/^EnvironmentFile=//p' "$u")" "$env" "$u EnvironmentFile"
	sed -n 's/^Environment=//p' "$u" >"$tmpdir/unit-env"
	while read -r kv; do
		help_of "$(basename "$exe")" | grep -Eq "(^|[ ,])${kv%%=*}=" || fail "$u: ${kv%%=*}"
	done <"$tmpdir/unit-env"
done
for m in $(sed -n 's/^Documentation=//p' "$S"/*.service | tr ' ' '\n' | sed -n 's/^man:\(.*\)(1)$/\1/p'); do
	[ -f "$KILO_TOP/cmd/$m/$m.1.scd" ] || fail "systemd Documentation: no man page $m(1)"
done
for pair in kilo-node.env:node-qos-loop:8 kilo-sync.env:kilo-sync-loop:5; do
	f=${pair%%:*} loop=${pair#*:}
	loop=${loop%:*}
	grep -v '^#' "$S/$f" | grep . >"$tmpdir/envfile"
	[ "$(wc -l <"$tmpdir/envfile")" -ge "${pair##*:}" ] || fail "$f is short"
	while IFS= read -r kv; do
		name=${kv%%=*}
		value=$(eval "printf '%s' ${kv#*=}")
		help_of "$loop" | grep -Eq "(^|[ ,])$name=" || fail "$f: $name"
		t=$(tools_of "$name")
		# shellcheck disable=SC2086 # tool names
		[ -z "$t" ] || check_args "$f $name" "$value" $t
	done <"$tmpdir/envfile"
done
# systemd reads the units (the loop's and the environment file's paths made
# to exist here)
if command -v systemd-analyze >/dev/null 2>&1; then
	mkdir -p "$tmpdir/units"
	for u in "$S"/*.service "$S"/*.timer; do
		case $(basename "$u") in
		kilo-sync.*) loop=kilo-sync-loop env=kilo-sync.env ;;
		*) loop=node-qos-loop env=kilo-node.env ;;
		esac
		sed -e "s|^ExecStart=.*|ExecStart=$KILO_TOP/scripts/$loop|" \
			-e "s|^EnvironmentFile=.*|EnvironmentFile=$S/$env|" \
			"$u" >"$tmpdir/units/$(basename "$u")"
	done
	systemd-analyze verify --man=no "$tmpdir"/units/* >"$tmpdir/verify" 2>&1 ||
		fail "systemd-analyze verify: $(cat "$tmpdir/verify")"
	if grep -F "$tmpdir/units" "$tmpdir/verify"; then fail "systemd-analyze warns"; fi
fi

# make install (the image's and the systemd hosts') puts the loops in
# $PREFIX/bin, where the units run them, and loop-lib.sh in $PREFIX/lib/kilo,
# where the loops find it
grep -qF 'for s in scripts/*-loop; do' "$KILO_TOP/Makefile" || fail "make install: loops"
for f in loop-lib.sh kilo-node-metrics; do
	grep -qF "scripts/$f \$(DESTDIR)\$(PREFIX)/lib/kilo/" "$KILO_TOP/Makefile" ||
		fail "make install: $f"
done
mkdir -p "$tmpdir/usr/local/bin" "$tmpdir/usr/local/lib/kilo"
cp "$KILO_TOP/scripts/loop-lib.sh" "$tmpdir/usr/local/lib/kilo/"
for u in "$S"/*.service; do
	exe=$(sed -n 's/^ExecStart=//p' "$u")
	case $exe in /usr/local/bin/*) ;; *) fail "$u: $exe is not in /usr/local/bin" ;; esac
	cp "$KILO_TOP/scripts/$(basename "$exe")" "$tmpdir$exe"
	sh "$tmpdir$exe" --help >/dev/null 2>"$tmpdir/err" || fail "installed $exe: $(cat "$tmpdir/err")"
done
exit 0
