#!/usr/bin/env bash
# Session 25, call 4: does the staging depth bound the decode loop? main and the offset-folded
# branch (fold.patch = git diff main wip/smallm-fold), each with 2 (default) and 3 activation /
# scale stages for the 8-row chunks (-DMIXGEMM_SMALLM_STAGES_CK8=3), M = 1 / 8, f16 x u4b8 g128, verified.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; T0=$SECONDS; R=/tmp/s25st3; rm -rf "$R"; mkdir -p "$R"
cp .s25/commit.txt .s25/st3.sh .s25/fold.patch "$R/"
rm -rf /tmp/fold && mkdir -p /tmp/fold && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/fold && (cd /tmp/fold && patch -p1 < "$R/fold.patch") > "$R/patch.log" 2>&1 || echo "PATCH FAILED"
T=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk)
bld() { local s=$1 d=$2 l=$3; shift 3; ( cmake -S "$s" -B "$d" "${T[@]}" "$@" && cmake --build "$d" -j 6 --target mixgemm-bench ) > "$R/$l" 2>&1 || echo "BUILD $l FAILED"; }
bld . build-main-st3 build-main-st3.log -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_STAGES_CK8=3 &
bld /tmp/fold /tmp/fold/build build-fold.log &
bld /tmp/fold /tmp/fold/build-st3 build-fold-st3.log -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_STAGES_CK8=3 &
( cmake --build build-main -j 2 --target mixgemm-bench ) > "$R/build-main.log" 2>&1 &
wait
echo "builds done at $((SECONDS-T0)) s"
bench() {  # $1 build, $2 stem
  timeout 100 "$1/tools/mixgemm-bench" --shapes llama3-8b,seed,llama2-70b --m 1,8 \
    --types f16.u4b8.g128 --baselines cublas_fp16 --iters 30 --warmup 5 --verify \
    --csv "$R/$2.csv" --json "$R/$2.json" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet > "$R/$2.txt" 2>&1
  echo "bench $2 rc=$? at $((SECONDS-T0)) s: $(grep -h '^verify' "$R/$2.txt" | tr '\n' ' ')"
}
bench build-main main; bench build-main-st3 main_st3; bench /tmp/fold/build fold; bench /tmp/fold/build-st3 fold_st3
bench /tmp/fold/build-st3 fold_st3b; bench /tmp/fold/build fold_b; bench build-main-st3 main_st3b; bench build-main main_b
gzip -f "$R"/*.json; tar czf "$OUT/st3.tar.gz" -C /tmp s25st3
python3 - "$R" <<'PY'
import csv, sys, os, math
R = sys.argv[1]
def load(s):
    p = os.path.join(R, s + ".csv")
    if not os.path.exists(p): return {}
    return {(r["shape"], r["M"]): float(r["us_median"]) for r in csv.DictReader(open(p)) if r["kernel"] == "mixgemm" and r["us_median"]}
V = {v: (load(v), load(v + ("b" if v.endswith("st3") else "_b"))) for v in ("main", "main_st3", "fold", "fold_st3")}
keys = sorted(set.intersection(*[set(a) & set(b) for a, b in V.values()]))
mean = lambda v, k: (V[v][0][k] + V[v][1][k]) / 2
for M in ("1", "8"):
    for v in ("main_st3", "fold", "fold_st3"):
        l = [math.log(mean(v, k) / mean("main", k)) for k in keys if k[1] == M]
        print(f"{v}/main geomean M={M}: {math.exp(sum(l)/len(l)):.4f} over {len(l)}")
for k in keys:
    if k[1] == "1": print(f"{k[0]:22s} main {mean('main',k):7.2f} main_st3 {mean('main_st3',k):7.2f} fold {mean('fold',k):7.2f} fold_st3 {mean('fold_st3',k):7.2f}")
PY
echo "total $((SECONDS-T0)) s"
