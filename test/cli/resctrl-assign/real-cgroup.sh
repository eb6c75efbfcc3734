#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# resctrl-assign over the real /proc and cgroup v1 cpu hierarchy, with a fake
# resctrl (this machine need not have one): a private hadoop-yarn tree with
# a threaded process in a container and one in a nested dir (mode tasks),
# then a process carrying the NodeManager's main class (mode nm-pid).  The
# fake BE/tasks must receive exactly the kernel's thread ids; a thread of a
# process outside YARN written into a container's tasks is foreign, never
# moved (it used to be).
. "$KILO_TOP/test/lib.sh"
private_cgroup cpu

prefix=$PRIVATE_CG
yarn="$prefix/hadoop-yarn"
c1="$yarn/container_e01_1795968000000_0001_01_000001"
nested="$c1/attempt"
cpu=/sys/fs/cgroup/cpu

for d in "$prefix" "$yarn" "$c1" "$nested"; do
	mkdir "$cpu/$d" || fail "mkdir $cpu/$d"
done

root="$tmpdir/root"
mkdir -p "$root/sys/fs"
ln -s /proc "$root/proc"
ln -s /sys/fs/cgroup "$root/sys/fs/cgroup"
cp -R "$FIX/sysroot/resctrl-intel/sys/fs/resctrl" "$root/sys/fs/resctrl"
tasks="$root/sys/fs/resctrl/BE/tasks"

threads='import threading, time
for _ in range(3):
    threading.Thread(target=time.sleep, args=(300,), daemon=True).start()
time.sleep(300)'
# shellcheck disable=SC2016 # expanded by the child shell
CG="$cpu/$c1" sh -c 'echo $$ >"$CG/cgroup.procs" && exec python3 -c "$1"' sh "$threads" &
py=$!
private_pid "$py"
# shellcheck disable=SC2016
CG="$cpu/$nested" sh -c 'echo $$ >"$CG/cgroup.procs" && exec sleep 300' &
private_pid "$!"
# python3 may be a wrapper that forks helpers before it execs the
# interpreter: wait for the interpreter's own 4 threads, then for the helpers
# to have left.
wait_threads() { # pid count
	i=0
	while [ "$(find "/proc/$1/task" -mindepth 1 -maxdepth 1 | wc -l)" -ne "$2" ]; do
		i=$((i + 1))
		[ "$i" -le 100 ] || fail "process $1 never reached $2 threads"
		sleep 0.1
	done
}
wait_threads "$py" 4
i=0
while [ "$(cat "$cpu/$c1/tasks" "$cpu/$nested/tasks" | wc -l)" -ne 5 ]; do
	i=$((i + 1))
	[ "$i" -le 100 ] || fail "the test threads never reached 5"
	sleep 0.1
done
want=$(sort -n "$cpu/$c1/tasks" "$cpu/$nested/tasks" | tr '\n' ' ')

: >"$tasks"
out=$(resctrl-assign --sysroot "$root" --hierarchy "$yarn") || fail "mode tasks exited $?"
now=$(sort -n "$cpu/$c1/tasks" "$cpu/$nested/tasks" | tr '\n' ' ')
assert_eq "$(printf '%s' "$out" | jq -c '.tasks | [.moved, .gone, .failed]')" '[5,0,0]' \
	"mode tasks (threads before: $want, after: $now)"
assert_eq "$(tr '\n' ' ' <"$tasks")" "$want" "BE/tasks after mode tasks"

spawn_threaded
echo "$THREADED_TID" >"$cpu/$c1/tasks" || fail "move thread $THREADED_TID into $c1"
at_exit "echo $THREADED_TID >$cpu/tasks"
: >"$tasks"
out=$(resctrl-assign --sysroot "$root" --hierarchy "$yarn" 2>"$tmpdir/err") ||
	fail "mode tasks with a foreign thread exited $?"
assert_eq "$(printf '%s' "$out" | jq -c '.tasks | [.moved, .foreign]')" "[5,[$THREADED_TID]]" \
	"mode tasks with a foreign thread"
assert_eq "$(tr '\n' ' ' <"$tasks")" "$want" "BE/tasks: the container's threads only"
grep -q "1 thread in the hadoop-yarn tree belongs to processes outside it (thread $THREADED_TID first): not moved" \
	"$tmpdir/err" || fail "no warning: $(cat "$tmpdir/err")"
echo "$THREADED_TID" >"$cpu/tasks"

python3 -c "$threads" org.apache.hadoop.yarn.server.nodemanager.NodeManager &
nm=$!
private_pid "$nm"
wait_threads "$nm" 4
want=$(find "/proc/$nm/task" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort -n | tr '\n' ' ')
: >"$tasks"
out=$(resctrl-assign --sysroot "$root" --mode nm-pid) || fail "mode nm-pid exited $?"
assert_eq "$(printf '%s' "$out" | jq -c '.tasks | [.mode, .moved, .gone]')" '["nm-pid",4,0]' "mode nm-pid"
assert_eq "$(tr '\n' ' ' <"$tasks")" "$want" "BE/tasks after mode nm-pid"
