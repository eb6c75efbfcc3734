#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# mk-yarn-tree.sh DIR v1|v2 [N] - a fake sysroot with a hadoop-yarn cgroup,
# for yarn-copilot tests and benchmarks.
#
#  v1: cpu, cpuacct and memory mounted separately, cgroupfs driver
#      (kubepods/besteffort/hadoop-yarn); v2: unified, systemd driver
#      (kubepods.slice/kubepods-besteffort.slice/hadoop-yarn).
#  Without N: the containers of test/fixtures/yarn/nm-containers.json,
#      ..._000001 (processes 4101, 4102) and ..._000003 (4201; on v1 without
#      a memory dir), plus ..._000004, which the NM does not list and which
#      has no process, and a dir "tmp" that is not a container.
#  With N: N containers ..._<10+i> with one process each, for benchmarks.
# Boot time 2026-11-29T00:00:00Z, USER_HZ 100.
set -eu
dir=$1 ver=$2 n=${3:-}
if [ "$ver" = v1 ]; then
	hy=kubepods/besteffort/hadoop-yarn
	cpu=$dir/sys/fs/cgroup/cpu/$hy acct=$dir/sys/fs/cgroup/cpuacct/$hy
	mem=$dir/sys/fs/cgroup/memory/$hy threads=tasks
else
	hy=kubepods.slice/kubepods-besteffort.slice/hadoop-yarn
	cpu=$dir/sys/fs/cgroup/$hy acct=$cpu mem=$cpu threads=cgroup.threads
	mkdir -p "$dir/sys/fs/cgroup"
	echo "cpuset cpu io memory pids" >"$dir/sys/fs/cgroup/cgroup.controllers"
fi
mkdir -p "$cpu" "$acct" "$mem" "$dir/proc"
printf 'cpu  100 0 100 1000 0 0 0 0 0 0\nbtime 1795910400\n' >"$dir/proc/stat"
# what node-usage needs besides the cgroups (the man pages' pipelines run on this tree)
printf 'MemTotal:       16384000 kB\nMemAvailable:   12288000 kB\n' >"$dir/proc/meminfo"
mkdir -p "$dir/sys/devices/system/cpu" "$dir/proc/sys/kernel"
echo 0-3 >"$dir/sys/devices/system/cpu/online"
echo fake-node >"$dir/proc/sys/kernel/hostname"

# container ID PIDS CPU_NS MEM_ANON (MEM_ANON "-": no memory dir on v1)
container() {
	id=container_1326121700862_0006_01_$1
	mkdir -p "$cpu/$id" "$acct/$id"
	: >"$cpu/$id/cgroup.procs"
	: >"$cpu/$id/$threads" # each process's leader thread: its members
	for p in $2; do
		echo "$p" >>"$cpu/$id/cgroup.procs"
		echo "$p" >>"$cpu/$id/$threads"
		mkdir -p "$dir/proc/$p"
		if [ "$ver" = v1 ]; then # its own view: the container in cpu, cpuacct, memory
			printf '3:cpu:/%s\n2:cpuacct:/%s\n1:memory:/%s\n' "$hy/$id" "$hy/$id" "$hy/$id" \
				>"$dir/proc/$p/cgroup"
		else
			echo "0::/$hy/$id" >"$dir/proc/$p/cgroup"
		fi
		# field 22, starttime: 15:40:00 plus the pid's last two digits in s
		echo "$p (java) S 1 $p $p 0 -1 4194560 100 0 0 0 10 5 0 0 20 0 30 0 $((5640000 + p % 100 * 100)) 1000 10" \
			>"$dir/proc/$p/stat"
	done
	if [ "$ver" = v1 ]; then
		echo "$3" >"$acct/$id/cpuacct.usage"
		[ "$4" = - ] && return 0
		mkdir -p "$mem/$id"
		# as the kernel shows any cgroup dir (the NM's memory handler writes the
		# pids into it too)
		cp "$cpu/$id/cgroup.procs" "$cpu/$id/$threads" "$mem/$id/"
		printf 'cache 1000\nrss %s\ntotal_cache 4096000\ntotal_rss %s\ntotal_active_anon %s\ntotal_inactive_anon 1048576\ntotal_active_file 4000000\ntotal_inactive_file 96000\ntotal_unevictable 0\n' \
			"$4" "$4" "$(($4 - 1048576))" >"$mem/$id/memory.stat"
		echo "$(($4 + 4096000))" >"$mem/$id/memory.usage_in_bytes"
	else
		printf 'usage_usec %s\nuser_usec 1\nsystem_usec 1\n' "$(($3 / 1000))" >"$cpu/$id/cpu.stat"
		[ "$4" = - ] && set -- "$1" "$2" "$3" 2097152
		printf 'anon %s\nfile 4096000\nactive_anon %s\ninactive_anon 1048576\nactive_file 4000000\ninactive_file 96000\nunevictable 0\n' \
			"$4" "$(($4 - 1048576))" >"$mem/$id/memory.stat"
		echo "$(($4 + 4096000))" >"$mem/$id/memory.current"
	fi
}

if [ -z "$n" ]; then
	container 000001 "4101 4102" 123456789000 536870912
	container 000003 "4201" 5000000000 -
	container 000004 "" 0 1048576
	mkdir -p "$cpu/tmp"
else
	i=0
	while [ "$i" -lt "$n" ]; do
		container "$(printf '%06d' $((10 + i)))" "$((10000 + i))" $((i * 1000000)) 16777216
		i=$((i + 1))
	done
fi
