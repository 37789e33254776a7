#!/usr/bin/env bash
# Session-3 first device call: Python crash diagnosis, smallm profile, W4A8 branch tests.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
mkdir -p "$OUT/py" "$OUT/prof" "$OUT/w4a8"
BUILD=build-dev OUT=$OUT/py bash scripts/diagnose_python_crash.sh > "$OUT/py/stdout.txt" 2>&1
echo "pydiag done $((SECONDS-T0)) s"
BUILD=build-dev OUT=$OUT/prof bash scripts/profile_smallm.sh > "$OUT/prof/summary.txt" 2>&1
echo "profile done $((SECONDS-T0)) s"
rm -rf /tmp/w4a8 && mkdir /tmp/w4a8 && tar cf - --exclude='./build*' . | tar xf - -C /tmp/w4a8
( cd /tmp/w4a8 && patch -p1 < .w4a8.patch > "$OUT/w4a8/patch.log" 2>&1 &&
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=s8.u4,e4m3.u4 \
    -DMIXGEMM_BUILD_TOOLS=OFF > "$OUT/w4a8/build.log" 2>&1 &&
  cmake --build build -j "$(nproc)" --target mixgemm_gpu_tests >> "$OUT/w4a8/build.log" 2>&1 &&
  timeout 240 ./build/tests/mixgemm_gpu_tests --gtest_filter='Sm90.W4A8*' > "$OUT/w4a8/tests.log" 2>&1
  echo "w4a8 tests rc=$?"
  timeout 120 compute-sanitizer --tool memcheck ./build/tests/mixgemm_gpu_tests --gtest_filter='*Sanitize*' \
    > "$OUT/w4a8/memcheck.log" 2>&1; echo "memcheck rc=$? $(grep 'ERROR SUMMARY' "$OUT/w4a8/memcheck.log" | tail -1)" )
echo "w4a8 done $((SECONDS-T0)) s"
tail -30 "$OUT/w4a8/build.log" | grep -E "error|FAILED" | head
grep -E "^\[  (PASSED|FAILED)|^\[  FAILED|Failure|mismatch" "$OUT/w4a8/tests.log" | head -20
cd "$OUT" && tar czf all.tar.gz py prof/*.txt prof/*.csv prof/*.log w4a8 && rm -rf prof/*.ncu-rep
echo "=== python"; grep -vE "^\s*$" py/pydiag.txt | head -80
echo "=== profile"; cat prof/summary.txt | tail -60
