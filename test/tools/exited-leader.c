// SPDX-License-Identifier: Apache-2.0
/* exited-leader FILE - a process whose leader thread exits while two other
 * threads live on (a zombie leader, which cgroup v1 drops from tasks), for
 * the membership tests.  Writes "<pid> <tid of a live thread>\n" to FILE
 * (atomically) once both threads run, then pthread_exit()s its main thread.
 * The threads sleep until killed. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static pid_t tid_seen;

static void *sleeper(void *arg)
{
	(void)arg;
	__atomic_store_n(&tid_seen, (pid_t)syscall(SYS_gettid), __ATOMIC_SEQ_CST);
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	char tmp[4096];
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: exited-leader FILE\n");
		return 2;
	}
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, sleeper, NULL) != 0)
			return 1;
	while (!__atomic_load_n(&tid_seen, __ATOMIC_SEQ_CST))
		usleep(1000);
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
	if (!(f = fopen(tmp, "w")) || fprintf(f, "%d %d\n", (int)getpid(), (int)tid_seen) < 0 ||
	    fclose(f) != 0 || rename(tmp, argv[1]) != 0)
		return 1;
	pthread_exit(NULL);
}
