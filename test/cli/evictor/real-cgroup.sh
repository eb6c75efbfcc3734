# SPDX-License-Identifier: Apache-2.0
# evictor end to end on the real cgroup v1 hierarchy with real processes:
# a private hadoop-yarn tree (cpu, cpuacct and memory) holding YARN
# containers whose processes hold distinct, real amounts of memory
#   AM  (number 1)  96 MiB   the largest, but an ApplicationMaster
#   C2  16 MiB   C3  32 MiB   C4  48 MiB   C5  64 MiB
#   C6  40 MiB   KILLING in the NodeManager: terminating, credited
# The ContainerList comes from a real `yarn-copilot list` (fake NM); the
# NodeUsage puts the node over the threshold with a need of C6 + C5 + C4/2
# (as measured), so the plan must be exactly C5 then C4; piped into
# `yarn-copilot kill`, exactly those processes are gone and the report matches.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/fake-nm.sh"
private_cgroup cpu cpuacct memory

top=$PRIVATE_CG
hy=$top/hadoop-yarn
app=$(printf '%04d' $(($$ % 10000)))
id() { printf 'container_1795910400000_%s_01_%06d' "$app" "$1"; }
AM=$(id 1) C2=$(id 2) C3=$(id 3) C4=$(id 4) C5=$(id 5) C6=$(id 6)
all="$AM $C2 $C3 $C4 $C5 $C6"
ctrls="cpu cpuacct memory"

for c in $ctrls; do
	for i in $all; do
		mkdir -p "/sys/fs/cgroup/$c/$hy/$i" || fail "mkdir $c/$hy/$i"
	done
done

# spawn ID MIB: a process in container ID holding MIB MiB of touched memory
spawn() {
	sh -c 'for c in '"$ctrls"'; do echo $$ >/sys/fs/cgroup/$c/'"$hy/$1"'/cgroup.procs; done
		exec python3 -c "import sys, time
b = bytearray(b\"\\x01\") * (int(sys.argv[1]) << 20)
open(sys.argv[2], \"w\").write(\"1\")
time.sleep(1000)" "$2" "$3"' sh "$1" "$2" "$tmpdir/ready.$1" >/dev/null 2>&1 &
	echo $!
}
pam=$(spawn "$AM" 96) p2=$(spawn "$C2" 16) p3=$(spawn "$C3" 32)
p4=$(spawn "$C4" 48) p5=$(spawn "$C5" 64) p6=$(spawn "$C6" 40)
# shellcheck disable=SC2046 # one ready file per container
wait_nonempty "container processes" $(for c in $all; do echo "$tmpdir/ready.$c"; done)

nm() { printf '{"id":"%s","state":"%s","user":"alice","totalMemoryNeededMB":%d,"totalVCoresNeeded":1}' "$@"; }
printf '{"containers":{"container":[%s,%s,%s,%s,%s,%s]}}\n' \
	"$(nm "$AM" RUNNING 1024)" "$(nm "$C2" RUNNING 256)" "$(nm "$C3" RUNNING 256)" \
	"$(nm "$C4" RUNNING 256)" "$(nm "$C5" RUNNING 256)" "$(nm "$C6" KILLING 256)" >"$tmpdir/nm.json"
start_fake_nm ok --containers "$tmpdir/nm.json"

yarn-copilot --hierarchy "$hy" --nm-url "$NM_URL" list >"$tmpdir/list" || fail "list: exit $?"
mem() { jq -r --arg id "$1" '.items[] | select(.id == $id) | .usage.memoryBytes' "$tmpdir/list"; }
m2=$(mem "$C2") m3=$(mem "$C3") m4=$(mem "$C4") m5=$(mem "$C5") m6=$(mem "$C6") mam=$(mem "$AM")
# the sizes are real and distinct: each at least its share, in the spawned order
for v in "$m2:16" "$m3:32" "$m4:48" "$m5:64" "$m6:40" "$mam:96"; do
	[ "${v%:*}" -ge $((${v#*:} << 20)) ] || fail "memory ${v%:*} below ${v#*:} MiB: $(cat "$tmpdir/list")"
done
[ "$m2" -lt "$m3" ] && [ "$m3" -lt "$m4" ] && [ "$m4" -lt "$m5" ] && [ "$m5" -lt "$mam" ] ||
	fail "memory not in the spawned order: $m2 $m3 $m4 $m5 $mam"
assert_eq "$(jq -r --arg id "$C6" '.items[] | select(.id == $id) | .terminating' "$tmpdir/list")" true \
	"C6 terminating"

# NodeUsage: capacity 25N and usage 18N (72%) give need = 18N - 68% of 25N = N
need=$((m6 + m5 + m4 / 2))
cat >"$tmpdir/usage" <<JSON
{"apiVersion":"kilo/v1","kind":"NodeUsage","metadata":{"node":"e2e","timestamp":"2026-11-29T16:00:00Z"},
 "windowMs":1000,"capacity":{"cpuMilli":2000,"memoryBytes":$((25 * need))},
 "node":{"cpuMilli":1000,"memoryBytes":$((18 * need))}}
JSON

cat "$tmpdir/usage" "$tmpdir/list" | evictor --state "$tmpdir/evictor.json" | tee "$tmpdir/plan" |
	yarn-copilot --hierarchy "$hy" kill >"$tmpdir/report" 2>"$tmpdir/err" ||
	fail "evictor | yarn-copilot kill: exit $?: $(cat "$tmpdir/err")"

assert_eq "$(jq -r '.trigger | "\(.resource) \(.needBytes) \(.creditBytes)"' "$tmpdir/plan")" \
	"memory $need $m6" "trigger"
assert_eq "$(jq -r '[.items[].id] | join(" ")' "$tmpdir/plan")" "$C5 $C4" "victims"
assert_eq "$(jq -r '[.items[].expectedRelease.memoryBytes] | join(" ")' "$tmpdir/plan")" "$m5 $m4" \
	"expected releases"
assert_eq "$(jq -r '[.skipped[] | "\(.id) \(.reason)"] | join(",")' "$tmpdir/plan")" \
	"$C6 terminating" "skipped"
assert_eq "$(jq -r .pressureRemains "$tmpdir/plan")" false "pressureRemains"
assert_eq "$(jq -r '[.items[] | "\(.id) \(.result) \(.processes) \(.error)"] | join(",")' "$tmpdir/report")" \
	"$C5 terminated 1 null,$C4 terminated 1 null" "report"

for p in $p5 $p4; do
	! alive "$p" || fail "planned victim $p still alive"
done
for p in $pam $p2 $p3 $p6; do
	alive "$p" || fail "process $p not in the plan is gone"
done
for c in $C5 $C4; do
	[ ! -s "/sys/fs/cgroup/memory/$hy/$c/cgroup.procs" ] || fail "$c not empty"
done
assert_eq "$(jq -r '[.victims[].id] | join(" ")' "$tmpdir/evictor.json")" "$C5 $C4" "state victims"
exit 0
