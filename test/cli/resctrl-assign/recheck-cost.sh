#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --mode tasks re-checks every thread id by its own proc files just before
# its write; the check of the thread's process (every live thread of it in
# the tree) is had once per process and pass.  It was had again for each
# thread: a JVM of 64 threads cost 64 x 63 reads of its threads' cgroup
# files, and the benchmark's 100 containers of 100 threads ran ~20 s.
# The reads are counted with strace (a note without it).
. "$KILO_TOP/test/lib.sh"
cp -R "$FIX/sysroot/resctrl-intel" "$tmpdir/root"
id=container_e17_1410901177871_0001_01_000009
cg="$tmpdir/root/sys/fs/cgroup/cpu,cpuacct/kubepods/besteffort/hadoop-yarn/$id"
proc="$tmpdir/root/proc"
mkdir "$cg" || fail "mkdir $cg"
echo 5000 >"$cg/cgroup.procs"
echo "3:cpu,cpuacct:/kubepods/besteffort/hadoop-yarn/$id" >"$tmpdir/cgroup.line"
for t in $(seq 5000 5063); do
	mkdir -p "$proc/5000/task/$t" "$proc/$t" || fail "mkdir $t"
	cp "$tmpdir/cgroup.line" "$proc/5000/task/$t/cgroup"
	printf 'Name:\tjava\nTgid:\t5000\nPid:\t%d\n' "$t" >"$proc/$t/status"
	echo "$t" >>"$cg/tasks"
done
cp "$tmpdir/cgroup.line" "$proc/5000/cgroup"
be="$tmpdir/root/sys/fs/resctrl/BE/tasks"
cp "$be" "$tmpdir/be-tasks"
resctrl-assign --sysroot "$tmpdir/root" >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "exit $? ($(cat "$tmpdir/err"))"
assert_eq "$(jq -c '.tasks | [.moved, .gone, .already]' "$tmpdir/out")" "[69,0,1]" "moved"
command -v strace >/dev/null 2>&1 || { echo "note: no strace: the reads not counted"; exit 0; }
# the same pass again, counted (LeakSanitizer cannot run under ptrace; the
# pass above had it)
cp "$tmpdir/be-tasks" "$be"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -e trace=openat \
	-o "$tmpdir/strace" resctrl-assign --sysroot "$tmpdir/root" >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "exit $? under strace ($(cat "$tmpdir/err"))"
assert_eq "$(jq -c '.tasks | [.moved, .gone, .already]' "$tmpdir/out")" "[69,0,1]" "moved (strace)"
reads=$(grep -c '"proc/5000/task/[0-9]*/cgroup"' "$tmpdir/strace")
# 63 for the process's check (its first thread's), then one per thread
[ "$reads" -le 128 ] || fail "$reads reads of the 64 threads' cgroup files, expected at most 128"
exit 0
