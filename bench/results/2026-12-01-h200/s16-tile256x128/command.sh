#!/usr/bin/env bash
# Session 16: the 256 x 128 tile (two m64 atoms per consumer warpgroup, 128 tokens) against
# 128 x 128 and 128 x 256, f16/bf16 x u4b8, g128 and per-channel, each schedule forced.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; T0=$SECONDS
git rev-parse HEAD > "$OUT/commit.txt" 2>/dev/null || cp .s16/commit.txt "$OUT/commit.txt"
( cmake -S . -B build-t -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4 -DCMAKE_CUDA_FLAGS=-Xptxas=-v &&
  cmake --build build-t -j 16 --target mixgemm_gpu_tests mixgemm-bench ) > /tmp/build.log 2>&1 || echo "BUILD FAILED"
grep -A2 'Function properties for .*sm90_kernel' /tmp/build.log > "$OUT/ptxas.txt"
echo "build done at $((SECONDS-T0)) s"
timeout 200 build-t/tests/mixgemm_gpu_tests --gtest_filter='Sm90.W4W8A16_F16:Sm90.W4W8A16_BF16:Sm90.TailSplit:Sm90.StreamK:Sm90Sanitize.*' > "$OUT/tests.log" 2>&1
echo "tests rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/tests.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool build-t/tests/mixgemm_gpu_tests --gtest_filter='Sm90Sanitize.*' > "$OUT/$tool.log" 2>&1
  echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$tool.log" | tail -1)"
done
for s in 128x128 256x128 128x256 256x64; do
  timeout 120 build-t/tools/mixgemm-bench --shapes seed,llama2-70b --m ${MS:-64,128,192,256,384,512,1024} \
    --types f16.u4b8.g128,f16.u4b8.gch,bf16.u4b8.g128 --baselines cublas_fp16 --iters 20 --warmup 3 \
    --schedule sm90_${s}_1x1x1_coop_splitk --csv "$OUT/s$s.csv" --git-commit "$(cat "$OUT/commit.txt")" \
    --summary-m none --quiet > "$OUT/s$s.txt" 2>&1
  echo "bench $s rc=$? at $((SECONDS-T0)) s"
done
python3 - "$OUT" <<'PY'
import csv, sys, glob, os
rows = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "s*.csv"))):
    for r in csv.DictReader(open(f)):
        if r["kernel"] != "mixgemm" or not r["us_median"]: continue
        rows.setdefault((r["shape"], r["type_spec"], int(r["M"])), {})[r["schedule"].split("_")[1]] = (float(r["us_median"]), r["x_cublas_fp16"])
tiles = ["128x128", "256x128", "128x256", "256x64"]
print("shape type M " + " ".join(tiles) + "  (us, x cuBLAS fp16)")
for k in sorted(rows):
    print(k[0], k[1], k[2], "  ".join(f"{rows[k][t][0]:.1f}({rows[k][t][1]})" if t in rows[k] else "-" for t in tiles))
PY
echo "total $((SECONDS-T0)) s"
