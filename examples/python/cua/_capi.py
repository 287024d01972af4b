"""Loading libcua, the prototypes of its functions, errors, owned memory
and the reference-holding base class of every handle.

SPDX-License-Identifier: MIT
"""

import ctypes
import ctypes.util
import os
import threading

from ._constants import ErrorCode, LogLevel, Result


# Replaced by meson when the module is installed (the libdir the library
# was installed to); left as is in the source tree.
_INSTALLED_LIBDIR = "@CUA_LIBDIR@"


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
    "cua_tree_get_content_revision": (_u32, [_vp]),
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


def _log_callback(fn_type, handler):
    """The C log handler (a ``fn_type`` callback) that calls
    ``handler(level: LogLevel, message: str)``; for None, the null callback
    (libcua's default handler)."""
    if handler is None:
        return fn_type()

    def trampoline(obj, level, message, user_data):
        try:
            level = LogLevel(level)
        except ValueError:
            pass
        handler(level, _dec(message))
    return fn_type(trampoline)


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
