# SPDX-License-Identifier: Apache-2.0
# A fork chain in a container, on the real cgroup v1 cpu hierarchy: a
# process that ignores SIGTERM, forks its successor and exits, over and
# over (test/tools/forkchain), in the container dir or a sub-dir of it.
# Each kill either ends the chain and says so, or fails (exit 1) naming
# the container: never "gone", "terminated" or "killed" while the chain
# runs on.  It used to report success in 14 of 20 runs (each generation
# was listed in cgroup.procs but had exited before the tasks read, so it
# was taken for foreign, and three such reads in a row for empty).
. "$KILO_TOP/test/lib.sh"
private_cgroup cpu cpuacct
tools=${KILO_TEST_TOOLS:-${KILO_BIN%/*}/test/tools}
[ -x "$tools/forkchain" ] || fail "$tools/forkchain missing (built by make check)"

cg=/sys/fs/cgroup
hy=$PRIVATE_CG/hadoop-yarn
app=$(printf '%04d' $(($$ % 10000)))
C=container_1795910400000_${app}_01_000002
dir=$cg/cpu/$hy/$C
mkdir -p "$dir/sub" || fail "mkdir"
stop=$tmpdir/stop
at_exit "touch $stop"

# the chain's pids now, from the container's dirs (several reads: one may
# fall between two generations)
chain() {
	for _r in 1 2 3 4 5 6 7 8 9 10; do
		cat "$dir/cgroup.procs" "$dir/sub/cgroup.procs"
	done | sort -u | tr '\n' ' '
}
end_chain() {
	touch "$stop"
	_n=0
	while [ -n "$(chain)" ]; do
		_n=$((_n + 1))
		[ "$_n" -le 200 ] || fail "the chain did not stop"
		sleep 0.05
	done
	rm -f "$stop"
}

# start_chain DIR PAUSE: a chain in cgroup DIR, once its pids show
start_chain() {
	sh -c 'echo $$ >"$1/cgroup.procs" || exit 1; exec "$2" "$3" "$4"' sh "$1" \
		"$tools/forkchain" "$stop" "$2" >/dev/null 2>&1 &
	_n=0
	while [ -z "$(chain)" ]; do
		_n=$((_n + 1))
		[ "$_n" -le 100 ] || fail "the chain did not start"
		sleep 0.02
	done
}

# list never shows the running chain with no process (the evictor skips
# such a container): 20 calls
start_chain "$dir" 0
for n in $(seq 20); do
	yarn-copilot --hierarchy "$hy" --no-nm list >"$tmpdir/list" 2>"$tmpdir/err" ||
		fail "list: exit $?: $(cat "$tmpdir/err")"
	p=$(jq -r '.items[0].processes' "$tmpdir/list")
	[ "$p" -ge 1 ] || fail "list call $n: the running chain has $p processes"
done
end_chain

ended=0 failed=0 round=0
for where in "$dir" "$dir/sub" "$dir" "$dir/sub" "$dir" "$dir/sub"; do
	round=$((round + 1))
	pause=$(((round % 2) * 100)) # 0 or 100 us between generations
	start_chain "$where" "$pause"
	yarn-copilot --hierarchy "$hy" --no-nm --grace-period 20 --kill-timeout 500 kill "$C" \
		>"$tmpdir/report" 2>"$tmpdir/err"
	rc=$?
	res=$(jq -r '.items[0].result' "$tmpdir/report")
	sleep 0.05
	left=$(chain)
	case "$res $rc" in
	"killed 0" | "terminated 0" | "gone 0")
		[ -z "$left" ] || fail "round $round (${where##*/}, ${pause}us): $res while the chain runs on: $left"
		ended=$((ended + 1))
		;;
	"failed 1")
		jq -r '.items[0].error' "$tmpdir/report" | grep -q "'$C'" ||
			fail "round $round: the error does not name the container: $(cat "$tmpdir/report")"
		failed=$((failed + 1))
		;;
	*) fail "round $round: $res, exit $rc: $(cat "$tmpdir/report") $(cat "$tmpdir/err")" ;;
	esac
	end_chain
done
echo "fork chain: $ended of $round ended and reported so, $failed failed honestly"
exit 0
