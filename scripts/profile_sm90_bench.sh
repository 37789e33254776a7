#!/usr/bin/env bash
# Nsight Compute profiles of the sm90 tiles at the M where the heuristic picks them, and of
# cuBLAS fp16 on the same shape, through mixgemm-bench (forced schedule, random inputs, cold
# L2); plus the SM clock and power while each runs back to back. For the sm90 work of
# docs/design-sm90.md ("What remains"). Run on the GPU machine:
#   OUT=<dir> bash scripts/profile_sm90_bench.sh        (device tool: $OUT is set)
# PROFILES="name:NxK:M:schedule[:type_spec] ..." overrides the list (schedule `cublas` = cuBLAS
# fp16, `cublaslt_fp8` = cuBLASLt fp8 row-wise; type_spec default f16.u4b8.g128);
# PROF_SM90_TYPES (default f16.u4) the sm90 type configs built, PROF_SM90_SCHEDULES (default: all)
# the schedules built (a shorter build); CLOCKS=0 skips the clock runs.
# Everything goes into $OUT/prof.tar.gz; a summary table is printed last. ~6 minutes.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
L=/tmp/mixgemm-prof
rm -rf "$L"; mkdir -p "$L" "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s)
cmake -S . -B build-prof -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=${PROF_SM90_TYPES:-f16.u4} \
  -DMIXGEMM_SM90_SCHEDULES=${PROF_SM90_SCHEDULES:-} -DMIXGEMM_BUILD_TESTS=OFF > "$L/build.log" 2>&1 &&
  cmake --build build-prof -j "$(nproc)" --target mixgemm-bench >> "$L/build.log" 2>&1 || {
  tail -30 "$L/build.log"; tar czf "$OUT/prof.tar.gz" -C /tmp mixgemm-prof; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
B=./build-prof/tools/mixgemm-bench
PROFILES=${PROFILES:-"t256x64_m64:8192x21760:64:sm90_256x64_1x1x1_coop_splitk
t128x128_m128:8192x21760:128:sm90_128x128_1x1x1_coop_splitk
t128x256_m256:8192x21760:256:sm90_128x256_1x1x1_coop_splitk
t128x256_m8192:8192x21760:8192:sm90_128x256_1x1x1_coop_splitk
cublas_m8192:8192x21760:8192:cublas
cublas_m256:8192x21760:256:cublas
cublas_m64:8192x21760:64:cublas"}
SECTIONS="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis
  --section SchedulerStats --section WarpStateStats --section SourceCounters --section LaunchStats"
for p in $PROFILES; do
  IFS=: read -r name shape m sched ts <<< "$p"
  if [ "$sched" = cublas ] || [ "$sched" = cublaslt_fp8 ]; then
    bl=$([ "$sched" = cublas ] && echo cublas_fp16 || echo cublaslt_fp8)
    args=(--baselines-only --baselines "$bl" --lt-algos 1); kn="regex:nvjet|gemm|xmma|cutlass|sm90_xmma"
  else
    args=(--no-baselines --types "${ts:-f16.u4b8.g128}" --schedule "$sched"); kn="regex:sm90_kernel"
  fi
  # skip the first launches (cold instruction caches), profile one at the real clocks
  timeout 240 ncu --clock-control none --kernel-name "$kn" --launch-skip 3 --launch-count 1 $SECTIONS \
    -o "$L/prof_$name" $B --shape "$shape" --m "$m" "${args[@]}" --iters 5 --warmup 3 --settle-ms 0 --quiet \
    > "$L/ncu_$name.log" 2>&1
  ncu -i "$L/prof_$name.ncu-rep" --page details > "$L/details_$name.txt" 2>&1
  ncu -i "$L/prof_$name.ncu-rep" --page source --csv --print-source sass 2>/dev/null | gzip > "$L/source_$name.csv.gz"
  ncu -i "$L/prof_$name.ncu-rep" --page raw --csv 2>/dev/null | gzip > "$L/raw_$name.csv.gz"
  echo "profiled $name ($(( $(date +%s) - t0 )) s)"
done

# Clock and power while the kernel runs back to back (no profiler): ours vs cuBLAS fp16.
# CLOCKS=0 skips this part.
[ "${CLOCKS:-1}" = 0 ] || for p in "ours:8192x21760:8192" "ours:57344x8192:8192" "ours:8192x21760:1024"; do
  IFS=: read -r who shape m <<< "$p"
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader -lms 20 \
    > "$L/clk_${shape}_${m}.csv" 2>&1 &
  smi=$!
  $B --shape "$shape" --m "$m" --types f16.u4b8.g128 --baselines cublas_fp16 --lt-algos 1 --iters 60 --warmup 5 \
    --csv "$L/bench_${shape}_${m}.csv" --quiet > "$L/bench_${shape}_${m}.log" 2>&1
  kill $smi 2>/dev/null; wait $smi 2>/dev/null
done
tar czf "$OUT/prof.tar.gz" -C /tmp mixgemm-prof

echo "== summary"
for f in "$L"/details_*.txt; do
  n=$(basename "$f" .txt); n=${n#details_}
  echo "-- $n"
  grep -E "^ +(Duration|SM Frequency|DRAM Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|Issued Warp Per Scheduler|No Eligible|Active Warps Per Scheduler|Eligible Warps Per Scheduler|Registers Per Thread|Memory Throughput) " "$f" | sed 's/  */ /g' | head -12
done
for f in "$L"/source_*.csv.gz; do python3 scripts/ncu_summary.py --reasons "$f" 2>&1 | grep -E "==|reasons|top opcodes"; done
for f in "$L"/bench_*.csv; do echo "-- $f"; cut -d, -f3-5,7,13,16,27 "$f" | head -4; done
for f in "$L"/clk_*.csv; do echo "-- $f: $(awk -F, '{c+=$2; p+=$4; n++} END{printf "%d samples, mean sm %.0f MHz, mean power %.0f W", n, c/n, p/n}' "$f")"; done
