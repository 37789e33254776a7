#!/usr/bin/env bash
# Session 15, call 5: W4A8 against its bars on main after the producer change (commit.txt):
# seed + Llama-2-70B, M = 256..8192, s8/e4m3 x u4b8 g128/per-channel, cuBLAS fp16 + cuBLASLt fp8.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; T0=$SECONDS
cmake -S . -B build-w4a8 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=s8.u4,e4m3.u4 -DMIXGEMM_BUILD_TESTS=OFF > $OUT/build.log 2>&1 &&
  cmake --build build-w4a8 -j 16 --target mixgemm-bench >> $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
echo "build $((SECONDS-T0)) s"
timeout 420 build-w4a8/tools/mixgemm-bench --shapes seed,llama2-70b --m 256,1024,2048,4096,8192 \
  --types s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128,e4m3.u4b8.gch --baselines cublas_fp16,cublaslt_fp8 \
  --iters 30 --warmup 5 --verify --csv $OUT/w4a8.csv --json $OUT/w4a8.json --git-commit "$(cat .s15/commit.txt)" \
  --summary-m none --quiet > $OUT/w4a8.txt 2>&1
echo "bench rc=$? $((SECONDS-T0)) s"
python3 - $OUT/w4a8.csv <<'PY'
import csv,sys
rows=[r for r in csv.DictReader(open(sys.argv[1])) if r['kernel']=='mixgemm' and r['us_median']]
print('verify:', sum(r['verify']=='pass' for r in rows), 'pass of', len(rows))
for t in ['s8.u4b8.g128','s8.u4b8.gch','e4m3.u4b8.g128','e4m3.u4b8.gch']:
  big=[r for r in rows if r['type_spec']==t and int(r['M'])>=1024]
  met=sum(float(r['x_cublas_fp8'])>=0.9 for r in big)
  print(f"{t}: M>=1024 x fp8 >= 0.9 at {met} of {len(big)}; range {min(float(r['x_cublas_fp8']) for r in big):.3f}-{max(float(r['x_cublas_fp8']) for r in big):.3f};",
        "M=256 x fp16:", ' '.join(f"{r['shape'].split('/')[-1]}={float(r['x_cublas_fp16']):.2f}" for r in rows if r['type_spec']==t and r['M']=='256'))
PY
