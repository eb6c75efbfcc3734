# SPDX-License-Identifier: Apache-2.0
# make demo as a user that is not root, on a cgroup v1 and a cgroup v2 fake
# sysroot (#20 item 7): it runs to the end, says what it cannot show and
# why, and shows no placeholder for a value it does not know (no "?", no
# empty "(pids )", no "null" figure, no "->" without a value); the eviction is
# still planned, on the same four containers the NodeManager lists.
# As root the demo runs as nobody (setpriv); a bad KILO_DEMO_CGROUP is exit 2.
. "$KILO_TOP/test/lib.sh"
as=""
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null || skip "root without setpriv: cannot run the demo as a user"
	as="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	chmod 755 "$tmpdir"
	mkdir "$tmpdir/tmp" && chown nobody:nogroup "$tmpdir/tmp"
	$as test -x "$KILO_BIN/kilo-sync" || skip "nobody cannot run $KILO_BIN/kilo-sync"
	$as test -r "$KILO_TOP/scripts/demo" || skip "nobody cannot read $KILO_TOP"
else
	mkdir "$tmpdir/tmp"
fi

for v in v1 v2; do
	out=$tmpdir/demo-$v.out
	$as env HOME="$tmpdir/tmp" TMPDIR="$tmpdir/tmp" KILO_BIN="$KILO_BIN" KILO_DEMO_CGROUP=$v \
		sh "$KILO_TOP/scripts/demo" >"$out" 2>&1
	rc=$?
	[ "$rc" = 0 ] || { cat "$out"; fail "demo on a $v fake exited $rc"; }
	grep -qx "No real cgroup tree (KILO_DEMO_CGROUP=$v asks for a fake $v tree):" "$out" ||
		fail "$v: the demo does not say why the tree is fake"
	grep -q 'so the eviction is planned but not carried out (no signal is ever sent with a sysroot other than /)' "$out" ||
		fail "$v: the demo does not say the eviction is not carried out"
	grep -q '^  not carried out: in a fake sysroot yarn-copilot kill sends no signal' "$out" ||
		fail "$v: no word on the kill that did not happen"
	for pat in '?' '(pids )' 'null MiB' 'nullm' '-> null' '->  ' '-> (' '()' 'state unknown' 'hadoop-yarn 0 MiB'; do
		if grep -nF -- "$pat" "$out" >"$tmpdir/hits"; then
			cat "$tmpdir/hits" >&2
			fail "$v: placeholder '$pat' in the demo's output"
		fi
	done
	# the NodeManager's four containers, each with its made-up process
	for n in 1 2 3 4; do
		grep -q "^  container_1796054400000_0001_01_00000$n RUNNING am=[a-z]* requests [0-9]*m/[0-9]* MiB, 1 process(es) (pids 500$n), memory [0-9]* MiB$" "$out" ||
			fail "$v: container $n not listed with its pid and figures"
	done
	grep -q '^  victim container_1796054400000_0001_01_000002: expected release 255 MiB' "$out" ||
		fail "$v: the eviction planned no victim"
	grep -qx "== Done (fake cgroup $v sysroot): kilo-sync pass, node QoS, resctrl, an eviction plan (not carried out) and metrics." \
		"$out" || fail "$v: the story did not end"
	for w in "$tmpdir"/tmp/kilo-demo-*; do
		[ ! -e "$w" ] || fail "$v: work directory $w left behind"
	done
done
grep -q 'cgroup v2: a container.s one dir has every controller, so nothing is mirrored' "$tmpdir/demo-v2.out" ||
	fail "v2: no word on mirrors"
grep -q 'written memory .*/container_1796054400000_0001_01_000001/memory.oom.group 0 -> 1' "$tmpdir/demo-v2.out" ||
	fail "v2: memory.oom.group not written"
grep -q "^  mirrored 4 container dir(s) into cpuset/memory" "$tmpdir/demo-v1.out" || fail "v1: no mirrors"

# not root, no switch: the reason is that
if [ -n "$as" ]; then
	$as env HOME="$tmpdir/tmp" TMPDIR="$tmpdir/tmp" KILO_BIN="$KILO_BIN" sh "$KILO_TOP/scripts/demo" \
		>"$tmpdir/plain.out" 2>&1 || { cat "$tmpdir/plain.out"; fail "demo as nobody failed"; }
	grep -qE "^No real cgroup tree \((not root: making cgroups and signalling YARN's processes need root|this machine has cgroup v2; the demo builds a real tree on cgroup v1 only)\):$" \
		"$tmpdir/plain.out" || fail "as nobody: the reason for the fake tree is not given"
fi

KILO_DEMO_CGROUP=v3 sh "$KILO_TOP/scripts/demo" >"$tmpdir/bad.out" 2>"$tmpdir/bad.err"
assert_eq "$?" 2 "KILO_DEMO_CGROUP=v3 exit"
assert_eq "$(cat "$tmpdir/bad.err")" "demo: KILO_DEMO_CGROUP: expected v1 or v2, got 'v3'" "KILO_DEMO_CGROUP=v3 message"
[ ! -s "$tmpdir/bad.out" ] || fail "KILO_DEMO_CGROUP=v3 printed a story: $(head -n 2 "$tmpdir/bad.out")"
exit 0
