#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# qos-cgset.sh - a no-change qos-cgset pass over 500 containers: CPU time
# (user + system, median of 20 runs after 3 uncounted ones; runcpu.py) of the whole pass with its full report,
# with --changes-only, and of the static and suppress parts alone (the node
# loop runs suppress every second, static every 10 s), as the loop runs
# them: with --state, after a first pass has filled it, and the ContainerList
# pids that yarn-copilot list gives.  The same pass without --state (every
# file read) is measured for comparison.  Writes to the tree and rewrites of
# the state file must both be 0.
# The tree is a fake cgroup v1 node (cpu, cpuset, memory) with every knob an
# Anolis kernel has, each container mirrored and holding 2 pids, so every
# file the pass compares exists and is read, and a 64-CPU topology.
set -eu
: "${KILO_BIN:?}"
n=500 runs=20
dir=$(mktemp -d "${TMPDIR:-/tmp}/kilo-bench-XXXXXX")
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" "$n" <<'PY'
import json, os, sys
root, n = sys.argv[1], int(sys.argv[2])
cg = root + "/sys/fs/cgroup"
y = "kubepods/besteffort/hadoop-yarn"
def w(rel, text):
    os.makedirs(os.path.dirname(rel), exist_ok=True)
    with open(rel, "w") as f:
        f.write(text + "\n")
os.makedirs(root + "/proc/self")
w(root + "/proc/self/mountinfo", "\n".join(
    "%d 1 0:%d / /sys/fs/cgroup/%s rw - cgroup cgroup rw,%s" % (30 + i, 30 + i, c, c)
    for i, c in enumerate(["cpu", "cpuacct", "cpuset", "memory"])))
w(root + "/sys/devices/system/cpu/online", "0-63")
# 2 NUMA nodes x 16 cores x 2 hyperthreads: cpu n and n + 32 are siblings.
for cpu in range(64):
    t = root + "/sys/devices/system/cpu/cpu%d/topology/" % cpu
    w(t + "core_id", str(cpu % 32 % 16))
    w(t + "physical_package_id", str(cpu % 32 // 16))
for node in range(2):
    w(root + "/sys/devices/system/node/node%d/cpulist" % node,
      "%d-%d,%d-%d" % (16 * node, 16 * node + 15, 32 + 16 * node, 32 + 16 * node + 15))
for c in ["cpu", "cpuacct", "cpuset", "memory"]:
    for d in ["kubepods", "kubepods/besteffort", y]:
        os.makedirs("%s/%s/%s" % (cg, c, d), exist_ok=True)
w("%s/cpuset/kubepods/besteffort/cpuset.cpus" % cg, "0-63")
yarn = {"cpu": {"cpu.shares": "1024000", "cpu.cfs_quota_us": "-1", "cpu.cfs_period_us": "100000",
                "cpu.bvt_warp_ns": "-1"},
        "cpuset": {"cpuset.cpus": "0-31", "cpuset.mems": "0"},
        "memory": {"memory.wmark_ratio": "95", "memory.wmark_scale_factor": "20",
                   "memory.wmark_min_adj": "50", "memory.priority": "0",
                   "memory.use_priority_oom": "0", "memory.oom.group": "0",
                   "memory.usage_in_bytes": "1073741824"}}
for c, files in yarn.items():
    for f, v in files.items():
        w("%s/%s/%s/%s" % (cg, c, y, f), v)
items = []
for i in range(n):
    cid = "container_e17_1410901177871_0001_01_%06d" % (i + 2)
    procs = "%d\n%d" % (10000 + 2 * i, 10001 + 2 * i)
    w("%s/cpu/%s/%s/cgroup.procs" % (cg, y, cid), procs)
    w("%s/cpu/%s/%s/tasks" % (cg, y, cid), procs)
    w("%s/cpuset/%s/%s/cgroup.procs" % (cg, y, cid), procs)
    w("%s/cpuset/%s/%s/cpuset.cpus" % (cg, y, cid), "0-31")
    w("%s/memory/%s/%s/cgroup.procs" % (cg, y, cid), procs)
    w("%s/memory/%s/%s/memory.oom.group" % (cg, y, cid), "1")
    items.append({"id": cid, "state": "RUNNING", "requests": {"cpuMilli": 2000, "memoryBytes": 1 << 30},
                  "processes": 2, "pids": [10000 + 2 * i, 10001 + 2 * i]})
meta = {"node": "bench", "timestamp": "2026-11-29T16:00:00Z"}
usage = {"apiVersion": "kilo/v1", "kind": "NodeUsage", "metadata": meta,
         "capacity": {"cpuMilli": 64000, "memoryBytes": 1 << 38},
         "system": {"cpuMilli": 2000}, "qos": {"guaranteed": {"cpuMilli": 9000},
                                              "burstable": {"cpuMilli": 1000}}}
cl = {"apiVersion": "kilo/v1", "kind": "ContainerList", "metadata": meta,
      "nodeManager": {"url": "http://127.0.0.1:8042", "reachable": True, "error": None},
      "items": items}
with open(root + "/in.json", "w") as f:
    f.write(json.dumps(usage) + "\n" + json.dumps(cl) + "\n")
PY
# 64000 x 65% - 10000 - 2000 = 29600 milli-cores -> 30 CPUs: the tree holds
# 32, so the first pass shrinks it (and fills the state); the measured
# passes change nothing.
"$KILO_BIN/qos-cgset" --sysroot "$dir" --state "$dir/state.json" <"$dir/in.json" >/dev/null
python3 - "$dir" "$runs" "$KILO_BIN/qos-cgset" <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["KILO_TOP"] + "/test/bench")
import runcpu
root, runs, tool = sys.argv[1], int(sys.argv[2]), sys.argv[3]
state = ["--state", root + "/state.json"]
variants = [("qos-cgset-no-change-500", state, "<=10"),
            ("qos-cgset-no-change-500-changes-only", state + ["--changes-only"], "<=10"),
            ("qos-cgset-no-change-500-static", state + ["--changes-only", "--only", "static"], "<=10"),
            ("qos-cgset-no-change-500-suppress", state + ["--changes-only", "--only", "suppress"], "<=10"),
            ("qos-cgset-no-change-500-no-state", [], "info")]
writes = 0
stamp = os.stat(root + "/state.json").st_mtime_ns
for name, opts, target in variants:
    ms, outs = runcpu.measure([tool, "--sysroot", root] + opts, root + "/in.json", runs)
    for out in outs:
        s = json.loads(out)["summary"]
        writes += s["written"] + s["failed"] + s["planned"]
    print("%s %.2f ms %s" % (name, ms, target))
rewrites = int(os.stat(root + "/state.json").st_mtime_ns != stamp)
print("qos-cgset-no-change-500-writes %d items 0" % writes)
print("qos-cgset-no-change-500-state-rewrites %d files 0" % rewrites)
sys.exit(1 if writes or rewrites else 0)
PY
