#!/usr/bin/env bash
# Builds mixgemm-bench with published int4 kernels as external references behind
# `mixgemm-bench --marlin` and `--qqq` (tools/bench/reference_kernels.cpp).
#
# Neither is part of mixgemm or committed here. Put their kernel files in the git-ignored .deps/
# first (each is optional; the results in bench/results name the commits they used):
#   IST-DASLab's Marlin (github.com/IST-DASLab/marlin, 2f6d7c1 so far):
#     mkdir -p .deps/marlin && cp <checkout>/marlin/marlin_cuda_kernel.cu .deps/marlin/
#   HandH1998's QQQ (github.com/HandH1998/QQQ, 54c5c99 so far):
#     mkdir -p .deps/qqq && cp <checkout>/csrc/qqq_gemm.cu .deps/qqq/
#
# The script compiles copies in the build tree, changed as follows and in nothing else:
#  - Marlin: the weight loads' evict-first L2 cache hint (`createpolicy.fractional.L2::evict_first`
#    + `cp.async.cg.shared.global.L2::cache_hint` in cp_async4_stream) becomes a plain
#    `cp.async.cg.shared.global`: as published the file stops with "an illegal instruction was
#    encountered" in its first launch on an H200 with CUDA 13.0, compiled as sm_90a SASS by nvcc and
#    as compute_80 PTX by the driver alike (bench/results/2026-12-03-h200/s51-marlin/).
#  - QQQ: its two torch includes give way to <cassert> (which they brought in; `qqq_cuda` asserts) and
#    its torch binding (`qqq_gemm(torch::Tensor ...)`, the end of the file) is dropped, so that the
#    kernel and its launcher `qqq_cuda` compile without PyTorch.
#
#   usage: scripts/build_reference_kernels.sh BUILD_DIR [extra cmake -D flags]
#   e.g.   scripts/build_reference_kernels.sh build-ref -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:?usage: build_reference_kernels.sh BUILD_DIR [cmake flags]}
shift
MARLIN=${MARLIN_SOURCE:-$PWD/.deps/marlin/marlin_cuda_kernel.cu}
QQQ=${QQQ_SOURCE:-$PWD/.deps/qqq/qqq_gemm.cu}
mkdir -p "$BUILD/reference-kernels"
DIR=$(cd "$BUILD/reference-kernels" && pwd)
FLAGS=()
if [ -f "$MARLIN" ]; then
  python3 - "$MARLIN" "$DIR/marlin_cuda_kernel.cu" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
hinted = re.compile(r'"\s*createpolicy\.fractional\.L2::evict_first\.b64 p, 1\.0;"\s*'
                    r'"\s*cp\.async\.cg\.shared\.global\.L2::cache_hint \[%0\], \[%1\], %2, p;\\n"')
out, n = hinted.subn(r'"   cp.async.cg.shared.global [%0], [%1], %2;\\n"', src)
if n != 1:
    sys.exit(f"build_reference_kernels.sh: expected one cache-hinted cp.async in {sys.argv[1]}, found {n}")
open(sys.argv[2], "w").write(out)
PY
  FLAGS+=(-DMIXGEMM_BENCH_MARLIN_SOURCE="$DIR/marlin_cuda_kernel.cu")
else
  echo "build_reference_kernels.sh: no $MARLIN: --marlin stays unavailable" >&2
fi
if [ -f "$QQQ" ]; then
  python3 - "$QQQ" "$DIR/qqq_gemm.cu" <<'PY'
import sys
src = open(sys.argv[1]).read()
for inc, by in (("#include <torch/extension.h>\n", "#include <cassert>\n"), ("#include <ATen/cuda/CUDAContext.h>\n", "")):
    if src.count(inc) != 1:
        sys.exit(f"build_reference_kernels.sh: expected one '{inc.strip()}' in {sys.argv[1]}")
    src = src.replace(inc, by)
cut = src.find("\nvoid qqq_gemm(")
if cut < 0 or "qqq_cuda(" not in src[:cut]:
    sys.exit(f"build_reference_kernels.sh: no torch binding qqq_gemm( after qqq_cuda in {sys.argv[1]}")
open(sys.argv[2], "w").write(src[:cut + 1])
PY
  FLAGS+=(-DMIXGEMM_BENCH_QQQ_SOURCE="$DIR/qqq_gemm.cu")
else
  echo "build_reference_kernels.sh: no $QQQ: --qqq stays unavailable" >&2
fi
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_TESTS=OFF "${FLAGS[@]}" "$@"
cmake --build "$BUILD" --target mixgemm-bench
