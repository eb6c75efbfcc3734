/* SPDX-License-Identifier: Apache-2.0 */
/* cleanup.h - cleanup-attribute helpers (crun's spelling).
 *
 * Declare every cleanup variable at the top of its block, initialised:
 *	cleanup_free char *path = NULL;
 *	cleanup_close int fd = -1;
 * and hand ownership out with steal_ptr().  Never goto past one of these.
 * For jansson values use json_auto_t, on new references only.
 */
#ifndef KILO_CLEANUP_H
#define KILO_CLEANUP_H

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline void cleanup_freep(void *p)
{
	void **pp = p;

	free(*pp);
}

static inline void cleanup_closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;

		close(*fd);
		errno = saved;
	}
}

static inline void cleanup_fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

static inline void cleanup_closedirp(DIR **d)
{
	if (*d)
		closedir(*d);
}

#define cleanup_free __attribute__((cleanup(cleanup_freep)))
#define cleanup_close __attribute__((cleanup(cleanup_closep)))
#define cleanup_fclose __attribute__((cleanup(cleanup_fclosep)))
#define cleanup_closedir __attribute__((cleanup(cleanup_closedirp)))

/* Move a pointer out of a cleanup variable: returns it and clears the variable. */
#define steal_ptr(pp)                                                                              \
	({                                                                                         \
		__typeof__(*(pp)) steal_ptr_tmp_ = *(pp);                                          \
		*(pp) = NULL;                                                                      \
		steal_ptr_tmp_;                                                                    \
	})

/* Move an fd out of a cleanup_close variable: returns it and sets the variable to -1. */
#define steal_fd(pfd)                                                                              \
	({                                                                                         \
		int steal_fd_tmp_ = *(pfd);                                                        \
		*(pfd) = -1;                                                                       \
		steal_fd_tmp_;                                                                     \
	})

#endif
