#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# evictor over a 500-container ContainerList (285 KB) with the node over the
# memory threshold and CPU eviction on: CPU time (user + system, getrusage)
# per decision in-process, from the documents' text to the printed KillPlan,
# averaged over 200 decisions (test/bench/evictor-decide.c over
# build/libkilo.a).  The peer value is the reading of the same documents
# alone (lib/core/jsonio over jansson), so the ratio shows how much of a decision
# is JSON decoding.  The run of the tool itself (exec, dynamic linking,
# policy, --state) is checked to succeed on the same input.
set -eu
: "${KILO_BIN:?}" "${KILO_TOP:?}"
runs=200
work=$(mktemp -d "${TMPDIR:-/tmp}/kilo-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
GiB = 1 << 30
nu = {"apiVersion": "kilo/v1", "kind": "NodeUsage",
      "metadata": {"node": "worker-1", "timestamp": "2026-11-29T16:00:00Z"}, "windowMs": 1000,
      "capacity": {"cpuMilli": 64000, "memoryBytes": 256 * GiB},
      "node": {"cpuMilli": 50000, "memoryBytes": 230 * GiB},
      "qos": {"besteffort": {"cpuMilli": 31000, "memoryBytes": 200 * GiB}},
      "limits": {"besteffort": {"cpuset": "0-63", "cfsQuotaUs": -1, "cfsPeriodUs": 100000},
                 "hadoopYarn": {"cpuset": "0-31", "cfsQuotaUs": 3200000, "cfsPeriodUs": 100000}}}
def item(i):
    cid = "container_e17_1795968000000_%04d_01_%06d" % (i // 10 + 1, i % 10 + 1)
    return {"id": cid, "applicationId": "application_1795968000000_%04d" % (i // 10 + 1),
            "attempt": 1, "number": i % 10 + 1, "epoch": 17, "am": i % 10 == 0,
            "state": "RUNNING", "user": "alice",
            "requests": {"cpuMilli": 1000 + i % 7 * 500, "memoryBytes": (i % 5 + 1) * GiB},
            "cgroup": "/kubepods/besteffort/hadoop-yarn/" + cid, "processes": 3,
            "startTime": "2026-11-29T%02d:%02d:00Z" % (10 + i // 60, i % 60),
            "usage": {"cpuNanos": i * 10**9, "cpuMilli": (i * 37) % 2000,
                      "memoryBytes": ((i * 7919) % 4000 + 1) << 20,
                      "memoryCurrentBytes": ((i * 7919) % 4000 + 100) << 20},
            "starting": False, "stale": False, "terminating": i % 50 == 7}
for name, n in (("list", 500),):
    cl = {"apiVersion": "kilo/v1", "kind": "ContainerList",
          "metadata": {"node": "worker-1", "timestamp": "2026-11-29T16:00:00Z"},
          "nodeManager": {"url": "http://127.0.0.1:8042", "reachable": True, "error": None},
          "items": [item(i) for i in range(n)]}
    with open("%s/%s.json" % (work, name), "w") as f:
        f.write(json.dumps(nu) + "\n" + json.dumps(cl) + "\n")
PY
cat >"$work/policy.yaml" <<'Y'
resourceUsedThresholdWithBE:
  cpuEvictBESatisfactionLowerPercent: 60
  cpuEvictBESatisfactionUpperPercent: 80
  cpuEvictTimeWindowSeconds: 60
kilo:
  memoryEvictCoolDownMs: 0
Y

# shellcheck disable=SC2046 # pkg-config prints several words
cc -std=gnu11 -O2 -I"$KILO_TOP/lib" -o "$work/evictor-decide" "$KILO_TOP/test/bench/evictor-decide.c" \
	"$KILO_TOP/build/libkilo.a" $(pkg-config --cflags --libs jansson yaml-0.1) -lm
KILO_NOW=2026-11-29T16:00:00Z "$KILO_BIN/evictor" --policy "$work/policy.yaml" \
	--state "$work/state.json" <"$work/list.json" | grep -q '"resource":"memory"' ||
	{ echo "evictor: no memory plan on the benchmark input" >&2; exit 1; }

decide=$("$work/evictor-decide" decide "$work/policy.yaml" "$work/list.json" $runs)
decode=$("$work/evictor-decide" decode "$work/policy.yaml" "$work/list.json" $runs)
ratio=$(awk -v a="$decide" -v b="$decode" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
echo "evictor-500-containers $decide ms/decision $decode $ratio <=5"
