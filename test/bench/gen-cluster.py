#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""gen-cluster.py NODES [PODS_PER_NODE] - a cluster stream for kilo-sync's
benchmark on stdout, the documents `kilo-sync plan --from -` reads:

  NODES Node objects, one per line (the fixture node-batch.json renamed; half
  with the originExtendedAllocatable annotation, half with status.allocatable
  only), then PODS_PER_NODE (default 30) Pods per node, one per line, in the
  order an API server lists them (by namespace and name, so a node's pods are
  spread over the stream), then one RM node list ({"nodes":{"node":[...]}},
  cluster default).

Pods are about 3.5 KB, like real ones: labels, annotations, ownerReferences,
managedFields, env, volume mounts, tolerations, conditions and container
statuses.  Per node: one NodeManager pod (label
app.kubernetes.io/component=node-manager, node-id annotation), 12 Batch
executors (requests or limits only of kubernetes.io/batch-cpu/-memory), one
with an init container, one Succeeded, the rest Kubernetes services without
Batch resources.  Deterministic: the same arguments give the same bytes.
Python 3 standard library only.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures", "k8s")


def template(doc):
    """doc as one JSON line, with "@key@" strings turned into %(key)s fields."""
    text = json.dumps(doc, separators=(",", ":")).replace("%", "%%")
    for key in ("name", "ns", "node", "uid", "app", "cpu", "mem", "phase", "ip", "idx",
                "nmid", "res"):
        text = text.replace("@%s@" % key, "%%(%s)s" % key)
    return text


def managed_fields(manager):
    env = {"k:{\"name\":\"%s\"}" % n: {".": {}, "f:name": {}, "f:value": {}}
           for n in ("APP_ENV", "LOG_LEVEL", "JAVA_OPTS", "POD_IP", "SPARK_CONF_DIR")}
    return [{"manager": manager, "operation": "Update", "apiVersion": "v1",
             "time": "2026-11-29T15:00:00Z", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}, "f:tier": {}}},
                          "f:spec": {"f:containers": {"k:{\"name\":\"main\"}": {
                              ".": {}, "f:env": dict(env, **{".": {}}), "f:image": {},
                              "f:resources": {".": {}, "f:limits": {}, "f:requests": {}}}}}}},
            {"manager": "kubelet", "operation": "Update", "apiVersion": "v1",
             "time": "2026-11-29T15:00:05Z", "fieldsType": "FieldsV1", "subresource": "status",
             "fieldsV1": {"f:status": {"f:conditions": {
                 "k:{\"type\":\"%s\"}" % t: {".": {}, "f:status": {}, "f:type": {}}
                 for t in ("ContainersReady", "Initialized", "Ready")},
                 "f:containerStatuses": {}, "f:podIP": {}, "f:startTime": {}}}}]


def pod(resources, labels, annotations=None, init=None, phase="@phase@"):
    main = {"name": "main", "image": "registry.example.com/@app@:1.27.3",
            "args": ["--config=/etc/@app@/config.yaml", "--port=8080"],
            "env": [{"name": "APP_ENV", "value": "production"},
                    {"name": "LOG_LEVEL", "value": "info"},
                    {"name": "JAVA_OPTS", "value": "-XX:+UseG1GC -XX:MaxRAMPercentage=75"},
                    {"name": "POD_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}},
                    {"name": "SPARK_CONF_DIR", "value": "/opt/spark/conf"}],
            "resources": resources,
            "volumeMounts": [{"name": "config", "mountPath": "/etc/@app@"},
                             {"name": "data", "mountPath": "/var/data"},
                             {"name": "kube-api-access-@idx@",
                              "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                              "readOnly": True}],
            "terminationMessagePath": "/dev/termination-log",
            "terminationMessagePolicy": "File", "imagePullPolicy": "IfNotPresent"}
    spec = {"containers": [main], "restartPolicy": "Always", "nodeName": "@node@",
            "serviceAccountName": "default", "schedulerName": "koord-scheduler",
            "priority": 5000, "priorityClassName": "koord-batch",
            "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists",
                             "effect": "NoExecute", "tolerationSeconds": 300},
                            {"key": "node.kubernetes.io/unreachable", "operator": "Exists",
                             "effect": "NoExecute", "tolerationSeconds": 300}],
            "volumes": [{"name": "config", "configMap": {"name": "@app@-config"}},
                        {"name": "data", "emptyDir": {}}]}
    if init:
        spec["initContainers"] = [{"name": "init", "image": "busybox:1.36",
                                   "resources": init}]
    meta = {"name": "@name@", "namespace": "@ns@", "uid": "@uid@",
            "resourceVersion": "58@idx@", "creationTimestamp": "2026-11-29T15:00:00Z",
            "labels": dict({"app": "@app@", "tier": "backend",
                            "pod-template-hash": "6d9c7b8f5d"}, **labels),
            "annotations": dict({"kubectl.kubernetes.io/restartedAt": "2026-11-20T10:00:00Z"},
                                **(annotations or {})),
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
                                 "name": "@app@-6d9c7b8f5d", "uid": "@uid@",
                                 "controller": True, "blockOwnerDeletion": True}],
            "managedFields": managed_fields("kube-controller-manager")}
    status = {"phase": phase, "hostIP": "10.0.@ip@", "podIP": "10.244.@ip@",
              "startTime": "2026-11-29T15:00:01Z", "qosClass": "BestEffort",
              "conditions": [{"type": t, "status": "True", "lastProbeTime": None,
                              "lastTransitionTime": "2026-11-29T15:00:04Z"}
                             for t in ("Initialized", "Ready", "ContainersReady",
                                       "PodScheduled")],
              "containerStatuses": [{"name": "main", "ready": True, "restartCount": 0,
                                     "image": "registry.example.com/@app@:1.27.3",
                                     "imageID": "registry.example.com/@app@@sha256:5f8a2b8f1c3d",
                                     "containerID": "containerd://@uid@",
                                     "started": True,
                                     "state": {"running": {
                                         "startedAt": "2026-11-29T15:00:03Z"}}}]}
    return template({"kind": "Pod", "apiVersion": "v1", "metadata": meta, "spec": spec,
                     "status": status})


BATCH_REQ = {"requests": {"kubernetes.io/batch-cpu": "@cpu@", "kubernetes.io/batch-memory": "@mem@"},
             "limits": {"kubernetes.io/batch-cpu": "@cpu@", "kubernetes.io/batch-memory": "@mem@"}}
BATCH_LIM = {"limits": {"kubernetes.io/batch-cpu": "@cpu@", "kubernetes.io/batch-memory": "@mem@"}}
LS = {"requests": {"cpu": "@cpu@m", "memory": "@mem@"}, "limits": {"memory": "@mem@"}}

NM = pod(BATCH_REQ, {"app.kubernetes.io/component": "node-manager", "koordinator.sh/qosClass": "BE"},
         {"yarn.hadoop.apache.org/node-id": "@nmid@"})
BATCH = pod(BATCH_REQ, {"koordinator.sh/qosClass": "BE", "spark-role": "executor"})
BATCH_LIMIT_ONLY = pod(BATCH_LIM, {"koordinator.sh/qosClass": "BE", "spark-role": "executor"})
BATCH_INIT = pod(BATCH_REQ, {"koordinator.sh/qosClass": "BE"},
                 init={"requests": {"kubernetes.io/batch-cpu": "6k",
                                    "kubernetes.io/batch-memory": "1Gi"}})
SERVICE = pod(LS, {"koordinator.sh/qosClass": "LS"})


def main():
    nodes = int(sys.argv[1])
    per_node = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    out = sys.stdout
    with open(os.path.join(FIX, "node-batch.json"), encoding="utf-8") as f:
        node = json.load(f)
    del node["metadata"]["annotations"]["node.koordinator.sh/thirdPartyAllocations"]
    with_origin = template(dict(node, metadata=dict(node["metadata"], name="@name@")))
    del node["metadata"]["annotations"]["node.koordinator.sh/originExtendedAllocatable"]
    plain = template(dict(node, metadata=dict(node["metadata"], name="@name@")))
    names = ["worker-%05d" % i for i in range(nodes)]
    for i, n in enumerate(names):
        out.write((with_origin if i % 2 == 0 else plain) % {"name": n} + "\n")
    for j in range(per_node):
        for i, n in enumerate(names):
            v = {"node": n, "idx": "%d%d" % (j, i), "uid": "%08x-4e2d-4c7b-9a1f-%012x" % (i, j),
                 "ip": "%d.%d" % (i // 250, i % 250), "phase": "Running", "app": "svc-%d" % j,
                 "ns": "team-%d" % (j % 7), "name": "svc-%d-%s" % (j, n), "nmid": "",
                 "cpu": "500", "mem": "1Gi"}
            if j == 0:
                v.update(ns="hadoop-yarn", name="yarn-nm-" + n, app="yarn-nm", cpu="2k", mem="4Gi",
                         nmid=n + ":8041")
                tpl = NM
            elif j <= 12:
                v.update(ns="spark", name="exec-%d-%s" % (j, n), app="spark-exec",
                         cpu=("1k", "2k", "1500")[j % 3], mem=("2Gi", "4505Mi", "3Gi")[j % 3])
                tpl = BATCH_LIMIT_ONLY if j % 4 == 0 else BATCH
            elif j == 13:
                v.update(ns="spark", name="prep-%s" % n, app="spark-prep", cpu="2k", mem="2Gi")
                tpl = BATCH_INIT
            elif j == 14:
                v.update(ns="spark", name="done-%s" % n, app="spark-done", cpu="8k",
                         mem="16Gi", phase="Succeeded")
                tpl = BATCH
            else:
                tpl = SERVICE
            out.write(tpl % v + "\n")
    rm_nodes = [{"id": n + ":8041", "state": "RUNNING", "nodeHostName": n,
                 "usedMemoryMB": 4096, "usedVirtualCores": 2, "numContainers": 2,
                 "totalResource": {"memory": 40960, "vCores": 20}} for n in names]
    out.write(json.dumps({"nodes": {"node": rm_nodes}}, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
