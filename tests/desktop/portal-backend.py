#!/usr/bin/python3
# A desktop-portal backend for the tests: org.freedesktop.impl.portal.
# RemoteDesktop and ScreenCast, behind the real xdg-desktop-portal
# frontend. It grants every request, as a person answering the consent
# dialog with "Allow" would, and does the work through mutter's own
# RemoteDesktop and ScreenCast interfaces on the headless GNOME desktop.
# With a "cancel" file in its directory it answers the next Start as a
# person cancelling the dialog would (response 1) and removes the file.
#
# It prints one line per request on stdout, for the test to read:
#   ready
#   select-devices persist=<u> restore=<yes|no>
#   start restore=<yes|no> devices=<u> streams=<n>
#   cancelled
#   closed
#
# Usage: portal-backend.py DIR (DIR holds the .portal file and "cancel")
#
# SPDX-License-Identifier: MIT
import os
import sys

from gi.repository import Gio, GLib

NAME = "org.freedesktop.impl.portal.desktop.cuatest"
PATH = "/org/freedesktop/portal/desktop"
MUTTER_RD = "org.gnome.Mutter.RemoteDesktop"
MUTTER_SC = "org.gnome.Mutter.ScreenCast"

XML = """
<node>
 <interface name="org.freedesktop.impl.portal.RemoteDesktop">
  <method name="CreateSession">
   <arg type="o" direction="in"/><arg type="o" direction="in"/>
   <arg type="s" direction="in"/><arg type="a{sv}" direction="in"/>
   <arg type="u" direction="out"/><arg type="a{sv}" direction="out"/>
  </method>
  <method name="SelectDevices">
   <arg type="o" direction="in"/><arg type="o" direction="in"/>
   <arg type="s" direction="in"/><arg type="a{sv}" direction="in"/>
   <arg type="u" direction="out"/><arg type="a{sv}" direction="out"/>
  </method>
  <method name="Start">
   <arg type="o" direction="in"/><arg type="o" direction="in"/>
   <arg type="s" direction="in"/><arg type="s" direction="in"/>
   <arg type="a{sv}" direction="in"/>
   <arg type="u" direction="out"/><arg type="a{sv}" direction="out"/>
  </method>
  <method name="NotifyPointerMotionAbsolute">
   <arg type="o" direction="in"/><arg type="a{sv}" direction="in"/>
   <arg type="u" direction="in"/><arg type="d" direction="in"/>
   <arg type="d" direction="in"/>
  </method>
  <method name="NotifyPointerButton">
   <arg type="o" direction="in"/><arg type="a{sv}" direction="in"/>
   <arg type="i" direction="in"/><arg type="u" direction="in"/>
  </method>
  <method name="NotifyPointerAxisDiscrete">
   <arg type="o" direction="in"/><arg type="a{sv}" direction="in"/>
   <arg type="u" direction="in"/><arg type="i" direction="in"/>
  </method>
  <method name="NotifyKeyboardKeysym">
   <arg type="o" direction="in"/><arg type="a{sv}" direction="in"/>
   <arg type="i" direction="in"/><arg type="u" direction="in"/>
  </method>
  <property name="AvailableDeviceTypes" type="u" access="read"/>
  <property name="version" type="u" access="read"/>
 </interface>
 <interface name="org.freedesktop.impl.portal.ScreenCast">
  <method name="CreateSession">
   <arg type="o" direction="in"/><arg type="o" direction="in"/>
   <arg type="s" direction="in"/><arg type="a{sv}" direction="in"/>
   <arg type="u" direction="out"/><arg type="a{sv}" direction="out"/>
  </method>
  <method name="SelectSources">
   <arg type="o" direction="in"/><arg type="o" direction="in"/>
   <arg type="s" direction="in"/><arg type="a{sv}" direction="in"/>
   <arg type="u" direction="out"/><arg type="a{sv}" direction="out"/>
  </method>
  <method name="Start">
   <arg type="o" direction="in"/><arg type="o" direction="in"/>
   <arg type="s" direction="in"/><arg type="s" direction="in"/>
   <arg type="a{sv}" direction="in"/>
   <arg type="u" direction="out"/><arg type="a{sv}" direction="out"/>
  </method>
  <property name="AvailableSourceTypes" type="u" access="read"/>
  <property name="AvailableCursorModes" type="u" access="read"/>
  <property name="version" type="u" access="read"/>
 </interface>
</node>
"""

SESSION_XML = """
<node>
 <interface name="org.freedesktop.impl.portal.Session">
  <method name="Close"/>
  <signal name="Closed"/>
  <property name="version" type="u" access="read"/>
 </interface>
</node>
"""

bus = None
base_dir = sys.argv[1]
sessions = {}  # session handle -> dict


def say(line):
    print(line, flush=True)


def mcall(dest, path, iface, method, args, reply):
    return bus.call_sync(dest, path, iface, method, args,
                         GLib.VariantType(reply) if reply else None,
                         Gio.DBusCallFlags.NONE, 5000, None)


def close_session(handle, emit):
    s = sessions.pop(handle, None)
    if not s:
        return
    if s.get("rd"):
        try:
            mcall(MUTTER_RD, s["rd"], MUTTER_RD + ".Session", "Stop", None,
                  None)
        except GLib.Error:
            pass
    if emit:
        bus.emit_signal(None, handle, "org.freedesktop.impl.portal.Session",
                        "Closed", None)
    bus.unregister_object(s["reg"])
    say("closed")


def session_call(conn, sender, path, iface, method, params, inv):
    inv.return_value(None)
    close_session(path, False)


def create_session(handle):
    rd = mcall(MUTTER_RD, "/org/gnome/Mutter/RemoteDesktop", MUTTER_RD,
               "CreateSession", None, "(o)").unpack()[0]
    node = Gio.DBusNodeInfo.new_for_xml(SESSION_XML)
    reg = bus.register_object(handle, node.interfaces[0], session_call,
                              None, None)
    sessions[handle] = {"rd": rd, "reg": reg, "devices": 0, "cast": False,
                        "persist": 0, "restore": False, "cursor": 1,
                        "streams": {}}


def reply(inv, response, results):
    inv.return_value(GLib.Variant("(ua{sv})", (response, results)))


def start(inv, handle):
    s = sessions[handle]
    cancel = os.path.join(base_dir, "cancel")
    if os.path.exists(cancel):
        os.unlink(cancel)
        say("cancelled")
        reply(inv, 1, {})
        return
    sid = mcall(MUTTER_RD, s["rd"], "org.freedesktop.DBus.Properties", "Get",
                GLib.Variant("(ss)", (MUTTER_RD + ".Session", "SessionId")),
                "(v)").unpack()[0]
    state = {"node": None}
    sub = 0
    if s["cast"]:
        sc = mcall(MUTTER_SC, "/org/gnome/Mutter/ScreenCast", MUTTER_SC,
                   "CreateSession",
                   GLib.Variant("(a{sv})", ({
                       "remote-desktop-session-id": GLib.Variant("s", sid)
                   },)), "(o)").unpack()[0]
        # the portal's cursor modes 1 hidden, 2 embedded, 4 metadata are
        # mutter's 0, 1, 2
        mode = {1: 0, 2: 1, 4: 2}.get(s["cursor"], 0)
        stream = mcall(MUTTER_SC, sc, MUTTER_SC + ".Session", "RecordWindow",
                       GLib.Variant("(a{sv})", ({
                           "cursor-mode": GLib.Variant("u", mode)
                       },)), "(o)").unpack()[0]

        def added(conn, sender, path, iface, sig, params):
            state["node"] = params.unpack()[0]

        sub = bus.signal_subscribe(None, MUTTER_SC + ".Stream",
                                   "PipeWireStreamAdded", stream, None,
                                   Gio.DBusSignalFlags.NONE, added)
    mcall(MUTTER_RD, s["rd"], MUTTER_RD + ".Session", "Start", None, None)
    ctx = GLib.MainContext.default()
    deadline = GLib.get_monotonic_time() + 5000000
    while s["cast"] and state["node"] is None and \
            GLib.get_monotonic_time() < deadline:
        ctx.iteration(True)
    if sub:
        bus.signal_unsubscribe(sub)
    results = {"devices": GLib.Variant("u", s["devices"] or 3)}
    streams = []
    if state["node"] is not None:
        s["streams"][state["node"]] = stream
        # the frontend takes pointer positions only inside the stream's
        # size, which mutter gives in the stream's parameters
        params = mcall(MUTTER_SC, stream, "org.freedesktop.DBus.Properties",
                       "Get", GLib.Variant("(ss)", (MUTTER_SC + ".Stream",
                                                    "Parameters")),
                       "(v)").unpack()[0]
        props = {"source_type": GLib.Variant("u", 2)}
        if "size" in params:
            props["size"] = GLib.Variant("(ii)", tuple(params["size"]))
        sys.stderr.write("portal-backend: stream parameters %s\n" % params)
        streams.append((state["node"], props))
    results["streams"] = GLib.Variant("a(ua{sv})", streams)
    if s["persist"]:
        results["persist_mode"] = GLib.Variant("u", s["persist"])
        results["restore_data"] = GLib.Variant(
            "(suv)", ("cuatest", 1, GLib.Variant("s", "focused window")))
    say("start restore=%s devices=%d streams=%d" %
        ("yes" if s["restore"] else "no", s["devices"], len(streams)))
    reply(inv, 0, results)


def method_call(conn, sender, path, iface, method, params, inv):
    args = params.unpack()
    try:
        if method == "CreateSession":
            if iface.endswith("RemoteDesktop"):
                create_session(args[1])
            reply(inv, 0, {})
        elif method == "SelectDevices":
            s = sessions[args[1]]
            opts = args[3]
            s["devices"] = opts.get("types", 3)
            s["persist"] = opts.get("persist_mode", 0)
            s["restore"] = s["restore"] or "restore_data" in opts
            say("select-devices persist=%d restore=%s" %
                (s["persist"], "yes" if "restore_data" in opts else "no"))
            reply(inv, 0, {})
        elif method == "SelectSources":
            s = sessions[args[1]]
            opts = args[3]
            s["cast"] = True
            s["cursor"] = opts.get("cursor_mode", 1)
            s["restore"] = s["restore"] or "restore_data" in opts
            reply(inv, 0, {})
        elif method == "Start":
            start(inv, args[1])
        elif method.startswith("Notify"):
            s = sessions[args[0]]
            rd = s["rd"]
            if method == "NotifyKeyboardKeysym":
                margs = GLib.Variant("(ub)", (args[2] & 0xffffffff,
                                              bool(args[3])))
            elif method == "NotifyPointerButton":
                margs = GLib.Variant("(ib)", (args[2], bool(args[3])))
            elif method == "NotifyPointerAxisDiscrete":
                margs = GLib.Variant("(ui)", (args[2], args[3]))
            else:
                margs = GLib.Variant("(sdd)", (s["streams"][args[2]],
                                               args[3], args[4]))
            mcall(MUTTER_RD, rd, MUTTER_RD + ".Session", method, margs, None)
            inv.return_value(None)
        else:
            inv.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod",
                                  method)
    except (GLib.Error, KeyError) as e:
        sys.stderr.write("portal-backend: %s: %s\n" % (method, e))
        if method.startswith("Notify"):
            inv.return_dbus_error("org.freedesktop.DBus.Error.Failed",
                                  str(e))
        else:
            reply(inv, 2, {})


def get_property(conn, sender, path, iface, prop):
    values = {
        "AvailableDeviceTypes": 3,  # keyboard, pointer
        "AvailableSourceTypes": 3,  # monitor, window
        "AvailableCursorModes": 7,  # hidden, embedded, metadata
        "version": 1,
    }
    return GLib.Variant("u", values[prop])


def main():
    global bus
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    node = Gio.DBusNodeInfo.new_for_xml(XML)
    for i in node.interfaces:
        bus.register_object(PATH, i, method_call, get_property, None)
    loop = GLib.MainLoop()

    def acquired(conn, name):
        say("ready")

    def lost(conn, name):
        say("name lost")
        loop.quit()

    Gio.bus_own_name_on_connection(bus, NAME,
                                   Gio.BusNameOwnerFlags.DO_NOT_QUEUE,
                                   acquired, lost)
    loop.run()


main()
