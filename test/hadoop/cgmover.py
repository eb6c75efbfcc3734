#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""cgmover.py WORK HIERARCHY CONTROLLER... - what the NodeManager's cgroups
handler (LinuxContainerExecutor with CGroupsHandlerImpl, cgroup v1) does for
the tests, whose NodeManagers run containers with the DefaultContainerExecutor:
every 50 ms, each process whose working directory is under WORK and whose
environment holds CONTAINER_ID=container_... is written into
/sys/fs/cgroup/CONTROLLER/HIERARCHY/<that id>/cgroup.procs of each
controller (the dir made when missing); a container dir left without a
process for 1 s is removed in every controller (the NM deletes it when the
container is cleaned up). Only processes under WORK are ever moved. Runs
until killed; one line per move or removal on stderr."""
import os
import sys
import time

work, hier, ctrls = os.path.realpath(sys.argv[1]), sys.argv[2].strip("/"), sys.argv[3:]
root = "/sys/fs/cgroup"
empty_since = {}


def container_of(pid):
    try:
        cwd = os.readlink("/proc/%s/cwd" % pid)
        if not (cwd + "/").startswith(work + "/"):
            return None
        with open("/proc/%s/environ" % pid, "rb") as f:
            env = f.read().split(b"\0")
    except OSError:
        return None
    for kv in env:
        if kv.startswith(b"CONTAINER_ID=container_"):
            cid = kv[len(b"CONTAINER_ID="):].decode("ascii", "replace")
            if "/" not in cid and cid.replace("_", "").replace("e", "").isalnum():
                return cid
    return None


def procs(d):
    try:
        with open(os.path.join(d, "cgroup.procs")) as f:
            return set(f.read().split())
    except OSError:
        return set()


while True:
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        cid = container_of(pid)
        if not cid:
            continue
        for c in ctrls:
            d = os.path.join(root, c, hier, cid)
            try:
                os.makedirs(d, exist_ok=True)
                if c == "cpuset":
                    for k in ("cpuset.cpus", "cpuset.mems"):
                        with open(os.path.join(d, k)) as f:
                            if f.read().strip():
                                continue
                        with open(os.path.join(os.path.dirname(d), k)) as src:
                            v = src.read()
                        with open(os.path.join(d, k), "w") as f:
                            f.write(v)
                if pid not in procs(d):
                    with open(os.path.join(d, "cgroup.procs"), "w") as f:
                        f.write(pid)
                    sys.stderr.write("moved %s (%s) into %s\n" % (pid, cid, d))
            except OSError as e:
                sys.stderr.write("cannot move %s into %s: %s\n" % (pid, d, e))
    now = time.monotonic()
    base = os.path.join(root, ctrls[0], hier)
    try:
        dirs = [n for n in os.listdir(base) if n.startswith("container_")]
    except OSError:
        dirs = []
    for n in dirs:
        if any(procs(os.path.join(root, c, hier, n)) for c in ctrls):
            empty_since.pop(n, None)
            continue
        since = empty_since.setdefault(n, now)
        if now - since >= 1.0:
            for c in ctrls:
                try:
                    os.rmdir(os.path.join(root, c, hier, n))
                except OSError:
                    pass
            empty_since.pop(n, None)
            sys.stderr.write("removed %s\n" % n)
    sys.stderr.flush()
    time.sleep(0.05)
