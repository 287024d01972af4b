#!/bin/sh
# The C consumer built the way a user builds it: `meson install --destdir`
# into a scratch tree, then the example's Makefile, which asks
# `pkg-config --cflags --libs cua` of that tree (PKG_CONFIG_PATH and
# PKG_CONFIG_SYSROOT_DIR), then the program run against the installed
# library in a headless desktop started by the installed `cua`. Also
# imports the installed Python module against the installed library.
#
# Usage: test-installed.sh BUILDDIR PREFIX LIBDIR BINDIR DATADIR [APP TITLE]
# (the meson options as given: LIBDIR, BINDIR, DATADIR relative to PREFIX
# or absolute). Exit 77 (skip) when make or a C compiler is missing.
#
# SPDX-License-Identifier: MIT
set -eu

builddir=$1 prefix=$2 libdir=$3 bindir=$4 datadir=$5
app=${6:-gtk3-widget-factory}
title=${7:-checkbutton}
srcdir=$(cd "$(dirname "$0")" && pwd)

abs() { case $1 in /*) echo "$1" ;; *) echo "$prefix/$1" ;; esac; }
libdir=$(abs "$libdir") bindir=$(abs "$bindir") datadir=$(abs "$datadir")

command -v make >/dev/null || { echo "make not found: skipped"; exit 77; }
command -v "${CC:-cc}" >/dev/null || { echo "no C compiler: skipped"; exit 77; }

tmp=$(mktemp -d /tmp/cua-installed-XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
dest=$tmp/dest

echo "# meson install --destdir $dest"
meson install -C "$builddir" --destdir "$dest" --no-rebuild --quiet

for f in "$libdir/libcua.so" "$libdir/libcua.so.0" \
	"$libdir/pkgconfig/cua.pc" "$prefix/include/cua/cua.h" \
	"$prefix/include/cua/cua-version.h" "$prefix/include/cua/cua-errors.h" \
	"$prefix/include/cua/cua-session.h" "$prefix/include/cua/cua-tree.h" \
	"$prefix/include/cua/cua-actions.h" "$prefix/include/cua/cua-desktop.h" \
	"$bindir/cua" "$bindir/cua-mcp" \
	"$datadir/libcua/python/cua/__init__.py" \
	"$datadir/libcua/python/cua/_capi.py"; do
	[ -e "$dest$f" ] || { echo "not installed: $f"; exit 1; }
done

# The sysroot is prefixed to every -I/-L, so the -I of cua.pc's private
# requirements (GLib, AT-SPI, ...; pkgconf lists them for --cflags) point
# into the staged tree where they do not exist: harmless, since
# <cua/cua.h> includes only <stddef.h> and <stdint.h>; the build would
# fail if the public header ever needed one of them.
PKG_CONFIG_PATH=$dest$libdir/pkgconfig
PKG_CONFIG_SYSROOT_DIR=$dest
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
echo "# pkg-config --cflags --libs cua: $(pkg-config --cflags --libs cua)"
pkg-config --libs cua | grep -q -- "-L$dest$libdir" ||
	{ echo "pkg-config did not point into the staged tree"; exit 1; }

mkdir "$tmp/build"
make -C "$tmp/build" -f "$srcdir/Makefile" CFLAGS="-O2 -g -Werror"

LD_LIBRARY_PATH=$dest$libdir
export LD_LIBRARY_PATH
# the program must load the staged library, not another copy
resolved=$(ldd "$tmp/build/observe" | awk '$1 == "libcua.so.0" { print $3 }')
echo "# libcua.so.0 => $resolved"
[ "$resolved" = "$dest$libdir/libcua.so.0" ] ||
	{ echo "observe does not load the staged libcua"; exit 1; }

# the installed Python module finds the installed library by itself
PYTHONPATH=$dest$datadir/libcua/python python3 -c '
import sys, cua
maps = open("/proc/self/maps").read()
lib = [l.split()[-1] for l in maps.splitlines() if "/libcua.so" in l][0]
print("# python: %s loads %s (libcua %s)" % (cua.__file__, lib,
                                             cua.version_string()))
assert cua.__file__.startswith(sys.argv[1]), cua.__file__
assert lib.startswith(sys.argv[1]), lib
' "$dest"

cd "$tmp"
"$dest$bindir/cua" desktop run -- "$tmp/build/observe" "$app" "$title" \
	"$tmp/shot.jpg"
# a JPEG: starts with FF D8 FF
[ "$(od -An -tx1 -N3 "$tmp/shot.jpg" | tr -d ' ')" = "ffd8ff" ] ||
	{ echo "the screenshot is not a JPEG"; exit 1; }
echo "# ok: built from the installed tree, clicked '$title' in $app"
