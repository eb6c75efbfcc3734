/* SPDX-License-Identifier: Apache-2.0 */
/* podreq - the effective request of a Pod for one resource, as the
 * scheduler and kubelet count it (kubernetes
 * pkg/api/v1/resource/helpers.go PodRequests, with native sidecars):
 *
 *   max(sum of containers + sum of restartable init containers,
 *       each regular init container + the restartable ones started before it)
 *   + spec.overhead
 *
 * where a container's request is resources.requests[r], else
 * resources.limits[r] (a limit alone is the request of an extended resource
 * such as kubernetes.io/batch-cpu).  Pure: no I/O.
 */
#ifndef KILO_PODREQ_H
#define KILO_PODREQ_H

#include <jansson.h>
#include <stdint.h>

#include "core/err.h"

/* The effective request of pod (a Pod object) for resource, in the
 * resource's integer units (Quantity.Value(), rounded up: milli-cores for
 * kubernetes.io/batch-cpu, bytes for memory).  who names the pod in
 * messages ("ns/name").  Every sum goes through checked arithmetic
 * (core/num).  Returns 0; PODREQ_OVERFLOW with e set when a request or the
 * overhead is negative (the API server refuses those; a hand-made input may
 * not) or a sum does not fit in int64 (ERR_INPUT "Pod <who>.spec.containers: the sum of <r>
 * overflows": the API server accepts each request up to 2^63-1); or -1
 * with e set (ERR_INPUT "Pod <who>.spec.containers[0].resources.requests.<r>:
 * expected ..."), also for a wrong shape, never read as "no request": spec
 * or a container not an object; containers or initContainers not an array;
 * resources, requests, limits or overhead not an object (absent or null is
 * none). */
#define PODREQ_OVERFLOW 1
int podreq_effective(const json_t *pod, const char *who, const char *resource, int64_t *out,
		     struct err *e);

#endif
