#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kilo-node-metrics: counters from the node loop's documents, kept between
# passes, written as kilo-node.prom; and node-qos-loop calling it with the
# steps of each pass (stub tools printing real tool output).
. "$KILO_TOP/test/lib.sh"
metrics=$KILO_TOP/scripts/kilo-node-metrics
command -v jq >/dev/null 2>&1 || skip "no jq"

st=$tmpdir/state tf=$tmpdir/textfile
mkdir -p "$st/last" "$tf"
# real documents: an evictor plan with two memory victims, a resctrl report
cat "$FIX/evictor/node-usage-memory.json" "$FIX/evictor/containers.json" | evictor \
	>"$st/last/evict.json" || fail "evictor"
resctrl-assign --sysroot "$FIX/sysroot/resctrl-intel" --dry-run >"$st/last/resctrl.json" ||
	fail "resctrl-assign"
moved=$(jq .tasks.moved "$st/last/resctrl.json")
cat >"$st/last/kill.json" <<'EOF'
{"apiVersion":"kilo/v1","kind":"KillReport","metadata":{"node":"worker-1","timestamp":"2026-11-29T16:00:01Z"},
 "items":[{"id":"container_e17_1764420000000_0001_01_000002","result":"terminated","processes":3,"signalled":["SIGTERM"],"elapsedMs":41,"error":null},
          {"id":"container_e17_1764420000000_0001_01_000003","result":"killed","processes":1,"signalled":["SIGTERM","SIGKILL"],"elapsedMs":260,"error":null}]}
EOF
qos-cgset --sysroot "$FIX/sysroot/v1-separate" --dry-run <"$FIX/qos/input.json" |
	jq '.summary.written = 4 | .summary.failed = 1' >"$st/last/static.json" || fail "qos-cgset"
echo 'not json' >"$st/last/suppress.json"

export NODE_NAME=worker-1
sh "$metrics" "$st" "$tf" usage=0 list=0 evict=0 kill=0 suppress=1 static=3 resctrl=0 ||
	fail "kilo-node-metrics"
sh "$metrics" "$st" "$tf" usage=0 list=0 evict=0 kill=0 ||
	fail "kilo-node-metrics, second pass"
grep -v '^kilo_node_last_pass_timestamp_seconds{' "$tf/kilo-node.prom" >"$tmpdir/got"
cat >"$tmpdir/want" <<EOF
# HELP kilo_node_passes_total Passes of the node loop
# TYPE kilo_node_passes_total counter
kilo_node_passes_total{node="worker-1"} 2
# HELP kilo_node_step_failures_total Steps of the node loop that exited non-zero
# TYPE kilo_node_step_failures_total counter
kilo_node_step_failures_total{node="worker-1",step="static"} 1
kilo_node_step_failures_total{node="worker-1",step="suppress"} 1
# HELP kilo_node_evictions_total YARN containers evictor chose as victims, by reason
# TYPE kilo_node_evictions_total counter
kilo_node_evictions_total{node="worker-1",reason="cpu"} 0
kilo_node_evictions_total{node="worker-1",reason="memory"} 4
# HELP kilo_node_kills_total YARN containers yarn-copilot kill handled, by result
# TYPE kilo_node_kills_total counter
kilo_node_kills_total{node="worker-1",result="failed"} 0
kilo_node_kills_total{node="worker-1",result="gone"} 0
kilo_node_kills_total{node="worker-1",result="killed"} 2
kilo_node_kills_total{node="worker-1",result="terminated"} 2
# HELP kilo_node_cgroup_writes_total qos-cgset items by part and result
# TYPE kilo_node_cgroup_writes_total counter
kilo_node_cgroup_writes_total{node="worker-1",part="static",result="deferred"} 0
kilo_node_cgroup_writes_total{node="worker-1",part="static",result="failed"} 1
kilo_node_cgroup_writes_total{node="worker-1",part="static",result="skipped"} 0
kilo_node_cgroup_writes_total{node="worker-1",part="static",result="written"} 4
# HELP kilo_node_resctrl_tasks_total Task ids resctrl-assign moved into the BE group, or failed to
# TYPE kilo_node_resctrl_tasks_total counter
kilo_node_resctrl_tasks_total{node="worker-1",result="failed"} 0
kilo_node_resctrl_tasks_total{node="worker-1",result="moved"} $moved
# HELP kilo_node_last_pass_timestamp_seconds End of the last pass of the node loop
# TYPE kilo_node_last_pass_timestamp_seconds gauge
EOF
diff -u "$tmpdir/want" "$tmpdir/got" || fail "kilo-node.prom"
grep -Eq '^kilo_node_last_pass_timestamp_seconds\{node="worker-1"\} [0-9]{10}$' "$tf/kilo-node.prom" ||
	fail "timestamp line"
[ -z "$(find "$tf" "$st" -name '.*.[0-9]*' -o -name '.node-metrics.*')" ] || fail "temporary files left"
if command -v promtool >/dev/null 2>&1; then
	promtool check metrics <"$tf/kilo-node.prom" || fail "promtool check metrics"
fi
# a node name with a quote, a backslash and a newline: escaped (\", \\, \n),
# one line a series; without NODE_NAME, uname -n
mkdir -p "$tmpdir/st3/last" "$tmpdir/tf3"
NODE_NAME='we"ird\na
me' sh "$metrics" "$tmpdir/st3" "$tmpdir/tf3" usage=1 || fail "kilo-node-metrics, an odd node name"
grep -qx 'kilo_node_passes_total{node="we\\"ird\\\\na\\nme"} 1' "$tmpdir/tf3/kilo-node.prom" ||
	fail "odd node name: $(cat "$tmpdir/tf3/kilo-node.prom")"
grep -qx 'kilo_node_step_failures_total{node="we\\"ird\\\\na\\nme",step="usage"} 1' "$tmpdir/tf3/kilo-node.prom" ||
	fail "odd node name, step: $(cat "$tmpdir/tf3/kilo-node.prom")"
assert_eq "$(grep -vc '^#' "$tmpdir/tf3/kilo-node.prom")" 9 "series with an odd node name"
if command -v promtool >/dev/null 2>&1; then
	promtool check metrics <"$tmpdir/tf3/kilo-node.prom" || fail "promtool check metrics, an odd node name"
fi
NODE_NAME='' sh "$metrics" "$tmpdir/st3" "$tmpdir/tf3" usage=0 || fail "kilo-node-metrics without NODE_NAME"
grep -qx "kilo_node_passes_total{node=\"$(uname -n)\"} 2" "$tmpdir/tf3/kilo-node.prom" ||
	fail "without NODE_NAME: $(grep passes "$tmpdir/tf3/kilo-node.prom")"
sh "$metrics" "$st" 2>"$tmpdir/err" && fail "one argument accepted"
grep -q 'expected STATE_DIR TEXTFILE_DIR' "$tmpdir/err" || fail "usage message"

# node-qos-loop calls it with the steps of the pass: stub tools that print
# the documents above
bin=$tmpdir/bin
mkdir -p "$bin"
for t in node-usage yarn-copilot evictor qos-cgset resctrl-assign; do
	cat >"$bin/$t" <<EOF
#!/bin/sh
for a in "\$@"; do last=\$a; done
case $t:\$last in
node-usage:*) cat "$FIX/evictor/node-usage-memory.json" ;;
yarn-copilot:list) cat "$FIX/evictor/containers.json" ;;
yarn-copilot:kill) cat "$st/last/kill.json.keep" ;;
yarn-copilot:metrics) : ;;
evictor:*) cat >/dev/null; cat "$st/last/evict.json.keep" ;;
qos-cgset:*) cat >/dev/null; cat "$st/last/static.json.keep" ;;
resctrl-assign:*) cat "$st/last/resctrl.json.keep" ;;
esac
EOF
	chmod +x "$bin/$t"
done
for d in kill evict static resctrl; do cp "$st/last/$d.json" "$st/last/$d.json.keep"; done
PASSES=1 STATE_DIR="$st" TEXTFILE_DIR="$tf" KILO_BIN="$bin" LOCK_FILE="$tmpdir/lock" \
	HEARTBEAT="$tmpdir/hb" sh "$KILO_TOP/scripts/node-qos-loop" 2>"$tmpdir/log" ||
	fail "node-qos-loop: $(cat "$tmpdir/log")"
grep -q 'kilo-node-metrics failed' "$tmpdir/log" && fail "$(cat "$tmpdir/log")"
# one more pass: two more memory victims and kills, 4 + 4 static and suppress writes
grep -qx 'kilo_node_passes_total{node="worker-1"} 3' "$tf/kilo-node.prom" || fail "passes: $(cat "$tf/kilo-node.prom")"
grep -qx 'kilo_node_evictions_total{node="worker-1",reason="memory"} 6' "$tf/kilo-node.prom" || fail "evictions"
grep -qx 'kilo_node_kills_total{node="worker-1",result="killed"} 3' "$tf/kilo-node.prom" || fail "kills"
grep -qx 'kilo_node_cgroup_writes_total{node="worker-1",part="suppress",result="written"} 4' "$tf/kilo-node.prom" ||
	fail "suppress writes"
grep -qx 'kilo_node_cgroup_writes_total{node="worker-1",part="static",result="written"} 8' "$tf/kilo-node.prom" ||
	fail "static writes"
# a failed step's log line says why: the last stderr line that is no
# warning (the first line, a warning, was logged instead)
cp "$bin/evictor" "$bin/evictor.ok"
printf '#!/bin/sh\ncat >/dev/null\necho "evictor: warning: state: a warning first" >&2\necho "evictor: p.yaml:1:2: the error itself" >&2\nexit 2\n' >"$bin/evictor"
PASSES=1 STATE_DIR="$st" TEXTFILE_DIR="$tf" KILO_BIN="$bin" LOCK_FILE="$tmpdir/lock" \
	HEARTBEAT="$tmpdir/hb" sh "$KILO_TOP/scripts/node-qos-loop" 2>"$tmpdir/log"
grep -q 'step evict failed with exit 2: evictor: p.yaml:1:2: the error itself$' "$tmpdir/log" ||
	fail "the failed step's line: $(cat "$tmpdir/log")"
mv "$bin/evictor.ok" "$bin/evictor"
# a FIFO where the textfile goes is never replaced (nor read: mv, not cat)
mkdir "$tmpdir/tf2"
mkfifo "$tmpdir/tf2/kilo-node.prom"
mkdir -p "$tmpdir/st2/last"
sh "$metrics" "$tmpdir/st2" "$tmpdir/tf2" usage=0 2>"$tmpdir/fifo.err" && fail "a FIFO textfile replaced"
[ -p "$tmpdir/tf2/kilo-node.prom" ] || fail "the FIFO is gone"
grep -q "kilo-node.prom' is not a regular file: not replaced" "$tmpdir/fifo.err" ||
	fail "no message: $(cat "$tmpdir/fifo.err")"
[ "$(find "$tmpdir/tf2" -name '.kilo-node*' | wc -l)" = 0 ] || fail "a temporary file left"

# another user pre-creates the temporary names of the next pids in a sticky
# world-writable textfile dir (they used to be .kilo-node.prom.PID, opened
# without O_EXCL: root wrote into the user's file and moved it into place,
# the user's to change ever after)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	shared=$tmpdir/shared
	mkdir -m 1777 "$shared"
	chmod 755 "$tmpdir"
	next=$(sh -c 'echo $$')
	setpriv --reuid=65534 --regid=65534 --clear-groups sh -c '
		for p in $(seq "$1" $(($1 + 200))); do : >"$2/.kilo-node.prom.$p"; done' sh "$next" \
		"$shared" || fail "pre-create as nobody"
	sh "$metrics" "$tmpdir/st2" "$shared" usage=0 || fail "kilo-node-metrics in a shared dir"
	assert_eq "$(stat -c '%u %a' "$shared/kilo-node.prom")" "0 644" "the textfile's owner and mode"
	assert_eq "$(find "$shared" -name '.kilo-node.prom.*' -size +0 | wc -l)" 0 \
		"another user's files written into"
	# a textfile dir another user owns: they could swap the temporary
	# file for a symlink between mktemp and the chmod or the redirection
	# (a root-only file became 0644 metrics): refused, nothing written
	mkdir "$tmpdir/theirs"
	chown nobody "$tmpdir/theirs"
	printf 'root-secret\n' >"$tmpdir/victim"
	chmod 600 "$tmpdir/victim"
	sh "$metrics" "$tmpdir/st2" "$tmpdir/theirs" usage=0 2>"$tmpdir/err" &&
		fail "a textfile dir of another user's: exit 0"
	grep -q "TEXTFILE_DIR '$tmpdir/theirs': '$tmpdir/theirs' is owned by uid 65534" "$tmpdir/err" ||
		fail "no message: $(cat "$tmpdir/err")"
	assert_eq "$(ls -A "$tmpdir/theirs" | wc -l)" 0 "files written into another user's textfile dir"
	assert_eq "$(stat -c %a "$tmpdir/victim") $(cat "$tmpdir/victim")" "600 root-secret" "the victim"
fi
exit 0
