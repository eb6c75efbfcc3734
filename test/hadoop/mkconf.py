#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""mkconf.py - Hadoop configuration for a real YARN cluster on loopback.

    mkconf.py WORK [--rms 2] [--nms 2] [--nm-memory-mb 8192] [--nm-vcores 8]
              [--rm-spnego KEYTAB PRINCIPAL]

--rm-spnego puts the RMs' web apps behind Hadoop's Kerberos HTTP
authentication (AuthenticationFilterInitializer, type kerberos, the HTTP/
principal's key from KEYTAB); RPC stays simple.

Each daemon runs in its own JVM from its own conf dir (the conf dir is the
first classpath entry, as the `yarn` script does), because Guice's servlet
filter is one per JVM: several web apps in one JVM (MiniYARNCluster) all
answer with the routes of the last one started.

Writes WORK/conf-rmN/, WORK/conf-nmN/, WORK/conf-client/ (yarn-site.xml,
core-site.xml, log4j.properties) and WORK/cluster.json:

  {"rms":[{"id":"rm1","url":"http://127.0.0.1:P","conf":DIR}...],
   "nms":[{"nodeId":"127.0.0.2:P","host":"127.0.0.2","url":"http://127.0.0.2:P",
           "conf":DIR,"localDirs":DIR}...],
   "client":DIR, "exclude":FILE}

RMs listen on 127.0.0.1 at fixed free ports (a standby can build its
redirect only then); NodeManager N listens on 127.0.0.(N+1), so each has a
host of its own (an exclude entry is a host) and node ids look like real
host:port ids. HA has automatic failover off: both RMs start standby and the
test makes one active with `rmadmin -transitionToActive`.
"""
import argparse
import json
import os
import socket
import xml.etree.ElementTree as ET

p = argparse.ArgumentParser()
p.add_argument("work")
p.add_argument("--rms", type=int, default=2)
p.add_argument("--nms", type=int, default=2)
p.add_argument("--nm-memory-mb", default="8192")
p.add_argument("--nm-vcores", default="8")
p.add_argument("--rm-spnego", nargs=2, metavar=("KEYTAB", "PRINCIPAL"))
a = p.parse_args()
work = os.path.abspath(a.work)
here = os.path.dirname(os.path.abspath(__file__))
held = []


def port(host):
    s = socket.socket()
    s.bind((host, 0))
    held.append(s)  # held until every port is chosen: no two the same
    return s.getsockname()[1]


def write(d, name, props):
    root = ET.Element("configuration")
    for k, v in props.items():
        e = ET.SubElement(root, "property")
        ET.SubElement(e, "name").text = k
        ET.SubElement(e, "value").text = str(v)
    ET.ElementTree(root).write(os.path.join(d, name), encoding="utf-8", xml_declaration=True)


def confdir(name, site, core=None):
    d = os.path.join(work, "conf-" + name)
    os.makedirs(d, exist_ok=True)
    write(d, "yarn-site.xml", site)
    write(d, "core-site.xml", dict({"hadoop.tmp.dir": os.path.join(work, "tmp-" + name),
                                    "hadoop.security.authentication": "simple"}, **(core or {})))
    with open(os.path.join(here, "log4j.properties")) as src, \
            open(os.path.join(d, "log4j.properties"), "w") as dst:
        dst.write(src.read())
    return d


exclude = os.path.join(work, "exclude")
open(exclude, "w").close()
common = {
    "yarn.resourcemanager.nodes.exclude-path": exclude,
    "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms": 300,
    "yarn.resourcemanager.decommissioning-nodes-watcher.poll-interval-secs": 1,
    "yarn.resourcemanager.am.max-attempts": 1,
    "yarn.scheduler.minimum-allocation-mb": 128,
    "yarn.scheduler.capacity.root.queues": "default",
    "yarn.scheduler.capacity.root.default.capacity": 100,
    "yarn.scheduler.capacity.root.default.maximum-capacity": 100,
    "yarn.client.failover-sleep-base-ms": 100,
    "yarn.client.failover-sleep-max-ms": 500,
    "yarn.resourcemanager.connect.retry-interval.ms": 200,
}
rm_keys = ["address", "scheduler.address", "resource-tracker.address", "admin.address",
           "webapp.address", "webapp.https.address"]
ids = ["rm%d" % (i + 1) for i in range(a.rms)]
rmaddr = {}
for rid in ids:
    for k in rm_keys:
        addr = "127.0.0.1:%d" % port("127.0.0.1")
        key = "yarn.resourcemanager." + k
        common[key + "." + rid if a.rms > 1 else key] = addr
        rmaddr[(rid, k)] = addr
if a.rms > 1:
    common.update({
        "yarn.resourcemanager.ha.enabled": "true",
        "yarn.resourcemanager.ha.rm-ids": ",".join(ids),
        "yarn.resourcemanager.ha.automatic-failover.enabled": "false",
        "yarn.resourcemanager.ha.automatic-failover.embedded": "false",
        "yarn.resourcemanager.cluster-id": "kilo-test",
    })
info = {"rms": [], "nms": [], "exclude": exclude}
for rid in ids:
    site = dict(common)
    if a.rms > 1:
        site["yarn.resourcemanager.ha.id"] = rid
    core = None
    if a.rm_spnego:
        core = {
            "hadoop.http.filter.initializers":
                "org.apache.hadoop.security.AuthenticationFilterInitializer",
            "hadoop.http.authentication.type": "kerberos",
            "hadoop.http.authentication.kerberos.keytab": os.path.abspath(a.rm_spnego[0]),
            "hadoop.http.authentication.kerberos.principal": a.rm_spnego[1],
            "hadoop.http.authentication.simple.anonymous.allowed": "false",
        }
    info["rms"].append({"id": rid, "url": "http://" + rmaddr[(rid, "webapp.address")],
                        "conf": confdir(rid, site, core)})
for i in range(a.nms):
    host = "127.0.0.%d" % (i + 2)
    n = "nm%d" % (i + 1)
    nmport, web = port(host), port(host)
    local = os.path.join(work, n, "local")
    logs = os.path.join(work, n, "logs")
    site = dict(common)
    site.update({
        "yarn.nodemanager.address": "%s:%d" % (host, nmport),
        "yarn.nodemanager.webapp.address": "%s:%d" % (host, web),
        "yarn.nodemanager.localizer.address": "%s:%d" % (host, port(host)),
        "yarn.nodemanager.hostname": host,
        "yarn.nodemanager.local-dirs": local,
        "yarn.nodemanager.log-dirs": logs,
        "yarn.nodemanager.resource.memory-mb": a.nm_memory_mb,
        "yarn.nodemanager.resource.cpu-vcores": a.nm_vcores,
        "yarn.nodemanager.disk-health-checker.enable": "false",
        "yarn.nodemanager.pmem-check-enabled": "false",
        "yarn.nodemanager.vmem-check-enabled": "false",
        "yarn.nodemanager.delete.debug-delay-sec": 0,
        "yarn.nodemanager.recovery.enabled": "false",
    })
    info["nms"].append({"id": n, "nodeId": "%s:%d" % (host, nmport), "host": host,
                        "url": "http://%s:%d" % (host, web), "conf": confdir(n, site),
                        "localDirs": local})
info["client"] = confdir("client", common)
for s in held:
    s.close()
with open(os.path.join(work, "cluster.json"), "w") as f:
    json.dump(info, f, indent=1)
