#!/usr/bin/env python3
"""Tests of the ctypes binding (cua.py): ownership and error paths on
recorded trees (no desktop needed), the binding's declarations against the
public header, and, when CUA_TEST_DESKTOP=1 (inside `cua desktop run`),
actions and screenshots on a real app.

    CUA_LIBRARY=build/lib/libcua.so.0 python3 -m unittest -v test_cua

Environment: CUA_LIBRARY (the library under test), CUA_SOURCE_ROOT (the
source tree, for tests/data and the header; default: two levels up),
CUA_TEST_DESKTOP=1 to run the desktop tests (skipped otherwise), or
CUA_TEST_SCOPE=recorded to leave them out of the run (the recorded-tree
runs of the examples suite, where a skip would fail the suite),
CUA_TEST_APP (default gtk3-widget-factory).

SPDX-License-Identifier: MIT
"""

import ctypes
import gc
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cua  # noqa: E402

SOURCE_ROOT = os.environ.get("CUA_SOURCE_ROOT",
                             os.path.normpath(os.path.join(HERE, "..", "..")))
DATA = os.path.join(SOURCE_ROOT, "tests", "data")
HEADER = os.path.join(SOURCE_ROOT, "include", "cua", "cua.h")
# cua.h and the headers it includes (cua-errors.h, the API by topic)
HEADERS = [os.path.join(SOURCE_ROOT, "include", "cua", h) for h in (
    "cua.h", "cua-errors.h", "cua-session.h", "cua-tree.h", "cua-actions.h",
    "cua-desktop.h")]


def read_headers():
    """The text of every public header, one after the other."""
    text = ""
    for h in HEADERS:
        with open(h, encoding="utf-8") as f:
            text += f.read()
    return text
MAP = os.path.join(SOURCE_ROOT, "lib", "libcua.map")
GEDIT = os.path.join(DATA, "recorded-gedit.json")
FILES = os.path.join(DATA, "recorded-files.json")


def header_functions():
    """{name: (return type, [parameter types])} of the CUA_EXPORT
    declarations in the public headers."""
    text = re.sub(r"/\*.*?\*/", "", read_headers(), flags=re.S)
    out = {}
    for m in re.finditer(r"CUA_EXPORT\s+([^;(]*?)\s*\n\s*(cua_\w+)\s*"
                         r"\(([^)]*)\)\s*;", text):
        ret, name, params = m.group(1), m.group(2), m.group(3)
        params = " ".join(params.split())
        plist = [] if params in ("void", "") else \
            [p.strip() for p in params.split(",")]
        out[name] = (" ".join(ret.split()), plist)
    return out


def map_symbols():
    with open(MAP, encoding="utf-8") as f:
        return set(re.findall(r"^\s*(cua_\w+);", f.read(), flags=re.M))


class Base(unittest.TestCase):
    def tearDown(self):
        # Every test releases what it took: the binding holds no C
        # reference once its objects are gone.
        gc.collect()
        self.assertEqual(cua.live_handles(), {},
                         "C references still held after the test")


class TestDeclarations(Base):
    """The binding declares every public function, with the header's
    arity, and never lets ctypes copy an owned string (c_char_p)."""

    @unittest.skipUnless(os.path.exists(HEADER), "no source tree")
    def test_prototypes_match_header(self):
        funcs = header_functions()
        self.assertGreater(len(funcs), 50)
        declared = set("cua_" + k[4:] for k in cua._PROTOTYPES)
        self.assertEqual(set(funcs) - declared, set(),
                         "public functions the binding lacks")
        self.assertEqual(declared - set(funcs), set(),
                         "binding declares functions the header lacks")
        for name, (ret, params) in funcs.items():
            restype, argtypes = cua._PROTOTYPES[name]
            self.assertEqual(len(argtypes), len(params), name)
            # pointer-returning functions: borrowed strings are c_char_p,
            # handles c_void_p; nothing that returns `char *` (owned).
            if ret.endswith("*"):
                if ret.replace(" ", "") == "constchar*":
                    self.assertIs(restype, ctypes.c_char_p, name)
                else:
                    self.assertIs(restype, ctypes.c_void_p, name)
            elif ret == "void":
                self.assertIsNone(restype, name)
            else:
                self.assertNotIn(restype, (ctypes.c_char_p, ctypes.c_void_p),
                                 name)
            for p, t in zip(params, argtypes):
                compact = p.replace(" ", "")
                # owned out-strings and buffers: void ** in ctypes, so the
                # binding gets the pointer and frees it with cua_free
                if compact.startswith("char**") or \
                        compact.startswith("void**"):
                    self.assertIs(t, ctypes.POINTER(ctypes.c_void_p),
                                  "%s: %s" % (name, p))
                elif compact.startswith("constchar**") or \
                        compact.startswith("constchar*const*"):
                    self.assertIs(t, ctypes.POINTER(ctypes.c_char_p),
                                  "%s: %s" % (name, p))
                elif compact.startswith("constchar*"):
                    self.assertIs(t, ctypes.c_char_p, "%s: %s" % (name, p))
                elif compact == "double" or re.fullmatch(r"double\w+", compact):
                    self.assertIs(t, ctypes.c_double, "%s: %s" % (name, p))

    @unittest.skipUnless(os.path.exists(MAP), "no source tree")
    def test_covers_symbol_map(self):
        self.assertEqual(map_symbols() - set(cua._PROTOTYPES), set())
        self.assertEqual(cua.missing_symbols, [])

    @unittest.skipUnless(os.path.exists(HEADER), "no source tree")
    def test_constants_match_header(self):
        text = read_headers()
        values = {m.group(1): int(m.group(2), 0) for m in re.finditer(
            r"^\s*(CUA_\w+)\s*=\s*(-?\d+)", text, flags=re.M)}
        values.update({m.group(1): 1 << int(m.group(2)) for m in re.finditer(
            r"^\s*(CUA_\w+)\s*=\s*1u\s*<<\s*(\d+)", text, flags=re.M)})
        values.update({m.group(1): 1 << int(m.group(2)) for m in re.finditer(
            r"^#define\s+(CUA_\w+)\s+\(1u\s*<<\s*(\d+)\)", text,
            flags=re.M)})
        py = {}
        for cls, prefix in ((cua.Result, "CUA_"), (cua.ErrorCode, "CUA_E_"),
                            (cua.LogLevel, "CUA_LOG_"),
                            (cua.Stat, "CUA_STAT_"), (cua.Trait, "CUA_TRAIT_"),
                            (cua.Button, "CUA_BUTTON_"),
                            (cua.SelectionMode, "CUA_SELECTION_"),
                            (cua.SessionFlags, "CUA_SESSION_"),
                            (cua.FormatFlags, "CUA_FORMAT_"),
                            (cua.ObserveFlags, "CUA_OBSERVE_"),
                            (cua.ScreenshotFlags, "CUA_SCREENSHOT_"),
                            (cua.DesktopFlags, "CUA_DESKTOP_")):
            for m in cls:
                if m.name != "NONE":
                    py[prefix + m.name] = int(m)
        py["CUA_RENDER_DIFF"] = cua.RenderFlags.DIFF
        py["CUA_DIFF_REMOVED_LINES"] = cua.RenderFlags.DIFF_REMOVED_LINES
        py["CUA_DIFF_IGNORE_LINE_BUDGET"] = \
            cua.RenderFlags.DIFF_IGNORE_LINE_BUDGET
        for name, v in py.items():
            self.assertIn(name, values, "binding constant not in header")
            self.assertEqual(values[name], v, name)
        # every enum constant and flag of the header is in the binding
        self.assertEqual(set(values) - set(py), set())


class TestBasics(Base):
    def test_version(self):
        v = cua.version_string()
        self.assertRegex(v, r"^\d+\.\d+\.\d+$")
        major, minor, micro = map(int, v.split("."))
        self.assertEqual(cua.version(), (major << 16) | (minor << 8) | micro)

    def test_result_names(self):
        self.assertEqual(cua.result_to_string(cua.Result.OK), "success")
        self.assertEqual(cua.result_to_string(-999), "unknown error")
        for r in cua.Result:
            self.assertTrue(cua.result_to_string(r))

    def test_accessibility_note(self):
        note = cua.accessibility_note("Chromium", "Chromium")
        self.assertTrue(note.startswith(
            "Accessibility unavailable: 'Chromium' exposes no accessibility"))
        self.assertTrue(note.endswith("(--force-renderer-accessibility)."))
        self.assertIn("AtkWrapper", cua.accessibility_note(None, exe="java"))

    def test_sanitize_text(self):
        self.assertEqual(cua.sanitize_text("a\nb"), "a\\nb")
        self.assertEqual(cua.sanitize_text("  x  "), "x")
        self.assertEqual(cua.sanitize_text("héllo wörld", 5), "héllo...")
        self.assertEqual(cua.sanitize_text(b"ok"), "ok")
        # invalid UTF-8 becomes U+FFFD
        self.assertEqual(cua.sanitize_text(b"a\xffb"), "a\ufffdb")
        with self.assertRaises(TypeError):
            cua.sanitize_text(42)
        with self.assertRaises(cua.CuaError) as cm:
            cua.sanitize_text(None)
        self.assertEqual(cm.exception.result,
                         cua.Result.ERROR_INVALID_ARGUMENT)


class TestErrors(Base):
    def test_missing_recording(self):
        with self.assertRaises(cua.CuaError) as cm:
            cua.Session.recorded("/nonexistent/x.json")
        e = cm.exception
        self.assertEqual(e.result, cua.Result.ERROR_IO)
        self.assertIsInstance(e.result, cua.Result)
        self.assertEqual(e.code, cua.ErrorCode.IO)
        self.assertIsInstance(e.code, cua.ErrorCode)
        self.assertEqual(cua.error_code(), cua.ErrorCode.IO)
        self.assertIn("/nonexistent/x.json", e.message)
        self.assertEqual(e.name, cua.result_to_string(cua.Result.ERROR_IO))
        self.assertEqual(e.function, "cua_session_new_recorded")
        self.assertEqual(str(e), e.message)

    def test_observe_errors(self):
        with cua.Session.recorded(GEDIT) as s:
            with self.assertRaises(cua.CuaError) as cm:
                s.observe("")
            self.assertEqual(cm.exception.result,
                             cua.Result.ERROR_INVALID_ARGUMENT)
            self.assertEqual(cm.exception.message,
                             "Missing required argument: app")
            self.assertEqual(cm.exception.code, cua.ErrorCode.INVALID_ARGS)
            with self.assertRaises(cua.CuaError) as cm:
                s.observe("no-such-app")
            self.assertEqual(cm.exception.result, cua.Result.ERROR_NOT_FOUND)
            self.assertEqual(cm.exception.code, cua.ErrorCode.APP_NOT_FOUND)
            self.assertTrue(cm.exception.message.startswith(
                'appNotFound("no-such-app")'))
            # the C API's own words, unless the session asks for others
            self.assertIn("Read the app list", cm.exception.message)
            s.set_option("vocabulary", "mcp")
            with self.assertRaises(cua.CuaError) as cm:
                s.observe("no-such-app")
            self.assertIn("Call list_apps", cm.exception.message)
            self.assertEqual(cm.exception.code, cua.ErrorCode.APP_NOT_FOUND)
            # an action on an app this session never observed
            with self.assertRaises(cua.CuaError) as cm:
                s.click("gedit", 1)
            self.assertEqual(cm.exception.result, cua.Result.ERROR_NO_SESSION)
            self.assertEqual(cm.exception.code, cua.ErrorCode.NOT_ACTIVE)
            # a call that succeeds clears the code
            s.observe("gedit").close()
            self.assertEqual(cua.error_code(), cua.ErrorCode.OK)
            # a failed call leaves nothing to release
            self.assertEqual(cua.live_handles(), {"Session": 1})

    def test_options(self):
        with cua.Session.recorded(GEDIT) as s:
            s.set_option("max_elements", 12)
            s.set_option("locator_strict_siblings", True)
            for key, value in (("max_elements", 0), ("max_elements", "12x"),
                               ("no_such_option", 1)):
                with self.assertRaises(cua.CuaError) as cm:
                    s.set_option(key, value)
                self.assertEqual(cm.exception.result,
                                 cua.Result.ERROR_INVALID_ARGUMENT)
            self.assertIn("no_such_option", cm.exception.message)

    def test_display_info(self):
        with cua.Session.recorded(GEDIT) as s:
            info = s.display_info()
            self.assertEqual(info["driver"], "none")
            self.assertEqual(info["chosen_by"], "backend")
            self.assertFalse(info["capabilities"]["screenshot"]["available"])
            self.assertTrue(info["capabilities"]["screenshot"]["reason"])

    def test_bad_state(self):
        with cua.Session.recorded(GEDIT) as s:
            with self.assertRaises(cua.CuaError) as cm:
                s.load_state("{not json")
            self.assertEqual(cm.exception.result,
                             cua.Result.ERROR_INVALID_ARGUMENT)

    def test_unknown_code(self):
        e = cua.CuaError(-1000, "x", code=1000)
        self.assertEqual(e.result, -1000)
        self.assertEqual(e.code, 1000)
        self.assertEqual(e.name, "unknown error")
        self.assertEqual(cua.CuaError(-1, "x").code, cua.ErrorCode.INTERNAL)

    def test_error_message_is_per_thread(self):
        with cua.Session.recorded(GEDIT) as s:
            with self.assertRaises(cua.CuaError):
                s.observe("no-such-app")
            mine = cua.error_message()
            other = []

            def worker():
                try:
                    s.set_option("no_such_option", "1")
                except cua.CuaError as e:
                    other.append(e.message)
                    other.append(cua.error_code())
            t = threading.Thread(target=worker)
            t.start()
            t.join()
            self.assertIn("no_such_option", other[0])
            self.assertEqual(other[1], cua.ErrorCode.INVALID_ARGS)
            self.assertEqual(cua.error_message(), mine)
            self.assertEqual(cua.error_code(), cua.ErrorCode.APP_NOT_FOUND)

    def test_closed_handles(self):
        s = cua.Session.recorded(GEDIT)
        t = s.observe("gedit")
        t.close()
        t.close()  # idempotent
        self.assertTrue(t.closed)
        with self.assertRaises(ctypes.ArgumentError):
            t.render()
        with self.assertRaises(ctypes.ArgumentError):
            len(t)
        self.assertEqual(str(t), "<closed cua.Tree>")
        s.close()
        with self.assertRaises(ctypes.ArgumentError):
            s.observe("gedit")

    def test_elements_come_from_trees(self):
        with self.assertRaises(TypeError):
            cua.Element()


class TestTrees(Base):
    def setUp(self):
        self.s = cua.Session.recorded(GEDIT)

    def tearDown(self):
        self.s.close()
        self.s = None
        super().tearDown()

    def test_getters(self):
        with self.s.observe("gedit") as t:
            self.assertEqual(t.app_id, "org.gnome.gedit")
            self.assertEqual(t.app_name, "Text Editor")
            self.assertEqual(t.window_title, "Untitled Document 1 - gedit")
            self.assertEqual(t.pid, 4242)
            self.assertEqual(t.revision, 0)
            self.assertFalse(t.truncated)
            self.assertIs(t.session, self.s)
            self.assertGreater(len(t), 10)
            self.assertEqual(t.stat(999), -1)
            self.assertGreaterEqual(t.stat(cua.Stat.RAW_NODES),
                                    t.stat(cua.Stat.ELEMENTS))
            text = t.render()
            self.assertTrue(text.startswith("App=org.gnome.gedit (pid 4242)\n"))
            self.assertEqual(str(t), text)
            j = t.json()
            self.assertEqual(j["state_text"], text)
            self.assertEqual(len(t.to_json()), len(t.to_json()))

            root = t[0]
            self.assertEqual(root.id, 0)
            self.assertEqual(root.role, "standard window")
            self.assertEqual(root.raw_role, "frame")
            self.assertIsNone(root.parent)
            self.assertEqual(root.actions, ["Raise"])
            self.assertEqual(root.frame, (0, 0, 1024, 700))
            self.assertEqual(t[-1], t[len(t) - 1])
            self.assertEqual(len(t[1:4]), 3)
            with self.assertRaises(IndexError):
                t[len(t)]

            e = t.element(2)
            self.assertEqual(e.title, "New")
            self.assertEqual(e.description, "Create a new document")
            self.assertEqual(e.parent, root)
            self.assertIn(e, root.children)
            self.assertEqual(e.depth, 1)
            self.assertEqual(e.frame[:2], (78, 6))
            self.assertEqual(e.locator, (0, (0, 1)))
            self.assertEqual(e.render(),
                             "2 button New, Description: Create a new document")
            self.assertEqual(repr(e), "<cua.Element 2 button 'New'>")
            self.assertIsNone(t.element(100000))
            self.assertIs(t.find(title="New", role="button").tree, t)
            self.assertEqual(t.find(title="New").id, 2)
            self.assertIsNone(t.find(title="no such title"))

            focus = t.focused
            self.assertEqual(focus.role, "text entry area")
            self.assertEqual(focus.traits,
                             cua.Trait.SETTABLE | cua.Trait.STRING)
            self.assertEqual(focus.value, "Hello, world.\\nSecond line.")
            self.assertEqual([x.id for x in t], [x.id for x in t[:]])

    def test_element_keeps_tree_alive(self):
        t = self.s.observe("gedit")
        e = t.element(2)
        child = t[0].children[0]
        t.close()
        del t
        gc.collect()
        # the C tree lives on through the elements' own references
        self.assertEqual(e.title, "New")
        self.assertEqual(e.render(),
                         "2 button New, Description: Create a new document")
        self.assertEqual(e.parent.id, 0)
        self.assertEqual(child.depth, 1)
        self.assertEqual(cua.live_handles()["Element"], 2)
        ref = e.ref()
        e.close()
        self.assertEqual(ref.title, "New")
        del e, ref, child

    def test_tree_refs(self):
        t = self.s.observe("gedit")
        t2 = t.ref()
        self.assertEqual(t, t2)
        t.close()
        self.assertEqual(t2.app_id, "org.gnome.gedit")
        del t, t2
        s2 = self.s.ref()
        self.s.close()
        with s2.observe("gedit") as t:
            self.assertEqual(t.pid, 4242)
        self.s = s2

    def test_many_owned_strings(self):
        # owned strings are freed at once: a leak here would be visible
        # under valgrind (see run-valgrind)
        with self.s.observe("gedit") as t:
            for _ in range(200):
                t.render()
                t.to_json()
                t.element(2).render()
                cua.sanitize_text("x" * 100, 10)

    def test_list_resolve_record(self):
        self.assertIn("org.gnome.gedit", self.s.list_apps())
        apps = self.s.list_apps_json()
        self.assertEqual(apps["schema"], "libcua.apps/1")
        r = self.s.resolve_app("gedit")
        self.assertEqual(r["pid"], 4242)
        rec = json.loads(self.s.record("gedit"))
        self.assertEqual(rec["schema"], "libcua.recording/1")
        with self.assertRaises(cua.CuaError) as cm:
            self.s.resolve_app("no-such-app")
        self.assertEqual(cm.exception.result, cua.Result.ERROR_NOT_FOUND)

    def test_state_carries_ids(self):
        with self.s.observe("gedit") as t:
            ids = [e.id for e in t]
        state = self.s.save_state()
        self.assertIsInstance(json.loads(state), dict)
        with cua.Session.recorded(GEDIT) as s2:
            s2.load_state(state)
            with s2.observe("gedit") as t:
                self.assertEqual([e.id for e in t], ids)
                self.assertEqual(t.revision, 1)
                # nothing changed: the content revision stays 0
                self.assertEqual(t.content_revision, 0)

    def test_wait_for_change_unsupported(self):
        with self.s.observe("gedit") as t:
            with self.assertRaises(cua.CuaError) as cm:
                self.s.wait_for_change(t, 10)
            self.assertEqual(cm.exception.result,
                             cua.Result.ERROR_UNSUPPORTED)

    def test_log_handler(self):
        seen = []
        self.s.set_log_handler(lambda level, msg: seen.append((level, msg)))
        self.s.set_log_level(cua.LogLevel.TRACE)
        with self.s.observe("gedit"):
            pass
        for level, msg in seen:
            self.assertIsInstance(msg, str)
        self.s.set_log_handler(None)
        self.s.set_log_level(cua.LogLevel.WARNING)


class TestDiffs(Base):
    def test_diff_objects(self):
        with cua.Session.recorded(GEDIT) as s:
            with s.observe("gedit") as first:
                with self.assertRaises(cua.CuaError) as cm:
                    first.baseline_diff()
                self.assertEqual(cm.exception.result,
                                 cua.Result.ERROR_NOT_FOUND)
            s.set_option("max_elements", 5)
            small = s.observe("gedit")
            self.assertTrue(small.truncated)
            s.set_option("max_elements", 1500)
            full = s.observe("gedit")
            with full.diff(small) as d:
                self.assertTrue(d)
                self.assertFalse(d.empty)
                self.assertEqual(d.removed, ())
                self.assertGreater(len(d.added), 5)
                self.assertIsInstance(d.changed, tuple)
                with d.tree as newer:
                    self.assertEqual(newer, full)
                self.assertIn("App=org.gnome.gedit", d.render())
                self.assertEqual(str(d), d.render())
                d2 = d.ref()
            d.close()
            self.assertEqual(len(d2.added), len(full.diff(small).added))
            d2.close()
            with small.diff(full) as back:
                self.assertLessEqual(set(d2_added(full, small)),
                                     set(back.removed))
            with full.diff(full) as same:
                self.assertFalse(same)
                self.assertIn("There has been no change", same.render())
            with full.baseline_diff() as b:
                self.assertEqual(b.tree, full)
            # the baseline (small) is truncated: the full tree is rendered
            self.assertEqual(full.render(cua.RenderFlags.DIFF), full.render())
            with s.observe("gedit") as again:
                self.assertIn("There has been no change",
                              again.render(cua.RenderFlags.DIFF))
                with again.baseline_diff() as b:
                    self.assertFalse(b)
            small.close()
            full.close()

    def test_diff_argument_errors(self):
        with cua.Session.recorded(GEDIT) as s, s.observe("gedit") as t:
            with self.assertRaises(TypeError):
                t.diff(None)
            with self.assertRaises(TypeError):
                t.diff(12345)  # never passed on as a pointer
            with self.assertRaises(TypeError):
                s.wait_for_change(t.element(2))


def d2_added(new, old):
    with new.diff(old) as d:
        return d.added


class TestScreenshotsAndActions(Base):
    """On a recorded tree there is no screenshot and no way to act: the
    error paths, with nothing left to free."""

    def test_no_screenshot(self):
        with cua.Session.recorded(GEDIT) as s, s.observe("gedit") as t:
            self.assertTrue(t.screenshot_error)
            for call in (lambda: t.screenshot, t.render_screenshot,
                         t.render_marks, lambda: t.render_screenshot(png=True),
                         lambda: t.screenshot_to_screen(1, 1)):
                with self.assertRaises(cua.CuaError) as cm:
                    call()
                self.assertEqual(cm.exception.result,
                                 cua.Result.ERROR_NOT_FOUND)
                self.assertIn("Screenshot unavailable", cm.exception.message)

    def test_actions_fail_cleanly(self):
        with cua.Session.recorded(GEDIT) as s, s.observe("gedit") as t:
            e = t.element(2)
            calls = [
                lambda: s.click("gedit", e),
                lambda: s.click(t, 2, cua.Button.RIGHT, 2),
                lambda: s.click_at("gedit", 10, 10),
                lambda: s.set_value("gedit", 7, "x"),
                # not type_text: on a recorded session it currently
                # crashes inside libcua (ladder.c focused_element calls the
                # recorded backend's NULL read_nodes); reported.
                lambda: s.press_key("gedit", "ctrl+a"),
                lambda: s.scroll("gedit", 6, "down", 0.5),
                lambda: s.drag("gedit", (1, 1), (5, 5)),
                lambda: s.perform_action("gedit", 6, "Scroll Down"),
                lambda: s.select_text("gedit", 7, "world", prefix="Hello, "),
            ]
            for call in calls:
                with self.assertRaises(cua.CuaError) as cm:
                    call()
                self.assertLess(cm.exception.result, 0)
                self.assertTrue(cm.exception.message)
            with self.assertRaises(cua.CuaError) as cm:
                s.click("", 2)
            self.assertEqual(cm.exception.result,
                             cua.Result.ERROR_INVALID_ARGUMENT)
            self.assertEqual(cm.exception.message,
                             "Missing required argument: app")
            with self.assertRaises(cua.CuaError) as cm:
                s.type_text("gedit", "")  # checked before the backend
            self.assertEqual(cm.exception.message,
                             "Missing required argument: text")
            del e


class TestDesktopHandles(Base):
    """Headless desktop handles without starting one: options and
    misuse give a CuaError with a sentence."""

    def test_options(self):
        d = cua.Desktop(screen="800x600x24", window_manager="none",
                        kind="x11", state_dir="/tmp/cua-unused-dir")
        for key, value, words in (
                ("kind", "wayland", "unknown kind of desktop 'wayland'"),
                ("screen", "800x600", "expected WxHxD"),
                ("window_manager", "twm", "openbox or none"),
                ("colour", "blue", "unknown desktop option 'colour'")):
            with self.assertRaises(cua.CuaError) as cm:
                d.set_option(key, value)
            self.assertEqual(cm.exception.result,
                             cua.Result.ERROR_INVALID_ARGUMENT)
            self.assertIn(words, cm.exception.message)
        with self.assertRaises(cua.CuaError):
            cua.Desktop(screen="huge")
        # nothing runs yet
        self.assertEqual(d.pid, 0)
        self.assertIsNone(d.state_dir)
        env = d.environ
        self.assertEqual(len(env), 17)
        self.assertIn("DISPLAY", env)
        self.assertIn("NO_AT_BRIDGE", env)
        self.assertEqual(set(env.values()), {None})
        with self.assertRaises(cua.CuaError) as cm:
            d.stop()
        self.assertEqual(cm.exception.result,
                         cua.Result.ERROR_INVALID_ARGUMENT)
        with self.assertRaises(cua.CuaError):
            d.env_to_shell()
        with self.assertRaises(ValueError):
            d.run([])
        d.close()
        self.assertTrue(d.closed)

    def test_attach_errors(self):
        with self.assertRaises(cua.CuaError) as cm:
            cua.Desktop.attach("/nonexistent/desktop")
        self.assertEqual(cm.exception.result, cua.Result.ERROR_NOT_FOUND)
        self.assertEqual(cm.exception.message, "no desktop in "
                         "/nonexistent/desktop: No such file or directory")

    def test_run_missing_command(self):
        d = cua.Desktop()
        with self.assertRaises(cua.CuaError) as cm:
            d.run(["no-such-command-here", "x"])
        self.assertEqual(cm.exception.result, cua.Result.ERROR_NOT_FOUND)
        self.assertEqual(cm.exception.exit_status, 127)
        self.assertEqual(cm.exception.message,
                         "no-such-command-here: command not found")
        d.close()


@unittest.skipUnless(os.environ.get("CUA_TEST_DESKTOP") == "1",
                     "set CUA_TEST_DESKTOP=1 inside `cua desktop run`")
class TestHeadlessDesktop(Base):
    """Desktops started from Python (inside the test desktop; each one is
    a desktop of its own)."""

    def client(self, desktop, code):
        """Runs Python code in the desktop's environment."""
        env = desktop.env()
        env["PYTHONPATH"] = HERE
        return subprocess.run([sys.executable, "-c", code], env=env,
                              capture_output=True, text=True, timeout=120)

    def test_context_manager(self):
        with cua.Desktop(screen="800x600x24") as d:
            self.assertGreater(d.pid, 1)
            state_dir = d.state_dir
            self.assertTrue(os.path.isdir(state_dir))
            env = d.environ
            self.assertTrue(env["DISPLAY"].startswith(":"))
            self.assertEqual(env["CUA_DESKTOP_DIR"], state_dir)
            self.assertIsNone(env["NO_AT_BRIDGE"])
            child = d.env({"PATH": "/usr/bin:/bin", "NO_AT_BRIDGE": "1"})
            self.assertNotIn("NO_AT_BRIDGE", child)
            self.assertEqual(child["PATH"], "/usr/bin:/bin")
            self.assertIn("export DISPLAY='%s'\n" % env["DISPLAY"],
                          d.env_to_shell())
            # a libcua session in a process of the desktop works there
            r = self.client(d, "import cua\n"
                            "with cua.Session() as s:\n"
                            "    print(s.list_apps())\n")
            self.assertEqual(r.returncode, 0, r.stderr)
        # closing it stopped it
        self.assertFalse(os.path.exists(state_dir))

    def test_sway(self):
        # a headless Wayland desktop: its apps and sessions are Wayland
        # clients (X11 apps run under its Xwayland, whose DISPLAY it
        # exports when Xwayland is installed), and closing it leaves
        # nothing
        with cua.Desktop(kind="sway", screen="800x600x24") as d:
            state_dir = d.state_dir
            env = d.environ
            if shutil.which("Xwayland"):
                self.assertRegex(env["DISPLAY"] or "", r"^:[0-9]+$")
            else:
                self.assertIsNone(env["DISPLAY"])
            self.assertTrue(env["WAYLAND_DISPLAY"])
            self.assertTrue(env["SWAYSOCK"])
            self.assertEqual(env["XDG_SESSION_TYPE"], "wayland")
            r = self.client(d, "import cua\n"
                            "with cua.Session() as s:\n"
                            "    print(s.display_info()['driver'])\n")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stdout.strip(), "wlroots")
        self.assertFalse(os.path.exists(state_dir))

    def test_run(self):
        code = ("import os, sys\n"
                "sys.exit(5 if os.environ['DISPLAY'].startswith(':') and "
                "os.path.isdir(os.environ['CUA_DESKTOP_DIR']) else 1)\n")
        d = cua.Desktop(window_manager="none")
        self.assertEqual(d.run([sys.executable, "-c", code]), 5)
        self.assertEqual(d.pid, 0)
        self.assertIsNone(d.state_dir)
        self.assertEqual(d.run(["sh", "-c", "kill -TERM $$"]), 128 + 15)
        d.close()

    def test_detached_attach_stop(self):
        d = cua.Desktop(detached=True, window_manager="none").start()
        state_dir, display = d.state_dir, d.environ["DISPLAY"]
        d.close()
        self.assertTrue(os.path.isdir(state_dir), "detached: still running")
        with cua.Desktop.attach(state_dir) as a:
            self.assertEqual(a.environ["DISPLAY"], display)
            self.assertGreater(a.pid, 1)
            a.stop()
            self.assertEqual(a.pid, 0)
        self.assertFalse(os.path.exists(state_dir))

    def test_warnings_reach_the_handler(self):
        # a PATH with the daemons but without openbox: the desktop starts
        # without a window manager and says so
        bindir = tempfile.mkdtemp(prefix="cua-test-path-")
        for prog in ("Xvfb", "dbus-daemon"):
            os.symlink(shutil.which(prog), os.path.join(bindir, prog))
        warnings = []
        old_path = os.environ["PATH"]
        os.environ["PATH"] = bindir
        try:
            d = cua.Desktop()
            d.set_log_handler(lambda level, msg: warnings.append((level,
                                                                  msg)))
            d.start()
        finally:
            os.environ["PATH"] = old_path
            shutil.rmtree(bindir)
        try:
            self.assertEqual(warnings, [(
                cua.LogLevel.WARNING,
                "openbox is not installed (apt-get install openbox); "
                "continuing without a window manager")])
        finally:
            d.close()


@unittest.skipUnless(os.environ.get("CUA_TEST_DESKTOP") == "1",
                     "set CUA_TEST_DESKTOP=1 inside `cua desktop run`")
class TestDesktop(Base):
    """A real app in a (headless) desktop: screenshots and actions."""
    app = os.environ.get("CUA_TEST_APP", "gtk3-widget-factory")

    @classmethod
    def setUpClass(cls):
        cls.s = cua.Session()
        if os.environ.get("CUA_RUNNING_VALGRIND"):
            # libcua runs many times slower under valgrind: give its
            # deadlines room so that nothing is cut short
            for key, value in (("walk_deadline_ms", 120000),
                               ("atspi_call_timeout_ms", 60000),
                               ("launch_timeout_ms", 120000),
                               ("capture_timeout_ms", 30000),
                               ("capture_fallback_timeout_ms", 30000),
                               ("focus_timeout_ms", 10000)):
                cls.s.set_option(key, value)
        deadline = time.monotonic() + 120
        while True:
            try:
                with cls.s.observe(cls.app) as t:
                    if t.find(title="checkbutton") is not None:
                        break
            except cua.CuaError:
                if time.monotonic() > deadline:
                    raise
            time.sleep(0.5)

    @classmethod
    def tearDownClass(cls):
        cls.s.close()
        cls.s = None
        gc.collect()

    def observe_until(self, pred, timeout=10):
        deadline = time.monotonic() + timeout
        while True:
            t = self.s.observe(self.app)
            if pred(t) or time.monotonic() > deadline:
                return t
            t.close()
            time.sleep(0.25)

    def tearDown(self):
        gc.collect()
        # only the class's session stays
        self.assertEqual(cua.live_handles(), {"Session": 1})

    def test_screenshot(self):
        with self.s.observe(self.app) as t:
            self.assertIsNone(t.screenshot_error)
            shot = t.screenshot
            self.assertEqual(shot.mime_type, "image/jpeg")
            self.assertTrue(shot.data.startswith(b"\xff\xd8"))
            self.assertGreater(shot.width, 100)
            self.assertGreater(shot.pixels_per_point, 0)
            self.assertIn("x%d" % shot.height, repr(shot))
            png = t.render_screenshot(png=True)
            self.assertTrue(png.startswith(b"\x89PNG"))
            marks = t.render_marks()
            self.assertTrue(marks.startswith(b"\xff\xd8"))
            self.assertNotEqual(marks, shot.data)
            self.assertTrue(t.render_screenshot(marks=True).startswith(
                b"\xff\xd8"))
            sx, sy = t.screenshot_to_screen(1, 1)
            self.assertIsInstance(sx, int)
            with self.assertRaises(cua.CuaError) as cm:
                t.screenshot_to_screen(shot.width + 10, 1)
            self.assertEqual(cm.exception.result,
                             cua.Result.ERROR_INVALID_ARGUMENT)

    def test_click_and_diff(self):
        def enabled_check(t):
            return t.find(title="checkbutton", role="checkbox",
                          predicate=lambda e: not e.traits
                          & cua.Trait.DISABLED)
        before = self.s.observe(self.app)
        target = enabled_check(before)
        old = target.value
        outcome = self.s.click(before, target)
        self.assertEqual(outcome["tool"], "click")
        self.assertIn("route", outcome)
        after = self.observe_until(
            lambda t: t.element(target.id).value != old)
        self.assertNotEqual(after.element(target.id).value, old)
        with after.diff(before) as d:
            self.assertIn(target.id, d.changed)
        with after.baseline_diff() as d:
            self.assertIn(target.id, d.changed)
        self.assertIn("~\t%d " % target.id,
                      after.render(cua.RenderFlags.DIFF))
        # click it back
        self.s.click(after, target.id)
        before.close()
        after.close()
        del target

    def test_text_actions(self):
        with self.s.observe(self.app) as t:
            field = t.find(role="text field", predicate=lambda e: e.value ==
                           "entry" and not e.traits & cua.Trait.DISABLED)
            self.assertIsNotNone(field)
            out = self.s.set_value(self.app, field, "typed by python")
            self.assertEqual(out["tool"], "set_value")
            fid = field.id
            del field
        t = self.observe_until(
            lambda t: t.element(fid).value == "typed by python")
        self.assertEqual(t.element(fid).value, "typed by python")
        out = self.s.select_text(self.app, fid, "python",
                                 mode=cua.SelectionMode.CURSOR_AFTER)
        self.assertIsInstance(out, dict)
        self.s.type_text(self.app, " ok")
        self.s.press_key(self.app, "End")
        t.close()
        t = self.observe_until(
            lambda t: t.element(fid).value == "typed by python ok")
        self.assertEqual(t.element(fid).value, "typed by python ok")
        t.close()

    def test_action_errors(self):
        with self.s.observe(self.app) as t:
            with self.assertRaises(cua.CuaError) as cm:
                self.s.click(self.app, 999999)
            self.assertEqual(cm.exception.result, cua.Result.ERROR_NOT_FOUND)
            with self.assertRaises(cua.CuaError) as cm:
                self.s.press_key(self.app, "NoSuchKeyName")
            self.assertIn("keyNotFound", cm.exception.message)
            with self.assertRaises(cua.CuaError) as cm:
                self.s.perform_action(self.app, 0, "No Such Action")
            self.assertLess(cm.exception.result, 0)
            self.assertIsNotNone(t)


def load_tests(loader, tests, pattern):
    """CUA_TEST_SCOPE=recorded: the desktop tests are not part of this run
    (another run has them), rather than skipped in it."""
    if os.environ.get("CUA_TEST_SCOPE") != "recorded":
        return tests
    kept = unittest.TestSuite()

    def keep(t):
        if isinstance(t, unittest.TestSuite):
            for sub in t:
                keep(sub)
        elif not isinstance(t, (TestDesktop, TestHeadlessDesktop)):
            kept.addTest(t)
    keep(tests)
    return kept


if __name__ == "__main__":
    unittest.main()
