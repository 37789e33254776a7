#!/usr/bin/env bash
# Session 15, call 3: is the s8 g128 wide tile's extra time in the group-scale values themselves?
# Two trees: gptq (main + the s8 GPTQ kernel) and sg1 (the same, group scale forced to 1 in the
# fixed-variant s8 conversion: the int8 weights are q - 8 as in per-channel; results wrong, timing only).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; R=/tmp/exp; rm -rf $R; mkdir -p $R; T0=$SECONDS
T=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=s8.u4 -DMIXGEMM_SM90_SCHEDULES=128x256_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF)
for v in gptq sg1 sgmin; do
  rm -rf /tmp/$v; mkdir -p /tmp/$v
  tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/$v
  (cd /tmp/$v && patch -p1 < .s15/$v.patch) > $R/patch-$v.log 2>&1 || echo "PATCH $v FAILED"
  ( cmake -S /tmp/$v -B /tmp/$v/build "${T[@]}" && cmake --build /tmp/$v/build -j 8 --target mixgemm-bench ) > $R/build-$v.log 2>&1 &
done
wait; echo "builds $((SECONDS-T0)) s"
for pass in 1 2; do for v in gptq sg1 sgmin; do
  timeout 120 /tmp/$v/build/tools/mixgemm-bench --shapes seed,llama2-70b --m 1024,8192 --types s8.u4b8.g128,s8.u4b8.gch \
    --no-baselines --iters 20 --warmup 3 --csv $R/$v-$pass.csv --summary-m none --quiet > $R/$v-$pass.txt 2>&1
  echo "bench $v $pass rc=$? $((SECONDS-T0)) s"
done; done
cp .s15/*.patch .s15/exp_sg1.sh $R/; tar czf $OUT/exp.tar.gz -C /tmp exp
python3 - $R <<'PY'
import csv,sys,os
R=sys.argv[1]; d={}
for v in ["gptq","sg1","sgmin"]:
  for p in [1,2]:
    for r in csv.DictReader(open(f'{R}/{v}-{p}.csv')):
      if r['kernel']=='mixgemm' and r['us_median']: d.setdefault((r['shape'],r['M'],r['type_spec'],v),[]).append(float(r['us_median']))
keys=sorted({k[:3] for k in d})
for k in keys:
  m={v:sum(d.get(k+(v,),[0]))/max(1,len(d.get(k+(v,),[0]))) for v in ['gptq','sg1','sgmin']}
  print(f"{k[0]:20s} M={k[1]:5s} {k[2]:14s} gptq {m['gptq']:9.1f} sg1 {m['sg1']:9.1f} ({m['sg1']/m['gptq']:.3f}) sgmin {m['sgmin']:9.1f} ({m['sgmin']/m['gptq']:.3f})")
PY
echo "total $((SECONDS-T0)) s"
