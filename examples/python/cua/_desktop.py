"""The private headless desktop (``cua_desktop``).

SPDX-License-Identifier: MIT
"""

import ctypes
import os

from ._constants import DesktopFlags
from ._capi import (_c, _call, _cp, _dec, _DESKTOP_LOG_FN, _enc, _fn, _Handle,
                    _int, _log_callback, _string_call, _vp, CuaError,
                    result_to_string)


class Desktop(_Handle):
    """A private headless desktop (``cua_desktop``): an Xvfb server, a
    D-Bus session bus, the AT-SPI buses and openbox, with the fixes real
    toolkits need to show up in the accessibility tree. Apps run in it when
    their environment is :meth:`env`; a :class:`Session` opened in such a
    process works on the desktop.

    The keyword arguments are options (cua_desktop_set_option()):
    ``kind`` (``"x11"``, or ``"sway"`` or ``"mutter"`` for a headless
    Wayland desktop whose apps are Wayland clients), ``screen``
    (``"WxHxD"``), ``window_manager``
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
        cb = _log_callback(_DESKTOP_LOG_FN, handler)
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
