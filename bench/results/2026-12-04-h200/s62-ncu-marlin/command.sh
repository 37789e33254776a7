#!/usr/bin/env bash
# Session 62 call 3: Nsight Compute on mixgemm's decode kernel and IST-DASLab's Marlin (2f6d7c1, built by
# scripts/build_reference_kernels.sh, evict-first hint removed) on 8192 x 8192 (Llama-2-70B o), f16 x u4b8 g128:
# TM 16 (t16 pick) and Marlin at M = 16, TM 8 at M = 8 and Marlin at M = 1 as references. Question (docs/design-smallm.md,
# "Not done / open"): what lets Marlin's 16-token tile run at its 1-token cost, where our TM 16 rows take 1.35x TM 8's?
# ncu defaults (caches flushed, base clocks) for all four; first a timing run in CUDA graphs without ncu.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
B=./.s62/mixgemm-bench
C=$(cat .s62/commit.txt)
P=$OUT/prof; mkdir -p $P
t0=$SECONDS
$B --shapes llama2-70b --m 1,8,16 --types f16.u4b8.g128 --no-baselines --marlin --graph-batch 32 \
  --iters 30 --warmup 3 --settle-ms 50 --git-commit $C --csv $P/graph.csv > $P/graph.txt 2>&1
echo "timing rc=$? at $((SECONDS - t0)) s"
run() { # tag M kernel-regex
  timeout 150 ncu --kernel-name "regex:$3" --launch-skip 3 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section SchedulerStats --section WarpStateStats \
    --section Occupancy --section LaunchStats --section InstructionStats --section SourceCounters \
    -o $P/prof_$1 $B --shape 8192x8192 --m $2 --types f16.u4b8.g128 --no-baselines --marlin --iters 3 --warmup 2 \
    --settle-ms 0 > $P/ncu_$1.log 2>&1
  echo "ncu $1 rc=$? at $((SECONDS - t0)) s"
  ncu -i $P/prof_$1.ncu-rep --page details > $P/details_$1.txt 2>&1
  ncu -i $P/prof_$1.ncu-rep --page source --csv --print-source sass > $P/source_$1.csv 2>&1
  rm -f $P/prof_$1.ncu-rep
}
run ours_m16 16 '^smallm_kernel'
run marlin_m16 16 'Marlin'
run ours_m8 8 '^smallm_kernel'
run marlin_m1 1 'Marlin'
python3 scripts/ncu_summary.py --reasons --by-op $P/source_*.csv > $P/ncu_summary.txt 2>&1
for f in $P/details_*.txt; do
  echo "== $(basename $f)"
  grep -E "^  [A-Za-z].*(Marlin|smallm_kernel)|Executed Instructions  |Issued Warp Per Scheduler|^ *Duration|DRAM Throughput|Achieved Occupancy|No Eligible|Active Warps Per Scheduler|Eligible Warps|Registers Per|Block Size|Grid Size|Shared Memory Configuration Size|Dynamic Shared" $f | head -20
done | tee $P/keylines.txt
grep -E "smallm|marlin" $P/graph.txt | head -20
(cd $OUT && tar czf s62-ncu.tar.gz prof && rm -rf prof); ls -la $OUT
