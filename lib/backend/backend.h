/*
 * The backend seam: the only way the core reaches a platform.
 *
 * A backend provides primitives (list the apps, read raw nodes, launch an
 * app); all policy (which app a string means, which window is the root,
 * what gets rendered) stays in the core. No platform header (libatspi,
 * GLib, Xlib) is included here.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_BACKEND_H
#define CUA_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "cua/cua.h"
#include "core/arena.h"
#include "core/ctx.h"
#include "core/image.h"
#include "core/raw.h"
#include "display/display.h"

/* One running process that shows an app (docs/state-text.md §11.8). */
struct cua_app_info {
	int64_t pid;
	uint64_t start_time;        /* /proc/<pid>/stat field 22 */
	const char *exe;            /* /proc/<pid>/exe target */
	const char *exe_base;       /* its basename */
	const char *bus_name;       /* AT-SPI bus name; NULL = not registered */
	const char *atspi_name;     /* Accessible.Name of the application */
	const char *desktop_id;     /* desktop-file id without .desktop */
	const char *desktop_file;   /* path of the desktop entry */
	const char *desktop_name;   /* localized Name= */
	const char *desktop_name_c; /* untranslated Name= */
	const char *wm_class_class;
	const char *wm_class_instance;
	const char *app_id;   /* canonical id (never NULL) */
	const char *app_name; /* display name (never NULL) */
	const char *toolkit;  /* "GTK", "Qt", … when known */
	const char *toolkit_version;
	int n_windows;  /* toplevel windows */
	int frontmost;  /* owns the active X11 window */
	int accessible; /* registered on the AT-SPI bus */
};

struct cua_app_list {
	struct cua_arena *arena;
	struct cua_app_info *apps;
	size_t n;
};

/* An installed desktop entry (for resolving and launching). */
struct cua_installed_app {
	const char *desktop_id; /* without .desktop */
	const char *path;       /* the .desktop file */
	const char *name;       /* localized Name= */
	const char *name_c;     /* untranslated Name= */
	const char *exec;       /* Exec= */
	const char *try_exec;
	const char *startup_wm_class;
	int no_display; /* NoDisplay=true or Hidden=true */
};

struct cua_installed_list {
	struct cua_arena *arena;
	struct cua_installed_app *apps;
	size_t n;
};

/*
 * What the core asks the backend to read. Callbacks run during fetch() on
 * the calling thread; they must be cheap and must not call the backend.
 */
struct cua_fetch_policy {
	/* After a node's basic fields (role, states, interfaces, name) are
	 * known: which other fields to read (enum cua_raw_have bits). */
	uint32_t (*details)(void *user_data, const struct cua_raw_node *node,
			    int raw_depth);
	/* After details are known: read the node's children? */
	int (*descend)(void *user_data, const struct cua_raw_node *node,
		       int raw_depth);
	void *user_data;
	int max_raw_depth;   /* nodes deeper than this are not created */
	size_t max_nodes;    /* stop creating nodes past this count */
	int64_t deadline_us; /* absolute cua_now_us() deadline; 0 = none */
	int call_timeout_ms; /* per call */
	/* Containers with more children than this (or list-like containers
	 * with more than range_list_threshold) are read by visible range. */
	int range_threshold;      /* 200 */
	int range_list_threshold; /* 20 */
	/* Rows of a table read as the grid of cells it shows, at most (the
	 * rows the state text shows); 0: as many as are visible. */
	int grid_rows;
};

struct cua_backend;
struct cua_key_chord; /* core/keys.h */

/* Requests on one live object (backend call()). */
enum cua_live_op {
	CUA_LIVE_DO_ACTION = 1,   /* Action.DoAction(a) -> ok */
	CUA_LIVE_SET_VALUE,       /* Value.CurrentValue = v */
	CUA_LIVE_SET_TEXT,        /* EditableText.SetTextContents(text) -> ok */
	CUA_LIVE_DELETE_TEXT,     /* EditableText.DeleteText(a, b) -> ok */
	CUA_LIVE_GRAB_FOCUS,      /* Component.GrabFocus() -> ok */
	CUA_LIVE_SCROLL_TO,       /* Component.ScrollTo(anywhere) -> ok */
	CUA_LIVE_GET_TEXT,        /* ret_text = GetText(0, count); ret[0] =
				     * CharacterCount; ret[1] = CaretOffset */
	CUA_LIVE_SET_CARET,       /* Text.SetCaretOffset(a) -> ok */
	CUA_LIVE_GET_SELECTION,   /* ret[0] = NSelections; ret[1], ret[2] =
				     * selection 0 (start, end) */
	CUA_LIVE_ADD_SELECTION,   /* Text.AddSelection(a, b) -> ok */
	CUA_LIVE_SET_SELECTION,   /* Text.SetSelection(a, b, c) -> ok */
	CUA_LIVE_SELECT_CHILD,    /* Selection.SelectChild(a) -> ok */
	CUA_LIVE_CLEAR_SELECTION, /* Selection.ClearSelection() -> ok */
	CUA_LIVE_ADD_ROW_SELECTION, /* Table.AddRowSelection(a) -> ok */
	CUA_LIVE_TABLE_CELL,    /* ret_ident = Table.GetAccessibleAt(a, b) */
	CUA_LIVE_HIT_TEST,      /* ret_ident = GetAccessibleAtPoint(a, b),
				     * screen coordinates; NULL when none */
	CUA_LIVE_PARENT,        /* ret_ident = Parent */
	CUA_LIVE_FOCUSED,       /* ret_ident = the focused descendant, by
				     * Collection; NULL when none */
	CUA_LIVE_LINK,          /* ret[0..1] = Hyperlink a's start, end
				     * offsets; ret_ident = its object */
	CUA_LIVE_TEXT_AT_POINT, /* ret[0] = Text.GetOffsetAtPoint(a, b),
				     * screen coordinates; ok when >= 0 */
	CUA_LIVE_CHAR_EXTENTS,  /* ret[0..2] = x, y, height of
				     * Text.GetCharacterExtents(a), screen
				     * coordinates; ok when it has a size */
	CUA_LIVE_ROW_AT_INDEX,  /* ret[0] = Table.GetRowAtIndex(a) */
	CUA_LIVE_SELECTED_ROWS, /* ret_ints = Table.GetSelectedRows() */
	CUA_LIVE_REMOVE_ROW_SELECTION, /* Table.RemoveRowSelection(a) -> ok */
	CUA_LIVE_SELECTED_COUNT, /* ret[0] = Selection.NSelectedChildren */
	CUA_LIVE_SELECTED_CHILD, /* ret_ident = Selection.GetSelectedChild(a) */
	CUA_LIVE_DESELECT_SELECTED, /* Selection.DeselectSelectedChild(a) -> ok */
};

struct cua_live_call {
	enum cua_live_op op;
	const char *ident;
	int32_t a, b, c;
	double v;
	const char *text;
	/* results */
	int ok; /* the method's boolean answer */
	/* DoAction: not answered, but the app answered a call sent after
	 * it: its handler runs, in a loop (Qt answers once the handler
	 * returned; a modal dialog's loop runs in it); ok is 0 */
	int running;
	int32_t ret[3];
	char *ret_text;    /* malloc'd, caller frees */
	char *ret_ident;   /* malloc'd, caller frees */
	int32_t *ret_ints; /* malloc'd, caller frees; n_ret_ints of them */
	size_t n_ret_ints;
};

/* One event from an app or the window system (strings valid during the
 * callback only). */
struct cua_event {
	const char *bus_name; /* sender; NULL for window-system events */
	const char *path;     /* object path; NULL for window-system events */
	const char *type;     /* "object:state-changed:busy",
			       * "object:children-changed:add",
			       * "window:activate", "x11:damage", ... */
	int32_t detail1, detail2;
	uint64_t window;      /* x11:damage: the window */
	struct cua_rect area; /* x11:damage: the damaged box (window px) */
	int64_t time_us;      /* cua_now_us() when it arrived */
};

/* A watch callback; a non-zero return ends the current watch_dispatch(). */
typedef int (*cua_event_fn)(void *user_data, const struct cua_event *ev);

struct cua_backend_ops {
	const char *name;
	void (*destroy)(struct cua_backend *b);

	/* Running apps, one entry per process. */
	cua_result (*list_apps)(struct cua_backend *b,
				struct cua_app_list **out);
	/* Installed desktop entries. */
	cua_result (*list_installed)(struct cua_backend *b,
				     struct cua_installed_list **out);
	/* A snapshot holding the app node and its toplevels (basic fields,
	 * extents and window-system facts), not their subtrees. */
	cua_result (*open_app)(struct cua_backend *b,
			       const struct cua_app_info *app,
			       struct cua_raw_snapshot **out);
	/* Reads the subtrees of the given toplevels of snap (children of
	 * snap->app) according to the policy, and the focused node. */
	cua_result (*fetch)(struct cua_backend *b,
			    struct cua_raw_snapshot *snap,
			    struct cua_raw_node **roots, size_t n_roots,
			    const struct cua_fetch_policy *policy);
	/* Reads walked nodes again (the tree cache, core/cache.h): nodes[i]
	 * from cua_raw_node_new(snap) with ident, parent and
	 * index_in_parent set by the caller, depths[i] its depth below its
	 * toplevel. Fills the basic fields, the child count, the live index
	 * in its parent (-2 when it did not answer) and the details `policy`
	 * asks for at that depth, as the walk reads them; no children. An
	 * object that is gone keeps CUA_HAVE_BASIC clear. A call that timed
	 * out or the deadline sets snap->stats.deadline_hit (what was read
	 * is incomplete; not an error). May be NULL (the cache then reads
	 * in full). */
	cua_result (*refresh_nodes)(struct cua_backend *b,
				    struct cua_raw_snapshot *snap,
				    struct cua_raw_node **nodes,
				    const int *depths, size_t n,
				    const struct cua_fetch_policy *policy);
	/* Reads walked subtrees again (the tree cache, core/cache.h):
	 * nodes[i] as for refresh_nodes, read as the walk reads a node at
	 * depth depths[i] (details, then its children and their subtrees
	 * by `policy`: descent, visible ranges, max_nodes counted in
	 * `snap`, the deadline), with its live index in its parent (-2
	 * when it did not answer). An object that is gone keeps
	 * CUA_HAVE_BASIC clear; snap->stats tell of a deadline, a call that
	 * timed out or the node cap. May be NULL (the cache then reads in full). */
	cua_result (*refresh_subtrees)(struct cua_backend *b,
				       struct cua_raw_snapshot *snap,
				       struct cua_raw_node **nodes,
				       const int *depths, size_t n,
				       const struct cua_fetch_policy *policy);
	/* Reads walked nodes' states and name (cleaned as the walk cleans
	 * it) again, and nothing else but what the caller asks for on each
	 * node (the tree cache's sweep of a toolkit that does not announce
	 * every change, core/cache.h): nodes[i] as for refresh_nodes, with
	 * child_count 0 for its ChildCount (-1: not wanted), ifaces
	 * CUA_IFACE_VALUE for its current, minimum and maximum value, and
	 * index_in_parent 0 for its index in its parent (-1: not wanted; -2
	 * when it did not answer), and sweep_ask (core/raw.h) for the
	 * visible range a walk would read of a container read so (ifaces
	 * as the walk read them, parent the cached one, whose extents clip
	 * the range; `policy` gives the grid rows) and the identities of its
	 * children; by `policy`'s deadline. CUA_HAVE_BASIC is set on
	 * those whose states and name answered (clear: gone, or no answer
	 * in time, which also sets snap->stats.deadline_hit). May be NULL. */
	cua_result (*sweep_nodes)(struct cua_backend *b,
				  struct cua_raw_snapshot *snap,
				  struct cua_raw_node **nodes, size_t n,
				  const struct cua_fetch_policy *policy);
	/* Starts an installed app in the background; *pid = spawned pid. */
	cua_result (*launch)(struct cua_backend *b,
			     const struct cua_installed_app *app, int64_t *pid);
	/* 1 if the process with this pid and start time still runs. */
	int (*process_alive)(struct cua_backend *b, int64_t pid,
			     uint64_t start_time);

	/* ---- Acting (docs/actions.md). Every member below may be NULL: the
	 * core then fails with CUA_ERROR_UNSUPPORTED. Live objects are named
	 * by their identity string (cua_raw_node.ident). ---- */

	/* Re-reads live nodes: nodes[i]->ident is set by the caller (nodes
	 * from cua_raw_node_new(snap)); fills the basic fields (role,
	 * states, interfaces, name, cleaned as the walk cleans them), the
	 * child count and the pieces in `want` (enum cua_raw_have, never
	 * CUA_HAVE_CHILDREN). An object that is gone keeps CUA_HAVE_BASIC
	 * clear. Fails only when the app does not answer at all. */
	cua_result (*read_nodes)(struct cua_backend *b,
				 struct cua_raw_snapshot *snap,
				 struct cua_raw_node **nodes, size_t n,
				 uint32_t want);
	/* Reads the live child count of each parent and its children number
	 * first .. first + count - 1 (count UINT32_MAX: to the end) by the
	 * walk's child rule (docs/state-text.md §11.5.1), each child read as by
	 * read_nodes(want), except that a child the app does not show (by
	 * its toolkit's visibility rule, core/walk.h) gets no details, as in
	 * the walk. Sets parent->children, n_children,
	 * child_offset, child_count and CUA_HAVE_CHILDREN. */
	cua_result (*read_children)(struct cua_backend *b,
				    struct cua_raw_snapshot *snap,
				    struct cua_raw_node **parents, size_t n,
				    uint32_t first, uint32_t count,
				    uint32_t want);
	/* One accessibility request (struct cua_live_call). */
	cua_result (*call)(struct cua_backend *b, struct cua_live_call *c);

	/* Window-system facts and input (the display driver's). */
	cua_result (*window_query)(struct cua_backend *b, uint64_t window,
				   struct cua_win *out);
	/* The topmost client (or override-redirect) window at a root point. */
	cua_result (*window_at)(struct cua_backend *b, int32_t x, int32_t y,
				struct cua_win *out);
	/* The toplevel that holds keyboard focus (window 0 when none). */
	cua_result (*focus_window)(struct cua_backend *b, struct cua_win *out);
	/* Activates `window` (EWMH _NET_ACTIVE_WINDOW, else raise + input
	 * focus) and waits at most timeout_ms until it holds input focus.
	 * *confirmed = 1 when it does. */
	cua_result (*activate_window)(struct cua_backend *b, uint64_t window,
				      int timeout_ms, int *confirmed);
	/* Synthetic pointer events at root pixels, no delays. With
	 * `restore`, the pointer goes back to where it was unless the user
	 * moved it meanwhile. Buttons pressed here are released on error. */
	cua_result (*pointer)(struct cua_backend *b,
			      const struct cua_pointer_event *ev, size_t n,
			      int restore);
	/* Synthetic key chords (struct cua_key_chord, core/keys.h) realised
	 * on the current keymap; keysyms on no key are typed through spare
	 * keycodes, after the app with accessibility bus name `app_bus`
	 * (may be NULL) answered a request sent after the remapping, and
	 * keymap_delay_ms. Toolkits translate a key with the mapping of the
	 * moment they process it, so the spare keycodes must stay mapped
	 * until the app has: with `kept` NULL they are restored after the
	 * app answered again and a short grace period; otherwise they stay
	 * mapped (*kept = 1) until keys_restore(), which the caller calls
	 * once it saw the keys' effect. Keys pressed here are released on
	 * error. */
	cua_result (*keys)(struct cua_backend *b,
			   const struct cua_key_chord *chords, size_t n,
			   int keymap_delay_ms, const char *app_bus, int *kept);
	cua_result (*keys_restore)(struct cua_backend *b);
	/* Optional: refuses, before any key of a sequence is sent, chords
	 * the keyboard cannot deliver to the app (CUA_OK otherwise, or when
	 * the member is NULL). type_text checks its whole text this way
	 * before it types the first part of it. */
	cua_result (*keys_check)(struct cua_backend *b,
				 const struct cua_key_chord *chords, size_t n);
	/* Optional: two round trips to the app with this accessibility bus
	 * name, on the connection its events come on: 0 once it answered
	 * (it has read the input sent before, and every event it emitted
	 * before is queued for watch_dispatch()), -1 when it did not within
	 * timeout_ms. The settle's sign that the app caught up. */
	int (*app_sync)(struct cua_backend *b, const char *bus_name,
			int timeout_ms);

	/* ---- Screenshots and events (docs/screenshots.md). Every member below
	 * may be NULL: no screenshot, no settle. ---- */

	/* Starts tracking a window for capture and damage (X11: the
	 * Composite redirect and a Damage object, made on the capture
	 * worker without waiting). Cheap; idempotent. */
	void (*track_window)(struct cua_backend *b, uint64_t window);
	/* Captures one window (struct cua_capture_request). Never raises,
	 * maps or otherwise changes it. CUA_OK with *out, or an error with
	 * *status saying why (the core words the reason). */
	cua_result (*capture)(struct cua_backend *b,
			      const struct cua_capture_request *req,
			      struct cua_capture **out,
			      enum cua_capture_status *status);
	/* Event watching, a general facility (settle, `cua watch`):
	 * watch_add() delivers the events of one app (its bus name; NULL =
	 * every app) and the damage of one window (0 = none) to `fn`,
	 * which runs only inside watch_dispatch(), on the calling thread.
	 * Events that arrive between two dispatches are queued with their
	 * arrival time. */
	cua_result (*watch_add)(struct cua_backend *b, const char *bus_name,
				uint64_t window, cua_event_fn fn,
				void *user_data, uint32_t *id_out);
	void (*watch_remove)(struct cua_backend *b, uint32_t id);
	/* Delivers what arrived, waiting until `deadline_us` (cua_now_us()
	 * clock; 0 = do not wait) or until a callback returns non-zero.
	 * Returns the number of events delivered. */
	int (*watch_dispatch)(struct cua_backend *b, int64_t deadline_us);

	/* ---- The display driver (display/display.h). Both members may
	 * be NULL: a backend without a window system. ---- */

	/* The driver the members above act through (never NULL when the
	 * member exists). The core asks its capabilities before it words
	 * a refusal. */
	struct cua_display *(*display)(struct cua_backend *b);
	/* Replaces it: `name` as CUA_DISPLAY takes it ("auto": choose from
	 * the session). On error the current driver stays. */
	cua_result (*set_display)(struct cua_backend *b, const char *name);

	/* Whether the screen is locked (docs/safety.md §9): 1 with `source`
	 * naming the service that said so, or 0. May be NULL (never
	 * locked). Uncached: core/lock.c caches it. */
	int (*screen_locked)(struct cua_backend *b, char *source, size_t size);
};

struct cua_backend {
	const struct cua_backend_ops *ops;
	struct cua_ctx *ctx; /* owned by the session */
};

void
cua_app_list_free(struct cua_app_list *list);
/* 1 for a LibreOffice process (its own toolkit, VCL, reports GTK 3's name
 * through its gtk3 plug-in): told apart by its process image or its
 * accessibility name. */
int
cua_app_is_libreoffice(const struct cua_app_info *app);
/* 1 for the toolkit name of a Qt app (the bridge says "Qt" or "Qt5"...) */
int
cua_toolkit_is_qt(const char *toolkit);
/* 1 for the toolkit name of a Chromium-based app (Chromium, Chrome,
 * Electron apps) */
int
cua_toolkit_is_chromium(const char *toolkit);
/* 1 for the toolkit name of a Gecko app (Firefox: "Gecko"; Mozilla's
 * others) */
int
cua_toolkit_is_gecko(const char *toolkit);
void
cua_installed_list_free(struct cua_installed_list *list);
void
cua_raw_snapshot_free(struct cua_raw_snapshot *snap);
struct cua_raw_snapshot *
cua_raw_snapshot_new(void);
struct cua_raw_node *
cua_raw_node_new(struct cua_raw_snapshot *snap);

/* Backend constructors. */
cua_result
cua_backend_atspi_new(struct cua_ctx *ctx, uint32_t flags,
		      struct cua_backend **out);
cua_result
cua_backend_recorded_new(struct cua_ctx *ctx, const char *path,
			 struct cua_backend **out);
/* Replays another recording from now on (tests: a second revision of the
 * same app in one session). The recording's process identity decides
 * whether the session sees the same process. */
cua_result
cua_backend_recorded_replace(struct cua_backend *b, const char *path);

/* Recording format (recorded backend; also written by cua record). */
cua_result
cua_record_to_json(const struct cua_app_info *app,
		   const struct cua_raw_snapshot *snap, char **out);

#endif
