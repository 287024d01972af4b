#!/usr/bin/python3
"""A screen saver for the tests: owns org.freedesktop.ScreenSaver on the
session bus (the desktop's, from DBUS_SESSION_BUS_ADDRESS) with GetActive
and SetActive, as lockers that implement it do, and a test interface,
org.libcua.Test.ScreenSaver, whose LockAfter(n) makes the screen lock
once GetActive was answered n more times (a lock that starts while an
action runs). Prints "ready" once it owns the name, then one line per
GetActive ("get-active 0|1"). Exits when stdin closes.

SPDX-License-Identifier: MIT
"""
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

XML = """
<node>
  <interface name="org.freedesktop.ScreenSaver">
    <method name="GetActive"><arg type="b" direction="out"/></method>
    <method name="SetActive">
      <arg type="b" direction="in"/><arg type="b" direction="out"/>
    </method>
    <signal name="ActiveChanged"><arg type="b"/></signal>
  </interface>
  <interface name="org.libcua.Test.ScreenSaver">
    <method name="LockAfter"><arg type="u" direction="in"/></method>
  </interface>
</node>
"""
PATH = "/org/freedesktop/ScreenSaver"
state = {"active": False, "lock_after": -1}
loop = GLib.MainLoop()


def set_active(conn, active):
    if state["active"] != active:
        state["active"] = active
        conn.emit_signal(None, PATH, "org.freedesktop.ScreenSaver",
                         "ActiveChanged", GLib.Variant("(b)", (active,)))


def on_call(conn, sender, path, iface, method, params, inv):
    if method == "GetActive":
        if state["lock_after"] == 0:
            state["lock_after"] = -1
            set_active(conn, True)
        elif state["lock_after"] > 0:
            state["lock_after"] -= 1
        print("get-active %d" % state["active"], flush=True)
        inv.return_value(GLib.Variant("(b)", (state["active"],)))
    elif method == "SetActive":
        set_active(conn, params.unpack()[0])
        inv.return_value(GLib.Variant("(b)", (True,)))
    elif method == "LockAfter":
        state["lock_after"] = params.unpack()[0]
        inv.return_value(None)


def main():
    bus = Gio.DBusConnection.new_for_address_sync(
        Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION, None),
        Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
        | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
    info = Gio.DBusNodeInfo.new_for_xml(XML)
    for i in info.interfaces:
        bus.register_object(PATH, i, on_call, None, None)

    def acquired(*_):
        print("ready", flush=True)

    def lost(*_):
        print("name lost", file=sys.stderr, flush=True)
        loop.quit()

    Gio.bus_own_name_on_connection(bus, "org.freedesktop.ScreenSaver",
                                   Gio.BusNameOwnerFlags.NONE, acquired, lost)
    GLib.io_add_watch(GLib.IOChannel.unix_new(0), GLib.PRIORITY_DEFAULT,
                      GLib.IO_IN | GLib.IO_HUP,
                      lambda ch, cond: sys.stdin.buffer.read1(4096) != b""
                      or loop.quit())
    loop.run()


if __name__ == "__main__":
    main()
