#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds two consumers of it:
#   1. installed_program.c with cc and `pkg-config --cflags --libs doclite`;
#   2. a CMake project using find_package(DocLite) and DocLite::doclite.
# Both must run without LD_LIBRARY_PATH and use the installed library.
# Usage: install_test.sh <build dir> <Tests/C source dir>
set -euo pipefail
build_dir=$1
source_dir=$2
tmp=$(mktemp -d /tmp/doclite-install-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
unset LD_LIBRARY_PATH

fail() { echo "install_test: $*" >&2; exit 1; }

cmake --install "$build_dir" --prefix "$prefix" >/dev/null

# GNUInstallDirs picks lib or lib/<multiarch> (e.g. lib/x86_64-linux-gnu): ask the build.
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
[[ -n $libdir ]] || fail "CMAKE_INSTALL_LIBDIR not found in $build_dir/CMakeCache.txt"
for file in include/doclite.h "$libdir/libdoclite.so" "$libdir/pkgconfig/doclite.pc" \
            "$libdir/cmake/DocLite/DocLiteConfig.cmake" "$libdir/cmake/DocLite/DocLiteConfigVersion.cmake"; do
  [[ -e $prefix/$file ]] || fail "$file was not installed (found: $(cd "$prefix" && find . -type f | tr '\n' ' '))"
done

# Checks that program $1 loads libdoclite from the prefix, then runs it.
check_program() {
  local program=$1 loaded
  loaded=$(ldd "$program" | awk '/libdoclite\.so/ { print $3 }')
  [[ -n $loaded && $(realpath "$loaded") == "$(realpath "$prefix/$libdir")"/libdoclite.so* ]] ||
    fail "$program does not load the installed libdoclite (ldd: ${loaded:-not found})"
  mkdir -p "$tmp/db-$2"
  "$program" "$tmp/db-$2" || fail "$program failed"
}

# 1. pkg-config.
flags=$(PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig pkg-config --cflags --libs doclite) ||
  fail "pkg-config does not find doclite"
# shellcheck disable=SC2086  # the flags are meant to be split
cc -std=c11 -Wall -Wextra -Werror "$source_dir/installed_program.c" -o "$tmp/pkgconfig_program" $flags
check_program "$tmp/pkgconfig_program" pkgconfig

# 2. find_package(DocLite).
mkdir -p "$tmp/consumer"
cp "$source_dir/installed_program.c" "$tmp/consumer/main.c"
cat > "$tmp/consumer/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(DocLiteConsumer C)
find_package(DocLite 0.1 REQUIRED)
add_executable(app main.c)
target_link_libraries(app DocLite::doclite)
CMAKE
cmake -G Ninja -S "$tmp/consumer" -B "$tmp/consumer/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null ||
  fail "configuring the find_package consumer failed"
cmake --build "$tmp/consumer/build" >/dev/null || fail "building the find_package consumer failed"
check_program "$tmp/consumer/build/app" cmake

echo "install_test: pkg-config and find_package consumers ok ($libdir)"
