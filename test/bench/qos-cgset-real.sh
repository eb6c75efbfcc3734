#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# qos-cgset-real.sh - qos-cgset on the real cgroup v1 hierarchy (kernfs,
# where each file costs more than on a fake tree): a private hadoop-yarn
# tree with 500 containers, each holding a real process in its cpu dir
# only, as YARN leaves them.  CPU time (user + system, median of 20 runs
# after 3 uncounted ones; runcpu.py) of
# the first pass (1000 mirror dirs made, 1000 processes moved), then of a
# no-change pass with --state as the node loop runs it, and without --state
# (every file read).  Skipped where cgroup v1 is not writable.
set -eu
. "$KILO_TOP/test/bench/lib.sh"
private_cgroup cpu cpuset memory
n=500 runs=20
CG=/sys/fs/cgroup
Y=$PRIVATE_CG/kubepods/besteffort/hadoop-yarn
for c in cpu cpuset memory; do mkdir -p "$CG/$c/$PRIVATE_CG/kubepods/besteffort"; done
for d in "$PRIVATE_CG" "$PRIVATE_CG/kubepods" "$PRIVATE_CG/kubepods/besteffort"; do
	cat "$CG/cpuset/cpuset.cpus" >"$CG/cpuset/$d/cpuset.cpus"
	cat "$CG/cpuset/cpuset.mems" >"$CG/cpuset/$d/cpuset.mems"
done
mkdir "$CG/cpu/$Y"
i=0
while [ $i -lt $n ]; do
	id=$(printf 'container_e17_1410901177871_0001_01_%06d' $((i + 2)))
	mkdir "$CG/cpu/$Y/$id"
	sleep 3600 &
	private_pid $!
	echo $! >"$CG/cpu/$Y/$id/cgroup.procs"
	i=$((i + 1))
done
python3 - "$CG/cpu/$Y" "$(nproc)" >"$tmpdir/in.json" <<'PY'
import json, os, sys
ydir, ncpu = sys.argv[1], int(sys.argv[2])
meta = {"node": "bench", "timestamp": "2026-11-29T16:00:00Z"}
items = []
for cid in sorted(d for d in os.listdir(ydir) if d.startswith("container_")):
    pids = [int(p) for p in open(os.path.join(ydir, cid, "cgroup.procs")).read().split()]
    items.append({"id": cid, "state": "RUNNING", "requests": {"cpuMilli": 1000, "memoryBytes": 1 << 30},
                  "processes": len(pids), "pids": pids})
print(json.dumps({"apiVersion": "kilo/v1", "kind": "NodeUsage", "metadata": meta,
                  "capacity": {"cpuMilli": ncpu * 1000, "memoryBytes": 1 << 34},
                  "system": {"cpuMilli": 0}, "qos": {"guaranteed": {"cpuMilli": 0},
                                                     "burstable": {"cpuMilli": 0}}}))
print(json.dumps({"apiVersion": "kilo/v1", "kind": "ContainerList", "metadata": meta,
                  "nodeManager": {"url": "http://127.0.0.1:8042", "reachable": True, "error": None},
                  "items": items}))
PY
python3 - "$tmpdir" "$runs" "$KILO_BIN/qos-cgset" "$Y" <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["KILO_TOP"] + "/test/bench")
import runcpu
tmp, runs, tool, y = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
base = [tool, "--hierarchy", "/" + y]
state = ["--state", tmp + "/state.json"]
ms, outs = runcpu.measure(base, tmp + "/in.json", 1, warm=0)
first = json.loads(outs[0])["summary"]
print("qos-cgset-real-500-first-pass %.2f ms %d-writes info" % (ms, first["written"]))
if first["failed"] or first["written"] < 2000:
    sys.exit("first pass: %s" % first)
runcpu.measure(base + state, tmp + "/in.json", 1, warm=0)  # fill the state
writes = 0
for name, opts, target in [("qos-cgset-real-500-no-change", state, "<=10"),
                           ("qos-cgset-real-500-no-change-no-state", [], "info")]:
    ms, outs = runcpu.measure(base + opts, tmp + "/in.json", runs)
    writes += sum(json.loads(o)["summary"]["written"] + json.loads(o)["summary"]["failed"]
                  for o in outs)
    print("%s %.2f ms %s" % (name, ms, target))
print("qos-cgset-real-500-writes %d items 0" % writes)
sys.exit(1 if writes else 0)
PY
