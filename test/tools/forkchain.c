// SPDX-License-Identifier: Apache-2.0
/* forkchain STOPFILE [USEC] - a process that ignores SIGTERM, forks its
 * successor and exits, over and over (USEC microseconds between
 * generations, default 0): at any moment one or two short-lived pids, so a
 * read of cgroup.procs and the signal after it may never meet the same
 * process.  Each generation stays in the cgroups it was born in.  For the
 * kill tests; the chain ends when STOPFILE exists. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	useconds_t pause = argc > 2 ? (useconds_t)strtoul(argv[2], NULL, 10) : 0;

	if (argc < 2) {
		fprintf(stderr, "usage: forkchain STOPFILE [USEC]\n");
		return 2;
	}
	signal(SIGTERM, SIG_IGN);
	for (;;) {
		pid_t child;

		if (access(argv[1], F_OK) == 0)
			return 0;
		if (pause)
			usleep(pause);
		child = fork();
		if (child > 0)
			_exit(0);
		if (child < 0)
			usleep(1000);
	}
}
