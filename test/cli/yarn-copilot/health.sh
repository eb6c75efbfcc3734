# SPDX-License-Identifier: Apache-2.0
# yarn-copilot health: 0 only when the hadoop-yarn dir exists and the NM answers.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/fake-nm.sh"

sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$tmpdir/t" v2
# a kubelet's node where no YARN container has run: kubepods, no hadoop-yarn
mkdir -p "$tmpdir/empty/sys/fs/cgroup/cpu/kubepods/besteffort" "$tmpdir/nokube/sys/fs/cgroup/cpu"
start_fake_nm ok
yarn-copilot --sysroot "$tmpdir/t" --nm-url "$NM_URL" health >"$tmpdir/out" || fail "healthy: exit $?"
assert_eq "$(cat "$tmpdir/out")" "ok     hadoop-yarn cgroup /kubepods.slice/kubepods-besteffort.slice/hadoop-yarn (cgroup v2, systemd driver)
ok     NodeManager $NM_URL (node id host.domain.com:46077)" "healthy output"
yarn-copilot --sysroot "$tmpdir/empty" --nm-url "$NM_URL" health >"$tmpdir/out"
assert_eq "$?" 1 "no hadoop-yarn dir"
grep -q "^FAILED hadoop-yarn cgroup /kubepods/besteffort/hadoop-yarn" "$tmpdir/out" || fail "$(cat "$tmpdir/out")"
# health on such a node without a NodeManager to ask: the dir is not there
# yet, which is no failure
yarn-copilot --sysroot "$tmpdir/empty" --no-nm health >"$tmpdir/out"
assert_eq "$?" 0 "no hadoop-yarn dir, no NM: exit"
assert_eq "$(head -n 1 "$tmpdir/out")" \
	"ok     hadoop-yarn cgroup /kubepods/besteffort/hadoop-yarn (cgroup v1, cgroupfs driver): not there yet, no YARN container has run here (found '/kubepods' (the cgroupfs driver))" \
	"health on a node where no container has run"
# no kubepods at all, while the flags name a dir under it: a wrong layout
yarn-copilot --sysroot "$tmpdir/nokube" --no-nm health >"$tmpdir/out"
assert_eq "$?" 1 "no kubepods: exit"
yarn-copilot --sysroot "$tmpdir/nokube" --no-nm list >"$tmpdir/out" 2>"$tmpdir/err"
assert_eq "$? $(cat "$tmpdir/err")" \
	"1 yarn-copilot: hadoop-yarn cgroup '/kubepods/besteffort/hadoop-yarn' not found, and the cpu hierarchy has no kubepods cgroup (found nothing of kubepods or hadoop-yarn): the layout is wrong; check --hierarchy and --cgroup-driver (a node without a kubelet names its own --hierarchy)" \
	"list with no kubepods"
# list on such a node (no YARN container has run here): a warning, no
# items, hadoopYarn.found false, exit 0
yarn-copilot --sysroot "$tmpdir/empty" --no-nm list >"$tmpdir/out" 2>"$tmpdir/err" || fail "list: exit $?"
assert_eq "$(cat "$tmpdir/err")" \
	"yarn-copilot: warning: hadoop-yarn cgroup '/kubepods/besteffort/hadoop-yarn' not found in any controller (found '/kubepods' (the cgroupfs driver)): no YARN container has run here yet, or --hierarchy and --cgroup-driver are wrong; the list has no cgroup items" \
	"list warning"
assert_eq "$(jq -c '[.items, .hadoopYarn.found]' "$tmpdir/out")" "[[],false]" "list items"
# a wrong layout while the NodeManager runs containers (a cgroupfs driver
# named on a systemd node): every container would go unseen, so no eviction
# and no QoS; it used to be exit 0 with a warning.  Now exit 1, naming what
# is there.
yarn-copilot --sysroot "$tmpdir/t" --cgroup-driver cgroupfs --nm-url "$NM_URL" list >"$tmpdir/out" 2>"$tmpdir/err"
assert_eq "$?" 1 "a wrong driver while the NM runs containers"
assert_eq "$(cat "$tmpdir/err")" \
	"yarn-copilot: hadoop-yarn cgroup '/kubepods/besteffort/hadoop-yarn' not found, but the NodeManager runs 2 containers: the layout is wrong (found '/kubepods.slice' (the systemd driver), hadoop-yarn at '/kubepods.slice/kubepods-besteffort.slice/hadoop-yarn'); check --hierarchy and --cgroup-driver" \
	"the wrong layout named"
# the same with the NodeManager down: a hadoop-yarn dir elsewhere is the
# wrong layout too (it was an empty list, exit 0: the NM-down case eviction
# exists for)
yarn-copilot --sysroot "$tmpdir/t" --cgroup-driver cgroupfs --no-nm list >"$tmpdir/out" 2>"$tmpdir/err"
assert_eq "$?" 1 "a wrong driver, no NM"
assert_eq "$(cat "$tmpdir/err")" \
	"yarn-copilot: hadoop-yarn cgroup '/kubepods/besteffort/hadoop-yarn' not found, but there is '/kubepods.slice' (the systemd driver), hadoop-yarn at '/kubepods.slice/kubepods-besteffort.slice/hadoop-yarn': the layout is wrong; check --hierarchy and --cgroup-driver" \
	"the wrong layout named, no NM"
node-usage --sysroot "$tmpdir/t" --cgroup-driver cgroupfs >"$tmpdir/out" 2>"$tmpdir/err"
assert_eq "$?" 1 "node-usage with a wrong driver"
grep -q "the layout is wrong" "$tmpdir/err" || fail "node-usage with a wrong driver: $(cat "$tmpdir/err")"
start_fake_nm 500
yarn-copilot --sysroot "$tmpdir/t" --nm-url "$NM_URL" health >"$tmpdir/out"
assert_eq "$?" 1 "NM 500"
grep -q "^FAILED NodeManager $NM_URL: NodeManager: HTTP 500" "$tmpdir/out" || fail "$(cat "$tmpdir/out")"
exit 0
