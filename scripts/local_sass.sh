#!/usr/bin/env bash
# SASS of one translation unit for sm_90a, on this machine (no GPU needed): compiles FILE with
# the library's flags, prints ptxas's register / spill lines and its wgmma serialization warnings
# (C7510..C7515) to stderr and the cuobjdump -sass listing to stdout. The CUDA toolkit here has no
# cuobjdump / nvdisasm; they come from PyPI (nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm) into the
# git-ignored .deps/ on first use.
#   usage: scripts/local_sass.sh FILE.cu [extra nvcc flags] > out.sass
#   e.g.   scripts/local_sass.sh build-x/generated/sm90_inst_s8_u4_128x256.cu | scripts/sass_loops.py -
# A generated instance needs its build tree's generated/ folder (cmake -S . -B build-x
# -DMIXGEMM_SM90_TYPES=... configures it without building); it is found from FILE's path.
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${1:?usage: local_sass.sh FILE.cu [nvcc flags]}
shift
export PATH=/usr/local/cuda/bin:$PATH
TOOLS=.deps/cuda-sass-tools
if [ ! -x "$TOOLS/cuobjdump" ] || [ ! -x "$TOOLS/nvdisasm" ]; then
  mkdir -p "$TOOLS/wheels"
  # 13.2 is the oldest CUDA 13 cuobjdump on PyPI; it reads sm_90a cubins of nvcc 13.0.
  python3 -m pip download -q --no-deps --only-binary=:all: -d "$TOOLS/wheels" \
    nvidia-cuda-cuobjdump==13.2.51 nvidia-cuda-nvdisasm >&2
  for w in "$TOOLS"/wheels/*.whl; do
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$w" "$TOOLS/x"
  done
  cp "$(find "$TOOLS/x" -name cuobjdump -type f | head -1)" "$(find "$TOOLS/x" -name nvdisasm -type f | head -1)" "$TOOLS/"
  chmod +x "$TOOLS/cuobjdump" "$TOOLS/nvdisasm"
fi
GEN=()
case "$FILE" in */generated/*) GEN=(-I "${FILE%%/generated/*}/generated") ;; esac
OBJ=$(mktemp --suffix=.o)
trap 'rm -f "$OBJ"' EXIT
nvcc -I include -I src "${GEN[@]}" -O3 -DNDEBUG --generate-code=arch=compute_90a,code=sm_90a \
  --expt-relaxed-constexpr -std=c++17 -Xptxas -v "$@" -c "$FILE" -o "$OBJ" 2>&1 |
  grep -E "Compiling entry|spill|Used|C751[0-5]" >&2 || true
PATH="$PWD/$TOOLS:$PATH" cuobjdump -sass "$OBJ"
