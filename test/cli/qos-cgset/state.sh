# SPDX-License-Identifier: Apache-2.0
# qos-cgset --state on a fake v1 tree with the Anolis knobs: the first pass
# fills the cache; a second writes nothing, reads no container file and
# leaves the state file alone; a file changed by hand is left until the
# recheck period is over, then fixed; ContainerList pids are a hint only
# (a pid not read from the cpu dir is never moved); the CPU choice is
# memoized; --dry-run and a failed write; bad state files and options.
. "$KILO_TOP/test/lib.sh"
t=$tmpdir/t
cg=$t/sys/fs/cgroup
Y=kubepods/besteffort/hadoop-yarn
C1=container_e17_1410901177871_0001_01_000001
st=$tmpdir/state.json
cp -R "$FIX/sysroot/v1-separate/." "$t"
sh "$FIX/qos/anolis.sh" "$t"
# the input as yarn-copilot list gives it: with each container's pids
with_pids() { # PIDS_OF_C1 -> the input on stdout
	jq -c --argjson p1 "$1" 'if .kind == "ContainerList" then .items |= map(.pids =
		(if .id | endswith("01") then $p1 else [4300] end)) else . end' "$FIX/qos/input.json"
}
with_pids '[4242,4250]' >"$tmpdir/in.json"
q() { # NAME [options]: a pass with --state; its report in NAME.json, exit code printed
	n=$1
	shift
	qos-cgset --sysroot "$t" --state "$st" "$@" <"${IN:-$tmpdir/in.json}" >"$tmpdir/$n.json" \
		2>"$tmpdir/$n.err"
	echo $?
}
results() { # NAME: "result file path" of every item not unchanged
	jq -r '.items[] | select(.result != "unchanged") | "\(.result) \(.file) \(.path)"' \
		"$tmpdir/$1.json" | sed "s|/$Y|Y|"
}
cached() { # NAME: how many items were decided from the cache
	jq '[.items[] | select(.reason | test("cached: read"))] | length' "$tmpdir/$1.json"
}
stamp() { stat -c %y "$st"; }

# 1. The first pass writes what differs and keeps every container file.
assert_eq "$(q first)" 0 "first pass"
assert_eq "$(jq -r '.kind + " " + .hadoopYarn' "$st")" "QosCgsetState /$Y" "state kind"
assert_eq "$(jq -c ".containers[\"$C1\"].files" "$st")" \
	'{"cpuset/cgroup.procs":"4242\n4250","memory/cgroup.procs":"4242\n4250","cpuset/cpuset.cpus":"0-3","memory/memory.oom.group":"1"}' \
	"cached files of C1"
assert_eq "$(jq -c '.memo' "$st")" \
	'{"cpus online=0-7 candidates=0-7 count=4":{"value":"0-3","atMs":1795968000000}}' "memo"

# 2. A second pass: nothing written, the 4 container files from the cache,
# the state file not rewritten.
before=$(stamp)
assert_eq "$(q second)" 0 "second pass"
assert_eq "$(jq -r '.summary.written' "$tmpdir/second.json")" 0 "second pass writes"
assert_eq "$(cached second)" 4 "items from the cache"
# hits: the 4 items, both mirrors' pids of both containers, the CPU choice
assert_eq "$(jq -c .cache "$tmpdir/second.json")" \
	"{\"file\":\"$st\",\"items\":4,\"hits\":9,\"saved\":false}" "the report's cache member"
assert_eq "$(jq -r ".items[] | select(.path == \"/$Y/$C1\" and .file == \"cpuset.cpus\") | .reason" \
	"$tmpdir/second.json")" \
	"cpuset policy: 3700 milli-cores allowed -> 4 CPUs, 4 this round (from 4; growth at most 1 a pass) (cached: read 0 s ago)" \
	"cached reason"
assert_eq "$(stamp)" "$before" "state file rewritten by a pass that changed nothing"

# 3. Changed by hand: trusted for --recheck seconds, then read and fixed.
echo 0 >"$cg/memory/$Y/$C1/memory.oom.group"
echo 1 >"$cg/cpuset/$Y/$C1/cpuset.cpus"
assert_eq "$(KILO_NOW=2026-11-29T16:00:59Z q within)" 0 "pass within the period"
assert_eq "$(results within)" "" "within the period: nothing re-read"
assert_eq "$(jq -r '.items[] | select(.file == "memory.oom.group" and .old == "1") | .reason' \
	"$tmpdir/within.json" | head -n 1)" \
	"one task's OOM ends the whole container (cached: read 59 s ago)" "age in the reason"
assert_eq "$(KILO_NOW=2026-11-29T16:01:00Z q after)" 0 "pass after the period"
assert_eq "$(results after)" "written cpuset.cpus Y/$C1
written memory.oom.group Y/$C1" "after the period: read and fixed"
assert_eq "$(cat "$cg/memory/$Y/$C1/memory.oom.group")" 1 "memory.oom.group fixed"
assert_eq "$(KILO_NOW=2026-11-29T16:01:00Z q short --recheck 1)" 0 "--recheck 1"
assert_eq "$(cached short)" 4 "fresh entries are cached with --recheck 1 too"
assert_eq "$(KILO_NOW=2026-11-29T16:01:01Z q short2 --recheck 1)" 0 "--recheck 1, 1 s later"
assert_eq "$(cached short2)" 0 "1 s later with --recheck 1: everything read"

# 4. The pids of ContainerList are a hint.  A process put into the cpu dir
# that the list does not name yet is found when the list names it; a pid
# the list names that is not in the cpu dir is never moved anywhere.
now=2026-11-29T16:01:01Z
printf '4242\n4250\n4251\n' >"$cg/cpu/$Y/$C1/cgroup.procs"
printf '4242\n4250\n4251\n' >"$cg/cpu/$Y/$C1/tasks" # its leader thread too: a member
mkdir -p "$t/proc/4251" && cp "$t/proc/4242/cgroup" "$t/proc/4251/cgroup"
assert_eq "$(KILO_NOW=$now q stale-list)" 0 "list without the new pid"
assert_eq "$(results stale-list)" "" "nothing moved on a list that does not name it"
with_pids '[4242,4250,4251,5555]' >"$tmpdir/in2.json"
assert_eq "$(IN=$tmpdir/in2.json KILO_NOW=$now q new-pid)" 0 "list naming the new pid"
assert_eq "$(results new-pid)" "written cgroup.procs Y/$C1
written cgroup.procs Y/$C1" "the new pid moved into cpuset and memory"
assert_eq "$(jq -r '[.items[] | select(.file == "cgroup.procs") | .new] | unique | join(" ")' \
	"$tmpdir/new-pid.json")" 4251 "only the pid read from the cpu dir"
assert_eq "$(grep -c 5555 "$cg/cpuset/$Y/$C1/cgroup.procs" "$cg/memory/$Y/$C1/cgroup.procs" |
	grep -vc ':0$')" 0 "5555 written nowhere"
assert_eq "$(jq -r ".containers[\"$C1\"].files[\"cpuset/cgroup.procs\"] // \"none\"" "$st")" none \
	"a mirror that needed a move is read again next pass"
# a fake cgroup.procs holds only the last pid written: make it what the
# kernel's would be
for c in cpuset memory; do printf '4242\n4250\n4251\n' >"$cg/$c/$Y/$C1/cgroup.procs"; done
assert_eq "$(IN=$tmpdir/in2.json KILO_NOW=$now q after-move)" 0 "pass after the move"
assert_eq "$(results after-move)" "" "nothing left to move"
assert_eq "$(jq -r ".containers[\"$C1\"].files[\"cpuset/cgroup.procs\"]" "$st")" "4242
4250
4251" "the mirror's pids cached again"

# 5. The CPU choice is memoized under the online CPUs, candidates and
# count: a new topology (cpu n and n+4 siblings) counts only once the
# memo is stale.
for c in 0 1 2 3 4 5 6 7; do
	d=$t/sys/devices/system/cpu/cpu$c/topology
	mkdir -p "$d"
	echo $((c % 4)) >"$d/core_id"
	echo 0 >"$d/physical_package_id"
done
assert_eq "$(KILO_NOW=$now q memo --only suppress)" 0 "suppress with the memo"
assert_eq "$(results memo)" "" "memoized choice kept"
assert_eq "$(KILO_NOW=2026-11-29T16:02:01Z q memo2 --only suppress)" 0 "suppress, memo stale"
assert_eq "$(jq -r '.items[] | select(.path == "/'$Y'" and .result == "written") | .new' \
	"$tmpdir/memo2.json" | tail -n 1)" "0-1,4-5" "the new topology's choice"

# a remembered choice the state file was edited to hold (CPUs offline, not
# candidates, too many) is not used: the choice is made again
jq -c '.memo[].value = "0-5,100-101"' "$st" >"$tmpdir/edited" && cp "$tmpdir/edited" "$st"
assert_eq "$(KILO_NOW=2026-11-29T16:02:01Z q edited --only suppress)" 0 "edited memo"
assert_eq "$(results edited)" "" "an edited memo is never written"
assert_eq "$(jq -r '.memo[].value' "$st")" "0-1,4-5" "the edited memo made again"

# 6. --dry-run with --state shows what the same command would do (the
# cache is used) and leaves the state file alone; without --state it reads
# every file.  (The suppress pass above cached cpusets only: a whole pass
# first adds the memory files to the entries.)
assert_eq "$(KILO_NOW=2026-11-29T16:02:02Z q whole)" 0 "a whole pass"
echo 0 >"$cg/memory/$Y/$C1/memory.oom.group"
before=$(stamp)
assert_eq "$(KILO_NOW=2026-11-29T16:02:03Z q dry --dry-run)" 0 "dry run"
assert_eq "$(results dry)" "" "dry run with the cache: what the real pass would do"
assert_eq "$(jq -c '[.cache.items, .cache.saved]' "$tmpdir/dry.json")" "[4,false]" \
	"dry run: cache use reported, nothing saved"
assert_eq "$(stamp)" "$before" "dry run left the state file"
qos-cgset --sysroot "$t" --dry-run <"$tmpdir/in.json" >"$tmpdir/dry2.json"
assert_eq "$(results dry2)" "planned memory.oom.group Y/$C1" "dry run without --state sees the change"
assert_eq "$(jq -c .cache "$tmpdir/dry2.json")" null "no cache member without --state"

# 7. After a failed write the next pass trusts nothing.
assert_eq "$(KILO_FAULTS=write:memory.oom.group:EBUSY KILO_NOW=2026-11-29T16:03:10Z q failed)" 3 \
	"failed write"
assert_eq "$(jq -c '.containers' "$st")" '{}' "state emptied after a failed write"
assert_eq "$(KILO_NOW=2026-11-29T16:03:11Z q retry)" 0 "retry"
assert_eq "$(results retry)" "written memory.oom.group Y/$C1" "retry reads and fixes"

# 7b. A cpu dir whose cgroup.procs cannot be read: a failed item, exit 3,
# nothing cached.
assert_eq "$(KILO_FAULTS=read:cpu/$Y/$C1/cgroup.procs:EIO:0 KILO_NOW=2026-11-29T16:04:30Z \
	IN=$tmpdir/in2.json q eio --only static)" 3 "unreadable cpu cgroup.procs"
assert_eq "$(jq -r '.items[] | select(.result == "failed") | "\(.file) \(.error | test("Input/output error"))"' \
	"$tmpdir/eio.json")" "cgroup.procs true" "the failed read is an item"
assert_eq "$(jq -c '.containers' "$st")" '{}' "nothing cached after a failed read"

# 8. A state file qos-cgset cannot use: a warning, every file read, the
# file replaced; options.
echo '{"apiVersion":"kilo/v1","kind":"QosCgsetState","hadoopYarn":"/x","containers":[]}' >"$st"
assert_eq "$(q broken)" 0 "broken state"
assert_eq "$(cat "$tmpdir/broken.err")" "qos-cgset: warning: state '$st': QosCgsetState.containers: expected an object, got []; reading every file" \
	"broken state warning"
assert_eq "$(cached broken)" 0 "nothing cached from a broken state"
assert_eq "$(jq -r '.hadoopYarn' "$st")" "/$Y" "broken state replaced"
# through a symlink: a pass that changes something withdraws the file it
# leads to and writes it again, so the link keeps working
mkdir "$tmpdir/real"
ln -s real/st.json "$tmpdir/link.json"
via_link() { # NAME TIME
	KILO_NOW=$2 qos-cgset --sysroot "$t" --state "$tmpdir/link.json" <"$tmpdir/in.json" \
		>"$tmpdir/$1.json" 2>"$tmpdir/$1.err"
	echo $?
}
assert_eq "$(via_link l1 2026-11-29T16:05:00Z)" 0 "fill through a link"
echo 0 >"$cg/memory/$Y/$C1/memory.oom.group"
assert_eq "$(via_link l2 2026-11-29T16:06:01Z)" 0 "a changing pass through a link"
assert_eq "$(results l2)" "written memory.oom.group Y/$C1" "the change"
assert_eq "$(via_link l3 2026-11-29T16:06:02Z)" 0 "the next pass"
assert_eq "$(cat "$tmpdir/l2.err" "$tmpdir/l3.err")" "" "no warning through a link"
[ -L "$tmpdir/link.json" ] && [ -f "$tmpdir/real/st.json" ] || fail "link or file gone"
assert_eq "$(jq -r '.cache.saved, (.cache.hits > 0)' "$tmpdir/l3.json" | tr '\n' ' ')" \
	"false true " "the cache used through the link"
mkdir "$tmpdir/ro"
assert_eq "$(qos-cgset --sysroot "$t" --state "$tmpdir/ro" <"$tmpdir/in.json" >/dev/null 2>"$tmpdir/dir.err"; echo $?)" 0 \
	"a state path that is a directory does not fail the pass"
grep -q "^qos-cgset: warning: .*$tmpdir/ro" "$tmpdir/dir.err" || fail "no warning: $(cat "$tmpdir/dir.err")"
for bad in "--recheck 60" "--state $st --recheck 0" "--state $st --recheck 1m" "--state ''"; do
	eval "qos-cgset --sysroot \"\$t\" $bad" <"$tmpdir/in.json" >"$tmpdir/out" 2>"$tmpdir/err"
	assert_eq "$?" 2 "exit for $bad"
	[ ! -s "$tmpdir/out" ] || fail "output for $bad"
done
assert_eq "$(qos-cgset --recheck 60 </dev/null 2>&1 | head -n 1)" "qos-cgset: --recheck needs --state" \
	"--recheck without --state"
exit 0
