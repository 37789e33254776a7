#!/usr/bin/env bash
# Session 25, call 3: main's smallm kernels with and without weight traffic (abl1: no bulk copies,
# no row waits; results wrong by construction, so no --verify), M = 1 / 8, f16 x u4b8 g128.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; T0=$SECONDS; R=/tmp/s25abl; rm -rf "$R"; mkdir -p "$R"
cp .s25/commit.txt .s25/abl.sh .s25/abl1.patch "$R/"
rm -rf /tmp/abl && mkdir -p /tmp/abl && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/abl && (cd /tmp/abl && patch -p1 < "$R/abl1.patch") > "$R/patch.log" 2>&1 || echo "PATCH FAILED"
T=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk)
( cmake -S . -B build-main "${T[@]}" && cmake --build build-main -j 8 --target mixgemm-bench ) > "$R/build-main.log" 2>&1 || echo "BUILD main FAILED" &
( cmake -S /tmp/abl -B /tmp/abl/build "${T[@]}" -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_ABLATE=1 && cmake --build /tmp/abl/build -j 8 --target mixgemm-bench ) > "$R/build-abl1.log" 2>&1 || echo "BUILD abl1 FAILED" &
wait
echo "builds done at $((SECONDS-T0)) s"
bench() {  # $1 build, $2 stem
  timeout 100 "$1/tools/mixgemm-bench" --shapes llama3-8b,seed,llama2-70b --m 1,8 \
    --types f16.u4b8.g128 --baselines cublas_fp16 --iters 30 --warmup 5 \
    --csv "$R/$2.csv" --json "$R/$2.json" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet > "$R/$2.txt" 2>&1
  echo "bench $2 rc=$? at $((SECONDS-T0)) s"
}
bench build-main main; bench /tmp/abl/build abl1; bench /tmp/abl/build abl1b; bench build-main main2
gzip -f "$R"/*.json; tar czf "$OUT/abl.tar.gz" -C /tmp s25abl
python3 - "$R" <<'PY'
import csv, sys, os
R = sys.argv[1]
def load(s):
    p = os.path.join(R, s + ".csv")
    if not os.path.exists(p): return {}
    return {(r["shape"], r["M"]): (float(r["us_median"]), float(r["floor_us"])) for r in csv.DictReader(open(p)) if r["kernel"] == "mixgemm" and r["us_median"]}
a, b, c, d = load("main"), load("main2"), load("abl1"), load("abl1b")
for k in sorted(a):
    if k in b and k in c and k in d:
        print(f"{k[0]:22s} M={k[1]:2s} floor {a[k][1]:6.2f} main {(a[k][0]+b[k][0])/2:7.2f} no-weight-traffic {(c[k][0]+d[k][0])/2:7.2f}")
PY
echo "total $((SECONDS-T0)) s"
