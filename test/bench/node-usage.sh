#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# node-usage --state over a fake v1 tree holding 500 YARN container dirs:
# CPU time (user + system, GNU time) per call, averaged over 200 calls.  The
# peer value is the same tree without the container dirs: node-usage reads
# only the QoS and hadoop-yarn dirs, so the ratio should stay near 1.
set -eu
: "${KILO_BIN:?}" "${FIX:?}"
calls=200
work=$(mktemp -d "${TMPDIR:-/tmp}/kilo-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

cp -R "$FIX/sysroot/v1-separate" "$work/bare"
cp -R "$FIX/sysroot/v1-separate" "$work/tree"
yarn=kubepods/besteffort/hadoop-yarn
i=0
while [ $i -lt 500 ]; do
	id=$(printf 'container_e17_1795968000000_%04d_01_%06d' $((i / 10 + 1)) $((i % 10 + 1)))
	for c in cpu cpuacct memory; do
		d="$work/tree/sys/fs/cgroup/$c/$yarn/$id"
		mkdir -p "$d"
		echo $((4000 + i)) >"$d/cgroup.procs"
	done
	echo $((i * 1000000)) >"$work/tree/sys/fs/cgroup/cpuacct/$yarn/$id/cpuacct.usage"
	echo 2048 >"$work/tree/sys/fs/cgroup/cpu/$yarn/$id/cpu.shares"
	printf 'total_inactive_anon 1048576\ntotal_active_anon 2097152\ntotal_unevictable 0\n' \
		>"$work/tree/sys/fs/cgroup/memory/$yarn/$id/memory.stat"
	i=$((i + 1))
done

# CPU ms per call of `calls` runs of node-usage --state over tree $1.
per_call() {
	/usr/bin/time -f '%U %S' -o "$work/time" sh -c '
		i=0
		while [ $i -lt '"$calls"' ]; do
			"$KILO_BIN/node-usage" --sysroot "$1" --state "$2" >/dev/null || exit 1
			i=$((i + 1))
		done' sh "$work/$1" "$work/$1.state"
	awk -v n="$calls" '{ printf "%.3f", ($1 + $2) * 1000 / n }' "$work/time"
}

tree=$(per_call tree)
bare=$(per_call bare)
ratio=$(awk -v a="$tree" -v b="$bare" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
echo "node-usage-state-500-containers $tree ms/call $bare $ratio <5"
