#!/usr/bin/env bash
# Session 41, call 5: cluster split-K (DSMEM reduction, no second grid) on the K > 4096 layers, where the heuristic
# runs the workspace split with the deferred reduction grid (call 4: that grid alone takes 2.9-4.2 us). Same build,
# MIXGEMM_SMALLM_CLUSTER=2 (experiment switch: SmallmCluster::kForce) against the default, heuristic picks, in CUDA
# graphs, runs alternated base / force / force / base; then a verified run of the forced path.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT/r
t0=$SECONDS
cmake -S . -B build-b -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_PYTHON=OFF -DMIXGEMM_BUILD_TESTS=OFF > $OUT/r/build.log 2>&1 && \
  cmake --build build-b -j 16 --target mixgemm-bench >> $OUT/r/build.log 2>&1 || { tail -20 $OUT/r/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
B=build-b/tools/mixgemm-bench
run() {  # $1 label, $2 env value ("" = unset)
  env ${2:+MIXGEMM_SMALLM_CLUSTER=$2} MIXGEMM_PRINT_CONFIG=1 timeout 120 $B --shapes seed,llama2-70b,llama3-8b --m 1,8 \
    --types f16.u4b8.g128,s8.u4b8.g128 --no-baselines --graph-batch 32 --iters 20 --warmup 3 --settle-ms 0 --quiet \
    --csv $OUT/r/$1.csv > $OUT/r/$1.txt 2> $OUT/r/$1.err
  echo "$1 rc=$? at $((SECONDS - t0)) s"
}
run base-1 ""; run force-1 2; run force-2 2; run base-2 ""
MIXGEMM_SMALLM_CLUSTER=2 timeout 120 $B --shapes seed,llama2-70b,llama3-8b --m 1,8,16 --types f16.u4b8.g128,s8.u4b8.g128 \
  --no-baselines --iters 3 --warmup 1 --settle-ms 0 --verify --quiet --csv $OUT/r/verify.csv > $OUT/r/verify.txt 2>&1
echo "verify rc=$? at $((SECONDS - t0)) s"
python3 - <<'PY' | tee $OUT/summary.txt
import csv, os, statistics, collections, math
out = os.environ.get("OUT", "device-out")
def load(n):
    return {(r["shape"], r["M"], r["type_spec"]): r for r in csv.DictReader(open(f"{out}/r/{n}.csv")) if r["kernel"] == "mixgemm"}
b1, b2, f1, f2 = (load(n) for n in ("base-1", "base-2", "force-1", "force-2"))
geo = collections.defaultdict(list)
for k in sorted(b1):
    b = (float(b1[k]["us_median"]) + float(b2[k]["us_median"])) / 2
    f = (float(f1[k]["us_median"]) + float(f2[k]["us_median"])) / 2
    geo[(k[2], k[1])].append(f / b)
    print(f"{k[0]:20s} M={k[1]:>2s} {k[2]:14s} base {b:7.2f} force {f:7.2f} force/base {f/b:.3f}  {b1[k]['schedule']}")
for (t, m), v in sorted(geo.items()):
    print(f"geomean {t} M={m}: {math.exp(sum(map(math.log, v))/len(v)):.3f} over {len(v)}")
bad = [r for r in csv.DictReader(open(f"{out}/r/verify.csv")) if r["kernel"] == "mixgemm" and r.get("verify") not in ("pass", "loose")]
print("verify rows not ok:", len(bad), [(r["shape"], r["M"], r["type_spec"], r.get("verify")) for r in bad[:5]])
PY
grep -h "cluster split-K\|deferred" $OUT/r/force-1.err | sort | uniq -c | head -20
(cd $OUT && tar czf results.tgz r && rm -rf r)
echo "done at $((SECONDS - t0)) s"
