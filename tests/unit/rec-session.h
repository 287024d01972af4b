/*
 * Helpers for tests that observe several revisions of a recorded app in
 * one session: the recording is swapped between observations with
 * cua_backend_recorded_replace(). Recordings are written with ' for ".
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TEST_REC_SESSION_H
#define CUA_TEST_REC_SESSION_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cua/cua.h>

#include "backend/backend.h"
#include "core/session.h"
#include "core/strbuf.h"

/* The recording text with every ' turned into ". */
static inline char *
rec_json(const char *s)
{
	char *j = strdup(s);

	assert_non_null(j);
	for (char *p = j; *p; p++)
		if (*p == '\'')
			*p = '"';
	return j;
}

/* Writes the JSON text `json` as is to a new temporary file; its path
 * (free it). */
static inline char *
rec_write_json(const char *json)
{
	char path[] = "/tmp/cua-test-rec-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, json, strlen(json)), (ssize_t)strlen(json));
	close(fd);
	return strdup(path);
}

static inline char *
rec_write(const char *recording)
{
	char *j = rec_json(recording);
	char *path = rec_write_json(j);

	free(j);
	return path;
}

/* A session replaying the JSON text `json` as is, with the default
 * options. */
static inline cua_session *
rec_session_json(const char *json)
{
	char *path = rec_write_json(json);
	cua_session *s = NULL;

	if (cua_session_new_recorded(&s, path, 0) != CUA_OK)
		fail_msg("load: %s", cua_error_message());
	unlink(path);
	free(path);
	return s;
}

/* A session replaying `recording`. */
static inline cua_session *
rec_session(const char *recording)
{
	char *j = rec_json(recording);
	cua_session *s = rec_session_json(j);

	free(j);
	/* a recording never changes: no warm-up sampling of small trees */
	assert_int_equal(cua_session_set_option(s, "warmup_cap_ms", "0"),
			 CUA_OK);
	return s;
}

/* From now on `s` replays `recording` (the app's next revision). */
static inline void
rec_replace(cua_session *s, const char *recording)
{
	char *path = rec_write(recording);

	if (cua_backend_recorded_replace(s->backend, path) != CUA_OK)
		fail_msg("replace: %s", cua_error_message());
	unlink(path);
	free(path);
}

static inline cua_tree *
rec_observe(cua_session *s, uint32_t flags)
{
	cua_tree *t = NULL;

	if (cua_session_observe(s, "pid:4242", flags, &t) != CUA_OK)
		fail_msg("observe: %s", cua_error_message());
	return t;
}

/* Replaces the recording, then observes. */
static inline cua_tree *
rec_next(cua_session *s, const char *recording, uint32_t flags)
{
	rec_replace(s, recording);
	return rec_observe(s, flags);
}

static inline char *
rec_render(cua_tree *t, uint32_t flags)
{
	char *text = NULL;

	assert_int_equal(cua_tree_render(t, flags, &text), CUA_OK);
	return text;
}

/* The id of the first element with this title (fails when none). */
static inline uint32_t
rec_id(cua_tree *t, const char *title)
{
	for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
		cua_element *e = cua_tree_get_element(t, i);

		if (strcmp(cua_element_get_title(e), title) == 0)
			return cua_element_get_id(e);
	}
	fail_msg("no element titled '%s'", title);
	return UINT32_MAX;
}

/* 1 when some element has this title. */
static inline int
rec_has(cua_tree *t, const char *title)
{
	for (size_t i = 0; i < cua_tree_get_element_count(t); i++)
		if (strcmp(cua_element_get_title(cua_tree_get_element(t, i)),
			   title) == 0)
			return 1;
	return 0;
}

/* The largest id in the tree. */
static inline uint32_t
rec_max_id(cua_tree *t)
{
	uint32_t m = 0;

	for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
		uint32_t id = cua_element_get_id(cua_tree_get_element(t, i));

		if (id > m)
			m = id;
	}
	return m;
}

/* Recording pieces (use ' for "). An app with pid 4242 and one window,
 * or several windows of which `active` is the root. */
#define REC_SHOW "'states':['showing','visible','enabled','sensitive']"
#define REC_HEAD(title)                                                        \
	"{'schema':'libcua.recording/1','app':{'pid':4242,'start_time':99,"    \
	"'app_id':'org.example.Form','app_name':'Form'},"                      \
	"'windows':[{'x11_window':77,'active':true,'title':'" title "',"       \
	"'frame':[0,0,800,600]}],"
#define REC_APP(title, kids)                                                   \
	REC_HEAD(title)                                                        \
	"'root':{'role':'application','name':'Form','children':["              \
	"{'id':'win','role':'frame','name':'" title "'," REC_SHOW ","          \
	"'extents':[0,0,800,600],'children':[" kids "]}]}}"
/* A push button with an object identity. */
#define REC_BTN(ident, name)                                                   \
	"{'id':'" ident "','role':'push button','name':'" name "'," REC_SHOW   \
	",'actions':['click']}"
/* A push button without identity (a synthetic node). */
#define REC_BTN_ANON(name)                                                     \
	"{'id':null,'role':'push button','name':'" name "'," REC_SHOW          \
	",'actions':['click']}"
/* A named panel (rendered as a container). */
#define REC_PANEL(ident, name, kids)                                           \
	"{'id':'" ident "','role':'panel','name':'" name "'," REC_SHOW         \
	",'children':[" kids "]}"
#define REC_CHECK(ident, name, on)                                             \
	"{'id':'" ident "','role':'check box','name':'" name "',"              \
	"'states':['showing','visible','enabled','sensitive','checkable'" on   \
	"],'actions':['click']}"
#define REC_ON ",'checked'"
#define REC_OFF ""

#endif
