#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""fake_nm - a loopback YARN NodeManager REST API for the yarn-copilot tests.

Serves GET /ws/v1/node/containers, /ws/v1/node/containers/{id} and
/ws/v1/node/info from the documented payloads (test/fixtures/yarn), in the
shapes and failure modes a real NM shows:

  ok          the containers payload (--containers FILE, default nm-containers.json)
  legacy      nm-containers-legacy.json (2.x keys)
  null        {"containers":null}
  nocontainer {"containers":{}}
  empty       {} (no answer at all: an NM error, not "no containers")
  huge        the ok payload padded with copies of its containers to --huge-mb MiB
              (--huge-count N: N copies, their diagnostics padded to fill it)
  many        --many containers that hold an id only (RUNNING), a few MiB in all
  states      one container in each of the 17 ContainerStates of Hadoop 3.3/3.4
              (org.apache.hadoop.yarn.server.nodemanager.containermanager.
              container.ContainerState), ids ..._0007_01_000001 up in the order
              of STATES, exitCode -1000 (ContainerExitStatus.INVALID) until
              the container exited
  single      {"containers":{"container":{...}}}: the first container, not in an array
  slow        ok, after --delay-ms
  500         HTTP 500 with a RemoteException body
  notjson     HTTP 200 with an HTML page

Listens on 127.0.0.1, port chosen by the kernel; the port is written to
--port-file once listening.  Stops by itself after --lifetime seconds.
Python 3 standard library only.
"""
import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# ContainerState.java (Hadoop 3.3/3.4), in its order, with the exitCode a
# ContainerInfo shows there: INVALID (-1000) until the process exited.
STATES = [
    ("NEW", -1000), ("LOCALIZING", -1000), ("LOCALIZATION_FAILED", -1000),
    ("SCHEDULED", -1000), ("RUNNING", -1000), ("RELAUNCHING", -1000),
    ("REINITIALIZING", -1000), ("REINITIALIZING_AWAITING_KILL", -1000),
    ("EXITED_WITH_SUCCESS", 0), ("EXITED_WITH_FAILURE", 1), ("KILLING", -1000),
    ("CONTAINER_CLEANEDUP_AFTER_KILL", 137), ("CONTAINER_RESOURCES_CLEANINGUP", 0),
    ("DONE", 0), ("PAUSING", -1000), ("PAUSED", -1000), ("RESUMING", -1000),
]

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "yarn")


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def containers_of(payload):
    wrap = payload.get("containers") or {}
    items = wrap.get("container") or []
    return items if isinstance(items, list) else [items]


class Handler(BaseHTTPRequestHandler):
    server_version = "Jetty(6.1.26)"
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        if self.server.opts.log:
            with open(self.server.opts.log, "a", encoding="utf-8") as f:
                f.write("%s %s\n" % (self.command, self.path))

    def send(self, status, body, ctype="application/json"):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_json(self, obj, status=200):
        self.send(status, json.dumps(obj))

    def do_GET(self):
        opts = self.server.opts
        path = self.path.split("?", 1)[0].rstrip("/")
        mode = opts.mode
        if mode == "slow":
            time.sleep(opts.delay_ms / 1000.0)
        if mode == "500":
            return self.send_json({"RemoteException": {
                "exception": "WebApplicationException",
                "message": "java.lang.OutOfMemoryError: Java heap space",
                "javaClassName": "javax.ws.rs.WebApplicationException"}}, 500)
        if mode == "notjson":
            return self.send(200, "<html><body>NodeManager starting</body></html>\n",
                             "text/html; charset=utf-8")
        if path in ("/ws/v1/node", "/ws/v1/node/info"):
            # the shape of the real NodeManager's answer (test/hadoop/tests/
            # shapes.sh captured it), the values of the documented example
            info = load(os.path.join(FIXTURES, "hadoop-" + opts.hadoop, "nm-info.json"))
            info["nodeInfo"].update(load(os.path.join(FIXTURES, "nm-info.json"))["nodeInfo"])
            return self.send_json(info)
        if path == "/ws/v1/node/containers":
            return self.send_json(self.server.containers_payload())
        if path.startswith("/ws/v1/node/containers/"):
            cid = path.rsplit("/", 1)[1]
            for c in containers_of(load(self.server.containers_file())):
                if c.get("id") == cid:
                    return self.send_json({"container": c})
            return self.send_json({"RemoteException": {
                "exception": "NotFoundException",
                "message": "java.lang.Exception: container with id, %s, not found" % cid,
                "javaClassName": "org.apache.hadoop.yarn.webapp.NotFoundException"}}, 404)
        return self.send(404, "<html><body>Not found</body></html>\n", "text/html")


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)

    def containers_file(self):
        if self.opts.mode == "legacy":
            return os.path.join(FIXTURES, "nm-containers-legacy.json")
        return self.opts.containers or os.path.join(FIXTURES, "nm-containers.json")

    def containers_payload(self):
        mode = self.opts.mode
        if mode == "null":
            return {"containers": None}
        if mode == "nocontainer":
            return {"containers": {}}
        if mode == "empty":
            return {}
        if mode == "many":
            return {"containers": {"container": [
                {"id": "container_1_0001_01_%06d" % i, "state": "RUNNING"}
                for i in range(1, self.opts.many + 1)]}}
        if mode == "states":
            return {"containers": {"container": [
                {"id": "container_1326121700862_0007_01_%06d" % (i + 1), "state": st,
                 "exitCode": code, "user": "u", "totalMemoryNeededMB": 1024,
                 "totalVCoresNeeded": 1}
                for i, (st, code) in enumerate(STATES)]}}
        payload = load(self.containers_file())
        if mode == "huge":
            one = containers_of(payload)[0]
            size = len(json.dumps(one)) + 1
            n = self.opts.huge_mb * (1 << 20) // size + 1
            if self.opts.huge_count:  # fewer, longer items (diagnostics padded)
                n = self.opts.huge_count
                pad = self.opts.huge_mb * (1 << 20) // n - size
                one = dict(one, diagnostics=one.get("diagnostics", "") + "x" * max(pad, 0))
            return {"containers": {"container": [dict(one, id=one["id"][:-6] + "%06d" % (i % 999999))
                                                 for i in range(n)]}}
        if mode == "single":
            return {"containers": {"container": containers_of(payload)[0]}}
        return payload


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mode", default="ok",
                   choices=["ok", "legacy", "null", "nocontainer", "empty", "single", "slow",
                            "500", "notjson", "huge", "many", "states"])
    p.add_argument("--huge-mb", type=int, default=20)
    p.add_argument("--huge-count", type=int, default=0)
    p.add_argument("--many", type=int, default=10001)
    p.add_argument("--containers", help="containers payload to serve (default: the fixture)")
    p.add_argument("--delay-ms", type=int, default=3000)
    p.add_argument("--lifetime", type=float, default=60.0)
    p.add_argument("--port-file", required=True)
    p.add_argument("--log", help="append one line per request")
    p.add_argument("--hadoop", default="3.4.2",
                   help="/ws/v1/node/info in the shape captured from this Hadoop")
    opts = p.parse_args()

    srv = Server(("127.0.0.1", 0), Handler)
    srv.opts = opts
    tmp = opts.port_file + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(tmp, opts.port_file)
    threading.Timer(opts.lifetime, srv.shutdown).start()
    srv.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
