// SPDX-License-Identifier: Apache-2.0
/* spawn - a child process with a deadline (see spawn.h) */
#include "remote/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"

extern char **environ;

/* The process group of the child running, 0 when none: a signal that ends
 * kilo meanwhile must end that group as well, or the child (a JVM `yarn`
 * starts, a credential plugin) lives on, reparented to init. */
static volatile sig_atomic_t child_group;
static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NFATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))
/* the handlers in place before the run: a fatal signal goes on to them
 * (remote/http_auth's removes the private credential cache) */
static struct sigaction saved[NFATAL];

static void on_fatal(int sig)
{
	if (child_group > 0)
		kill(-(pid_t)child_group, SIGKILL);
	for (size_t i = 0; i < NFATAL; i++)
		if (fatal_signals[i] == sig)
			sigaction(sig, &saved[i], NULL);
	raise(sig); /* delivered once this handler returns */
}

/* Catch (on) or restore (off) the signals that end kilo, around one run. */
static void guard(int on)
{
	for (size_t i = 0; i < NFATAL; i++) {
		if (on) {
			struct sigaction sa = { .sa_handler = on_fatal };

			sigemptyset(&sa.sa_mask);
			sigaction(fatal_signals[i], NULL, &saved[i]);
			if (saved[i].sa_handler != SIG_IGN) /* nohup'd: stay so */
				sigaction(fatal_signals[i], &sa, NULL);
		} else {
			sigaction(fatal_signals[i], &saved[i], NULL);
		}
	}
}

/* Start the child in its own group with the fatal signals held until
 * child_group names it.  Returns its pid, or -1 with *err the errno. */
static pid_t start(const struct spawn_opts *o, int out_fd, int *err)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t fatal, none, held;
	pid_t pid = -1;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	if (o->merge_stderr)
		posix_spawn_file_actions_adddup2(&fa, out_fd, 2);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setpgroup(&attr, 0);
	sigemptyset(&none);
	sigemptyset(&fatal);
	for (size_t i = 0; i < NFATAL; i++)
		sigaddset(&fatal, fatal_signals[i]);
	posix_spawnattr_setsigmask(&attr, &none); /* the child starts with none held */
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
	sigprocmask(SIG_BLOCK, &fatal, &held);
	guard(1);
	*err = posix_spawnp(&pid, o->argv[0], &fa, &attr, o->argv, o->envp ? o->envp : environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	if (*err == 0)
		child_group = pid;
	else
		guard(0);
	sigprocmask(SIG_SETMASK, &held, NULL);
	return *err == 0 ? pid : -1;
}

int spawn_run(const struct spawn_opts *o, struct spawn_result *r, struct err *e)
{
	int64_t deadline = o->timeout_ms > 0 ? clock_mono_ms() + o->timeout_ms : INT64_MAX;
	int pipefd[2], status = 0, rc;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return err_set(e, ERR_SYSTEM, errno, "'%s': pipe", o->argv[0]);
	pid = start(o, pipefd[1], &rc);
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		return err_set(e, rc == ENOENT ? ERR_NOTFOUND : ERR_SYSTEM, rc, "run '%s'",
			       o->argv[0]);
	}
	for (;;) {
		struct pollfd p = { .fd = pipefd[0], .events = POLLIN };
		int64_t left = deadline - clock_mono_ms();
		char buf[4096];
		ssize_t n;

		if (left <= 0) {
			r->timed_out = 1;
			break;
		}
		if (poll(&p, 1, (int)(left > 1000 ? 1000 : left)) <= 0)
			continue;
		n = read(pipefd[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (o->feed)
			o->feed(o->arg, buf, (size_t)n);
	}
	close(pipefd[0]);
	/* the end of its output is no exit: one that closed it and runs on is
	 * killed at the deadline too, never waited for without one */
	while (!r->timed_out) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (clock_mono_ms() >= deadline)
			r->timed_out = 1;
		else
			clock_sleep_ms(10);
	}
	if (r->timed_out) {
		kill(-pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	child_group = 0;
	guard(0);
	r->exited = WIFEXITED(status);
	r->code = r->exited ? WEXITSTATUS(status) : WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	return 0;
}
