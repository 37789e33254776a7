#!/usr/bin/env bash
# Builds the binaries the device queue carries (no build on the device: its time is short) into the git-ignored
# folder CARRY (default .s108, the name bench/results/2026-12-07-h200/s108-next/queue108.sh and
# s110-next/call110.sh read): gpu_tests.xz (mixgemm_gpu_tests), bench.xz (mixgemm-bench), commit.txt (the commit
# built). A Release build of every sm90 instance without the Python extension, ~9 min on this machine's 2 cores; 44 MB,
# under the device's 64 MiB for tree + carry once the checkout leaves out bench/results/ (the queue READMEs say how).
# A new checkout does not have the folder (it is ignored); where it exists and nothing the binaries are built from has
# changed since its commit.txt, this says so and builds nothing (FORCE=1 builds anyway; CHECK_ONLY=1 only checks).
#   bash scripts/build_carry.sh            (repo root or anywhere; BUILD_DIR default /tmp/mixgemm-carry-build)
set -euo pipefail
cd "$(dirname "$0")/.."
CARRY=${CARRY:-.s108}
BUILD_DIR=${BUILD_DIR:-/tmp/mixgemm-carry-build}
# What the two binaries are built from (docs, bench/results/, python/ and examples/ do not enter them).
SOURCES=(CMakeLists.txt cmake codegen include src tests tools scripts/build.sh scripts/setup.sh)
head=$(git rev-parse HEAD)
if [ "${FORCE:-0}" != 1 ] && [ -s "$CARRY/gpu_tests.xz" ] && [ -s "$CARRY/bench.xz" ] && [ -s "$CARRY/commit.txt" ]; then
  built=$(head -1 "$CARRY/commit.txt")
  if git cat-file -e "$built^{commit}" 2>/dev/null && git diff --quiet "$built" -- "${SOURCES[@]}"; then
    echo "$CARRY is up to date: built from $built; nothing it is built from differs in the working tree"
    exit 0
  fi
  echo "$CARRY was built from $built; the sources differ (or that commit is unknown here)"
elif [ "${FORCE:-0}" != 1 ]; then
  echo "$CARRY is missing or incomplete"
fi
# CHECK_ONLY=1: say whether the folder is current (exit 0) or not (exit 1), and build nothing.
[ "${CHECK_ONLY:-0}" = 1 ] && exit 1
bash scripts/setup.sh
MIXGEMM_BUILD_PYTHON=OFF BUILD_DIR="$BUILD_DIR" bash scripts/build.sh
mkdir -p "$CARRY"
xz -6 -T2 -c "$BUILD_DIR/tests/mixgemm_gpu_tests" > "$CARRY/gpu_tests.xz"
xz -6 -T2 -c "$BUILD_DIR/tools/mixgemm-bench" > "$CARRY/bench.xz"
echo "$head" > "$CARRY/commit.txt"
git diff --quiet HEAD -- "${SOURCES[@]}" 2>/dev/null || echo "note: built from uncommitted changes on top of $head" >&2
du -sh "$CARRY"
