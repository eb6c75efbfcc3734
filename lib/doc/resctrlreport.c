// SPDX-License-Identifier: Apache-2.0
/* resctrlreport - the ResctrlReport document (see resctrlreport.h) */
#include "doc/resctrlreport.h"

#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/xalloc.h"
#include "doc/docmeta.h"

static const char *const result_names[] = { "written", "unchanged", "planned", "failed" };
static const char *const mode_names[] = { "tasks", "nm-pid" };

const char *resctrlreport_result_name(enum resctrlreport_result r)
{
	return result_names[r];
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

struct resctrlreport_group *resctrlreport_add_group(struct resctrlreport *r, const char *name,
						    int created, const char *old, const char *new,
						    enum resctrlreport_result result,
						    const char *error)
{
	struct resctrlreport_group *g;

	r->groups = xrealloc(r->groups, (r->ngroups + 1) * sizeof(*r->groups));
	g = &r->groups[r->ngroups++];
	*g = (struct resctrlreport_group){ .name = xstrdup(name),
					   .created = created,
					   .old = dup_or_null(old),
					   .new = dup_or_null(new),
					   .result = result,
					   .error = dup_or_null(error) };
	return g;
}

void resctrlreport_add_task_error(struct resctrlreport *r, const char *msg)
{
	struct resctrlreport_tasks *t = &r->tasks;

	t->errors = xrealloc(t->errors, (t->nerrors + 1) * sizeof(*t->errors));
	t->errors[t->nerrors++] = xstrdup(msg);
}

static json_t *tasks_json(const struct resctrlreport_tasks *t)
{
	json_t *errors = json_array();

	for (size_t i = 0; i < t->nerrors; i++)
		json_array_append_new(errors, jsonio_string(t->errors[i]));
	return json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:o, s:o}", "mode", mode_names[t->mode],
			 "group", t->group, "moved", (json_int_t)t->moved, "gone",
			 (json_int_t)t->gone, "already", (json_int_t)t->already, "failed",
			 (json_int_t)t->failed, "errors", errors, "foreign",
			 docmeta_ids_json(t->foreign, t->nforeign));
}

json_t *resctrlreport_to_json(const struct resctrlreport *r)
{
	json_t *doc = jsonio_new_doc("ResctrlReport"), *groups = json_array();

	json_object_set_new(doc, "dryRun", json_boolean(r->dry_run));
	json_object_set_new(doc, "supported", json_boolean(r->supported));
	if (!r->supported)
		json_object_set_new(doc, "reason", jsonio_string(r->reason));
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct resctrlreport_group *g = &r->groups[i];

		json_array_append_new(groups,
				      json_pack("{s:s, s:b, s:{s:o, s:o, s:s, s:o}}", "name",
						g->name, "created", g->created, "schemata", "old",
						jsonio_string(g->old), "new", jsonio_string(g->new),
						"result", result_names[g->result], "error",
						jsonio_string(g->error)));
	}
	json_object_set_new(doc, "groups", groups);
	json_object_set_new(doc, "tasks", r->has_tasks ? tasks_json(&r->tasks) : json_null());
	return doc;
}

static int group_from_json(const json_t *v, const char *ctx, struct resctrlreport *r, struct err *e)
{
	const char *name = NULL, *old = NULL, *new = NULL, *error = NULL;
	json_t *sch = NULL;
	int created = 0, result = -1;
	char at[96];

	if (!json_is_object(v))
		return jsonio_bad_value(e, ctx, NULL, "an object", v);
	snprintf(at, sizeof(at), "%s.schemata", ctx);
	if (jsonio_get_str(v, ctx, "name", &name, e) < 0 ||
	    jsonio_get_bool(v, ctx, "created", &created, e) < 0 ||
	    jsonio_get_obj(v, ctx, "schemata", &sch, e) < 0)
		return -1;
	if (!name || !*name)
		return jsonio_bad_value(e, ctx, "name", "a group name", json_object_get(v, "name"));
	if (!sch)
		return jsonio_bad_value(e, ctx, "schemata", "an object",
					json_object_get(v, "schemata"));
	if (jsonio_get_str(sch, at, "old", &old, e) < 0 ||
	    jsonio_get_str(sch, at, "new", &new, e) < 0 ||
	    docmeta_get_name(sch, at, "result", result_names, 4, 1, &result, e) < 0 ||
	    jsonio_get_str(sch, at, "error", &error, e) < 0)
		return -1;
	if (docmeta_check_error(sch, at, "group", result == RESCTRLREPORT_FAILED, error, e) < 0)
		return -1;
	resctrlreport_add_group(r, name, created, old, new, (enum resctrlreport_result)result,
				error);
	return 0;
}

static int tasks_from_json(const json_t *v, struct resctrlreport *r, struct err *e)
{
	static const char ctx[] = "ResctrlReport.tasks";
	struct resctrlreport_tasks *t = &r->tasks;
	const char *group = NULL;
	int mode = -1;

	r->has_tasks = 1;
	if (docmeta_get_name(v, ctx, "mode", mode_names, 2, 1, &mode, e) < 0 ||
	    jsonio_get_str(v, ctx, "group", &group, e) < 0)
		return -1;
	if (!group || !*group)
		return jsonio_bad_value(e, ctx, "group", "a group name",
					json_object_get(v, "group"));
	t->mode = (enum resctrlreport_mode)mode;
	t->group = xstrdup(group);
	if (jsonio_get_int(v, ctx, "moved", 0, INT64_MAX, &t->moved, e) < 0 ||
	    jsonio_get_int(v, ctx, "gone", 0, INT64_MAX, &t->gone, e) < 0 ||
	    jsonio_get_int(v, ctx, "already", 0, INT64_MAX, &t->already, e) < 0 ||
	    jsonio_get_int(v, ctx, "failed", 0, INT64_MAX, &t->failed, e) < 0 ||
	    docmeta_strings_from_json(v, ctx, "errors", &t->errors, &t->nerrors, e) < 0 ||
	    docmeta_ids_from_json(v, ctx, "foreign", &t->foreign, &t->nforeign, e) < 0)
		return -1;
	return 0;
}

int resctrlreport_from_json(const json_t *doc, struct resctrlreport *out, struct err *e)
{
	static const char ctx[] = "ResctrlReport";
	json_t *groups = NULL, *tasks, *v;
	const char *reason = NULL;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (jsonio_get_bool(doc, ctx, "dryRun", &out->dry_run, e) < 0 ||
	    jsonio_get_bool(doc, ctx, "supported", &out->supported, e) < 0 ||
	    jsonio_get_str(doc, ctx, "reason", &reason, e) < 0 ||
	    jsonio_get_arr(doc, ctx, "groups", &groups, e) < 0)
		goto fail;
	out->reason = dup_or_null(reason);
	json_array_foreach(groups, i, v)
	{
		char at[48];

		snprintf(at, sizeof(at), "%s.groups[%zu]", ctx, i);
		if (group_from_json(v, at, out, e) < 0)
			goto fail;
	}
	tasks = json_object_get(doc, "tasks");
	if (tasks && !json_is_null(tasks) && !json_is_object(tasks)) {
		jsonio_bad_value(e, ctx, "tasks", "an object or null", tasks);
		goto fail;
	}
	if (json_is_object(tasks) && tasks_from_json(tasks, out, e) < 0)
		goto fail;
	return 0;
fail:
	resctrlreport_release(out);
	return -1;
}

void resctrlreport_release(struct resctrlreport *r)
{
	free(r->reason);
	for (size_t i = 0; i < r->ngroups; i++) {
		free(r->groups[i].name);
		free(r->groups[i].old);
		free(r->groups[i].new);
		free(r->groups[i].error);
	}
	free(r->groups);
	free(r->tasks.group);
	docmeta_strings_free(r->tasks.errors, r->tasks.nerrors);
	free(r->tasks.foreign);
	memset(r, 0, sizeof(*r));
}
