/*
 * The pipelined AT-SPI reader's internals, shared by fetch.c (stages and
 * calls), fetch_reply.c (replies), fetch_app.c (opening an app, the walk,
 * focus) and fetch_live.c (live re-reads for actions).
 *
 * One engine reads nodes in every mode (enum read_mode): the same stages,
 * calls, decoding and rule for hidden nodes; a mode only chooses where
 * the reading starts, which details are asked for and how far it goes.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_ATSPI_FETCH_INT_H
#define CUA_ATSPI_FETCH_INT_H

#include <gio/gio.h>

#include "atspi.h"
#include "linux.h"

#define ROOT_PATH "/org/a11y/atspi/accessible/root"
#define NULL_PATH "/org/a11y/atspi/null"

#define IF_ACCESSIBLE "org.a11y.atspi.Accessible"
#define IF_ACTION "org.a11y.atspi.Action"
#define IF_COLLECTION "org.a11y.atspi.Collection"
#define IF_COMPONENT "org.a11y.atspi.Component"
#define IF_DOCUMENT "org.a11y.atspi.Document"
#define IF_HYPERLINK "org.a11y.atspi.Hyperlink"
#define IF_SELECTION "org.a11y.atspi.Selection"
#define IF_TABLE "org.a11y.atspi.Table"
#define IF_TEXT "org.a11y.atspi.Text"
#define IF_VALUE "org.a11y.atspi.Value"

/* AT-SPI protocol constants (atspi-constants.h). */
#define COORD_SCREEN 0u         /* ATSPI_COORD_TYPE_SCREEN */
#define COORD_WINDOW 1u         /* ATSPI_COORD_TYPE_WINDOW */
#define RELATION_LABELLED_BY 2u /* ATSPI_RELATION_LABELLED_BY */
#define MATCH_ALL 1             /* ATSPI_Collection_MATCH_ALL */
#define SORT_CANONICAL 1u       /* ATSPI_Collection_SORT_ORDER_CANONICAL */

/* Calls in flight per batch. The app answers them one after the other;
 * more in flight mostly lets both sides batch their socket I/O (GTK 4:
 * 256 -> 512 was ~10 % faster, 1024 no better). */
#define IN_FLIGHT 512
/* Live re-reads are a few nodes and their children. */
#define IN_FLIGHT_LIVE 128
#define TEXT_CAP 100000   /* characters of Text read per node */
#define RANGE_FALLBACK 50 /* children read when hit-testing fails */
#define RANGE_MAX 200     /* most children of a visible range */
#define HIT_INSET 3       /* pixels inside the container's corners */
#define HIT_MAX_STEPS 16  /* Parent steps from a hit to the child */
/* A container this large makes Collection.GetMatches expensive for the
 * app (the ATK adaptor visits every descendant), so focus is then taken
 * from the walk only. */
#define HUGE_CONTAINER 5000

/* Capability bits of this file in be->caps, next to enum atspi_cap. */
#define CAP_NO_VALUE_TEXT (1u << 16)
/* GTK 4 has no screen coordinates: asked for them it answers with window
 * coordinates and logs "Screen coordinates not supported" on every call
 * (9,806 lines for a dozen walks of gtk4-widget-factory). Ask for window
 * coordinates, which are the same numbers, without the log. */
#define CAP_WINDOW_COORDS (1u << 20)
/* The app's toolkit keeps SHOWING only on what is on screen, so VISIBLE
 * says what is shown (core/walk.h, enum cua_visibility): set when the app
 * is opened, read by live reads to tell hidden nodes as the walk does. */
#define CAP_VIS_VISIBLE (1u << 22)

/* What a job reads. */
enum read_mode {
	/* the app object and its toplevels (basic fields, extents) */
	READ_OPEN,
	/* subtrees of roots, as the fetch policy asks (details, descent,
	 * visible ranges of large containers) */
	READ_WALK,
	/* named live objects again, or their children (a range of them):
	 * basic fields, ChildCount and job->want; no descent */
	READ_LIVE,
	/* named nodes of a walk again (the tree cache): basic fields,
	 * ChildCount and the details the walk's policy asks for at the
	 * node's depth; no descent */
	READ_REFRESH,
	/* named nodes of a walk compared again (the tree cache's sweep of
	 * toolkits that do not announce every change): their states and name,
	 * their ChildCount and value when the caller asks (backend.h
	 * sweep_nodes); no details, no descent */
	READ_SWEEP,
};

enum stage {
	STAGE_BASIC,
	STAGE_DETAILS,
	STAGE_CHILDREN,
	STAGE_DONE,
};

enum kind {
	K_ROLE,
	K_STATE,
	K_IFACES,
	K_NAME,
	K_EXTENTS,
	K_DESC,
	K_ATTRS,
	K_DOCURL,
	K_ACTIONS,
	K_NACTIONS,
	K_ACTION_NAME,
	K_VAL_CUR,
	K_VAL_MIN,
	K_VAL_MAX,
	K_VAL_STEP,
	K_VAL_TEXT,
	K_TEXT_COUNT,
	K_TEXT_GET,
	K_TSEL_N,
	K_TSEL_GET,
	K_RELSET,
	K_LABEL_NAME,
	K_LINK,
	K_SELCHILD,
	K_SELCHILD_NAME,
	K_ID,
	K_HELP,
	K_TABLE_ROW,
	K_TABLE_NROWS,
	K_CHILD_COUNT,
	K_CHILDREN,
	K_CHILD_AT,
	K_NCOLS,
	K_HIT,
	K_HIT_PARENT,
	K_HIT_INDEX,
	K_MATCHES,
	K_INDEX, /* READ_REFRESH: GetIndexInParent */
};

/* Basic calls that answered (struct fnode.basic_ok). */
#define B_ROLE (1u << 0)
#define B_STATE (1u << 1)
#define B_IFACES (1u << 2)
#define B_NAME (1u << 3)

struct ref {
	const char *bus;
	const char *path;
};

struct job;

/* Walk state of one node (scratch, lives in job->tmp). */
struct fnode {
	struct job *job;
	struct cua_raw_node *n;
	const char *bus;
	const char *path;
	int depth;
	enum stage stage;
	int pending; /* calls of the current stage not answered */
	uint32_t basic_ok;
	uint32_t want; /* details asked for */
	int descend;   /* -1 unknown, 0, 1 */
	int dup;       /* the same object is already in the tree */
	int named;     /* asked for by the caller, not found by the engine */
	int read_kids; /* READ_LIVE: read children kids_first .. + kids_count
	                * after the basic fields, instead of details */
	uint32_t kids_first, kids_count;
	int count_ok; /* ChildCount answered */

	int32_t n_sel; /* Text.GetNSelections, -1 unknown */
	int32_t sel_start, sel_end;
	int sel_ok;

	/* children being read: slots[i] is child child_first + i */
	struct ref *slots;
	size_t n_slots;
	size_t child_first;
	int ranged;          /* visible-range read */
	int range_phase;     /* 1 while hit-testing */
	int hit_tested;      /* hit tests were made (it has a visible area) */
	int32_t hit[4];      /* child index hit at the top, bottom and
	                  * below the top (past a header), and for tables
	                  * at the top right; -1 none */
	int32_t *slot_index; /* a grid: slots[i] is child slot_index[i]
	                      * (fetch_table.c); NULL: child_first + i */
	int32_t ncols;       /* Table.NColumns for ranged tables */
	const char *doc_url; /* Document.GetAttributeValue("DocURL") */
};

/* One call in flight: which node, what for. */
struct req {
	struct fnode *fn;
	enum kind kind;
	int aux;
	const char *bus; /* K_HIT_*: the object being walked up */
	const char *path;
};

struct job {
	struct atspi_be *be;
	struct cua_raw_snapshot *snap;
	const struct cua_fetch_policy *pol;
	struct dbatch *batch;
	struct cua_arena *tmp;
	GHashTable *seen; /* ident -> struct fnode */
	enum read_mode mode;
	uint32_t want; /* READ_LIVE: details asked for every node */
	int max_depth;
	size_t max_nodes;
	int range_threshold;
	int range_list_threshold;
	uint64_t n_ok;       /* replies that succeeded */
	uint64_t n_timeouts; /* calls that timed out */
	int64_t last_ok_us;  /* when the last successful reply came */
	int timeout_ms;      /* per call */
	int hung;            /* the app stopped answering: no new calls */
	int gone;            /* the app left the bus (quit, crashed) */
	const char *app_bus; /* the app's own bus name */
	int node_cap_hit;
	int huge_seen;
	int oom;
	/* focus */
	const char *focus_ident;
	int focus_root; /* index of the root that matched */
};

void
fetch_advance(struct fnode *fn);
void
fetch_alloc_slots(struct fnode *fn, size_t first, size_t count);
void
fetch_call(struct fnode *fn, enum kind kind, int aux, const char *iface,
	   const char *method, GVariant *args, const char *reply_type);
/* The timeout of one call for live reads and requests (fetch_live.c). */
int
fetch_call_ms(struct atspi_be *be);
void
fetch_call_on(struct fnode *fn, struct req *r, const char *bus,
	      const char *path, const char *iface, const char *method,
	      GVariant *args, const char *reply_type);
void
fetch_finish_details(struct fnode *fn);
void
fetch_job_finish(struct job *job, int64_t t0);
void
fetch_job_init(struct job *job, struct atspi_be *be,
	       struct cua_raw_snapshot *snap, enum read_mode mode,
	       int timeout_ms, int64_t deadline_us);
void
fetch_get_prop_on(struct fnode *fn, struct req *r, const char *bus,
		  const char *path, const char *iface, const char *prop);
int
fetch_is_hidden_geometry(const struct cua_raw_node *n);
char *
fetch_make_ident(struct job *job, const char *bus, const char *path);
struct fnode *
fetch_new_fnode(struct job *job, struct cua_raw_node *n, const char *bus,
		const char *path, int depth);
struct req *
fetch_new_req(struct fnode *fn, enum kind kind, int aux);
void
fetch_on_reply(struct dbatch *batch, GVariant *reply, const GError *error,
	       void *data);
void
fetch_read_indexed(struct fnode *fn, size_t first, size_t count);
char *
fetch_sdup(struct job *job, const char *s);
int
fetch_split_ident(struct job *job, const char *ident, const char **bus,
		  const char **path);
void
fetch_start_basic(struct fnode *fn);
void
fetch_start_details(struct fnode *fn);
void
fetch_start_hit_tests(struct fnode *fn);
/* Reads the visible grid of a table wider than its view (fetch_table.c);
 * 0 when the flat visible range serves. */
int
fetch_table_read_grid(struct fnode *fn);
/* The first and last cells of that grid, without reading them; 0 when
 * the flat visible range serves. */
int
fetch_table_grid_range(struct fnode *fn, int64_t *first, int64_t *last);
/* Gives cell `c`, read into slot i of a grid, its index and row. */
void
fetch_table_place_cell(struct fnode *fn, struct cua_raw_node *c, size_t i);
const char *
fetch_tmp_strdup(struct job *job, const char *s);

#endif
