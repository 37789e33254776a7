#!/usr/bin/env bash
# Session 36 call 4: Nsight Compute on the 128 x 256 e4m3 g128 launch of Llama-2-70B o at M = 256, main against the
# cluster-exchange kernel (pair2.patch), whose mainloop runs ~15% longer with the same block-loop SASS.
S=${S:-.s36}
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH
L=/tmp/ncu36; rm -rf $L; mkdir -p $L
T0=$SECONDS
for v in 0 1; do
  d=/tmp/n$v; rm -rf $d && mkdir -p $d && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C $d
  [ $v = 1 ] && (cd $d && patch -p1 < $S/pair2.patch > /dev/null)
  ( cmake -S $d -B $d/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=e4m3.u4 -DMIXGEMM_BUILD_TESTS=OFF && \
    cmake --build $d/build -j 16 --target mixgemm-bench ) > $L/build-$v.log 2>&1 &
done
wait
echo "builds $((SECONDS - T0)) s"
SECTIONS="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section SchedulerStats --section WarpStateStats --section LaunchStats --section Occupancy --section SourceCounters"
for v in 0 1; do
  timeout 150 ncu --clock-control none --kernel-name regex:sm90_kernel --launch-skip 3 --launch-count 1 $SECTIONS \
    -o $L/prof_v$v /tmp/n$v/build/tools/mixgemm-bench --shape 8192x8192 --m 256 --types e4m3.u4b8.g128 --no-baselines \
    --iters 5 --warmup 3 --settle-ms 0 --quiet > $L/ncu_v$v.log 2>&1
  ncu -i $L/prof_v$v.ncu-rep --page details > $L/details_v$v.txt 2>&1
  ncu -i $L/prof_v$v.ncu-rep --page raw --csv 2>/dev/null | gzip > $L/raw_v$v.csv.gz
  ncu -i $L/prof_v$v.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip > $L/source_v$v.csv.gz
  echo "profiled v$v $((SECONDS - T0)) s"
done
tar czf $OUT/ncu36.tar.gz -C /tmp ncu36
for v in 0 1; do echo "== v$v"; grep -E "Function Name|Duration|Cluster Size|SM Frequency|Compute \(SM\) Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Issue Slots Busy|Issued Ipc Active|No Eligible|Warp Cycles Per Issued|Registers Per|Shared Memory Configuration Size|Dynamic Shared" $L/details_v$v.txt | head -24; done
