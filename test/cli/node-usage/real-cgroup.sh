# SPDX-License-Identifier: Apache-2.0
# node-usage on the real cgroup v1 hierarchy: a private hadoop-yarn tree
# under a unique prefix, one container burning CPU and one holding memory.
# node-usage's hadoop-yarn figures must match what the kernel's own files
# said around the calls; the tree is removed at exit, even on failure.
. "$KILO_TOP/test/lib.sh"
private_cgroup cpu cpuacct cpuset memory
unset KILO_NOW # rates need the real wall clock

ctrls="cpu cpuacct cpuset memory"
prefix=$PRIVATE_CG
yarn="$prefix/hadoop-yarn"
c1=container_e01_1795968000000_0001_01_000001
c2=container_e01_1795968000000_0001_01_000002

for c in $ctrls; do
	for d in "$prefix" "$yarn" "$yarn/$c1" "$yarn/$c2"; do
		mkdir "/sys/fs/cgroup/$c/$d" || fail "mkdir /sys/fs/cgroup/$c/$d"
		if [ "$c" = cpuset ]; then # v1: a cpuset needs CPUs and memory nodes first
			up=$(dirname "$d")
			cat "/sys/fs/cgroup/cpuset/$up/cpuset.cpus" >"/sys/fs/cgroup/cpuset/$d/cpuset.cpus"
			cat "/sys/fs/cgroup/cpuset/$up/cpuset.mems" >"/sys/fs/cgroup/cpuset/$d/cpuset.mems"
		fi
	done
done
echo 150000 >"/sys/fs/cgroup/cpu/$yarn/cpu.cfs_quota_us" || fail "set cfs quota"

# Each process joins its container in every controller before it works, so
# its memory is charged there from the start.
# shellcheck disable=SC2016 # expanded by the child shell
join='for c in cpu cpuacct cpuset memory; do echo $$ >"/sys/fs/cgroup/$c/$CG/cgroup.procs" || exit 1; done'
CG="$yarn/$c1" sh -c "$join; while :; do :; done" &
private_pid "$!"
CG="$yarn/$c2" sh -c "$join; exec python3 -c 'import time; b = b\"k\" * (96 << 20); time.sleep(300)'" &
private_pid "$!"

memfile="/sys/fs/cgroup/memory/$yarn/memory.stat"
kv() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
mem_used() {
	echo $(($(kv total_inactive_anon "$memfile") + $(kv total_active_anon "$memfile") + $(kv total_unevictable "$memfile")))
}
i=0
while [ "$(mem_used)" -lt $((96 << 20)) ]; do
	i=$((i + 1))
	[ "$i" -le 100 ] || fail "the memory holder never reached 96 MiB (at $(mem_used))"
	sleep 0.1
done

usage="/sys/fs/cgroup/cpuacct/$yarn/cpuacct.usage"
state="$tmpdir/state.json"
u0a=$(cat "$usage")
node-usage --hierarchy "$yarn" --state "$state" >"$tmpdir/first.json" || fail "first call"
u0b=$(cat "$usage")
sleep 1
u1a=$(cat "$usage")
m1a=$(mem_used)
node-usage --hierarchy "/$yarn/" --state "$state" --pretty >"$tmpdir/second.json" || fail "second call"
u1b=$(cat "$usage")
m1b=$(mem_used)

assert_eq "$(jq -c .hadoopYarn.cpuMilli "$tmpdir/first.json")" null "first call rate"
assert_eq "$(jq -r .cgroup.hadoopYarn "$tmpdir/second.json")" "/$yarn" "hadoop-yarn path"
assert_eq "$(jq -c .limits.hadoopYarn "$tmpdir/second.json")" \
	"{\"cpuset\":\"$(cat "/sys/fs/cgroup/cpuset/$yarn/cpuset.cpus")\",\"cfsQuotaUs\":150000,\"cfsPeriodUs\":$(cat "/sys/fs/cgroup/cpu/$yarn/cpu.cfs_period_us")}" \
	"hadoop-yarn limits"
cat "$tmpdir/second.json" >&2
cpu=$(jq .hadoopYarn.cpuMilli "$tmpdir/second.json")
win=$(jq .windowMs "$tmpdir/second.json")
mem=$(jq .hadoopYarn.memoryBytes "$tmpdir/second.json")
echo "node-usage: cpuMilli=$cpu windowMs=$win memoryBytes=$mem"

# The CPU time node-usage saw lies between the kernel's counters read
# around its two calls; allow 2% for the window's millisecond rounding.
lo=$(((u1a - u0b) * 98 / (win * 1000 * 100)))
hi=$(((u1b - u0a) * 102 / (win * 1000 * 100) + 1))
echo "kernel: cpuMilli between $lo and $hi"
[ "$cpu" -ge "$lo" ] && [ "$cpu" -le "$hi" ] || fail "cpuMilli $cpu not within $lo..$hi"
[ "$cpu" -ge 100 ] || fail "cpuMilli $cpu: the burner should use at least 0.1 CPU"

# Memory: anon + unevictable of memory.stat, read before and after (1 MiB slack).
lo=$((m1a < m1b ? m1a : m1b))
hi=$((m1a > m1b ? m1a : m1b))
echo "kernel: memoryBytes between $lo and $hi"
[ "$mem" -ge $((lo - (1 << 20))) ] && [ "$mem" -le $((hi + (1 << 20))) ] ||
	fail "memoryBytes $mem not within $lo..$hi"
