#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# yarn-copilot kill of 50 real containers (a private hadoop-yarn tree in the
# real cpu hierarchy, one `sleep` each, which exits on SIGTERM): wall time of
# the whole kill.  All containers are handled at once, so it should be about
# one cgroup.procs poll interval (10 ms), not 50 grace periods (50 x 250 ms);
# the peer value is one grace period.  Needs root and a writable cgroup v1
# cpu hierarchy; skipped (exit 77) otherwise.
set -u
: "${KILO_BIN:?}"
n=50
if [ "$(id -u)" != 0 ] || [ ! -w /sys/fs/cgroup/cpu ]; then
	echo "skipped: needs root and a writable /sys/fs/cgroup/cpu"
	exit 77
fi
top=kilo-bench-$$-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
root=/sys/fs/cgroup/cpu/$top/hadoop-yarn
report=$(mktemp "${TMPDIR:-/tmp}/kilo-bench-XXXXXX")
cleanup() {
	rm -f "$report"
	for p in $(cat "$root"/*/cgroup.procs 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
	sleep 0.1
	for d in "$root"/*/; do [ -d "$d" ] && rmdir "$d"; done
	rmdir "$root" "/sys/fs/cgroup/cpu/$top"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ids=""
i=0
while [ $i -lt $n ]; do
	id=$(printf 'container_1795910400000_%04d_01_%06d' $(($$ % 10000)) $((i + 2)))
	mkdir -p "$root/$id"
	sh -c "echo \$\$ >$root/$id/cgroup.procs; exec sleep 1000" >/dev/null 2>&1 &
	ids="$ids $id"
	i=$((i + 1))
done
i=0
while [ "$(cat "$root"/*/cgroup.procs | wc -l)" -lt $n ] ||
	[ "$(cat "$root"/*/cgroup.procs | xargs -n1 -I{} cat /proc/{}/comm 2>/dev/null | grep -c sleep)" -lt $n ]; do
	i=$((i + 1))
	[ $i -lt 200 ] || { echo "bench: processes did not start" >&2; exit 1; }
	sleep 0.05
done

t0=$(date +%s%N)
# shellcheck disable=SC2086
"$KILO_BIN/yarn-copilot" --cgroup-driver cgroupfs --hierarchy "$top/hadoop-yarn" kill $ids >"$report" || exit 1
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
terminated=$(jq '[.items[] | select(.result == "terminated")] | length' "$report")
[ "$terminated" = $n ] || { echo "bench: $terminated of $n terminated" >&2; exit 1; }
echo "yarn-copilot-kill-50-containers $ms ms 250 $(awk -v a="$ms" 'BEGIN { printf "%.2f", a / 250 }') ~10"
