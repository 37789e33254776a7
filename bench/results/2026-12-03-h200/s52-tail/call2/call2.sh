#!/usr/bin/env bash
# Session 52 call 2 (device, repository root, the tree = main + tailz.patch uncommitted; carry .s52):
# "z": the last token tile's exact TMA box after one full-box (zero-filling) load per stage, against
# main ("base", tailz.patch reversed). Call 1 measured the exact box alone ("v1", tail.patch).
# (1) builds: base sm90 f16.u4 / s8.u4 (bench); z f16 / bf16 / s8 / e4m3 x u4 (bench + GPU tests).
# (2) z: GPU suites Sm90* / GemmApi*, memcheck and racecheck of Sm90Sanitize.*.
# (3) forced tiles at M around their token tiles: base z z base (f16 / s8 g128, seed + Llama-2-70B).
# (4) z, heuristic picks, row split on / off (MIXGEMM_ROW_SPLIT=0): on off off on, cuBLAS fp16 in the first.
# Steps skipped after 560 s. Everything in $OUT/s52c2.tar.gz; summary last.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/s52; rm -rf "$R"; mkdir -p "$R"
cp .s52/commit.txt .s52/tailz.patch .s52/call2.sh "$R/"
rm -rf /tmp/base && mkdir -p /tmp/base && tar cf - --exclude='./build*' --exclude='./.git' --exclude='./.s52' . | tar xf - -C /tmp/base
(cd /tmp/base && patch -p1 -R < "$R/tailz.patch") > "$R/patch.log" 2>&1 || { echo "PATCH FAILED"; cat "$R/patch.log"; exit 3; }
T=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_FLAGS=-Xptxas=-v)
( cmake -S /tmp/base -B /tmp/base/build "${T[@]}" -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4 && cmake --build /tmp/base/build -j 16 --target mixgemm-bench ) > "$R/build-base.log" 2>&1 || echo "BUILD base FAILED" &
( cmake -S . -B build-s52 "${T[@]}" -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 && cmake --build build-s52 -j 16 --target mixgemm-bench mixgemm_gpu_tests ) > "$R/build-z.log" 2>&1 || echo "BUILD z FAILED" &
wait
echo "builds done at $((SECONDS-T0)) s"
for l in base z; do
  echo "$l sm90 kernels: $(grep -A2 'Function properties for .*sm90_kernel' "$R/build-$l.log" | grep -c 'Used') compiled, with spills: $(grep -A2 'Function properties for .*sm90_kernel' "$R/build-$l.log" | grep -E 'spill stores' | grep -vc ' 0 bytes spill stores'), C751x: $(grep -c 'C751[0-5]' "$R/build-$l.log")"
done
left() { [ $((SECONDS-T0)) -lt 560 ]; }
timeout 150 build-s52/tests/mixgemm_gpu_tests --gtest_filter='Sm90*:GemmApi*:-Sm90Timing.*:*Sanitize*' > "$R/tests-z.log" 2>&1
echo "tests z rc=$?: $(grep -E '^\[  (PASSED|FAILED)|^\[  SKIPPED' "$R/tests-z.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool build-s52/tests/mixgemm_gpu_tests --gtest_filter='Sm90Sanitize.*' > "$R/z-$tool.log" 2>&1
  echo "z $tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/z-$tool.log" | tail -1) at $((SECONDS-T0)) s"
done
declare -A B=([base]=/tmp/base/build [z]=build-s52)
forced() {  # $1 base|z $2 run tag
  for s in 128x256:160,320,384,512 128x128:160,200,256 256x64:17,24,64; do
    left || { echo "skip forced $2 ${s%%:*}"; continue; }
    timeout 60 "${B[$1]}/tools/mixgemm-bench" --shapes seed,llama2-70b --m ${s#*:} --types f16.u4b8.g128,s8.u4b8.g128 \
      --schedule sm90_${s%%:*}_1x1x1_coop_splitk --no-baselines --iters 20 --warmup 3 \
      --csv "$R/forced-$2-${s%%:*}.csv" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet > "$R/forced-$2-${s%%:*}.txt" 2>&1
    echo "forced $2 ${s%%:*} rc=$? at $((SECONDS-T0)) s"
  done
}
forced base base1; forced z z1; forced z z2; forced base base2
heur() {  # $1 tag $2 row split 1|0 $3 extra
  left || { echo "skip heur $1"; return; }
  MIXGEMM_ROW_SPLIT=$2 timeout 60 build-s52/tools/mixgemm-bench --shapes seed,llama2-70b --m 160,200,300,320,448,640,1000 \
    --types f16.u4b8.g128,s8.u4b8.g128 --iters 20 --warmup 3 $3 \
    --csv "$R/heur-$1.csv" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet > "$R/heur-$1.txt" 2>&1
  echo "heur $1 rc=$? at $((SECONDS-T0)) s"
}
heur on-z1 1 "--baselines cublas_fp16 --lt-algos 4"; heur off-z1 0 --no-baselines; heur off-z2 0 --no-baselines; heur on-z2 1 --no-baselines
tar czf "$OUT/s52c2.tar.gz" -C /tmp s52
python3 .s52/summary2.py "$R" > "$R/summary.txt" 2>&1
cp "$R/summary.txt" "$OUT/"
grep -v "^  " "$R/summary.txt"; grep "geomean" -A40 "$R/summary.txt" | head -60
echo "call total $((SECONDS-T0)) s"
