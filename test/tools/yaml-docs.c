// SPDX-License-Identifier: Apache-2.0
/* yaml-docs - parse multi-document YAML files with lib/core/config (built by
 * `make check`, not installed).
 *
 *   yaml-docs FILE...
 *
 * Splits each file at its "---" lines (the YAML document marker that
 * Kubernetes manifests use), loads every document that holds more than
 * comments with config_load_string() and prints one JSON array of all the
 * documents of all the files, in order.  Line numbers in messages are the
 * file's: each document is loaded behind as many empty lines as precede it.
 * Errors: "yaml-docs: <file>:<line>:<col>: <message>", exit 2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/cleanup.h"
#include "core/config.h"
#include "core/jsonio.h"
#include "core/xalloc.h"

/* 1 when text[0..len) has a line that is neither blank nor a comment. */
static int has_content(const char *text, size_t len)
{
	int bol = 1;

	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\n') {
			bol = 1;
		} else if (bol && text[i] != ' ' && text[i] != '\t' && text[i] != '\r') {
			if (text[i] != '#')
				return 1;
			bol = 0;
		}
	}
	return 0;
}

/* Load text[0..len), which starts at 1-based line `line` of name. */
static int load_doc(json_t *out, const char *name, const char *text, size_t len, int line,
		    struct err *e)
{
	struct config c = { 0 };
	cleanup_free char *buf = NULL;
	int ret;

	if (!has_content(text, len))
		return 0;
	buf = xmalloc((size_t)line + len);
	memset(buf, '\n', (size_t)line - 1);
	memcpy(buf + line - 1, text, len);
	buf[line - 1 + len] = '\0';
	ret = config_load_string(&c, buf, name, e);
	if (ret == 0)
		json_array_append(out, c.root);
	config_release(&c);
	return ret;
}

/* The whole file as a new string, or NULL with e set. */
static char *read_text(const char *path, struct err *e)
{
	cleanup_fclose FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, n;
	char buf[4096];

	if (!f) {
		err_set(e, ERR_SYSTEM, errno, "%s: cannot open", path);
		return NULL;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		text = xrealloc(text, len + n + 1);
		memcpy(text + len, buf, n);
		len += n;
	}
	if (ferror(f)) {
		free(text);
		err_set(e, ERR_SYSTEM, EIO, "%s: read error", path);
		return NULL;
	}
	if (!text)
		text = xstrdup("");
	text[len] = '\0';
	return text;
}

static int load_file(json_t *out, const char *path, struct err *e)
{
	cleanup_free char *text = read_text(path, e);
	const char *doc, *p;
	int line = 1, start = 1;

	if (!text)
		return -1;
	doc = text;
	for (p = text; *p; line++) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if ((n == 3 || (n > 3 && (p[3] == ' ' || p[3] == '\t' || p[3] == '\r'))) &&
		    strncmp(p, "---", 3) == 0) {
			if (load_doc(out, path, doc, (size_t)(p - doc), start, e) < 0)
				return -1;
			doc = nl ? nl + 1 : p + n;
			start = line + 1;
		}
		p = nl ? nl + 1 : p + n;
	}
	return load_doc(out, path, doc, strlen(doc), start, e);
}

int main(int argc, char **argv)
{
	json_auto_t *out = json_array();
	struct err e = { 0 };

	cli_init("yaml-docs");
	if (argc < 2)
		return cli_usage_error("expected one or more YAML files");
	for (int i = 1; i < argc; i++) {
		if (load_file(out, argv[i], &e) < 0) {
			cli_print_err(&e);
			return cli_finish(KILO_EXIT_USAGE);
		}
	}
	if (jsonio_write(stdout, out, 0, &e) < 0) {
		cli_print_err(&e);
		return cli_finish(KILO_EXIT_FAIL);
	}
	return cli_finish(KILO_EXIT_OK);
}
