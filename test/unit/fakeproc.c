// SPDX-License-Identifier: Apache-2.0
/* fakeproc - start and stop the Python fakes of test/fake/ (see fakeproc.h) */
#include "fakeproc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "remote/http.h"
#include "testlib.h"

void fakeproc_start(struct fakeproc *f, const char *script, const char *const *args)
{
	char *rel = NULL, *path, line[1024];
	const char *argv[32] = { "python3", NULL };
	int in[2], out[2], n = 1;
	size_t len = 0;
	json_error_t je;

	ck_assert(asprintf(&rel, "../fake/%s", script) > 0);
	path = testlib_fixture(rel);
	free(rel);
	argv[n++] = path;
	for (; args && *args && n < 31; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	/* Loopback only: no proxy may see the fake's traffic. */
	unsetenv("http_proxy");
	unsetenv("https_proxy");
	unsetenv("HTTP_PROXY");
	unsetenv("HTTPS_PROXY");
	ck_assert_int_eq(pipe2(in, O_CLOEXEC), 0);
	ck_assert_int_eq(pipe2(out, O_CLOEXEC), 0);
	f->pid = fork();
	ck_assert_int_ge(f->pid, 0);
	if (f->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(in[0], 0);
		dup2(out[1], 1);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	free(path);
	close(in[0]);
	close(out[1]);
	f->in_fd = in[1];
	while (len + 1 < sizeof(line)) {
		struct pollfd p = { .fd = out[0], .events = POLLIN };
		ssize_t r;

		ck_assert_msg(poll(&p, 1, 10000) == 1, "fake %s did not start", script);
		r = read(out[0], line + len, 1);
		ck_assert_msg(r == 1, "fake %s exited before printing its URLs", script);
		if (line[len] == '\n')
			break;
		len++;
	}
	line[len] = '\0';
	close(out[0]);
	f->urls = json_loads(line, 0, &je);
	ck_assert_msg(json_is_object(f->urls), "fake %s printed '%s'", script, line);
}

const char *fakeproc_url(const struct fakeproc *f, const char *name)
{
	const char *url = json_string_value(json_object_get(f->urls, name));

	ck_assert_msg(url != NULL, "fake has no URL '%s'", name);
	return url;
}

json_t *fakeproc_call(const struct fakeproc *f, const char *method, const char *path,
		      const char *body)
{
	struct http_client c = { .timeout_ms = 10000 };
	struct http_response resp = { 0 };
	struct http_request req;
	struct err e = { 0 };
	json_t *doc;

	http_request_init(&req, strcmp(method, "POST") == 0 ? HTTP_POST : HTTP_GET,
			  fakeproc_url(f, "control"), path);
	if (body)
		http_request_set_body(&req, "application/json", body, strlen(body));
	ck_assert_msg(http_perform(&c, &req, &resp, &e) == 0, "%s", e.msg);
	ck_assert_msg(resp.status == 200, "control %s %s: %ld %s", method, path, resp.status,
		      resp.body);
	doc = json_loadb(resp.body, resp.body_len, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	http_request_release(&req);
	http_response_release(&resp);
	return doc;
}

void fakeproc_stop(struct fakeproc *f)
{
	int status;

	if (f->pid <= 0)
		return;
	close(f->in_fd);
	for (int i = 0; i < 500; i++) {
		if (waitpid(f->pid, &status, WNOHANG) == f->pid)
			goto done;
		nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
	}
	kill(f->pid, SIGKILL);
	waitpid(f->pid, &status, 0);
done:
	json_decref(f->urls);
	f->urls = NULL;
	f->pid = 0;
}
