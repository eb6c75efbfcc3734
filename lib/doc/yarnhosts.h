/* SPDX-License-Identifier: Apache-2.0 */
/* yarnhosts - the ResourceManager's exclude list
 * (yarn.resourcemanager.nodes.exclude-path) in its plain form, as Hadoop's
 * HostsFileReader reads it: host names separated by whitespace, "#" to the
 * end of a line a comment.  A file whose name ends in ".xml" is the XML
 * form, which kilo does not edit.  Pure: the caller reads and writes the
 * text (a local file, or a ConfigMap key mounted into the RM pod).
 *
 * kilo adds and removes only the hosts its lifecycle decommissions; every
 * other line (the operator's hosts, comments, blank lines) is kept as it is.
 */
#ifndef KILO_YARNHOSTS_H
#define KILO_YARNHOSTS_H

#include "core/err.h"

/* 1 when host is listed in text (a token outside comments; DNS names
 * compare without case), else 0.  NULL text: an empty list. */
int yarn_hosts_has(const char *text, const char *host);

/* The list with host added (add != 0: appended on a line of its own when
 * not listed yet) or removed (every token equal to it; a line left with
 * nothing but whitespace is dropped, a comment after it kept).  *changed is
 * 1 when the text differs.  Returns a new string, or NULL with e set
 * (ERR_INPUT) when host is not a host name (empty, whitespace or '#' in it,
 * longer than 253 bytes). */
char *yarn_hosts_edit(const char *text, const char *host, int add, int *changed, struct err *e);

#endif
