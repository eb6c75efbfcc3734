# SPDX-License-Identifier: Apache-2.0
# One node-name rule for every node tool (nodecli_node_name): --node, else
# NODE_NAME when not empty, else the sysroot's host name, trimmed and
# lower-cased as the kubelet names its Node.  Before, yarn-copilot list and
# kill left metadata.node out without NODE_NAME, and its metrics took
# uname -n as it was (a third rule).
. "$KILO_TOP/test/lib.sh"

sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$tmpdir/t" v1
printf ' Worker-9.Example\n' >"$tmpdir/t/proc/sys/kernel/hostname"
node_of() { jq -r '.metadata.node // "(none)"' "$1"; }

unset NODE_NAME
yarn-copilot --sysroot "$tmpdir/t" --no-nm list >"$tmpdir/l" || fail "list exit $?"
assert_eq "$(node_of "$tmpdir/l")" worker-9.example "list: the host name, lower-cased"
NODE_NAME='' node-usage --sysroot "$tmpdir/t" --interval 1 >"$tmpdir/u" || fail "node-usage exit $?"
assert_eq "$(node_of "$tmpdir/u")" worker-9.example "node-usage: the same rule (an empty NODE_NAME is unset)"
yarn-copilot --sysroot "$tmpdir/t" --no-nm metrics >"$tmpdir/m" || fail "metrics exit $?"
grep -q '^yarn_copilot_containers{node="worker-9.example"} ' "$tmpdir/m" ||
	fail "metrics: the same node label: $(grep '^yarn_copilot_containers' "$tmpdir/m")"

NODE_NAME=from-env yarn-copilot --sysroot "$tmpdir/t" --no-nm list >"$tmpdir/l" || fail "exit $?"
assert_eq "$(node_of "$tmpdir/l")" from-env "NODE_NAME before the host name"
NODE_NAME=from-env yarn-copilot --sysroot "$tmpdir/t" --no-nm --node n7 list >"$tmpdir/l" || fail "exit $?"
assert_eq "$(node_of "$tmpdir/l")" n7 "--node before NODE_NAME"

# no name anywhere: left out, not ""
rm "$tmpdir/t/proc/sys/kernel/hostname"
yarn-copilot --sysroot "$tmpdir/t" --no-nm list >"$tmpdir/l" || fail "exit $?"
assert_eq "$(node_of "$tmpdir/l")" "(none)" "no name: metadata.node absent"

# bad input: one line naming the flag, exit 2, nothing written
for tool in "yarn-copilot --no-nm list" node-usage; do
	rc=0
	# shellcheck disable=SC2086 # the tool and its flags
	$tool --sysroot "$tmpdir/t" --node '' >"$tmpdir/o" 2>"$tmpdir/e" || rc=$?
	assert_eq "$rc" 2 "$tool --node '': exit"
	assert_eq "$(wc -c <"$tmpdir/o")" 0 "$tool --node '': stdout"
	grep -q "invalid value for --node: ''" "$tmpdir/e" || fail "$tool: $(cat "$tmpdir/e")"
done
