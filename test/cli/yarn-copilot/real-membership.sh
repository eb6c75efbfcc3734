# SPDX-License-Identifier: Apache-2.0
# Who is a container's member, on the real cgroup v1 hierarchy with real
# processes (kernel/members.h), in a private tree:
#   G: its cpu dir is empty, its process sits in the NodeManager's memory
#      dir only.  With --nm-memory-cgroups a member, killed; without, the
#      memory dir is taken for kilo's mirror: foreign, alive, and the item
#      fails naming the flag (never "gone" while a process is in its dirs).
#   H: no cpu dir; a stranger's pid in kilo's cpuset and memory mirrors of
#      it: never a member (it used to be signalled: the mirror stood in for
#      the missing cpu dir), and the item fails the same way.
#   a run in a pid namespace of its own (unshare --pid, with and without a
#      /proc of its own) fails, naming hostPID, and signals nothing;
#   a --hierarchy that does not exist fails instead of reporting gone;
#   L: an outside process whose leader thread alone was written into tasks
#      (its other threads elsewhere): mixed, never signalled, the item fails;
#   Z: an outside process whose leader has exited, one of its two live
#      threads written into tasks: mixed (an exited leader's own cgroup file
#      reads the root on a real kernel, so its live threads decide), never
#      signalled, the item fails;
#   a process hopping between two sub-dirs faster than a walk: never
#      reported ended while it lives.
. "$KILO_TOP/test/lib.sh"
private_cgroup cpu cpuacct cpuset memory

cg=/sys/fs/cgroup
hy=$PRIVATE_CG/hadoop-yarn
app=$(printf '%04d' $(($$ % 10000)))
G=container_1795910400000_${app}_01_000002
H=container_1795910400000_${app}_01_000003
I=container_1795910400000_${app}_01_000004
mkdir -p "$cg/cpu/$hy/$G" "$cg/memory/$hy/$G" "$cg/cpu/$hy/$I" "$cg/memory/$hy/$H" \
	"$cg/cpuset/$hy/$H" || fail "mkdir"
for d in "$PRIVATE_CG" "$PRIVATE_CG/hadoop-yarn" "$hy/$H"; do
	cat "$cg/cpuset/cpuset.cpus" >"$cg/cpuset/$d/cpuset.cpus"
	cat "$cg/cpuset/cpuset.mems" >"$cg/cpuset/$d/cpuset.mems"
done

# start DIR...: a sleeping process (exits on SIGTERM) in each cgroup DIR; prints its pid
start() {
	sh -c 'for d in "$@"; do echo $$ >"$d/cgroup.procs" || exit 1; done; exec sleep 1000' sh "$@" \
		>/dev/null 2>&1 &
	private_pid "$!"
	wait_in_cgroup "$!" "$1" "process in $1"
	echo "$!"
}
r() { jq -r --arg id "$1" '.items[] | select(.id == $id) | "\(.result) \(.processes) \(.signalled | join(",")) \(.foreign | join(","))"' "$tmpdir/report"; }
kill_ids() { # [options] ids: yarn-copilot kill into $tmpdir/report, exit in $rc
	yarn-copilot --hierarchy "$hy" --grace-period 50 "$@" >"$tmpdir/report" 2>"$tmpdir/err"
	rc=$?
}

g=$(start "$cg/memory/$hy/$G")
h=$(start "$cg/cpuset/$hy/$H" "$cg/memory/$hy/$H")
i=$(start "$cg/cpu/$hy/$I")

# without --nm-memory-cgroups: G's memory dir is a mirror, H's dirs are mirrors
yarn-copilot --hierarchy "$hy" --no-nm list >"$tmpdir/list" || fail "list: exit $?"
assert_eq "$(jq -r '[.items[] | "\(.id | .[-1:]):\(.processes)"] | join(" ")' "$tmpdir/list")" \
	"2:0 4:1" "list: G has no member, H (mirrors only) is no container, I has one"
kill_ids kill "$G" "$H"
assert_eq "$rc" 1 "kill G H without --nm-memory-cgroups: exit ($(cat "$tmpdir/err"))"
assert_eq "$(r "$G")" "failed 0  $g" "G: the pid only in a memory dir taken for kilo's mirror"
assert_eq "$(r "$H")" "failed 0  $h" "H: a pid only in kilo's mirrors"
jq -r --arg id "$G" '.items[] | select(.id == $id) | .error' "$tmpdir/report" |
	grep -q 'give --nm-memory-cgroups$' || fail "G's error does not name the flag"
alive "$g" || fail "G's process was signalled without --nm-memory-cgroups"
alive "$h" || fail "the pid in H's mirrors was signalled"

# a pid namespace of its own, with a /proc of its own and with the host's
for mount_proc in --mount-proc ""; do
	unshare --pid --fork $mount_proc yarn-copilot --hierarchy "$hy" --grace-period 50 kill "$I" \
		>"$tmpdir/report" 2>"$tmpdir/err"
	rc=$?
	assert_eq "$rc" 1 "kill in a pid namespace ${mount_proc:-(host /proc)}: exit"
	jq -r '.items[0].error' "$tmpdir/report" | grep -q 'hostPID: true' ||
		fail "pid namespace ${mount_proc:-(host /proc)}: $(jq -r '.items[0].error' "$tmpdir/report")"
	alive "$i" || fail "I's process was signalled from a pid namespace"
done

# a wrong hierarchy: no evidence at all, so not gone
yarn-copilot --hierarchy "$PRIVATE_CG/no-such-yarn" kill "$I" >"$tmpdir/report" 2>"$tmpdir/err"
assert_eq "$?" 1 "wrong --hierarchy: exit"
jq -r '.items[0] | "\(.result) \(.error)"' "$tmpdir/report" >"$tmpdir/item"
grep -q "^failed hadoop-yarn cgroup '/$PRIVATE_CG/no-such-yarn' not found in the NodeManager's hierarchies (cpu; found .*hadoop-yarn at '/$PRIVATE_CG/hadoop-yarn'.*): check --hierarchy and --cgroup-driver$" "$tmpdir/item" ||
	fail "wrong --hierarchy: the item does not name the dir found: $(cat "$tmpdir/item")"
alive "$i" || fail "I's process was signalled through a wrong hierarchy"

tools=${KILO_TEST_TOOLS:-${KILO_BIN%/*}/test/tools}
[ -x "$tools/hopper" ] || fail "$tools/hopper missing (built by make check)"
L=container_1795910400000_${app}_01_000005
Z=container_1795910400000_${app}_01_000006
HOP=container_1795910400000_${app}_01_000007
mkdir -p "$cg/cpu/$hy/$L" "$cg/cpu/$hy/$Z" "$cg/cpu/$hy/$HOP/a" "$cg/cpu/$hy/$HOP/b" || fail "mkdir L Z HOP"
spawn_threaded
echo "$THREADED_PID" >"$cg/cpu/$hy/$L/tasks" || fail "move the leader of $THREADED_PID into L"
at_exit "echo $THREADED_PID >$cg/cpu/tasks"
"$tools/exited-leader" "$tmpdir/zl" &
private_pid "$!"
wait_nonempty "exited-leader" "$tmpdir/zl"
read -r zpid ztid <"$tmpdir/zl"
n=0
while [ "$(cut -d')' -f2 "/proc/$zpid/stat" | cut -d' ' -f2)" != Z ]; do
	n=$((n + 1))
	[ "$n" -le 100 ] || fail "the leader of $zpid did not exit"
	sleep 0.05
done
echo "$ztid" >"$cg/cpu/$hy/$Z/tasks" || fail "move thread $ztid into Z"
at_exit "echo $ztid >$cg/cpu/tasks"
kill_ids kill "$L" "$Z"
assert_eq "$rc" 1 "kill L Z: exit ($(cat "$tmpdir/err"))"
assert_eq "$(jq -r --arg id "$L" '.items[] | select(.id == $id) | "\(.result) \(.signalled | length) \(.error)"' "$tmpdir/report")" \
	"failed 0 process $THREADED_PID has threads in '$L' and outside it: not signalled, and the container is not proven ended" "L"
assert_eq "$(jq -r --arg id "$Z" '.items[] | select(.id == $id) | "\(.result) \(.signalled | length) \(.error)"' "$tmpdir/report")" \
	"failed 0 process $zpid has threads in '$Z' and outside it: not signalled, and the container is not proven ended" "Z"
grep -Eq '^[0-9]+:([^:]*,)?cpu(,[^:]*)?:/$' "/proc/$zpid/cgroup" ||
	fail "the exited leader's own cgroup file does not read the root: $(cat "/proc/$zpid/cgroup")"
alive "$THREADED_PID" || fail "the process whose leader was written into L was signalled"
[ -e "/proc/$zpid/task/$ztid" ] || fail "the process whose thread was written into Z was signalled"

"$tools/hopper" "$cg/cpu/$hy/$HOP/a" "$cg/cpu/$hy/$HOP/b" &
hop=$!
private_pid "$hop"
n=0
while ! cat "$cg/cpu/$hy/$HOP/a/cgroup.procs" "$cg/cpu/$hy/$HOP/b/cgroup.procs" | grep -qx "$hop"; do
	n=$((n + 1))
	[ "$n" -le 100 ] || fail "the hopper did not start"
	sleep 0.05
done
kill_ids kill "$HOP"
res=$(jq -r '.items[0].result' "$tmpdir/report")
case "$res $rc" in
"killed 0") ! alive "$hop" || fail "the hopper reported killed, and alive" ;;
"failed 1") ;; # honest: it may have outrun the SIGKILL rounds
*) fail "the hopper (it ignores SIGTERM): $res, exit $rc: $(cat "$tmpdir/report")" ;;
esac

# with --nm-memory-cgroups the memory dirs are the NodeManager's: G's
# process is a member (its cpu dir is empty), and so is H's
kill_ids --nm-memory-cgroups kill "$G" "$H" "$I"
assert_eq "$rc" 0 "kill G H I with --nm-memory-cgroups: exit ($(cat "$tmpdir/err"))"
assert_eq "$(r "$G")" "terminated 1 SIGTERM " "G: a member in the NodeManager's memory dir"
assert_eq "$(r "$I")" "terminated 1 SIGTERM " "I"
! alive "$g" || fail "G's process lives on"
! alive "$i" || fail "I's process lives on: $(cat "$tmpdir/report")"
assert_eq "$(r "$H" | cut -d' ' -f1)" "terminated" "H: in the NodeManager's memory dir, a member"
exit 0
