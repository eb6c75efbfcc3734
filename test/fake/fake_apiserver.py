#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""fake_apiserver - a loopback Kubernetes API server for lib/remote/k8s and kubectl tests.

Objects live in memory, loaded from JSON files (--load FILE: a Node, Pod,
any object with apiVersion/kind, or a NodeList/PodList/List of them).  What
is served, in the shapes of kube-apiserver (k8s-conventions.md section 3):

  discovery   /api, /api/v1, /apis, /apis/apps/v1,
              /apis/rbac.authorization.k8s.io/v1, /version, /healthz
              (legacy discovery documents; kubectl falls back to them)
  GET         an object, or a list ("<Kind>List") of a cluster-scoped
              resource, of one namespace or of all namespaces, with
              fieldSelector (=, ==, != joined by commas), labelSelector
              (=, ==, !=, in, notin, exists, !exists), limit and continue.
              Continue tokens are apiserver's (base64url of {"v","rv","start"});
              after a compaction (POST /compact on the control URL or a "compact" fault)
              older tokens answer 410 Expired (and so do watches and Exact
              lists from older versions: the watch history is dropped too).
              resourceVersion on a list (without continue): unset, the
              current state; "0", the current state whole (limit ignored,
              as kube-apiserver 1.32's watch cache does); N with
              resourceVersionMatch=NotOlderThan (the default without limit),
              the current state (N newer than the server's: 504 Timeout
              after 3 s); N with Exact (the default with limit), the state
              at N rebuilt from the watch history, 410 Expired when N is
              older than the history.  Lists are served from cached
              bytes (each item serialised once, pages by query), the same
              bytes json.dumps gives, dropped on every write; --warm-lists
              serialises every loaded object before the URL line is printed
              (json.dumps makes ~20 MB/s: 100k pods of 3.5 KB take ~18 s).
  WATCH       GET <collection>?watch=1 (or true): a 200 with Transfer-Encoding:
              chunked, one event a line, {"type": "ADDED"|"MODIFIED"|"DELETED"|
              "BOOKMARK"|"ERROR", "object": ...}.  resourceVersion unset or
              "0": an ADDED of every object, then the changes; N: every change
              after N, from the last --watch-history events of the resource
              (default 10000); N older than them: one ERROR event carrying a
              410 Expired Status "too old resource version: N (OLDEST-1)"
              inside the 200 (as kube-apiserver's watch cache answers), then
              the end.  Every write is one event at its resourceVersion, the
              same number lists and objects carry; a DELETED carries the
              object before, at the delete's resourceVersion.  fieldSelector
              and labelSelector filter events by the rule of kube-apiserver's
              cacheWatcher: an object entering the selector is ADDED, one
              leaving it DELETED.  allowWatchBookmarks=true: a BOOKMARK
              ({"kind","apiVersion","metadata":{"resourceVersion"}}, the
              server's current version) every --bookmark-interval seconds
              (default 60).  timeoutSeconds ends the stream (a clean end of
              the chunks); without it the stream lasts until the client goes,
              DELETE /watches, or the fake exits.  sendInitialEvents is not
              supported.
  PATCH       application/merge-patch+json (RFC 7386),
              application/strategic-merge-patch+json (lists of known
              types merged by their key), application/json-patch+json
              (RFC 6902), on objects and on their /status subresource
              (/status keeps spec, the main endpoint keeps status);
              a body carrying metadata.resourceVersion that is not the
              current one answers 409 Conflict.  ?dryRun=All changes nothing.
  POST        create in a collection (?dryRun=All: answer without storing).
  PUT         replace, with the same resourceVersion check.
  DELETE      remove.
Every write bumps the server's resourceVersion and stores it in the object.
Errors are metav1 Status objects, except 429 which is plain text.

Authentication: with --token T (repeatable) or --token-file F (read on
every request, one token per line) a request needs "Authorization: Bearer
<token>"; with --client-ca a verified client certificate also
authenticates.  Without any of them everyone is allowed.  TLS with
--tls-cert/--tls-key (ssl module).

Faults (--fault JSON, repeatable, or POST /faults on the control URL):
  {"method": "GET", "path": "/api/v1/pods", "query": "continue=",
   "count": 1, "status": 429, "retryAfter": "1", "delayMs": 0,
   "drop": false, "compact": false}
path is a prefix of the request path, query a substring of the query
string, skip how many matching requests pass first (default 0), count how
many matching requests are hit (0: all).  status answers
with that code (429 plain text, others a Status); delayMs sleeps first;
drop closes the connection without an answer; compact expires all continue
tokens issued so far, then the request is served; body answers with that
JSON document instead (status 200 unless given): a Status with 200, a list
without items, a page whose continue token repeats; rawBody answers that
text as application/json (JSON that is broken or has duplicate keys);
headers adds response headers to a status answer (a 307 with a Location).

Control (a second, plain-HTTP listener, no authentication): POST /faults
(add one), DELETE /faults (remove all), POST /compact, GET /objects
(everything stored), DELETE /watches (end every open watch stream, as an
API server restart does), POST /churn and GET /churn (below), POST
/shutdown.

Change generator (--churn JSON at start, or POST /churn; {} stops it), for
watch benchmarks: {"podChangesPerSecond": P, "nodeModifiedEverySeconds": S}
makes P Pod changes a second, in groups of ten: seven MODIFIED (annotation
fake.kilo.io/churn on the Pods in turn), one Pod DELETED, ADDED again
unbound (no spec.nodeName, phase Pending) and bound back (so a
spec.nodeName!= watcher sees DELETED and ADDED); and modifies every Node
(the same annotation) once in S seconds, evenly spread.  GET /churn:
{"podChanges": n, "nodeModified": m, "resourceVersion": current}.

--log FILE appends one JSON line per request, before the answer is sent:
method, path, query, contentType, userAgent, auth ("bearer", "cert",
"bearer-invalid" or "none"), status (-1: no answer), and the body of
PATCH/POST/PUT.  Tokens are never logged.

Listens on 127.0.0.1, ports chosen by the kernel, and prints one JSON line
{"api": URL, "control": URL} (also written to --urls-file), the protocol of
test/unit/fakeproc.h.  Exits when stdin reaches end of file (not with
--ignore-stdin, for shell scripts), when its parent process exits, on POST
/shutdown, or after --lifetime seconds (default 300).
Python 3 standard library only.
"""
import argparse
import base64
import bisect
import collections
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
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# (group/version, resource) -> (kind, namespaced, subresources)
RESOURCES = {
    ("v1", "nodes"): ("Node", False, ["status"]),
    ("v1", "pods"): ("Pod", True, ["status"]),
    ("v1", "namespaces"): ("Namespace", False, ["status"]),
    ("v1", "serviceaccounts"): ("ServiceAccount", True, []),
    ("v1", "configmaps"): ("ConfigMap", True, []),
    ("v1", "secrets"): ("Secret", True, []),
    ("apps/v1", "daemonsets"): ("DaemonSet", True, ["status"]),
    ("apps/v1", "deployments"): ("Deployment", True, ["status"]),
    ("rbac.authorization.k8s.io/v1", "clusterroles"): ("ClusterRole", False, []),
    ("rbac.authorization.k8s.io/v1", "clusterrolebindings"): ("ClusterRoleBinding", False, []),
    ("rbac.authorization.k8s.io/v1", "roles"): ("Role", True, []),
    ("rbac.authorization.k8s.io/v1", "rolebindings"): ("RoleBinding", True, []),
}
KIND_TO_RESOURCE = {(gv, k): r for (gv, r), (k, _, _) in RESOURCES.items()}
SHORT_NAMES = {"nodes": ["no"], "pods": ["po"], "namespaces": ["ns"], "serviceaccounts": ["sa"],
               "configmaps": ["cm"], "daemonsets": ["ds"], "deployments": ["deploy"]}
VERBS = ["create", "delete", "get", "list", "patch", "update"]

# Field selectors each kind supports besides metadata.name/namespace.
FIELDS = {
    "pods": {
        "spec.nodeName": lambda o: o.get("spec", {}).get("nodeName", ""),
        "spec.restartPolicy": lambda o: o.get("spec", {}).get("restartPolicy", ""),
        "spec.schedulerName": lambda o: o.get("spec", {}).get("schedulerName", ""),
        "spec.serviceAccountName": lambda o: o.get("spec", {}).get("serviceAccountName", ""),
        "status.phase": lambda o: o.get("status", {}).get("phase", ""),
        "status.podIP": lambda o: o.get("status", {}).get("podIP", ""),
    },
    "nodes": {
        "spec.unschedulable": lambda o: str(bool(o.get("spec", {}).get("unschedulable"))).lower(),
    },
}

# Strategic merge: list fields merged by key (kubernetes/api core/v1 patchMergeKey).
MERGE_KEYS = {"conditions": "type", "addresses": "type", "containers": "name",
              "initContainers": "name", "env": "name", "volumes": "name",
              "volumeMounts": "mountPath", "ports": "containerPort", "tolerations": None,
              "images": None, "ownerReferences": "uid", "imagePullSecrets": "name"}


class APIError(Exception):
    def __init__(self, code, reason, message, details=None, meta=None):
        super().__init__(message)
        self.code, self.reason, self.message = code, reason, message
        self.details, self.meta = details, meta or {}


def status_obj(code, reason, message, details=None, meta=None):
    s = {"kind": "Status", "apiVersion": "v1", "metadata": meta or {}, "status": "Failure",
         "message": message, "reason": reason}
    if details:
        s["details"] = details
    s["code"] = code
    return s


def b64url(doc):
    raw = json.dumps(doc, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64url(tok):
    return json.loads(base64.urlsafe_b64decode(tok + "=" * (-len(tok) % 4)))


def merge_patch(target, patch):
    """RFC 7386."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = copy.deepcopy(target) if isinstance(target, dict) else {}
    for k, v in patch.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = merge_patch(out.get(k), v)
    return out


def strategic_patch(target, patch, field=None):
    """Strategic merge patch: merge patch, but lists with a merge key are merged by it."""
    if isinstance(patch, list) and isinstance(target, list) and MERGE_KEYS.get(field):
        key = MERGE_KEYS[field]
        out = copy.deepcopy(target)
        for item in patch:
            if not isinstance(item, dict):
                return copy.deepcopy(patch)
            idx = next((i for i, t in enumerate(out) if isinstance(t, dict)
                        and t.get(key) == item.get(key)), None)
            if item.get("$patch") == "delete":
                if idx is not None:
                    out.pop(idx)
            elif idx is None:
                out.append(copy.deepcopy(item))
            else:
                out[idx] = strategic_patch(out[idx], item)
        return out
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = copy.deepcopy(target) if isinstance(target, dict) else {}
    for k, v in patch.items():
        if k.startswith("$"):
            continue
        if v is None:
            out.pop(k, None)
        else:
            out[k] = strategic_patch(out.get(k), v, k)
    return out


def json_pointer(path):
    if path == "":
        return []
    if not path.startswith("/"):
        raise APIError(422, "Invalid", "invalid JSON pointer %r" % path)
    return [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]


def json_patch(doc, ops):
    """RFC 6902 add, remove, replace, test; a failed op is 422."""
    doc = copy.deepcopy(doc)
    for op in ops:
        parts = json_pointer(op.get("path", ""))
        parent, last = doc, parts[-1] if parts else None
        try:
            for p in parts[:-1]:
                parent = parent[int(p)] if isinstance(parent, list) else parent[p]
            kind = op.get("op")
            if kind == "test":
                cur = parent[int(last)] if isinstance(parent, list) else parent[last]
                if cur != op.get("value"):
                    raise KeyError(last)
            elif kind == "remove":
                if isinstance(parent, list):
                    parent.pop(int(last))
                else:
                    del parent[last]
            elif kind in ("add", "replace"):
                if isinstance(parent, list):
                    if kind == "add":
                        parent.insert(len(parent) if last == "-" else int(last), op["value"])
                    else:
                        parent[int(last)] = op["value"]
                else:
                    if kind == "replace" and last not in parent:
                        raise KeyError(last)
                    parent[last] = op["value"]
            else:
                raise APIError(422, "Invalid", "unsupported JSON patch op %r" % kind)
        except (KeyError, IndexError, ValueError, TypeError):
            raise APIError(422, "Invalid", "the server rejected our request due to an error in "
                           "our request: %s operation on %s failed" % (op.get("op"), op.get("path")))
    return doc


def parse_field_selector(sel, resource):
    reqs = []
    allowed = {"metadata.name": lambda o: o["metadata"].get("name", ""),
               "metadata.namespace": lambda o: o["metadata"].get("namespace", "")}
    allowed.update(FIELDS.get(resource, {}))
    for term in filter(None, sel.split(",")):
        for op in ("!=", "==", "="):
            if op in term:
                field, value = term.split(op, 1)
                break
        else:
            raise APIError(400, "BadRequest", "invalid selector: '%s'; can't understand '%s'"
                           % (sel, term))
        field = field.strip()
        if field not in allowed:
            raise APIError(400, "BadRequest", 'field label not supported: %s' % field)
        reqs.append((allowed[field], op == "!=", value.strip()))
    return lambda o: all((get(o) != v) if neg else (get(o) == v) for get, neg, v in reqs)


def split_top(sel):
    """Split a label selector at commas outside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in sel:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [t.strip() for t in out if t.strip()]


def parse_label_selector(sel):
    reqs = []
    for term in split_top(sel):
        words = term.split()
        if len(words) >= 2 and words[1] in ("in", "notin"):
            vals = set(v.strip() for v in term.split("(", 1)[1].rstrip(")").split(","))
            key, neg = words[0], words[1] == "notin"
            reqs.append(lambda l, k=key, vs=vals, n=neg: (l.get(k) not in vs) if n
                        else (l.get(k) in vs))
        elif "!=" in term:
            k, v = (s.strip() for s in term.split("!=", 1))
            reqs.append(lambda l, k=k, v=v: l.get(k) != v)
        elif "=" in term:
            k, v = (s.strip() for s in term.replace("==", "=").split("=", 1))
            reqs.append(lambda l, k=k, v=v: l.get(k) == v)
        elif term.startswith("!"):
            reqs.append(lambda l, k=term[1:].strip(): k not in l)
        else:
            reqs.append(lambda l, k=term: k in l)
    return lambda o: all(r(o["metadata"].get("labels") or {}) for r in reqs)


class Event:
    """One write of a resource as kube-apiserver's watch cache holds it
    (watchCacheEvent): obj after the write (None: deleted), prev before it
    (None: created).  Stored objects are never changed in place (a write
    stores a new dict), so events and caches share them."""
    __slots__ = ("rv", "key", "obj", "prev", "lines")

    def __init__(self, rv, key, obj, prev):
        self.rv, self.key, self.obj, self.prev, self.lines = rv, key, obj, prev, {}

    def line(self, etype):
        """The event as one line of a watch stream, serialised once per type.
        DELETED carries the object before, at the event's resourceVersion."""
        data = self.lines.get(etype)
        if data is None:
            obj = self.obj
            if etype == "DELETED":
                obj = dict(self.prev, metadata=dict(self.prev["metadata"],
                                                    resourceVersion=str(self.rv)))
            data = self.lines[etype] = watch_line(etype, obj)
        return data


def watch_line(etype, obj):
    return (json.dumps({"type": etype, "object": obj}) + "\n").encode()


class Watcher:
    """One open watch: the events not yet sent, filled by the writers."""

    def __init__(self, ns, match):
        self.ns, self.match = ns, match
        self.cond = threading.Condition()
        self.queue, self.closed = [], False

    def push(self, ev):
        with self.cond:
            self.queue.append(ev)
            self.cond.notify()

    def close(self):
        with self.cond:
            self.closed = True
            self.cond.notify()

    def take(self, timeout):
        with self.cond:
            if not self.queue and not self.closed:
                self.cond.wait(timeout)
            evs, self.queue = self.queue, []
            return evs

    def event_type(self, ev):
        """kube-apiserver's rule for a watch with selectors (cacheWatcher.
        convertToWatchEvent, staging/src/k8s.io/apiserver/pkg/storage/cacher/
        cache_watcher.go): the object after the write passes and the one
        before did not: ADDED; both pass: MODIFIED; only the one before passes:
        DELETED (the object before, at the event's resourceVersion); neither:
        no event.  Field and label selectors alike."""
        def passes(o):
            return o is not None and (self.ns is None or o["metadata"].get("namespace") == self.ns) \
                and self.match(o)
        cur, old = passes(ev.obj), passes(ev.prev)
        return "MODIFIED" if cur and old else "ADDED" if cur else "DELETED" if old else None


class State:
    def __init__(self, opts):
        self.lock = threading.RLock()
        self.objects = {}  # (gv, resource) -> {key: obj}
        self.rv = 1000
        self.compacted = 0
        self.faults = [json.loads(f) for f in opts.fault]
        for path in opts.load:
            with open(path, encoding="utf-8") as f:
                self.load(json.load(f))
        # watch: per (gv, resource) the last --watch-history events and the
        # resourceVersion below which a watch is too old (oldest-1 of
        # watch_cache.go), the open watchers
        self.history_len = opts.watch_history
        self.history, self.window, self.watchers = {}, {}, {}
        self.start_rv = self.rv
        # pre-serialised lists: sorted keys and each item's JSON per
        # resource, whole pages by query at one resourceVersion
        self.keys, self.items, self.pages, self.pages_rv = {}, {}, {}, self.rv

    def load(self, doc):
        kind = doc.get("kind", "")
        if "items" in doc and kind.endswith("List"):
            item_kind = kind[:-4] if kind != "List" else None
            for it in doc["items"]:
                it = dict(it)
                it.setdefault("apiVersion", doc.get("apiVersion", "v1"))
                if item_kind:
                    it.setdefault("kind", item_kind)
                self.load(it)
            return
        res = KIND_TO_RESOURCE.get((doc.get("apiVersion"), kind))
        if not res:
            raise SystemExit("fake_apiserver: cannot load kind %s/%s" % (doc.get("apiVersion"), kind))
        rv = doc.get("metadata", {}).get("resourceVersion", "")
        if rv.isdigit():
            self.rv = max(self.rv, int(rv))
        self.objects.setdefault((doc["apiVersion"], res), {})[self.key(doc)] = doc

    @staticmethod
    def key(obj):
        m = obj["metadata"]
        return "%s/%s" % (m["namespace"], m["name"]) if m.get("namespace") else m["name"]

    def bump(self, obj):
        self.rv += 1
        obj["metadata"]["resourceVersion"] = str(self.rv)

    def write(self, gvr, key, obj, prev):
        """Store obj under key (None: delete it) at a new resourceVersion: one
        watch event for gvr's history and watchers.  Callers hold the lock."""
        store = self.objects.setdefault(gvr, {})
        if obj is None:
            self.rv += 1
            del store[key]
        else:
            self.bump(obj)
            store[key] = obj
        if (obj is None) != (prev is None):
            self.keys.pop(gvr, None)
        self.items.get(gvr, {}).pop(key, None)
        ev = Event(self.rv, key, obj, prev)
        hist = self.history.setdefault(gvr, collections.deque())
        hist.append(ev)
        if len(hist) > self.history_len:
            hist.popleft()
            self.window[gvr] = hist[0].rv - 1 if hist else ev.rv
        for w in self.watchers.get(gvr, ()):
            w.push(ev)

    def replaced(self, gvr, key, obj):
        """Store obj under key with no new resourceVersion (a write that
        changed nothing; its keys may be in another order)."""
        self.objects.setdefault(gvr, {})[key] = obj
        self.items.get(gvr, {}).pop(key, None)
        self.pages.clear()

    def sorted_keys(self, gvr):
        keys = self.keys.get(gvr)
        if keys is None:
            keys = self.keys[gvr] = sorted(self.objects.get(gvr, {}))
        return keys

    def item_bytes(self, gvr, key, obj):
        """obj as a list's item (without kind and apiVersion), serialised once."""
        cache = self.items.setdefault(gvr, {})
        data = cache.get(key)
        if data is None:
            data = cache[key] = json.dumps({k: v for k, v in obj.items()
                                            if k not in ("kind", "apiVersion")})
        return data

    def take_fault(self, method, path, query):
        with self.lock:
            for f in self.faults:
                if f.get("method", method) != method or not path.startswith(f.get("path", "")):
                    continue
                if f.get("query", "") not in query:
                    continue
                if f.get("skip", 0) > 0:  # let the first N matches through
                    f["skip"] -= 1
                    continue
                if f.get("count", 1) != 0:
                    f["count"] = f.get("count", 1) - 1
                    if f["count"] == 0:
                        self.faults.remove(f)
                        f["count"] = -1
                return f
        return None

    def compact(self):
        """Expire continue tokens and the watch history issued so far."""
        with self.lock:
            self.rv += 1
            self.compacted = self.rv - 1
            self.start_rv = self.rv
            self.history.clear()
            self.window.clear()


def parse_rv(text):
    if not text.isdigit():
        raise APIError(400, "BadRequest", 'invalid resource version "%s"' % text)
    return int(text)


def parse_path(path):
    """-> (gv, namespace, resource, name, subresource) or None."""
    parts = [urllib.parse.unquote(p) for p in path.strip("/").split("/")]
    if parts[:2] == ["api", "v1"]:
        gv, rest = "v1", parts[2:]
    elif len(parts) >= 3 and parts[0] == "apis":
        gv, rest = parts[1] + "/" + parts[2], parts[3:]
    else:
        return None
    ns = None
    if len(rest) >= 3 and rest[0] == "namespaces":
        ns, rest = rest[1], rest[2:]
    if not rest or len(rest) > 3:
        return None
    resource = rest[0]
    if (gv, resource) not in RESOURCES:
        return None
    return gv, ns, resource, rest[1] if len(rest) > 1 else None, rest[2] if len(rest) > 2 else None


def discovery_resources(gv):
    out = []
    for (g, r), (kind, namespaced, subs) in sorted(RESOURCES.items()):
        if g != gv:
            continue
        e = {"name": r, "singularName": kind.lower(), "namespaced": namespaced, "kind": kind,
             "verbs": VERBS}
        if r in SHORT_NAMES:
            e["shortNames"] = SHORT_NAMES[r]
        out.append(e)
        for s in subs:
            out.append({"name": r + "/" + s, "singularName": "", "namespaced": namespaced,
                        "kind": kind, "verbs": ["get", "patch", "update"]})
    return {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": out}


def openapi_v3(gv):
    """A minimal OpenAPI v3 document for gv: every PATCH operation names its
    kind and takes fieldValidation, which is what kubectl looks for before
    leaving validation to the server (kubectl QueryParamVerifierV3)."""
    paths = {}
    group, version = gv.split("/") if "/" in gv else ("", gv)
    prefix = "/api/v1" if gv == "v1" else "/apis/" + gv
    for (g, r), (kind, namespaced, _) in sorted(RESOURCES.items()):
        if g != gv:
            continue
        path = prefix + ("/namespaces/{namespace}/" if namespaced else "/") + r + "/{name}"
        paths[path] = {"patch": {
            "operationId": "patch" + kind,
            "x-kubernetes-group-version-kind": {"group": group, "version": version, "kind": kind},
            "parameters": [{"name": n, "in": "query", "schema": {"type": "string"}}
                           for n in ("dryRun", "fieldManager", "fieldValidation", "force")],
            "responses": {"200": {"description": "OK"}}}}
    return {"openapi": "3.0.0", "info": {"title": "Kubernetes", "version": "v1.32.0"},
            "paths": paths, "components": {"schemas": {}}}


def apis_doc():
    groups = []
    for gv in sorted({g for g, _ in RESOURCES if "/" in g}):
        group, version = gv.split("/")
        v = {"groupVersion": gv, "version": version}
        groups.append({"name": group, "versions": [v], "preferredVersion": v})
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}


class Handler(BaseHTTPRequestHandler):
    server_version = "fake-apiserver"
    protocol_version = "HTTP/1.1"
    # headers and body are two writes: without TCP_NODELAY a kept-alive
    # connection's body waits for the client's delayed ACK (40 ms)
    disable_nagle_algorithm = True

    def log_message(self, fmt, *args):
        pass

    # ---- plumbing ----

    def log_request_line(self, status):
        """Written before the answer is sent, so a client that got it finds it logged."""
        body = self.body if self.command in ("PATCH", "POST", "PUT") else None
        if self.logged or self.server.is_control or not self.server.opts.log:
            return
        self.logged = True
        u = urllib.parse.urlsplit(self.path)
        rec = {"method": self.command, "path": u.path, "query": u.query,
               "contentType": self.headers.get("Content-Type", ""), "auth": self.auth_kind,
               "userAgent": self.headers.get("User-Agent", ""), "status": status}
        if body is not None:
            rec["body"] = body.decode("utf-8", "replace")
        with self.server.log_lock, open(self.server.opts.log, "a", encoding="utf-8") as f:
            f.write(json.dumps(rec, sort_keys=True) + "\n")

    def reply(self, status, doc=None, text=None, headers=None, raw=None, data=None):
        if data is not None:  # JSON text made by the caller
            data, ctype = data.encode(), "application/json"
        elif raw is not None:
            data, ctype = raw.encode(), "application/json"
        elif text is not None:
            data, ctype = text.encode(), "text/plain; charset=utf-8"
        else:
            data, ctype = json.dumps(doc).encode(), "application/json"
        self.log_request_line(status)
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Audit-Id", str(uuid.uuid4()))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def fail(self, e):
        self.reply(e.code, status_obj(e.code, e.reason, e.message, e.details, e.meta))

    def authenticate(self):
        opts = self.server.opts
        tokens = set(opts.token)
        if opts.token_file:
            try:
                with open(opts.token_file, encoding="utf-8") as f:
                    tokens |= {t.strip() for t in f if t.strip()}
            except OSError:
                pass
        auth = self.headers.get("Authorization", "")
        cert = getattr(self.connection, "getpeercert", lambda: None)()
        if auth.startswith("Bearer ") and auth[7:] in tokens:
            self.auth_kind = "bearer"
        elif cert:
            self.auth_kind = "cert"
        elif auth.startswith("Bearer "):
            self.auth_kind = "bearer-invalid"
        else:
            self.auth_kind = "none"
        need = tokens or opts.client_ca
        return not need or self.auth_kind in ("bearer", "cert")

    def handle_one(self):
        self.logged = False
        self.auth_kind = "none"
        u = urllib.parse.urlsplit(self.path)
        n = int(self.headers.get("Content-Length") or 0)
        body = self.body = self.rfile.read(n) if n else None
        state = self.server.state
        try:
            if self.server.is_control:
                self.control(u.path, body)
                return
            if not self.authenticate():
                self.reply(401, status_obj(401, "Unauthorized", "Unauthorized"))
                return
            fault = state.take_fault(self.command, u.path, u.query)
            if fault:
                if fault.get("delayMs"):
                    time.sleep(fault["delayMs"] / 1000.0)
                if fault.get("drop"):
                    self.log_request_line(-1)
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                if fault.get("compact"):
                    state.compact()
                if "body" in fault:  # any answer at all, e.g. a 200 that is no list
                    self.reply(fault.get("status", 200), fault["body"])
                    return
                if "rawBody" in fault:  # text no JSON encoder writes: broken, duplicate keys
                    self.reply(fault.get("status", 200), raw=fault["rawBody"])
                    return
                st = fault.get("status")
                if st:
                    hdr = {"Retry-After": str(fault["retryAfter"])} if "retryAfter" in fault else {}
                    hdr.update(fault.get("headers", {}))
                    if st == 429:
                        self.reply(429, text="Too many requests, please try again later.\n",
                                   headers=hdr)
                    else:
                        reason = {500: "InternalError", 503: "ServiceUnavailable",
                                  504: "Timeout", 403: "Forbidden"}.get(st, "")
                        self.reply(st, status_obj(st, reason, "fault injected: %d" % st),
                                   headers=hdr)
                    return
            with state.lock:
                stream = self.route(u, body)
            if stream:  # a watch, served without the lock
                stream()
        except APIError as e:
            self.fail(e)
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            self.log_request_line(-1)

    do_GET = do_PATCH = do_POST = do_PUT = do_DELETE = do_HEAD = handle_one

    def control(self, path, body):
        state = self.server.state
        if path == "/faults" and self.command == "POST":
            with state.lock:
                state.faults.append(json.loads(body or b"{}"))
        elif path == "/faults" and self.command == "DELETE":
            with state.lock:
                state.faults.clear()
        elif path == "/compact" and self.command == "POST":
            state.compact()
        elif path == "/watches" and self.command == "DELETE":
            with state.lock:
                for ws in state.watchers.values():
                    for w in ws:
                        w.close()
        elif path == "/churn" and self.command == "POST":
            state.churn.set(json.loads(body or b"{}"))
        elif path == "/churn" and self.command == "GET":
            with state.lock:
                self.reply(200, dict(state.churn.done, resourceVersion=str(state.rv)))
            return
        elif path == "/shutdown" and self.command == "POST":
            self.server.stop.set()
        elif path == "/objects" and self.command == "GET":
            with state.lock:
                items = [o for objs in state.objects.values() for o in objs.values()]
            self.reply(200, {"kind": "List", "apiVersion": "v1", "items": items})
            return
        else:
            raise APIError(404, "NotFound", "unknown control path %s" % path)
        self.reply(200, {"ok": True})

    # ---- API ----

    def route(self, u, body):
        path = u.path.rstrip("/") or "/"
        q = dict(urllib.parse.parse_qsl(u.query, keep_blank_values=True))
        if self.command == "GET":
            if path == "/api":
                self.reply(200, {"kind": "APIVersions", "versions": ["v1"],
                                 "serverAddressByClientCIDRs": [
                                     {"clientCIDR": "0.0.0.0/0",
                                      "serverAddress": "127.0.0.1:%d" % self.server.server_port}]})
                return
            if path == "/apis":
                self.reply(200, apis_doc())
                return
            if path == "/api/v1" or (path.startswith("/apis/") and path.count("/") == 3):
                gv = "v1" if path == "/api/v1" else path[len("/apis/"):]
                if any(g == gv for g, _ in RESOURCES):
                    self.reply(200, discovery_resources(gv))
                    return
            if path == "/openapi/v3":
                gvs = sorted({g for g, _ in RESOURCES})
                self.reply(200, {"paths": {("api/" if g == "v1" else "apis/") + g: {
                    "serverRelativeURL": "/openapi/v3/%s%s?hash=%d" % (
                        "api/" if g == "v1" else "apis/", g, len(g))} for g in gvs}})
                return
            if path.startswith("/openapi/v3/"):
                gv = path[len("/openapi/v3/"):].split("/", 1)[1]
                if any(g == gv for g, _ in RESOURCES):
                    self.reply(200, openapi_v3(gv))
                    return
            if path == "/version":
                self.reply(200, {"major": "1", "minor": "32", "gitVersion": "v1.32.0-fake",
                                 "platform": "linux/amd64"})
                return
            if path in ("/healthz", "/readyz", "/livez"):
                self.reply(200, text="ok")
                return
        p = parse_path(path)
        if not p:
            raise APIError(404, "NotFound", "the server could not find the requested resource")
        gv, ns, resource, name, sub = p
        kind, namespaced, subs = RESOURCES[(gv, resource)]
        if ns and not namespaced:
            raise APIError(404, "NotFound", "the server could not find the requested resource")
        if sub and sub not in subs:
            raise APIError(404, "NotFound", "the server could not find the requested resource")
        store = self.server.state.objects.setdefault((gv, resource), {})
        key = ("%s/%s" % (ns, name)) if namespaced and ns else name
        self.gvr = (gv, resource)
        if self.command == "GET" and not name and q.get("watch") in ("1", "true"):
            return self.watch(gv, resource, kind, ns if namespaced else None, q)
        if self.command == "GET" and not name:
            self.list(gv, resource, kind, ns if namespaced else None, q, store)
        elif self.command == "POST" and not name:
            self.create(gv, resource, kind, ns, q, body, store)
        elif not name or (namespaced and not ns):
            raise APIError(405, "MethodNotAllowed", "the server does not allow this method on "
                           "the requested resource")
        elif self.command == "GET":
            self.reply(200, self.get(store, key, resource, name))
        elif self.command == "PATCH":
            self.patch(store, key, resource, name, sub, q, body)
        elif self.command == "PUT":
            self.put(store, key, resource, name, sub, q, body)
        elif self.command == "DELETE":
            obj = self.get(store, key, resource, name)
            if q.get("dryRun") != "All":
                self.server.state.write(self.gvr, key, None, obj)
            self.reply(200, obj)
        else:
            raise APIError(405, "MethodNotAllowed", "method not allowed")

    def watch(self, gv, resource, kind, ns, q):
        """GET <collection>?watch=1, set up with the lock held: the events
        since resourceVersion (unset or "0": an ADDED of every object), the
        watcher registered at once so that no write falls between.  -> the
        function that streams, run without the lock."""
        state, gvr = self.server.state, (gv, resource)
        match_field = parse_field_selector(q.get("fieldSelector", ""), resource)
        match_label = parse_label_selector(q.get("labelSelector", ""))
        w = Watcher(ns, lambda o: match_field(o) and match_label(o))
        timeout = q.get("timeoutSeconds", "")
        if timeout and not timeout.isdigit():
            raise APIError(400, "BadRequest", 'invalid timeoutSeconds "%s"' % timeout)
        deadline = time.monotonic() + (int(timeout) if timeout else 1e9)
        want, initial, error = q.get("resourceVersion", ""), [], None
        if want in ("", "0"):
            store = state.objects.get(gvr, {})
            initial = [Event(0, k, store[k], None) for k in state.sorted_keys(gvr)]
        else:
            n = parse_rv(want)
            window = state.window.get(gvr, state.start_rv)
            try:
                self.wait_fresh(n)
            except APIError as e:
                error = status_obj(e.code, e.reason, e.message, e.details)
            if error is None and n < window:
                # watch_cache.go getAllEventsSinceLocked; the watch answers 200
                # and the error is its one event (cacher.go newErrWatcher)
                error = status_obj(410, "Expired", "too old resource version: %d (%d)"
                                   % (n, window))
            initial = [ev for ev in state.history.get(gvr, ()) if ev.rv > n]
        if error is None:
            state.watchers.setdefault(gvr, []).append(w)
        bookmarks = q.get("allowWatchBookmarks") == "true"
        return lambda: self.stream(gvr, kind, w, initial, error, deadline, bookmarks)

    def stream(self, gvr, kind, w, initial, error, deadline, bookmarks):
        """The chunked answer of a watch, one event a line, until
        timeoutSeconds, DELETE /watches or the client goes; BOOKMARK every
        --bookmark-interval seconds when asked for."""
        state, every = self.server.state, self.server.opts.bookmark_interval
        self.log_request_line(200)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Audit-Id", str(uuid.uuid4()))
        self.end_headers()
        try:
            if error is not None:
                self.chunk(watch_line("ERROR", error))
                w.closed = True
            else:
                self.send_events(w, initial)
            next_bookmark = time.monotonic() + every
            while not w.closed:
                now = time.monotonic()
                if now >= deadline:
                    break
                if bookmarks and now >= next_bookmark:
                    with state.lock:  # every event up to state.rv is queued
                        evs, rv = w.take(0), state.rv
                    self.send_events(w, evs)
                    self.chunk(watch_line("BOOKMARK", {"kind": kind, "apiVersion": gvr[0],
                                                       "metadata": {"resourceVersion": str(rv)}}))
                    next_bookmark = now + every
                    continue
                if self.client_gone():
                    self.close_connection = True
                    return
                until = min(deadline, next_bookmark if bookmarks else deadline, now + 1)
                self.send_events(w, w.take(max(until - now, 0)))
            self.send_events(w, w.take(0))  # what was written before the end
            self.wfile.write(b"0\r\n\r\n")
        except OSError:  # the client went (TLS errors included)
            self.close_connection = True
        finally:
            with state.lock:
                if w in state.watchers.get(gvr, []):
                    state.watchers[gvr].remove(w)

    def send_events(self, w, evs):
        buf, size = [], 0
        for ev in evs:
            etype = w.event_type(ev)
            if etype:
                buf.append(ev.line(etype))
                size += len(buf[-1])
            if size > 65536:
                self.chunk(b"".join(buf))
                buf, size = [], 0
        self.chunk(b"".join(buf))

    def chunk(self, data):
        if data:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))

    def client_gone(self):
        """The client closed its end (a watch client sends nothing more)."""
        ready, _, _ = select.select([self.connection], [], [], 0)
        if not ready:
            return False
        if isinstance(self.connection, ssl.SSLSocket):
            return True
        try:
            return self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    @staticmethod
    def get(store, key, resource, name):
        if key not in store:
            raise APIError(404, "NotFound", '%s "%s" not found' % (resource, name),
                           {"name": name, "kind": resource})
        return store[key]

    def list(self, gv, resource, kind, ns, q, store):
        state, gvr = self.server.state, (gv, resource)
        match_field = parse_field_selector(q.get("fieldSelector", ""), resource)
        match_label = parse_label_selector(q.get("labelSelector", ""))
        limit = int(q.get("limit") or 0)
        rv, start = state.rv, ""
        if q.get("continue"):
            try:
                tok = unb64url(q["continue"])
                rv, start = int(tok["rv"]), tok["start"]
            except (ValueError, KeyError, TypeError):
                raise APIError(400, "BadRequest", "continue key is not valid")
            if rv <= state.compacted:
                raise APIError(410, "Expired", EXPIRED_MSG, meta={"continue": b64url(
                    {"v": "meta.k8s.io/v1", "rv": -1, "start": start})})
        else:
            rv, store, limit = self.list_version(gvr, q, store, limit)
        if state.pages_rv != state.rv:
            state.pages.clear()
            state.pages_rv = state.rv
        page_key = (gvr, ns, rv, limit, start, q.get("fieldSelector", ""),
                    q.get("labelSelector", ""))
        data = state.pages.get(page_key) if store is state.objects.get(gvr) else None
        if data is None:
            data = self.list_page(gvr, kind, ns, q, store, rv, start, limit,
                                  lambda o: match_field(o) and match_label(o))
            if store is state.objects.get(gvr):
                if len(state.pages) > 1000:
                    state.pages.clear()
                state.pages[page_key] = data
        self.reply(200, data=data)

    def list_version(self, gvr, q, store, limit):
        """resourceVersion and resourceVersionMatch of a list without continue
        (k8s-conventions.md 3.4; apiserver's "Resource versions" semantics):
        unset: the current state; "0": any state, served whole from the watch
        cache (kube-apiserver 1.32 ignores limit there); N with NotOlderThan
        (the default without limit): the current state, N newer than it
        answers 504 Timeout after 3 s as the watch cache does; N with Exact
        (the default with limit): the state at N, rebuilt from the watch
        history, 410 Expired when N is older than it.  -> (rv, store, limit)."""
        state = self.server.state
        want, match = q.get("resourceVersion", ""), q.get("resourceVersionMatch", "")
        if match and not want:
            raise APIError(422, "Invalid", "ListOptions.meta.k8s.io \"\" is invalid: "
                           "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden "
                           "unless resourceVersion is provided")
        if match not in ("", "Exact", "NotOlderThan"):
            raise APIError(422, "Invalid", "ListOptions.meta.k8s.io \"\" is invalid: "
                           "resourceVersionMatch: Unsupported value: \"%s\"" % match)
        if want in ("", "0"):
            return state.rv, store, 0 if want == "0" else limit
        n = parse_rv(want)
        self.wait_fresh(n)
        if (match or ("Exact" if limit else "NotOlderThan")) == "NotOlderThan":
            return state.rv, store, limit
        if n < state.window.get(gvr, state.start_rv):
            raise APIError(410, "Expired", "The resourceVersion for the provided list is too old.")
        later = [ev for ev in state.history.get(gvr, ()) if ev.rv > n]
        if not later:
            return n, store, limit
        snap = dict(store)
        for ev in reversed(later):
            if ev.prev is None:
                del snap[ev.key]
            else:
                snap[ev.key] = ev.prev
        return n, snap, limit

    def wait_fresh(self, n):
        """A resourceVersion newer than the server's: wait up to 3 s for it,
        then 504 as the watch cache's waitUntilFreshAndBlock does."""
        state, until = self.server.state, time.monotonic() + 3
        while n > state.rv:
            if time.monotonic() > until:
                raise APIError(504, "Timeout", "Too large resource version: %d, current: %d"
                               % (n, state.rv), {"causes": [{
                                   "reason": "ResourceVersionTooLarge",
                                   "message": "Too large resource version"}],
                                   "retryAfterSeconds": 1})
            state.lock.release()
            try:
                time.sleep(0.05)
            finally:
                state.lock.acquire()

    def list_page(self, gvr, kind, ns, q, store, rv, start, limit, match):
        """One page as JSON text, the bytes json.dumps gives the whole list."""
        state = self.server.state
        if store is state.objects.get(gvr):
            keys, item = state.sorted_keys(gvr), lambda k: state.item_bytes(gvr, k, store[k])
        else:  # a rebuilt older state: not cached
            keys = sorted(store)
            item = lambda k: json.dumps({f: v for f, v in store[k].items()  # noqa: E731
                                         if f not in ("kind", "apiVersion")})
        prefix = ns + "/" if ns is not None else ""
        lo = bisect.bisect_left(keys, max(start, prefix))
        hi = bisect.bisect_left(keys, prefix[:-1] + "0") if prefix else len(keys)
        items, more, last = [], False, lo - 1
        for i in range(lo, hi):
            o = store[keys[i]]
            if not match(o):
                continue
            if limit and len(items) == limit:
                more = True
                break
            items.append(item(keys[i]))
            last = i
        meta = {"resourceVersion": str(rv)}
        if more:
            meta["continue"] = b64url({"v": "meta.k8s.io/v1", "rv": rv,
                                       "start": keys[last] + "\x00"})
            if not q.get("fieldSelector") and not q.get("labelSelector"):
                meta["remainingItemCount"] = hi - last - 1
        return '{"kind": %s, "apiVersion": %s, "metadata": %s, "items": [%s]}' % (
            json.dumps(kind + "List"), json.dumps(gvr[0]), json.dumps(meta), ", ".join(items))

    def create(self, gv, resource, kind, ns, q, body, store):
        obj = json.loads(body or b"{}")
        meta = obj.setdefault("metadata", {})
        if ns:
            meta["namespace"] = ns
        if not meta.get("name"):
            raise APIError(422, "Invalid", "%s.%s is invalid: metadata.name: Required value"
                           % (kind, gv))
        key = self.server.state.key(obj)
        if key in store:
            raise APIError(409, "AlreadyExists", '%s "%s" already exists' % (resource, meta["name"]),
                           {"name": meta["name"], "kind": resource})
        meta.setdefault("uid", str(uuid.uuid4()))
        meta.setdefault("creationTimestamp", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
        obj["apiVersion"], obj["kind"] = gv, kind
        if q.get("dryRun") == "All":
            meta["resourceVersion"] = str(self.server.state.rv)
        else:
            self.server.state.write(self.gvr, key, obj, None)
        self.reply(201, obj)

    def check_rv(self, new, cur, resource, name):
        want = (new.get("metadata") or {}).get("resourceVersion")
        if want and want != cur["metadata"].get("resourceVersion"):
            raise APIError(409, "Conflict", 'Operation cannot be fulfilled on %s "%s": the object '
                           'has been modified; please apply your changes to the latest version '
                           'and try again' % (resource, name), {"name": name, "kind": resource})

    def store_update(self, store, key, cur, new, sub, q):
        # the /status strategy resets spec; the main endpoint keeps status
        if sub == "status":
            if "spec" in cur:
                new["spec"] = copy.deepcopy(cur["spec"])
            else:
                new.pop("spec", None)
        elif "status" in cur and cur.get("kind") in ("Node", "Pod", "DaemonSet", "Deployment"):
            new["status"] = copy.deepcopy(cur["status"])
        new["metadata"]["name"] = cur["metadata"]["name"]
        new["apiVersion"], new["kind"] = cur["apiVersion"], cur["kind"]
        if q.get("dryRun") != "All":
            if new != cur:
                self.server.state.write(self.gvr, key, new, cur)
            else:
                self.server.state.replaced(self.gvr, key, new)
        self.reply(200, new)

    def patch(self, store, key, resource, name, sub, q, body):
        cur = self.get(store, key, resource, name)
        ctype = self.headers.get("Content-Type", "").split(";")[0].strip()
        try:
            patch = json.loads(body or b"")
        except ValueError as e:
            raise APIError(400, "BadRequest", "error decoding patch: %s" % e)
        if ctype == "application/merge-patch+json":
            new = merge_patch(cur, patch)
        elif ctype == "application/strategic-merge-patch+json":
            new = strategic_patch(cur, patch)
        elif ctype == "application/json-patch+json":
            new = json_patch(cur, patch)
        else:
            raise APIError(415, "UnsupportedMediaType", 'the body of the request was in an '
                           'unknown format - accepted media types include: application/json-patch'
                           '+json, application/merge-patch+json, application/strategic-merge-'
                           'patch+json')
        if isinstance(patch, dict):
            self.check_rv(patch, cur, resource, name)
        elif new["metadata"].get("resourceVersion") != cur["metadata"].get("resourceVersion"):
            self.check_rv(new, cur, resource, name)
        self.store_update(store, key, cur, new, sub, q)

    def put(self, store, key, resource, name, sub, q, body):
        cur = self.get(store, key, resource, name)
        new = json.loads(body or b"{}")
        new.setdefault("metadata", {})
        self.check_rv(new, cur, resource, name)
        if cur["metadata"].get("namespace"):
            new["metadata"]["namespace"] = cur["metadata"]["namespace"]
        self.store_update(store, key, cur, new, sub, q)


class Churn:
    """The change generator of --churn and POST /churn (the header says
    what it makes); a thread that writes as the API does, under the lock."""
    GVR_PODS, GVR_NODES = ("v1", "pods"), ("v1", "nodes")

    def __init__(self, state):
        self.state, self.rates, self.cond = state, {}, threading.Condition()
        self.done = {"podChanges": 0, "nodeModified": 0}
        self.victim = None
        threading.Thread(target=self.run, daemon=True).start()

    def set(self, doc):
        with self.cond:
            self.rates = {"pods": float(doc.get("podChangesPerSecond") or 0),
                          "nodes": float(doc.get("nodeModifiedEverySeconds") or 0)}
            self.start, self.base = time.monotonic(), dict(self.done)
            self.cond.notify()

    def run(self):
        while True:
            with self.cond:
                while not any(self.rates.values()):
                    self.cond.wait()
                rates, start, base = self.rates, self.start, self.base
            elapsed = time.monotonic() - start
            with self.state.lock:
                nodes = len(self.state.objects.get(self.GVR_NODES, {}))
                want_pods = base["podChanges"] + int(elapsed * rates["pods"])
                want_nodes = base["nodeModified"] + (
                    int(elapsed * nodes / rates["nodes"]) if rates["nodes"] else 0)
                while self.done["podChanges"] < want_pods and self.pod_change():
                    self.done["podChanges"] += 1
                while self.done["nodeModified"] < want_nodes and self.annotate(
                        self.GVR_NODES, self.done["nodeModified"]):
                    self.done["nodeModified"] += 1
            time.sleep(0.02)

    def annotate(self, gvr, n):
        keys = self.state.sorted_keys(gvr)
        if not keys:
            return False
        key = keys[n % len(keys)]
        cur = self.state.objects[gvr][key]
        meta = dict(cur["metadata"])
        meta["annotations"] = dict(meta.get("annotations") or {}, **{"fake.kilo.io/churn": str(n)})
        self.state.write(gvr, key, dict(cur, metadata=meta), cur)
        return True

    def pod_change(self):
        n, store = self.done["podChanges"], self.state.objects.get(self.GVR_PODS, {})
        step = n % 10
        if step < 7:
            return self.annotate(self.GVR_PODS, n // 10 * 7 + step)
        if step == 7:
            keys = self.state.sorted_keys(self.GVR_PODS)
            if not keys:
                return False
            key = keys[n // 10 % len(keys)]
            self.victim = store[key]
            self.state.write(self.GVR_PODS, key, None, self.victim)
            return True
        old, key = self.victim, State.key(self.victim)
        if step == 8:
            meta = dict(old["metadata"], uid=str(uuid.uuid4()))
            spec = {k: v for k, v in old.get("spec", {}).items() if k != "nodeName"}
            self.state.write(self.GVR_PODS, key, dict(old, metadata=meta, spec=spec,
                                                      status={"phase": "Pending"}), None)
        else:
            cur = store.get(key)
            if cur is None:  # deleted by a client meanwhile
                return True
            spec = dict(cur["spec"], nodeName=old.get("spec", {}).get("nodeName", ""))
            self.state.write(self.GVR_PODS, key, dict(cur, spec=spec,
                                                      metadata=dict(cur["metadata"])), cur)
        return True


EXPIRED_MSG = ("The provided continue parameter is too old to display a consistent list result. "
               "You can start a new list without the continue parameter, or use the continue "
               "token in this response to retrieve the remainder of the results. Continuing with "
               "the provided token results in an inconsistent list - objects that were created, "
               "modified, or deleted between the time the first chunk was returned and now may "
               "show up in the list.")


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        """A client that hangs up mid-answer (a body past its cap) is no error of the fake."""
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--load", action="append", default=[], metavar="FILE")
    ap.add_argument("--urls-file", help="also write the URL line to this file")
    ap.add_argument("--ignore-stdin", action="store_true",
                    help="do not exit when stdin reaches end of file")
    ap.add_argument("--log")
    ap.add_argument("--token", action="append", default=[])
    ap.add_argument("--token-file")
    ap.add_argument("--tls-cert")
    ap.add_argument("--tls-key")
    ap.add_argument("--client-ca")
    ap.add_argument("--fault", action="append", default=[], metavar="JSON")
    ap.add_argument("--lifetime", type=float, default=300)
    ap.add_argument("--watch-history", type=int, default=10000, metavar="N",
                    help="events kept per resource for watches (older: 410 Expired)")
    ap.add_argument("--bookmark-interval", type=float, default=60, metavar="SECONDS")
    ap.add_argument("--churn", metavar="JSON", help="start the change generator (POST /churn)")
    ap.add_argument("--warm-lists", action="store_true",
                    help="serialise every loaded object before listening")
    opts = ap.parse_args()

    state, stop, log_lock = State(opts), threading.Event(), threading.Lock()
    api, control = Server(("127.0.0.1", 0), Handler), Server(("127.0.0.1", 0), Handler)
    for srv, is_control in ((api, False), (control, True)):
        srv.opts, srv.state, srv.log_lock = opts, state, log_lock
        srv.is_control, srv.stop = is_control, stop
    if opts.tls_cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(opts.tls_cert, opts.tls_key)
        if opts.client_ca:
            ctx.load_verify_locations(opts.client_ca)
            ctx.verify_mode = ssl.CERT_OPTIONAL  # a token may authenticate instead
        api.socket = ctx.wrap_socket(api.socket, server_side=True)
    if opts.warm_lists:
        for gvr, store in state.objects.items():
            for key in store:
                state.item_bytes(gvr, key, store[key])
    state.churn = Churn(state)
    if opts.churn:
        state.churn.set(json.loads(opts.churn))
    for srv in (api, control):
        threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.1},
                         daemon=True).start()
    line = json.dumps({"api": "%s://127.0.0.1:%d" % ("https" if opts.tls_cert else "http",
                                                      api.server_port),
                       "control": "http://127.0.0.1:%d" % control.server_port})
    if opts.urls_file:
        with open(opts.urls_file + ".tmp", "w", encoding="utf-8") as f:
            f.write(line + "\n")
        os.rename(opts.urls_file + ".tmp", opts.urls_file)
    print(line, flush=True)

    parent, deadline = os.getppid(), time.monotonic() + opts.lifetime
    while not stop.is_set() and time.monotonic() < deadline and os.getppid() == parent:
        if opts.ignore_stdin:
            stop.wait(0.2)
            continue
        ready, _, _ = select.select([sys.stdin], [], [], 0.2)
        if ready and not sys.stdin.buffer.read1(4096):
            break
    # nothing to flush: exit at once, in-flight requests and all
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
