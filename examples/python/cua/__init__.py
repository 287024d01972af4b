"""Python binding of libcua (ctypes, standard library only).

libcua reads a desktop application's accessibility tree as compact,
numbered text (the "state text") and acts on the numbered elements. This
module wraps the whole public C API (``<cua/cua.h>``) in Python classes:

- :class:`Session`: a connection to a desktop (or a recorded tree); it
  observes apps and acts on them (click, type text, press keys, ...).
- :class:`Tree`: one immutable observation of an app window; it renders the
  state text, holds the elements and the screenshot.
- :class:`Element`: one numbered element (one line of the state text).
- :class:`Screenshot`: the observation's image (bytes copied from libcua).
- :class:`Diff`: what changed between two observations.
- :class:`Desktop`: a private headless desktop (Xvfb, D-Bus, AT-SPI,
  openbox) to run real apps in, for tests, CI and servers.
- :class:`CuaError`: raised by every failed call; it carries the
  ``cua_result`` (:class:`Result`), the stable error code
  (:class:`ErrorCode`, the one to switch on) and libcua's message.

Ownership follows the C API: every handle object holds one reference and
releases it in ``close()``, in ``__exit__`` (use ``with``) or, at the
latest, when it is garbage-collected. Owned strings and buffers are copied
into Python objects and freed with ``cua_free`` at once; borrowed strings
are copied as well, so nothing returned by this module dangles.

The library is found through, in order: the ``CUA_LIBRARY`` environment
variable (a path or a soname), ``ctypes.util.find_library('cua')``,
``libcua.so.0`` (the dynamic linker's search path, ``LD_LIBRARY_PATH``),
and the libdir libcua was installed to.

Example::

    import cua
    with cua.Session() as s, s.observe("gtk3-widget-factory") as tree:
        print(tree.render())
        button = tree.find(title="checkbutton")
        s.click(tree.app_id, button)

SPDX-License-Identifier: MIT
"""

from ._constants import (Result, ErrorCode, LogLevel, Stat, Trait, Button,
                         SelectionMode, SessionFlags, DesktopFlags,
                         FormatFlags, ObserveFlags, RenderFlags,
                         ScreenshotFlags)
from ._capi import (CuaError, library_path, missing_symbols, live_handles,
                    accessibility_note, version, version_string,
                    result_to_string, error_message, error_code,
                    sanitize_text,
                    # the binding's own tests and tools look at these
                    _PROTOTYPES, _c, _lib, _live)
from ._objects import Session, Tree, Element, Screenshot, Diff
from ._desktop import Desktop

__all__ = [
    "CuaError", "Result", "ErrorCode", "LogLevel", "Stat", "Trait", "Button",
    "SelectionMode", "SessionFlags", "ObserveFlags", "RenderFlags",
    "FormatFlags", "ScreenshotFlags", "DesktopFlags", "Session", "Tree",
    "Element", "Screenshot", "Diff", "Desktop", "version", "version_string",
    "sanitize_text", "result_to_string", "error_message", "error_code",
    "library_path", "accessibility_note",
]
