# SPDX-License-Identifier: Apache-2.0
# A NodeManager URL's userinfo is a secret (threat-model.md): it is in no
# warning, no ContainerList (which the node loop keeps on disk) and no
# health line, in none of its forms, even when the NM echoes it back (from
# a review: the ContainerList carried the URL as given).
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/fake-nm.sh"
sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$tmpdir/t" v1
basic=$(printf 'kilo:MARKER-NM-PASS' | base64)
down=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
yarn-copilot --sysroot "$tmpdir/t" --nm-url "http://kilo:MARKER-NM-PASS@127.0.0.1:$down" list \
	>"$tmpdir/out" 2>"$tmpdir/err" || fail "list with the NM down: exit $?"
grep -q "warning: NodeManager 'http://127.0.0.1:$down'" "$tmpdir/err" || fail "the warning: $(cat "$tmpdir/err")"
assert_eq "$(jq -r .nodeManager.url "$tmpdir/out")" "http://127.0.0.1:$down" "the URL in the ContainerList"
yarn-copilot --sysroot "$tmpdir/t" --nm-url "http://kilo:MARKER-NM-PASS@127.0.0.1:$down" health \
	>>"$tmpdir/out" 2>>"$tmpdir/err"
! grep -n "MARKER\|$basic" "$tmpdir/out" "$tmpdir/err" || fail "the NodeManager's password was printed"
echo ok
