/* SPDX-License-Identifier: GPL-2.0 */
/* Kubernetes names for the tests that fill a k8s_table by hand. */
#ifndef K8S_NAMES_H
#define K8S_NAMES_H

#include <stdbool.h>
#include <stdio.h>
#include "model/k8s_meta.h"

static inline struct k8s_meta k8s_names(const char *ns, const char *pod, const char *ctr,
					const char *uid, bool sandbox)
{
	struct k8s_meta m = { .sandbox = sandbox };

	snprintf(m.namespace, sizeof(m.namespace), "%s", ns);
	snprintf(m.pod, sizeof(m.pod), "%s", pod);
	snprintf(m.container, sizeof(m.container), "%s", ctr);
	snprintf(m.pod_uid, sizeof(m.pod_uid), "%s", uid);
	return m;
}

#endif /* K8S_NAMES_H */
