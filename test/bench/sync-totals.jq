# SPDX-License-Identifier: Apache-2.0
# sync-totals.jq - kilo-sync's per-node YARN totals in one jq pass, the peer
# of the kilo-sync benchmark:
#   jq -nr -f sync-totals.jq < cluster-stream
# reads the stream test/bench/gen-cluster.py writes (Node and Pod documents,
# one per line) and prints "node vCores memoryMB" for every node with a
# NodeManager pod, sorted by node name, as kilo-sync plan computes them:
# origin (the originExtendedAllocatable annotation, else
# status.allocatable) minus the effective requests of the node's pods that
# are neither Succeeded nor Failed (max(sum of containers, largest init
# container) + overhead, a limit alone counting as the request), floored at
# 0, then vCores = floor(milli / 1000), memoryMB = floor(bytes / 2^20).
# Quantities: integers with an optional k M G T Ki Mi Gi Ti suffix (requests
# rounded up, origins down: they are whole units here).

def q:
  if . == null then 0
  else (capture("^(?<n>[0-9]+)(?<s>[a-zA-Z]*)$") // error("quantity \(.)")) as $m
  | ($m.n | tonumber) * ({"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12,
                          "Ki": 1024, "Mi": 1048576, "Gi": 1073741824,
                          "Ti": 1099511627776}[$m.s] // error("suffix \($m.s)"))
  end;

def creq($r): (.resources.requests[$r] // .resources.limits[$r]) | q;

def podreq($r):
  ([.spec.containers[]? | creq($r)] | add // 0) as $sum
  | ([.spec.initContainers[]? | creq($r)] | max // 0) as $init
  | ([$sum, $init] | max) + (.spec.overhead[$r] | q);

def origin:
  (.metadata.annotations["node.koordinator.sh/originExtendedAllocatable"]
   | if . then fromjson.resources else null end) // .status.allocatable;

# One small record [node, cpu, memory, NodeManager?] per document, made
# outside the reduce body and summed per node at the end: in jq 1.6 any
# update of the accumulator while it is still referenced (an `as` binding,
# `.[$n].cpu += x`, setpath on an existing key) copies all of it, which
# makes the obvious programs quadratic in nodes.
def record:
  if .kind == "Node" then
    origin as $o
    | [.metadata.name, ($o["kubernetes.io/batch-cpu"] | q),
       ($o["kubernetes.io/batch-memory"] | q), false]
  elif .kind == "Pod" and (.spec.nodeName // "") != ""
       and (.status.phase | . != "Succeeded" and . != "Failed") then
    [.spec.nodeName, (podreq("kubernetes.io/batch-cpu") | -.),
     (podreq("kubernetes.io/batch-memory") | -.),
     .metadata.labels["app.kubernetes.io/component"] == "node-manager"]
  else empty end;

reduce (inputs | record) as $r ([]; . + [$r])
| group_by(.[0])[] | select(any(.[3]))
| "\(.[0][0]) \([(map(.[1]) | add), 0] | max / 1000 | floor) \([(map(.[2]) | add), 0] | max / 1048576 | floor)"
