#!/usr/bin/env bash
# Session 77: the GPU check of the landed narrow token tiles (256 x 32, 256 x 16) on the type configs s77-t32 did not
# build (bf16.u4, f16.u8, bf16.u8; f16 / s8 / e4m3 x u4 passed there with the same kernel code). Uses build-s77/ when
# carried (built on the development machine: those types, schedules 128x64 / 256x64 / 256x32 / 256x16), else builds it.
#   bash bench/results/2026-12-05-h200/s77-next/narrow-check.sh        (repo root, device; ~1.5 min carried, ~3.5 built)
# 1. the Sm90 suites (every compiled schedule at every M of the suites) and GemmApi / GemmGraph (the heuristic's picks,
#    narrow tiles included, through gemm());
# 2. --verify of each narrow tile forced, and of the heuristic's picks, at M = 1..32 on the seed shape and Llama-3-8B
#    gate_up (where 256 x 64 ranks first);
# 3. compute-sanitizer memcheck of Sm90Sanitize.TypeConfigsSmall.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
t0=$SECONDS
B=build-s77
# build-s77/gpu_tests.tar.xz: the test binary, xz-compressed to fit the device tool's 64 MiB carry beside the tree
# (session 77; the bench binary did not fit too, so the --verify part runs only where the build is made here).
[ -f $B/gpu_tests.tar.xz ] && [ ! -x $B/tests/mixgemm_gpu_tests ] && tar xJf $B/gpu_tests.tar.xz -C $B
# A carried binary that cannot run here (another libstdc++ or CUDA runtime) is rebuilt.
if [ -x $B/tests/mixgemm_gpu_tests ] && ! $B/tests/mixgemm_gpu_tests --gtest_list_tests > /dev/null 2>&1; then
  echo "the carried build-s77 does not run here: rebuilding"; rm -rf $B
fi
if [ ! -x $B/tests/mixgemm_gpu_tests ]; then
  ( cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=OFF -DMIXGEMM_SM90_TYPES=bf16.u4,f16.u8,bf16.u8 \
      "-DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk,256x32_1x1x1_coop_splitk,256x16_1x1x1_coop_splitk" &&
    timeout 300 cmake --build $B -j 16 --target mixgemm_gpu_tests mixgemm-bench ) > "$OUT/build.log" 2>&1
  echo "built rc=$? at $((SECONDS - t0)) s"
fi
timeout 150 $B/tests/mixgemm_gpu_tests --gtest_filter='Sm90.*:GemmApi.*:*GemmGraph*' > "$OUT/tests.log" 2>&1
echo "tests rc=$? at $((SECONDS - t0)) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |Failure" "$OUT/tests.log" | head -12
if [ -x $B/tools/mixgemm-bench ]; then
  V=(--no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "${MIXGEMM_GIT_COMMIT:-unknown}" --verify --iters 3 --warmup 1 --shapes seed --shape 28672x4096
     --types bf16.u4b8.g128,f16.u8b128.g128,bf16.u8b128.g128,bf16.u4.g128)
  for s in 256x32 256x16 heur; do
    sch=(); m=1,8,16,24,32; [ $s != heur ] && sch=(--schedule sm90_${s}_1x1x1_coop_splitk)
    [ $s = 256x16 ] && m=1,8,16
    timeout 60 $B/tools/mixgemm-bench "${V[@]}" "${sch[@]}" --m $m --csv "$OUT/verify-$s.csv" > "$OUT/verify-$s.log" 2>&1
    echo "verify $s rc=$? at $((SECONDS - t0)) s: $(grep -h '^verify:' "$OUT/verify-$s.log" | head -1)"
  done
fi
timeout 90 compute-sanitizer --tool memcheck $B/tests/mixgemm_gpu_tests --gtest_filter='Sm90Sanitize.TypeConfigsSmall' \
  > "$OUT/memcheck.log" 2>&1
echo "memcheck rc=$? at $((SECONDS - t0)) s: $(grep -h 'ERROR SUMMARY' "$OUT/memcheck.log")"
