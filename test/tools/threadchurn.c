// SPDX-License-Identifier: Apache-2.0
/* threadchurn N - a process that ignores SIGTERM and runs N chains of
 * threads, each thread starting its successor and exiting, for ever: at any
 * moment some thread is exiting, and an exiting thread's own cgroup file
 * reads the root.  A thread pool's life, sped up.  For the kill tests; ends
 * on SIGKILL. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *hop(void *arg)
{
	pthread_attr_t attr;
	pthread_t next;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 65536);
	while (pthread_create(&next, &attr, hop, arg) != 0)
		usleep(100);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;

	signal(SIGTERM, SIG_IGN);
	for (int i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, hop, NULL) != 0) {
			perror("pthread_create");
			return 1;
		}
		pthread_detach(t);
	}
	for (;;)
		pause();
}
