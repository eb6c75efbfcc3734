# SPDX-License-Identifier: Apache-2.0
# A container process whose threads come and go all the time (a thread
# pool's life, sped up: test/tools/threadchurn, 4 chains of threads each
# starting its successor and exiting; SIGTERM ignored), on the real cgroup
# v1 cpu hierarchy.  An exiting thread's own cgroup file reads the root: it
# was taken for a thread outside, the process for "mixed", so kill never
# signalled it (failed, 4 of 4) and list counted it 0 (the evictor skips
# such a container).  Now list always counts it and kill ends it.
. "$KILO_TOP/test/lib.sh"
private_cgroup cpu cpuacct
tools=${KILO_TEST_TOOLS:-${KILO_BIN%/*}/test/tools}
[ -x "$tools/threadchurn" ] || fail "$tools/threadchurn missing (built by make check)"

cg=/sys/fs/cgroup
hy=$PRIVATE_CG/hadoop-yarn
app=$(printf '%04d' $(($$ % 10000)))
C=container_1795910400000_${app}_01_000002
dir=$cg/cpu/$hy/$C
mkdir -p "$dir" || fail "mkdir"

for round in 1 2 3 4; do
	sh -c 'echo $$ >"$1/cgroup.procs" || exit 1; exec "$2" 4' sh "$dir" "$tools/threadchurn" \
		>/dev/null 2>&1 &
	pid=$!
	private_pid "$pid"
	wait_in_cgroup "$pid" "$dir" "round $round: the churning process"
	sleep 0.2
	for call in 1 2 3 4 5; do
		yarn-copilot --hierarchy "$hy" --no-nm list >"$tmpdir/list" 2>"$tmpdir/err" ||
			fail "round $round: list: exit $?: $(cat "$tmpdir/err")"
		assert_eq "$(jq -r '.items[0].processes' "$tmpdir/list")" 1 \
			"round $round, list call $call: processes"
	done
	yarn-copilot --hierarchy "$hy" --no-nm --grace-period 50 --kill-timeout 1000 kill "$C" \
		>"$tmpdir/report" 2>"$tmpdir/err"
	rc=$?
	assert_eq "$rc $(jq -c '.items[0] | [.result, .signalled]' "$tmpdir/report")" \
		'0 ["killed",["SIGTERM","SIGKILL"]]' "round $round: kill ($(cat "$tmpdir/err"))"
	wait "$pid" 2>/dev/null
	[ ! -e "/proc/$pid" ] || fail "round $round: the churning process lives on"
done
exit 0
