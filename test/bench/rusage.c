// SPDX-License-Identifier: Apache-2.0
/* rusage - run a command RUNS times and print the CPU time it used (user +
 * system, from wait4's struct rusage, microsecond resolution) and its peak
 * resident set size:
 *
 *   rusage [-n RUNS] [-i INPUT] [-o OUTPUT] -- COMMAND [ARG]...
 *   -> "<median s> <min s> <max peak RSS KiB>"
 *
 * Each run reads INPUT (default /dev/null) on stdin and writes stdout to
 * OUTPUT (default /dev/null, truncated every run).  Exit 1 with a message
 * when the command cannot run or exits non-zero.  Used by test/bench/lib.sh.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void redirect(const char *path, int flags, int fd)
{
	int f = open(path, flags, 0644);

	if (f < 0 || dup2(f, fd) < 0) {
		perror(path);
		_exit(127);
	}
	close(f);
}

int main(int argc, char **argv)
{
	const char *in = "/dev/null", *out = "/dev/null";
	double cpu[1000];
	long maxrss = 0;
	int runs = 5, opt, i;

	while ((opt = getopt(argc, argv, "+n:i:o:")) != -1) {
		switch (opt) {
		case 'n':
			runs = atoi(optarg);
			break;
		case 'i':
			in = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			return 2;
		}
	}
	if (optind >= argc || runs < 1 || runs > 1000) {
		fprintf(stderr,
			"usage: rusage [-n RUNS 1..1000] [-i INPUT] [-o OUTPUT] -- COMMAND...\n");
		return 2;
	}
	for (i = 0; i < runs; i++) {
		struct rusage ru;
		int status;
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			redirect(in, O_RDONLY, 0);
			redirect(out, O_WRONLY | O_CREAT | O_TRUNC, 1);
			execvp(argv[optind], argv + optind);
			perror(argv[optind]);
			_exit(127);
		}
		if (wait4(pid, &status, 0, &ru) < 0) {
			perror("wait4");
			return 1;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "rusage: %s failed (status %d)\n", argv[optind], status);
			return 1;
		}
		cpu[i] = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
			 (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
		if (ru.ru_maxrss > maxrss)
			maxrss = ru.ru_maxrss;
	}
	qsort(cpu, (size_t)runs, sizeof(cpu[0]), cmp_double);
	printf("%.6f %.6f %ld\n",
	       runs % 2 ? cpu[runs / 2] : (cpu[runs / 2 - 1] + cpu[runs / 2]) / 2, cpu[0], maxrss);
	return 0;
}
