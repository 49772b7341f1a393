#!/bin/sh
# Build solver.wasm: the classic family's search core (and Extreme's), the
# plain C of thegame/solver/the_game/csrc without its CPython files, with
# the WebAssembly binding wasm.c, for wasm32-wasi (clang, wasi-libc and
# wasm-ld; Debian: clang-14 lld-14 wasi-libc). solver.js drives it.
#
#   thegame/web/build-wasm.sh [OUT]     (default: thegame/web/solver.wasm)
#
# CLANG and WASM_LD override the tools. The build is reproducible: the same
# sources and tools give the same bytes (the tests rebuild it and compare).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$here/solver.wasm}
CLANG=${CLANG:-clang-14}
WASM_LD=${WASM_LD:-wasm-ld-14}
core=$root/thegame/solver/the_game/csrc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# -O2: within a few percent of -O3 in Node, and a smaller module. The
# stack: the depth-first search recurses once a play, a few KiB a frame.
for f in kernel extreme memo turns search finish; do
    "$CLANG" --target=wasm32-wasi -O2 -std=gnu11 -Wall -Wextra -fvisibility=hidden \
        -I"$root/thegame/csrc" -I"$core" -c "$core/$f.c" -o "$tmp/$f.o"
done
"$CLANG" --target=wasm32-wasi -O2 -std=gnu11 -Wall -Wextra -fvisibility=hidden \
    -I"$root/thegame/csrc" -I"$core" -c "$here/wasm.c" -o "$tmp/wasm.o"
# Linked by wasm-ld itself, as clang would (a reactor: no main) but
# without compiler-rt's builtins (Debian packages them apart): wasm.c
# defines the two 128-bit shifts the core needs.
sysroot=${WASI_SYSROOT:-/usr/lib/wasm32-wasi}
"$WASM_LD" -m wasm32 -L"$sysroot" "$sysroot/crt1-reactor.o" --entry _initialize \
    "$tmp"/kernel.o "$tmp"/extreme.o "$tmp"/memo.o "$tmp"/turns.o "$tmp"/search.o "$tmp"/finish.o \
    "$tmp"/wasm.o -lc --strip-all -z stack-size=4194304 -o "$tmp/solver.wasm"
mv "$tmp/solver.wasm" "$out"
echo "$out: $(wc -c < "$out") bytes"
