#!/usr/bin/env python3
"""ABI guard, layer 1: the exported symbols are one set, seen three ways.

- lib/libcua.map: the version script (one node per release);
- include/cua/*.h: the functions declared with CUA_EXPORT, in the
  two-line form `CUA_EXPORT <type>` / `<name>(...)`;
- `nm -D --defined-only` of the built libcua.so.

It also checks that each symbol carries its map node's version in nm
(`name@@LIBCUA_x.y`), that each declaration's doc comment says
`@since x.y` with the same x.y as its node, that the symbols of a node are
in alphabetical order and that each node inherits the previous one.

Usage: check-symbols.py --map lib/libcua.map --nm nm LIBCUA_SO HEADER...

SPDX-License-Identifier: MIT
"""

import argparse
import re
import subprocess
import sys

NODE_RE = re.compile(r"^\s*(LIBCUA_(\d+)\.(\d+))\s*\{(.*?)\}\s*([\w.]*)\s*;",
                     re.S | re.M)


def parse_map(path):
    """[(node, [symbols in file order], parent)]."""
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
    nodes = []
    for m in NODE_RE.finditer(text):
        body = m.group(4)
        glob = re.search(r"global:(.*?)(?:local:|$)", body, re.S)
        syms = re.findall(r"([A-Za-z_]\w*)\s*;", glob.group(1) if glob else "")
        nodes.append((m.group(1), syms, m.group(5) or None))
    return nodes


DECL_RE = re.compile(
    r"(/\*\*(?:(?!\*/).)*\*/)?\s*"            # the doc comment, if any
    r"CUA_EXPORT[ \t]+([^\n;(]*?)[ \t]*\n"    # CUA_EXPORT <type>
    r"[ \t]*(\w+)[ \t]*\(",                   # <name>(
    re.S)


def parse_headers(paths):
    """{name: since or None}, plus a list of problems."""
    decls, problems = {}, []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # CUA_EXPORT uses outside declarations: the macro's own definition
        total = len(re.findall(r"^CUA_EXPORT\b", text, re.M))
        found = 0
        for m in DECL_RE.finditer(text):
            found += 1
            doc, name = m.group(1), m.group(3)
            # the comment must end right before the declaration
            since = None
            if doc:
                s = re.search(r"@since\s+(\d+\.\d+)", doc)
                since = s.group(1) if s else None
            if name in decls:
                problems.append("%s: %s declared twice" % (path, name))
            decls[name] = since
        if found != total:
            problems.append("%s: %d CUA_EXPORT lines but %d declarations in "
                            "the two-line form `CUA_EXPORT <type>` / "
                            "`<name>(...)`" % (path, total, found))
    return decls, problems


def parse_nm(nm, lib):
    out = subprocess.run([nm, "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        kind, name = parts[1], parts[2]
        if kind == "A" and name.startswith("LIBCUA_"):
            continue  # the version nodes themselves
        base, _, ver = name.partition("@")
        syms[base] = ver.lstrip("@") or None
    return syms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--map", required=True)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("library")
    ap.add_argument("headers", nargs="+")
    args = ap.parse_args()

    problems = []
    nodes = parse_map(args.map)
    if not nodes:
        problems.append("%s: no LIBCUA_x.y node found" % args.map)
    in_map = {}
    prev = None
    for node, syms, parent in nodes:
        if parent != prev:
            problems.append("%s: node %s inherits %s, expected %s"
                            % (args.map, node, parent, prev))
        if syms != sorted(syms):
            problems.append("%s: node %s is not in alphabetical order"
                            % (args.map, node))
        for s in syms:
            if s in in_map:
                problems.append("%s: %s is in %s and %s"
                                % (args.map, s, in_map[s], node))
            in_map[s] = node
        prev = node

    decls, hp = parse_headers(args.headers)
    problems += hp
    exported = parse_nm(args.nm, args.library)

    m, h, e = set(in_map), set(decls), set(exported)
    for what, a, b in (("in the map but not declared CUA_EXPORT", m, h),
                       ("declared CUA_EXPORT but not in the map", h, m),
                       ("in the map but not exported by the library", m, e),
                       ("exported by the library but not in the map", e, m)):
        for s in sorted(a - b):
            problems.append("%s: %s" % (s, what))

    for s in sorted(m & e):
        if exported[s] != in_map[s]:
            problems.append("%s: exported as version %s, map node %s"
                            % (s, exported[s], in_map[s]))
    for s in sorted(m & h):
        want = in_map[s][len("LIBCUA_"):]
        if decls[s] is None:
            problems.append("%s: no @since in its doc comment (map node %s)"
                            % (s, in_map[s]))
        elif decls[s] != want:
            problems.append("%s: @since %s but map node %s"
                            % (s, decls[s], in_map[s]))

    print("map: %d symbols in %d node(s); headers: %d declarations; "
          "library: %d exported" % (len(m), len(nodes), len(h), len(e)))
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
