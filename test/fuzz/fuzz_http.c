// SPDX-License-Identifier: Apache-2.0
/* fuzz_http - response parsing: header lines (http_response_header, with
 * Retry-After, Location, Content-Type), then the body as JSON and its
 * one-line snippet for messages. */
#include "fuzz.h"
#include "remote/http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = { 0 };
	struct http_response r = { 0 };
	const uint8_t *end = memchr(data, '\0', size);
	size_t head = end ? (size_t)(end - data) : size;
	const char *p = (const char *)data, *stop = p + head;
	char snippet[200];
	int64_t ms;

	r.retry_after_ms = -1;
	while (p < stop) {
		const char *nl = memchr(p, '\n', (size_t)(stop - p));
		size_t len = nl ? (size_t)(nl - p + 1) : (size_t)(stop - p);

		http_response_header(&r, p, len, 1700000000000);
		p += len;
	}
	if (r.retry_after_ms < -1)
		abort();
	r.body = fuzz_str(end ? end + 1 : data + size, end ? size - head - 1 : 0);
	r.body_len = end ? size - head - 1 : 0;
	json_decref(http_response_json(&r, &e));
	http_response_snippet(&r, snippet, sizeof(snippet));
	if (strchr(snippet, '\n'))
		abort();
	{
		char *v = fuzz_str(data, head);

		(void)http_parse_retry_after(v, 1700000000000, &ms);
		free(v);
	}
	http_response_release(&r);
	return 0;
}
