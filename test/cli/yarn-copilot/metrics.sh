# SPDX-License-Identifier: Apache-2.0
# yarn-copilot metrics: Prometheus text with per-container and node values,
# valid for promtool where installed, and the atomic textfile.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/fake-nm.sh"

A=container_1326121700862_0006_01_000001
sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$tmpdir/t" v1
start_fake_nm ok
# every series names the node (--node, else NODE_NAME, else the host name)
export NODE_NAME=worker-7
yarn-copilot --sysroot "$tmpdir/t" --nm-url "$NM_URL" metrics >"$tmpdir/m" || fail "exit $?"
val() { grep "^$1 " "$tmpdir/m" | cut -d' ' -f2; }
nl='{node="worker-7"}'
lab="{node=\"worker-7\",container=\"$A\",application=\"application_1326121700862_0006\"}"
assert_eq "$(val "yarn_copilot_container_cpu_seconds_total$lab")" 123.456789 cpu
assert_eq "$(val "yarn_copilot_container_memory_bytes$lab")" 536870912 memory
assert_eq "$(val "yarn_copilot_container_requested_cpu_cores$lab")" 1 "requested cpu"
assert_eq "$(val "yarn_copilot_container_requested_memory_bytes$lab")" 2147483648 "requested memory"
assert_eq "$(val "yarn_copilot_container_processes$lab")" 2 processes
assert_eq "$(val "yarn_copilot_containers$nl")" 3 containers
assert_eq "$(val "yarn_copilot_containers_processes$nl")" 3 "processes total"
assert_eq "$(val "yarn_copilot_containers_requested_cpu_cores$nl")" 3 "requested cpu total"
assert_eq "$(val "yarn_copilot_containers_memory_bytes$nl")" 537919488 "memory total"
assert_eq "$(val "yarn_copilot_node_manager_up$nl")" 1 "NM up"
assert_eq "$(grep -vc '^#' "$tmpdir/m")" "$(grep -c '^[a-z_]*{node="worker-7"' "$tmpdir/m")" \
	"a node label on every series"
if command -v promtool >/dev/null; then
	promtool check metrics <"$tmpdir/m" || fail "promtool: $(promtool check metrics <"$tmpdir/m" 2>&1)"
fi

# NM down: no requested values, NM up 0, still valid
yarn-copilot --sysroot "$tmpdir/t" --nm-url http://127.0.0.1:1 metrics >"$tmpdir/m" 2>/dev/null ||
	fail "NM down: exit $?"
assert_eq "$(val "yarn_copilot_node_manager_up$nl")" 0 "NM down"
grep -q "^yarn_copilot_container_requested_cpu_cores{" "$tmpdir/m" && fail "requests without NM"
if command -v promtool >/dev/null; then
	promtool check metrics <"$tmpdir/m" || fail "promtool (NM down)"
fi

# no container at all: sums are 0, not absent
mkdir -p "$tmpdir/e/sys/fs/cgroup/cpu/kubepods/besteffort/hadoop-yarn"
yarn-copilot --sysroot "$tmpdir/e" --no-nm metrics >"$tmpdir/m" || fail "empty: exit $?"
assert_eq "$(val "yarn_copilot_containers$nl") $(val "yarn_copilot_containers_memory_bytes$nl")" "0 0" \
	"empty node"
grep -q '^yarn_copilot_container_' "$tmpdir/m" && fail "per-container samples on an empty node"
if command -v promtool >/dev/null; then
	promtool check metrics <"$tmpdir/m" || fail "promtool (empty)"
fi

# textfile: only yarn-copilot.prom appears, nothing on stdout
mkdir "$tmpdir/tf"
yarn-copilot --sysroot "$tmpdir/t" --no-nm metrics --textfile-dir "$tmpdir/tf" >"$tmpdir/out" ||
	fail "textfile: exit $?"
[ ! -s "$tmpdir/out" ] || fail "textfile: stdout not empty"
assert_eq "$(ls -A "$tmpdir/tf")" yarn-copilot.prom "textfile dir content"
assert_eq "$(stat -c %a "$tmpdir/tf/yarn-copilot.prom")" 644 "textfile mode"
grep -q '^yarn_copilot_containers{node="worker-7"} 3$' "$tmpdir/tf/yarn-copilot.prom" || fail "textfile content"
yarn-copilot --sysroot "$tmpdir/t" --no-nm metrics --textfile-dir "$tmpdir/none" 2>"$tmpdir/err"
assert_eq "$?" 1 "missing textfile dir"
grep -q "open directory '$tmpdir/none': No such file or directory" "$tmpdir/err" || fail "$(cat "$tmpdir/err")"
exit 0

# without NODE_NAME or --node: the host name, as kilo-node-metrics takes it
env -u NODE_NAME yarn-copilot --sysroot "$tmpdir/t" --no-nm metrics >"$tmpdir/m" || fail "no node: exit $?"
assert_eq "$(val "yarn_copilot_containers{node=\"$(uname -n)\"}")" 3 "the host name as the node"
