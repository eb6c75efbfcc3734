#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# resctrl-assign --mode tasks moving 10,000 thread ids (100 YARN containers
# of 100 threads) into BE on a fake tree: CPU time (user + system, GNU time)
# per run, averaged over 50 runs.  Each id must be one write(2) to BE/tasks
# (checked with strace -y when present).  The peer value is the same run
# with --dry-run (walk, read and sort without the writes), so the ratio is
# the cost of the 10,000 writes over the rest.
set -eu
: "${KILO_BIN:?}" "${FIX:?}"
runs=50
work=$(mktemp -d "${TMPDIR:-/tmp}/kilo-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

cp -R "$FIX/sysroot/resctrl-intel" "$work/root"
yarn="$work/root/sys/fs/cgroup/cpu,cpuacct/kubepods/besteffort/hadoop-yarn"
rm -rf "$yarn"/container_*
# Each process and thread also has the proc files a kernel shows (as
# test/fixtures/sysroot/mk-resctrl-procs.py writes them): resctrl-assign
# lists a member's threads in proc/<pid>/task and re-checks every id by its
# own files (proc/<tid>/status, the cgroup files) just before its write.
awk -v dir="$yarn" -v proc="$work/root/proc" 'BEGIN {
	for (c = 0; c < 100; c++) {
		id = sprintf("container_e17_1795968000000_0001_01_%06d", c + 2)
		d = dir "/" id
		pid = 100000 + c * 100
		line = "3:cpu,cpuacct:/kubepods/besteffort/hadoop-yarn/" id
		mkdirs = "mkdir -p " d
		for (t = 0; t < 100; t++)
			mkdirs = mkdirs " " proc "/" pid "/task/" pid + t " " proc "/" pid + t
		system(mkdirs)
		for (t = 0; t < 100; t++) {
			tid = pid + t
			print tid > (d "/tasks")
			f = proc "/" pid "/task/" tid "/cgroup"
			print line > f
			close(f)
			f = proc "/" tid "/status"
			printf "Name:\tjava\nTgid:\t%d\nPid:\t%d\n", pid, tid > f
			close(f)
		}
		close(d "/tasks")
		print pid > (d "/cgroup.procs")
		close(d "/cgroup.procs")
		print line > (proc "/" pid "/cgroup")
		close(proc "/" pid "/cgroup")
	}
}'
tasks="$work/root/sys/fs/resctrl/BE/tasks"

# CPU ms per run, over `runs` runs of resctrl-assign with extra options "$@",
# each starting from an empty BE/tasks (a shell builtin: no process).
cpu_ms() {
	/usr/bin/time -f '%U %S' -o "$work/time" sh -c '
		i=0
		while [ $i -lt '"$runs"' ]; do
			: >"$1"
			"$KILO_BIN/resctrl-assign" --sysroot "$2" "$3" >/dev/null || exit 1
			i=$((i + 1))
		done' sh "$tasks" "$work/root" "${1:---mode=tasks}"
	awk -v n="$runs" '{ printf "%.2f", ($1 + $2) * 1000 / n }' "$work/time"
}

moved=$(: >"$tasks"; "$KILO_BIN/resctrl-assign" --sysroot "$work/root" | jq .tasks.moved)
[ "$moved" = 10000 ] || { echo "moved $moved ids, expected 10000" >&2; exit 1; }
if command -v strace >/dev/null 2>&1; then
	: >"$tasks"
	strace -f -y -e trace=write -o "$work/strace" \
		"$KILO_BIN/resctrl-assign" --sysroot "$work/root" >/dev/null
	writes=$(grep -c 'BE/tasks>' "$work/strace")
	[ "$writes" = 10000 ] || { echo "$writes writes to BE/tasks, expected 10000" >&2; exit 1; }
fi
real=$(cpu_ms)
dry=$(cpu_ms --dry-run)
ratio=$(awk -v a="$real" -v b="$dry" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
echo "resctrl-assign-tasks-10000-threads $real ms $dry $ratio <50"
