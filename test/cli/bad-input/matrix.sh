#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# matrix.sh - every tool over malformed input, one table.  Each row must exit
# 2 with nothing on stdout and exactly one line on stderr holding the
# expected text (the field or position, and the value), and leave the sysroot
# tree (a copy of a fixture) byte-for-byte as it was.  Option values are
# usage errors: the same, plus the "Try '<tool> --help'" line.
# The last rows: unknown policy fields only warn (exit 0), NodeSLO fields
# kilo does not use are ignored silently.
. "$KILO_TOP/test/lib.sh"

root=$tmpdir/root
cp -R "$FIX/sysroot/resctrl-intel" "$root"
cp -R "$FIX/sysroot/v2-systemd/." "$root/"
sum() { (cd "$root" && find . -printf '%p %y %m %s\n' | sort && find . -type f -exec sha256sum {} + | sort); }
sum >"$tmpdir/sum.before"

C=container_e17_1410901177871_0001_01_000002
mem=$FIX/evictor/node-usage-memory.json
cl=$FIX/evictor/containers.json
plan() { printf '{"apiVersion":"kilo/v1","kind":"KillPlan","gracePeriodMs":%s,"items":[%s]}\n' "$1" "$2"; }
item() { printf '{"id":"%s"}' "$1"; }
# NodeUsage then a ContainerList edited by sed expression $1
evin() { cat "$mem"; sed "$1" "$cl"; }
n=0
# row NAME EXPECTED CMD... (stdin: the file $in)
row() {
	name=$1 want=$2
	shift 2
	n=$((n + 1))
	"$@" <"$in" >"$tmpdir/out" 2>"$tmpdir/err"
	rc=$?
	lines=$(wc -l <"$tmpdir/err")
	[ "$rc" = 2 ] || fail "$name: exit $rc, expected 2 (stderr: $(cat "$tmpdir/err"))"
	[ ! -s "$tmpdir/out" ] || fail "$name: wrote to stdout: $(head -c 200 "$tmpdir/out")"
	case $(tail -n 1 "$tmpdir/err") in
	"Try '"*"--help' for more information.") want_lines=2 ;;
	*) want_lines=1 ;;
	esac
	[ "$lines" = "$want_lines" ] || fail "$name: $lines lines on stderr: $(cat "$tmpdir/err")"
	head -n 1 "$tmpdir/err" | grep -qF -- "$want" ||
		fail "$name: stderr '$(head -c 300 "$tmpdir/err")' lacks '$want'"
	sum >"$tmpdir/sum.after"
	cmp -s "$tmpdir/sum.before" "$tmpdir/sum.after" || fail "$name: the sysroot tree changed"
}
stdin() { cat >"$in"; }
in=$tmpdir/in
# shellcheck disable=SC2317 # called through row
Y() { yarn-copilot --sysroot "$root" --no-nm "$@"; }

# yarn-copilot kill: a KillPlan on stdin
plan 250 "$(item $C)" | head -c 60 | stdin
row "kill: truncated JSON" "yarn-copilot: stdin:1:" Y kill
plan 250 '{"id":5}' | stdin
row "kill: wrong type" 'KillPlan.items[0].id: expected a string, got 5' Y kill
plan '"250"' '' | stdin
row "kill: grace as a string" 'KillPlan.gracePeriodMs: expected an integer 0..3600000, got "250"' Y kill
plan -1 '' | stdin
row "kill: negative grace" 'KillPlan.gracePeriodMs: expected an integer 0..3600000, got -1' Y kill
plan 99999999999999999999 '' | stdin
row "kill: overflowing integer" "too big integer near '99999999999999999999'" Y kill
plan 1e400 '' | stdin
row "kill: overflowing real" "real number overflow near '1e400'" Y kill
plan NaN '' | stdin
row "kill: NaN" "invalid token near 'NaN'" Y kill
plan Infinity '' | stdin
row "kill: Infinity" "invalid token near 'Infinity'" Y kill
printf '{"apiVersion":"kilo/v1","kind":"KillPlan","items":[],"items":[{"id":"%s"}]}\n' $C | stdin
row "kill: duplicate key" "duplicate object key near '\"items\"'" Y kill
printf '{"apiVersion":"kilo/v1","kind":"KillList","items":[]}\n' | stdin
row "kill: unknown kind" "missing required document of kind 'KillPlan' on stdin" Y kill
printf '{"apiVersion":"kilo/v2","kind":"KillPlan","items":[]}\n' | stdin
row "kill: unknown apiVersion" "apiVersion 'kilo/v2', expected 'kilo/v1'" Y kill
: | stdin
row "kill: empty stdin" "missing required document of kind 'KillPlan' on stdin" Y kill
plan 250 "$(item "$C/../../x")" | stdin
row "kill: id with / and .." "KillPlan.items[0].id: expected a YARN container id, got \"$C/../../x\"" Y kill
plan 250 "$(item ..)" | stdin
row "kill: id .." 'KillPlan.items[0].id: expected a YARN container id, got ".."' Y kill
plan 250 "$(printf '{"id":"container_\377\376"}')" | stdin
row "kill: invalid UTF-8" "unable to decode byte 0xff" Y kill
plan 250 "$(item $C),$(item $C)" | stdin
row "kill: id twice" "KillPlan.items[1].id: '$C' is listed twice" Y kill
python3 -c "
import json
items=[{'id':'container_1410901177871_0001_01_%06d' % i} for i in range(40000)]
items.append({'id':'container_1410901177871_0001_01_1'})
print(json.dumps({'apiVersion':'kilo/v1','kind':'KillPlan','items':items}))" | stdin
row "kill: huge plan, last id bad" 'KillPlan.items[40000].id: expected a YARN container id, got "container_1410901177871_0001_01_1"' Y kill
printf '[{"apiVersion":"kilo/v1","kind":"KillPlan"}]\n' | stdin
row "kill: not an object" "stdin:1:1: expected a JSON object" Y kill

# yarn-copilot and node-usage options
: | stdin
row "kill: id argument with /" "invalid container id '$C/x'" Y kill "$C/x"
row "kill: --grace-period negative" "invalid value for --grace-period: '-5'" Y --grace-period -5 kill
row "kill: --kill-timeout overflow" "invalid value for --kill-timeout: '99999999999999999999'" \
	Y --kill-timeout 99999999999999999999 kill
row "list: --nm-timeout Infinity" "invalid value for --nm-timeout: 'Infinity'" Y --nm-timeout Infinity list
row "list: --hierarchy .." "invalid value for --hierarchy: 'a/../b'" Y --hierarchy a/../b list
row "node-usage: --interval NaN" "invalid value for --interval: 'NaN'" node-usage --sysroot "$root" --interval NaN
row "node-usage: --interval -1" "invalid value for --interval: '-1'" node-usage --sysroot "$root" --interval -1
row "node-usage: --hierarchy ../x" "invalid value for --hierarchy: '../x'" node-usage --sysroot "$root" --hierarchy ../x
row "node-usage: --cgroup-driver" "invalid value for --cgroup-driver: 'bogus'" \
	node-usage --sysroot "$root" --cgroup-driver bogus

# evictor: NodeUsage + ContainerList (+ PodList) on stdin
evin 's/"memoryBytes": [0-9]*/"memoryBytes": 99999999999999999999/' | stdin
row "evictor: overflowing integer" "too big integer" evictor
evin '0,/"memoryBytes": [0-9]*/s//"memoryBytes": 1.5e300/' | stdin
row "evictor: real for an integer" "ContainerList.items[0].requests.memoryBytes: expected an integer 0..9007199254740992, got 1.5" evictor
evin '0,/"memoryBytes": [0-9]*/s//"memoryBytes": NaN/' | stdin
row "evictor: NaN" "invalid token near 'NaN'" evictor
evin "0,/\"id\": \"container_[0-9_e]*\"/s//\"id\": \"..\/..\/x\"/" | stdin
row "evictor: id with / and .." 'ContainerList.items[0].id: expected a YARN container id, got "../../x"' evictor
evin 's/"kind": "ContainerList"/"kind": "ContainerList", "kind": "ContainerList"/' | stdin
row "evictor: duplicate key" "duplicate object key near '\"kind\"'" evictor
evin 's/"kind": "ContainerList"/"kind": "ContainerLists"/' | stdin
row "evictor: unknown kind" "missing required document of kind 'ContainerList' on stdin" evictor
stdin <"$cl"
row "evictor: missing NodeUsage" "missing required document of kind 'NodeUsage' on stdin" evictor
: | stdin
row "evictor: empty stdin" "missing required document of kind" evictor
{ cat "$mem"; head -c 300 "$cl"; } | stdin
row "evictor: truncated JSON" "evictor: stdin:" evictor
{ cat "$mem"; sed '0,/"id": "container_/s//"id": "container_\xff/' "$cl"; } | stdin
row "evictor: invalid UTF-8" "unable to decode byte 0xff" evictor

# policies: percents out of range (evictor and resctrl-assign)
evin '' | stdin
pol() { printf '%s\n' "$1" >"$tmpdir/p.yaml"; }
pol "resourceUsedThresholdWithBE: {memoryEvictThresholdPercent: 101}"
row "evictor: percent 101" "resourceUsedThresholdWithBE.memoryEvictThresholdPercent: expected an integer 0..100, got 101" \
	evictor --policy "$tmpdir/p.yaml"
pol "resourceUsedThresholdWithBE: {cpuSuppressThresholdPercent: -3}"
row "evictor: percent -3" "resourceUsedThresholdWithBE.cpuSuppressThresholdPercent: expected an integer 0..100, got -3" \
	evictor --policy "$tmpdir/p.yaml"
pol "resourceUsedThresholdWithBE: {memoryEvictThresholdPercent: .nan}"
row "evictor: percent NaN" "p.yaml:1:60: resourceUsedThresholdWithBE.memoryEvictThresholdPercent: .nan is not representable in JSON" \
	evictor --policy "$tmpdir/p.yaml"
pol "resourceUsedThresholdWithBE: {memoryEvictThresholdPercent: 50, memoryEvictThresholdPercent: 60}"
row "evictor: duplicate policy key" "duplicate key 'memoryEvictThresholdPercent'" evictor --policy "$tmpdir/p.yaml"
pol "resourceUsedThresholdWithBE: {memoryEvictThresholdPercent: 99999999999999999999999}"
row "evictor: overflowing percent" "p.yaml:1:60: resourceUsedThresholdWithBE.memoryEvictThresholdPercent: integer out of range: 99999999999999999999999" evictor --policy "$tmpdir/p.yaml"
pol "resourceUsedThresholdWithBE: {memoryEvictThresholdPercent: [80"
row "evictor: truncated YAML" "p.yaml:" evictor --policy "$tmpdir/p.yaml"
: | stdin
# shellcheck disable=SC2317 # called through row
R() { resctrl-assign --sysroot "$root" --dry-run "$@"; }
pol "resourceQOSStrategy: {beClass: {resctrlQOS: {catRangeEndPercent: 130}}}"
row "resctrl-assign: cat percent 130" "resourceQOSStrategy.beClass.resctrlQOS.catRangeEndPercent" R --policy "$tmpdir/p.yaml"
pol "resourceQOSStrategy: {beClass: {resctrlQOS: {mbaPercent: 101}}}"
row "resctrl-assign: mba percent 101" "resourceQOSStrategy.beClass.resctrlQOS.mbaPercent" R --policy "$tmpdir/p.yaml"
pol "resourceQOSStrategy: {lsClass: {resctrlQOS: {catRangeStartPercent: -10}}}"
row "resctrl-assign: cat start -10" "resourceQOSStrategy.lsClass.resctrlQOS.catRangeStartPercent" R --policy "$tmpdir/p.yaml"
# shellcheck disable=SC2317 # called through row
A() { resctrl-assign --sysroot "$root" "$@"; }
row "resctrl-assign (applying): cat start -10" "resourceQOSStrategy.lsClass.resctrlQOS.catRangeStartPercent: expected an integer 0..100, got -10" A --policy "$tmpdir/p.yaml"
row "resctrl-assign: --nm-pid -1" "invalid value for --nm-pid: '-1'" A --nm-pid -1

# kilo-sync: plan --from - (Node, Pod, List and RM documents), apply (a SyncPlan), -c config
printf '{"kind":"NodeList","items":[{"kind":"Node","metadata":{"name":"w1"}}' | stdin
row "kilo-sync plan: truncated JSON" "kilo-sync: stdin:1:" kilo-sync plan --from -
printf '{"kind":"Deployment","items":[]}\n' | stdin
row "kilo-sync plan: unknown kind" "stdin:1: unexpected document of kind 'Deployment'" kilo-sync plan --from -
printf '{"kind":"NodeList","items":[],"items":[]}\n' | stdin
row "kilo-sync plan: duplicate key" "duplicate object key near '\"items\"'" kilo-sync plan --from -
printf '{"kind":"Node","metadata":{"name":"w1","annotations":{"a":NaN}}}\n' | stdin
row "kilo-sync plan: NaN" "invalid token near 'NaN'" kilo-sync plan --from -
: | stdin
row "kilo-sync plan: empty stdin" "no documents on stdin" kilo-sync plan --from -
row "kilo-sync apply: empty stdin" "missing required document of kind 'SyncPlan' on stdin" kilo-sync apply --dry-run
printf '{"apiVersion":"kilo/v1","kind":"SyncPlan","items":[' | stdin
row "kilo-sync apply: truncated JSON" "kilo-sync: stdin:1:" kilo-sync apply --dry-run
# a SyncPlan with one bad item is refused whole: nothing is resized or annotated
printf 'clusters: [{id: default, rmUrls: ["http://127.0.0.1:9"]}]\n' >"$tmpdir/sync.yaml"
splan() { # item-2-json
	printf '{"apiVersion":"kilo/v1","kind":"SyncPlan","items":[{"node":"w0","cluster":"default","yarnNodeId":"w0:8041","action":"update","yarnTotal":{"vCores":4,"memoryMB":4096},"overCommitTimeoutMs":-1,"annotation":{"action":"none"}},%s]}\n' "$1"
}
splan '{"node":"w1","cluster":"default","yarnNodeId":"w1:8041","action":"update","yarnTotal":{"vCores":-14,"memoryMB":1024},"overCommitTimeoutMs":-1}' | stdin
row "kilo-sync apply: negative vCores" \
	"SyncPlan.items[1].yarnTotal.vCores: expected an integer 0..2147483647, got -14" kilo-sync apply --config "$tmpdir/sync.yaml"
splan '{"node":"w1","cluster":"default","yarnNodeId":"w1:8041","action":"update","yarnTotal":{"vCores":1,"memoryMB":1e30},"overCommitTimeoutMs":-1}' | stdin
row "kilo-sync apply: real memoryMB" \
	"SyncPlan.items[1].yarnTotal.memoryMB: expected an integer 0..9223372036854775807, got 1e30" kilo-sync apply --config "$tmpdir/sync.yaml"
splan '{"node":"w1","cluster":"default","action":"update","yarnTotal":{"vCores":1,"memoryMB":1}}' | stdin
row "kilo-sync apply: update without yarnNodeId" \
	"SyncPlan.items[1].yarnNodeId: expected a YARN node id, got nothing" kilo-sync apply --config "$tmpdir/sync.yaml"
splan '{"node":"w1","action":"skip","annotation":{"action":"annotate","hadoopYarn":{"kubernetes.io/batch-cpu":"-1k","kubernetes.io/batch-memory":"1Gi"}}}' | stdin
row "kilo-sync apply: negative batch-cpu" "SyncPlan.items[1].annotation.hadoopYarn.kubernetes.io/batch-cpu: expected a quantity >= 0, got \"-1k\"" kilo-sync apply --config "$tmpdir/sync.yaml"
splan '{"action":"skip","annotation":{"action":"annotate","hadoopYarn":{"kubernetes.io/batch-cpu":"1k","kubernetes.io/batch-memory":"1Gi"}}}' | stdin
row "kilo-sync apply: annotation without a node" "SyncPlan.items[1].node: expected a node name, got nothing" kilo-sync apply --config "$tmpdir/sync.yaml"
printf 'clusters: [{id: a, rmUrls: ["http://127.0.0.1:1"]}]\nreservation: {percent: 120}\n' >"$tmpdir/c.yaml"
: | stdin
row "kilo-sync: config percent 120" "reservation.percent: expected an integer 0..100, got 120" \
	kilo-sync plan --from - -c "$tmpdir/c.yaml"
printf 'nodeManagerNamespaces: []\n' >"$tmpdir/c.yaml"
row "kilo-sync: config nodeManagerNamespaces []" \
	"nodeManagerNamespaces: expected a non-empty list of namespaces" kilo-sync plan --from - -c "$tmpdir/c.yaml"
printf 'nodeManagerNamespaces: [hadoop-yarn, Bad_NS]\n' >"$tmpdir/c.yaml"
row "kilo-sync: config nodeManagerNamespaces Bad_NS" \
	"nodeManagerNamespaces: expected a namespace name, got \"Bad_NS\"" kilo-sync plan --from - -c "$tmpdir/c.yaml"
# an operator's stream: Nodes without one Pod would zero every node; a pod
# quantity that is not one is refused (a live API's costs its node only)
printf '{"kind":"Node","metadata":{"name":"w1"}}\n' | stdin
row "kilo-sync plan: Nodes but no Pod" "--allow-no-pods" kilo-sync plan --from -
printf '{"kind":"Pod","metadata":{"name":"p","namespace":"n"},"spec":{"nodeName":"w1","containers":[{"resources":{"requests":{"kubernetes.io/batch-cpu":[1]}}}]}}\n' | stdin
row "kilo-sync plan: pod quantity a list" "kubernetes.io/batch-cpu" kilo-sync plan --from -

# unknown policy fields warn (exit 0); NodeSLO fields kilo does not use are silent
evin '' | stdin
pol "resourceUsedThresholdWithBE: {memoryEvictThresholdPercent: 80, bogusKnob: 1}"
evictor --policy "$tmpdir/p.yaml" <"$in" >"$tmpdir/out" 2>"$tmpdir/err" || fail "unknown field: exit $?"
assert_eq "$(cat "$tmpdir/err")" "evictor: warning: unknown policy field 'resourceUsedThresholdWithBE.bogusKnob'" "unknown field warning"
pol "apiVersion: slo.koordinator.sh/v1alpha1
kind: NodeSLO
metadata: {name: worker-1, labels: {a: b}}
spec:
  cpuBurstStrategy: {policy: auto}
  systemStrategy: {minFreeKbytesFactor: 100}
  extensions: {}
  resourceQOSStrategy: {policies: {}, systemClass: {}}
status: {}"
evictor --policy "$tmpdir/p.yaml" <"$in" >"$tmpdir/out" 2>"$tmpdir/err" || fail "NodeSLO: exit $?"
[ ! -s "$tmpdir/err" ] || fail "NodeSLO fields kilo does not use were reported: $(cat "$tmpdir/err")"
# a newline in an option value stays on one warning line (cli_warn escapes it)
yarn-copilot --sysroot "$root" --nm-url "$(printf 'http://127.0.0.1:1/x\ny')" --nm-timeout 200 list \
	</dev/null >"$tmpdir/out" 2>"$tmpdir/err" || fail "nm-url with a newline: exit $?"
assert_eq "$(wc -l <"$tmpdir/err")" 1 "nm-url with a newline: warning lines"
grep -qF "NodeManager 'http://127.0.0.1:1/x\\ny'" "$tmpdir/err" || fail "nm-url warning: $(cat "$tmpdir/err")"
echo "bad-input: $n rows"
exit 0
