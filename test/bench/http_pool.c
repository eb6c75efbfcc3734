// SPDX-License-Identifier: Apache-2.0
/* http_pool - time GET /ws/v1/cluster/info against the fake RM, with a new
 * connection per request and with an http_pool.  Usage: http_pool URL N
 * [CA_FILE]; prints "<ms per request without pool> <ms with pool>". */
#include <stdio.h>
#include <stdlib.h>

#include "core/clock.h"
#include "remote/http.h"

static double run(const char *url, int n, const char *ca, int pooled)
{
	struct http_client c = { .timeout_ms = 5000, .tls.ca_file = ca };
	struct http_response resp = { 0 };
	struct http_request req;
	struct err e = { 0 };
	int64_t t0;

	if (pooled)
		c.pool = http_pool_new();
	http_request_init(&req, HTTP_GET, url, "/ws/v1/cluster/info");
	t0 = clock_mono_ms();
	for (int i = 0; i < n; i++) {
		if (http_perform(&c, &req, &resp, &e) < 0 || resp.status != 200) {
			fprintf(stderr, "http_pool: %s\n", e.msg);
			exit(1);
		}
	}
	t0 = clock_mono_ms() - t0;
	http_request_release(&req);
	http_response_release(&resp);
	http_pool_free(c.pool);
	return (double)t0 / n;
}

int main(int argc, char **argv)
{
	struct err e = { 0 };
	double plain, pooled;

	if (argc < 3 || http_global_init(&e) < 0)
		return 2;
	plain = run(argv[1], atoi(argv[2]), argc > 3 ? argv[3] : NULL, 0);
	pooled = run(argv[1], atoi(argv[2]), argc > 3 ? argv[3] : NULL, 1);
	printf("%.3f %.3f\n", plain, pooled);
	http_global_cleanup();
	return 0;
}
