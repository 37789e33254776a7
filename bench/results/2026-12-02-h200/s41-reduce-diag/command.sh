#!/usr/bin/env bash
# Session 41, call 6 (diagnostic, timing only: wrong results by construction): what the deferred reduction grid costs
# in CUDA graphs, split into a second grid's fixed cost and its work. .s41/diag-reduce.patch (applied in the working
# tree of this call): MIXGEMM_DIAG_REDUCE=empty launches a reduction grid that returns after griddepcontrol.wait,
# =none launches none (the GEMM grid still stores its partials). Heuristic picks, runs base / empty / none / none /
# empty / base, seed + Llama-2-70B + Llama-3-8B, M = 1 / 8, f16 / s8 x u4b8 g128, 32 launches per graph.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT/r
t0=$SECONDS
cmake -S . -B build-b -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_PYTHON=OFF -DMIXGEMM_BUILD_TESTS=OFF > $OUT/r/build.log 2>&1 && \
  cmake --build build-b -j 16 --target mixgemm-bench >> $OUT/r/build.log 2>&1 || { tail -20 $OUT/r/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
B=build-b/tools/mixgemm-bench
run() {  # $1 label, $2 diag value ("" = unset)
  env ${2:+MIXGEMM_DIAG_REDUCE=$2} timeout 120 $B --shapes seed,llama2-70b,llama3-8b --m 1,8 \
    --types f16.u4b8.g128,s8.u4b8.g128 --no-baselines --graph-batch 32 --iters 20 --warmup 3 --settle-ms 0 --quiet \
    --csv $OUT/r/$1.csv > $OUT/r/$1.txt 2> $OUT/r/$1.err
  echo "$1 rc=$? at $((SECONDS - t0)) s"
}
run base-1 ""; run empty-1 empty; run none-1 none; run none-2 none; run empty-2 empty; run base-2 ""
python3 - <<'PY' | tee $OUT/summary.txt
import csv, os, collections, math
out = os.environ.get("OUT", "device-out")
def load(n):
    return {(r["shape"], r["M"], r["type_spec"]): r for r in csv.DictReader(open(f"{out}/r/{n}.csv")) if r["kernel"] == "mixgemm"}
d = {n: load(n) for n in ("base-1", "base-2", "empty-1", "empty-2", "none-1", "none-2")}
def t(lbl, k): return (float(d[lbl + "-1"][k]["us_median"]) + float(d[lbl + "-2"][k]["us_median"])) / 2
print(f"{'shape':20s} {'M':>2s} {'type':14s} {'base':>7s} {'empty':>7s} {'none':>7s} | work {'':1s} fixed  (us per launch)  schedule")
acc = collections.defaultdict(list)
for k in sorted(d["base-1"]):
    b, e, n = t("base", k), t("empty", k), t("none", k)
    acc[k[2]].append((b, e, n))
    print(f"{k[0]:20s} {k[1]:>2s} {k[2]:14s} {b:7.2f} {e:7.2f} {n:7.2f} | {b-e:5.2f} {e-n:5.2f}  {d['base-1'][k]['schedule']}")
for ty, v in acc.items():
    print(f"{ty}: mean work {sum(b-e for b,e,n in v)/len(v):.2f} us, mean fixed {sum(e-n for b,e,n in v)/len(v):.2f} us over {len(v)} points")
PY
(cd $OUT && tar czf results.tgz r && rm -rf r)
echo "done at $((SECONDS - t0)) s"
