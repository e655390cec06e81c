/* SPDX-License-Identifier: GPL-2.0 */
/* Growable arrays: the one realloc pattern every module uses. */
#ifndef TD_ARRAY_H
#define TD_ARRAY_H

#include <errno.h>
#include <stdlib.h>

/* Make room for @want elements of @size at *v (capacity *cap), doubling. 0 or -ENOMEM. */
static inline int array_reserve(void **v, size_t *cap, size_t want, size_t size)
{
	size_t ncap = *cap ? *cap : 16;
	void *p;

	if (want <= *cap)
		return 0;
	while (ncap < want)
		ncap *= 2;
	p = realloc(*v, ncap * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = ncap;
	return 0;
}

#endif /* TD_ARRAY_H */
