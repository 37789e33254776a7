#!/usr/bin/env bash
# For the next session's first device call: the three unmerged smallm experiments against
# main, in one run. Patches (untracked or carried, e.g. in .s6/):
#   git diff main...wip/smallm-pdl            > .s6/pdl.patch
#   git diff main...wip/smallm-cta-fence      > .s6/fence.patch
#   git diff main...wip/smallm-variant-kernels > .s6/variant.patch
# device run: bash scripts/device_s6_branches.sh   (carry .s6)
# (1) each branch's smallm/Gemm GPU tests (the PDL tree's with MIXGEMM_PDL=1: every smallm
#     launch then depends programmatically on the kernel before it), sanitizers for the PDL tree;
# (2) bench main / fence / variant / pdl(MIXGEMM_PDL=1) / main again, heuristic picks, f16 x
#     u4b8 g128, Llama-3-8B layers + seed + Llama-2-70B, M = 1/8/16;
# (3) e2e compiled harness, fp16 + w4a16, batch 1, main vs the PDL tree with MIXGEMM_PDL=1.
# Everything lands in $OUT/s6.tar.gz; a summary is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/s6; rm -rf "$R"; mkdir -p "$R"
git rev-parse HEAD > "$R/commit.txt" 2>/dev/null
for t in pdl fence variant; do
  rm -rf /tmp/$t && mkdir -p /tmp/$t && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/$t &&
    (cd /tmp/$t && patch -p1 < .s6/$t.patch) > "$R/patch-$t.log" 2>&1 || echo "PATCH $t FAILED"
done
T=(-DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk)
b() {  # $1 src, $2 build, $3 log, rest: cmake args
  local s=$1 d=$2 l=$3; shift 3
  ( cmake -S "$s" -B "$d" -G Ninja -DCMAKE_BUILD_TYPE=Release "${T[@]}" "$@" && cmake --build "$d" -j 16 ) > "$l" 2>&1
}
b . build-s6 "$R/build-main.log" -DMIXGEMM_BUILD_PYTHON=ON &
b /tmp/pdl /tmp/pdl/build "$R/build-pdl.log" -DMIXGEMM_BUILD_PYTHON=ON &
b /tmp/fence /tmp/fence/build "$R/build-fence.log" &
b /tmp/variant /tmp/variant/build "$R/build-variant.log" &
wait
echo "builds done at $((SECONDS-T0)) s"
F='Smallm.W4A16_F16:Smallm.W4A16_BF16:Smallm.W4A8_S8:Smallm.W4A8_E4M3:Smallm.StreamShapes:Smallm.RealShape:Smallm.GraphReplay:GemmApi.*'
for t in fence variant pdl; do
  env $([ $t = pdl ] && echo MIXGEMM_PDL=1) timeout 150 /tmp/$t/build/tests/mixgemm_gpu_tests --gtest_filter="$F" > "$R/tests-$t.log" 2>&1
  echo "tests $t rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-$t.log" | tr '\n' ' ')"
done
for tool in memcheck racecheck; do
  MIXGEMM_PDL=1 timeout 100 compute-sanitizer --tool $tool /tmp/pdl/build/tests/mixgemm_gpu_tests --gtest_filter='*Sanitize*' > "$R/pdl-$tool.log" 2>&1
  echo "pdl $tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/pdl-$tool.log" | tail -1)"
done
bench() {  # $1 build, $2 stem
  timeout 90 "$1/tools/mixgemm-bench" --shapes llama3-8b,seed,llama2-70b --m 1,8,16 --types f16.u4b8.g128 \
    --baselines cublas_fp16 --iters 30 --warmup 5 --verify --csv "$R/$2.csv" --summary-m none --quiet > "$R/$2.txt" 2>&1
  echo "bench $2 rc=$? at $((SECONDS-T0)) s"
}
bench build-s6 main; bench /tmp/fence/build fence; bench /tmp/variant/build variant
MIXGEMM_PDL=1 bench /tmp/pdl/build pdl; bench build-s6 main2
e2e() {  # $1 python dir, $2 stem
  PYTHONPATH=$1 PYTHONUNBUFFERED=1 timeout 200 python3 examples/llama_decode.py --models llama3-8b --new-tokens 32 \
    --batches 1 --mode compile --variants fp16,w4a16 --out "$R/$2.csv" > "$R/$2.log" 2>&1
  echo "e2e $2 rc=$?: $(grep -E '^\[e2e\].*batch' "$R/$2.log" | tr -s ' ' | cut -c1-200 | tr '\n' ';')"
}
e2e build-s6/python e2e-main
MIXGEMM_PDL=1 e2e /tmp/pdl/build/python e2e-pdl
tar czf "$OUT/s6.tar.gz" -C /tmp s6
python3 - "$R" <<'PY'
import csv, sys, os
R = sys.argv[1]
runs = {}
for s in ("main", "fence", "variant", "pdl", "main2"):
    p = os.path.join(R, s + ".csv")
    runs[s] = {(r["shape"], r["M"]): r["us_median"] for r in csv.DictReader(open(p)) if r["kernel"] == "mixgemm"} if os.path.exists(p) else {}
print("shape M " + " ".join(runs))
for k in sorted(runs["main"]):
    print(f"{k[0]:20s} {k[1]:>2s} " + " ".join(f"{runs[s].get(k, '-'):>8s}" for s in runs))
PY
echo "total $((SECONDS-T0)) s"
