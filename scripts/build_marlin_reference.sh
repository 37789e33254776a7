#!/usr/bin/env bash
# Builds mixgemm-bench with IST-DASLab's Marlin W4A16 kernel as the external reference behind
# `mixgemm-bench --marlin` (tools/bench/marlin_reference.cpp).
#
# Marlin is not part of mixgemm and is never committed here. Put its kernel file in the
# git-ignored .deps/marlin/ first, from a checkout of github.com/IST-DASLab/marlin (the results
# in bench/results name the commit they used: 2f6d7c1 so far):
#   mkdir -p .deps/marlin && cp <marlin checkout>/marlin/marlin_cuda_kernel.cu .deps/marlin/
#   git -C <marlin checkout> rev-parse HEAD > .deps/marlin/COMMIT
#
# One change is made to a copy in the build tree, because the file as published stops with
# "an illegal instruction was encountered" in its first launch on an H200 with CUDA 13.0, compiled
# as sm_90a SASS by nvcc and as compute_80 PTX by the driver alike
# (bench/results/2026-12-03-h200/s51-marlin/): the weight loads' evict-first L2 cache hint
# (`createpolicy.fractional.L2::evict_first` + `cp.async.cg.shared.global.L2::cache_hint` in
# cp_async4_stream) becomes a plain `cp.async.cg.shared.global`. Everything else is as published.
#
#   usage: scripts/build_marlin_reference.sh BUILD_DIR [extra cmake -D flags]
#   e.g.   scripts/build_marlin_reference.sh build-marlin -DMIXGEMM_SM90_TYPES=f16.u4
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:?usage: build_marlin_reference.sh BUILD_DIR [cmake flags]}
shift
SRC=${MARLIN_SOURCE:-$PWD/.deps/marlin/marlin_cuda_kernel.cu}
if [ ! -f "$SRC" ]; then
  echo "build_marlin_reference.sh: $SRC not found; see this script's header for where it comes from" >&2
  exit 2
fi
mkdir -p "$BUILD/marlin-reference"
COPY=$(cd "$BUILD/marlin-reference" && pwd)/marlin_cuda_kernel.cu
python3 - "$SRC" "$COPY" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
hinted = re.compile(r'"\s*createpolicy\.fractional\.L2::evict_first\.b64 p, 1\.0;"\s*'
                    r'"\s*cp\.async\.cg\.shared\.global\.L2::cache_hint \[%0\], \[%1\], %2, p;\\n"')
out, n = hinted.subn(r'"   cp.async.cg.shared.global [%0], [%1], %2;\\n"', src)
if n != 1:
    sys.exit(f"build_marlin_reference.sh: expected one cache-hinted cp.async in {sys.argv[1]}, found {n}")
open(sys.argv[2], "w").write(out)
PY
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_TESTS=OFF \
  -DMIXGEMM_BENCH_MARLIN_SOURCE="$COPY" "$@"
cmake --build "$BUILD" --target mixgemm-bench
