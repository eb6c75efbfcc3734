#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --mode tasks on a copy of the Intel tree, as a breaker would have it:
#  - one container with more dirs below it than a walk reads (17 levels)
#    costs only itself: the other's threads still go into BE, exit 3, the
#    error names it (it used to move nothing at all);
#  - a thread id whose thread exited and whose id is now a thread of an
#    outside process (proc/<tid>/status Tgid elsewhere) is re-checked just
#    before its write and not written: counted gone.
. "$KILO_TOP/test/lib.sh"
cp -R "$FIX/sysroot/resctrl-intel" "$tmpdir/root"
be="$tmpdir/root/sys/fs/resctrl/BE"
hy="$tmpdir/root/sys/fs/cgroup/cpu,cpuacct/kubepods/besteffort/hadoop-yarn"
d=$hy/container_e17_1410901177871_0001_01_000003
for n in $(seq 17); do
	d=$d/x
	mkdir "$d" && : >"$d/cgroup.procs" && : >"$d/tasks" || fail "mkdir level $n"
done
out=$(resctrl-assign --sysroot "$tmpdir/root" 2>"$tmpdir/err")
assert_eq "$?" 3 "one container too deep: exit ($(cat "$tmpdir/err"))"
assert_eq "$(printf '%s' "$out" | jq -c '.tasks | [.moved, .already, .failed]')" "[2,1,1]" \
	"the other container's threads moved"
printf '%s' "$out" | jq -r '.tasks.errors[0]' |
	grep -q "container_e17_1410901177871_0001_01_000003/x/.*more than 16 levels or 4096 dirs below" ||
	fail "the error does not name the container: $(printf '%s' "$out" | jq -c .tasks)"
assert_eq "$(tr '\n' ' ' <"$be/tasks")" "1003 1001 1002 " "BE/tasks"

# thread 2003 of member 2002 exited; its id is now a thread of 9999, outside
rm -r "$tmpdir/root/sys/fs/cgroup/cpu,cpuacct/kubepods/besteffort/hadoop-yarn/container_e17_1410901177871_0001_01_000003/x"
printf 'Name:\tsshd\nTgid:\t9999\nPid:\t2003\n' >"$tmpdir/root/proc/2003/status"
mkdir -p "$tmpdir/root/proc/9999" && echo "3:cpu,cpuacct:/system.slice" >"$tmpdir/root/proc/9999/cgroup"
out=$(resctrl-assign --sysroot "$tmpdir/root" 2>"$tmpdir/err") || fail "exit $? ($(cat "$tmpdir/err"))"
assert_eq "$(printf '%s' "$out" | jq -c '.tasks | [.moved, .gone, .already]')" "[2,1,3]" \
	"2003 re-checked and not written"
assert_eq "$(tr '\n' ' ' <"$be/tasks")" "1003 1001 1002 2001 2002 " "BE/tasks"

# a --hierarchy with a typo while the hadoop-yarn dir is elsewhere: the
# tasks step fails naming it (it was exit 0, moved 0, the same line twice)
out=$(resctrl-assign --sysroot "$tmpdir/root" --hierarchy /kubepods/besteffort/hadoop-yran --dry-run 2>"$tmpdir/err")
assert_eq "$?" 3 "a wrong --hierarchy: exit"
assert_eq "$(cat "$tmpdir/err")" "resctrl-assign: hadoop-yarn cgroup '/kubepods/besteffort/hadoop-yran' not found, but there is '/kubepods' (the cgroupfs driver), hadoop-yarn at '/kubepods/besteffort/hadoop-yarn': the layout is wrong; check --hierarchy and --cgroup-driver
resctrl-assign: tasks: no thread moved" "a wrong --hierarchy: the messages"
exit 0
