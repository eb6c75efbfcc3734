// SPDX-License-Identifier: Apache-2.0
/* nmstate - the phase of a NodeManager container state (see nmstate.h) */
#include "doc/nmstate.h"

#include <stddef.h>
#include <string.h>

static const struct {
	const char *state;
	enum nm_phase phase;
} phases[] = {
	{ "NEW", NM_PHASE_STARTING },
	{ "LOCALIZING", NM_PHASE_STARTING },
	{ "SCHEDULED", NM_PHASE_STARTING },
	{ "RUNNING", NM_PHASE_RUNNING },
	{ "RELAUNCHING", NM_PHASE_RUNNING },
	{ "REINITIALIZING", NM_PHASE_RUNNING },
	{ "REINITIALIZING_AWAITING_KILL", NM_PHASE_RUNNING },
	{ "PAUSING", NM_PHASE_RUNNING },
	{ "PAUSED", NM_PHASE_RUNNING },
	{ "RESUMING", NM_PHASE_RUNNING },
	{ "KILLING", NM_PHASE_KILLING },
	{ "CONTAINER_CLEANEDUP_AFTER_KILL", NM_PHASE_KILLING },
	{ "EXITED_WITH_SUCCESS", NM_PHASE_FINISHED },
	{ "EXITED_WITH_FAILURE", NM_PHASE_FINISHED },
	{ "LOCALIZATION_FAILED", NM_PHASE_FINISHED },
	{ "CONTAINER_RESOURCES_CLEANINGUP", NM_PHASE_FINISHED },
	{ "DONE", NM_PHASE_FINISHED },
};

static const char *const names[] = { "unknown", "starting", "running", "killing", "finished" };

const char *nm_phase_name(enum nm_phase p)
{
	return (unsigned)p < sizeof(names) / sizeof(names[0]) ? names[p] : "unknown";
}

int nm_phase_from_name(const char *name)
{
	for (size_t i = 0; name && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return (int)i;
	return -1;
}

enum nm_phase nm_state_phase(const char *state)
{
	for (size_t i = 0; state && i < sizeof(phases) / sizeof(phases[0]); i++)
		if (strcmp(state, phases[i].state) == 0)
			return phases[i].phase;
	return NM_PHASE_UNKNOWN;
}
