#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The kubeconfig's exec credential plugin runs through the one spawn helper
# (remote/spawn.h): a plugin that answers lets the pass run; an answer over 1 MiB
# fails the pass with one line (before, it was read without a bound, and a
# hung plugin stalled the pass forever: spawn's deadline is in test_spawn).
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/sync-cluster.sh"
cd "$tmpdir" || exit 1

plugin() { # $1: the script's body
	printf '#!/bin/sh\n%s\n' "$1" >"$tmpdir/plugin" && chmod +x "$tmpdir/plugin"
	sed "s|users: \[{name: kilo, user: {}}\]|users: [{name: kilo, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: $tmpdir/plugin, interactiveMode: Never}}}]|" \
		"$tmpdir/kubeconfig" >"$tmpdir/kc-exec"
	grep -q "command: $tmpdir/plugin" "$tmpdir/kc-exec" || fail "kubeconfig: $(cat "$tmpdir/kc-exec")"
}

plugin 'echo "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"tok-from-plugin\"}}"'
rc=0
KUBECONFIG=$tmpdir/kc-exec kilo-sync --config "$tmpdir/kilo-sync.yaml" plan >"$tmpdir/plan" 2>"$tmpdir/err" || rc=$?
assert_eq "$rc" 0 "a plugin that answers: exit ($(cat "$tmpdir/err"))"
assert_eq "$(jq -r .kind "$tmpdir/plan")" SyncPlan "a plan"

plugin 'head -c 2000000 /dev/zero | tr "\0" x'
rc=0
KUBECONFIG=$tmpdir/kc-exec kilo-sync --config "$tmpdir/kilo-sync.yaml" plan >"$tmpdir/plan" 2>"$tmpdir/err" || rc=$?
[ "$rc" != 0 ] || fail "a plugin answering 2 MB: exit 0"
grep -q "exec plugin '$tmpdir/plugin': output over 1048576 bytes" "$tmpdir/err" ||
	fail "the error names the plugin and the bound: $(cat "$tmpdir/err")"
assert_eq "$(wc -c <"$tmpdir/plan")" 0 "nothing on stdout"
