"""The constants of <cua/cua.h> as Python enums (their values never
change).

SPDX-License-Identifier: MIT
"""

import enum


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
    SCREENSHOT_REUSED = 25


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
    SCREENSHOT_GEOMETRY = 1 << 10


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
