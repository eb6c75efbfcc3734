/* SPDX-License-Identifier: Apache-2.0 */
/* nmstate - the phase of a NodeManager container state: the one table every
 * tool uses (org.apache.hadoop.yarn.server.nodemanager.containermanager.
 * container.ContainerState, Hadoop 3.3 and 3.4: 17 states; the REST API's
 * ContainerInfo.state is its name; SCHEMAS.md "ContainerList", phase).  A
 * paused container keeps its allocation; a state the table lacks is
 * NM_PHASE_UNKNOWN, which callers count as running and report.  Pure: the
 * NodeManager's reader (remote/nm) and the ContainerList (doc/containerlist)
 * both use it.
 */
#ifndef KILO_NMSTATE_H
#define KILO_NMSTATE_H

enum nm_phase {
	NM_PHASE_UNKNOWN,  /* a state this code does not know */
	NM_PHASE_STARTING, /* NEW, LOCALIZING, SCHEDULED: no process yet */
	NM_PHASE_RUNNING,  /* RUNNING, RELAUNCHING, REINITIALIZING..., PAUSING, PAUSED, RESUMING */
	NM_PHASE_KILLING,  /* KILLING, CONTAINER_CLEANEDUP_AFTER_KILL: the NM is ending it */
	NM_PHASE_FINISHED, /* EXITED_WITH_SUCCESS, EXITED_WITH_FAILURE, LOCALIZATION_FAILED,
			       * CONTAINER_RESOURCES_CLEANINGUP, DONE */
};

/* "unknown", "starting", "running", "killing", "finished": ContainerList's
 * "phase". */
const char *nm_phase_name(enum nm_phase p);

/* The phase named name (nm_phase_name's), or -1 for another text. */
int nm_phase_from_name(const char *name);

/* The phase of state (NULL gives NM_PHASE_UNKNOWN). */
enum nm_phase nm_state_phase(const char *state);

#endif
