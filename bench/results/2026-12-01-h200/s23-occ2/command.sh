#!/usr/bin/env bash
# Session 23 call 2: the 128 x 64 sm90 tile at two CTAs per SM (o2.patch, branch wip/sm90-occ2) against main.
# Builds both trees (full sm90 instance set), runs the candidate's Sm90*/Gemm* suites and Sm90Sanitize* under
# memcheck / racecheck, then times the forced schedules 128x64 (the changed kernel) and 256x64 (unchanged: control)
# in the order base, o2, o2, base, f16 / s8 / e4m3 x u4b8 g128, M = 32 / 48 / 64 / 128, seed + Llama-2-70B,
# and last the heuristic's picks with cuBLAS fp16 on base for same-run ratios.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
R=/tmp/o2run; rm -rf "$R"; mkdir -p "$R"
cp .s23/commit.txt .s23/o2.patch "$R/"
T=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,f16.u8,bf16.u8,s8.u4,e4m3.u4 -DMIXGEMM_SM90_SCHEDULES=)
for v in base o2; do
  d=/tmp/t-$v; rm -rf "$d"; mkdir -p "$d"; tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C "$d"
  [ $v = o2 ] && (cd "$d" && patch -p1 < "$R/o2.patch") > "$R/patch.log" 2>&1
  ( cmake -S "$d" -B "$d/build" "${T[@]}" && cmake --build "$d/build" -j 16 --target mixgemm-bench mixgemm_gpu_tests ) > "$R/build-$v.log" 2>&1 || echo "BUILD $v FAILED" &
done
wait
echo "builds done at $((SECONDS - T0)) s"
tb=/tmp/t-o2/build/tests/mixgemm_gpu_tests
timeout 150 $tb --gtest_filter='Sm90*:Gemm*' > "$R/tests-o2.log" 2>&1
echo "tests o2 rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-o2.log" | tr '\n' ' ') at $((SECONDS - T0)) s"
for tool in ${SAN_TOOLS:-}; do
  timeout 100 compute-sanitizer --tool $tool $tb --gtest_filter='Sm90Sanitize*' > "$R/o2-$tool.log" 2>&1
  echo "o2 $tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/o2-$tool.log" | tail -1)"
done
bench() {  # $1 variant, $2 run, $3 schedule tag
  local s=$1-$3-$2 sched=sm90_$3_1x1x1_coop_splitk
  timeout 120 /tmp/t-$1/build/tools/mixgemm-bench --shapes seed,llama2-70b --m 32,48,64,128 \
    --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --schedule $sched --no-baselines \
    --iters 20 --warmup 3 --settle-ms 100 --csv "$R/$s.csv" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet > "$R/$s.txt" 2>&1
  echo "bench $s rc=$? at $((SECONDS - T0)) s"
}
for run in 1 2; do
  order=(base o2); [ $run = 2 ] && order=(o2 base)
  for v in "${order[@]}"; do for t in 128x64 256x64; do bench $v $run $t; done; done
done
MIXGEMM_PRINT_CONFIG=1 timeout 150 /tmp/t-base/build/tools/mixgemm-bench --shapes seed,llama2-70b --m 32,48,64,128 \
  --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --baselines cublas_fp16 --iters 20 --warmup 3 --settle-ms 100 \
  --csv "$R/base-heur.csv" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet > "$R/base-heur.txt" 2> "$R/base-heur.err"
echo "bench base-heur rc=$? at $((SECONDS - T0)) s"
tar czf "$OUT/o2run.tar.gz" -C /tmp o2run
python3 - "$R" <<'PY'
import csv, sys, os, math
R = sys.argv[1]
def load(s):
    p = os.path.join(R, s + ".csv")
    if not os.path.exists(p): return {}
    return {(r["shape"], r["type_spec"], int(r["M"])): float(r["us_median"]) for r in csv.DictReader(open(p))
            if r["kernel"] == "mixgemm" and r["us_median"]}
h = {}
p = os.path.join(R, "base-heur.csv")
if os.path.exists(p):
    rows = list(csv.DictReader(open(p)))
    fp16 = {(r["shape"], int(r["M"])): float(r["us_median"]) for r in rows if r["kernel"] == "cublas_fp16" and r["us_median"]}
    h = {(r["shape"], r["type_spec"], int(r["M"])): (float(r["us_median"]), r["schedule"]) for r in rows if r["kernel"] == "mixgemm" and r["us_median"]}
else: fp16 = {}
d = {(v, t): [load(f"{v}-{t}-1"), load(f"{v}-{t}-2")] for v in ("base", "o2") for t in ("128x64", "256x64")}
keys = sorted(set(d[("base", "128x64")][0]))
print(f"{'shape':20s} {'type':15s} {'M':>4s} {'b128x64':>8s} {'o2/b':>6s} {'b256x64':>8s} {'o2run/b':>7s} {'heur':>8s} {'fp16':>7s} {'x16_o2':>6s} {'x16_h':>6s}")
agg = {}
for k in keys:
    try:
        b = (d[("base","128x64")][0][k] + d[("base","128x64")][1][k]) / 2
        o = (d[("o2","128x64")][0][k] + d[("o2","128x64")][1][k]) / 2
        b2 = (d[("base","256x64")][0][k] + d[("base","256x64")][1][k]) / 2
        o2c = (d[("o2","256x64")][0][k] + d[("o2","256x64")][1][k]) / 2
    except KeyError: continue
    hu, hs = h.get(k, (float("nan"), ""))
    f = fp16.get((k[0], k[2]), float("nan"))
    agg.setdefault((k[1], k[2]), []).append(math.log(o / min(b, b2)))
    print(f"{k[0]:20s} {k[1]:15s} {k[2]:4d} {b:8.1f} {o/b:6.3f} {b2:8.1f} {o2c/b2:7.3f} {hu:8.1f} {f:7.1f} {f/o:6.2f} {f/hu:6.2f} {hs}")
for (t, m), l in sorted(agg.items()): print(f"o2 128x64 / best base tile  {t:15s} M={m:4d}: {math.exp(sum(l)/len(l)):.3f}")
PY
echo "total $((SECONDS - T0)) s"
