// SPDX-License-Identifier: Apache-2.0
/* fuzz_yarn - ResourceManager payloads: /ws/v1/cluster/nodes (yarn_nodes_parse),
 * /ws/v1/cluster/info (yarn_cluster_info_parse), a RemoteException body. */
#include "fuzz.h"
#include "remote/yarn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = { 0 };
	struct yarn_nodes nodes = { 0 };
	enum yarn_ha_state ha;
	json_t *doc = fuzz_json(data, size);

	if (!doc)
		return 0;
	if (yarn_nodes_parse(doc, YARN_NODES_STRICT, &nodes, &e) == 0) {
		for (size_t i = 0; i < nodes.n; i++)
			if (yarn_nodes_find(&nodes, nodes.items[i].id) == NULL)
				abort();
	} else {
		fuzz_check_err(&e);
	}
	yarn_nodes_release(&nodes);
	err_clear(&e);
	if (yarn_cluster_info_parse(doc, &ha, &e) < 0)
		fuzz_check_err(&e);
	free(yarn_remote_exception(doc));
	json_decref(doc);
	return 0;
}
