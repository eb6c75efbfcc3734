# SPDX-License-Identifier: Apache-2.0
# yarn-copilot health: 0 only when the hadoop-yarn dir exists and the NM answers.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/fake-nm.sh"

sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$tmpdir/t" v2
mkdir -p "$tmpdir/empty/sys/fs/cgroup/cpu"
start_fake_nm ok
yarn-copilot --sysroot "$tmpdir/t" --nm-url "$NM_URL" health >"$tmpdir/out" || fail "healthy: exit $?"
assert_eq "$(cat "$tmpdir/out")" "ok     hadoop-yarn cgroup /kubepods.slice/kubepods-besteffort.slice/hadoop-yarn (cgroup v2, systemd driver)
ok     NodeManager $NM_URL (node id host.domain.com:46077)" "healthy output"
yarn-copilot --sysroot "$tmpdir/empty" --nm-url "$NM_URL" health >"$tmpdir/out"
assert_eq "$?" 1 "no hadoop-yarn dir"
grep -q "^FAILED hadoop-yarn cgroup /kubepods/besteffort/hadoop-yarn" "$tmpdir/out" || fail "$(cat "$tmpdir/out")"
# list on such a node: a warning, no items, exit 0
yarn-copilot --sysroot "$tmpdir/empty" --no-nm list >"$tmpdir/out" 2>"$tmpdir/err" || fail "list: exit $?"
assert_eq "$(cat "$tmpdir/err")" \
	"yarn-copilot: warning: hadoop-yarn cgroup '/kubepods/besteffort/hadoop-yarn' not found in any controller" \
	"list warning"
assert_eq "$(jq -c .items "$tmpdir/out")" "[]" "list items"
start_fake_nm 500
yarn-copilot --sysroot "$tmpdir/t" --nm-url "$NM_URL" health >"$tmpdir/out"
assert_eq "$?" 1 "NM 500"
grep -q "^FAILED NodeManager $NM_URL: NodeManager: HTTP 500" "$tmpdir/out" || fail "$(cat "$tmpdir/out")"
exit 0
