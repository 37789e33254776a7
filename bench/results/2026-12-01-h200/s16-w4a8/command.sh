#!/usr/bin/env bash
# Session 16: (1) the sm90 sanitizer cases on every type config (full sm90 build of this tree),
# memcheck + racecheck; (2) W4A8 against its bars on this tree (seed + Llama-2-70B,
# M = 256..8192, s8/e4m3 x u4b8 g128/per-channel, cuBLAS fp16 + cuBLASLt fp8, verified).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; T0=$SECONDS; R=/tmp/r; rm -rf $R; mkdir -p $R
cp .s16/commit.txt $R/commit.txt
( cmake -S . -B build-all -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=OFF -DCMAKE_CUDA_FLAGS=-Xptxas=-v &&
  cmake --build build-all -j 16 --target mixgemm_gpu_tests mixgemm-bench ) > $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
echo "build $((SECONDS-T0)) s"
timeout 120 build-all/tests/mixgemm_gpu_tests --gtest_filter='Sm90Sanitize.*' > $R/sanitize-plain.log 2>&1
echo "plain rc=$?: $(grep -E '^\[  (PASSED|FAILED)' $R/sanitize-plain.log | tr '\n' ' ') $((SECONDS-T0)) s"
for tool in memcheck racecheck; do
  timeout 240 compute-sanitizer --tool $tool build-all/tests/mixgemm_gpu_tests --gtest_filter='Sm90Sanitize.*' > $R/$tool.log 2>&1
  echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$tool.log | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $R/$tool.log | tr '\n' ' ') $((SECONDS-T0)) s"
done
timeout 300 build-all/tools/mixgemm-bench --shapes seed,llama2-70b --m 256,1024,2048,4096,8192 \
  --types s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128,e4m3.u4b8.gch --baselines cublas_fp16,cublaslt_fp8 \
  --iters 30 --warmup 5 --verify --csv $R/w4a8.csv --json $R/w4a8.json --git-commit "$(cat $R/commit.txt)" \
  --summary-m none --quiet > $R/w4a8.txt 2>&1
echo "bench rc=$? $((SECONDS-T0)) s"
python3 - $R/w4a8.csv <<'PY'
import csv,sys
rows=[r for r in csv.DictReader(open(sys.argv[1])) if r['kernel']=='mixgemm' and r['us_median']]
print('verify:', sum(r['verify']=='pass' for r in rows), 'pass of', len(rows))
for t in ['s8.u4b8.g128','s8.u4b8.gch','e4m3.u4b8.g128','e4m3.u4b8.gch']:
  big=[r for r in rows if r['type_spec']==t and int(r['M'])>=1024]
  met=sum(float(r['x_cublas_fp8'])>=0.9 for r in big)
  print(f"{t}: M>=1024 x fp8 >= 0.9 at {met} of {len(big)}; range {min(float(r['x_cublas_fp8']) for r in big):.3f}-{max(float(r['x_cublas_fp8']) for r in big):.3f};",
        "M=256 x fp16:", ' '.join(f"{r['shape'].split('/')[-1]}={float(r['x_cublas_fp16']):.2f}" for r in rows if r['type_spec']==t and r['M']=='256'))
PY
grep -A2 'Function properties for .*sm90_kernel' $R/build.log | grep -c Used | sed 's/^/sm90 kernels: /'
grep -A2 'Function properties for .*sm90_kernel' $R/build.log | grep 'spill stores' | grep -vc ' 0 bytes spill stores' | sed 's/^/with spills: /'
tar czf $OUT/w4a8bar.tar.gz -C /tmp r
echo "total $((SECONDS-T0)) s"
