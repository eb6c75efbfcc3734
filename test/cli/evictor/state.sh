#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# evictor --state: victims of its own plans are credited while still listed,
# so a slow exit never causes a second round; the cool-down holds new kills;
# CPU samples are kept for the window.  The file is replaced atomically.
. "$KILO_TOP/test/lib.sh"
ev=$FIX/evictor
st=$tmpdir/state.json
items() { # plan -> "id-suffix reason ..." of its items, or "-"
	python3 -c 'import json,sys
d=json.load(sys.stdin)
print(" ".join(i["id"][-9:] for i in d["items"]) or "-", d["trigger"] and d["trigger"]["creditBytes"], d["pressureRemains"])'
}
run() { # KILO_NOW -> plan on stdout
	cat "$ev/node-usage-memory.json" "$ev/containers.json" |
		KILO_NOW=$1 evictor --state "$st" || fail "evictor at $1 exited $?"
}

# first run: no state file yet; two victims
assert_eq "$(run 2026-11-29T16:00:00Z | items)" "01_000002 01_000003 1073741824 False" "first plan"
python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
assert d["kind"] == "EvictorState", d
assert [v["id"][-9:] for v in d["victims"]] == ["01_000002", "01_000003"], d
assert all(v["atMs"] == 1795968000000 for v in d["victims"]), d
assert d["lastEviction"]["memoryMs"] == 1795968000000, d' "$st" || fail "state after the first plan"
# nothing but the state and its lock (evictor runs on one state serialise)
[ "$(ls -A "$tmpdir" | tr '\n' ' ')" = "state.json state.json.lock " ] ||
	fail "temporary files left: $(ls -A "$tmpdir")"

# 1 s later, still listed: credited (1 GiB terminating + 5 GiB own victims), no new kill
assert_eq "$(run 2026-11-29T16:00:01Z | items)" "- 6442450944 False" "within cool-down"
# 5 s later (cool-down over): still credited, still no second round
assert_eq "$(run 2026-11-29T16:00:05Z | items)" "- 6442450944 False" "slow exit"
# 11 s later the terminating timeout is over: they are victims again
assert_eq "$(run 2026-11-29T16:00:11Z | items)" "01_000002 01_000003 1073741824 False" "timeout over"

# CPU samples are kept for the window
cat > "$tmpdir/cpu.yaml" <<'Y'
resourceUsedThresholdWithBE:
  cpuEvictBESatisfactionLowerPercent: 60
  cpuEvictBESatisfactionUpperPercent: 80
  cpuEvictTimeWindowSeconds: 9
Y
rm -f "$st"
for t in 00 01; do
	out=$(cat "$ev/node-usage-cpu.json" "$ev/containers.json" |
		KILO_NOW=2026-11-29T16:00:${t}Z evictor --policy "$tmpdir/cpu.yaml" --state "$st")
	echo "$out" | grep -q '"trigger":null' || fail "cpu plan at :$t: $out"
	echo "$out" | grep -q 'cpu: samples cover' || fail "no window note at :$t: $out"
done
out=$(cat "$ev/node-usage-cpu.json" "$ev/containers.json" |
	KILO_NOW=2026-11-29T16:00:02Z evictor --policy "$tmpdir/cpu.yaml" --state "$st")
echo "$out" | grep -q '"resource":"cpu".*"samples":3' || fail "cpu plan with 3 samples: $out"
exit 0
