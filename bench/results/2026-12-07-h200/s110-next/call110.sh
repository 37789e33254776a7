#!/usr/bin/env bash
# Session 110: the first device call, whatever card comes. Carry `.s108` (gpu_tests.xz + bench.xz: mixgemm_gpu_tests
# and mixgemm-bench of a Release build of all 34 sm90 instances, rebuilt this session on the CPU machine from the
# commit in .s108/commit.txt; device code unchanged since 0562f14f).
#  - H200: ../s108-next/queue108.sh (every GPU suite and the sanitizers, then the held-out decode table).
#  - any other card: GemmFuzz from SEED (default 1757) for FUZZ_CASES problems (default 300; under compute-sanitizer
#    memcheck where MEMCHECK=1), then racecheck over GemmFuzz's partial-sum and quantize-and-gemm tests for
#    RACE_CASES (default 12; 0 skips it; session 109's racecheck was cut before them).
#   MIXGEMM_GIT_COMMIT=<commit> [SEED=1757 FUZZ_CASES=300 MEMCHECK=0 RACE_CASES=12] bash bench/results/2026-12-07-h200/s110-next/call110.sh   (repo root)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
g=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$g" in
  *H200*) exec bash bench/results/2026-12-07-h200/s108-next/queue108.sh ;;
esac
echo "$g" | tee "$OUT/gpu.txt"; cp "$0" "$OUT/command.sh"; cat .s108/commit.txt > "$OUT/commit.txt"
T=/tmp/s110/mixgemm_gpu_tests; mkdir -p /tmp/s110
xz -dc .s108/gpu_tests.xz > $T && chmod +x $T || { echo "no .s108/gpu_tests.xz: carry .s108"; exit 1; }
S=${SEED:-1757}; F=${FUZZ_CASES:-300}; t0=$SECONDS
san=(); tag=fuzz; [ "${MEMCHECK:-0}" = 1 ] && san=(compute-sanitizer --tool memcheck) && tag=fuzz-memcheck
MIXGEMM_TEST_SEED=$S MIXGEMM_FUZZ_CASES=$F timeout ${FUZZ_S:-260} "${san[@]}" $T --gtest_filter='GemmFuzz.*' > "$OUT/$tag-$S.log" 2>&1
echo "$tag $S..$((S + F - 1)) rc=$? at $((SECONDS - t0)) s: $(grep -E 'ERROR SUMMARY|^\[  (PASSED|FAILED)' "$OUT/$tag-$S.log" | tr '\n' ' ')"
R=$((S + F))
[ "${RACE_CASES:-12}" = 0 ] && exit 0
MIXGEMM_TEST_SEED=$R MIXGEMM_FUZZ_CASES=${RACE_CASES:-12} timeout ${RACE_S:-200} compute-sanitizer --tool racecheck $T \
  --gtest_filter='GemmFuzz.PartialSums*:GemmFuzz.QuantizedActivations*' > "$OUT/fuzz-racecheck-$R.log" 2>&1
echo "racecheck $R.. rc=$? at $((SECONDS - t0)) s: $(grep -E 'RACECHECK SUMMARY|^\[  (PASSED|FAILED)' "$OUT/fuzz-racecheck-$R.log" | tr '\n' ' ')"
grep -h "^\[GemmFuzz\]" "$OUT"/fuzz-*.log | tail -8
