#!/bin/sh
# Builds the kaldi-native-fbank reference for `npm run bench -- fbank-micro` / `features`, OUTSIDE the repository:
#   bench/knf/build.sh <out-dir> [<knf git source>]
# <knf git source> defaults to https://github.com/csukuangfj/kaldi-native-fbank (any clone or mirror of it works).
# Checks out f08a90c (the commit fairseq2 pins: Ooura FFT in double), builds the static library with knf's own CMake
# (Release, no tests, no Python) and links bench/knf/knf-fbank.cc against it. Then run the benchmarks with
#   KNF_BIN=<out-dir>/knf-fbank npm run bench -- fbank-micro
# Needs git, cmake, g++. Nothing of knf is committed to mixscope.
set -eu
out=${1:?usage: bench/knf/build.sh <out-dir> [<knf git source>]}
src=${2:-https://github.com/csukuangfj/kaldi-native-fbank}
commit=f08a90c
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
case "$out/" in "$(cd "$here/../.." && pwd)/"*) echo "build.sh: build knf outside the repository, not in $out" >&2; exit 2;; esac
if [ ! -d "$out/src/.git" ]; then git clone --quiet "$src" "$out/src"; fi
git -C "$out/src" checkout --quiet "$commit"
cmake -S "$out/src" -B "$out/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
  -DKALDI_NATIVE_FBANK_BUILD_TESTS=OFF -DKALDI_NATIVE_FBANK_BUILD_PYTHON=OFF >/dev/null
cmake --build "$out/build" --target kaldi-native-fbank-core -j 2 >/dev/null
# -O3 like knf's Release build; no -march flags (the build fairseq2 wheels ship is generic x86-64)
g++ -std=c++14 -O3 -DNDEBUG -DKNF_COMMIT="\"$commit\"" -I"$out/src" "$here/knf-fbank.cc" \
  "$out/build/lib/libkaldi-native-fbank-core.a" -o "$out/knf-fbank"
echo "$out/knf-fbank"
