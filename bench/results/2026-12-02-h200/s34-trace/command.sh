#!/usr/bin/env bash
# Session 34 call 2: the sm90 timeline at M = 128 / 256 / 512 (main + the finer trace marks of this session, a
# -DMIXGEMM_SM90_TRACE build): f16 / s8 u4b8 g128 on seed and the Llama-2-70B layers, heuristic picks; the 10th
# launch of every key traced (warm-up, settle off), every CTA's marks in trace.txt; medians / max by
# scripts/sm90_trace_summary.py. The same rows event-timed by the same binary (bench.csv).
S=.s34
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; L=/tmp/s34logs2; rm -rf $L; mkdir -p $L
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
cmake -S . -B build-tr -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4 \
  -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SM90_TRACE > $L/build.log 2>&1 && cmake --build build-tr -j 16 --target mixgemm-bench >> $L/build.log 2>&1 \
  || { tail -30 $L/build.log; exit 2; }
echo "build $((SECONDS - T0)) s"
MIXGEMM_SM90_TRACE_FILE=$L/trace.txt timeout 200 build-tr/tools/mixgemm-bench --shapes seed,llama2-70b --tp 1 --m 128,256,512 \
  --types f16.u4b8.g128,s8.u4b8.g128 --no-baselines --iters 20 --warmup 10 --settle-ms 0 --summary-m none \
  --csv $L/bench.csv --git-commit "$(cat $S/commit.txt)" > $L/bench.txt 2> $L/bench.stderr.log
echo "bench rc=$? at $((SECONDS - T0)) s, $(wc -l < $L/trace.txt) trace lines"
python3 scripts/sm90_trace_summary.py $L/trace.txt > $L/summary.txt 2>&1
cut -c1-60,71- $L/summary.txt | sed 's/sm90_\([0-9x]*\)_1x1x1_coop_splitk/\1/'
gzip $L/build.log $L/trace.txt
cp $S/call2.sh $L/command.sh; cp $S/commit.txt $L/
tar czf $OUT/s34-call2.tgz -C $L .
echo "total $((SECONDS - T0)) s"
