# SPDX-License-Identifier: Apache-2.0
# A container that makes more cgroup dirs below its own than a walk reads
# (cgroup_read_tree: 16 levels, 4096 dirs), on the real cgroup v1 cpu
# hierarchy with real processes, in a private tree:
#   D: 20 levels deep, a process at the bottom that ignores SIGTERM and one
#      at the top, and a stranger's thread written into the bottom's tasks;
#   W: 4097 dirs side by side, a process in the last.
# Each is ended through every process's own cgroup file, the stranger is
# never signalled, and the item still fails (exit 1): a tree not read
# whole does not prove the container ended.  It used to fail at once and
# leave every process running.
. "$KILO_TOP/test/lib.sh"
private_cgroup cpu cpuacct

cg=/sys/fs/cgroup
hy=$PRIVATE_CG/hadoop-yarn
app=$(printf '%04d' $(($$ % 10000)))
D=container_1795910400000_${app}_01_000002
W=container_1795910400000_${app}_01_000003
deep=$cg/cpu/$hy/$D$(printf '/d%.0s' $(seq 20))
mkdir -p "$deep" "$cg/cpu/$hy/$W" || fail "mkdir"
(cd "$cg/cpu/$hy/$W" && seq 4097 | xargs mkdir) || fail "mkdir 4097 dirs"

# start DIR [TRAP]: a sleeping process in cgroup DIR (TRAP: ignores SIGTERM); prints its pid
start() {
	sh -c '[ -z "$2" ] || trap "" TERM; echo $$ >"$1/cgroup.procs" || exit 1; exec sleep 1000' \
		sh "$1" "${2:-}" >/dev/null 2>&1 &
	private_pid "$!"
	wait_in_cgroup "$!" "$1" "process in $1"
	echo "$!"
}

bottom=$(start "$deep" trap)
top=$(start "$cg/cpu/$hy/$D")
wide=$(start "$cg/cpu/$hy/$W/4097")
spawn_threaded
echo "$THREADED_TID" >"$deep/tasks" || fail "move thread $THREADED_TID into D"
at_exit "echo $THREADED_TID >$cg/cpu/tasks"

# list: the two items' processes are unknown (null), and a warning says why
yarn-copilot --hierarchy "$hy" --no-nm list >"$tmpdir/list" 2>"$tmpdir/err"
assert_eq "$?" 0 "list: exit ($(cat "$tmpdir/err"))"
assert_eq "$(jq -c '[.items[] | .processes]' "$tmpdir/list")" "[null,null]" "list: processes"
grep -q "2 cgroup reads failed.*more than 16 levels or 4096 dirs below" "$tmpdir/err" ||
	fail "list does not say why: $(cat "$tmpdir/err")"

yarn-copilot --hierarchy "$hy" --grace-period 100 kill "$D" "$W" >"$tmpdir/report" 2>"$tmpdir/err"
assert_eq "$?" 1 "kill D W: exit ($(cat "$tmpdir/err"))"
for id in "$D" "$W"; do
	assert_eq "$(jq -r --arg id "$id" '.items[] | select(.id == $id) | "\(.result): \(.error)"' "$tmpdir/report")" \
		"failed: the cgroup dirs of '$id' pass 16 levels or 4096 dirs, more than a walk reads: by every process's own cgroup file, its members were signalled and none is left, but the container is not proven ended" \
		"${id##*_}: the item"
done
assert_eq "$(jq -r --arg id "$D" '.items[] | select(.id == $id) | .signalled | join(",")' "$tmpdir/report")" \
	"SIGTERM,SIGKILL" "D: the bottom process ignores SIGTERM"
! alive "$bottom" || fail "D's process at the bottom of 20 levels lives on"
! alive "$top" || fail "D's process at the top lives on"
! alive "$wide" || fail "W's process in its 4097th dir lives on"
alive "$THREADED_PID" || fail "the stranger whose thread was written into D was signalled"
exit 0
