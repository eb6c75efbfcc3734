# SPDX-License-Identifier: Apache-2.0
# yarn-copilot list on fake v1 (cgroupfs) and v2 (systemd) trees joined with
# the fake NodeManager in every payload shape and failure mode.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/fake-nm.sh"

A=container_1326121700862_0006_01_000001
B=container_1326121700862_0006_01_000003
C=container_1326121700862_0006_01_000004

for v in v1 v2; do
	sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$tmpdir/$v" "$v"
done

# row ID: state user cpuMilli memoryBytes stale starting terminating
row() {
	jq -r --arg id "$1" '.items[] | select(.id == $id) |
		[.state, .user, .requests.cpuMilli, .requests.memoryBytes, .stale, .starting,
		 .terminating] | map(tostring) | join(" ")' "$tmpdir/out"
}

for mode in ok legacy; do
	start_fake_nm "$mode"
	for v in v1 v2; do
		yarn-copilot --sysroot "$tmpdir/$v" --nm-url "$NM_URL" list >"$tmpdir/out" 2>"$tmpdir/err" ||
			fail "$mode $v: exit $?"
		[ ! -s "$tmpdir/err" ] || fail "$mode $v: stderr: $(cat "$tmpdir/err")"
		assert_eq "$(jq -c .nodeManager "$tmpdir/out")" \
			"{\"url\":\"$NM_URL\",\"reachable\":true,\"error\":null}" "$mode $v nodeManager"
		assert_eq "$(jq -r '.items | length' "$tmpdir/out")" 3 "$mode $v items"
		assert_eq "$(row $A)" "RUNNING user1 1000 2147483648 false false false" "$mode $v $A"
		assert_eq "$(row $B)" "RUNNING user1 2000 2147483648 false false false" "$mode $v $B"
		# in the cgroups, not in the NM: a left-over dir
		assert_eq "$(row $C)" "null null null null true false false" "$mode $v $C"
	done
done

assert_eq "$(jq -r '.hadoopYarn | "\(.cgroupVersion) \(.driver) \(.path)"' "$tmpdir/out")" \
	"2 systemd /kubepods.slice/kubepods-besteffort.slice/hadoop-yarn" "v2 hadoopYarn"
assert_eq "$(jq -r ".items[] | select(.id == \"$A\") | [.processes, .startTime, .usage.cpuNanos,
	.usage.memoryBytes, .usage.memoryCurrentBytes, .am] | map(tostring) | join(\" \")" "$tmpdir/out")" \
	"2 2026-11-29T15:40:01Z 123456789000 536870912 540966912 true" "v2 $A usage"

# one container as an object, not an array
start_fake_nm single
yarn-copilot --sysroot "$tmpdir/v1" --nm-url "$NM_URL" list >"$tmpdir/out" || fail "single: exit $?"
assert_eq "$(row $A)" "RUNNING user1 1000 2147483648 false false false" "single $A"
assert_eq "$(row $B)" "null null null null true false false" "single $B"

# the empty forms: reachable, nothing known, every dir stale
for mode in null nocontainer; do
	start_fake_nm "$mode"
	yarn-copilot --sysroot "$tmpdir/v1" --nm-url "$NM_URL" list >"$tmpdir/out" || fail "$mode: exit $?"
	assert_eq "$(jq -r .nodeManager.reachable "$tmpdir/out")" true "$mode reachable"
	assert_eq "$(jq -r '[.items[].stale] | map(tostring) | join(" ")' "$tmpdir/out")" \
		"true true true" "$mode stale"
done

# {} is no answer (it used to be taken as "no containers"), and a body over
# --nm-max-bytes is not read further (one of 240 MB took 4.9 GB): the NM
# is reported unreachable, the list comes from cgroups
start_fake_nm empty
yarn-copilot --sysroot "$tmpdir/v1" --nm-url "$NM_URL" list >"$tmpdir/out" 2>"$tmpdir/err" || fail "{}: exit $?"
grep -q 'not a containers document (no "containers" member); listing from cgroups alone$' "$tmpdir/err" ||
	fail "{}: $(cat "$tmpdir/err")"
assert_eq "$(jq -r .nodeManager.reachable "$tmpdir/out")" false "{} reachable"
start_fake_nm huge --huge-mb 20
yarn-copilot --sysroot "$tmpdir/v1" --nm-url "$NM_URL" --nm-timeout 5000 list >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "huge: exit $?"
grep -q 'response body over 16777216 bytes; listing from cgroups alone$' "$tmpdir/err" ||
	fail "huge: $(cat "$tmpdir/err")"
yarn-copilot --sysroot "$tmpdir/v1" --nm-url "$NM_URL" --nm-timeout 5000 --nm-max-bytes 4096 list \
	>"$tmpdir/out" 2>"$tmpdir/err" || fail "huge, 4096: exit $?"
grep -q 'response body over 4096 bytes' "$tmpdir/err" || fail "huge, 4096: $(cat "$tmpdir/err")"
# more containers than any node runs, in a few MiB (each would be an item of
# the list now that containers without a dir are listed): an NM error
start_fake_nm many --many 10001
yarn-copilot --sysroot "$tmpdir/v1" --nm-url "$NM_URL" --nm-timeout 10000 list >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "many: exit $?"
grep -q 'more than 10000 containers listed; listing from cgroups alone$' "$tmpdir/err" ||
	fail "many: $(cat "$tmpdir/err")"
assert_eq "$(jq '.items | length' "$tmpdir/out")" 3 "many: the dirs alone"
start_fake_nm many --many 10000
yarn-copilot --sysroot "$tmpdir/v1" --nm-url "$NM_URL" --nm-timeout 10000 list >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "10000: exit $?"
assert_eq "$(jq -r .nodeManager.reachable "$tmpdir/out")" true "10000 containers: read"

# unreachable in every way: cgroups alone, NM fields null, a warning, exit 0
start_fake_nm slow --delay-ms 5000
slow_url=$NM_URL
start_fake_nm 500
e500_url=$NM_URL
start_fake_nm notjson
for url in "$slow_url" "$e500_url" "$NM_URL" http://127.0.0.1:1; do
	t0=$(date +%s%N)
	yarn-copilot --sysroot "$tmpdir/v1" --nm-url "$url" --nm-timeout 500 list \
		>"$tmpdir/out" 2>"$tmpdir/err" || fail "$url: exit $?"
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ "$ms" -lt 2000 ] || fail "$url: took $ms ms with --nm-timeout 500"
	grep -q "^yarn-copilot: warning: NodeManager '$url': .*; listing from cgroups alone\$" \
		"$tmpdir/err" || fail "$url: no warning: $(cat "$tmpdir/err")"
	assert_eq "$(jq -r '.nodeManager | "\(.reachable) \(.error != null)"' "$tmpdir/out")" \
		"false true" "$url nodeManager"
	assert_eq "$(row $A)" "null null null null null false false" "$url $A"
	# no process and no NM to ask: taken as starting
	assert_eq "$(row $C)" "null null null null null true false" "$url $C"
	assert_eq "$(jq -r ".items[] | select(.id == \"$A\") | .usage.cpuNanos" "$tmpdir/out")" \
		123456789000 "$url cgroup usage still there"
done
# NM states: KILLING with processes left is terminating; LOCALIZING without
# a process is starting; a finished container whose dir remains is stale
cat >"$tmpdir/states.json" <<JSON
{"containers":{"container":[
 {"id":"$A","state":"KILLING","user":"u","totalMemoryNeededMB":1024,"totalVCoresNeeded":1},
 {"id":"$B","state":"EXITED_WITH_FAILURE","user":"u","totalMemoryNeededMB":1024,"totalVCoresNeeded":1},
 {"id":"$C","state":"LOCALIZING","user":"u","totalMemoryNeededMB":1024,"totalVCoresNeeded":1}]}}
JSON
start_fake_nm ok --containers "$tmpdir/states.json"
yarn-copilot --sysroot "$tmpdir/v2" --nm-url "$NM_URL" list >"$tmpdir/out" || fail "states: exit $?"
assert_eq "$(row $A)" "KILLING u 1000 1073741824 false false true" "KILLING $A"
assert_eq "$(row $B)" "EXITED_WITH_FAILURE u 1000 1073741824 true false false" "EXITED $B"
assert_eq "$(row $C)" "LOCALIZING u 1000 1073741824 false true false" "LOCALIZING $C"

# every ContainerState of Hadoop 3.3/3.4 (fake NM mode "states"), none with
# a dir: the ones not finished are listed with their phase (the finished
# ones without a dir are not), requests counted from the NM alone
start_fake_nm states
yarn-copilot --sysroot "$tmpdir/v2" --nm-url "$NM_URL" list >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "states: exit $?"
assert_eq "$(jq -r '[.items[] | select(.id | test("_0007_")) | "\(.state):\(.phase):\(.cgroup):\(.processes)"] | join(" ")' "$tmpdir/out")" \
	"NEW:starting:null:0 LOCALIZING:starting:null:0 SCHEDULED:starting:null:0 RUNNING:running:null:0 RELAUNCHING:running:null:0 REINITIALIZING:running:null:0 REINITIALIZING_AWAITING_KILL:running:null:0 KILLING:killing:null:0 CONTAINER_CLEANEDUP_AFTER_KILL:killing:null:0 PAUSING:running:null:0 PAUSED:running:null:0 RESUMING:running:null:0" \
	"every state's phase"

# a member the containers object does not have is no list of none, also
# as read from the wire (the streaming filter dropped it: the NM was taken
# to hold nothing, every container stale)
for doc in '{"containers":{"containerz":[{"id":"'$A'","state":"RUNNING"}]}}' \
	'{"containers":{"container":[{"id":"'$A'","state":"RUNNING"}],"containerz":[1]}}'; do
	printf '%s\n' "$doc" >"$tmpdir/z.json"
	start_fake_nm ok --containers "$tmpdir/z.json"
	yarn-copilot --sysroot "$tmpdir/v2" --nm-url "$NM_URL" list >"$tmpdir/out" 2>"$tmpdir/err" ||
		fail "containerz: exit $?"
	assert_eq "$(jq -c '.nodeManager | [.reachable, .error]' "$tmpdir/out")" \
		'[false,"NM answer.containers: not a containers document (member \"containerz\")"]' \
		"containerz: $doc"
done

# bad data in one entry costs that entry (or that field) only: one
# "2Gi" made the whole NM unreachable and every container unknown; an id
# listed twice keeps the entry the NM is not done with
cat >"$tmpdir/bad.json" <<JSON
{"containers":{"container":[
 {"id":"$A","state":"RUNNING","user":"u","totalMemoryNeededMB":"2Gi","totalVCoresNeeded":1},
 {"id":"$B","state":"DONE","user":"u","totalMemoryNeededMB":1024,"totalVCoresNeeded":1},
 {"id":"$B","state":"RUNNING","user":"u","totalMemoryNeededMB":1024,"totalVCoresNeeded":2},
 {"id":7}]}}
JSON
start_fake_nm ok --containers "$tmpdir/bad.json"
yarn-copilot --sysroot "$tmpdir/v2" --nm-url "$NM_URL" list >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "bad entries: exit $?"
assert_eq "$(jq -r .nodeManager.reachable "$tmpdir/out")" true "bad entries: the NM is reachable"
assert_eq "$(row $A)" "RUNNING u null null false false false" "a bad field: $A's requests unknown"
assert_eq "$(row $B)" "RUNNING u 2000 1073741824 false false false" "a repeated id: $B"
assert_eq "$(cat "$tmpdir/err")" \
	"yarn-copilot: warning: NodeManager '$NM_URL': 1 entry skipped, 1 field of the wrong type taken as absent, 1 repeated id dropped; first: NM answer.containers.container[0].totalMemoryNeededMB: expected an integer 0..8589934592, got \"2Gi\"" \
	"bad entries: the warning"
exit 0
