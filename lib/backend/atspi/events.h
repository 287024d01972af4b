/*
 * AT-SPI2 backend: event watching (events.c) for the settle
 * (docs/screenshots.md §6) and `cua watch`: AT-SPI events of apps and the
 * display driver's damage, as one stream.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_BACKEND_ATSPI_EVENTS_H
#define CUA_BACKEND_ATSPI_EVENTS_H

#include "atspi.h"

/* ------------------------------------------------------------------ */
/* events.c                                                            */

struct events;

/* Stops the filter; the GDBus worker may still be inside it until the
 * connection is closed, so: events_detach, close the bus, events_free. */
void
events_detach(struct events *ev);
void
events_free(struct events *ev);
/* Subscribes again on a new accessibility bus connection (after
 * events_detach from the old one); NULL is allowed. */
void
events_reattach(struct events *ev);

cua_result
atspi_watch_add(struct cua_backend *b, const char *bus_name, uint64_t window,
		cua_event_fn fn, void *user_data, uint32_t *id_out);
void
atspi_watch_remove(struct cua_backend *b, uint32_t id);
int
atspi_watch_dispatch(struct cua_backend *b, int64_t deadline_us);

/* "object:state-changed:busy" from interface
 * "org.a11y.atspi.Event.Object", member "StateChanged", minor "busy";
 * writes at most `size` bytes. Exposed for unit tests. */
void
events_type_name(const char *iface, const char *member, const char *minor,
		 char *buf, size_t size);

#endif
