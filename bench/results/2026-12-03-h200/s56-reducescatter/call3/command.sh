#!/usr/bin/env bash
# Session 56 call 3: the sm90 timeline of the narrow tiles at M = 32 / 64 / 128 (-DMIXGEMM_SM90_TRACE builds of main
# and of main + .s56/rs.patch): f16 / s8 u4b8 g128 on seed and the Llama-2-70B layers, heuristic picks; the 10th
# launch of every key traced (warm-up, settle off), every CTA's marks in trace-*.txt; medians / max by
# scripts/sm90_trace_summary.py. Question: how long the split-K tail (partial store, ticket, reduction, staging)
# takes after the mainloop on 256 x 64 / 128 x 128, with the last-arriver reduction and with reduce-scatter.
S=.s56
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; L=/tmp/s56logs3; rm -rf $L; mkdir -p $L
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
rm -rf /tmp/rs && mkdir -p /tmp/rs && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/rs
(cd /tmp/rs && patch -p1 --forward < $OLDPWD/$S/rs.patch) > $L/patch.log 2>&1 || { cat $L/patch.log; exit 3; }
for v in base rs; do
  src=.; [ $v = rs ] && src=/tmp/rs
  ( cmake -S $src -B /tmp/build-tr-$v -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4 -DMIXGEMM_BUILD_PYTHON=OFF \
      -DMIXGEMM_BUILD_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SM90_TRACE && cmake --build /tmp/build-tr-$v -j 16 --target mixgemm-bench ) > $L/build-$v.log 2>&1 &
done
wait
echo "builds $((SECONDS - T0)) s"
for v in base rs; do
  MIXGEMM_PRINT_CONFIG=1 MIXGEMM_SM90_TRACE_FILE=$L/trace-$v.txt timeout 200 /tmp/build-tr-$v/tools/mixgemm-bench --shapes seed,llama2-70b --tp 1 --m 32,64,128 \
    --types f16.u4b8.g128,s8.u4b8.g128 --no-baselines --iters 20 --warmup 10 --settle-ms 0 --summary-m none \
    --csv $L/bench-$v.csv --git-commit "$(cat $S/commit.txt)" > $L/bench-$v.txt 2> $L/bench-$v.stderr.log
  echo "bench $v rc=$? at $((SECONDS - T0)) s, $(wc -l < $L/trace-$v.txt) trace lines"
  python3 scripts/sm90_trace_summary.py $L/trace-$v.txt > $L/summary-$v.txt 2>&1
done
grep -h "sm90" $L/bench-base.stderr.log | sort -u | head -40 > $L/picks.txt
gzip $L/build-*.log $L/trace-*.txt
cp $S/call3.sh $L/command.sh; cp $S/commit.txt $S/rs.patch $L/
tar czf $OUT/s56-call3.tgz -C $L .
for v in base rs; do echo "== $v"; grep " med " $L/summary-$v.txt | awk '{printf "%s %s %s %s %s", $1,$2,$4,$6,$8; for(i=NF-15;i<=NF;i++) printf " %s", $i; print ""}' | sed 's/sm90_\([0-9x]*\)_1x1x1_coop_splitk/\1/' | cut -c1-220; done
echo "total $((SECONDS - T0)) s"
