#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# yarn-copilot list over a fake v1 tree with 500 container dirs (one process
# each), no NodeManager: CPU time (user + system, GNU time) per call averaged
# over 50 calls, and files opened per container (strace; skipped without it).
# The peer value is the same tree without containers: the cost of starting
# the process (mostly loading libcurl and its libraries).
# Targets: <= 20 ms per call, <= 8 opens per container.
set -eu
: "${KILO_BIN:?}" "${KILO_TOP:?}"
calls=50 n=500
work=$(mktemp -d "${TMPDIR:-/tmp}/kilo-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$work/t" v1 "$n"
sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$work/bare" v1 0

# CPU ms per call of `calls` runs of yarn-copilot list over tree $1.
per_call() {
	/usr/bin/time -f '%U %S' -o "$work/time" sh -c '
		i=0
		while [ $i -lt '"$calls"' ]; do
			"$KILO_BIN/yarn-copilot" --sysroot "$1" --no-nm list >/dev/null || exit 1
			i=$((i + 1))
		done' sh "$work/$1"
	awk -v n="$calls" '{ printf "%.3f", ($1 + $2) * 1000 / n }' "$work/time"
}

[ "$("$KILO_BIN/yarn-copilot" --sysroot "$work/t" --no-nm list | jq '.items | length')" = "$n" ]
tree=$(per_call t)
bare=$(per_call bare)
ratio=$(awk -v a="$tree" -v b="$bare" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
echo "yarn-copilot-list-500-containers $tree ms/call $bare $ratio <=20"

if command -v strace >/dev/null; then
	strace -f -qq -e trace=open,openat -o "$work/trace" \
		"$KILO_BIN/yarn-copilot" --sysroot "$work/t" --no-nm list >/dev/null
	opens=$(grep -c -v ENOENT "$work/trace" || :)
	echo "yarn-copilot-list-opens-per-container $(awk -v o="$opens" -v n="$n" 'BEGIN { printf "%.2f", o / n }') opens <=8"
fi
