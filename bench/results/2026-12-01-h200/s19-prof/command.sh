#!/usr/bin/env bash
# session 19 call 6: why grouped e4m3 (tables) stays 1.07-1.13x the per-channel time:
# (1) clock and power of e4m3 g128 / per-channel / s8 g128 running back to back (seed, M = 8192),
# (2) ncu of the e4m3 g128 and per-channel wide kernels (seed, M = 1024).
export PATH=/usr/local/cuda/bin:$PATH
L=/tmp/s19prof; rm -rf $L; mkdir -p $L
t0=$(date +%s)
(cmake -S . -B build-prof -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=e4m3.u4,s8.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x256_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF &&
 cmake --build build-prof -j 16 --target mixgemm-bench) > $L/build.log 2>&1 || { tail -20 $L/build.log; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
B=./build-prof/tools/mixgemm-bench
for t in e4m3.u4b8.g128 e4m3.u4b8.gch s8.u4b8.g128 e4m3.u4.g128; do
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader,nounits -lms 20 \
    > $L/clk_$t.csv 2>&1 &
  smi=$!
  $B --shape 8192x21760 --m 8192 --types $t --no-baselines --iters 40 --warmup 3 --settle-ms 1500 --csv $L/bench_$t.csv --quiet > $L/bench_$t.log 2>&1
  kill $smi; wait $smi 2>/dev/null
  echo "clk $t: $(awk -F, 'NR>20 && $4+0>300 {c+=$2; p+=$4; n++} END{printf "%d loaded samples, mean sm %.0f MHz, mean power %.0f W", n, c/n, p/n}' $L/clk_$t.csv) us=$(tail -1 $L/bench_$t.csv | cut -d, -f16)"
done
SECTIONS="--section SpeedOfLight --section ComputeWorkloadAnalysis --section SchedulerStats --section WarpStateStats --section SourceCounters"
for t in e4m3.u4b8.g128 e4m3.u4b8.gch; do
  timeout 100 ncu --clock-control none --kernel-name regex:sm90_kernel --launch-skip 3 --launch-count 1 $SECTIONS \
    -o $L/prof_$t $B --shape 8192x21760 --m 1024 --no-baselines --types $t --iters 5 --warmup 3 --quiet > $L/ncu_$t.log 2>&1
  ncu -i $L/prof_$t.ncu-rep --page details > $L/details_$t.txt 2>&1
  ncu -i $L/prof_$t.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip > $L/source_$t.csv.gz
  echo "profiled $t ($(( $(date +%s) - t0 )) s)"
done
rm -f $L/*.ncu-rep
cp .s19/prof.sh $L/command.sh
tar czf $OUT/prof.tar.gz -C /tmp s19prof
for t in e4m3.u4b8.g128 e4m3.u4b8.gch; do
  echo "-- $t"
  grep -E "^ +(Duration|SM Frequency|Compute \(SM\) Throughput|Issued Warp Per Scheduler|No Eligible|Eligible Warps Per Scheduler) " $L/details_$t.txt | sed 's/  */ /g' | head -8
  python3 scripts/ncu_summary.py --reasons $L/source_$t.csv.gz 2>&1 | grep -E "==|reasons|top opcodes" | head -6
done
echo "total $(( $(date +%s) - t0 )) s"
