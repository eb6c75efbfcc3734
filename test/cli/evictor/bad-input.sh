#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# evictor on bad input: exit 2, one line naming the field and the value,
# nothing on stdout, the state file untouched.
. "$KILO_TOP/test/lib.sh"
ev=$FIX/evictor
st=$tmpdir/state.json
printf '{"apiVersion":"kilo/v1","kind":"EvictorState","victims":[],"lastEviction":{"memoryMs":1,"cpuMs":null},"cpuSamples":[]}\n' >"$st"
cp "$st" "$tmpdir/state.orig"

check() { # name expected-stderr-substring [evictor args...] < stdin
	name=$1 want=$2
	shift 2
	evictor --state "$st" "$@" >"$tmpdir/out" 2>"$tmpdir/err"
	rc=$?
	assert_eq "$rc" 2 "$name: exit code"
	[ ! -s "$tmpdir/out" ] || fail "$name: wrote to stdout: $(cat "$tmpdir/out")"
	assert_eq "$(wc -l <"$tmpdir/err")" 1 "$name: stderr lines"
	grep -qF -- "$want" "$tmpdir/err" || fail "$name: stderr '$(cat "$tmpdir/err")' lacks '$want'"
	cmp -s "$st" "$tmpdir/state.orig" || fail "$name: state file changed"
}
edit() { # python expression over d (the ContainerList) -> new document
	python3 -c "import json,sys
d=json.load(open(sys.argv[1]))
$1
print(json.dumps(d))" "$ev/containers.json"
}
mem=$ev/node-usage-memory.json

edit 'd["items"][2]["usage"]["memoryBytes"] = -5' | cat "$mem" - |
	check "negative usage" "evictor: ContainerList.items[2].usage.memoryBytes: expected an integer 0..9007199254740992, got -5"
edit 'd["items"][0]["id"] = "container_1_../../etc"' | cat "$mem" - |
	check "bad id" 'ContainerList.items[0].id: expected a YARN container id, got "container_1_../../etc"'
edit 'd["items"][1]["startTime"] = "15:40"' | cat "$mem" - |
	check "bad startTime" 'ContainerList.items[1].startTime: expected an RFC 3339 time, got "15:40"'
sed 's/"cpuset": "0-3"/"cpuset": "3-0"/' "$mem" | cat - "$ev/containers.json" |
	check "bad cpuset" 'NodeUsage.limits.hadoopYarn.cpuset: expected a cpuset list such as "0-3,8", got "3-0"'
# a pod's bad request (a tenant's pod spec) is no bad input: it costs the BE
# request only (no CPU eviction this pass), the memory plan still goes out
printf 'resourceUsedThresholdWithBE: {cpuEvictBESatisfactionLowerPercent: 60, cpuEvictBESatisfactionUpperPercent: 80}\n' >"$tmpdir/cpu.yaml"
sed "s/batch-cpu\": \"2k\"/batch-cpu\": \"2 k\"/" "$FIX/k8s/podlist-mixed.json" | cat "$mem" "$ev/containers.json" - |
	evictor --policy "$tmpdir/cpu.yaml" >"$tmpdir/out" 2>"$tmpdir/err" || fail "bad batch-cpu: exit $? ($(cat "$tmpdir/err"))"
grep -q '"items":\[{' "$tmpdir/out" || fail "bad batch-cpu: no memory victims: $(cat "$tmpdir/out")"
grep -q '"cpu: no sample: the BE request is unknown: 1 pod.s request is unreadable (Pod PodList.items\[[0-9]*\] ([a-z0-9-]*/[a-z0-9-]*)' "$tmpdir/out" ||
	fail "bad batch-cpu: the note: $(jq -c .notes "$tmpdir/out")"
grep -q "warning: 1 pod of the PodList unreadable, the BE request unknown .*(spark-jobs/spark-pi-[0-9a-f]*-exec-1).*batch-cpu: invalid quantity '2 k'" "$tmpdir/err" ||
	fail "bad batch-cpu: the warning: $(cat "$tmpdir/err")"
check "missing ContainerList" "missing required document of kind 'ContainerList' on stdin" <"$mem"
printf '{"kind":"NodeUsage","apiVersion":"kilo/v1"\n' |
	check "truncated JSON" "evictor: stdin:"

policy() { # name yaml expected
	printf '%s\n' "$2" >"$tmpdir/p.yaml"
	cat "$mem" "$ev/containers.json" | check "$1" "$3" --policy "$tmpdir/p.yaml"
}
policy "percent over 100" "resourceUsedThresholdWithBE: {memoryEvictThresholdPercent: 120}" \
	"resourceUsedThresholdWithBE.memoryEvictThresholdPercent: expected an integer 0..100, got 120"
policy "memory lower at threshold" "resourceUsedThresholdWithBE: {memoryEvictThresholdPercent: 70, memoryEvictLowerPercent: 70}" \
	"resourceUsedThresholdWithBE.memoryEvictLowerPercent: expected a percent below memoryEvictThresholdPercent, got 70"
policy "cpu lower over 60" "resourceUsedThresholdWithBE: {cpuEvictBESatisfactionLowerPercent: 61, cpuEvictBESatisfactionUpperPercent: 80}" \
	"resourceUsedThresholdWithBE.cpuEvictBESatisfactionLowerPercent: expected a percent in (0, 60], got 61"
policy "cpu lower 0" "resourceUsedThresholdWithBE: {cpuEvictBESatisfactionLowerPercent: 0, cpuEvictBESatisfactionUpperPercent: 80}" \
	"resourceUsedThresholdWithBE.cpuEvictBESatisfactionLowerPercent: expected a percent in (0, 60], got 0"
policy "cpu upper below lower" "resourceUsedThresholdWithBE: {cpuEvictBESatisfactionLowerPercent: 50, cpuEvictBESatisfactionUpperPercent: 40}" \
	"resourceUsedThresholdWithBE.cpuEvictBESatisfactionUpperPercent: expected a percent in (0, 100) and not below cpuEvictBESatisfactionLowerPercent, got 40"
policy "cpu upper 100" "resourceUsedThresholdWithBE: {cpuEvictBESatisfactionLowerPercent: 50, cpuEvictBESatisfactionUpperPercent: 100}" \
	"cpuEvictBESatisfactionUpperPercent: expected a percent in (0, 100) and not below cpuEvictBESatisfactionLowerPercent, got 100"
policy "usage threshold" "resourceUsedThresholdWithBE: {cpuEvictBEUsageThresholdPercent: -1}" \
	"resourceUsedThresholdWithBE.cpuEvictBEUsageThresholdPercent: expected an integer 0..100, got -1"

# a corrupt state file is bad input too, and is left as it was
printf '{"kind":"EvictorState","victims":[{"id":"container_1410901177871_0001_01_000002","atMs":"soon"}]}\n' >"$st"
cp "$st" "$tmpdir/state.orig"
cat "$mem" "$ev/containers.json" |
	check "bad state" "state.json: victims[0].atMs: expected an integer 0..9007199254740992, got \"soon\""
printf '{"kind":"NodeUsage","apiVersion":"kilo/v1"}\n' >"$st"
cp "$st" "$tmpdir/state.orig"
cat "$mem" "$ev/containers.json" | check "state of another tool" "state.json': no EvictorState document"

# usage errors: the message and the --help hint
evictor --bogus </dev/null 2>"$tmpdir/err" >"$tmpdir/out"
assert_eq "$?" 2 "unknown option: exit code"
assert_eq "$(cat "$tmpdir/err")" "evictor: unrecognized option '--bogus'
Try 'evictor --help' for more information." "unknown option: stderr"
evictor --policy </dev/null 2>"$tmpdir/err" >"$tmpdir/out"
assert_eq "$?" 2 "missing argument: exit code"
grep -q "^evictor: option '--policy' requires an argument$" "$tmpdir/err" || fail "missing argument: $(cat "$tmpdir/err")"
# getopt's own words, as every node tool says them (nodecli_parse)
evictor -x </dev/null 2>"$tmpdir/err" >"$tmpdir/out"
assert_eq "$?" 2 "unknown short option: exit code"
assert_eq "$(cat "$tmpdir/err")" "evictor: invalid option -- 'x'
Try 'evictor --help' for more information." "unknown short option: stderr"
evictor --pretty=1 </dev/null 2>"$tmpdir/err" >"$tmpdir/out"
assert_eq "$?" 2 "flag with a value: exit code"
grep -q "^evictor: option '--pretty' doesn't allow an argument$" "$tmpdir/err" || fail "flag with a value: $(cat "$tmpdir/err")"
evictor --pol </dev/null 2>"$tmpdir/err" >"$tmpdir/out"
grep -q "^evictor: option '--policy' requires an argument$" "$tmpdir/err" || fail "abbreviation: $(cat "$tmpdir/err")"
exit 0
