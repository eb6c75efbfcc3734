#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# build.sh [VERSION] - resolve Hadoop's YARN daemons and build SleepApp for
# the real-YARN tests: build/hadoop/VERSION/{classes,classpath}. VERSION
# defaults to $HADOOP_VERSION, else 3.4.2. Maven's local repository is
# build/m2 (downloads once per machine).
#
# Without java or mvn, or when Maven Central does not answer, it prints one
# line saying why, writes that reason to build/hadoop/VERSION/skip (the tests
# then skip with it) and exits 0; with KILO_REQUIRE_HADOOP=1 it exits 1. A
# build that fails while Maven Central answers (a VERSION it does not serve)
# exits 1.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
v=${1:-${HADOOP_VERSION:-3.4.2}}
out=$top/build/hadoop/$v
mkdir -p "$out"
rm -f "$out/skip"
give_up() {
	rm -f "$out/classpath"
	if [ "${KILO_REQUIRE_HADOOP:-0}" = 1 ]; then
		echo "hadoop: real-YARN tests required (KILO_REQUIRE_HADOOP=1), but: $1"
		exit 1
	fi
	echo "hadoop: real-YARN tests skipped: $1"
	echo "$1" >"$out/skip"
	exit 0
}
command -v java >/dev/null 2>&1 || give_up "no java (scripts/install-deps installs default-jdk-headless)"
command -v mvn >/dev/null 2>&1 || give_up "no mvn (scripts/install-deps installs maven)"
# up to date: nothing newer in test/hadoop than the resolved classpath
if [ -s "$out/classpath" ] && [ -z "$(find "$top/test/hadoop/pom.xml" "$top/test/hadoop/src" \
	-newer "$out/classpath" -print 2>/dev/null | head -n 1)" ]; then
	exit 0
fi
log=$out/maven.log
if ! mvn -B -q -Dstyle.color=never -f "$top/test/hadoop/pom.xml" -Dmaven.repo.local="$top/build/m2" \
	-Dhadoop.version="$v" package dependency:build-classpath \
	-Dmdep.outputFile="$out/classpath.new" >"$log" 2>&1; then
	why=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '\[ERROR\]' | head -n 1 | cut -c1-400)
	# Maven Central answering: not a machine without it, but a version it
	# does not serve (a typo in HADOOP_VERSION) or a broken build: a failure
	if curl -sf -o /dev/null --max-time 10 https://repo.maven.apache.org/maven2/org/apache/hadoop/hadoop-yarn-api/maven-metadata.xml; then
		echo "hadoop: mvn could not build test/hadoop for Hadoop $v (Maven Central answers; see $log): ${why:-}"
		exit 1
	fi
	give_up "Maven Central does not answer (mvn could not build test/hadoop for Hadoop $v: ${why:-see $log})"
fi
mv "$out/classpath.new" "$out/classpath"
echo "hadoop: Hadoop $v resolved ($(tr ':' '\n' <"$out/classpath" | wc -l) jars)"
