#!/usr/bin/env python3
"""ABI guard, layer 2: header hygiene.

The public headers are copied into an installed layout (<tmp>/cua/cua.h,
cua-errors.h, cua-version.h) and a program that only includes <cua/cua.h>
is compiled:

- as C99 with -pedantic -Wall -Wextra -Werror (and a few more warnings
  that a consumer's build may turn on);
- as C++11 with the same warnings (without a C++ compiler this part does
  not run, and the check exits 77: skipped);

and each program is linked against the built libcua, which shows that the
declarations have C linkage (extern "C") for C++ callers.

Usage: check-header.py --cc "CC..." [--cxx CXX] --lib LIBCUA_SO
                       --source header-c99.c --cxx-source header-cxx.cc
                       HEADER...

SPDX-License-Identifier: MIT
"""

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

WARN = ["-pedantic", "-Wall", "-Wextra", "-Werror", "-Wshadow", "-Wundef",
        "-Wcast-qual", "-Wredundant-decls"]
C_ONLY = ["-Wstrict-prototypes", "-Wmissing-prototypes",
          "-Wold-style-definition"]


def build(cmd, label):
    print("$ " + " ".join(shlex.quote(c) for c in cmd))
    p = subprocess.run(cmd, capture_output=True, text=True)
    sys.stdout.write(p.stdout + p.stderr)
    if p.returncode:
        print("FAIL: %s" % label)
    return p.returncode == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc", required=True)
    ap.add_argument("--cxx")
    ap.add_argument("--lib", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--cxx-source", required=True)
    ap.add_argument("headers", nargs="+")
    args = ap.parse_args()

    ok = True
    tmp = tempfile.mkdtemp(prefix="cua-header-")
    try:
        os.mkdir(os.path.join(tmp, "cua"))
        for h in args.headers:
            shutil.copy(h, os.path.join(tmp, "cua", os.path.basename(h)))
        inc = ["-I" + tmp]
        link = [args.lib, "-Wl,-rpath," + os.path.dirname(os.path.abspath(args.lib))]
        ok &= build(shlex.split(args.cc) + ["-std=c99"] + WARN + C_ONLY
                    + inc + [args.source, "-o", os.path.join(tmp, "c99")]
                    + link, "the header as C99")
        if ok:
            ok &= build([os.path.join(tmp, "c99")], "running the C99 program")
        cxx = args.cxx
        if cxx:
            ok &= build(shlex.split(cxx) + ["-std=c++11"] + WARN + inc
                        + [args.cxx_source, "-o", os.path.join(tmp, "cxx")]
                        + link, "the header as C++11")
            if ok:
                ok &= build([os.path.join(tmp, "cxx")],
                            "running the C++ program")
        else:
            print("no C++ compiler: the C++ check is skipped")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if ok and not cxx:
        return 77  # a part did not run: a skip, not a pass
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
