"""Sessions and what they return: trees, elements, screenshots and
diffs.

SPDX-License-Identifier: MIT
"""

import ctypes
import json as _json
import os

from ._constants import (Button, FormatFlags, ScreenshotFlags, SelectionMode,
                         Trait)
from ._capi import (_c, _call, _cp, _dbl, _dec, _enc, _Handle, _i32, _ids,
                    _int, _log_callback, _LOG_FN, _need, _P, _string_call,
                    _sz, _take_buffer, _take_string, _u32, _vp)


class Session(_Handle):
    """A connection to a desktop (``cua_session``).

    ``Session()`` connects to the desktop named by the environment
    (``DISPLAY``, ``DBUS_SESSION_BUS_ADDRESS``, or ``CUA_BACKEND``);
    :meth:`recorded` replays a tree recorded with ``cua record``.
    Only one thread may use a session at a time.
    """
    _unref_name = "session_unref"
    __slots__ = ("_log_cb",)

    def __init__(self, flags=0, *, _ptr=None):
        if _ptr is None:
            out = _vp()
            _call("session_new", ctypes.byref(out), int(flags))
            _ptr = out.value
        super().__init__(_ptr)
        self._log_cb = None

    @classmethod
    def recorded(cls, path, flags=0):
        """A session replaying the recording at ``path`` (no desktop)."""
        out = _vp()
        _call("session_new_recorded", ctypes.byref(out),
              _enc(os.fspath(path), "path"), int(flags))
        return cls(_ptr=out.value)

    def ref(self):
        """Another :class:`Session` object sharing this session."""
        return Session(_ptr=_c.session_ref(self))

    def close(self):
        super().close()
        self._log_cb = None

    # configuration -----------------------------------------------------

    def set_log_handler(self, handler):
        """Installs ``handler(level: LogLevel, message: str)``; None
        restores libcua's default (stderr)."""
        cb = _log_callback(_LOG_FN, handler)
        _c.session_set_log_handler(self, cb, None)
        self._log_cb = cb if handler is not None else None

    def set_log_level(self, level):
        """The lowest :class:`LogLevel` passed to the log handler."""
        _c.session_set_log_level(self, int(level))

    def set_option(self, key, value):
        """Sets a configuration option (see cua_session_set_option()).
        ``value`` may be a str, an int or a bool."""
        if isinstance(value, bool):
            value = "1" if value else "0"
        _call("session_set_option", self, _enc(key, "key"),
              _enc(str(value), "value"))

    def set_stopped(self, stopped=True):
        """The person's stop (see cua_session_set_stopped()): while it
        holds, observations and actions raise ``ErrorCode.USER_STOPPED``.
        Safe from any thread."""
        _c.session_set_stopped(self, 1 if stopped else 0)

    @property
    def stopped(self):
        """Whether the person's stop holds."""
        return bool(_c.session_is_stopped(self))

    def display_info(self):
        """The session's display driver and what it can do, as a dict
        (schema ``libcua.display/1``; see cua_session_get_display_info())."""
        return _json.loads(_string_call("session_get_display_info", self))

    # observing -----------------------------------------------------------

    def list_apps(self):
        """The ``list_apps`` text (one line per app)."""
        return _string_call("session_list_apps", self, 0)

    def list_apps_json(self):
        """The apps as parsed JSON (``libcua.apps/1``)."""
        return _json.loads(_string_call("session_list_apps", self,
                                        int(FormatFlags.JSON)))

    def observe(self, app, flags=0):
        """Observes ``app`` (name, id, desktop id, executable or
        ``pid:N``), launching it when installed but not running unless
        :attr:`ObserveFlags.NO_LAUNCH`. Returns a new :class:`Tree`."""
        out = _vp()
        _call("session_observe", self, _enc(app, "app"), int(flags),
              ctypes.byref(out))
        return Tree(out.value, session=self)

    def resolve_app(self, app):
        """Resolves ``app`` without reading it (``libcua.app/1`` dict)."""
        return _json.loads(_string_call("session_resolve_app", self,
                                        _enc(app, "app"), 0))

    def record(self, app):
        """The raw tree of ``app`` as JSON text, replayable with
        :meth:`Session.recorded`."""
        return _string_call("session_record", self, _enc(app, "app"), 0)

    def save_state(self):
        """The session's per-app state (ids, locators) as JSON text."""
        return _string_call("session_save_state", self)

    def load_state(self, state):
        """Restores state saved by :meth:`save_state`."""
        _call("session_load_state", self, _enc(state, "state"))

    def expire_baselines(self):
        """Makes the next observation of each app a full tree."""
        _c.session_expire_baselines(self)

    def wait_for_change(self, tree, timeout_ms=-1):
        """Waits until the app ``tree`` observed changes; True when it
        did, False when ``timeout_ms`` ran out."""
        changed = _int(0)
        _call("session_wait_for_change", self, _need(tree, Tree, "tree"),
              int(timeout_ms),
              ctypes.byref(changed))
        return bool(changed.value)

    # actions -------------------------------------------------------------

    def _act(self, name, *args):
        out = _vp()
        try:
            _call(name, self, *args, ctypes.byref(out))
        finally:
            text = _take_string(out)
        return _json.loads(text) if text else None

    @staticmethod
    def _eid(element):
        return element.id if isinstance(element, Element) else int(element)

    @staticmethod
    def _app(app):
        return _enc(app.app_id if isinstance(app, Tree) else app, "app")

    def click(self, app, element, button=Button.LEFT, count=1):
        """Clicks element number ``element`` (an int or an
        :class:`Element`) of ``app``'s latest observation. Returns the
        outcome (``libcua.action/1``) as a dict."""
        return self._act("session_click", self._app(app), self._eid(element),
                         int(button), int(count))

    def click_at(self, app, x, y, button=Button.LEFT, count=1):
        """Clicks at screenshot pixel (x, y) of ``app``'s latest
        observation."""
        return self._act("session_click_at", self._app(app), float(x),
                         float(y), int(button), int(count))

    def set_value(self, app, element, value):
        """Sets a settable element's value (text, or a number)."""
        return self._act("session_set_value", self._app(app),
                         self._eid(element), _enc(str(value), "value"))

    def type_text(self, app, text):
        """Types ``text`` into ``app``'s focused element."""
        return self._act("session_type_text", self._app(app),
                         _enc(text, "text"))

    def press_key(self, app, key):
        """Presses a key or combination (xdotool syntax: ``ctrl+a``)."""
        return self._act("session_press_key", self._app(app),
                         _enc(key, "key"))

    def scroll(self, app, element, direction, pages=1.0):
        """Scrolls an element ``pages`` pages ``up``/``down``/``left``/
        ``right``."""
        return self._act("session_scroll", self._app(app), self._eid(element),
                         _enc(direction, "direction"), float(pages))

    def scroll_at(self, app, point, direction, pages=1.0):
        """Scrolls at screenshot pixel ``point`` (x, y) ``pages`` window
        heights (widths) ``up``/``down``/``left``/``right``."""
        return self._act("session_scroll_at", self._app(app),
                         float(point[0]), float(point[1]),
                         _enc(direction, "direction"), float(pages))

    def drag(self, app, start, end):
        """Drags from screenshot pixel ``start`` (x, y) to ``end``."""
        return self._act("session_drag", self._app(app), float(start[0]),
                         float(start[1]), float(end[0]), float(end[1]))

    def perform_action(self, app, element, action):
        """Performs a secondary action (``Show Menu``, ``Expand``, ...)."""
        return self._act("session_perform_action", self._app(app),
                         self._eid(element), _enc(action, "action"))

    def select_text(self, app, element, text, prefix=None, suffix=None,
                    mode=SelectionMode.TEXT):
        """Selects ``text`` in a text element (or places the caret)."""
        return self._act("session_select_text", self._app(app),
                         self._eid(element), _enc(text, "text"),
                         _enc(prefix), _enc(suffix), int(mode))


class Tree(_Handle):
    """One immutable observation of an app window (``cua_tree``).

    ``len(tree)``, ``tree[i]`` and iteration give its :class:`Element`
    objects in render order; ``str(tree)`` is the state text.
    """
    _unref_name = "tree_unref"
    __slots__ = ("_session",)

    def __init__(self, ptr, session=None):
        super().__init__(ptr)
        # Not needed for memory safety (the tree is self-contained); kept
        # so that tree.session works for convenience.
        self._session = session

    def ref(self):
        """Another :class:`Tree` object holding its own reference."""
        return Tree(_c.tree_ref(self), self._session)

    @property
    def session(self):
        return self._session

    def render(self, flags=0):
        """The state text; with :attr:`RenderFlags.DIFF` the diff against
        the observation's baseline when one applies."""
        return _string_call("tree_render", self, int(flags))

    def __str__(self):
        return self.render() if self._ptr else "<closed cua.Tree>"

    def to_json(self, flags=0):
        """The structured form (``libcua.app_state/1``) as JSON text."""
        return _string_call("tree_to_json", self, int(flags))

    def json(self, flags=0):
        """:meth:`to_json`, parsed."""
        return _json.loads(self.to_json(flags))

    @property
    def app_id(self):
        return _dec(_c.tree_get_app_id(self))

    @property
    def app_name(self):
        return _dec(_c.tree_get_app_name(self))

    @property
    def window_title(self):
        return _dec(_c.tree_get_window_title(self))

    @property
    def pid(self):
        return _c.tree_get_pid(self)

    @property
    def revision(self):
        return _c.tree_get_revision(self)

    @property
    def content_revision(self):
        """The revision that first showed this content: unchanged while
        the app's tree does not change (cua_tree_get_content_revision)."""
        return _c.tree_get_content_revision(self)

    @property
    def truncated(self):
        return bool(_c.tree_is_truncated(self))

    @property
    def accessibility_note(self):
        """The ``Accessibility unavailable:`` note of a skeleton tree, or
        None (cua_tree_get_accessibility_note())."""
        return _dec(_c.tree_get_accessibility_note(self))

    def stat(self, key):
        """A :class:`Stat` of how the tree was read (-1: unknown key)."""
        return _c.tree_get_stat(self, int(key))

    # elements ------------------------------------------------------------

    def __len__(self):
        return _c.tree_get_element_count(self)

    def __getitem__(self, i):
        n = len(self)
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(n))]
        if i < 0:
            i += n
        return self._wrap(_c.tree_get_element(self, i) if 0 <= i < n
                          else None, IndexError)

    def __iter__(self):
        for i in range(len(self)):
            yield self._wrap(_c.tree_get_element(self, i))

    def _wrap(self, ptr, missing=None):
        if not ptr:
            if missing:
                raise missing("element index out of range")
            return None
        return Element._from_borrowed(ptr, self)

    def element(self, element_id):
        """The element with this id, or None."""
        return self._wrap(_c.tree_find_element(self, int(element_id)))

    @property
    def focused(self):
        """The focused element, or None."""
        return self._wrap(_c.tree_get_focused(self))

    def find(self, title=None, role=None, predicate=None):
        """The first element (render order) whose title and role equal the
        given ones and for which ``predicate(element)`` holds, or None."""
        for e in self:
            if title is not None and e.title != title:
                continue
            if role is not None and e.role != role:
                continue
            if predicate is not None and not predicate(e):
                continue
            return e
        return None

    # diffs ---------------------------------------------------------------

    def diff(self, old):
        """A :class:`Diff` from the older observation ``old`` to this one."""
        out = _vp()
        _call("tree_diff_new", _need(old, Tree, "old"), self, 0,
              ctypes.byref(out))
        return Diff(out.value)

    def baseline_diff(self):
        """The diff against the observation's baseline (what
        :attr:`RenderFlags.DIFF` renders); raises CuaError NOT_FOUND when
        there is none."""
        out = _vp()
        _call("tree_get_diff", self, ctypes.byref(out))
        return Diff(out.value)

    # screenshots ---------------------------------------------------------

    @property
    def screenshot_error(self):
        """Why there is no screenshot, or None when there is one."""
        return _dec(_c.tree_get_screenshot_error(self))

    @property
    def screenshot(self):
        """The observation's :class:`Screenshot` (JPEG bytes, copied);
        raises CuaError NOT_FOUND when the observation has none."""
        data, size, mime = _vp(), _sz(), _cp()
        w, h, ppp = _u32(), _u32(), _dbl()
        _call("tree_get_screenshot", self, ctypes.byref(data),
              ctypes.byref(size), ctypes.byref(mime), ctypes.byref(w),
              ctypes.byref(h), ctypes.byref(ppp))
        # data is borrowed from the tree: copy it now.
        return Screenshot(ctypes.string_at(data.value, size.value),
                          _dec(mime.value), w.value, h.value, ppp.value)

    def render_screenshot(self, marks=False, png=False, flags=0):
        """The screenshot re-encoded (bytes); ``marks`` draws each
        element's box and id, ``png`` encodes as PNG."""
        flags = int(flags)
        if marks:
            flags |= ScreenshotFlags.MARKS
        if png:
            flags |= ScreenshotFlags.PNG
        return self._buffer("tree_render_screenshot", flags)

    def render_marks(self, flags=0):
        """The screenshot with element boxes and ids (JPEG bytes)."""
        return self._buffer("tree_render_marks", int(flags))

    def _buffer(self, name, flags):
        out, size = _vp(), _sz()
        try:
            _call(name, self, flags, ctypes.byref(out), ctypes.byref(size))
        finally:
            data = _take_buffer(out, size)
        return data

    def screenshot_to_screen(self, x, y):
        """Maps screenshot pixel (x, y) to a screen pixel (sx, sy)."""
        sx, sy = _i32(), _i32()
        _call("tree_screenshot_to_screen", self, float(x), float(y),
              ctypes.byref(sx), ctypes.byref(sy))
        return sx.value, sy.value


class Element(_Handle):
    """One numbered element of a :class:`Tree` (``cua_element``).

    Each Element object holds its own reference (cua_element_ref()), which
    keeps the element's tree alive: an Element stays valid after its
    :class:`Tree` was closed.
    """
    _unref_name = "element_unref"
    __slots__ = ("_tree",)

    @classmethod
    def _from_borrowed(cls, ptr, tree):
        self = cls.__new__(cls)
        _Handle.__init__(self, _c.element_ref(ptr))
        self._tree = tree
        return self

    def __init__(self, *a, **kw):
        raise TypeError("Element objects come from a Tree")

    def ref(self):
        return Element._from_borrowed(self._ptr, self._tree)

    def _wrap(self, ptr):
        return Element._from_borrowed(ptr, self._tree) if ptr else None

    @property
    def tree(self):
        """The :class:`Tree` object this element was taken from."""
        return self._tree

    @property
    def id(self):
        return _c.element_get_id(self)

    @property
    def depth(self):
        return _c.element_get_depth(self)

    @property
    def parent(self):
        return self._wrap(_c.element_get_parent(self))

    @property
    def children(self):
        return [self._wrap(_c.element_get_child(self, i))
                for i in range(_c.element_get_child_count(self))]

    @property
    def role(self):
        return _dec(_c.element_get_role(self))

    @property
    def raw_role(self):
        return _dec(_c.element_get_raw_role(self))

    @property
    def title(self):
        return _dec(_c.element_get_title(self))

    @property
    def description(self):
        return _dec(_c.element_get_description(self))

    @property
    def value(self):
        return _dec(_c.element_get_value(self))

    @property
    def traits(self):
        return Trait(_c.element_get_traits(self))

    @property
    def actions(self):
        """The secondary actions' names."""
        return [_dec(_c.element_get_action(self, i))
                for i in range(_c.element_get_action_count(self))]

    @property
    def frame(self):
        """(x, y, width, height) in window points, or None."""
        v = [_i32() for _ in range(4)]
        if not _c.element_get_frame(self, *[ctypes.byref(x) for x in v]):
            return None
        return tuple(x.value for x in v)

    @property
    def locator(self):
        """(window_index, path) where path is a tuple of child indices."""
        win, path, n = _sz(), _P(_u32)(), _sz()
        _call("element_get_locator", self, ctypes.byref(win),
              ctypes.byref(path), ctypes.byref(n))
        return win.value, tuple(path[i] for i in range(n.value))

    def render(self):
        """The element's line without indentation."""
        return _string_call("element_render", self)

    def __str__(self):
        return self.render() if self._ptr else "<closed cua.Element>"

    def __repr__(self):
        if not self._ptr:
            return "<cua.Element closed>"
        return "<cua.Element %d %s %r>" % (self.id, self.role, self.title)


class Screenshot:
    """An observation's screenshot: ``data`` (bytes), ``mime_type``,
    ``width`` and ``height`` in pixels, ``pixels_per_point``."""
    __slots__ = ("data", "mime_type", "width", "height", "pixels_per_point")

    def __init__(self, data, mime_type, width, height, pixels_per_point):
        self.data = data
        self.mime_type = mime_type
        self.width = width
        self.height = height
        self.pixels_per_point = pixels_per_point

    def save(self, path):
        """Writes the image bytes to ``path``."""
        with open(path, "wb") as f:
            f.write(self.data)

    def __repr__(self):
        return "<cua.Screenshot %dx%d %s, %d bytes>" % (
            self.width, self.height, self.mime_type, len(self.data))


class Diff(_Handle):
    """What changed between two observations (``cua_tree_diff``).

    ``changed``, ``added`` and ``removed`` are tuples of element ids;
    a Diff is false when nothing changed."""
    _unref_name = "tree_diff_unref"
    __slots__ = ()

    def ref(self):
        return Diff(_c.tree_diff_ref(self))

    @property
    def tree(self):
        """The newer tree (a new :class:`Tree` object with its own
        reference)."""
        return Tree(_c.tree_ref(_c.tree_diff_get_tree(self)))

    @property
    def changed(self):
        return _ids(_c.tree_diff_get_changed, self)

    @property
    def added(self):
        return _ids(_c.tree_diff_get_added, self)

    @property
    def removed(self):
        return _ids(_c.tree_diff_get_removed, self)

    @property
    def empty(self):
        return bool(_c.tree_diff_is_empty(self))

    def __bool__(self):
        return not self.empty

    def render(self, flags=0):
        """The diff body (``~``/``+`` lines, removed ids, trailer)."""
        return _string_call("tree_diff_render", self, int(flags))

    def __str__(self):
        return self.render() if self._ptr else "<closed cua.Diff>"
