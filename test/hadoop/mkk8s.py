#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""mkk8s.py - the Kubernetes side of a real-YARN test, for the fake API server.

    mkk8s.py FIXTURES CLUSTER_JSON CLUSTER_ID OUT [CPU_MILLI:MEMORY_BYTES ...]

One Node worker-N per NodeManager of CLUSTER_JSON (test/hadoop/mkconf.py),
made from FIXTURES/k8s/node-batch.json with the Nth origin Batch allocatable
(default 8000 milli-cores and 16 GiB), and on it the NodeManager pod
yarn-nm-N (from podlist-mixed.json's yarn-nm-0, with hostNetwork: the
Node's InternalIP and the pod's IP are the NodeManager's host) whose
annotations name CLUSTER_ID and the real node id. Writes a List to OUT.
"""
import copy
import json
import sys

fix, cluster, cid, out = sys.argv[1:5]
sizes = sys.argv[5:]
nms = json.load(open(cluster))["nms"]
node0 = json.load(open(fix + "/k8s/node-batch.json"))
nm0 = [p for p in json.load(open(fix + "/k8s/podlist-mixed.json"))["items"]
       if p["metadata"]["name"] == "yarn-nm-0"][0]
items = []
for i, nm in enumerate(nms):
    cpu, mem = (sizes[i] if i < len(sizes) else "8000:17179869184").split(":")
    n = copy.deepcopy(node0)
    name = "worker-%d" % (i + 1)
    n["metadata"]["name"] = name
    ann = n["metadata"]["annotations"]
    ann["node.koordinator.sh/originExtendedAllocatable"] = json.dumps(
        {"resources": {"kubernetes.io/batch-cpu": cpu, "kubernetes.io/batch-memory": mem}})
    ann["node.koordinator.sh/thirdPartyAllocations"] = json.dumps({"allocations": []})
    # the NodeManager runs with hostNetwork: its host is the Node's address
    n["status"]["addresses"] = [{"type": "InternalIP", "address": nm["host"]},
                                {"type": "Hostname", "address": name}]
    items.append(n)
    p = copy.deepcopy(nm0)
    p["spec"]["hostNetwork"] = True
    p["status"]["hostIP"] = p["status"]["podIP"] = nm["host"]
    p["status"]["podIPs"] = [{"ip": nm["host"]}]
    p.update(kind="Pod", apiVersion="v1")
    p["metadata"]["name"] = "yarn-nm-%d" % (i + 1)
    p["metadata"]["uid"] = "0000-yarn-nm-%d" % (i + 1)
    p["spec"]["nodeName"] = name
    p["metadata"]["annotations"]["yarn.hadoop.apache.org/cluster-id"] = cid
    p["metadata"]["annotations"]["yarn.hadoop.apache.org/node-id"] = nm["nodeId"]
    items.append(p)
json.dump({"kind": "List", "apiVersion": "v1", "items": items}, open(out, "w"))
