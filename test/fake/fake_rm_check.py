#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""fake_rm_check - prove fake_rm.py answers in the shapes of the real RM.

The node list, one node and the resize answer have exactly the keys and
JSON types (recursively) of Hadoop 3.4.2's own answers, captured by
test/hadoop/tests/shapes.sh into test/fixtures/yarn/hadoop-3.4.2 (that test
compares the fake with the real RM itself where Java is installed; this one
runs everywhere).  The old node shape (config totalResource false) keeps
every key of the documented example (rm-nodes.json) and drops the three
newer resource objects.  Prints one line per check and exits 1 on the first
mismatch.
"""
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures", "yarn")
REAL = "hadoop-3.4.2"
NEWER_NODE_KEYS = {"totalResource", "usedResource", "availableResource"}
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}),
                                     type("NoRedirect", (urllib.request.HTTPRedirectHandler,),
                                          {"redirect_request": lambda *a, **k: None})())


def fixture(name):
    with open(os.path.join(FIXTURES, name), encoding="utf-8") as f:
        return json.load(f)


def kind(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number" if isinstance(v, float) else "integer"
    return type(v).__name__


def same_shape(want, got, where, extra_ok=frozenset(), exact=False):
    """Every key of want is in got with the same type; got's extra keys
    must be in extra_ok (or none at all when exact)."""
    numbers = {"number", "integer"}  # JSON has one number type; 0 and 0.0 both occur
    if kind(want) != kind(got) and not {kind(want), kind(got)} <= numbers:
        raise AssertionError("%s: type %s, fixture has %s" % (where, kind(got), kind(want)))
    if isinstance(want, dict):
        for k, v in want.items():
            if k not in got:
                raise AssertionError("%s.%s: missing" % (where, k))
            same_shape(v, got[k], where + "." + k, extra_ok, exact)
        extra = set(got) - set(want)
        allowed = set() if exact else set(extra_ok)
        if extra - allowed:
            raise AssertionError("%s: keys %s not in the fixture" % (where, sorted(extra - allowed)))
    elif isinstance(want, list) and want and got:
        for i, g in enumerate(got):
            same_shape(want[0], g, "%s[%d]" % (where, i), extra_ok, exact)


def call(base, method, path, body=None, ctype="application/json"):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", ctype)
    try:
        with OPENER.open(req, timeout=10) as r:
            return r.status, r.headers, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read().decode()


def check(name, fn):
    fn()
    print("ok   " + name)


def main():
    proc = subprocess.Popen([sys.executable, os.path.join(HERE, "fake_rm.py")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        urls = json.loads(proc.stdout.readline())
        rm1, rm2, ctl = urls["rm1"], urls["rm2"], urls["control"]

        def config(**kw):
            assert call(ctl, "POST", "/config", kw)[0] == 200

        def info():
            st, h, body = call(rm1, "GET", "/ws/v1/cluster/info")
            assert st == 200 and h["Content-Type"] == "application/json", (st, h)
            same_shape(fixture("rm-cluster-info.json"), json.loads(body), "info", exact=True)
            st, _, body = call(rm2, "GET", "/ws/v1/cluster/info")
            assert json.loads(body)["clusterInfo"]["haState"] == "STANDBY"
            config(haState=False)
            _, _, body = call(rm1, "GET", "/ws/v1/cluster/info")
            same_shape(fixture("rm-cluster-info-legacy.json"), json.loads(body), "legacy info",
                       exact=True)
            config(haState=True)

        def nodes():
            want = fixture(REAL + "/nodes.json")
            _, _, body = call(rm1, "GET", "/ws/v1/cluster/nodes")
            got = json.loads(body)
            running = [n for n in got["nodes"]["node"] if n["state"] == "RUNNING"]
            inactive = [n for n in got["nodes"]["node"] if n["state"] != "RUNNING"]
            same_shape(want, {"nodes": {"node": running}}, "nodes", exact=True)
            same_shape(fixture(REAL + "/nodes-decommissioned.json"),
                       {"nodes": {"node": inactive}}, "inactive nodes", exact=True)
            assert running and all("totalResource" in n for n in running)
            config(totalResource=False)
            _, _, body = call(rm1, "GET", "/ws/v1/cluster/nodes")
            old = json.loads(body)
            same_shape(fixture("rm-nodes.json"), old, "old nodes",
                       extra_ok=set(want["nodes"]["node"][0]) - NEWER_NODE_KEYS)
            assert not any(k in n for n in old["nodes"]["node"] for k in NEWER_NODE_KEYS)
            config(totalResource=True)
            _, _, body = call(rm1, "GET", "/ws/v1/cluster/nodes?states=lost")
            lost = json.loads(body)["nodes"]["node"]
            assert [n["state"] for n in lost] == ["LOST"] and lost[0]["nodeHTTPAddress"] == ""
            _, _, body = call(rm1, "GET", "/ws/v1/cluster/nodes?states=NEW")
            assert json.loads(body) == fixture(REAL + "/nodes-empty.json") == {"nodes": {}}

        def node():
            _, _, body = call(rm1, "GET", "/ws/v1/cluster/nodes/host1.domain.com:8041")
            same_shape(fixture(REAL + "/node.json"), json.loads(body), "node", exact=True)

        def resize():
            st, h, body = call(rm1, "POST", "/ws/v1/cluster/nodes/host2.domain.com:8041/resource",
                               fixture("rm-node-resource-request.json"))
            assert st == 200 and h["Content-Type"] == "application/json", (st, body)
            got = json.loads(body)
            same_shape(fixture(REAL + "/resize.json"), got, "resize", exact=True)
            asked = fixture("rm-node-resource-request.json")["resource"]
            assert [got["resourceInfo"]["memory"], got["resourceInfo"]["vCores"]] == \
                [asked["memory"], asked["vCores"]], got  # the total asked for, as Hadoop 3.4
            st, _, _ = call(rm1, "POST", "/ws/v1/cluster/nodes/host2.domain.com:8041/resource",
                            fixture("rm-node-resource-request.json"), "text/plain")
            assert st == 415, st

        def errors():
            st, h, body = call(rm1, "GET", "/ws/v1/cluster/nodes/nope:1")
            doc = json.loads(body)
            assert st == 404 and h["Content-Type"] == "application/json"
            assert sorted(doc["RemoteException"]) == ["exception", "javaClassName", "message"]
            config(endpoint="missing404")
            st, h, body = call(rm1, "POST", "/ws/v1/cluster/nodes/nope:1/resource", {})
            assert st == 404 and h["Content-Type"].startswith("text/html") and "<html>" in body
            config(endpoint="present")

        def standby():
            st, h, body = call(rm2, "GET", "/ws/v1/cluster/nodes?user.name=a")
            assert st == 307 and h["Location"] == rm1 + "/ws/v1/cluster/nodes?user.name=a"
            assert body == "This is standby RM. The redirect url is: " + h["Location"]
            config(active=None, noActive="retrying")
            st, h, body = call(rm2, "GET", "/ws/v1/cluster/nodes")
            assert st == 307 and "Location" not in h and body.startswith("Can not find any")
            config(noActive="exhausted")
            st, h, body = call(rm1, "GET", "/ws/v1/cluster/nodes")
            assert st == 200 and h["Content-Type"].startswith("text/plain")
            assert body.startswith("There is no active RM right now.")

        for name, fn in (("cluster info", info), ("nodes", nodes), ("node", node),
                         ("resize", resize), ("errors", errors), ("standby", standby)):
            check(name, fn)
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print("FAIL: %s" % e)
        sys.exit(1)
