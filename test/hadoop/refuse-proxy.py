#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""refuse-proxy.py TARGET URLFILE - an HTTP proxy in front of one real
ResourceManager that makes it look like a Hadoop without the node resource
endpoint (before 3.3): a request for /ws/v1/cluster/nodes/{id}/resource is
sent on as /ws/v1/cluster/nodes/{id}/resource-absent, so the answer (status,
headers, body) is the real RM's own answer for a path it does not serve.
Every other request goes through unchanged; redirects are passed back, not
followed. Writes http://127.0.0.1:PORT to URLFILE once listening; each
request is logged to stderr as "METHOD PATH -> STATUS"."""
import http.client
import http.server
import re
import sys
import urllib.parse

TARGET = urllib.parse.urlsplit(sys.argv[1])
RESIZE = re.compile(r"^(/ws/v1/cluster/nodes/[^/?]+/resource)(\?.*)?$")
HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
       "proxy-authorization", "proxy-authenticate", "content-length"}


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def forward(self):
        path = self.path
        m = RESIZE.match(path)
        if m:
            path = m.group(1) + "-absent" + (m.group(2) or "")
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else None
        conn = http.client.HTTPConnection(TARGET.hostname, TARGET.port, timeout=30)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
        headers["Host"] = TARGET.netloc
        try:
            conn.request(self.command, path, body=body, headers=headers)
            resp = conn.getresponse()
            data = resp.read()
        except OSError as e:
            self.send_error(502, "refuse-proxy: %s" % e)
            return
        finally:
            conn.close()
        sys.stderr.write("%s %s -> %d\n" % (self.command, path, resp.status))
        sys.stderr.flush()
        self.send_response(resp.status, resp.reason)
        for k, v in resp.getheaders():
            if k.lower() not in HOP:
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_DELETE = forward


def main():
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    with open(sys.argv[2] + ".tmp", "w") as f:
        f.write("http://127.0.0.1:%d\n" % srv.server_address[1])
    import os
    os.rename(sys.argv[2] + ".tmp", sys.argv[2])
    srv.serve_forever()


if __name__ == "__main__":
    main()
