#!/usr/bin/env bash
# Session 71: the 128 x 256 tile's AWQ kernel alone (MIXGEMM_SM90_AWQ_KERNEL=1, unit form off) against the default
# build, CUDA-graph pairs base / awq / awq / base, f16 / bf16 u4 g128 (AWQ: group scales + zero points) at M = 256,
# 1024 on llama3-8b + seed + llama2-70b; then --verify. Builds build-base too if the machine is fresh.
set -u; export PATH=/usr/local/cuda/bin:$PATH; W=/tmp/awq; mkdir -p "$W"; OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
CF=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,f16.u8 -DMIXGEMM_BUILD_PYTHON=OFF -DMIXGEMM_BUILD_TESTS=OFF
    "-DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk,128x256_1x1x1_coop_splitk")
(cmake -S . -B build-awq "${CF[@]}" -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SM90_AWQ_KERNEL=1 && timeout 280 cmake --build build-awq -j 16 --target mixgemm-bench) > "$W/build-awq.log" 2>&1 &
if [ ! -x build-base/tools/mixgemm-bench ]; then
  (cmake -S . -B build-base "${CF[@]}" && timeout 280 cmake --build build-base -j 16 --target mixgemm-bench) > "$W/build-base.log" 2>&1 &
fi
wait; echo "builds done at $SECONDS s"
B=(--no-baselines --settle-ms 0 --summary-m none --quiet --shapes llama3-8b,seed,llama2-70b --types f16.u4.g128,bf16.u4.g128
   --m 256,1024 --iters 30 --warmup 3 --graph-batch 32)
for s in base1:build-base awq1:build-awq awq2:build-awq base2:build-base; do
  n=${s%%:*}; d=${s#*:}
  timeout 100 "$d/tools/mixgemm-bench" "${B[@]}" --csv "$W/$n.csv" > "$W/$n.txt" 2>&1; echo "$n rc=$? at $SECONDS s"
done
timeout 60 build-awq/tools/mixgemm-bench --no-baselines --quiet --shapes llama3-8b,seed --types f16.u4.g128,bf16.u4.g128 \
  --m 256,1024 --iters 3 --warmup 1 --verify --csv "$W/verify.csv" > "$W/verify.txt" 2>&1; echo "verify rc=$?"
python3 - "$W" <<'PY'
import csv, sys, os, math, collections
W = sys.argv[1]
def load(s):
    p = os.path.join(W, s + '.csv')
    if not os.path.exists(p): return {}
    return {(r['shape'], r['type_spec'], r['M']): float(r['us_median']) for r in csv.DictReader(open(p)) if r['kernel'] == 'mixgemm'}
R = collections.defaultdict(list)
for b, c in (('base1', 'awq1'), ('base2', 'awq2')):
    B, C = load(b), load(c)
    for k in B:
        if k in C: R[(k[1], k[2])].append(math.log(C[k] / B[k]))
for k, l in sorted(R.items()):
    print(f'graph {k[0]:14s} M={k[1]:5s} awq/base geomean {math.exp(sum(l) / len(l)):.4f} (min {math.exp(min(l)):.3f}, max {math.exp(max(l)):.3f}) over {len(l)}')
p = os.path.join(W, 'verify.csv')
if os.path.exists(p):
    print('verify:', dict(collections.Counter((r['schedule'][:10], r['status'], r['verify']) for r in csv.DictReader(open(p)) if r['kernel'] == 'mixgemm')))
PY
cd "$W" && tar czf "$OUT/awq.tar.gz" ./*.csv ./*.txt ./*.log 2>/dev/null
echo "total $SECONDS s"
