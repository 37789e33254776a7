#!/usr/bin/env bash
# Session 45 call 5: why the group-runs candidate (.s45/group-runs.patch, 138 instead of 153 SASS instructions per
# row) is not faster in s45-groupruns: ncu of main and the candidate at the seed, M = 1, t8_w4_o4, f16 and s8 g128
# (call 1's settings, so main's rows repeat s45-prof's).
set -u
ROOT=$PWD; T0=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
L=/tmp/s45c; mkdir -p $L $OUT
rm -rf /tmp/grtree && mkdir /tmp/grtree && tar --exclude=./build-prof --exclude=./build-pip --exclude=./build --exclude=./build-r --exclude=./.git -cf - . | tar -xf - -C /tmp/grtree
(cd /tmp/grtree && patch -p1 -s < $ROOT/.s45/group-runs.patch && echo patched)
bld() { cmake -S $1 -B $2 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=e4m3.u4 \
    -DMIXGEMM_SM90_SCHEDULES=256x64_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF && cmake --build $2 -j 8 --target mixgemm-bench; }
bld . build-prof > $L/build-main.log 2>&1 &
bld /tmp/grtree /tmp/grtree/build-prof > $L/build-gr.log 2>&1 &
wait; echo "builds at $((SECONDS-T0)) s"
S="--section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats --section SchedulerStats --section WarpStateStats --section SourceCounters"
for tree in main gr; do
  B=./build-prof/tools/mixgemm-bench; [ $tree = gr ] && B=/tmp/grtree/build-prof/tools/mixgemm-bench
  for ts in f16.u4b8.g128 s8.u4b8.g128; do
    n=${tree}_$ts
    timeout 120 ncu --clock-control none --kernel-name "regex:^smallm_kernel" --launch-skip 3 --launch-count 1 $S \
      -o $L/prof_$n $B --shape 8192x21760 --m 1 --types $ts --schedule smallm_t8_w4_o4_p0 --no-baselines \
      --iters 5 --warmup 3 --settle-ms 0 --quiet > $L/ncu_$n.log 2>&1
    ncu -i $L/prof_$n.ncu-rep --page details > $L/details_$n.txt 2>&1
    ncu -i $L/prof_$n.ncu-rep --page source --csv --print-source sass > $L/source_$n.csv 2>&1
    ncu -i $L/prof_$n.ncu-rep --page raw --csv > $L/raw_$n.csv 2>&1
    echo "profiled $n at $((SECONDS-T0)) s"
  done
done
python3 scripts/ncu_summary.py --reasons --by-op $L/source_*.csv > $L/summary.txt 2>&1
rm -f $L/*.ncu-rep
(cd /tmp && tar czf $OUT/s45-grprof.tar.gz s45c)
grep -E "^ *Duration|Issue Slots Busy|Executed Ipc A" $L/details_*.txt
grep -E "^==|stall reasons" $L/summary.txt
echo "done at $((SECONDS-T0)) s"
