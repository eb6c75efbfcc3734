#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""fake_rm - a YARN ResourceManager HA pair on 127.0.0.1, for tests.

Behaves like the real RM in everything kilo's client can observe
(yarn-interfaces.md sections 1-3; payload shapes from test/fixtures/yarn and
the captures of Hadoop's own RM in test/fixtures/yarn/hadoop-3.4.2, which
test/hadoop/tests/shapes.sh holds this fake to):

  GET  /ws/v1/cluster/info              clusterInfo with haState (never redirected)
  GET  /ws/v1/cluster/nodes[?states=]   {"nodes":{"node":[...]}}, {"nodes":{}} when empty
  GET  /ws/v1/cluster/nodes/{id}        {"node":{...}}; unknown id 404 RemoteException
  POST /ws/v1/cluster/nodes/{id}/resource
       {"resource":{"memory":MB,"vCores":n},"overCommitTimeout":ms}: 200
       {"resourceInfo":{...}} with the total asked for; the new total is
       applied apply_delay_ms later (asynchronous, like RMNodeResourceUpdateEvent)

A standby answers 307 to the active RM for every path but /ws/v1/cluster/info
(body "This is standby RM. The redirect url is: ...").  With no active RM a
standby answers 307 without Location ("retrying") or a plain-text 200
("exhausted").

The process prints one JSON line on stdout once listening (and writes it
to --urls-file when given):
  {"rm1":"http://127.0.0.1:P1","rm2":"http://127.0.0.1:P2","control":"http://127.0.0.1:P3"}
and exits when stdin reaches end of file (the test went away; not with
--ignore-stdin), on POST /shutdown, or after --lifetime seconds.
--nodes-file FILE starts with that node list (the POST /nodes shape).

Control API (plain HTTP on the control port, JSON bodies):
  GET  /log             every request the RMs got, in order
  GET  /state           config, nodes, resizes
  POST /config          merge keys: active ("rm1"|"rm2"|null), noActive
                        ("retrying"|"exhausted"), haState (false: omit it, an old
                        RM), totalResource (false: old node shape),
                        endpoint ("present"|"missing404"|"missing405"),
                        applyDelayMs, requireUserName, acceptWithoutApply,
                        redirectTo (a base URL: every RM, the active one too,
                        answers 307 there for every path but cluster/info)
  POST /failover        swap the active and the standby
  POST /nodes           replace the node list: [{"id","state","memoryMB","vCores",
                        "usedMemoryMB","usedVCores","containers"}]
  POST /restart         the RMs restart: every resize is forgotten, startedOn moves on
  POST /rmadmin         {"node","memory","vCores","overCommitTimeout"}: what
                        `yarn rmadmin -updateNodeResource` does (the admin RPC,
                        no web endpoint): applied at once, logged as rm "rmadmin";
                        404 {"error"} for a node the RM does not list
  POST /fault           {"rm":"rm1"|"rm2"|"any","path":PREFIX,"method":M,
                        "status":500,"retryAfter":S|"delayMs":N|"drop":true,"count":N}
                        "body":JSON answers that document (200 unless "status");
                        {"clear":true} removes every fault
  POST /shutdown

--spnego-keytab KEYTAB puts both RMs behind SPNEGO as Hadoop's
AuthenticationFilter with hadoop.http.authentication.type kerberos does
(python3-gssapi, a real GSS-API acceptor over MIT krb5 with the keys of
KEYTAB, reread at each token: a swapped keytab takes effect at once): a
request without a valid hadoop.auth cookie of that RM and without
"Authorization: Negotiate" gets 401 "WWW-Authenticate: Negotiate"; a token
the acceptor refuses gets spnegoRefuseStatus (config, default 403 as
Hadoop) with "GSSException: ..."; an accepted one is answered as usual with
a hadoop.auth cookie (valid for that RM only).  The log then records
"auth" ("none", "negotiate", "cookie", "refused"), "principal" and
"foreignCookie" (a hadoop.auth cookie this RM did not issue) instead of the
Authorization and Cookie headers.
"""
import argparse
import copy
import json
import os
import select
import socket
import ssl
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

INACTIVE = ("DECOMMISSIONED", "LOST", "SHUTDOWN", "REBOOTED")
STATES = ("NEW", "RUNNING", "UNHEALTHY", "DECOMMISSIONING") + INACTIVE
NOT_REDIRECTED = ("/ws/v1/cluster/info", "/cluster/cluster", "/conf", "/stacks",
                  "/logLevel", "/logs", "/isActive")
JETTY_404 = ("<html>\n<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html; "
             "charset=ISO-8859-1\"/>\n<title>Error 404 Not Found</title>\n</head>\n"
             "<body><h2>HTTP ERROR 404</h2>\n<p>Problem accessing {path}. Reason:\n"
             "<pre>    Not Found</pre></p>\n</body>\n</html>\n")


def load(fixtures, name):
    with open(os.path.join(fixtures, name), encoding="utf-8") as f:
        return json.load(f)


# The answers of Hadoop's own RM that the fake's shapes come from
# (test/hadoop/tests/shapes.sh captures them and holds the fake to them):
# fixtures/hadoop-VERSION, VERSION from --hadoop.
REAL_DEFAULT = "3.4.2"


def set_resource(res, memory, vcores):
    """A ResourceInfo object with these numbers, resourceInformations too."""
    res["memory"], res["vCores"] = memory, vcores
    for ri in (res.get("resourceInformations") or {}).get("resourceInformation") or []:
        if ri.get("name") == "memory-mb":
            ri["value"] = memory
        elif ri.get("name") == "vcores":
            ri["value"] = vcores
    return res


def remote_exception(exception, message, java_class):
    return {"RemoteException": {"exception": exception, "message": message,
                                "javaClassName": java_class}}


class State:
    """Everything both RMs share (the cluster, as ZooKeeper and NMs see it)."""

    def __init__(self, fixtures, hadoop=REAL_DEFAULT):
        self.lock = threading.RLock()
        self.info = load(fixtures, "rm-cluster-info.json")["clusterInfo"]
        self.info_legacy = load(fixtures, "rm-cluster-info-legacy.json")["clusterInfo"]
        real = os.path.join(fixtures, "hadoop-" + hadoop)
        self.node_template = load(real, "node.json")["node"]
        self.resize_template = load(real, "resize.json")["resourceInfo"]
        self.config = {"active": "rm1", "noActive": "exhausted", "haState": True,
                       "totalResource": True, "endpoint": "present", "applyDelayMs": 200,
                       "requireUserName": False, "acceptWithoutApply": False,
                       "redirectTo": None, "spnegoRefuseStatus": 403}
        self.auth_cookies = {"rm1": set(), "rm2": set()}
        self.log = []
        self.faults = []
        self.resizes = []   # accepted POSTs, in order
        self.pending = []   # [due monotonic s, node id, memory, vCores]
        self.nodes = {}
        self.set_nodes([
            {"id": "host1.domain.com:8041", "state": "RUNNING", "memoryMB": 8192,
             "vCores": 8, "usedMemoryMB": 2048, "usedVCores": 2, "containers": 2},
            {"id": "host2.domain.com:8041", "state": "RUNNING", "memoryMB": 8192,
             "vCores": 8},
            {"id": "host3.domain.com:8041", "state": "LOST", "memoryMB": 8192,
             "vCores": 8},
        ])

    def set_nodes(self, nodes):
        self.nodes = {}
        for n in nodes:
            n = dict(n)
            n.setdefault("state", "RUNNING")
            if n["state"] not in STATES:
                raise ValueError("bad state %r" % n["state"])
            for k in ("usedMemoryMB", "usedVCores", "containers"):
                n.setdefault(k, 0)
            # What the NM registered with: a restart goes back to it.
            n["registeredMemoryMB"], n["registeredVCores"] = n["memoryMB"], n["vCores"]
            self.nodes[n["id"]] = n
        self.pending = []

    def restart(self):
        for n in self.nodes.values():
            n["memoryMB"], n["vCores"] = n["registeredMemoryMB"], n["registeredVCores"]
        self.pending = []
        # a new RM process: clusterInfo.startedOn moves on (kilo-sync tells a
        # restart by it, as a failover by the active RM's URL)
        self.info = dict(self.info, startedOn=int(time.time() * 1000))

    def apply_due(self):
        now = time.monotonic()
        keep = []
        for p in self.pending:
            if p[0] <= now and p[1] in self.nodes:
                self.nodes[p[1]]["memoryMB"], self.nodes[p[1]]["vCores"] = p[2], p[3]
            else:
                keep.append(p)
        self.pending = keep

    def node_json(self, n):
        """A NodeInfo object in the shape of the real RM's, with our numbers."""
        out = copy.deepcopy(self.node_template)
        host = n["id"].rsplit(":", 1)[0]
        inactive = n["state"] in INACTIVE
        used_mb, used_vc = (0, 0) if inactive else (n["usedMemoryMB"], n["usedVCores"])
        total_mb, total_vc = (0, 0) if inactive else (n["memoryMB"], n["vCores"])
        out.update({
            "state": n["state"], "id": n["id"], "nodeHostName": host,
            # Inactive nodes come from getInactiveRMNodes with an empty address.
            "nodeHTTPAddress": "" if inactive else host + ":8042",
            "numContainers": 0 if inactive else n["containers"],
            "usedMemoryMB": used_mb, "availMemoryMB": total_mb - used_mb,
            "usedVirtualCores": used_vc, "availableVirtualCores": total_vc - used_vc,
        })
        if not self.config["totalResource"]:
            for k in ("usedResource", "availableResource", "totalResource"):
                out.pop(k, None)
        elif inactive:
            # Hadoop 3.4: an inactive node keeps its last totalResource (used
            # and available read 0) and has no usedResource/availableResource
            # (test/fixtures/yarn/hadoop-3.4.2/node-decommissioned.json)
            set_resource(out["totalResource"], n["memoryMB"], n["vCores"])
            out.pop("usedResource", None)
            out.pop("availableResource", None)
        else:
            set_resource(out["usedResource"], used_mb, used_vc)
            set_resource(out["availableResource"], total_mb - used_mb, total_vc - used_vc)
            set_resource(out["totalResource"], total_mb, total_vc)
        return out

    def role(self, rm):
        return "ACTIVE" if self.config["active"] == rm else "STANDBY"


class RMHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body are two writes: without TCP_NODELAY the body of a
    # kept-alive connection waits for the client's delayed ACK (40 ms).
    disable_nagle_algorithm = True
    server_version = "Jetty(9.4.20)"
    sys_version = ""

    def log_message(self, fmt, *args):
        pass

    def version_string(self):
        return self.server_version

    @property
    def st(self):
        return self.server.state

    def send(self, status, body, content_type="application/json", headers=()):
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
        data = body.encode("utf-8") if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for k, v in list(headers) + getattr(self, "auth_headers", []):
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)
        return status

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_PUT(self):
        self.handle_any("PUT")

    def do_PATCH(self):
        self.handle_any("PATCH")

    def do_DELETE(self):
        self.handle_any("DELETE")

    def handle_any(self, method):
        url = urllib.parse.urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        entry = {"rm": self.server.name, "peerPort": self.client_address[1],
                 "method": method, "path": url.path,
                 "query": url.query, "body": body,
                 "headers": {k.lower(): v for k, v in self.headers.items()}}
        self.auth_headers = []
        if self.server.spnego and not self.spnego(entry):
            with self.st.lock:
                entry["role"] = self.st.role(self.server.name)
                self.st.log.append(entry)
            return
        with self.st.lock:
            entry["role"] = self.st.role(self.server.name)
            self.st.log.append(entry)
            fault = self.take_fault(method, url.path)
        if fault and fault.get("delayMs"):
            time.sleep(fault["delayMs"] / 1000.0)
        if fault and fault.get("drop"):
            entry["status"] = "dropped"
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if fault and "body" in fault:  # any JSON answer, 200 unless status is given
            entry["status"] = self.send(fault.get("status", 200), fault["body"])
            return
        if fault and fault.get("status"):
            retry = [("Retry-After", str(fault["retryAfter"]))] if "retryAfter" in fault else []
            entry["status"] = self.send(fault["status"], remote_exception(
                "WebApplicationException", "injected fault",
                "javax.ws.rs.WebApplicationException"), headers=retry)
            return
        with self.st.lock:
            self.st.apply_due()
            entry["status"] = self.route(method, url, body)

    def spnego(self, entry):
        """Hadoop's AuthenticationFilter (KerberosAuthenticationHandler):
        True when the request may go on, else the answer was sent."""
        import base64
        import http.cookies
        import gssapi
        authz = self.headers.get("Authorization") or ""
        jar = http.cookies.SimpleCookie(self.headers.get("Cookie") or "")
        for k in ("authorization", "cookie"):
            entry["headers"].pop(k, None)
        mine = self.st.auth_cookies[self.server.name]
        if "hadoop.auth" in jar and jar["hadoop.auth"].value in mine:
            entry["auth"] = "cookie"
            return True
        if "hadoop.auth" in jar:  # another RM's (or a forged) cookie: ignored, as Hadoop does
            entry["foreignCookie"] = True
        if not authz.startswith("Negotiate "):
            entry["auth"] = "none"
            entry["status"] = self.send(
                401, "<html><body><h2>HTTP ERROR 401</h2><p>Authentication required</p>"
                "</body></html>", "text/html;charset=iso-8859-1",
                [("WWW-Authenticate", "Negotiate")])
            return False
        try:
            ctx = gssapi.SecurityContext(usage="accept")
            out = ctx.step(base64.b64decode(authz[len("Negotiate "):]))
            if not ctx.complete:
                raise gssapi.exceptions.GSSError(0, 0)
        except gssapi.exceptions.GSSError as ex:
            entry["auth"] = "refused"
            entry["status"] = self.send(
                self.st.config["spnegoRefuseStatus"],
                "<html><body><h2>HTTP ERROR 403</h2><p>GSSException: %s</p></body></html>"
                % str(ex).replace("\n", " "), "text/html;charset=iso-8859-1")
            return False
        entry["auth"], entry["principal"] = "negotiate", str(ctx.initiator_name)
        value = "u=%s&p=%s&t=kerberos&e=%d&s=%s" % (
            entry["principal"].split("@")[0], entry["principal"],
            int(time.time() * 1000) + 36000000, os.urandom(16).hex())
        with self.st.lock:
            mine.add(value)
        self.auth_headers = [("Set-Cookie", 'hadoop.auth="%s"; Path=/; HttpOnly' % value)]
        if out:
            self.auth_headers.append(("WWW-Authenticate",
                                      "Negotiate " + base64.b64encode(out).decode()))
        return True

    def take_fault(self, method, path):
        for f in self.st.faults:
            if f.get("rm", "any") not in ("any", self.server.name):
                continue
            if not path.startswith(f.get("path", "/")) or f.get("method", method) != method:
                continue
            f["count"] = f.get("count", 1) - 1
            if f["count"] == 0:
                self.st.faults.remove(f)
            return f
        return None

    def route(self, method, url, body):
        st = self.st
        active = st.config["active"]
        if url.path not in NOT_REDIRECTED and st.config["redirectTo"]:
            # a compromised or misconfigured RM: every answer a 307 elsewhere
            target = st.config["redirectTo"] + self.path
            return self.send(307, "This is standby RM. The redirect url is: " + target,
                             "text/plain;charset=utf-8", [("Location", target)])
        if url.path not in NOT_REDIRECTED and active != self.server.name:
            return self.standby(url, active)
        query = urllib.parse.parse_qs(url.query)
        if st.config["requireUserName"] and "user.name" not in query:
            return self.send(401, JETTY_404.replace("404 Not Found", "401 Unauthorized")
                             .format(path=url.path), "text/html;charset=iso-8859-1")
        parts = url.path.rstrip("/").split("/")
        if url.path == "/ws/v1/cluster/info" and method == "GET":
            return self.cluster_info()
        if parts[:5] == ["", "ws", "v1", "cluster", "nodes"]:
            if len(parts) == 5 and method == "GET":
                return self.nodes(query)
            node_id = urllib.parse.unquote(parts[5]) if len(parts) > 5 else ""
            if len(parts) == 6 and method == "GET":
                return self.node(node_id)
            if len(parts) == 7 and parts[6] == "resource":
                return self.resource(method, node_id, body)
        return self.send(404, JETTY_404.format(path=url.path), "text/html;charset=iso-8859-1")

    def standby(self, url, active):
        if active in self.server.bases:
            # RMWebAppFilter: same URI and query string on the active RM.
            target = self.server.bases[active] + self.path
            return self.send(307, "This is standby RM. The redirect url is: " + target,
                             "text/plain;charset=utf-8", [("Location", target)])
        if self.st.config["noActive"] == "retrying":
            return self.send(307, "Can not find any active RM. Will retry in next 5 seconds.\n"
                             "HA Zookeeper Connection State: CONNECTED",
                             "text/plain;charset=utf-8",
                             [("Refresh", "5;url=" + self.path)])
        return self.send(200, "There is no active RM right now.\n"
                         "HA Zookeeper Connection State: CONNECTED", "text/plain;charset=utf-8")

    def cluster_info(self):
        if self.st.config["haState"]:
            info = dict(self.st.info)
            info["haState"] = self.st.role(self.server.name)
            info["haZooKeeperConnectionState"] = "CONNECTED"
        else:
            info = dict(self.st.info_legacy)
        return self.send(200, {"clusterInfo": info})

    def nodes(self, query):
        wanted = None
        if "states" in query:
            wanted = {s.strip().upper() for s in ",".join(query["states"]).split(",")}
            bad = wanted - set(STATES)
            if bad:
                name = sorted(bad)[0]
                return self.send(400, remote_exception(
                    "IllegalArgumentException",
                    "No enum constant org.apache.hadoop.yarn.api.records.NodeState." + name,
                    "java.lang.IllegalArgumentException"))
        items = [self.st.node_json(n) for n in self.st.nodes.values()
                 if wanted is None or n["state"] in wanted]
        # Hadoop 3.4: an empty list is {"nodes":{}} (not null)
        return self.send(200, {"nodes": {"node": items} if items else {}})

    def unknown_node(self, node_id):
        if ":" not in node_id:
            return self.send(400, remote_exception(
                "IllegalArgumentException", "Invalid NodeId [%s]. Expected host:port" % node_id,
                "java.lang.IllegalArgumentException"))
        return self.send(404, remote_exception(
            "NotFoundException", "java.lang.Exception: nodeId, %s, is not found" % node_id,
            "org.apache.hadoop.yarn.webapp.NotFoundException"))

    def node(self, node_id):
        if node_id not in self.st.nodes:
            return self.unknown_node(node_id)
        return self.send(200, {"node": self.st.node_json(self.st.nodes[node_id])})

    def resource(self, method, node_id, body):
        endpoint = self.st.config["endpoint"]
        if endpoint == "missing404":
            return self.send(404, JETTY_404.format(path=self.path),
                             "text/html;charset=iso-8859-1")
        if endpoint == "missing405" or method != "POST":
            return self.send(405, JETTY_404.replace("404 Not Found", "405 Method Not Allowed")
                             .format(path=self.path), "text/html;charset=iso-8859-1")
        if (self.headers.get("Content-Type") or "").split(";")[0].strip() != "application/json":
            return self.send(415, "Unsupported Media Type", "text/plain")
        if node_id not in self.st.nodes:
            return self.unknown_node(node_id)
        n = self.st.nodes[node_id]
        try:
            doc = json.loads(body)
            memory, vcores = doc["resource"]["memory"], doc["resource"]["vCores"]
        except (ValueError, KeyError, TypeError):
            return self.send(400, remote_exception(
                "BadRequestException", "javax.ws.rs.WebApplicationException: bad body",
                "javax.ws.rs.WebApplicationException"))
        if n["state"] in INACTIVE:
            return self.send(500, remote_exception(
                "YarnRuntimeException", "org.apache.hadoop.yarn.exceptions.YarnException: "
                "Resource update get failed on an unrecognized node: " + node_id,
                "org.apache.hadoop.yarn.exceptions.YarnRuntimeException"))
        # ResourceOptionInfo.overCommitTimeout is a plain int: missing means 0.
        timeout = doc.get("overCommitTimeout", 0)
        self.st.resizes.append({"rm": self.server.name, "node": node_id, "memory": memory,
                                "vCores": vcores, "overCommitTimeout": timeout,
                                "overCommitTimeoutSent": "overCommitTimeout" in doc,
                                "applied": not self.st.config["acceptWithoutApply"]})
        if not self.st.config["acceptWithoutApply"]:
            due = time.monotonic() + self.st.config["applyDelayMs"] / 1000.0
            self.st.pending.append([due, node_id, memory, vcores])
        # Hadoop 3.4 answers with the total it was asked for (applied or not)
        return self.send(200, {"resourceInfo": set_resource(copy.deepcopy(self.st.resize_template),
                                                            memory, vcores)})


class ControlHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, fmt, *args):
        pass

    def reply(self, status, doc):
        data = json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        st = self.server.state
        with st.lock:
            st.apply_due()
            if self.path == "/log":
                return self.reply(200, st.log)
            if self.path == "/state":
                return self.reply(200, {"config": st.config, "nodes": list(st.nodes.values()),
                                        "resizes": st.resizes, "pending": len(st.pending)})
        self.reply(404, {"error": "no such control path"})

    def do_POST(self):
        st = self.server.state
        length = int(self.headers.get("Content-Length") or 0)
        try:
            doc = json.loads(self.rfile.read(length) or b"null")
        except ValueError as e:
            return self.reply(400, {"error": str(e)})
        with st.lock:
            if self.path == "/config":
                unknown = set(doc) - set(st.config)
                if unknown:
                    return self.reply(400, {"error": "unknown keys %s" % sorted(unknown)})
                st.config.update(doc)
            elif self.path == "/failover":
                st.config["active"] = "rm2" if st.config["active"] == "rm1" else "rm1"
            elif self.path == "/nodes":
                try:
                    st.set_nodes(doc)
                except (ValueError, KeyError, TypeError) as e:
                    return self.reply(400, {"error": str(e)})
            elif self.path == "/restart":
                st.restart()
            elif self.path == "/rmadmin":
                n = st.nodes.get(doc.get("node")) if isinstance(doc, dict) else None
                if n is None:
                    return self.reply(404, {"error": "unrecognized node"})
                st.resizes.append({"rm": "rmadmin", "node": doc["node"], "memory": doc["memory"],
                                   "vCores": doc["vCores"],
                                   "overCommitTimeout": doc.get("overCommitTimeout", 0),
                                   "overCommitTimeoutSent": "overCommitTimeout" in doc,
                                   "applied": True})
                n["memoryMB"], n["vCores"] = doc["memory"], doc["vCores"]
            elif self.path == "/fault":
                if isinstance(doc, dict) and doc.get("clear"):
                    st.faults = []
                else:
                    st.faults.append(doc)
            elif self.path == "/shutdown":
                self.reply(200, {})
                self.server.stop.set()
                return None
            else:
                return self.reply(404, {"error": "no such control path"})
            return self.reply(200, {"config": st.config})


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description="fake YARN RM HA pair")
    ap.add_argument("--fixtures", default=os.path.join(here, "..", "fixtures", "yarn"))
    ap.add_argument("--hadoop", default=REAL_DEFAULT,
                    help="answer in the shapes captured from this Hadoop (fixtures/hadoop-V)")
    ap.add_argument("--tls-cert", help="serve the RMs over HTTPS with this PEM certificate")
    ap.add_argument("--tls-key")
    ap.add_argument("--client-ca", help="require client certificates signed by this CA")
    ap.add_argument("--lifetime", type=float, default=600, help="exit after this many seconds")
    ap.add_argument("--urls-file", help="also write the URL line to this file")
    ap.add_argument("--nodes-file", help="initial node list (JSON, the POST /nodes shape)")
    ap.add_argument("--spnego-keytab", help="SPNEGO (Kerberos) on both RMs, keys from this keytab")
    ap.add_argument("--ignore-stdin", action="store_true",
                    help="do not exit when stdin reaches end of file")
    args = ap.parse_args()

    if args.spnego_keytab:
        os.environ["KRB5_KTNAME"] = "FILE:" + os.path.abspath(args.spnego_keytab)
    state = State(args.fixtures, args.hadoop)
    if args.nodes_file:
        with open(args.nodes_file, encoding="utf-8") as f:
            state.set_nodes(json.load(f))
    stop = threading.Event()
    ctx = None
    if args.tls_cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.tls_cert, args.tls_key)
        if args.client_ca:
            ctx.load_verify_locations(args.client_ca)
            ctx.verify_mode = ssl.CERT_REQUIRED
    servers = {}
    for name in ("rm1", "rm2"):
        srv = Server(("127.0.0.1", 0), RMHandler)
        if ctx:
            srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
        srv.name, srv.state, srv.spnego = name, state, bool(args.spnego_keytab)
        servers[name] = srv
    scheme = "https" if ctx else "http"
    bases = {n: "%s://127.0.0.1:%d" % (scheme, s.server_address[1]) for n, s in servers.items()}
    for srv in servers.values():
        srv.bases = bases
    control = Server(("127.0.0.1", 0), ControlHandler)
    control.state, control.stop = state, stop
    for srv in list(servers.values()) + [control]:
        threading.Thread(target=srv.serve_forever, daemon=True).start()
    line = json.dumps(dict(bases, control="http://127.0.0.1:%d" % control.server_address[1]))
    if args.urls_file:
        with open(args.urls_file + ".tmp", "w", encoding="utf-8") as f:
            f.write(line + "\n")
        os.rename(args.urls_file + ".tmp", args.urls_file)
    print(line, flush=True)

    deadline = time.monotonic() + args.lifetime
    while not stop.is_set() and time.monotonic() < deadline:
        if args.ignore_stdin:
            stop.wait(0.2)
            continue
        ready, _, _ = select.select([sys.stdin], [], [], 0.2)
        if ready and not sys.stdin.buffer.read1(4096):
            break
    # Nothing to flush: exit at once, in-flight requests and all.
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
