#!/usr/bin/env bash
# Diagnose the extension's SIGSEGV on the H200 image (docs/python.md, "Known problem").
# Builds the in-tree package (only the f16.u4 sm90 instances: the crash is host code),
# then runs each failing call in its own process with MIXGEMM_PY_BACKTRACE=1 and
# resolves the extension's frames with addr2line. Also records the toolchain facts the
# suspects depend on (compilers, C++ ABI macros, which libstdc++ is loaded).
#   OUT=<dir> bash scripts/diagnose_python_crash.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
B=${BUILD:-build-pydiag}
LOG=$OUT/pydiag.txt
: > "$LOG"
{
  cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMIXGEMM_BUILD_PYTHON=ON \
    -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk \
    -DMIXGEMM_BUILD_TOOLS=OFF &&
  cmake --build "$B" -j "$(nproc)" --target _C mixgemm_gpu_tests
} > "$OUT/pydiag_build.log" 2>&1 || { echo "build failed"; tail -30 "$OUT/pydiag_build.log"; }
SO=$(ls "$B"/python/mixgemm/_C*.so 2>/dev/null | head -1)
{
  echo "== toolchain"; grep -E "CMAKE_(CXX|CUDA)_COMPILER:|CMAKE_CXX_FLAGS:|CMAKE_CUDA_HOST_COMPILER" "$B/CMakeCache.txt"
  c++ --version | head -1; python3 -VV; python3 -c "import nanobind; print('nanobind', nanobind.__version__)"
  echo "== compile line of the extension"; grep -m1 "mixgemm_ext.cpp" "$B/compile_commands.json" 2>/dev/null ||
    ninja -C "$B" -t commands _C | grep -m1 mixgemm_ext
  echo "== ldd"; ldd "$SO"
  echo "== cxx11 ABI symbols (std::__cxx11) undefined in the .so: $(nm -D --undefined-only "$SO" | grep -c __cxx11)"
  echo "== dynamic libstdc++ symbols needed: $(nm -D --undefined-only "$SO" | grep -c GLIBCXX)"
} >> "$LOG" 2>&1
run_case() {  # name, python code
  echo "== case $1" >> "$LOG"
  MIXGEMM_PY_BACKTRACE=1 PYTHONPATH=$B/python timeout 60 python3 -X faulthandler -c "$2" > "$OUT/case_$1.txt" 2>&1
  echo "rc=$?" >> "$LOG"
  tail -40 "$OUT/case_$1.txt" >> "$LOG"
  # Resolve the extension's frames: lines like /path/_C...so(+0x1234) or (sym+0x10) [0x...]
  grep -oE "_C[^ ]*\.so\(\+0x[0-9a-f]+\)" "$OUT/case_$1.txt" | grep -oE "0x[0-9a-f]+" | while read -r a; do
    echo "  $a: $(addr2line -f -C -i -e "$SO" "$a" | tr '\n' ' ')"
  done >> "$LOG"
  grep -oE "\(([^()+]+)\+0x[0-9a-f]+\)" "$OUT/case_$1.txt" | head -20 | c++filt >> "$LOG"
}
run_case import "import mixgemm._C as C; print('ok', C.__file__)"
run_case schedules "import mixgemm._C as C; print(C.supported_schedules('f16','u4b8','f16',False,'f16'))"
run_case schedules_str "import mixgemm._C as C; n=C.supported_schedules('f16','u4b8','f16',False,'f16'); print(len(n))"
run_case bad_type "import mixgemm._C as C
try:
    C.supported_schedules('f17','u4b8','f16',False,'f16')
except Exception as e: print('raised', type(e).__name__, e)"
run_case bad_prepack "import numpy as np, mixgemm
try:
    mixgemm.prepack(np.zeros((64, 24), np.uint8), weight_type='u4b8')
except Exception as e: print('raised', type(e).__name__, e)"
run_case version "import mixgemm._C as C; print([k for k in dir(C) if not k.startswith('_')])"
cat "$LOG"
