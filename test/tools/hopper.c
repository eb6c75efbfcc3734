// SPDX-License-Identifier: Apache-2.0
/* hopper A B - a process that ignores SIGTERM and moves itself between the
 * cgroup dirs A and B (writing its pid into their cgroup.procs in turn) as
 * fast as it can: no single walk of the tree is sure to see it.  For the
 * kill tests; ends on SIGKILL. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char path[2][4096], pid[24];
	int fd[2];
	size_t len;

	if (argc != 3) {
		fprintf(stderr, "usage: hopper DIR_A DIR_B\n");
		return 2;
	}
	signal(SIGTERM, SIG_IGN);
	for (int i = 0; i < 2; i++) {
		snprintf(path[i], sizeof(path[i]), "%s/cgroup.procs", argv[1 + i]);
		if ((fd[i] = open(path[i], O_WRONLY)) < 0) {
			perror(path[i]);
			return 1;
		}
	}
	len = (size_t)snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	for (unsigned long n = 0;; n++)
		if (write(fd[n & 1], pid, len) < 0)
			return 1;
}
