#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# matrix.sh - fault injection through the fake NodeManager and the sysroot
# hook (KILO_FAULTS, lib/kernel/sysroot.h): for each fault, the exit code and the
# report say exactly what happened.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/fake-nm.sh"

A=container_1326121700862_0006_01_000001
sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$tmpdir/t" v2 >/dev/null
Y() { yarn-copilot --sysroot "$tmpdir/t" "$@"; }
out=$tmpdir/out err=$tmpdir/err
n=0
run() { n=$((n + 1)); "$@" >"$out" 2>"$err"; rc=$?; }
q() { jq -c "$1" "$out"; }
fault() { # KILO_FAULTS-spec command...
	KILO_FAULTS=$1
	export KILO_FAULTS
	shift
	run "$@"
	unset KILO_FAULTS
}

# NodeManager: 500, not JSON, too slow, refused.  The list still comes from
# the cgroups (exit 0), nodeManager says why, one warning line.
nm_case() { # mode want-error-substring
	start_fake_nm "$1" --delay-ms 3000
	run Y --nm-url "$NM_URL" --nm-timeout 300 list
	assert_eq "$rc" 0 "NM $1: exit"
	assert_eq "$(q .nodeManager.reachable)" false "NM $1: reachable"
	q .nodeManager.error | grep -qF -- "$2" || fail "NM $1: error $(q .nodeManager.error), want $2"
	assert_eq "$(q '.items | length')" 3 "NM $1: items from the cgroups"
	assert_eq "$(wc -l <"$err")" 1 "NM $1: warning lines"
	grep -q "listing from cgroups alone" "$err" || fail "NM $1: $(cat "$err")"
}
nm_case 500 "500"
nm_case notjson "expected a JSON answer"
nm_case slow "Operation timed out after"
run Y --nm-url http://127.0.0.1:1 --nm-timeout 300 list
assert_eq "$rc" 0 "NM refused: exit"
q .nodeManager.error | grep -qi "connect" || fail "NM refused: $(q .nodeManager.error)"

# cgroup reads: a container dir vanishing mid-walk (ENOENT), EACCES, EIO
fault "read:$A/cgroup.procs:EACCES" Y --no-nm list
assert_eq "$rc" 0 "EACCES: exit"
assert_eq "$(q "[.items[] | select(.id == \"$A\") | .processes]")" "[null]" "EACCES: processes unknown"
assert_eq "$(cat "$err")" "yarn-copilot: warning: 1 cgroup reads failed, their values are null; first: read '$tmpdir/t/sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/hadoop-yarn/$A/cgroup.procs': Permission denied" "EACCES: warning"
fault "read:$A/memory.stat:EIO" Y --no-nm list
assert_eq "$rc" 0 "EIO: exit"
grep -q "memory.stat': Input/output error$" "$err" || fail "EIO: $(cat "$err")"
fault "read:$A/cgroup.procs:ENOENT" Y --no-nm list
assert_eq "$rc" 0 "ENOENT mid-walk: exit"
assert_eq "$(q "[.items[] | select(.id == \"$A\") | .processes]")" "[null]" "ENOENT mid-walk: processes unknown"
# node-usage: a QoS cgroup gone mid-sample is unknown (null), a read refused
# is a warning and exit 3
fault "read:kubepods-besteffort.slice/cpu.stat:ENOENT" \
	node-usage --sysroot "$FIX/sysroot/v2-systemd" --interval 1
assert_eq "$rc" 0 "node-usage, besteffort cpu.stat gone: exit"
assert_eq "$(q .qos.besteffort.cpuMilli)" null "node-usage ENOENT: besteffort cpuMilli"
fault "read:kubepods-besteffort.slice/cpu.stat:EACCES:0" \
	node-usage --sysroot "$FIX/sysroot/v2-systemd" --interval 1
assert_eq "$rc" 3 "node-usage, besteffort cpu.stat EACCES: exit"
assert_eq "$(q .qos.besteffort.cpuMilli)" null "node-usage EACCES: besteffort cpuMilli"
grep -q "^node-usage: warning: read '.*kubepods-besteffort.slice/cpu.stat': Permission denied$" "$err" ||
	fail "node-usage EACCES: $(cat "$err")"

# resctrl writes: ENOSPC on mkdir (no free CLOSID), EBUSY on schemata,
# EACCES on every tasks write.  Exit 3, each failure named in the report.
R=$tmpdir/resctrl
fresh() { rm -rf "$R"; cp -R "$FIX/sysroot/resctrl-intel" "$R"; }
printf 'resourceQOSStrategy: {lsClass: {resctrlQOS: {enable: true}}}\n' >"$tmpdir/ls.yaml"
fresh
fault mkdir:resctrl/LS:ENOSPC resctrl-assign --sysroot "$R" --policy "$tmpdir/ls.yaml"
assert_eq "$rc" 3 "mkdir ENOSPC: exit"
assert_eq "$(q '[.groups[] | [.name, .schemata.result]]')" '[["LS","failed"],["BE","written"]]' "mkdir ENOSPC: groups"
assert_eq "$(q '.groups[0].schemata.error')" \
	"\"no free CLOSID for group LS: mkdir '$R/sys/fs/resctrl/LS': No space left on device\"" "mkdir ENOSPC: error"
[ ! -e "$R/sys/fs/resctrl/LS" ] || fail "mkdir ENOSPC: LS created"
fresh
fault write:BE/schemata:EBUSY resctrl-assign --sysroot "$R"
assert_eq "$rc" 3 "schemata EBUSY: exit"
q '.groups[0].schemata.error' | grep -q "Device or resource busy" || fail "EBUSY: $(q .groups)"
fresh
fault write:BE/tasks:EACCES:0 resctrl-assign --sysroot "$R"
assert_eq "$rc" 3 "tasks EACCES: exit"
assert_eq "$(q '.tasks | [.moved, .failed, (.errors | length)]')" '[0,5,5]' "tasks EACCES: counts"
assert_eq "$(grep -c 'Permission denied$' "$err")" 5 "tasks EACCES: one warning per thread"

# qos-cgset writes: EINVAL on cpu.weight, ENOSPC on cpuset.cpus (the kernel's
# answer for a cpuset it cannot apply).  Exit 3; the failed item names the
# file and the errno, the other writes are done and reported as written.
Q=$tmpdir/qos
y=$Q/sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/hadoop-yarn
for f in write:hadoop-yarn/cpu.weight:EINVAL:cpu.weight:"Invalid argument" \
	write:hadoop-yarn/cpuset.cpus:ENOSPC:cpuset.cpus:"No space left on device"; do
	spec=${f%:*:*}
	file=${f#"$spec":}
	file=${file%%:*}
	why=${f##*:}
	rm -rf "$Q"
	cp -R "$FIX/sysroot/v2-systemd" "$Q"
	echo 5 >"$y/cpu.weight"
	fault "$spec" qos-cgset --sysroot "$Q" <"$FIX/qos/input.json"
	[ "$rc" = 3 ] || fail "qos-cgset $spec: exit $rc"
	assert_eq "$(q "[.items[] | select(.result == \"failed\") | [.file, .error]]")" \
		"[[\"$file\",\"write '$y/$file': $why\"]]" "qos-cgset $spec: failed item"
	[ "$(q .summary.written)" -ge 1 ] || fail "qos-cgset $spec: nothing else written"
	assert_eq "$(q .summary.failed)" 1 "qos-cgset $spec: failed count"
done

# stdout full (ENOSPC) or closed (EPIPE): exit 1 and one line saying so; a
# closed pipe never kills the tool (SIGPIPE is ignored).
Y --no-nm list >/dev/full 2>"$err"
assert_eq "$?" 1 "stdout ENOSPC: exit"
assert_eq "$(cat "$err")" "yarn-copilot: write error: No space left on device" "stdout ENOSPC: message"
closed() { # tool args...: run with stdout a pipe whose reader is gone
	python3 -c '
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE)
sys.stderr.write(p.stderr.decode())
sys.exit(p.returncode)' "$@" 2>"$err"
}
closed yarn-copilot --sysroot "$tmpdir/t" --no-nm list
assert_eq "$?" 1 "stdout EPIPE: exit"
assert_eq "$(cat "$err")" "yarn-copilot: write error: Broken pipe" "stdout EPIPE: message"
fresh
closed resctrl-assign --sysroot "$R"
assert_eq "$?" 1 "resctrl-assign stdout EPIPE: exit"
grep -q "^resctrl-assign: write error: Broken pipe$" "$err" || fail "resctrl EPIPE: $(cat "$err")"
assert_eq "$(head -n 1 "$R/sys/fs/resctrl/BE/schemata")" "L3:0=f;1=f" "resctrl EPIPE: the writes were done"

# the textfile on a full file system (ENOSPC): exit 1, the file left as it was
if [ "$(id -u)" = 0 ] && mkdir "$tmpdir/tf" && mount -t tmpfs -o size=8k tmpfs "$tmpdir/tf" 2>/dev/null; then
	at_exit "umount '$tmpdir/tf'"
	echo old >"$tmpdir/tf/yarn-copilot.prom"
	dd if=/dev/zero of="$tmpdir/tf/fill" bs=1k count=64 2>/dev/null
	run Y --no-nm --textfile-dir "$tmpdir/tf" metrics
	assert_eq "$rc" 1 "textfile ENOSPC: exit"
	grep -q "No space left on device" "$err" || fail "textfile ENOSPC: $(cat "$err")"
	assert_eq "$(wc -l <"$err")" 1 "textfile ENOSPC: lines"
	assert_eq "$(cat "$tmpdir/tf/yarn-copilot.prom")" old "textfile ENOSPC: old file kept"
	[ -z "$(find "$tmpdir/tf" -name '*.tmp*')" ] || fail "textfile ENOSPC: temporary file left"
else
	echo "textfile ENOSPC: no tmpfs mount here"
fi
echo "faults: $n runs"
exit 0
