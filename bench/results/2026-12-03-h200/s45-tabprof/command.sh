#!/usr/bin/env bash
# Session 45 call 2: why the e4m3 group tables (s43-next/e4m3-tables.patch) run slower (s44-ab) although their row
# loop is 170 SASS instructions against 225: Nsight Compute of main and the patched tree at Llama-3-8B o (4096 x 4096),
# M = 1, t8_w8_o1 (the pick, which takes the tables), e4m3 u4b8 g128 and g64.
set -u
ROOT=$PWD; T0=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
L=/tmp/s45b; mkdir -p $L $OUT
rm -rf /tmp/tabtree && mkdir /tmp/tabtree && tar --exclude=./build-prof --exclude=./build-pip --exclude=./.git -cf - . | tar -xf - -C /tmp/tabtree
(cd /tmp/tabtree && patch -p1 -s < $ROOT/bench/results/2026-12-02-h200/s43-next/e4m3-tables.patch && echo patched)
bld() { cmake -S $1 -B $2 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=e4m3.u4 \
    -DMIXGEMM_SM90_SCHEDULES=256x64_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF && cmake --build $2 -j 8 --target mixgemm-bench; }
[ -x build-prof/tools/mixgemm-bench ] || bld . build-prof > $L/build-main.log 2>&1 &
bld /tmp/tabtree /tmp/tabtree/build-prof > $L/build-tab.log 2>&1 &
wait; echo "builds at $((SECONDS-T0)) s"; ls -la build-prof/tools/mixgemm-bench /tmp/tabtree/build-prof/tools/mixgemm-bench
S="--section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats --section SchedulerStats --section WarpStateStats --section SourceCounters --section MemoryWorkloadAnalysis"
for tree in main tab; do
  B=./build-prof/tools/mixgemm-bench; [ $tree = tab ] && B=/tmp/tabtree/build-prof/tools/mixgemm-bench
  for ts in e4m3.u4b8.g128 e4m3.u4b8.g64; do
    n=${tree}_$ts
    timeout 120 ncu --clock-control none --kernel-name "regex:^smallm_kernel" --launch-skip 3 --launch-count 1 $S \
      -o $L/prof_$n $B --shape 4096x4096 --m 1 --types $ts --schedule smallm_t8_w8_o1_p0 --no-baselines \
      --iters 5 --warmup 3 --settle-ms 0 --quiet > $L/ncu_$n.log 2>&1
    ncu -i $L/prof_$n.ncu-rep --page details > $L/details_$n.txt 2>&1
    ncu -i $L/prof_$n.ncu-rep --page source --csv --print-source sass > $L/source_$n.csv 2>&1
    ncu -i $L/prof_$n.ncu-rep --page raw --csv > $L/raw_$n.csv 2>&1
    echo "profiled $n at $((SECONDS-T0)) s"
  done
done
python3 scripts/ncu_summary.py --reasons --by-op $L/source_*.csv > $L/summary.txt 2>&1
rm -f $L/*.ncu-rep
(cd /tmp && tar czf $OUT/s45-tabprof.tar.gz s45b)
grep -E "Duration|Issue Slots Busy|Bank Conflicts|Shared.*Excessive|Executed Ipc A" $L/details_*.txt | head -40
cat $L/summary.txt | grep -E "^==|top opcodes|stall reasons" 
echo "done at $((SECONDS-T0)) s"
