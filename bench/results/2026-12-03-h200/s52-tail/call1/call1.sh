#!/usr/bin/env bash
# Session 52 call 1 (device, repository root, the tree = main + tail.patch uncommitted; carry .s52):
# the last token tile's exact TMA box ("cand", this tree) against main ("base", tail.patch reversed).
# (1) builds: sm90 f16.u4 / s8.u4, every tile; mixgemm-bench for both, mixgemm_gpu_tests for cand.
# (2) each sm90 tile forced (--schedule, so no row split) at M around its token tile: base cand cand base.
# (3) heuristic picks at M off the tile multiples, row split on and off (MIXGEMM_ROW_SPLIT=0):
#     base-on cand-on cand-off base-off base-off cand-off cand-on base-on; cuBLAS fp16 in the first.
# (4) cand: GPU suites Sm90* / GemmApi*, memcheck and racecheck of Sm90Sanitize.*.
# Each step is skipped once the call has run 540 s. Everything in $OUT/s52c1.tar.gz; summary last.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/s52; rm -rf "$R"; mkdir -p "$R"
cp .s52/commit.txt .s52/tail.patch .s52/call1.sh "$R/"
rm -rf /tmp/base && mkdir -p /tmp/base && tar cf - --exclude='./build*' --exclude='./.git' --exclude='./.s52' . | tar xf - -C /tmp/base
(cd /tmp/base && patch -p1 -R < "$R/tail.patch") > "$R/patch.log" 2>&1 || { echo "PATCH FAILED"; cat "$R/patch.log"; exit 3; }
T=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4 -DCMAKE_CUDA_FLAGS=-Xptxas=-v)
( cmake -S /tmp/base -B /tmp/base/build "${T[@]}" && cmake --build /tmp/base/build -j 16 --target mixgemm-bench ) > "$R/build-base.log" 2>&1 || echo "BUILD base FAILED" &
( cmake -S . -B build-s52 "${T[@]}" && cmake --build build-s52 -j 16 --target mixgemm-bench mixgemm_gpu_tests ) > "$R/build-cand.log" 2>&1 || echo "BUILD cand FAILED" &
wait
echo "builds done at $((SECONDS-T0)) s"
for l in base cand; do
  echo "$l sm90 kernels: $(grep -A2 'Function properties for .*sm90_kernel' "$R/build-$l.log" | grep -c 'Used') compiled, with spills: $(grep -A2 'Function properties for .*sm90_kernel' "$R/build-$l.log" | grep -E 'spill stores' | grep -vc ' 0 bytes spill stores')"
done
declare -A B=([base]=/tmp/base/build [cand]=build-s52)
left() { [ $((SECONDS-T0)) -lt 540 ]; }
forced() {  # $1 base|cand $2 run tag
  for s in 128x256:160,256,320,384,448,512,1000 128x128:100,128,160,200,256 256x64:17,24,32,40,48,64 128x64:24,40,64; do
    left || { echo "skip forced $2 ${s%%:*}"; continue; }
    timeout 90 "${B[$1]}/tools/mixgemm-bench" --shapes seed,llama2-70b --m ${s#*:} --types f16.u4b8.g128,s8.u4b8.g128 \
      --schedule sm90_${s%%:*}_1x1x1_coop_splitk --no-baselines --iters 20 --warmup 3 $3 \
      --csv "$R/forced-$2-${s%%:*}.csv" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet > "$R/forced-$2-${s%%:*}.txt" 2>&1
    echo "forced $2 ${s%%:*} rc=$? at $((SECONDS-T0)) s"
  done
}
forced base base1 --verify; forced cand cand1 --verify; forced cand cand2 ""; forced base base2 ""
heur() {  # $1 base|cand $2 tag $3 row split 1|0 $4 extra
  left || { echo "skip heur $2"; return; }
  MIXGEMM_ROW_SPLIT=$3 timeout 90 "${B[$1]}/tools/mixgemm-bench" --shapes seed,llama2-70b --m 48,160,200,300,320,448,640,1000 \
    --types f16.u4b8.g128,s8.u4b8.g128 --iters 20 --warmup 3 $4 \
    --csv "$R/heur-$2.csv" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet > "$R/heur-$2.txt" 2>&1
  echo "heur $2 rc=$? at $((SECONDS-T0)) s"
}
heur base on-base1 1 "--baselines cublas_fp16 --lt-algos 4"; heur cand on-cand1 1 --no-baselines
heur cand off-cand1 0 --no-baselines; heur base off-base1 0 --no-baselines
heur base off-base2 0 --no-baselines; heur cand off-cand2 0 --no-baselines
heur cand on-cand2 1 --no-baselines; heur base on-base2 1 --no-baselines
if left; then
  timeout 150 build-s52/tests/mixgemm_gpu_tests --gtest_filter='Sm90*:GemmApi*:-Sm90Timing.*:*Sanitize*' > "$R/tests-cand.log" 2>&1
  echo "tests cand rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-cand.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
fi
for tool in memcheck racecheck; do
  left || { echo "skip $tool"; continue; }
  timeout 80 compute-sanitizer --tool $tool build-s52/tests/mixgemm_gpu_tests --gtest_filter='Sm90Sanitize.*' > "$R/cand-$tool.log" 2>&1
  echo "cand $tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/cand-$tool.log" | tail -1) at $((SECONDS-T0)) s"
done
tar czf "$OUT/s52c1.tar.gz" -C /tmp s52
python3 .s52/summary1.py "$R" | tee "$R/summary.txt"
cp "$R/summary.txt" "$OUT/"
echo "call total $((SECONDS-T0)) s"
