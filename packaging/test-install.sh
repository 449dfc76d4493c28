#!/usr/bin/env bash
# test-install.sh - the packaging test run by `make pkgtest` (part of `make test`): install into a temporary prefix,
# check the layout and the SONAME, build examples/cmake-consumer against the installed package with find_package and
# with pkg-config, run both, stage an install with DESTDIR, and uninstall. Prints one line per check; exits non-zero
# on the first failure.
#
#   packaging/test-install.sh            (MAKE, BUILD_DIR, CMAKE and CXX may be set in the environment)
set -euo pipefail

cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
BUILD_DIR=${BUILD_DIR:-build}
CMAKE=${CMAKE:-cmake}
CXX=${CXX:-c++}
VERSION=$(sed -n 's/^#define JSWORKER_VERSION_STRING "\(.*\)"/\1/p' include/jsworker.h)
MAJOR=${VERSION%%.*}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jsworker-pkgtest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
passed=0

ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*" >&2; echo "0 passed, 1 failed" >&2; exit 1; }
quiet() { # run a command, showing its output only if it fails
    local log=$tmp/last.log
    "$@" >"$log" 2>&1 || { cat "$log" >&2; fail "$*"; }
}

quiet "$MAKE" --no-print-directory install PREFIX="$prefix" BUILD_DIR="$BUILD_DIR"
ok "make install PREFIX=$prefix"

lib=$prefix/lib/libjsworker.so.$VERSION
[ -f "$lib" ] && [ ! -L "$lib" ] || fail "the library is installed as $lib"
[ "$(readlink "$prefix/lib/libjsworker.so.$MAJOR")" = "libjsworker.so.$VERSION" ] || fail "libjsworker.so.$MAJOR -> libjsworker.so.$VERSION"
[ "$(readlink "$prefix/lib/libjsworker.so")" = "libjsworker.so.$MAJOR" ] || fail "libjsworker.so -> libjsworker.so.$MAJOR"
ok "lib/libjsworker.so.$VERSION with the symlinks libjsworker.so.$MAJOR and libjsworker.so"
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libjsworker.so.$MAJOR" ] || fail "SONAME is libjsworker.so.$MAJOR (got '$soname')"
ok "SONAME $soname"
for f in include/jsworker.h include/jsworker.hpp lib/pkgconfig/jsworker.pc lib/cmake/jsworker/jsworkerConfig.cmake \
    lib/cmake/jsworker/jsworkerConfigVersion.cmake; do
    [ -f "$prefix/$f" ] || fail "$f is installed"
done
cmp -s include/jsworker.h "$prefix/include/jsworker.h" || fail "the installed jsworker.h is the tree's"
ok "headers, jsworker.pc and the CMake package are installed"
if [ -d cmd/jsworker ]; then
    [ -x "$prefix/bin/jsworker" ] || fail "bin/jsworker is installed (./cmd/jsworker exists)"
    out=$("$prefix/bin/jsworker" eval 'console.log(6 * 7)' 2>&1) || fail "bin/jsworker eval runs: $out"
    [ "$out" = "42" ] || fail "bin/jsworker eval 'console.log(6 * 7)' prints 42 (got: $out)"
    ok "bin/jsworker is installed and runs (eval prints 42)"
fi

# find_package(jsworker CONFIG) from a project that knows only the prefix.
quiet "$CMAKE" -S examples/cmake-consumer -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$prefix"
quiet "$CMAKE" --build "$tmp/cmake"
needed=$(readelf -d "$tmp/cmake/consumer" | sed -n 's/.*(NEEDED).*\[\(libjsworker[^]]*\)\]/\1/p')
[ "$needed" = "libjsworker.so.$MAJOR" ] || fail "the find_package build records NEEDED libjsworker.so.$MAJOR (got '$needed')"
out=$("$tmp/cmake/consumer") || fail "the find_package build runs: $out"
echo "     $out"
ok "examples/cmake-consumer built with find_package(jsworker CONFIG) and ran"
# jsworkerConfigVersion.cmake: 0.x accepts the same minor version only; another major version is refused.
mkdir -p "$tmp/versions"
cat > "$tmp/versions/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.18)
project(versions LANGUAGES NONE)
find_package(jsworker $VERSION CONFIG REQUIRED)
foreach(v 9.0 $MAJOR.999)
  find_package(jsworker \${v} CONFIG QUIET)
  if(jsworker_FOUND)
    message(FATAL_ERROR "find_package(jsworker \${v}) accepted version \${jsworker_VERSION}")
  endif()
endforeach()
CMAKE
quiet "$CMAKE" -S "$tmp/versions" -B "$tmp/versions/build" -DCMAKE_PREFIX_PATH="$prefix"
ok "find_package(jsworker $VERSION) is found; 9.0 and $MAJOR.999 are refused (jsworkerConfigVersion.cmake)"

# pkg-config --cflags --libs jsworker, with the rpath from the package's own libdir variable.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[ "$(pkg-config --modversion jsworker)" = "$VERSION" ] || fail "pkg-config --modversion jsworker is $VERSION"
quiet "$CXX" -std=c++17 -Wall -Wextra -Werror -o "$tmp/consumer-pc" examples/cmake-consumer/main.cpp \
    $(pkg-config --cflags --libs jsworker) -Wl,-rpath,"$(pkg-config --variable=libdir jsworker)"
out=$("$tmp/consumer-pc") || fail "the pkg-config build runs: $out"
echo "     $out"
ok "examples/cmake-consumer/main.cpp built with pkg-config --cflags --libs jsworker and ran"

# The Python package, installed with pip, finds the installed library through pkg-config (no JSWORKER_LIBRARY).
PYTHON=${PYTHON:-python3}
if command -v "$PYTHON" >/dev/null 2>&1; then
    quiet "$PYTHON" -m pip install --no-deps --disable-pip-version-check --target "$tmp/python" ./bindings/python
    out=$(cd "$tmp" && env -u JSWORKER_LIBRARY PYTHONPATH="$tmp/python" "$PYTHON" -c '
import jsworker
with jsworker.Worker("onmessage = (e) => postMessage(e.data * 2)") as w:
    w.post(21)
    print(jsworker.library_path, w.receive(timeout=10))') || fail "the pip-installed package runs: $out"
    [ "$out" = "$prefix/lib/libjsworker.so.$MAJOR 42" ] || fail "the pip-installed package loads the installed library (got: $out)"
    ok "pip install ./bindings/python; it loaded $prefix/lib/libjsworker.so.$MAJOR through pkg-config"
else
    echo "skip python: $PYTHON not found"
fi

# A staged install (a distribution package's build): the files land under DESTDIR, the metadata names PREFIX.
stage=$tmp/stage
quiet "$MAKE" --no-print-directory install DESTDIR="$stage" PREFIX=/opt/jsworker BUILD_DIR="$BUILD_DIR"
[ -f "$stage/opt/jsworker/lib/libjsworker.so.$VERSION" ] || fail "DESTDIR install puts the library under DESTDIR"
grep -qx 'prefix=/opt/jsworker' "$stage/opt/jsworker/lib/pkgconfig/jsworker.pc" || fail "jsworker.pc names PREFIX, not DESTDIR"
ok "make install DESTDIR=... PREFIX=/opt/jsworker stages the tree; jsworker.pc says prefix=/opt/jsworker"

quiet "$MAKE" --no-print-directory uninstall PREFIX="$prefix"
left=$(find "$prefix" -type f -o -type l)
[ -z "$left" ] || fail "make uninstall removes every installed file (left: $left)"
ok "make uninstall removed every file it installed"

echo "$passed passed, 0 failed"
