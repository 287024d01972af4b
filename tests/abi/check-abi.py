#!/usr/bin/env python3
"""ABI guard, layer 3: the built library against the committed baseline
abi/libcua.abi (written by abi/update-baseline in release commits).

1. `abidiff --fail-no-debug-info --no-added-syms --suppressions
   abi/libcua.abignore abi/libcua.abi libcua.so.0`: any non-zero exit
   fails (bit 1 error, 2 usage, 4 ABI change, 8 incompatible change such
   as a removed symbol). Added symbols are not reported.

   Not `--headers-dir2 include/cua` (docs/abi.md explains why):
   with it abidiff treats every type not defined in include/cua as
   private and filters out its changes, and that includes <stdint.h>:
   changing `uint32_t cua_tree_get_revision()` to return `uint64_t` was
   reported as "0 Changed (71 filtered out)" and exit 0. Without it the
   same change fails (exit 4), while a change inside an opaque handle's
   struct (struct cua_tree gaining a field) still passes: the baseline,
   dumped with --headers-dir and --drop-private-types, holds the handle
   structs as declarations only.
2. Added symbols must sit in a version node the baseline does not have:
   a symbol added to a released (frozen) node is what --no-added-syms
   would otherwise let slip through.

Exit 77 (skip) when abidiff is missing or the library has no DWARF (a
release build).

Usage: check-abi.py --baseline abi/libcua.abi --suppressions abi/libcua.abignore
                    [--nm nm] LIBCUA_SO

SPDX-License-Identifier: MIT
"""

import argparse
import re
import shutil
import subprocess
import sys

ABIDIFF_BITS = {1: "error", 2: "usage error", 4: "ABI change",
                8: "incompatible ABI change"}


def has_dwarf(lib):
    readelf = shutil.which("readelf")
    if not readelf:
        return True  # let abidiff's --fail-no-debug-info decide
    out = subprocess.run([readelf, "-S", "-W", lib], capture_output=True,
                         text=True).stdout
    return ".debug_info" in out


def exported(nm, lib):
    out = subprocess.run([nm, "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] != "A":
            base, _, ver = parts[2].partition("@")
            syms[base] = ver.lstrip("@")
    return syms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--suppressions", required=True)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("library")
    args = ap.parse_args()

    abidiff = shutil.which("abidiff")
    if not abidiff:
        print("abidiff not found (apt-get install abigail-tools): skipped")
        return 77
    if not has_dwarf(args.library):
        print("%s has no DWARF (release build?): skipped" % args.library)
        return 77

    status = 0
    cmd = [abidiff, "--fail-no-debug-info", "--no-added-syms", "--suppressions",
           args.suppressions, args.baseline, args.library]
    print("$ " + " ".join(cmd))
    p = subprocess.run(cmd, capture_output=True, text=True)
    sys.stdout.write(p.stdout)
    sys.stdout.write(p.stderr)
    if p.returncode:
        bits = [v for k, v in ABIDIFF_BITS.items() if p.returncode & k]
        print("FAIL: abidiff exit %d (%s)" % (p.returncode, ", ".join(bits)))
        status = 1

    with open(args.baseline, encoding="utf-8") as f:
        base = f.read()
    base_syms = {m.group(1): m.group(2) for m in re.finditer(
        r"<elf-symbol name='([^']+)'(?: version='([^']*)')?", base)}
    frozen = {v for v in base_syms.values() if v}
    now = exported(args.nm, args.library)
    for sym, ver in sorted(now.items()):
        if sym not in base_syms and ver in frozen:
            print("FAIL: %s was added to %s, a node the baseline already has "
                  "(a released node is frozen): put it in the next "
                  "release's node of lib/libcua.map" % (sym, ver))
            status = 1
    added = sorted(s for s in now if s not in base_syms)
    print("baseline nodes %s; %d symbol(s) added since: %s"
          % (", ".join(sorted(frozen)) or "-", len(added),
             ", ".join(added) or "none"))
    return status


if __name__ == "__main__":
    sys.exit(main())
