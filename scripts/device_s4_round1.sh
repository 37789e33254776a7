#!/usr/bin/env bash
# Session 4, first device call: (1) main's new GPU test at the fused Llama-3-8B shapes
# (the e4m3 batch-1 NaN of the e2e run), (2) the three unmerged branches, each built from
# a patch in its own /tmp tree, tested (GPU suite of its family, memcheck + racecheck) and
# timed against main in the same run. Patches (untracked, travel with the tree):
#   .s4/smallm-overhead.patch   git diff $(git merge-base main wip/smallm-overhead) wip/smallm-overhead
#   .s4/sm90comb.patch          wip/a8-wide-grouped + wip/sm90-256x64 on main
# Everything lands in $OUT/round1.tar.gz; a summary is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}
T0=$SECONDS
R=/tmp/s4r1; rm -rf "$R" /tmp/b-smallm /tmp/b-sm90; mkdir -p "$R" "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$R/gpu.txt" 2>&1
git rev-parse HEAD > "$R/commit.txt" 2>/dev/null

tree_from_patch() {  # $1 dir, $2 patch
  mkdir -p "$1" && tar cf - --exclude='./build*' --exclude='./.s4' . | tar xf - -C "$1" &&
    (cd "$1" && patch -p1 < "$OLDPWD/$2") > "$R/patch-$(basename "$1").log" 2>&1
}
build() {  # $1 src dir, $2 build dir, $3 log, rest: cmake args
  local s=$1 b=$2 log=$3; shift 3
  { cmake -S "$s" -B "$b" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" &&
    cmake --build "$b" -j 16 --target mixgemm_gpu_tests mixgemm-bench; } > "$log" 2>&1
  echo "build $(basename "$b") rc=$? at $((SECONDS-T0)) s, spill lines: $(grep -c 'bytes spill' "$log")"
}
tree_from_patch /tmp/b-smallm .s4/smallm-overhead.patch || echo "smallm patch FAILED"
tree_from_patch /tmp/b-sm90 .s4/sm90comb.patch || echo "sm90 patch FAILED"
build . build "$R/build-main.log" &
build /tmp/b-smallm /tmp/b-smallm/build "$R/build-smallm.log" -DMIXGEMM_SM90_TYPES=f16.u4 &
build /tmp/b-sm90 /tmp/b-sm90/build "$R/build-sm90.log" -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 &
wait

MAIN=./build; BS=/tmp/b-smallm/build; B9=/tmp/b-sm90/build
gt() {  # $1 build, $2 filter, $3 log
  timeout 300 "$1/tests/mixgemm_gpu_tests" --gtest_filter="$2" > "$3" 2>&1
  echo "tests $(basename "$(dirname "$1")")/$2 rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$3" | tr '\n' ' ')"
}
gt $MAIN 'Smallm.W4A8FusedLlamaShapes' "$R/main-fused-shapes.log"
grep -E "FAIL|max|nan|inf" "$R/main-fused-shapes.log" | head -8
gt $BS 'Smallm*:Gemm*' "$R/smallm-tests.log"
gt $B9 'Sm90*:Gemm*' "$R/sm90-tests.log"
for b in $BS $B9; do
  n=$(basename "$(dirname "$b")")
  for tool in memcheck racecheck; do
    timeout 150 compute-sanitizer --tool $tool "$b/tests/mixgemm_gpu_tests" --gtest_filter='*Sanitize*' > "$R/$n-$tool.log" 2>&1
    echo "$n $tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/$n-$tool.log" | tail -1)"
  done
done
echo "checks done at $((SECONDS-T0)) s"

bench() {  # $1 build, $2 csv stem, rest: args
  local b=$1 o=$2; shift 2
  timeout 150 "$b/tools/mixgemm-bench" "$@" --iters 30 --warmup 5 --verify --csv "$R/$o.csv" --json "$R/$o.json" \
    --summary-m none --quiet > "$R/$o.txt" 2>&1
  echo "bench $o rc=$? at $((SECONDS-T0)) s"
}
SM_ARGS=(--shapes llama3-8b,seed,llama2-70b --m 1,8,16 --types f16.u4b8.g128,s8.u4b8.g128 --baselines cublas_fp16)
bench $MAIN smallm-main "${SM_ARGS[@]}"
bench $BS smallm-branch "${SM_ARGS[@]}"
bench $MAIN smallm-main2 --shapes llama3-8b --m 1,16 --types f16.u4b8.g128 --baselines cublas_fp16
for s in 128x128 128x256; do
  bench $B9 a8-$s --shapes seed,llama2-70b --m 1024,4096 --types s8.u4b8.g128,e4m3.u4b8.g128 \
    --schedule sm90_${s}_1x1x1_coop_splitk --baselines cublaslt_fp8 --fp8-promotion-k 0
done
for s in 128x64 256x64; do
  bench $B9 w16-$s --shapes seed,llama2-70b --m 64,128,256 --types f16.u4b8.g128 \
    --schedule sm90_${s}_1x1x1_coop_splitk --baselines cublas_fp16
done
tar czf "$OUT/round1.tar.gz" -C /tmp s4r1
echo "total $((SECONDS-T0)) s"
# Table: shape, M, types, kernel, us (column names from the CSV header).
python3 - "$R" <<'EOF'
import csv, sys, glob, os
R = sys.argv[1]
rows = {}
for f in sorted(glob.glob(R + "/*.csv")):
    stem = os.path.basename(f)[:-4]
    for r in csv.DictReader(open(f)):
        kern = r["type_spec"] if not r["kernel"].startswith("cublas") else r["kernel"]
        key = (r["shape"], r["M"], kern)
        x = r["x_cublas_fp16"] or r["x_cublas_fp8"]
        rows.setdefault(key, []).append(f"{stem}={r['us_median']}({r['schedule'][:22]},x{x},{r['pct_floor']}%,{r['verify']})")
for k, v in rows.items():
    print(*k, " ".join(v))
EOF
