# SPDX-License-Identifier: Apache-2.0
"""runcpu - the CPU time (user + system) of a command, run again and again:
the median over RUNS runs, after WARM runs that are not counted (they warm
the page and dentry caches), from getrusage(RUSAGE_CHILDREN) around each
run.  Used by the benchmarks written in Python (qos-cgset*.sh)."""
import resource
import statistics
import subprocess


def measure(cmd, stdin_path, runs, warm=3):
    """(median ms, [stdout of each counted run])"""
    def once():
        with open(stdin_path) as f:
            return subprocess.run(cmd, stdin=f, capture_output=True, check=True).stdout
    for _ in range(warm):
        once()
    times, outs = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        outs.append(once())
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(((after.ru_utime - before.ru_utime) +
                      (after.ru_stime - before.ru_stime)) * 1000)
    return statistics.median(times), outs
