// SPDX-License-Identifier: Apache-2.0
/* fuzz_kubeconfig - a kubeconfig file through k8s_config_load (lib/core/config
 * YAML, then client-go's selection of cluster, user and context).  The
 * input is written to a file under /tmp, as --kubeconfig names one. */
#include <stdio.h>
#include <unistd.h>

#include "fuzz.h"
#include "remote/k8s.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct err e = { 0 };
	struct k8s_config cfg = { 0 };
	struct k8s_options o = { 0 };
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/fuzz-kubeconfig-%ld", (long)getpid());
	f = fopen(path, "w");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	o.kubeconfig = path;
	o.root = "/nonexistent";
	if (k8s_config_load(&cfg, &o, &e) < 0 && e.kind != ERR_SYSTEM && e.kind != ERR_NOTFOUND)
		fuzz_check_err(&e);
	k8s_config_release(&cfg);
	unlink(path);
	return 0;
}
