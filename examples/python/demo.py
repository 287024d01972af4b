#!/usr/bin/env python3
"""libcua from Python: observe a real app, click an element by its name,
see what changed, and save the screenshot.

Run it on a desktop (or inside a headless one):

    cua desktop run -- python3 demo.py --app gtk3-widget-factory \\
        --click checkbutton --screenshot shot.jpg

The app is launched from its desktop entry when it is installed but not
running, as the MCP server's get_app_state does.

SPDX-License-Identifier: MIT
"""

import argparse
import sys
import time

import cua


def observe_until(session, app, ready, timeout):
    """Observes `app` until `ready(tree)` holds: a freshly launched app
    takes a moment to register on the accessibility bus and to fill its
    window. Returns the tree, or raises the last error."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            tree = session.observe(app)
            if ready(tree):
                return tree
            tree.close()
            last = None
        except cua.CuaError as e:
            # NOT_FOUND / NO_WINDOW while the app starts up
            if e.result not in (cua.Result.ERROR_NOT_FOUND,
                                cua.Result.ERROR_NO_WINDOW,
                                cua.Result.ERROR_TIMEOUT):
                raise
            last = e
        if time.monotonic() > deadline:
            if last:
                raise last
            raise TimeoutError("%s never became ready" % app)
        time.sleep(0.5)


def clickable(title, role):
    def pred(e):
        return (e.title == title and (role is None or e.role == role)
                and not e.traits & cua.Trait.DISABLED)
    return pred


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--app", default="gtk3-widget-factory",
                    help="app name, id, desktop id, executable or pid:N")
    ap.add_argument("--click", metavar="TITLE", default="checkbutton",
                    help="click the first enabled element with this title")
    ap.add_argument("--role", help="... and this role text (e.g. checkbox)")
    ap.add_argument("--screenshot", metavar="FILE",
                    help="save the observation's screenshot (JPEG)")
    ap.add_argument("--marks", metavar="FILE",
                    help="save the screenshot with element boxes and ids")
    ap.add_argument("--timeout", type=float, default=30,
                    help="seconds to wait for the app and for the effect")
    ap.add_argument("--expect-change", action="store_true",
                    help="exit 3 unless the click changed the tree")
    args = ap.parse_args()

    print("libcua %s (%s)" % (cua.version_string(), cua.library_path))
    pred = clickable(args.click, args.role)
    with cua.Session() as session:
        tree = observe_until(session, args.app,
                             lambda t: t.find(predicate=pred) is not None,
                             args.timeout)
        print("--- state of %s (pid %d), %d elements" %
              (tree.app_id, tree.pid, len(tree)))
        print(tree.render())

        if args.screenshot or args.marks:
            try:
                shot = tree.screenshot
            except cua.CuaError as e:
                print("no screenshot: %s" % e.message, file=sys.stderr)
                return 1
            print("--- screenshot: %dx%d %s, %d bytes, %.3f px/pt" %
                  (shot.width, shot.height, shot.mime_type, len(shot.data),
                   shot.pixels_per_point))
            if args.screenshot:
                shot.save(args.screenshot)
                print("saved %s" % args.screenshot)
            if args.marks:
                with open(args.marks, "wb") as f:
                    f.write(tree.render_marks())
                print("saved %s" % args.marks)

        target = tree.find(predicate=pred)
        print("--- click %s" % target.render())
        outcome = session.click(tree.app_id, target)
        print("outcome: route %s" % outcome.get("route"))

        # libcua returns without waiting for a redraw: observe again until
        # the app shows the effect (or the time runs out).
        deadline = time.monotonic() + args.timeout
        while True:
            after = session.observe(tree.app_id)
            with after.diff(tree) as d:
                if d or time.monotonic() > deadline:
                    break
            after.close()
            time.sleep(0.25)
        with after.diff(tree) as d:
            print("--- changed %s, added %s, removed %s" %
                  (list(d.changed), list(d.added), list(d.removed)))
            print(d.render())
            changed = bool(d)
        clicked = after.element(target.id)
        if clicked is not None:
            print("now: %s" % clicked.render())
        after.close()
        tree.close()
    if args.expect_change and not changed:
        print("the click changed nothing", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except cua.CuaError as e:
        print("%s: %s" % (e.name, e.message), file=sys.stderr)
        sys.exit(1)
