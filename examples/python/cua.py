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

import ctypes
import ctypes.util
import enum
import json as _json
import os
import threading

__all__ = [
    "CuaError", "Result", "ErrorCode", "LogLevel", "Stat", "Trait", "Button",
    "SelectionMode", "SessionFlags", "ObserveFlags", "RenderFlags",
    "FormatFlags", "ScreenshotFlags", "DesktopFlags", "Session", "Tree",
    "Element", "Screenshot", "Diff", "Desktop", "version", "version_string",
    "sanitize_text", "result_to_string", "error_message", "error_code",
    "library_path", "accessibility_note",
]

# Replaced by meson when the module is installed (the libdir the library
# was installed to); left as is in the source tree.
_INSTALLED_LIBDIR = "@CUA_LIBDIR@"


# --------------------------------------------------------------------------
# Constants (values from <cua/cua.h>; they never change)

class Result(enum.IntEnum):
    """``cua_result``. Unknown (newer) codes are kept as plain ints."""
    OK = 0
    ERROR = -1
    ERROR_NOMEM = -2
    ERROR_INVALID_ARGUMENT = -3
    ERROR_NOT_FOUND = -4
    ERROR_STALE = -5
    ERROR_UNSUPPORTED = -6
    ERROR_BACKEND = -7
    ERROR_TIMEOUT = -8
    ERROR_PERMISSION = -9
    ERROR_AMBIGUOUS = -10
    ERROR_NO_WINDOW = -11
    ERROR_LAUNCH = -12
    ERROR_IO = -13
    ERROR_NO_SESSION = -14
    ERROR_PROCESS_GONE = -15
    ERROR_INPUT_BLOCKED = -16


class ErrorCode(enum.IntEnum):
    """``cua_errcode`` (<cua/cua-errors.h>): what failed, finer than
    :class:`Result`. Unknown (newer) codes are kept as plain ints."""
    OK = 0
    INTERNAL = 1
    NOMEM = 2
    INVALID_ARGS = 3
    IO = 4
    BACKEND = 5
    UNSUPPORTED = 6
    UNAVAILABLE = 7
    APP_NOT_FOUND = 100
    AMBIGUOUS_APP = 101
    NOT_ACTIVE = 102
    RUNNING_APP_NOT_FOUND = 103
    LAUNCH_FAILED = 104
    NO_WINDOWS = 105
    NOT_ACCESSIBLE = 106
    PERMISSIONS_NOT_GRANTED = 107
    TIMEOUT = 108
    SCREEN_LOCKED = 109
    USER_CHANGED = 110
    USER_STOPPED = 111
    PERMISSIONS_PENDING = 112
    NOTFOUND = 200
    INVALID = 201
    REFETCH_START = 202
    REFETCH_FINISH = 203
    NOT_SETTABLE = 204
    BAD_VALUE = 205
    BAD_SECONDARY = 206
    NOT_TEXT = 207
    TEXT_NOT_FOUND = 208
    TEXT_AMBIGUOUS = 209
    ACTION_FAILED = 210
    OUT_OF_BOUNDS = 300
    NO_SCREENSHOT = 301
    WINDOW_CHANGED = 302
    WINDOW_UNAVAILABLE = 303
    POINT_COVERED = 304
    INPUT_NOT_ACCEPTED = 305
    UNKNOWN_KEY = 306
    KEY_NOT_ALLOWED = 307
    SECURITY_PROCESS = 308


class LogLevel(enum.IntEnum):
    """``cua_log_level``."""
    ERROR = 10
    WARNING = 20
    INFO = 30
    DEBUG = 40
    TRACE = 50


class Stat(enum.IntEnum):
    """``cua_tree_stat`` keys for :meth:`Tree.stat`."""
    RAW_NODES = 1
    ELEMENTS = 2
    CALLS = 3
    WALK_US = 4
    BUILD_US = 5
    CALL_ERRORS = 6
    DIFF_US = 7
    SETTLE_US = 20
    WARMUP_US = 21
    CAPTURE_US = 22
    ENCODE_US = 23
    SETTLE_CAPPED = 24


class Trait(enum.IntFlag):
    """``enum cua_trait``: :attr:`Element.traits` bits."""
    SELECTED = 1 << 0
    SELECTABLE = 1 << 1
    EXPANDED = 1 << 2
    COLLAPSED = 1 << 3
    DISABLED = 1 << 4
    SETTABLE = 1 << 5
    STRING = 1 << 6
    FLOAT = 1 << 7
    BOOLEAN = 1 << 8


class Button(enum.IntEnum):
    """``enum cua_mouse_button``."""
    LEFT = 1
    MIDDLE = 2
    RIGHT = 3


class SelectionMode(enum.IntEnum):
    """``enum cua_selection_mode`` for :meth:`Session.select_text`."""
    TEXT = 0
    CURSOR_BEFORE = 1
    CURSOR_AFTER = 2


class SessionFlags(enum.IntFlag):
    """Flags of :class:`Session` (``CUA_SESSION_*``)."""
    NONE = 0
    NO_DESKTOP_FIXES = 1 << 0


class DesktopFlags(enum.IntFlag):
    """Flags of :class:`Desktop` (``CUA_DESKTOP_*``)."""
    NONE = 0
    DETACHED = 1 << 0


class FormatFlags(enum.IntFlag):
    """``CUA_FORMAT_*``."""
    NONE = 0
    JSON = 1 << 0


class ObserveFlags(enum.IntFlag):
    """Flags of :meth:`Session.observe` (``CUA_OBSERVE_*``)."""
    NONE = 0
    NO_LAUNCH = 1 << 0
    DISABLE_DIFF = 1 << 1
    NO_SCREENSHOT = 1 << 8
    AFTER_ACTION = 1 << 9


class RenderFlags(enum.IntFlag):
    """Flags of :meth:`Tree.render` and :meth:`Diff.render`
    (``CUA_RENDER_*``, ``CUA_DIFF_*``)."""
    NONE = 0
    DIFF = 1 << 0
    DIFF_REMOVED_LINES = 1 << 1
    DIFF_IGNORE_LINE_BUDGET = 1 << 2


class ScreenshotFlags(enum.IntFlag):
    """Flags of :meth:`Tree.render_screenshot` (``CUA_SCREENSHOT_*``)."""
    NONE = 0
    MARKS = 1 << 0
    PNG = 1 << 1


# --------------------------------------------------------------------------
# Loading the library

def _candidates():
    env = os.environ.get("CUA_LIBRARY")
    if env:
        # An explicit choice is final: no silent fallback to another copy.
        return [env]
    out = []
    found = ctypes.util.find_library("cua")
    if found:
        out.append(found)
    out.append("libcua.so.0")
    if not _INSTALLED_LIBDIR.startswith("@"):
        out.append(os.path.join(_INSTALLED_LIBDIR, "libcua.so.0"))
    return out


def _load():
    errors = []
    for name in _candidates():
        try:
            return name, ctypes.CDLL(name)
        except OSError as e:
            errors.append("%s: %s" % (name, e))
    raise ImportError("cannot load libcua (set CUA_LIBRARY to its path): "
                      + "; ".join(errors))


library_path, _lib = _load()

_vp = ctypes.c_void_p
_cp = ctypes.c_char_p
_sz = ctypes.c_size_t
_u32 = ctypes.c_uint32
_i32 = ctypes.c_int32
_i64 = ctypes.c_int64
_int = ctypes.c_int
_dbl = ctypes.c_double
_P = ctypes.POINTER

_LOG_FN = ctypes.CFUNCTYPE(None, _vp, _int, _cp, _vp)
_DESKTOP_LOG_FN = ctypes.CFUNCTYPE(None, _vp, _int, _cp, _vp)

# name: (restype, argtypes). Handles and owned memory are c_void_p; only
# borrowed strings are c_char_p (ctypes copies them, nothing to free).
_PROTOTYPES = {
    "cua_version_string": (_cp, []),
    "cua_version": (_u32, []),
    "cua_result_to_string": (_cp, [_int]),
    "cua_error_message": (_cp, []),
    "cua_error_code": (_int, []),
    "cua_free": (None, [_vp]),
    "cua_sanitize_text": (_int, [_cp, _sz, _P(_vp)]),
    # sessions
    "cua_session_new": (_int, [_P(_vp), _u32]),
    "cua_session_new_recorded": (_int, [_P(_vp), _cp, _u32]),
    "cua_session_ref": (_vp, [_vp]),
    "cua_session_unref": (_vp, [_vp]),
    "cua_session_set_log_handler": (None, [_vp, _LOG_FN, _vp]),
    "cua_session_set_log_level": (None, [_vp, _int]),
    "cua_session_set_option": (_int, [_vp, _cp, _cp]),
    "cua_session_get_display_info": (_int, [_vp, _P(_vp)]),
    "cua_session_set_stopped": (None, [_vp, _int]),
    "cua_session_is_stopped": (_int, [_vp]),
    "cua_session_list_apps": (_int, [_vp, _u32, _P(_vp)]),
    "cua_session_observe": (_int, [_vp, _cp, _u32, _P(_vp)]),
    "cua_session_resolve_app": (_int, [_vp, _cp, _u32, _P(_vp)]),
    "cua_session_record": (_int, [_vp, _cp, _u32, _P(_vp)]),
    "cua_session_save_state": (_int, [_vp, _P(_vp)]),
    "cua_session_load_state": (_int, [_vp, _cp]),
    "cua_session_expire_baselines": (None, [_vp]),
    "cua_session_wait_for_change": (_int, [_vp, _vp, _int, _P(_int)]),
    # trees
    "cua_tree_ref": (_vp, [_vp]),
    "cua_tree_unref": (_vp, [_vp]),
    "cua_tree_render": (_int, [_vp, _u32, _P(_vp)]),
    "cua_tree_to_json": (_int, [_vp, _u32, _P(_vp)]),
    "cua_tree_get_app_id": (_cp, [_vp]),
    "cua_tree_get_app_name": (_cp, [_vp]),
    "cua_tree_get_window_title": (_cp, [_vp]),
    "cua_tree_get_pid": (_i64, [_vp]),
    "cua_tree_get_revision": (_u32, [_vp]),
    "cua_tree_is_truncated": (_int, [_vp]),
    "cua_tree_get_accessibility_note": (_cp, [_vp]),
    "cua_accessibility_note": (_vp, [_cp, _cp, _cp, _i64]),
    "cua_tree_get_stat": (_i64, [_vp, _int]),
    "cua_tree_get_element_count": (_sz, [_vp]),
    "cua_tree_get_element": (_vp, [_vp, _sz]),
    "cua_tree_find_element": (_vp, [_vp, _u32]),
    "cua_tree_get_focused": (_vp, [_vp]),
    # diffs
    "cua_tree_diff_new": (_int, [_vp, _vp, _u32, _P(_vp)]),
    "cua_tree_get_diff": (_int, [_vp, _P(_vp)]),
    "cua_tree_diff_ref": (_vp, [_vp]),
    "cua_tree_diff_unref": (_vp, [_vp]),
    "cua_tree_diff_get_tree": (_vp, [_vp]),
    "cua_tree_diff_get_changed": (_sz, [_vp, _P(_P(_u32))]),
    "cua_tree_diff_get_added": (_sz, [_vp, _P(_P(_u32))]),
    "cua_tree_diff_get_removed": (_sz, [_vp, _P(_P(_u32))]),
    "cua_tree_diff_is_empty": (_int, [_vp]),
    "cua_tree_diff_render": (_int, [_vp, _u32, _P(_vp)]),
    # screenshots
    "cua_tree_get_screenshot": (_int, [_vp, _P(_vp), _P(_sz), _P(_cp),
                                       _P(_u32), _P(_u32), _P(_dbl)]),
    "cua_tree_get_screenshot_error": (_cp, [_vp]),
    "cua_tree_render_screenshot": (_int, [_vp, _u32, _P(_vp), _P(_sz)]),
    "cua_tree_render_marks": (_int, [_vp, _u32, _P(_vp), _P(_sz)]),
    "cua_tree_screenshot_to_screen": (_int, [_vp, _dbl, _dbl, _P(_i32),
                                             _P(_i32)]),
    # elements
    "cua_element_ref": (_vp, [_vp]),
    "cua_element_unref": (_vp, [_vp]),
    "cua_element_get_id": (_u32, [_vp]),
    "cua_element_get_depth": (_u32, [_vp]),
    "cua_element_get_parent": (_vp, [_vp]),
    "cua_element_get_child_count": (_sz, [_vp]),
    "cua_element_get_child": (_vp, [_vp, _sz]),
    "cua_element_get_role": (_cp, [_vp]),
    "cua_element_get_raw_role": (_cp, [_vp]),
    "cua_element_get_title": (_cp, [_vp]),
    "cua_element_get_description": (_cp, [_vp]),
    "cua_element_get_value": (_cp, [_vp]),
    "cua_element_get_traits": (_u32, [_vp]),
    "cua_element_get_action_count": (_sz, [_vp]),
    "cua_element_get_action": (_cp, [_vp, _sz]),
    "cua_element_get_frame": (_int, [_vp, _P(_i32), _P(_i32), _P(_i32),
                                     _P(_i32)]),
    "cua_element_get_locator": (_int, [_vp, _P(_sz), _P(_P(_u32)),
                                       _P(_sz)]),
    "cua_element_render": (_int, [_vp, _P(_vp)]),
    # actions
    "cua_session_click": (_int, [_vp, _cp, _u32, _u32, _u32, _P(_vp)]),
    "cua_session_click_at": (_int, [_vp, _cp, _dbl, _dbl, _u32, _u32,
                                    _P(_vp)]),
    "cua_session_set_value": (_int, [_vp, _cp, _u32, _cp, _P(_vp)]),
    "cua_session_type_text": (_int, [_vp, _cp, _cp, _P(_vp)]),
    "cua_session_press_key": (_int, [_vp, _cp, _cp, _P(_vp)]),
    "cua_session_scroll": (_int, [_vp, _cp, _u32, _cp, _dbl, _P(_vp)]),
    "cua_session_scroll_at": (_int, [_vp, _cp, _dbl, _dbl, _cp, _dbl,
                                     _P(_vp)]),
    "cua_session_drag": (_int, [_vp, _cp, _dbl, _dbl, _dbl, _dbl,
                                _P(_vp)]),
    "cua_session_perform_action": (_int, [_vp, _cp, _u32, _cp, _P(_vp)]),
    "cua_session_select_text": (_int, [_vp, _cp, _u32, _cp, _cp, _cp, _u32,
                                       _P(_vp)]),
    # headless desktops
    "cua_desktop_new": (_int, [_P(_vp), _u32]),
    "cua_desktop_attach": (_int, [_P(_vp), _cp]),
    "cua_desktop_ref": (_vp, [_vp]),
    "cua_desktop_unref": (_vp, [_vp]),
    "cua_desktop_set_log_handler": (None, [_vp, _DESKTOP_LOG_FN, _vp]),
    "cua_desktop_set_option": (_int, [_vp, _cp, _cp]),
    "cua_desktop_start": (_int, [_vp]),
    "cua_desktop_run": (_int, [_vp, _P(_cp), _P(_int)]),
    "cua_desktop_stop": (_int, [_vp]),
    "cua_desktop_get_pid": (_i64, [_vp]),
    "cua_desktop_get_state_dir": (_cp, [_vp]),
    "cua_desktop_get_env_count": (_sz, [_vp]),
    "cua_desktop_get_env_name": (_cp, [_vp, _sz]),
    "cua_desktop_get_env": (_cp, [_vp, _cp]),
    "cua_desktop_env_to_shell": (_int, [_vp, _P(_vp)]),
}

#: C functions this module wraps that the loaded library lacks (an older
#: libcua); calling their wrappers raises :class:`CuaError` (UNSUPPORTED).
missing_symbols = []


class _Api:
    pass


_c = _Api()
for _name, (_res, _args) in _PROTOTYPES.items():
    try:
        _f = getattr(_lib, _name)
    except AttributeError:
        missing_symbols.append(_name)
        continue
    _f.restype = _res
    _f.argtypes = _args
    setattr(_c, _name[4:], _f)
del _name, _res, _args


# --------------------------------------------------------------------------
# Errors and owned memory

class CuaError(Exception):
    """A libcua call failed.

    :ivar result: the ``cua_result`` (a :class:`Result` when known, else the
        raw negative int).
    :ivar code: the stable error code (cua_error_code(): an
        :class:`ErrorCode` when known, else the raw int); what a program
        switches on. :attr:`ErrorCode.INTERNAL` when the loaded libcua is
        older than 0.2 and has no codes.
    :ivar message: libcua's detailed message (for calls a model drives, the
        sentence that says what to do next), or the code's name when
        libcua gave none. Messages may be reworded; codes stay.
    :ivar function: the C function that failed.
    """

    def __init__(self, result, message, function=None, code=None):
        try:
            result = Result(result)
        except ValueError:
            pass
        if code is None:
            code = ErrorCode.INTERNAL
        try:
            code = ErrorCode(code)
        except ValueError:
            pass
        self.result = result
        self.code = code
        self.message = message
        self.function = function
        super().__init__(message)

    @property
    def name(self):
        """The short English name of the code (cua_result_to_string())."""
        return result_to_string(self.result)

    def __repr__(self):
        return "CuaError(%r, %r, %r)" % (self.result, self.code,
                                         self.message)


def _fn(name):
    f = getattr(_c, name, None)
    if f is None:
        raise CuaError(Result.ERROR_UNSUPPORTED,
                       "cua_%s is not in the loaded libcua (%s)"
                       % (name, library_path), "cua_" + name,
                       ErrorCode.UNSUPPORTED)
    return f


def _call(name, *args):
    """Calls a cua_result function; raises CuaError on failure."""
    r = _fn(name)(*args)
    if r != 0:
        code = error_code()
        msg = _c.error_message()
        msg = msg.decode("utf-8", "replace") if msg else ""
        if not msg:
            msg = result_to_string(r)
        raise CuaError(r, msg, "cua_" + name, code)


def _enc(s, what="argument"):
    if s is None:
        return None
    if isinstance(s, bytes):
        return s
    if not isinstance(s, str):
        raise TypeError("%s must be str, not %s" % (what, type(s).__name__))
    return s.encode("utf-8")


def _dec(b):
    return b.decode("utf-8", "replace") if b is not None else None


def _take_string(p):
    """Copies the owned NUL-terminated string at p and frees it."""
    if not p.value:
        return None
    try:
        return ctypes.string_at(p.value).decode("utf-8", "replace")
    finally:
        _c.free(p.value)
        p.value = None


def _take_buffer(p, size):
    """Copies the owned buffer p (size bytes) and frees it."""
    if not p.value:
        return b""
    try:
        return ctypes.string_at(p.value, size.value)
    finally:
        _c.free(p.value)
        p.value = None


def _string_call(name, *args):
    """Calls a function whose last parameter is ``char **out``."""
    out = _vp()
    try:
        _call(name, *args, ctypes.byref(out))
    finally:
        # On failure *out is NULL (API contract); free it anyway if not.
        text = _take_string(out)
    return text


def _need(obj, cls, what):
    """Handles passed in by the caller must be objects of this module: a
    plain int would reach libcua as an arbitrary pointer."""
    if not isinstance(obj, cls):
        raise TypeError("%s must be a cua.%s, not %s"
                        % (what, cls.__name__, type(obj).__name__))
    return obj


def _ids(getter, ptr):
    arr = _P(_u32)()
    n = getter(ptr, ctypes.byref(arr))
    return tuple(arr[i] for i in range(n)) if n else ()


def version_string():
    """The running library's version, "MAJOR.MINOR.MICRO"."""
    return _dec(_c.version_string())


def version():
    """The running library's version as 0xMMmmuu."""
    return _c.version()


def result_to_string(result):
    """A short English name for a result code."""
    return _dec(_c.result_to_string(int(result)))


def error_message():
    """The message of the last failed libcua call on this thread."""
    return _dec(_c.error_message())


def error_code():
    """The stable code of the last failed libcua call on this thread (an
    :class:`ErrorCode`, or the raw int of a newer code); ErrorCode.OK when
    the last call succeeded. None when the loaded libcua is older than
    0.2."""
    f = getattr(_c, "error_code", None)
    if f is None:
        return None
    code = f()
    try:
        return ErrorCode(code)
    except ValueError:
        return code


def accessibility_note(app_name, toolkit=None, exe=None, pid=0):
    """The ``Accessibility unavailable:`` note for an app whose elements
    cannot be read, with the likely fix (cua_accessibility_note())."""
    p = ctypes.c_void_p(_c.accessibility_note(
        _enc(app_name, "app_name") if app_name is not None else None,
        _enc(toolkit, "toolkit") if toolkit is not None else None,
        _enc(exe, "exe") if exe is not None else None, int(pid)))
    if not p.value:
        raise MemoryError("cua_accessibility_note: out of memory")
    return _take_string(p)


def sanitize_text(text, max_chars=0):
    """Sanitises text the way libcua treats app-controlled strings."""
    return _string_call("sanitize_text", _enc(text, "text"), max_chars)


# --------------------------------------------------------------------------
# Handles

# Live handle counts per class, for tests of the binding's own bookkeeping.
_live = {}
_live_lock = threading.Lock()


def live_handles():
    """Number of C references this module currently holds, per class."""
    with _live_lock:
        return {k: v for k, v in _live.items() if v}


class _Handle:
    """One C reference, released exactly once."""
    _unref_name = None
    __slots__ = ("_ptr", "__weakref__")

    def __init__(self, ptr):
        # ptr is a new reference that this object now owns.
        if not ptr:
            raise ValueError("NULL handle")
        self._ptr = ptr
        with _live_lock:
            _live[type(self).__name__] = _live.get(type(self).__name__, 0) + 1

    @property
    def _as_parameter_(self):
        if not self._ptr:
            raise ValueError("%s is closed" % type(self).__name__)
        return self._ptr

    @property
    def closed(self):
        return not self._ptr

    def close(self):
        """Releases the reference now (idempotent)."""
        ptr, self._ptr = self._ptr, None
        if ptr:
            getattr(_c, self._unref_name)(ptr)
            with _live_lock:
                _live[type(self).__name__] -= 1

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: module globals gone
            pass

    def __eq__(self, other):
        return type(other) is type(self) and other._ptr == self._ptr \
            and self._ptr is not None

    def __hash__(self):
        return hash((type(self), self._ptr))


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
        if handler is None:
            cb = _LOG_FN()
        else:
            def trampoline(session, level, message, user_data):
                try:
                    level = LogLevel(level)
                except ValueError:
                    pass
                handler(level, _dec(message))
            cb = _LOG_FN(trampoline)
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


class Desktop(_Handle):
    """A private headless desktop (``cua_desktop``): an Xvfb server, a
    D-Bus session bus, the AT-SPI buses and openbox, with the fixes real
    toolkits need to show up in the accessibility tree. Apps run in it when
    their environment is :meth:`env`; a :class:`Session` opened in such a
    process works on the desktop.

    The keyword arguments are options (cua_desktop_set_option()):
    ``kind`` (``"x11"``, or ``"sway"`` for a headless Wayland desktop
    whose apps are Wayland clients), ``screen`` (``"WxHxD"``), ``window_manager``
    (``"openbox"`` or ``"none"``) and ``state_dir``. ``detached=True``
    makes a desktop that outlives this object and this process (until
    :meth:`stop`, here or on :meth:`attach`); otherwise it stops when the
    object is closed or the process exits, even when it is killed.

    Used as a context manager it starts on entry (unless it runs already)
    and is closed on exit::

        with cua.Desktop(screen="1280x800x24") as d:
            subprocess.run(["gtk3-widget-factory"], env=d.env())

    Only one thread may use a desktop at a time.
    """
    _unref_name = "desktop_unref"
    __slots__ = ("_log_cb",)

    def __init__(self, *, kind=None, screen=None, window_manager=None,
                 state_dir=None, detached=False, _ptr=None):
        if _ptr is None:
            out = _vp()
            _call("desktop_new", ctypes.byref(out),
                  int(DesktopFlags.DETACHED if detached else 0))
            _ptr = out.value
        super().__init__(_ptr)
        self._log_cb = None
        try:
            for key, value in (("kind", kind), ("screen", screen),
                               ("window_manager", window_manager),
                               ("state_dir", state_dir)):
                if value is not None:
                    self.set_option(key, value)
        except BaseException:
            self.close()
            raise

    @classmethod
    def attach(cls, state_dir=None):
        """A running desktop started by another process, by its state
        directory (default ``$CUA_DESKTOP_DIR``); closing the object does
        not stop it, :meth:`stop` does."""
        out = _vp()
        _call("desktop_attach", ctypes.byref(out),
              _enc(os.fspath(state_dir), "state_dir")
              if state_dir is not None else None)
        return cls(_ptr=out.value)

    def ref(self):
        """Another :class:`Desktop` object sharing this desktop."""
        return Desktop(_ptr=_c.desktop_ref(self))

    def close(self):
        """Releases the reference; the last one of a desktop started here
        (not detached) stops it."""
        super().close()
        self._log_cb = None

    def set_log_handler(self, handler):
        """Installs ``handler(level: LogLevel, message: str)`` for the
        supervisor's warnings; None restores libcua's default (stderr)."""
        if handler is None:
            cb = _DESKTOP_LOG_FN()
        else:
            def trampoline(desktop, level, message, user_data):
                try:
                    level = LogLevel(level)
                except ValueError:
                    pass
                handler(level, _dec(message))
            cb = _DESKTOP_LOG_FN(trampoline)
        _c.desktop_set_log_handler(self, cb, None)
        self._log_cb = cb if handler is not None else None

    def set_option(self, key, value):
        """Sets an option before the desktop starts (see the class)."""
        if isinstance(value, os.PathLike):
            value = os.fspath(value)
        _call("desktop_set_option", self, _enc(key, "key"),
              _enc(str(value), "value"))

    def start(self):
        """Starts the desktop and waits until it is ready; returns self."""
        _call("desktop_start", self)
        return self

    def run(self, args):
        """Starts the desktop, runs ``args`` (a command and its arguments;
        the first is looked up in ``PATH``) in it with this process's
        standard streams, stops the desktop and returns the command's exit
        status (128 + N when signal N ended it). Raises :class:`CuaError`
        when the command could not be run or the desktop did not start;
        its ``exit_status`` attribute is what a shell would report (127,
        126, 1)."""
        args = [_enc(os.fspath(a), "argument") for a in args]
        if not args:
            raise ValueError("run() needs a command")
        argv = (_cp * (len(args) + 1))(*args, None)
        status = _int(1)
        r = _fn("desktop_run")(self, argv, ctypes.byref(status))
        if r != 0:
            msg = _dec(_c.error_message()) or result_to_string(r)
            err = CuaError(r, msg, "cua_desktop_run")
            err.exit_status = status.value
            raise err
        return status.value

    def stop(self):
        """Stops the desktop, its apps and daemons, and removes its state
        directory (also after its supervisor died)."""
        _call("desktop_stop", self)

    @property
    def pid(self):
        """The supervisor's process id while the desktop runs, else 0."""
        return _c.desktop_get_pid(self)

    @property
    def state_dir(self):
        """The running desktop's state directory (its ``CUA_DESKTOP_DIR``),
        or None."""
        return _dec(_c.desktop_get_state_dir(self))

    @property
    def environ(self):
        """``{name: value}`` of the variables the desktop manages; a value
        of None means the variable must be unset (all None before the
        desktop starts)."""
        out = {}
        for i in range(_c.desktop_get_env_count(self)):
            name = _c.desktop_get_env_name(self, i)
            out[_dec(name)] = _dec(_c.desktop_get_env(self, name))
        return out

    def env(self, base=None):
        """An environment for a process to run in the desktop: ``base``
        (default ``os.environ``) with the desktop's variables set and
        unset, for ``subprocess`` and ``os.execve``."""
        env = dict(os.environ if base is None else base)
        for name, value in self.environ.items():
            if value is None:
                env.pop(name, None)
            else:
                env[name] = value
        return env

    def env_to_shell(self):
        """The environment as shell ``export`` lines and one ``unset``
        line (what ``eval "$(cua desktop start)"`` runs)."""
        return _string_call("desktop_env_to_shell", self)

    def __enter__(self):
        if self.state_dir is None:
            self.start()
        return self
