#!/usr/bin/env bash
# Session 5, device call 1: (1) builds main (Python module + GPU tests + bench, sm90 f16.u4 and
# s8.u4) into ./build-s5 (kept on the warm machine for call 2) and the wip/a8-wide-hoist branch
# (.branch.patch, untracked: `git diff main...wip/a8-wide-hoist`) with s8.u4 128x256 only;
# (2) the branch's W4A8 sm90 tests and memcheck/racecheck of every schedule; (3) its speed
# against main's same schedule, main/branch/main in one run; (4) ncu of main's smallm kernel
# at the real clocks (--clock-control none), with the stall reasons summed over the SASS.
# Everything lands in $OUT/s5r1.tar.gz; a summary is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}
T0=$SECONDS
R=/tmp/s5r1; rm -rf "$R" /tmp/b-hoist; mkdir -p "$R" "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$R/gpu.txt" 2>&1
echo "${COMMIT:-unknown}" > "$R/commit.txt"
mkdir -p /tmp/b-hoist && tar cf - --exclude='./build*' . | tar xf - -C /tmp/b-hoist &&
  (cd /tmp/b-hoist && patch -p1 < .branch.patch) > "$R/patch.log" 2>&1 || echo "PATCH FAILED"
( cmake -S . -B build-s5 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=ON \
    -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4 && cmake --build build-s5 -j 16 ) > "$R/build-main.log" 2>&1 &
( cmake -S /tmp/b-hoist -B /tmp/b-hoist/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=s8.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x256_1x1x1_coop_splitk &&
  cmake --build /tmp/b-hoist/build -j 16 --target mixgemm_gpu_tests mixgemm-bench ) > "$R/build-hoist.log" 2>&1 &
wait
echo "builds done at $((SECONDS-T0)) s: main $(tail -1 "$R/build-main.log" | cut -c1-60) | hoist $(tail -1 "$R/build-hoist.log" | cut -c1-60)"
M=./build-s5; H=/tmp/b-hoist/build

timeout 240 $H/tests/mixgemm_gpu_tests --gtest_filter='Sm90.W4A8_S8:Sm90.W4A8_E4M3:Gemm*' > "$R/hoist-tests.log" 2>&1
echo "hoist tests rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/hoist-tests.log" | tr '\n' ' ')"
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool $H/tests/mixgemm_gpu_tests --gtest_filter='*Sanitize*' > "$R/hoist-$tool.log" 2>&1
  echo "hoist $tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/hoist-$tool.log" | tail -1)"
done

bench() {  # $1 build, $2 stem
  timeout 120 "$1/tools/mixgemm-bench" --shapes seed,llama2-70b --m 1024,4096 --types s8.u4b8.g128,s8.u4.g128 \
    --schedule sm90_128x256_1x1x1_coop_splitk --baselines cublaslt_fp8 --iters 30 --warmup 5 --verify \
    --csv "$R/$2.csv" --json "$R/$2.json" --summary-m none --quiet > "$R/$2.txt" 2>&1
  echo "bench $2 rc=$? at $((SECONDS-T0)) s"
}
bench $M a8-main; bench $H a8-hoist; bench $M a8-main2

# ncu of the decode kernel (main), real clocks
prof() {  # $1 tag, rest: bench args
  local tag=$1; shift
  timeout 120 ncu --clock-control none --kernel-name regex:smallm --launch-skip 4 --launch-count 1 \
    --section SpeedOfLight --section SchedulerStats --section WarpStateStats --section Occupancy \
    --section SourceCounters --section MemoryWorkloadAnalysis -o "$R/prof_$tag" \
    $M/tools/mixgemm-bench "$@" --m 1 --types f16.u4b8.g128 --no-baselines --iters 3 --warmup 2 --quiet \
    > "$R/ncu_$tag.log" 2>&1
  ncu -i "$R/prof_$tag.ncu-rep" --page details > "$R/details_$tag.txt" 2>&1
  ncu -i "$R/prof_$tag.ncu-rep" --page source --csv --print-source sass > "$R/source_$tag.csv" 2>&1
  gzip -f "$R/source_$tag.csv"; rm -f "$R/prof_$tag.ncu-rep"
}
prof seed-m1 --shapes seed
prof 4096x4096-m1 --shape 4096x4096
echo "ncu done at $((SECONDS-T0)) s"
python3 scripts/ncu_summary.py --reasons "$R"/source_*.csv.gz
for f in "$R"/details_*.txt; do
  echo "== $(basename "$f")"; grep -E "SM Frequency|^ *Duration|DRAM Throughput|Issued Warp Per Scheduler|Eligible Warps" "$f" | head -6
done
tar czf "$OUT/s5r1.tar.gz" -C /tmp s5r1
echo "== speed: s8 128x256 (main | hoist | main again), us"
for s in a8-main a8-hoist a8-main2; do awk -F, -v s=$s 'NR>1 && $8 !~ /cublas/ {printf "%s %s M=%s %s %s us x%s fp8\n", s, $2, $5, $8, $16, $28}' "$R/$s.csv"; done | sort -k2,4 | head -40
echo "total $((SECONDS-T0)) s"
