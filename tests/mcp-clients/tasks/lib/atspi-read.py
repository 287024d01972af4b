#!/usr/bin/python3
"""Reads an app's state straight from the accessibility bus with pyatspi, to
check a task's effect independently of cua-mcp.

    atspi-read.py wait APP SECONDS
        exits 0 once APP is registered and has a window with content,
        1 when SECONDS pass first
    atspi-read.py query APP [ROLE] [NAME-REGEX] [--depth N]
        prints a JSON list of the matching objects in every window of APP:
        role, name, states, text and its selections as [start, end]
        offsets (Text interface), value (Value interface: current, min, max),
        selected rows (Table interface) and the object's child path

APP is the application name on the bus (case-insensitive) or pid:N. ROLE
is a role name as pyatspi prints it ("push button", "table cell"); an
empty ROLE matches every role. Run with /usr/bin/python3 (pyatspi).
"""
import json
import re
import sys
import time

import pyatspi

MAX_CHILDREN = 400  # per object: large tables and documents are cut


def app_matches(app, spec):
    try:
        if spec.startswith("pid:"):
            return app.get_process_id() == int(spec[4:])
        return (app.name or "").lower() == spec.lower()
    except Exception:
        return False


def apps(spec):
    desk = pyatspi.Registry.getDesktop(0)
    found = []
    for i in range(desk.childCount):
        try:
            a = desk.getChildAtIndex(i)
        except Exception:
            continue
        if a is not None and app_matches(a, spec):
            found.append(a)
    return found


def states(o):
    try:
        return sorted(pyatspi.stateToString(s) for s in o.getState().getStates())
    except Exception:
        return []


def text_of(o):
    try:
        t = o.queryText()
        return t.getText(0, min(t.characterCount, 20000))
    except Exception:
        return None


def value_of(o):
    try:
        v = o.queryValue()
        return {"current": v.currentValue, "min": v.minimumValue,
                "max": v.maximumValue}
    except Exception:
        return None


def selections(o):
    try:
        t = o.queryText()
        return [list(t.getSelection(i)) for i in range(t.getNSelections())]
    except Exception:
        return None


def selected_rows(o):
    try:
        return list(o.queryTable().getSelectedRows())
    except Exception:
        return None


def describe(o, path):
    d = {"role": o.getRoleName(), "name": o.name or "", "states": states(o),
         "path": path}
    t = text_of(o)
    if t is not None:
        d["text"] = t
        sel = selections(o)
        if sel:
            d["selections"] = sel
    v = value_of(o)
    if v is not None:
        d["value"] = v
    rows = selected_rows(o)
    if rows is not None:
        d["selected_rows"] = rows
    return d


def walk(o, path, depth, maxdepth, visit):
    visit(o, path)
    if depth >= maxdepth:
        return
    try:
        n = min(o.childCount, MAX_CHILDREN)
    except Exception:
        return
    for i in range(n):
        try:
            c = o.getChildAtIndex(i)
        except Exception:
            continue
        if c is not None:
            walk(c, path + [i], depth + 1, maxdepth, visit)


def has_window(spec):
    for a in apps(spec):
        try:
            for i in range(a.childCount):
                w = a.getChildAtIndex(i)
                if w is not None and w.childCount > 0:
                    return True
        except Exception:
            continue
    return False


def main(argv):
    if len(argv) >= 3 and argv[0] == "wait":
        end = time.monotonic() + float(argv[2])
        while time.monotonic() < end:
            if has_window(argv[1]):
                return 0
            time.sleep(0.2)
        print(f"{argv[1]} did not register on the accessibility bus "
              f"within {argv[2]} s", file=sys.stderr)
        return 1
    if len(argv) >= 2 and argv[0] == "query":
        rest = argv[2:]
        maxdepth = 40
        if "--depth" in rest:
            i = rest.index("--depth")
            maxdepth = int(rest[i + 1])
            del rest[i:i + 2]
        role = rest[0] if rest else ""
        name_re = re.compile(rest[1]) if len(rest) > 1 else None
        out = []

        def visit(o, path):
            try:
                r = o.getRoleName()
                if role and r != role:
                    return
                if name_re and not name_re.search(o.name or ""):
                    return
                out.append(describe(o, path))
            except Exception:
                pass

        for a in apps(argv[1]):
            walk(a, [], 0, maxdepth, visit)
        print(json.dumps(out))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
